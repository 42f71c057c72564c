"""Every page, API answer and export of a Dou Dizhu event with results answers (no 500): the
pages written for two sides are either the game's own or still work with tables of three."""

from __future__ import annotations

import pytest
from django.db import models
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round, play_round
from tournament.exports.workbook import workbook_build

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(boss, ref):
    tournament, stage = doudizhu_event(
        players=11, boss=boss, options={"rounds": 3, "cuts": [{"after_round": 1, "keep": 6}]}
    )
    play_round(drawn_round(stage, seed=3, user=boss, referee_user=ref), user=boss)
    round_2 = drawn_round(stage, seed=4, user=boss, referee_user=ref)
    match = round_2.matches.order_by("table__number").first()
    from tournament.matches import services

    services.deal_record(match_id=match.pk, outcome={"landlord": "S", "bid": 2, "winner": "farmers"}, user=ref)
    return tournament, stage, round_2, match


def test_the_organisers_and_referees_pages(client, boss, ref, played):
    tournament, stage, round_2, match = played
    t = tournament.pk
    client.force_login(boss)
    for url in (
        reverse("standings:tournament", args=[t]),
        reverse("registration:pairs", args=[t]),
        reverse("registration:checkin", args=[t]),
        reverse("draw:stages", args=[t]),
        reverse("draw:stage", args=[t, stage.pk]),
        reverse("draw:round", args=[t, round_2.pk]),
        reverse("draw:referees", args=[t, round_2.pk]),
        reverse("draw:sheet", args=[t, round_2.pk]),
        reverse("draw:stage_advance", args=[t, stage.pk]),
        reverse("matches:round_clock", args=[t, round_2.pk]),
        reverse("matches:progress_board", args=[t, round_2.pk]),
        reverse("matches:round_no_shows", args=[t, round_2.pk]),
        reverse("matches:match", args=[match.pk]),
        reverse("matches:adjustments", args=[match.pk]),
        reverse("matches:audit", args=[match.pk]),
        reverse("exports:prizes", args=[t]),
        reverse("exports:home", args=[t]),
    ):
        answer = client.get(url)
        assert answer.status_code == 200, (url, answer.status_code)
    client.force_login(ref)
    assert client.get(reverse("matches:referee_home")).status_code == 200


def test_the_public_pages_and_api(client, played):
    tournament, stage, round_2, match = played
    t = tournament.pk
    for url in (
        reverse("standings:draw", args=[t]),
        reverse("standings:find", args=[t]) + "?q=选手",
        reverse("standings:standings", args=[t]),
        reverse("standings:stage_standings", args=[t, stage.pk]),
        reverse("standings:match", args=[t, match.pk]),
        reverse("standings:screen", args=[t]),
    ):
        answer = client.get(url, follow=True)
        assert answer.status_code == 200, (url, answer.status_code)
    api = APIClient()
    for url in (
        reverse("api:public:tournament", args=[t]),
        reverse("api:public:rounds", args=[t]),
        reverse("api:public:round_tables", args=[t, round_2.pk]),
        reverse("api:public:find_seat", args=[t]) + "?q=选手",
        reverse("api:public:player_standings", args=[t, stage.pk]),
        reverse("api:public:table", args=[t, match.pk]),
    ):
        answer = api.get(url)
        assert answer.status_code == 200, (url, answer.status_code)
    for url in (  # the two-side shapes are not a Dou Dizhu event's
        reverse("api:public:draw", args=[t, round_2.pk]),
        reverse("api:public:standings", args=[t, stage.pk]),
        reverse("api:public:match", args=[t, match.pk]),
    ):
        assert api.get(url).status_code == 404


def test_the_public_api_answers_in_dou_dizhu_terms(played):
    tournament, stage, round_2, match = played
    t = tournament.pk
    api = APIClient()
    tables = api.get(reverse("api:public:round_tables", args=[t, round_2.pk])).data
    assert len(tables["tables"]) == 2 and [s["seat"] for s in tables["tables"][0]["seats"]] == ["E", "S", "W"]
    standings = api.get(reverse("api:public:player_standings", args=[t, stage.pk])).data
    assert len(standings["lines"]) == 11
    assert sum(1 for line in standings["lines"] if line["eliminated_after"] == 1) == 5
    assert standings["cuts"][0]["applied"] is True
    player = standings["lines"][0]["pair_id"]
    detail = api.get(reverse("api:public:player", args=[t, player])).data
    assert detail["rounds"][0]["deals"] or detail["rounds"][0]["seat"] == ""
    table = api.get(reverse("api:public:table", args=[t, match.pk])).data
    assert table["deals"][0]["points"] == [-4, 8, -4] or len(table["deals"]) == 1
    found = api.get(reverse("api:public:find_seat", args=[t]), {"q": tables["tables"][0]["seats"][1]["name"]}).data
    assert found[0]["seat"] == "S" and found[0]["table"] == tables["tables"][0]["table"]


