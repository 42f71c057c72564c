"""The tournament workbook, opened again with openpyxl (read-only) and checked against the database."""

from __future__ import annotations

import io
from datetime import datetime

import pytest
from django.utils import timezone

from scoring.levels import level_label
from scoring.standings import METRICS
from tests.factories import TournamentFactory
from tests.tournament.exports.conftest import INJECTION_NAMES, build, long_name, read_book, read_cells, sheet_xml
from tournament.exports import headers as h
from tournament.exports.xlsx import clean_cell_text
from tournament.matches.models import Adjustment, Deal, Match
from tournament.registration.models import Department, Pair, PairMember, Player
from tournament.registration.roster import roster_import
from tournament.standings.selectors import stage_standings

pytestmark = pytest.mark.django_db

ZH_SHEETS = ["参赛名单", "预赛第1轮对阵", "预赛第2轮对阵", "比赛结果", "牌局记录", "预赛排名", "调整与处罚", "获奖名单"]
EN_SHEETS = ["Registration", "预赛 R1 draw", "预赛 R2 draw", "Match results", "Deal log", "预赛 standings"]
EN_SHEETS += ["Adjustments", "Awards"]


@pytest.fixture
def book(event):
    return read_book(build(tournament=event.tournament))


def local(value: datetime | None) -> datetime | None:
    return timezone.localtime(value).replace(tzinfo=None, microsecond=0) if value else None


def column(rows, title):
    index = rows[0].index(title)
    return [row[index] for row in rows[1:]]


def test_sheets_in_order_chinese_by_default_english_on_request(event, book):
    assert list(book) == ZH_SHEETS
    english = read_book(build(tournament=event.tournament, language="en"))
    assert list(english) == EN_SHEETS
    assert english["Registration"][0] == (
        "Name",
        "Employee number",
        "Department",
        "Partner employee number",
        "Phone",
        "Pair no.",
        "Seed",
        "Status",
    )
    assert english["Deal log"][0] == tuple(h.titles(h.DEALS, "en"))


def test_registration_sheet_lists_every_player_with_partner_and_department(event, book):
    rows = book["参赛名单"]
    assert rows[0] == tuple(h.titles(h.REGISTRATION, "zh"))
    members = PairMember.objects.filter(pair__tournament=event.tournament).select_related("player__department")
    assert len(rows) - 1 == members.count() == 18
    by_number = {row[1]: row for row in rows[1:]}
    for member in members:
        player = member.player
        partner = PairMember.objects.exclude(pk=member.pk).get(pair=member.pair).player
        row = by_number[player.employee_number]
        assert row[0] == clean_cell_text(player.name)
        assert row[2] == player.department.name
        assert row[3] == partner.employee_number
        assert row[4] == (player.phone or None)
        assert row[5] == member.pair.number and isinstance(row[5], int)  # the event's pair number
        assert row[7] == "已报名"


def test_registration_sheet_round_trips_through_the_roster_importer(event):
    # The importer refuses what a roster may not hold: a cell Excel would read as a formula ("=…",
    # "@…"; "+1" and "-2" are plain numbers) and names over 60 characters. With those renamed, every
    # player, department, phone and partnership comes back; control characters come back removed.
    Player.objects.filter(name__startswith="=").update(name="改名")
    Player.objects.filter(name__startswith="@").update(name="改名二")
    Player.objects.filter(name=long_name()).update(name="长名")
    Department.objects.filter(name__startswith="=").update(name="销售部")

    def players(tournament):
        rows = Player.objects.filter(tournament=tournament).values_list(
            "name", "employee_number", "department__name", "phone"
        )
        return sorted((clean_cell_text(name), number, department, phone) for name, number, department, phone in rows)

    def partnerships(tournament):
        return {
            frozenset(PairMember.objects.filter(pair=pair).values_list("player__employee_number", flat=True))
            for pair in Pair.objects.filter(tournament=tournament)
        }

    for language in ("zh", "en"):
        data = build(tournament=event.tournament, language=language)
        target = TournamentFactory()
        result = roster_import(tournament=target, file=io.BytesIO(data))
        assert (result.players, result.pairs) == (18, 9)
        assert players(target) == players(event.tournament)
        assert partnerships(target) == partnerships(event.tournament)


def test_draw_sheets_have_every_table_and_the_bye(event, book):
    for round_, title in zip(event.rounds, ["预赛第1轮对阵", "预赛第2轮对阵"], strict=True):
        rows = book[title]
        assert rows[0] == tuple(h.titles(h.DRAW, "zh"))
        matches = list(Match.objects.filter(round=round_).order_by("table__number"))
        assert len(rows) - 1 == len(matches) == 5
        for row, match in zip(
            rows[1:], [m for m in matches if m.table] + [m for m in matches if not m.table], strict=True
        ):
            assert row[0] == (match.table.number if match.table else None)
            assert row[2] == match.ns_pair.number
            north, south = [m.player.name for m in match.ns_pair.members.order_by("slot")]
            assert (row[3], row[4]) == (clean_cell_text(north), clean_cell_text(south))
            assert row[6] == (match.ew_pair.number if match.ew_pair else None)
            assert row[10] == (None if match.ew_pair_id else "轮空")


def yes_no(value: bool) -> str:
    return "是" if value else "否"


