"""A whole organiser's day in a real Chromium, at a phone's size (390×844), in Chinese and then in
English, as a new organiser would do it, through the pages: create a Guandan event, import a roster (.xlsx, 16 pairs
in 2 departments), add a referee (one-time link), check pairs in at the door, add a Swiss stage and
a knockout, draw and publish three Swiss rounds (one deal entered on the referee's page, the rest
through the services as a referee would type them), correct a signed-off match, advance to the
knockout from its own page, play it to a champion, set prize tiers beyond the top 8, download the
workbook and read it back, archive the event.

On every page visited (tests/e2e/language.py): nothing wider than the screen, no 500, the page's
language only (no English word nor internal code on the Chinese pages, no Chinese on the English ones
but what people typed); pages offer no action their state refuses; every one-tap destructive action
asks first, and a dismissed question changes nothing. Screenshots in
``test-output/screenshots/day-*-<zh|en>.png``."""

from __future__ import annotations

import io
import re
from datetime import date

import pytest
from django.conf import settings
from openpyxl import Workbook, load_workbook

from tests.e2e.conftest import new_phone
from tests.e2e.language import LANGUAGES, Checked
from tests.e2e.test_archived_browser import VISIBLE_WRITES
from tests.e2e.test_event_life_browser import signed_in_as
from tests.e2e.test_referees_browser import add_referee
from tests.factories import organiser
from tests.tournament.standings.events import play_out
from tournament.matches.models import MatchStatus, Round, Stage
from tournament.matches.services import match_sign_off
from tournament.registration.models import Pair, PairStatus, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_eager")]

PAIRS = 16
SEAT_LETTER = re.compile(r"(?<![A-Za-z])[NESW](?![A-Za-z])")