def test_the_workbook_has_the_tables_and_deals_in_dou_dizhu_terms(played):
    import io

    from openpyxl import load_workbook

    tournament, _stage, _round_2, match = played
    buffer = io.BytesIO()
    workbook_build(tournament=tournament, target=buffer)
    buffer.seek(0)
    book = load_workbook(buffer, read_only=True)
    assert "各桌成绩" in book.sheetnames and "牌局记录" in book.sheetnames
    assert "比赛结果" not in book.sheetnames  # the two sides' results sheet: no match has sides
    tables = list(book["各桌成绩"].iter_rows(values_only=True))
    assert tables[0][4:7] == ("东家选手", "南家选手", "西家选手")
    assert len(tables) == 1 + 3 + 2  # header, round 1's three tables, round 2's two
    deals = list(book["牌局记录"].iter_rows(values_only=True))
    assert deals[0][5] == "地主座位"
    last = next(row for row in deals[1:] if row[0] == match.pk)
    assert last[5] == "S" and last[10] == "农民" and last[13:16] == (2, -4, 2)


def test_the_draw_sheet_and_the_score_sheets_show_three_seats(client, boss, played):
    import io

    from openpyxl import load_workbook

    from tournament.exports.round_sheets import round_draw_build, score_sheets_build

    tournament, _stage, round_2, match = played
    client.force_login(boss)
    sheet = client.get(reverse("draw:sheet", args=[tournament.pk, round_2.pk])).content.decode()
    assert ">南<" in sheet and "S · 南" not in sheet and "查找你的座位" in sheet
    names = list(match.seats.order_by("seat").values_list("pair__name", flat=True))
    assert all(name in sheet for name in names)
    buffer = io.BytesIO()
    round_draw_build(round=round_2, target=buffer)
    buffer.seek(0)
    rows = list(load_workbook(buffer, read_only=True).active.iter_rows(values_only=True))
    assert rows[0][3] == "东家" and rows[1][3] == names[0] and rows[1][6] == names[1]
    round_1 = round_2.stage.rounds.get(number=1)  # 11 players: three tables and two byes
    buffer = io.BytesIO()
    round_draw_build(round=round_1, target=buffer)
    buffer.seek(0)
    rows = list(load_workbook(buffer, read_only=True).active.iter_rows(values_only=True))
    assert len(rows) == 1 + 3 + 2 and rows[-1][-1] == "轮空" and rows[-2][-1] == "轮空"
    cards = io.BytesIO()
    score_sheets_build(round=round_2, target=cards)
    cards.seek(0)
    cells = [c for row in load_workbook(cards, read_only=True).active.iter_rows(values_only=True) for c in row if c]
    assert cells.count("E") >= 2 and "地主" in cells and "叫分" in cells and names[2] in cells


def test_the_printed_draw_and_score_sheets_of_every_round(client, boss, played):
    """The exports' print pages and their .xlsx answer for a round with byes and one being played,
    with the players' seats and their registration numbers (not database ids)."""

    tournament, stage, round_2, match = played
    client.force_login(boss)
    seats = list(match.seats.order_by("seat").select_related("pair"))
    for round_ in stage.rounds.order_by("number"):
        for name in ("exports:round_draw", "exports:score_sheets"):
            url = reverse(name, args=[tournament.pk, round_.pk])
            page = client.get(url)
            assert page.status_code == 200, url
            assert ">东" in page.content.decode() and "E · 东" not in page.content.decode()
            answer = client.get(url, {"format": "xlsx"})
            assert answer.status_code == 200, url
    page = client.get(reverse("exports:round_draw", args=[tournament.pk, round_2.pk])).content.decode()
    assert all(f"#{seat.pair.number}</span> {seat.pair.name}" in page for seat in seats)
    page = client.get(reverse("exports:round_draw", args=[tournament.pk, stage.rounds.get(number=1).pk]))
    assert page.content.decode().count("轮空") == 2  # 11 players: three tables and two byes
    sheets = client.get(reverse("exports:score_sheets", args=[tournament.pk, round_2.pk]), {"from": 2, "to": 2})
    assert sheets.content.decode().count('class="score-sheet"') == 1
    assert seats[0].pair.name not in sheets.content.decode()  # table 1 is not in the batch


