"""A Dou Dizhu event run end to end in a real Chromium, in Chinese at a phone's size (390×844), through the
pages as an organiser, two referees and the players would: the event created with seed 004's options
chosen on its page (3 deals a table, the landlord drawn by lot, scoring by cards left, base, cap, bye
points, players entering), nine players imported as individuals, checked in at the door, a points stage of
three rounds with a cut to six after round 2 and a final table of three; round 1 entered by one referee,
round 2 by the players at their table (one enters, another confirms with a PIN), round 3 by another
referee; a signed-off table corrected; the advance to the final; the champion on the placings page; the
big screen; the workbook read back with openpyxl; the printed draw and score sheets and the table cards.

Only the tables nobody in this story sits at are played through the services (as their referees would
type them). Every page is checked: no 500, nothing wider than the screen, no English word or internal
code, and nothing in a pair's words (参赛对, 对号, N/S …). Screenshots: ``test-output/screenshots/ddz-*.png``."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from datetime import date

import pytest
from openpyxl import Workbook, load_workbook

from tests.e2e.conftest import new_phone
from tests.e2e.test_event_life_browser import signed_in_as
from tests.e2e.test_organiser_day_browser import Day
from tests.e2e.test_referees_browser import add_referee
from tests.factories import organiser
from tournament.matches import player_entry
from tournament.matches.models import Match, MatchStatus, Round, Stage
from tournament.matches.services import deal_record, match_sign_off
from tournament.registration.models import Pair, PairStatus, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_eager")]

PLAYERS = 9
PAIR_WORDS = re.compile(r"参赛对|对号|对名|对未到|对退赛|逐对|对数|获奖对|南北|东西|打 —|\d\s*对(?![局方手])|None")
"""A pair's words (and an empty value shown as Python's None) on a page of individuals. (The roster's help
may say an individual's roster has no partner column, 搭档: the workbook may not have one.)"""


def roster_workbook() -> bytes:
    """Nine players, one row each, no partner column (the individual roster's Chinese headers)."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["姓名", "工号", "部门", "手机"])
    for number in range(1, PLAYERS + 1):
        sheet.append([f"选手{number}号", f"D{number:03d}", "财务部" if number % 2 else "市场部", ""])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


class Story(Day):
    """A phone of the story: every page checked as the organiser's day checks it, and in an individual's words."""

    def check(self, name: str, *, typed: Iterable[str] = ()) -> None:
        super().check(f"ddz-{name}", typed=typed)
        text = self.page.locator("body").inner_text()
        found = PAIR_WORDS.findall(text)
        assert not found, (name, found)


def cards_left(winner: str) -> dict[str, int]:
    """A deal scored by cards left: ``winner`` went out, the others hold 5 and 9."""
    left = {"E": 5, "S": 9, "W": 7}
    left[winner] = 0
    return left


def service_deal(landlord: str, winner: str) -> dict:
    return {"landlord": landlord, "cards_left": cards_left(winner)}


def play_by_service(match: Match) -> None:
    """A table nobody in the story sits at: its referee's three deals and sign-off."""
    for landlord, winner in (("E", "E"), ("W", "S"), ("S", "W")):
        deal_record(match_id=match.pk, outcome=service_deal(landlord, winner))
    match_sign_off(match_id=match.pk)


def enter_deal(page, landlord: str, winner: str, *, confirm: str = "确认", referee: bool = True) -> None:
    """One deal on a Dou Dizhu entry (the referee's page or the table's): the landlord, each seat's cards
    left, the preview, then confirm."""
    entry = page.locator("#entry")
    entry.locator(f"input[type=radio][name=landlord][value={landlord}]").check()
    for seat, count in cards_left(winner).items():
        entry.locator(f"input[type=number][name=cards_left_{seat.lower()}]").fill(str(count))
    entry.get_by_role("button", name="预览").click()
    page.locator(".preview").wait_for()
    page.locator("#entry").get_by_role("button", name=confirm, exact=True).click()
    if referee:  # the referee's page: the next deal's entry, or the table over
        page.locator(".preview").wait_for(state="detached")
    else:  # the table's page: the entry goes through the phone's queue
        page.wait_for_load_state("networkidle")


def referee_phone(browser, live_server, link: str, screenshot_name: str) -> Story:
    phone = new_phone(browser, live_server)
    story = Story(phone, "zh-hans")
    phone.goto(link)
    phone.get_by_role("button", name="登录").click()
    phone.wait_for_url(f"{live_server.url}/referee/")
    story.check(screenshot_name)
    return story


def assign(day: Story, tid: int, round_: Round, referee_name: str) -> None:
    """The round's tables 1–3 to ``referee_name``, on the round's referees page."""
    day.visit(f"/t/{tid}/manage/rounds/{round_.pk}/referees/", f"round-{round_.number}-referees")
    form = day.page.locator("#tables-by-hand")
    form.locator("select[name=hand-referee]").select_option(label=referee_name)
    form.locator("input[name=hand-first]").fill("1")
    form.locator("input[name=hand-last]").fill("3")
    day.submit(form.locator("button[type=submit]"))


def referee_plays(referee: Story, match: Match, name: str) -> None:
    """A referee enters a table's three deals on its page and signs it off."""
    page = referee.page
    page.goto(f"/referee/matches/{match.pk}/")
    referee.check(f"{name}-referee")
    for landlord, winner in (("E", "S"), ("W", "W"), ("S", "E")):  # drawn by lot, then in turn: E → W → S
        enter_deal(page, landlord, winner)
    referee.check(f"{name}-referee-done")
    page.get_by_role("button", name="确认结果").click()
    page.get_by_role("button", name="确认结果").wait_for(state="detached")
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED


def test_a_dou_dizhu_event_from_creation_to_champion(page, browser, live_server, screenshot):
    boss = organiser(username="ddz-boss", first_name="钱主任")
    signed_in_as(page, boss, live_server, "zh-hans")
    day = Story(page, "zh-hans")

    # The event: Dou Dizhu, seed 004's options on its page, players entering at their tables.
    day.visit("/t/new/?game=doudizhu", "new")
    page.fill("input[name=name]", "职工斗地主赛")
    page.fill("input[name=starts_on]", date.today().isoformat())
    day.submit(page.locator("main form button[type=submit]"))
    tournament = Tournament.objects.get(name="职工斗地主赛")
    assert tournament.game == "doudizhu"
    tid = tournament.pk
    day.visit(f"/t/{tid}/manage/event/", "settings")
    page.fill("input[name=deals]", "3")
    page.select_option("select[name=deal_scoring]", "cards_left")
    page.select_option("select[name=landlord_by]", "lot")
    page.fill("input[name=base]", "1")
    page.fill("input[name=multiple_cap]", "64")
    page.fill("input[name=bye_points]", "2")
    page.select_option("select[name=entry_mode]", "players_opponents")
    day.submit(page.get_by_role("button", name="保存", exact=True))
    tournament.refresh_from_db()
    assert {"deals": 3, "deal_scoring": "cards_left", "landlord_by": "lot", "base": 1}.items() <= (
        tournament.rule_overrides.items()
    ), tournament.rule_overrides
    assert tournament.entry_mode == "players_opponents"

    # The roster, one row per player.
    day.visit(f"/t/{tid}/manage/import/", "import")
    page.set_input_files(
        "input[name=file]",
        files=[{"name": "名单.xlsx", "mimeType": "application/vnd.ms-excel", "buffer": roster_workbook()}],
    )
    day.submit(page.locator("main form button[type=submit]"))
    players = list(Pair.objects.filter(tournament=tournament).order_by("number"))
    assert len(players) == PLAYERS
    day.visit(f"/t/{tid}/manage/pairs/", "players")

    # Two referees, each with a one-time link.
    links = {name: add_referee(page, tid, name) for name in ("王裁判", "李裁判")}
    day.check("referee-links")

    # The door.
    day.visit(f"/t/{tid}/manage/check-in/", "door")
    assert "9 人未到" in page.locator("#checkin-counts").inner_text()
    for player in players:
        page.locator(f"#pair-{player.pk} button").click()
        page.locator(f"#pair-{player.pk}.door-checked_in").wait_for()
    assert Pair.objects.filter(tournament=tournament, status=PairStatus.CHECKED_IN).count() == PLAYERS
    assert "0 人未到" in page.locator("#checkin-counts").inner_text()
    day.check("door-all-in")

    # The stages: three rounds with a cut to six after round 2, then a final table of three.
    day.visit(f"/t/{tid}/manage/stages/", "stages")
    page.fill("main form input[name=name]", "积分赛")
    page.fill("main form input[name=rounds]", "3")
    page.fill("main form input[name=cuts]", "2:6")
    page.fill("main form input[name=advance_count]", "3")
    day.submit(page.get_by_role("button", name="添加阶段"))
    day.visit(f"/t/{tid}/manage/stages/", "stages-final")
    page.fill("main form input[name=name]", "决赛")
    page.fill("main form input[name=rounds]", "1")
    page.locator("main form input[name=final]").check()
    day.submit(page.get_by_role("button", name="添加阶段"))
    points = Stage.objects.get(tournament=tournament, name="积分赛")
    final = Stage.objects.get(tournament=tournament, name="决赛")

    wang = referee_phone(browser, live_server, links["王裁判"], "referee-wang")
    li = referee_phone(browser, live_server, links["李裁判"], "referee-li")
    for number in (1, 2, 3):
        day.visit(f"/t/{tid}/manage/stages/{points.pk}/", f"points-{number}")
        day.submit(page.locator(f"form[action$='/stages/{points.pk}/draw/'] button[type=submit]"))
        day.submit(page.get_by_role("button", name="公布", exact=True))
        round_ = Round.objects.get(stage=points, number=number)
        assert round_.published_at is not None
        day.check(f"round-{number}")
        tables = list(round_.matches.order_by("table__number"))
        assert len(tables) == (3 if number < 3 else 2)  # six players after the cut
        story_table = tables[0]
        if number == 1:  # the referee enters the deals
            assign(day, tid, round_, "王裁判")
            referee_plays(wang, story_table, "round-1")
        elif number == 2:  # the players enter: the table card's code, a PIN slip each
            day.visit(f"/t/{tid}/manage/rounds/{round_.pk}/table-cards/", "table-cards")
            card = page.locator(".table-card").first
            assert card.locator(".seat-slip").count() == 3
            assert card.locator(".sheet-seats tr").count() == 3
            players_at_table(browser, live_server, story_table)
            assign(day, tid, round_, "李裁判")
            li.page.goto(f"/referee/matches/{story_table.pk}/")
            li.page.get_by_role("button", name="确认结果").click()
            li.page.get_by_role("button", name="确认结果").wait_for(state="detached")
            li.check("round-2-signed-off")
        else:
            assign(day, tid, round_, "李裁判")
            referee_plays(li, story_table, "round-3")
        for match in tables[1:]:
            play_by_service(match)
        day.visit(f"/t/{tid}/manage/stages/{points.pk}/", f"points-after-{number}")

    # A correction by the organiser (the round is over): round 1's first table unlocked, deal 2 corrected,
    # signed off again.
    corrected = Round.objects.get(stage=points, number=1).matches.order_by("table__number").first()
    day.visit(f"/referee/matches/{corrected.pk}/unlock/", "unlock")
    day.page.fill("input[name=reason]", "记分有误")
    seen = day.page.locator("input[name=dependents_seen]")
    if seen.count():
        seen.check()
    day.submit(day.page.locator("main form button[type=submit]").last)
    query = "landlord=W&cards_left_e=4&cards_left_s=3&cards_left_w=0"  # deal 2: W, in turn; the farmers won
    day.visit(f"/referee/matches/{corrected.pk}/deals/2/edit/?{query}", "deal-edit")
    day.page.fill("input[name=reason]", "剩牌数记错")
    day.submit(day.page.get_by_role("button", name="保存更正"))
    assert corrected.deals.get(number=2).outcome["cards_left"]["S"] == 3
    day.visit(f"/referee/matches/{corrected.pk}/", "corrected")
    day.page.get_by_role("button", name="确认结果").click()
    day.page.get_by_role("button", name="确认结果").wait_for(state="detached")
    corrected.refresh_from_db()
    assert corrected.status == MatchStatus.CONFIRMED

    # The cut and the final: the advance on the final's page, its table drawn and played.
    day.visit(f"/t/{tid}/manage/stages/{points.pk}/advance/", "advance")
    day.visit(f"/t/{tid}/manage/stages/{final.pk}/", "final-advance")
    page.fill("#advance-count", "3")
    day.submit(page.locator("#advance-first button[type=submit]"))
    day.visit(f"/t/{tid}/manage/stages/{final.pk}/", "final")
    day.submit(page.locator(f"form[action$='/stages/{final.pk}/draw/'] button[type=submit]"))
    day.submit(page.get_by_role("button", name="公布", exact=True))
    final_round = Round.objects.get(stage=final)
    day.check("final-round")
    final_table = final_round.matches.get()
    assign(day, tid, final_round, "王裁判")
    referee_plays(wang, final_table, "final")
    tournament.refresh_from_db()
    assert tournament.status == "finished"  # the final table signed off finishes the event by itself
    day.visit(f"/t/{tid}/manage/event/", "event-finished")
    assert page.locator(".life-now").inner_text().strip() == "已结束"

    # The champion, the big screen.
    day.visit(f"/t/{tid}/placings/", "placings")
    champion = page.locator("main").inner_text()
    assert "冠军" in champion
    day.visit(f"/t/{tid}/screen/", "screen")
    day.visit(f"/t/{tid}/standings/{points.pk}/", "standings")
    assert page.locator("tr.cut-row").count() == 1

    # The printed sheets of every round, and the workbook read back.
    for round_ in Round.objects.filter(stage__tournament=tournament).order_by("stage__order", "number"):
        day.visit(f"/t/{tid}/manage/exports/rounds/{round_.pk}/draw-sheet/", f"draw-sheet-{round_.pk}")
        day.visit(f"/t/{tid}/manage/exports/rounds/{round_.pk}/score-sheets/", f"score-sheets-{round_.pk}")
    day.visit(f"/t/{tid}/manage/exports/", "exports")
    day.submit(page.locator("main form button[type=submit]").first)
    page.goto(f"/t/{tid}/manage/exports/")
    with page.expect_download() as download_info:
        page.locator("main a[href$='/download/']").first.click()
    workbook = load_workbook(io.BytesIO(download_info.value.path().read_bytes()))
    cells = [str(cell) for sheet in workbook.worksheets for row in sheet.iter_rows(values_only=True) for cell in row]
    text = " ".join(cell for cell in cells if cell != "None")
    assert "职工斗地主赛" in text or "选手1号" in text
    assert not PAIR_WORDS.findall(text) and "搭档" not in text, PAIR_WORDS.findall(text)
    assert all(name in text for name in ("选手1号", "决赛", "积分赛"))
    assert day.errors == [] and wang.errors == [] and li.errors == []


def players_at_table(browser, live_server, match: Match) -> None:
    """Round 2's first table: East enters deal after deal on their phone, South confirms each with the
    PIN on their seat slip (typed on East's phone, handed across), once West disputes and a ... no: the
    confirmation only, three deals, then the table waits for its referee's sign-off."""
    link = table_link(match)
    seats = {seat.seat: seat for seat in player_entry.table_players(match=match)}
    phone = new_phone(browser, live_server)
    table = Story(phone, "zh-hans")
    phone.goto(link)
    table.check("table")
    phone.fill("#id_code", seats["E"].player.employee_number)
    phone.get_by_role("button", name="是我").click()
    phone.locator("#entry").wait_for()
    table.check("table-identified")
    for number, (landlord, winner) in enumerate((("E", "E"), ("W", "S"), ("S", "S")), 1):
        enter_deal(phone, landlord, winner, referee=False)
        claim = phone.locator("#claims li.claim").first
        claim.wait_for()
        if number == 1:
            table.check("table-awaiting")
            claim.locator("input[name=code]").fill(seats["S"].player.employee_number)  # a number proves no one
            claim.get_by_role("button", name="以另一位选手身份确认").click()
            phone.locator("p.alert").wait_for()
            assert match.deals.count() == 0
            claim = phone.locator("#claims li.claim").first
        claim.locator("input[name=code]").fill(player_entry.seat_pin(player_id=seats["S"].player.pk))
        claim.get_by_role("button", name="以另一位选手身份确认").click()
        phone.wait_for_load_state("networkidle")
        assert match.deals.count() == number
    table.check("table-done")
    assert table.errors == []
    phone.context.close()


def table_link(match: Match) -> str:
    from tournament.matches.table_links import table_token

    return f"/table/{table_token(round_=match.round, table_id=match.table_id)}/"
