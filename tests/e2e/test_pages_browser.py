"""Every page says exactly what happened, in a real Chromium at a phone's size (390×844)
and a laptop's (1366×800), in Chinese and English. Screenshots go to
``test-output/screenshots/pages-*.png`` for a person to look at."""

from __future__ import annotations

import itertools

import pytest
from django.conf import settings
from django.core.cache import cache
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, SCREENSHOTS, log_in
from tests.e2e.pages_event import PASSWORD, PagesEvent, pages_event
from tournament.matches import clock
from tournament.matches.models import Deal, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 800}
VIEWS = (("phone", PHONE, "zh-hans"), ("phone", PHONE, "en"), ("laptop", LAPTOP, "zh-hans"), ("laptop", LAPTOP, "en"))


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"pages-{name}.png"), full_page=True)


def overflow(page) -> int:
    """How many pixels the page is wider than the screen (0: nothing to scroll sideways)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))


def summary_of(page, round_number: int) -> str:
    return page.locator("details.match-history summary").nth(round_number - 1).inner_text()


@pytest.fixture
def event() -> PagesEvent:
    return pages_event()


def test_a_pairs_page_says_its_own_score_first_and_a_forfeit_as_a_forfeit(event, open_page):
    t = event.tournament_id
    running: Match = event.running
    ew_pair, ns_pair = running.ew_pair_id, running.ns_pair_id
    for kind, size, language in VIEWS:
        page = open_page(size, language)
        # E/W of the running match: N/S is at A, E/W at 2 — E/W's own page reads "2 : A"
        page.goto(f"/t/{t}/pairs/{ew_pair}/")
        line = summary_of(page, 2)
        assert "2 : A" in line and ("坐东西" in line or "sat E/W" in line), line
        page.goto(f"/t/{t}/pairs/{ns_pair}/")
        assert "A : 2" in summary_of(page, 2)
        # the failed A attempt is marked in the public deal history, as on the referee's page
        note = page.locator("details.match-history").nth(1).locator(".a-note.a-failed")
        assert note.count() == 1 and note.inner_text() in ("打A失败", "A failed")
        shot(page, f"pair-own-score-{kind}-{language}")
        # the pair that forfeited, and its opponents: 弃权, never the 2 : 2 the match stood at
        page.goto(f"/t/{t}/pairs/{event.forfeited.ew_pair_id}/")
        line = summary_of(page, 2)
        assert ("弃权" in line or "forfeit" in line) and "2 : 2" not in line, line
        shot(page, f"pair-forfeit-{kind}-{language}")
        page.goto(f"/t/{t}/pairs/{event.forfeited.ns_pair_id}/")
        assert "对手弃权" in summary_of(page, 2) or "opponents forfeit" in summary_of(page, 2)
        page.goto(f"/t/{t}/draw/{event.second_round_id}/")
        assert page.locator(".badge.forfeit").inner_text() in ("东西弃权", "E/W forfeit")
        page.goto(f"/t/{t}/matches/{event.forfeited.pk}/")
        assert page.locator(".versus .badge.forfeit").count() == 1 and page.locator(".versus .pub-big").count() == 0
        assert overflow(page) == 0
        shot(page, f"match-forfeit-{kind}-{language}")


def test_time_called_is_said_once_and_a_finished_match_shows_no_countdown(event, open_page):
    t = event.tournament_id
    clock.round_start(round_id=event.second_round_id)
    page = open_page(PHONE, "zh-hans")
    page.goto(f"/t/{t}/matches/{event.finished.pk}/")  # round 1: finished, its clock long gone
    assert page.locator("[data-countdown]").count() == 0
    page.goto(f"/t/{t}/matches/{event.running.pk}/")
    assert page.locator("[data-countdown]").count() == 1  # a running match counts down
    clock.round_call_now(round_id=event.second_round_id, reason="时间到")
    cache.clear()
    for kind, size, language in VIEWS:
        page = open_page(size, language)
        page.goto(f"/t/{t}/screen/?interval=60")
        slide = page.locator(".slide").first
        slide.wait_for()
        words = "已到时" if language == "zh-hans" else "Time called"
        assert slide.locator(".screen-clock").inner_text().count(words) == 1
        assert page.locator("[data-countdown]").count() == 0
        shot(page, f"screen-time-called-{kind}-{language}")
        page.goto(f"/t/{t}/draw/{event.second_round_id}/")
        assert page.locator("main").inner_text().count(words) == 1


def test_the_referee_reads_a_finished_rounds_table_and_undo_asks_for_a_reason(event, open_page):
    for kind, size, language in VIEWS:
        page = open_page(size, language)
        log_in(page, "pages-ref", PASSWORD)
        response = page.goto(f"/referee/matches/{event.finished.pk}/")
        assert response is not None and response.status == 200  # read-only, not 404
        assert page.locator(".notice.read-only").is_visible()
        assert page.locator("#entry").count() == 0 and page.locator("details.undo").count() == 0
        shot(page, f"referee-read-only-{kind}-{language}")
        # the header stays one line on a phone, in English too
        assert page.locator(".topbar").bounding_box()["height"] < 60
        assert overflow(page) == 0
    page = open_page(PHONE, "zh-hans")
    log_in(page, "pages-ref", PASSWORD)
    page.goto(f"/referee/matches/{event.running.pk}/?order=NEW")
    pills = [page.locator(".taps li").nth(i).bounding_box() for i in range(3)]
    for left, right in itertools.pairwise(pills):  # the tapped seats no longer overlap
        assert left["x"] + left["width"] <= right["x"] or left["y"] + left["height"] <= right["y"]
    assert [page.locator(".taps li").nth(i).inner_text().split()[-1] for i in range(3)] == ["北", "东", "西"]
    shot(page, "referee-taps-phone-zh-hans")
    page.goto(f"/referee/matches/{event.running.pk}/")
    page.locator("details.undo summary").click()
    page.locator(".undo-form [type=submit]").click()  # no reason: the browser keeps the form
    assert page.locator("#undo-reason").evaluate("el => el.validity.valueMissing") is True
    assert Deal.objects.filter(match=event.running).count() == 4
    page.locator("#undo-reason").fill("点错了")
    shot(page, "referee-undo-reason-phone-zh-hans")
    page.locator(".undo-form [type=submit]").click()
    expect(page.locator("table.deals tbody tr")).to_have_count(3)  # htmx swapped the match in
    assert Deal.objects.filter(match=event.running).count() == 3
    deleted = Deal.history.filter(match_id=event.running.pk, history_type="-").get()
    assert deleted.history_change_reason == "点错了"  # the referee's reason, as typed


def test_the_organisers_pages_in_chinese(event, open_page):
    t, m = event.tournament_id, event.running.pk
    for kind, size, language in VIEWS:
        page = open_page(size, language)
        log_in(page, "pages-boss", PASSWORD)
        page.goto(f"/referee/matches/{event.finished.pk}/audit/")
        text = page.locator(".audit-log").inner_text()
        if language == "zh-hans":
            assert "状态：" in text and "已确认" in text and "status:" not in text
        else:
            assert "status: " in text and "Confirmed" in text
        assert overflow(page) == 0
        shot(page, f"audit-{kind}-{language}")
        page.goto(f"/referee/matches/{m}/deals/1/delete/")
        recorded = page.locator("main p").nth(1).inner_text()
        assert recorded in ("原录入：北 › 南", "As entered: N › S"), recorded
        page.goto(f"/t/{t}/manage/pairs/")
        button = page.locator("button[data-confirm]").first
        colours = button.evaluate(
            "b => [getComputedStyle(b).color, getComputedStyle(b.closest('td') || document.body).backgroundColor]"
        )
        assert colours[0] != "rgb(255, 255, 255)" and colours[0] != colours[1]  # no longer white on white
        assert page.locator(".topbar").bounding_box()["height"] < 60 or kind == "laptop"
        shot(page, f"pairs-{kind}-{language}")
        page.goto(f"/t/{t}/manage/event/")
        assert "timed-40" not in page.locator("main").inner_text()  # the profile by its title


def test_phone_standings_keep_rank_and_pair_in_place(event, open_page):
    for language in ("zh-hans", "en"):
        page = open_page(PHONE, language)
        page.goto(f"/t/{event.tournament_id}/standings/")
        assert page.locator(".scroll-hint").is_visible()
        first = page.locator("tbody th.sticky").first
        before = first.bounding_box()["x"]
        scroller = page.locator(".standings-scroll")
        scroller.evaluate("el => el.scrollTo(el.scrollWidth, 0)")
        assert scroller.evaluate("el => el.scrollLeft") > 0  # the tie-breaks scroll …
        assert first.bounding_box()["x"] == before  # … and rank and pair stay put
        assert first.is_visible()
        shot(page, f"standings-scrolled-phone-{language}")
        page.set_viewport_size(LAPTOP)
        assert not page.locator(".scroll-hint").is_visible()  # nothing to scroll on a laptop
        shot(page, f"standings-laptop-{language}")


def test_a_locked_out_login_gets_the_sites_page_in_its_language(open_page):
    from tests.factories import UserFactory

    UserFactory(username="locked-ref", password="right-password-123")
    for language, words in (("zh-hans", "密码错误次数过多"), ("en", "Too many wrong passwords")):
        page = open_page(PHONE, language)
        for _attempt in range(settings.AXES_FAILURE_LIMIT):
            page.goto("/accounts/login/")
            page.fill("input[name=username]", "locked-ref")
            page.fill("input[name=password]", "wrong")
            page.locator("form [type=submit]").last.click()
            page.wait_for_load_state()
        assert words in page.locator("main").inner_text()
        assert page.locator(".topbar").is_visible()  # the site's page, with its header and style
        shot(page, f"lockout-phone-{language}")