def test_the_sheets_number_the_players_by_their_registration_number(played):
    import io

    from openpyxl import load_workbook

    from tournament.exports.round_sheets import round_draw_build, score_sheets_build
    from tournament.registration.models import Pair

    tournament, _stage, round_2, match = played
    Pair.objects.filter(tournament=tournament).update(number=models.F("number") + 100)  # numbers apart from ids
    seats = list(match.seats.order_by("seat").select_related("pair"))
    buffer = io.BytesIO()
    round_draw_build(round=round_2, target=buffer)
    buffer.seek(0)
    first = list(load_workbook(buffer, read_only=True).active.iter_rows(values_only=True))[1]
    assert (first[2], first[5], first[8]) == tuple(seat.pair.number for seat in seats)
    buffer = io.BytesIO()
    score_sheets_build(round=round_2, target=buffer)
    buffer.seek(0)
    rows = list(load_workbook(buffer, read_only=True).active.iter_rows(values_only=True))
    by_seat: dict[str, int] = {}  # the first page is table 1's
    for row in rows:
        if row and row[0] in ("E", "S", "W") and row[2]:
            by_seat.setdefault(row[0], row[1])
    assert by_seat == {seat.seat: seat.pair.number for seat in seats}


def test_the_progress_board_and_the_round_clock_list_the_tables_of_three(client, boss, played):
    """The organiser's board and clock list every table of three with its players; only the players
    without a table are byes, by name."""
    from tournament.matches.board import round_board

    tournament, stage, round_2, match = played
    seats = list(match.seats.order_by("seat").select_related("pair"))
    board = round_board(round_=round_2)
    assert board.total == 2 and len(board.rows) == 2
    first = board.rows[0]
    assert first.match == match and first.entrants == " · ".join(f"{s.seat} {s.pair.name}" for s in seats)
    assert first.score == "2 : -4 : 2" and first.deals == 1
    client.force_login(boss)
    page = client.get(reverse("matches:progress_board", args=[tournament.pk, round_2.pk])).content.decode()
    assert first.entrants in page and "积分" in page
    round_1 = stage.rounds.get(number=1)  # 11 players: three tables and two byes
    page = client.get(reverse("matches:round_clock", args=[tournament.pk, round_1.pk])).content.decode()
    byes = list(round_1.seats.filter(match=None).order_by("pair__number").values_list("pair__name", flat=True))
    assert "None" not in page and f"轮空: {byes[0]}, {byes[1]}" in page
    assert page.count('class="card table-card') == 3
    page = client.get(reverse("matches:round_clock", args=[tournament.pk, round_2.pk])).content.decode()
    assert page.count('class="card table-card') == 2 and all(s.pair.name in page for s in seats)
    assert "轮空:" not in page  # six players at two tables: no bye


def test_the_check_in_rows_of_players_show_their_employee_number_alone(client, boss, played):
    tournament, *_rest = played
    client.force_login(boss)
    page = client.get(reverse("registration:checkin", args=[tournament.pk])).content.decode()
    assert "D001" in page and "None" not in page


def test_find_my_seat_by_player_number_and_a_player_not_checked_in(client, boss):
    """Player number "#8" is player 8 of the event; a registered player left out of a draw of the checked-in players
    is told to check in, not only that there is no seat."""
    from tests.tournament.games.doudizhu_event import doudizhu_event
    from tournament.registration.models import Pair
    from tournament.registration.services import pair_check_in

    tournament, stage = doudizhu_event(players=9, boss=boss)
    pairs = list(Pair.objects.filter(tournament=tournament).order_by("number"))
    for pair in pairs[:6]:
        pair_check_in(pair=pair)
    drawn_round(stage, user=boss)
    url = reverse("standings:find", args=[tournament.pk])
    found = client.get(url, {"q": "#8"}).content.decode()
    assert "#8 选手8" in found and "尚未签到" in found and "选手1<" not in found
    seated = client.get(url, {"q": "#2"}).content.decode()
    assert "#2 选手2" in seated and "座位" in seated and "尚未签到" not in seated


def test_the_final_placings_of_a_finished_dou_dizhu_event(client, played):
    """No knockout: the placings are the last points stage's ranking, its champion first, once the event is over."""
    from tournament.registration.models import TournamentStatus
    from tournament.standings.selectors import stage_ranking_get

    tournament, stage, _round_2, _match = played
    url = reverse("exports:placings", args=[tournament.pk])
    waiting = client.get(url)
    assert waiting.status_code == 200 and "比赛尚未结束" in waiting.content.decode()
    home = reverse("standings:tournament", args=[tournament.pk])
    assert url not in client.get(home).content.decode()  # the public home links the placings once finished
    tournament.status = TournamentStatus.FINISHED
    tournament.save(update_fields=["status"])  # as the lifecycle does: the public pages' version moves
    assert url in client.get(home).content.decode()
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    rows = stage_ranking_get(stage=stage).players.players.rows
    champion = tournament.pairs.get(pk=int(rows[0].player)).name
    assert f"冠军: <strong>{champion}</strong>" in text and text.count('<li class="placing') == len(rows) == 11
    assert client.get(reverse("standings:pair", args=[tournament.pk, int(rows[0].player)])).status_code == 200