def roster_workbook() -> bytes:
    """16 pairs in two departments, with the template's Chinese headers."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["姓名", "工号", "部门", "搭档工号", "手机"])
    for number in range(PAIRS):
        department = "财务部" if number % 2 == 0 else "市场部"
        first, second = 2000 + 2 * number, 2001 + 2 * number
        sheet.append([f"选手{number:02d}甲", str(first), department, str(second), ""])
        sheet.append([f"选手{number:02d}乙", str(second), department, str(first), ""])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


class Day(Checked):
    """The organiser's phone: every visit is checked (no 500, fits the screen, the page's language
    only); a question (``data-confirm``) is answered as ``answer`` says and kept in ``asked``."""

    def __init__(self, page, language: str, prefix: str = "day"):
        super().__init__(page, language, prefix)
        self.answer = "accept"
        self.asked: list[str] = []
        page.on("dialog", self.on_dialog)

    def on_dialog(self, dialog) -> None:
        self.asked.append(dialog.message)
        if self.answer == "accept":
            dialog.accept()
        else:
            dialog.dismiss()

    def writes(self) -> list[str]:
        return self.page.evaluate(VISIBLE_WRITES)

    def submit(self, locator) -> None:
        locator.click()
        self.page.wait_for_load_state()


def play_round(round_: Round, *, skip: int | None = None) -> None:
    """Every match of a published round played out and signed off (a referee's typing), but
    ``skip``'s."""
    for number, match in enumerate(round_.matches.exclude(ew_pair=None).order_by("table__number")):
        if match.pk == skip:
            continue
        if match.status in (MatchStatus.PENDING, MatchStatus.RUNNING):
            play_out(match, winner="NS" if number % 2 == 0 else "EW", loser_first=number % 3)
        match_sign_off(match_id=match.pk)


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_organisers_whole_day(page, browser, live_server, language):
    boss = organiser(username="boss", first_name="赵主任")  # shown by name, as an organiser's account is
    signed_in_as(page, boss, live_server, language)
    day = Day(page, language)

    # The event, Guandan, from the new-event page.
    day.visit("/t/new/", "new")
    page.fill("input[name=name]", "职工掼蛋赛")
    page.fill("input[name=venue]", "活动中心")
    page.fill("input[name=starts_on]", date.today().isoformat())
    day.submit(page.locator("main form button[type=submit]"))
    tournament = Tournament.objects.get(name="职工掼蛋赛")
    assert tournament.game == "guandan"
    tid = tournament.pk
    day.check("event")

    # The roster.
    day.visit(f"/t/{tid}/manage/import/", "import")
    page.set_input_files(
        "input[name=file]",
        files=[{"name": "名单.xlsx", "mimeType": "application/vnd.ms-excel", "buffer": roster_workbook()}],
    )
    day.submit(page.locator("main form button[type=submit]"))
    assert Pair.objects.filter(tournament=tournament).count() == PAIRS
    day.visit(f"/t/{tid}/manage/pairs/", "pairs")
    assert page.locator("main form input[name=first_name]").count() == 1  # open: a pair can be added
    pairs = list(Pair.objects.filter(tournament=tournament).order_by("number"))
    # Withdraw asks first; dismissed, the pair stays.
    day.answer = "dismiss"
    withdraw = page.locator("main form button[data-confirm]").first
    withdraw.click()
    page.wait_for_timeout(300)
    assert day.asked and Pair.objects.filter(tournament=tournament, status=PairStatus.WITHDRAWN).count() == 0
    day.answer = "accept"

    # A referee, with a one-time link.
    link = add_referee(page, tid, "王裁判", phone="13800000001")
    day.check("referee-link")
    referee_page = new_phone(browser, live_server)
    referee_page.context.add_cookies(  # the referee's phone in the day's language
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    referee = Day(referee_page, language)
    referee_page.goto(link)
    referee_page.get_by_role("button", name=day.zh("登录", "Sign in")).click()
    referee_page.wait_for_url(f"{live_server.url}/referee/")

    # The door: everyone checks in; an undo asks first.
    day.visit(f"/t/{tid}/manage/check-in/", "door")
    for pair in pairs:
        page.locator(f"#pair-{pair.pk} button").click()
        page.locator(f"#pair-{pair.pk}.door-checked_in").wait_for()
    first = pairs[0]
    day.answer = "dismiss"
    page.locator(f"#pair-{first.pk} button[data-confirm]").click()
    page.wait_for_timeout(300)
    first.refresh_from_db()
    assert first.status == PairStatus.CHECKED_IN  # dismissed: still checked in
    day.answer = "accept"
    page.locator(f"#pair-{first.pk} button[data-confirm]").click()
    page.locator(f"#pair-{first.pk}.door-registered").wait_for()
    page.locator(f"#pair-{first.pk} button").click()
    page.locator(f"#pair-{first.pk}.door-checked_in").wait_for()
    assert Pair.objects.filter(tournament=tournament, status=PairStatus.CHECKED_IN).count() == PAIRS
    day.check("door-all-in")

    # The stages: a Swiss stage, then a knockout.
    for name, format_ in (("预赛", "swiss"), ("淘汰赛", "knockout")):
        day.visit(f"/t/{tid}/manage/stages/", f"stages-{format_}")
        page.fill("main form input[name=name]", name)
        page.select_option("main form select[name=format]", format_)
        if format_ == "swiss":
            page.fill("main form input[name=department_rounds]", "1")
        day.submit(page.locator("main form button[type=submit]").last)
    swiss = Stage.objects.get(tournament=tournament, name="预赛")
    knockout = Stage.objects.get(tournament=tournament, name="淘汰赛")

    # The knockout waits for its entrants: no Draw button, the advance step instead.
    day.visit(f"/t/{tid}/manage/stages/{knockout.pk}/", "knockout-waiting")
    assert page.locator("#advance-first").is_visible()
    assert page.locator(f"form[action$='/stages/{knockout.pk}/draw/']").count() == 0

    # Three Swiss rounds.
    referee_match = None
    for number in (1, 2, 3):
        day.visit(f"/t/{tid}/manage/stages/{swiss.pk}/", f"swiss-{number}")
        day.submit(page.locator(f"form[action$='/stages/{swiss.pk}/draw/'] button[type=submit]"))
        round_ = Round.objects.get(stage=swiss, number=number)
        day.check(f"round-{number}-draft")
        if number == 1:  # deleting a draft asks first
            day.answer = "dismiss"
            page.locator("button[data-confirm]").click()
            page.wait_for_timeout(300)
            assert Round.objects.filter(pk=round_.pk).exists()  # dismissed: the draft stays
            day.answer = "accept"
            day.submit(page.locator("button[data-confirm]"))
            assert not Round.objects.filter(pk=round_.pk).exists()  # accepted: deleted; drawn again
            day.visit(f"/t/{tid}/manage/stages/{swiss.pk}/", "swiss-1-again")
            day.submit(page.locator(f"form[action$='/stages/{swiss.pk}/draw/'] button[type=submit]"))
            round_ = Round.objects.get(stage=swiss, number=number)
        day.submit(page.get_by_role("button", name=day.zh("公布", "Publish"), exact=True))
        round_.refresh_from_db()
        assert round_.published_at is not None
        day.check(f"round-{number}")
        if number == 1:
            day.visit(f"/t/{tid}/manage/rounds/{round_.pk}/table-cards/", "table-cards")
            cards = page.locator(".table-card").all_inner_texts()
            assert cards and all(day.zh("北", "North") in card for card in cards), cards  # seats by name
            if language == "zh-hans":  # no seat letter on a Chinese card (English says N/S for the side)
                assert not any(SEAT_LETTER.search(card) for card in cards), cards
            # The referee gets every table, and enters a deal on the referee's page.
            day.visit(f"/t/{tid}/manage/rounds/{round_.pk}/referees/", "round-referees")
            form = page.locator("#tables-by-hand")
            form.locator("select[name=hand-referee]").select_option(label="王裁判")
            form.locator("input[name=hand-first]").fill("1")
            form.locator("input[name=hand-last]").fill(str(PAIRS // 2))
            day.submit(form.locator("button[type=submit]"))
            referee_match = round_.matches.exclude(ew_pair=None).order_by("table__number").first()
            referee_page.goto("/referee/")
            referee_page.locator(f"a[href$='/referee/matches/{referee_match.pk}/']").first.click()
            referee.check("referee-match")
            referee_page.locator("#entry a.seat-N").click()
            referee_page.locator("#entry span.seat-N.tapped").wait_for()
            referee_page.locator("#entry a.seat-S").click()
            referee_page.locator("#entry form button[type=submit]").click()
            referee_page.locator("#entry a.seat-N").wait_for()  # deal 2's seats: deal 1 is recorded
            assert referee_match.deals.count() == 1
            referee.check("referee-entry")
            # The round clock: calling time at the running table asks first.
            day.visit(f"/t/{tid}/manage/rounds/{round_.pk}/clock/", "clock")
            day.answer = "dismiss"
            page.locator("details.table-clock summary").first.click()
            page.fill(f"#reason-{referee_match.pk}", "演练")
            page.locator(f"form[action$='/tables/{referee_match.pk}/change/'] button[data-confirm][value=call]").click()
            page.wait_for_timeout(300)
            assert day.zh("叫停", "Call time") in day.asked[-1]
            referee_match.refresh_from_db()
            assert referee_match.time_called_at is None
            day.answer = "accept"
        play_round(round_)

    # A correction: unlock a signed-off match of round 3, change its first deal, sign off again.
    third = Round.objects.get(stage=swiss, number=3)
    corrected = third.matches.exclude(ew_pair=None).order_by("table__number")[1]  # EW won, NS won deal 1
    day.visit(f"/referee/matches/{corrected.pk}/unlock/", "unlock")
    page.fill("input[name=reason]", "记分有误")
    seen = page.locator("input[name=dependents_seen]")
    if seen.count():
        seen.check()
    day.submit(page.locator("main form button[type=submit]").last)
    corrected.refresh_from_db()
    assert corrected.status == MatchStatus.FINISHED
    day.visit(f"/referee/matches/{corrected.pk}/deals/1/edit/?order=NES", "deal-edit")
    page.fill("input[name=reason]", "名次记错")
    day.submit(page.locator("#entry form button[type=submit]"))
    assert corrected.deals.get(number=1).outcome["order"][:2] == ["N", "E"]
    day.visit(f"/referee/matches/{corrected.pk}/", "corrected")
    page.get_by_role("button", name=day.zh("确认结果", "Confirm the result")).click()
    page.locator(f"#match a[href$='/{corrected.pk}/unlock/']").wait_for()  # signed off again
    day.check("corrected-signed-off")
    corrected.refresh_from_db()
    assert corrected.status == MatchStatus.CONFIRMED

    # The knockout: the advance step on its own page, then rounds to a champion.
    day.visit(f"/t/{tid}/manage/stages/{knockout.pk}/", "knockout-advance")
    page.fill("#advance-count", "8")
    day.submit(page.locator("#advance-first button[type=submit]"))
    day.visit(f"/t/{tid}/manage/stages/{knockout.pk}/", "knockout")
    assert page.locator("#advance-first").count() == 0
    for number in (1, 2, 3):
        day.submit(page.locator(f"form[action$='/stages/{knockout.pk}/draw/'] button[type=submit]"))
        day.submit(page.get_by_role("button", name=day.zh("公布", "Publish"), exact=True))
        round_ = Round.objects.get(stage=knockout, number=number)
        day.check(f"knockout-{number}")
        play_round(round_)
        day.visit(f"/t/{tid}/manage/stages/{knockout.pk}/", f"knockout-after-{number}")
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    # A finished stage offers no Draw; a finished event's pairs page has no add form.
    assert page.locator(f"form[action$='/stages/{knockout.pk}/draw/']").count() == 0
    day.visit(f"/t/{tid}/manage/pairs/", "pairs-finished")
    assert page.locator("main form input[name=first_name]").count() == 0

    # Prize tiers, places 9–12 included.
    day.visit(f"/t/{tid}/manage/prizes/", "prizes")
    tiers = [("冠军", 1), ("亚军", 1), ("季军", 2), ("八强", 4), ("鼓励奖", 4)]
    for index, (name, count) in enumerate(tiers):
        if page.locator(f"input[name=tiers-{index}-name]").count() == 0:
            day.submit(page.locator("main form button[type=submit]").first)
        page.fill(f"input[name=tiers-{index}-name]", name)
        page.fill(f"input[name=tiers-{index}-pair_count]", str(count))
    day.submit(page.locator("main form button[type=submit]").first)
    day.check("prizes-saved")
    awards = page.locator("main table.list").last.locator("tbody tr").all_inner_texts()
    assert len(awards) == 12 and sum("鼓励奖" in row for row in awards) == 4, awards

    # The workbook.
    day.visit(f"/t/{tid}/manage/exports/", "exports")
    page.locator("main form select[name=language]").first.select_option("zh" if language == "zh-hans" else "en")
    day.submit(page.locator("main form button[type=submit]").first)
    page.goto(f"/t/{tid}/manage/exports/")
    with page.expect_download() as download_info:
        page.locator("main a[href$='/download/']").first.click()
    workbook = load_workbook(io.BytesIO(download_info.value.path().read_bytes()))
    cells = {str(cell) for sheet in workbook.worksheets for row in sheet.iter_rows(values_only=True) for cell in row}
    rounds = {day.zh("四分之一决赛", "Quarter-finals"), day.zh("半决赛", "Semi-finals"), day.zh("决赛", "Final")}
    assert rounds <= cells, sorted(cells)[:50]  # the knockout's rounds named, in the workbook's language
    assert "鼓励奖" in cells and "冠军" in cells

    # Archived: nothing offered but Unarchive.
    day.visit(f"/t/{tid}/manage/event/", "event-finished")
    day.submit(page.get_by_role("button", name=day.zh("归档", "Archive"), exact=True))
    for name, url in {
        "pairs": f"/t/{tid}/manage/pairs/",
        "checkin": f"/t/{tid}/manage/check-in/",
        "stages": f"/t/{tid}/manage/stages/",
        "stage": f"/t/{tid}/manage/stages/{knockout.pk}/",
        "prizes": f"/t/{tid}/manage/prizes/",
    }.items():
        day.visit(url, f"archived-{name}")
        assert day.writes() == [], name
    day.visit(f"/t/{tid}/manage/event/", "archived-event")
    assert day.writes() == [day.zh("取消归档", "Unarchive")]
    assert day.errors == [] and referee.errors == []
    referee_page.context.close()
