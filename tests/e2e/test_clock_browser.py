"""The organiser's clock and progress board in a real Chromium: the organiser pauses
and extends the round from its clock page, the referee's page shows the paused and the new time,
time is called and the referee's page says what happens next; the progress board shows each
table's state. Screenshots at phone (390×844) and desktop (1280×800) sizes, in Chinese and
English, go to ``test-output/screenshots/clock-*.png`` for a person to look at."""

from __future__ import annotations

import pytest
from django.conf import settings

from tests.e2e.conftest import PHONE, SCREENSHOTS, log_in
from tests.factories import organiser, referee
from tests.tournament.standings.events import swiss_event
from tournament.matches import clock as clock_writes
from tournament.matches import services
from tournament.matches.models import RefereeAssignment, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "clock-browser-pass-1"
DESKTOP = {"width": 1280, "height": 800}
OTHER_VIEWS = (
    ("phone", PHONE, "en", "en"),
    ("desktop", DESKTOP, "zh-hans", "zh"),
    ("desktop", DESKTOP, "en", "en"),
)
WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def context_for(browser, live_server, *, size, language):
    context = browser.new_context(viewport=size, locale="zh-CN", base_url=live_server.url)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "domain": host, "path": "/"}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.add_init_script(WATCH)
    return context, page



def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"clock-{name}.png"), full_page=True)


@pytest.mark.parametrize("size_name", ["phone", "desktop"])
def test_pause_extend_call_time_and_the_board(browser, live_server, size_name):
    """The organiser (at ``size_name``) pauses, resumes, extends and calls time; the referee's phone
    follows. The other sizes and English are photographed once (the phone run)."""
    size = {"phone": PHONE, "desktop": DESKTOP}[size_name]
    event = swiss_event()
    boss = organiser(username="clock-boss")
    ref = referee(username="clock-ref", first_name="王裁判")
    for user in (boss, ref):
        user.set_password(PASSWORD)
        user.save()
    event.tournament.organisers.add(boss)
    tid, rid = event.tournament.pk, event.second.pk
    tables = list(event.second.matches.exclude(ew_pair=None).order_by("table__number").select_related("table"))
    for index, match in enumerate(tables):
        RefereeAssignment.objects.create(round=event.second, table=match.table, referee=ref)
        match.table.area = "A区" if index % 2 == 0 else "B区"
        match.table.save()
    clock_writes.round_start(round_id=rid)
    match = tables[0]
    services.deal_record(match_id=match.pk, outcome={"order": ["N", "E", "S"]})

    boss_context, boss_page = context_for(browser, live_server, size=size, language="zh-hans")
    ref_context, ref_page = context_for(browser, live_server, size=PHONE, language="zh-hans")
    try:
        log_in(boss_page, "clock-boss", PASSWORD)
        log_in(ref_page, "clock-ref", PASSWORD)
        clock = f"/t/{tid}/manage/rounds/{rid}/clock/"
        boss_page.goto(clock)
        boss_page.fill("#round-reason", "火警演习")
        boss_page.locator(".clock-controls button[value=pause]").click()
        boss_page.wait_for_load_state()
        assert Round.objects.get(pk=rid).paused_at is not None
        assert "已暂停" in boss_page.content()
        ref_page.goto(f"/referee/matches/{match.pk}/")
        assert "已暂停" in ref_page.locator(".clock").first.inner_text()

        boss_page.fill("#round-reason", "警报解除")
        boss_page.locator(".clock-controls button[value=resume]").click()
        boss_page.wait_for_load_state()
        boss_page.fill("#round-reason", "开赛晚了")
        boss_page.fill("#round-minutes", "10")
        boss_page.locator(".clock-controls button[value=extend]").click()
        boss_page.wait_for_load_state()
        ref_page.goto(f"/referee/matches/{match.pk}/")
        assert "50" in ref_page.locator(".clock").first.inner_text()  # 40 + 10 minutes left
        shot(boss_page, f"round-clock-{size_name}-zh")

        board = f"/t/{tid}/manage/rounds/{rid}/board/"
        boss_page.goto(board)
        boss_page.wait_for_load_state("networkidle")
        shot(boss_page, f"board-{size_name}-zh")

        for other, other_size, language, suffix in OTHER_VIEWS if size_name == "phone" else ():
            context, page = context_for(browser, live_server, size=other_size, language=language)
            try:
                log_in(page, "clock-boss", PASSWORD)
                page.goto(clock)
                shot(page, f"round-clock-{other}-{suffix}")
                page.goto(board)
                page.wait_for_load_state("networkidle")
                shot(page, f"board-{other}-{suffix}")
                assert page.evaluate("window.__cspViolations") == []
            finally:
                context.close()

        boss_page.goto(clock)
        boss_page.fill("#round-reason", "场馆关门")
        boss_page.once("dialog", lambda dialog: dialog.accept())  # "call time now" asks first
        with boss_page.expect_navigation():
            boss_page.locator(".clock-controls button[value=call]").click()
        ref_page.goto(f"/referee/matches/{match.pk}/")
        assert "第 2 副为最后一副" in ref_page.locator(".clock").first.inner_text()
        shot(ref_page, "referee-time-up-phone-zh")
        for page in (boss_page, ref_page):
            assert page.evaluate("window.__cspViolations") == []
    finally:
        boss_context.close()
        ref_context.close()

    # the referee's page after time is called, at the other sizes and in English
    for other, other_size, language, suffix in OTHER_VIEWS if size_name == "phone" else ():
        context, page = context_for(browser, live_server, size=other_size, language=language)
        try:
            log_in(page, "clock-ref", PASSWORD)
            page.goto(f"/referee/matches/{match.pk}/")
            shot(page, f"referee-time-up-{other}-{suffix}")
            assert page.evaluate("window.__cspViolations") == []
        finally:
            context.close()


SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.mark.parametrize("size_name", ["phone", "desktop"])
def test_the_progress_board_moves_as_deals_are_entered(browser, live_server, size_name):
    """The organiser watches the board while a referee enters deals on their page: the table goes
    from not started to playing to finished awaiting sign-off, and the counts follow."""
    from tests.tournament.standings.events import play_out

    event = swiss_event()
    boss = organiser(username="board-boss")
    ref = referee(username="board-ref")
    for user in (boss, ref):
        user.set_password(PASSWORD)
        user.save()
    event.tournament.organisers.add(boss)
    tid, rid = event.tournament.pk, event.second.pk
    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").select_related("table").first()
    RefereeAssignment.objects.create(round=event.second, table=match.table, referee=ref)
    context, page = context_for(browser, live_server, size=SIZES[size_name], language="zh-hans")
    ref_context, ref_page = context_for(browser, live_server, size=PHONE, language="zh-hans")
    try:
        log_in(page, "board-boss", PASSWORD)
        log_in(ref_page, "board-ref", PASSWORD)
        page.goto(f"/t/{tid}/manage/rounds/{rid}/board/")
        row = page.locator(".board-row").first
        assert "not_started" in row.get_attribute("class")

        ref_page.goto(f"/referee/matches/{match.pk}/")  # the referee taps a deal: N, S first (1-2)
        ref_page.locator("#entry a.seat-N").click()
        ref_page.locator("#entry span.seat-N.tapped").wait_for()
        ref_page.locator("#entry a.seat-S").click()
        ref_page.locator("#entry form button[type=submit]").click()
        ref_page.locator("#entry a.seat-N").wait_for()  # deal 2's seats: deal 1 is recorded
        assert match.deals.count() == 1
        page.reload()
        row = page.locator(".board-row").first
        assert "playing" in row.get_attribute("class") and row.locator("td.num").first.inner_text() == "1"

        play_out(match)  # the rest of the match, as the referee would enter it
        page.reload()
        assert "awaiting" in page.locator(".board-row").first.get_attribute("class")
        assert "1" in page.locator(".board-counts .badge.awaiting strong").inner_text()
        shot(page, f"board-moves-{size_name}-zh")
        assert page.evaluate("window.__cspViolations") == []
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        context.close()
        ref_context.close()
