"""replay_partial: a match replayed as far as the rules allow, so that a correction's casualties can be
flagged (DESIGN.md principle 1) instead of failing the whole replay."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.adjustments import Forfeit, LateArrival, LevelPenalty
from scoring.errors import ErrorCode, ScoringError
from scoring.finishing_order import FinishingOrder
from scoring.match import replay, replay_partial
from scoring.profiles import PROFILES
from scoring.seats import Side
from scoring.tractor import TractorDeal
from tests.scoring.test_properties import FAST, GUANDAN_OPTIONS, ORDERS

NS_TO_A = ["N S"] * 4


def orders(*texts: str) -> list[FinishingOrder]:
    return [FinishingOrder.parse(text) for text in texts]


def test_a_valid_match_replays_exactly_like_replay() -> None:
    deals = orders(*NS_TO_A, "E W", "N E S")
    adjustments = [LevelPenalty(side=Side.NS, levels=1, after_deal=2, reason="signalling")]
    partial = replay_partial(
        options=PROFILES["timed-90"], deals=deals, adjustments=adjustments, time_called_during_deal=9
    )
    full = replay(options=PROFILES["timed-90"], deals=deals, adjustments=adjustments, time_called_during_deal=9)
    assert partial.complete and partial.error is None
    assert partial.deals_applied == 6 and partial.adjustments_applied == (0,)
    assert partial.result.to_json() == full.to_json()


def test_deals_after_the_end_are_refused_from_the_first_one_on() -> None:
    """RULES.md §1: passing A wins; deals 6 and 7 cannot have been played."""
    partial = replay_partial(options=PROFILES["classic"], deals=orders(*NS_TO_A, "N S", "E W", "E W"))
    assert partial.deals_applied == 5
    assert partial.error is not None and partial.error.code is ErrorCode.MATCH_FINISHED
    assert partial.error.deal == 6
    assert partial.result.to_json() == replay(options=PROFILES["classic"], deals=orders(*NS_TO_A, "N S")).to_json()


def test_an_adjustment_after_the_end_stops_the_replay_there() -> None:
    deals = orders(*NS_TO_A, "N S", "E W")
    partial = replay_partial(
        options=PROFILES["classic"],
        deals=deals,
        adjustments=[
            LevelPenalty(side=Side.EW, levels=1, after_deal=1),
            LevelPenalty(side=Side.EW, levels=1, after_deal=5),
        ],
    )
    assert partial.adjustments_applied == (0,)
    assert partial.deals_applied == 5
    assert partial.error is not None and partial.error.code is ErrorCode.MATCH_FINISHED


def test_a_double_entry_of_forfeits_refuses_the_second() -> None:
    partial = replay_partial(
        options=PROFILES["timed-40"],
        deals=[],
        adjustments=[Forfeit(side=Side.EW), LateArrival(side=Side.NS, minutes=3)],
    )
    assert partial.adjustments_applied == (0,)
    assert partial.result.winner is Side.NS and partial.result.reason is not None
    assert partial.error is not None and partial.error.code is ErrorCode.MATCH_FINISHED


def test_an_adjustment_after_a_deal_that_no_longer_exists_is_refused_not_dropped() -> None:
    partial = replay_partial(
        options=PROFILES["timed-40"],
        deals=orders("N S"),
        adjustments=[LevelPenalty(side=Side.NS, levels=1, after_deal=3)],
    )
    assert partial.deals_applied == 1 and partial.adjustments_applied == ()
    assert partial.error is not None and partial.error.code is ErrorCode.BAD_INPUT


def test_a_tractor_deal_in_a_guandan_match_is_refused_with_its_number() -> None:
    partial = replay_partial(
        options=PROFILES["timed-40"],
        deals=[FinishingOrder.parse("N S"), TractorDeal(declarer=Side.NS, defender_points=40)],
    )
    assert partial.deals_applied == 1
    assert partial.error is not None and partial.error.deal == 2


def test_an_invalid_time_call_raises() -> None:
    with pytest.raises(ScoringError):
        replay_partial(options=PROFILES["timed-40"], deals=[], time_called_during_deal=0)


@FAST
@given(
    options=st.sampled_from(GUANDAN_OPTIONS),
    deals=st.lists(st.sampled_from(ORDERS), max_size=40),
    time_called=st.none() | st.integers(min_value=1, max_value=30),
)
def test_partial_replay_is_replay_of_the_longest_valid_prefix(options, deals, time_called) -> None:
    partial = replay_partial(options=options, deals=deals, time_called_during_deal=time_called)
    try:
        full = replay(options=options, deals=deals, time_called_during_deal=time_called)
    except ScoringError as error:
        assert partial.error is not None and partial.error.deal == error.deal
        assert partial.deals_applied == (error.deal or 1) - 1
        prefix = replay(options=options, deals=deals[: partial.deals_applied], time_called_during_deal=time_called)
        assert partial.result.to_json() == prefix.to_json()
    else:
        assert partial.complete and partial.deals_applied == len(deals)
        assert partial.result.to_json() == full.to_json()
