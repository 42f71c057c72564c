"""One answer to a Dou Dizhu stage's tie-breaks (docs/design.md, one answer to each question): the deals won
as landlord and the best round come from the rules core's ranking, in fields of their own, and the stage's
standings, the public page, the API, the workbook and the organiser's advancement page all show the same
numbers (docs/rules.md §10)."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from rest_framework.test import APIClient

from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round, play_round
from tournament.exports.workbook import workbook_build
from tournament.registration.models import Pair
from tournament.standings.doudizhu_public import standings_table_get
from tournament.standings.selectors import stage_ranking_get

pytestmark = pytest.mark.django_db


def test_every_reader_shows_the_same_landlord_wins_and_best_round(client, boss):
    tournament, stage = doudizhu_event(
        players=9, boss=boss, options={"rounds": 3, "cuts": [{"after_round": 1, "keep": 6}]}
    )
    play_round(drawn_round(stage, seed=5, user=boss), user=boss)
    standings = stage_ranking_get(stage=stage)
    assert standings.players is not None
    truth = {row.player: (row.landlord_wins, row.best_round) for row in standings.players.players.rows}
    assert any(wins for wins, _best in truth.values())  # a scenario where the numbers say something
    # the order every stage has (advancement, the next draw, prizes): the same values, typed
    assert {row.entrant: (row.landlord_wins, row.best_round) for row in standings.standings.rows} == truth
    assert all(row.small_points == 0 and row.deal_points == 0 for row in standings.standings.rows)
    # the public page's table and the API
    table = standings_table_get(stage_id=stage.pk)
    assert {str(line.pair_id): (line.landlord_wins, line.best_round) for line in table.lines} == truth
    api = APIClient().get(reverse("api:public:player_standings", args=[tournament.pk, stage.pk])).data
    assert {str(line["pair_id"]): (line["landlord_wins"], line["best_round"]) for line in api["lines"]} == truth
    assert list(api["cuts"]) == [{"after_round": 1, "keep": 6, "applied": True, "kept": 6, "eliminated": 3}]
    # the workbook's standings sheet
    buffer = io.BytesIO()
    workbook_build(tournament=tournament, target=buffer)
    buffer.seek(0)
    book = load_workbook(buffer, read_only=True)
    sheet = next(
        rows
        for rows in (list(book[name].iter_rows(values_only=True)) for name in book.sheetnames)
        if rows and "地主胜局" in rows[0] and "单轮最高" in rows[0]
    )
    header = sheet[0]
    at = header.index("地主胜局"), header.index("单轮最高")
    ids = {number: str(pk) for pk, number in Pair.objects.filter(tournament=tournament).values_list("id", "number")}
    assert {ids[row[2]]: (row[at[0]], row[at[1]]) for row in sheet[1:]} == truth  # the player's number
    # the organiser's advancement page: the landlord wins under their own heading
    client.force_login(boss)
    page = client.get(reverse("draw:stage_advance", args=[tournament.pk, stage.pk])).content.decode()
    assert "地主胜局" in page
