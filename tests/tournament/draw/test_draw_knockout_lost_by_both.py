"""A knockout match lost by both through the database (docs/rules.md §7 "A knockout match lost by both";
seed 004 逾期未进行比赛或者未上报结果的，将视为两组选手放弃比赛): a signed-off double forfeit puts both pairs out, the
round is complete, and the next round gives the pair they would have met a bye."""

from __future__ import annotations

import pytest

from tests.tournament.draw.conftest import confirm, make_field
from tournament.draw.services import bracket_after_result, round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.matches.models import MatchStatus
from tournament.matches.services import adjustment_record, match_sign_off
from tournament.standings.selectors import stage_bracket_state_get

pytestmark = pytest.mark.django_db


def double_forfeit(match):
    for pair_id in (match.ns_pair_id, match.ew_pair_id):
        adjustment_record(match_id=match.pk, pair_id=pair_id, kind="forfeit", reason="未上报结果")
    return match_sign_off(match_id=match.pk)


def test_a_fixed_bracket_goes_on_past_a_match_lost_by_both():
    tournament = make_field(4, seeds=True)
    stage = stage_create(
        tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed", "seeding": "seeds"}
    )
    semis = round_draw(stage=stage, seed=4)
    round_publish(round_=semis)
    first, second = semis.matches.filter(ew_pair__isnull=False).order_by("table__number")
    first = confirm(first, "NS")
    assert bracket_after_result(match=first) is None  # the other semi-final is not decided yet
    second = double_forfeit(second)
    assert (second.status, second.winner) == (MatchStatus.CONFIRMED, "")
    state = stage_bracket_state_get(stage=stage)
    assert state.pending == 0
    assert {str(second.ns_pair_id), str(second.ew_pair_id)} <= set(state.out_in)
    assert state.champion == str(first.ns_pair_id)  # the final's other place is a bye
    assert bracket_after_result(match=second) is None  # nothing left to draw


def test_a_re_drawn_knockout_draws_the_next_round_without_both():
    tournament = make_field(6)
    stage = stage_create(tournament=tournament, name="淘汰赛", format="knockout", options={})
    first = round_draw(stage=stage, seed=6)
    round_publish(round_=first)
    matches = list(first.matches.filter(ew_pair__isnull=False).order_by("table__number"))
    lost = double_forfeit(matches[0])
    winners = {confirm(match, "NS").ns_pair_id for match in matches[1:]}
    nxt = round_draw(stage=stage, seed=7)
    drawn = {pair for match in nxt.matches.all() for pair in (match.ns_pair_id, match.ew_pair_id) if pair}
    assert drawn == winners
    assert not drawn & {lost.ns_pair_id, lost.ew_pair_id}
