"""Fixed knockout brackets through the database: byes, winners advancing on sign-off, third place."""

from __future__ import annotations

import random

import pytest

from tests.tournament.draw.conftest import confirm, make_field, win
from tournament.draw.pairing import KnockoutBracket
from tournament.draw.services import (
    bracket_after_result,
    round_delete,
    round_draw,
    round_publish,
)
from tournament.draw.stages import stage_create
from tournament.errors import UserError
from tournament.matches.models import Match, MatchStatus, Round, RoundStatus
from tournament.matches.services import match_sign_off
from tournament.standings.selectors import stage_bracket_state_get

pytestmark = pytest.mark.django_db

FIXED = {"bracket": "fixed", "seeding": "seeds"}


def knockout(tournament, **options):
    return stage_create(tournament=tournament, name="淘汰赛", format="knockout", options={**FIXED, **options})


def played(round_):
    return list(round_.matches.filter(ew_pair__isnull=False).order_by("table__number"))


def loser(match):
    return match.ew_pair_id if match.winner == "NS" else match.ns_pair_id


@pytest.mark.parametrize("pairs", [2, 3, 5, 8, 11])
def test_a_fixed_bracket_gives_byes_to_the_top_seeds_and_winners_advance_on_sign_off(pairs):
    tournament = make_field(pairs, seeds=True)
    stage = knockout(tournament)
    round_ = round_draw(stage=stage, seed=pairs)
    bracket = KnockoutBracket.from_record(stage.options["bracket_record"])
    size = 1 << (pairs - 1).bit_length()
    assert bracket.size == size
    seed_of = dict(tournament.pairs.values_list("id", "seed"))
    byes = round_.matches.filter(ew_pair__isnull=True)
    assert sorted(seed_of[pair] for pair in byes.values_list("ns_pair_id", flat=True)) == list(
        range(1, size - pairs + 1)
    )
    assert all(match.status == MatchStatus.FINISHED for match in byes)
    rng = random.Random(pairs)
    out: set[int] = set()
    rounds = 0
    while round_ is not None:
        round_publish(round_=round_)
        rounds += 1
        in_round = {p for m in round_.matches.all() for p in (m.ns_pair_id, m.ew_pair_id) if p}
        assert not in_round & out, "a pair that lost was drawn again"
        matches = played(round_)
        assert [m.table.number for m in matches] == list(range(1, len(matches) + 1))
        assert all(m.bracket_slot for m in round_.matches.all())
        nxt = None
        for index, match in enumerate(matches):
            assert nxt is None, "the next round waits for every match of this one"
            match = confirm(match, rng.choice(["NS", "EW"]))
            out.add(loser(match))
            nxt = bracket_after_result(match=match)
            if index < len(matches) - 1:
                assert nxt is None
        assert bracket_after_result(match=matches[-1]) is None  # idempotent
        if nxt is not None:
            assert nxt.status == RoundStatus.DRAFT and nxt.number == round_.number + 1
        round_ = nxt
    assert rounds == bracket.rounds
    final = Match.objects.get(round__stage=stage, round__number=bracket.rounds, bracket_slot=1)
    champion = stage_bracket_state_get(stage=stage).champion  # the one answer production asks
    assert champion == str(final.ns_pair_id if final.winner == "NS" else final.ew_pair_id)
    assert len(out) == pairs - 1
    with pytest.raises(UserError):
        round_draw(stage=stage)


def test_the_third_place_match_is_played_beside_the_final():
    tournament = make_field(6, seeds=True)
    stage = knockout(tournament, third_place=True)
    round_ = round_publish(round_=round_draw(stage=stage, seed=1))
    semi_losers: set[int] = set()
    while True:
        nxt = None
        for match in played(round_):
            match = confirm(match, "EW")
            if round_.number == 2:
                semi_losers.add(loser(match))
            nxt = bracket_after_result(match=match) or nxt
        if nxt is None:
            break
        round_ = round_publish(round_=nxt)
    final_round = round_
    assert final_round.number == 3
    final, third = played(final_round)
    assert (final.bracket_slot, final.table.number) == (1, 1)
    assert (third.bracket_slot, third.table.number) == (2, 2)
    assert {third.ns_pair_id, third.ew_pair_id} == semi_losers
    assert set(final_round.draw_options["third_place_pairs"]) == semi_losers


