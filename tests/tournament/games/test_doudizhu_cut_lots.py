"""A tie for the last seat of a Dou Dizhu final is decided by lots, recorded and shown (docs/rules.md §5,
§10; docs/design.md, one answer to each question): the advancement, the stage's page, the API, the
workbook, the prizes and the final's draw name the same players, in the order the lots give."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from rest_framework.test import APIClient

from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round, play_table
from tournament.draw.services import round_draw
from tournament.draw.stages import stage_advance, stage_create
from tournament.errors import UserError
from tournament.exports.prizes import TierData, prize_stage_set, prize_tiers_award, prize_tiers_set
from tournament.exports.workbook import workbook_build
from tournament.matches.models import MatchSeat
from tournament.registration.models import Pair
from tournament.standings.doudizhu_public import standings_table_get
from tournament.standings.selectors import stage_ranking_get

pytestmark = pytest.mark.django_db


def test_two_players_level_at_the_last_seat_are_separated_by_recorded_lots(client, boss):
    tournament, stage = doudizhu_event(players=9, boss=boss, options={"rounds": 1})
    round_1 = drawn_round(stage, seed=5, user=boss)
    first, second, third = round_1.matches.order_by("table__number")
    play_table(first, [{"landlord": "E", "bid": 3, "winner": "landlord"}] * 3, user=boss)
    play_table(second, [{"landlord": "E", "bid": 2, "winner": "landlord"}] * 3, user=boss)
    play_table(third, [{"landlord": "E", "bid": 1, "winner": "farmers"}] * 3, user=boss)  # its two farmers level
    level = set(MatchSeat.objects.filter(match=third).exclude(seat="E").values_list("pair_id", flat=True))
    lots_aside = stage_ranking_get(stage=stage, lots=False).standings.rows
    assert [row.rank for row in lots_aside[:4]] == [1, 2, 3, 3] and {int(r.entrant) for r in lots_aside[2:4]} == level

    final = stage_create(tournament=tournament, name="决赛", format="points", options={"rounds": 1, "final": True})
    stage_advance(stage=stage, next_stage=final, count=3, user=boss)
    stage.refresh_from_db()
    final.refresh_from_db()
    seed = stage.settings.lots_seed
    assert seed is not None and final.settings.advancement.lots_seed == seed  # drawn, recorded twice over
    rows = stage_ranking_get(stage=stage).standings.rows
    order = [int(row.entrant) for row in rows]
    assert [row.rank for row in rows[:4]] == [1, 2, 3, 4] and not any(row.shared for row in rows[:4])
    assert set(order[2:4]) == level and rows[2].lots is not None and rows[3].lots is not None
    # The advancement takes the lots' third.
    assert final.settings.entrants == tuple(order[:3])
    # The stage's page and the API: the same order, the lots shown.
    table = standings_table_get(stage_id=stage.pk)
    assert [(line.pair_id, line.rank, line.shared) for line in table.lines] == [
        (pair, rank, False) for rank, pair in enumerate(order, start=1)
    ]
    assert [line.lots for line in table.lines[2:4]] == [rows[2].lots, rows[3].lots]
    page = client.get(reverse("standings:stage_standings", args=[tournament.pk, stage.pk])).content.decode()
    assert f"签 {rows[2].lots}" in page and f"签 {rows[3].lots}" in page
    api = APIClient().get(reverse("api:public:player_standings", args=[tournament.pk, stage.pk])).data
    assert [(line["pair_id"], line["rank"], line["lots"]) for line in api["lines"][:4]] == [
        (pair, rank, row.lots) for rank, (pair, row) in enumerate(zip(order, rows, strict=False), start=1)
    ][:4]
    # The workbook's standings sheet.
    buffer = io.BytesIO()
    workbook_build(tournament=tournament, target=buffer)
    buffer.seek(0)
    book = load_workbook(buffer, read_only=True)
    sheet = next(
        rows
        for rows in (list(book[name].iter_rows(values_only=True)) for name in book.sheetnames)
        if rows and "地主胜局" in rows[0] and len(rows) == 10
    )
    numbers = dict(Pair.objects.filter(tournament=tournament).values_list("pk", "number"))
    at = sheet[0].index("选手编号")
    assert [(row[0], row[at]) for row in sheet[1:5]] == [(rank, numbers[p]) for rank, p in enumerate(order[:4], 1)]
    # Prizes over the stage: the lots' third takes the third prize.
    prize_stage_set(tournament=tournament, stage=stage)
    prize_tiers_set(tournament=tournament, tiers=[TierData("一等奖", 1), TierData("二等奖", 1), TierData("三等奖", 1)])
    awards = prize_tiers_award(tournament=tournament)
    assert awards.problem is None and [a.pair.id for a in awards.awards] == order[:3]
    # The final's table seats the same three.
    table_round = drawn_round(final, user=boss)
    assert set(MatchSeat.objects.filter(round=table_round).values_list("pair_id", flat=True)) == set(order[:3])


def test_the_final_is_not_drawn_before_its_players_advance(boss):
    tournament, stage = doudizhu_event(players=9, boss=boss, options={"rounds": 1})
    round_1 = drawn_round(stage, seed=5, user=boss)
    for match in round_1.matches.all():
        play_table(match, [{"landlord": "E", "bid": 1, "winner": "landlord"}] * 3, user=boss)
    final = stage_create(tournament=tournament, name="决赛", format="points", options={"rounds": 1, "final": True})
    with pytest.raises(UserError) as refused:  # it would seat all nine players
        round_draw(stage=final, seed=1, user=boss)
    assert refused.value.code == "not_advanced" and not final.rounds.exists()
    stage_advance(stage=stage, next_stage=final, count=3, user=boss)
    final.refresh_from_db()
    drawn = round_draw(stage=final, seed=1, user=boss)
    assert set(MatchSeat.objects.filter(round=drawn).values_list("pair_id", flat=True)) == set(final.settings.entrants)