def test_match_results_match_the_stored_snapshots(event, book):
    rows = book["比赛结果"]
    assert rows[0] == tuple(h.titles(h.RESULTS, "zh"))
    assert len(rows) - 1 == Match.objects.filter(round__stage__tournament=event.tournament).count() == 10
    for row in rows[1:]:
        match = Match.objects.get(pk=row[0])
        assert row[1:4] == ("预赛", match.round.number, match.table.number if match.table else None)
        assert (row[4], row[6]) == (match.ns_pair.number, match.ew_pair.number if match.ew_pair else None)
        if match.ew_pair_id is None:
            assert row[16] == "轮空" and row[15] is None
            continue
        levels = match.state["levels"]
        assert (row[9], row[10]) == (level_label(levels["NS"]), level_label(levels["EW"]))  # A, K, Q, J
        assert row[17] == match.deals.count()
        assert row[18] == local(match.started_at)
        assert row[19] == local(match.finished_at)
        if match.winner:
            winner = match.ns_pair if match.winner == "NS" else match.ew_pair
            assert row[15] == clean_cell_text(winner.name) and row[16] == h.word(match.result_reason, "zh")
            assert isinstance(row[20], float)
        else:
            assert row[15] is None and row[8] == "进行中"


def test_deal_log_has_every_deal_as_recorded(event, book):
    rows = book["牌局记录"]
    assert rows[0] == tuple(h.titles(h.DEALS, "zh"))
    deals = Deal.objects.filter(match__round__stage__tournament=event.tournament)
    assert len(rows) - 1 == deals.count() == 30
    logged = {(row[0], row[4]): row for row in rows[1:]}
    for deal in deals.select_related("entered_by", "match__table"):
        row = logged[(deal.match_id, deal.number)]
        record = deal.record
        assert row[2] == deal.match.round.number
        assert row[3] == deal.match.table.number
        assert row[6] == level_label(record["level"])
        assert row[8] == " › ".join({"N": "北", "E": "东", "S": "南", "W": "西"}[seat] for seat in record["order"])
        assert row[9] == h.word(record["winner"], "zh")
        assert row[10] == record["upgrade"]
        assert row[11] == yes_no(record["a_attempt"]) and row[12] == yes_no(record["passed_a"])
        assert row[15] == yes_no(record["anti_tribute"])
        after = record["levels_after"]
        assert (row[16], row[17]) == (level_label(after["NS"]), level_label(after["EW"]))
        assert row[18] == "否"
        assert row[19] == "referee1"
        assert row[20] == local(deal.entered_at)
    # In table order within each round, deals in their order within each match.
    keys = [(row[2], row[3], row[0], row[4]) for row in rows[1:]]
    assert keys == sorted(keys)


def test_standings_sheet_has_every_tie_break_column(event, book):
    rows = book["预赛排名"]
    standings = stage_standings(stage=event.stage)
    header = rows[0]
    tie_breakers = standings.standings.tie_breakers
    used = [METRICS[name].title_zh for name in tie_breakers if name != "wins"]
    assert header[: len(h.STANDINGS_FIXED)] == tuple(h.titles(h.STANDINGS_FIXED, "zh"))
    assert list(header[len(h.STANDINGS_FIXED) : len(h.STANDINGS_FIXED) + len(used)]) == used
    assert {METRICS[name].title_zh for name in METRICS if name != "wins"} <= set(header)
    assert len(rows) - 1 == len(standings.standings.rows) == 9
    for row, standing in zip(rows[1:], standings.standings.rows, strict=True):
        assert row[0] == standing.rank and row[1] == yes_no(standing.shared)
        assert row[2] == Pair.objects.get(pk=int(standing.entrant)).number
        assert row[5:10] == (standing.played, standing.wins, standing.draws, standing.losses, standing.byes)
        assert row[header.index("场分")] == standing.match_points
        assert row[header.index("小分")] == standing.small_points
        assert row[header.index("对手分")] == standing.buchholz
        assert isinstance(row[header.index("小分")], int)


def test_adjustments_and_awards(event, book):
    rows = book["调整与处罚"]
    assert rows[0] == tuple(h.titles(h.ADJUSTMENTS, "zh"))
    assert len(rows) - 1 == Adjustment.objects.filter(tournament=event.tournament).count() == 2
    warning = next(row for row in rows[1:] if row[7] == "警告")
    assert warning[12] == "=cmd|' /C calc'!A0 slow play"
    assert warning[13] == "referee1"
    late = next(row for row in rows[1:] if row[7] == "迟到")
    assert late[11] == 7 and late[3] == 1
    awards = book["获奖名单"]
    assert awards[0] == tuple(h.titles(h.AWARDS, "zh"))


def test_formula_like_names_stay_text_everywhere(event):
    data = build(tournament=event.tournament)
    assert all("<f>" not in xml and "<f " not in xml for xml in sheet_xml(data))
    cells = read_cells(data, "参赛名单")
    names = {cell.value: cell for row in cells[1:] for cell in row[:1]}
    for name in INJECTION_NAMES:
        assert names[name].data_type == "s"
    department = next(row[2] for row in cells[1:] if row[2].value == "=销售部")
    assert department.data_type == "s"


def test_long_names_emoji_and_control_characters(event, book):
    names = column(book["参赛名单"], "姓名")
    assert long_name() in names  # kept whole (Excel's cell limit is 32,767 characters)
    assert "王芳😀🀄" in names
    assert "bellname" in names and "赵磊" in names  # control characters removed


def test_progress_is_reported_in_whole_growing_percentages(event):
    seen: list[int] = []
    build(tournament=event.tournament, progress=seen.append)
    assert seen == sorted(set(seen))
    assert seen[0] >= 0 and 50 < seen[-1] <= 99


def test_an_event_without_stages_or_tiers_still_exports(db):
    tournament = TournamentFactory()
    book = read_book(build(tournament=tournament))
    assert list(book) == ["参赛名单", "比赛结果", "牌局记录", "调整与处罚", "获奖名单"]
    assert book["获奖名单"][1][0] == "尚未设置奖项。"
