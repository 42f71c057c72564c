"""A points stage with a cut (the rest shown as eliminated, not drawn again), a final table, and
the public pages in Dou Dizhu terms: find my seat, the round's tables, standings, a player's page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round, play_round
from tournament.draw.stages import stage_advance, stage_create
from tournament.matches.models import MatchSeat
from tournament.standings.selectors import stage_ranking_get

pytestmark = pytest.mark.django_db


@pytest.fixture
def cut_event(boss):
    """12 players, 3 rounds, the top 6 kept after round 1; round 1 played and signed off."""
    tournament, stage = doudizhu_event(
        players=12, boss=boss, options={"rounds": 3, "cuts": [{"after_round": 1, "keep": 6}]}
    )
    round_1 = drawn_round(stage, seed=11, user=boss)
    play_round(round_1, user=boss)
    return tournament, stage


def test_the_cut_eliminates_the_rest_and_they_are_not_drawn_again(cut_event, boss):
    _tournament, stage = cut_event
    ranking = stage_ranking_get(stage=stage).players
    assert ranking is not None
    eliminated = set(ranking.eliminated_after)
    assert len(eliminated) == 6 and set(ranking.eliminated_after.values()) == {1}
    rows = ranking.players.rows
    assert all(row.eliminated_after_round is None for row in rows[:6])
    assert all(row.eliminated_after_round == 1 for row in rows[6:])
    round_2 = drawn_round(stage, seed=12, user=boss)
    drawn = {str(pk) for pk in MatchSeat.objects.filter(round=round_2).values_list("pair_id", flat=True)}
    assert len(drawn) == 6 and not drawn & eliminated


def test_a_final_table_ranks_by_its_own_points_then_the_stage_before(cut_event, boss):
    tournament, stage = cut_event
    for _ in range(2):
        play_round(drawn_round(stage, user=boss), user=boss)
    final = stage_create(tournament=tournament, name="决赛", format="points", options={"rounds": 1, "final": True})
    final = stage_advance(stage=stage, next_stage=final, count=3, user=boss)
    table_round = drawn_round(final, user=boss)
    assert table_round.matches.count() == 1
    play_round(table_round, user=boss)
    ranking = stage_ranking_get(stage=final).players
    assert ranking is not None and ranking.final
    rows = ranking.players.rows
    assert [row.rank for row in rows] == [1, 2, 3]
    assert rows[0].points >= rows[1].points >= rows[2].points
    assert all(row.stage_rank in (1, 2, 3) for row in rows)


def test_the_public_pages_speak_dou_dizhu(client, cut_event):
    tournament, stage = cut_event
    round_1 = stage.rounds.get(number=1)
    draw = client.get(reverse("standings:draw_round", args=[tournament.pk, round_1.pk])).content.decode()
    assert ">东<" in draw and "E · 东" not in draw and ">西<" in draw and "W · 西" not in draw and "桌" in draw
    standings = client.get(reverse("standings:stage_standings", args=[tournament.pk, stage.pk])).content.decode()
    assert "第 1 轮后被淘汰" in standings and "地主胜局" in standings
    seat = MatchSeat.objects.filter(round=round_1, match__isnull=False, seat="S").select_related("pair").first()
    found = client.get(reverse("standings:find", args=[tournament.pk]), {"q": seat.pair.name}).content.decode()
    assert ">南<" in found and "S · 南" not in found and f"第 {seat.match.table.number} 桌" in found
    player = client.get(reverse("standings:pair", args=[tournament.pk, seat.pair_id])).content.decode()
    assert "农民" in player and "座位 南" in player and "S · 南" not in player


def test_the_public_pages_in_english(cut_event):
    from tests.factories import english_client

    tournament, stage = cut_event
    client = english_client()
    standings = client.get(reverse("standings:stage_standings", args=[tournament.pk, stage.pk])).content.decode()
    assert "Eliminated after round 1" in standings and "As landlord" in standings