def test_the_next_round_needs_every_result_signed_off():
    stage = knockout(make_field(4, seeds=True))
    first = round_publish(round_=round_draw(stage=stage, seed=1))
    for match in played(first):
        win(match)  # finished, not signed off
    with pytest.raises(UserError) as error:
        round_draw(stage=stage)
    assert error.value.code == "round_not_finished"
    for match in played(first):
        match_sign_off(match_id=match.pk)
    second = round_draw(stage=stage)
    assert second.number == 2 and len(played(second)) == 1


def test_a_changed_result_replaces_the_draft_and_a_stale_draft_cannot_be_published():
    stage = knockout(make_field(4, seeds=True))
    first = round_publish(round_=round_draw(stage=stage, seed=1))
    nxt = None
    for match in played(first):
        nxt = bracket_after_result(match=confirm(match, "NS")) or nxt
    assert nxt is not None
    changed = played(first)[0]
    # An organiser unlocked the match and a correction gave it to E/W, signed off again.
    Match.objects.filter(pk=changed.pk).update(winner="EW")
    with pytest.raises(UserError) as error:
        round_publish(round_=nxt)
    assert error.value.code == "stale_bracket_round"
    replaced = bracket_after_result(match=changed)
    assert replaced is not None and not Round.objects.filter(pk=nxt.pk).exists()
    assert changed.ew_pair_id in {p for m in played(replaced) for p in (m.ns_pair_id, m.ew_pair_id)}
    assert round_publish(round_=replaced).status == RoundStatus.PUBLISHED


def test_sign_off_advances_the_bracket_through_the_signal(django_capture_on_commit_callbacks):
    stage = knockout(make_field(4, seeds=True))
    first = round_publish(round_=round_draw(stage=stage, seed=1))
    for match in played(first):
        with django_capture_on_commit_callbacks(execute=True):
            confirm(match)
    second = stage.rounds.get(number=2)
    assert second.status == RoundStatus.DRAFT and len(played(second)) == 1


def test_the_hook_ignores_swiss_and_redrawn_knockouts():
    swiss = stage_create(tournament=make_field(4), name="预赛", format="swiss")
    match = played(round_publish(round_=round_draw(stage=swiss, seed=1)))[0]
    assert bracket_after_result(match=confirm(match)) is None
    redraw = stage_create(tournament=make_field(4), name="淘汰赛", format="knockout")
    match = played(round_publish(round_=round_draw(stage=redraw, seed=1)))[0]
    assert bracket_after_result(match=match) is None  # not even finished
    assert bracket_after_result(match=confirm(match)) is None
    assert redraw.rounds.count() == 1


def test_a_random_bracket_is_recorded_and_the_same_seed_draws_it_again():
    stage = knockout(make_field(7), seeding="random")
    first = round_draw(stage=stage, seed=42)
    record = stage.options["bracket_record"]
    assert record["seed"] == 42 and record["options"]["seeding"] == "random"
    tables = sorted(first.matches.values_list("bracket_slot", "ns_pair_id", "ew_pair_id", "table__number"))
    round_delete(round_=first)
    stage.refresh_from_db()
    assert "bracket_record" not in stage.options
    again = round_draw(stage=stage, seed=42)
    assert stage.options["bracket_record"] == record
    assert sorted(again.matches.values_list("bracket_slot", "ns_pair_id", "ew_pair_id", "table__number")) == tables


def test_a_redrawn_knockout_can_play_off_third_place():
    stage = stage_create(
        tournament=make_field(4), name="淘汰赛", format="knockout", options={"third_place": True}
    )
    first = round_publish(round_=round_draw(stage=stage, seed=5))
    losers = {loser(win(match, "NS")) for match in played(first)}
    with pytest.raises(UserError) as error:  # the semi-finals are not signed off yet
        round_draw(stage=stage, seed=6)
    assert error.value.code == "round_not_finished"
    for match in played(first):
        match_sign_off(match_id=match.pk)
    final_round = round_draw(stage=stage, seed=6)
    final, third = played(final_round)
    assert {third.ns_pair_id, third.ew_pair_id} == losers
    assert not {final.ns_pair_id, final.ew_pair_id} & losers
    assert set(final_round.draw_options["third_place_pairs"]) == losers
    round_publish(round_=final_round)
    for match in played(final_round):
        confirm(match)
    with pytest.raises(UserError) as error:
        round_draw(stage=stage)
    assert error.value.code == "bracket_complete"
