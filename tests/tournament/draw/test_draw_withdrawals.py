"""Withdrawn (or forfeited-out) pairs are never drawn again, in every structure."""

from __future__ import annotations

import pytest

from tests.tournament.draw.conftest import confirm, make_field, win
from tournament.draw.services import bracket_after_result, round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.matches.models import RoundEntry
from tournament.registration.services import pair_withdraw

pytestmark = pytest.mark.django_db


def drawn(round_) -> set[int]:
    return set(RoundEntry.objects.filter(round=round_).values_list("pair_id", flat=True))


def test_a_pair_withdrawn_during_a_swiss_is_not_drawn_again():
    tournament = make_field(8)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    first = round_publish(round_=round_draw(stage=stage, seed=1))
    for match in first.matches.all():
        win(match)
    gone = first.matches.first().ns_pair
    pair_withdraw(pair=gone)
    second = round_draw(stage=stage, seed=2)
    assert gone.pk not in drawn(second) and len(drawn(second)) == 7
    assert second.matches.filter(ew_pair__isnull=True).count() == 1


def test_a_redrawn_knockout_leaves_out_a_winner_who_withdrew():
    stage = stage_create(tournament=make_field(8), name="淘汰赛", format="knockout")
    first = round_publish(round_=round_draw(stage=stage, seed=1))
    winners = [confirm(match).ns_pair for match in first.matches.all()]
    pair_withdraw(pair=winners[0])
    second = round_draw(stage=stage, seed=2)
    assert drawn(second) == {pair.pk for pair in winners[1:]}


def test_in_a_fixed_bracket_the_opponent_of_a_withdrawn_pair_advances_by_walkover():
    stage = stage_create(
        tournament=make_field(8, seeds=True), name="淘汰赛", format="knockout", options={"bracket": "fixed"}
    )
    first = round_publish(round_=round_draw(stage=stage, seed=1))
    matches = list(first.matches.order_by("bracket_slot"))
    nxt = None
    for match in matches[:-1]:
        assert bracket_after_result(match=confirm(match)) is None
    pair_withdraw(pair=matches[0].ns_pair)  # won its match, then forfeited out
    nxt = bracket_after_result(match=confirm(matches[-1]))
    assert nxt is not None
    assert matches[0].ns_pair_id not in drawn(nxt)
    walkover = nxt.matches.get(ew_pair__isnull=True)
    assert walkover.ns_pair_id == matches[1].ns_pair_id and walkover.table is None
    assert nxt.matches.filter(ew_pair__isnull=False).count() == 1


def test_a_round_robin_gives_walkovers_against_a_withdrawn_pair_and_keeps_its_schedule():
    tournament = make_field(6)
    stage = stage_create(tournament=tournament, name="小组赛", format="round_robin")
    first = round_publish(round_=round_draw(stage=stage, seed=1))
    for match in first.matches.all():
        win(match)
    gone = first.matches.first().ew_pair
    pair_withdraw(pair=gone)
    met: set[frozenset[int]] = {frozenset(p) for p in first.matches.values_list("ns_pair_id", "ew_pair_id")}
    walkovers = 0
    for number in range(2, 6):
        round_ = round_publish(round_=round_draw(stage=stage, seed=number))
        assert gone.pk not in drawn(round_) and len(drawn(round_)) == 5
        walkovers += round_.matches.filter(ew_pair__isnull=True).count()
        for match in round_.matches.filter(ew_pair__isnull=False):
            pair = frozenset((match.ns_pair_id, match.ew_pair_id))
            assert pair not in met
            met.add(pair)
            win(match)
    assert walkovers == 4  # each remaining opponent of the withdrawn pair, once
    assert len(met) == 15 - 4  # every other pairing played exactly once
