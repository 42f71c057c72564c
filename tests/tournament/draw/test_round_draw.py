"""The draw service writes a round from a generator, reproducibly."""

from __future__ import annotations

import pytest

from tests.factories import PairFactory, TournamentFactory
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.errors import UserError
from tournament.matches.models import Match, MatchStatus, RoundEntry, RoundStatus
from tournament.matches.services import deal_record, match_sign_off
from tournament.registration.models import PairStatus

pytestmark = pytest.mark.django_db


def field(pairs: int):
    tournament = TournamentFactory(rule_profile="timed-40")
    for _ in range(pairs):
        PairFactory(tournament=tournament)
    return tournament


def play_out(round_):
    for match in round_.matches.filter(ew_pair__isnull=False):
        for _ in range(4):  # timed-40: 2→7→12→A (+5, seed 002), then passes A
            deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})


def test_a_swiss_round_is_written_with_tables_entries_and_a_finished_bye():
    tournament = field(9)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    round_ = round_draw(stage=stage, seed=7)
    assert round_.status == RoundStatus.DRAFT and round_.draw_seed == 7
    assert round_.draw_algorithm.startswith("swiss")
    matches = list(round_.matches.select_related("table"))
    assert len(matches) == 5
    assert sorted(m.table.number for m in matches if m.table) == [1, 2, 3, 4]
    bye = next(m for m in matches if m.ew_pair_id is None)
    assert bye.status == MatchStatus.FINISHED
    assert RoundEntry.objects.filter(round=round_).count() == 9
    assert round_.time_cap_minutes == 40


def test_the_same_seed_gives_the_same_tables():
    tournament = field(12)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    first = round_draw(stage=stage, seed=99)
    tables = sorted(first.matches.values_list("table__number", "ns_pair_id", "ew_pair_id"))
    first.delete()
    again = round_draw(stage=stage, seed=99)
    assert sorted(again.matches.values_list("table__number", "ns_pair_id", "ew_pair_id")) == tables


def test_round_two_waits_for_results_and_never_repeats_an_opponent():
    tournament = field(8)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    first = round_publish(round_=round_draw(stage=stage, seed=1))
    with pytest.raises(UserError):
        round_draw(stage=stage, seed=2)
    play_out(first)
    second = round_draw(stage=stage, seed=2)
    met = {frozenset(p) for p in first.matches.values_list("ns_pair_id", "ew_pair_id")}
    assert not met & {frozenset(p) for p in second.matches.values_list("ns_pair_id", "ew_pair_id")}


def test_withdrawn_pairs_are_not_drawn_and_check_in_decides_who_is():
    tournament = field(6)
    pairs = list(tournament.pairs.all())
    pairs[0].status = PairStatus.WITHDRAWN
    pairs[0].save()
    for pair in pairs[1:5]:
        pair.status = PairStatus.CHECKED_IN
        pair.save()
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    round_ = round_draw(stage=stage, seed=3)
    drawn = set(RoundEntry.objects.filter(round=round_).values_list("pair_id", flat=True))
    assert drawn == {pair.pk for pair in pairs[1:5]}


def test_knockout_redraw_takes_winners_and_the_bye_forward():
    tournament = field(5)
    stage = stage_create(tournament=tournament, name="淘汰赛", format="knockout")
    first = round_publish(round_=round_draw(stage=stage, seed=5))
    assert first.matches.count() == 3  # two tables and a bye
    play_out(first)
    with pytest.raises(UserError) as error:  # entered, not signed off: nobody goes on yet
        round_draw(stage=stage, seed=6)
    assert error.value.code == "round_not_finished"
    for match in first.matches.filter(ew_pair__isnull=False):
        match_sign_off(match_id=match.pk)
    second = round_draw(stage=stage, seed=6)
    winners = set(first.matches.values_list("ns_pair_id", flat=True))  # NS won every deal
    assert set(RoundEntry.objects.filter(round=second).values_list("pair_id", flat=True)) == winners


def test_a_round_robin_meets_everyone_once():
    tournament = field(5)
    stage = stage_create(tournament=tournament, name="小组赛", format="round_robin")
    met = set()
    for number in range(1, 6):
        round_ = round_publish(round_=round_draw(stage=stage, seed=number))
        play_out(round_)
        met |= {
            frozenset(p) for p in round_.matches.filter(ew_pair__isnull=False).values_list("ns_pair_id", "ew_pair_id")
        }
    assert len(met) == 10
    with pytest.raises(UserError):
        round_draw(stage=stage, seed=9)


def test_a_draw_knockout_stage_refuses_draws_as_a_tie_rule():
    tournament = field(4)
    with pytest.raises(UserError):
        stage_create(tournament=tournament, name="淘汰赛", format="knockout", rule_overrides={"time_up_tie": "draw"})
    assert Match.objects.count() == 0
