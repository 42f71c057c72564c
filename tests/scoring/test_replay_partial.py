"""replay_partial: a match replayed as far as the rules allow, so that a correction's casualties can be
flagged (docs/design.md: deals are the source of truth) instead of failing the whole replay. It is
the rules core's one replay: ``replay`` is it plus raising the refusal, and both are checked against
the immutable states applied item by item."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.adjustments import Forfeit, LateArrival, LevelPenalty
from scoring.errors import ErrorCode, ScoringError
from scoring.finishing_order import FinishingOrder
from scoring.match import GuandanDeal, replay, replay_partial, start
from scoring.profiles import PROFILES
from scoring.seats import Side
from scoring.tractor import TractorDeal, WrongCount
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
    """docs/rules.md §1: passing A wins; deals 6 and 7 cannot have been played."""
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


# -- one replay. ``replay`` is ``replay_partial`` raising its refusal; both are checked against
# an independent reference: the immutable states of both games applied item by item.


def _reference(options, deals, time_called, adjustments):  # type: ignore[no-untyped-def]
    """The fold the docstring promises, built from ``start`` and the immutable ``apply`` / ``adjust``."""
    state = start(options=options)
    if time_called is not None:
        state = state.call_time(during_deal=time_called)
    records, adjustment_records, applied = [], [], []
    for position in range(len(deals) + 2):
        for index, adjustment in enumerate(adjustments):
            if min(adjustment.after_deal, len(deals) + 1) != position:
                continue
            if position > len(deals):
                return state, records, adjustment_records, applied, (ErrorCode.BAD_INPUT, adjustment.after_deal)
            try:
                state, record = state.adjust(adjustment)
            except ScoringError as error:
                refused = (error.code, error.deal or adjustment.after_deal or None)
                return state, records, adjustment_records, applied, refused
            adjustment_records.append(record)
            applied.append(index)
        if position < len(deals):
            try:
                state, record = state.apply(deals[position])
            except ScoringError as error:
                return state, records, adjustment_records, applied, (error.code, error.deal or position + 1)
            records.append(record)
    return state, records, adjustment_records, applied, None


ADJUSTMENTS = st.lists(
    st.one_of(
        st.builds(
            LevelPenalty, side=st.sampled_from(list(Side)), levels=st.integers(1, 4), after_deal=st.integers(0, 30)
        ),
        st.builds(LateArrival, side=st.sampled_from(list(Side)), minutes=st.integers(0, 25), after_deal=st.just(0)),
        st.builds(Forfeit, side=st.sampled_from([Side.NS, Side.EW, None]), after_deal=st.integers(0, 30)),
    ),
    max_size=3,
)


@FAST
@given(
    options=st.sampled_from(GUANDAN_OPTIONS),
    deals=st.lists(
        st.sampled_from(ORDERS) | st.sampled_from(ORDERS).map(lambda order: GuandanDeal(order, True)),
        max_size=40,
    ),
    time_called=st.none() | st.integers(min_value=1, max_value=30),
    adjustments=ADJUSTMENTS,
)
def test_the_one_replay_equals_the_item_by_item_fold(options, deals, time_called, adjustments) -> None:  # type: ignore[no-untyped-def]
    _check_against_reference(options, deals, time_called, adjustments)


@FAST
@given(
    first=st.sampled_from(list(Side)),
    points=st.lists(
        st.tuples(
            st.integers(-30, 80).map(lambda n: n * 5),
            st.none() | st.sampled_from(list(Side)),
            st.booleans(),
            st.none() | st.sampled_from(list(WrongCount)),
        ),
        max_size=30,
    ),
    time_called=st.none() | st.integers(min_value=1, max_value=30),
    adjustments=ADJUSTMENTS,
)
def test_the_one_replay_equals_the_item_by_item_fold_in_tractor(first, points, time_called, adjustments) -> None:  # type: ignore[no-untyped-def]
    deals = [
        TractorDeal(
            declarer=first if number == 0 else None,
            defender_points=p,
            revoke=revoke,
            wrong_bottom=wrong_bottom and number % 3 == 0,
            wrong_count=wrong_count if number % 4 == 1 else None,
        )
        for number, (p, revoke, wrong_bottom, wrong_count) in enumerate(points)
    ]
    _check_against_reference(PROFILES["tractor-3deck"], deals, time_called, adjustments)


def _check_against_reference(options, deals, time_called, adjustments) -> None:  # type: ignore[no-untyped-def]
    try:
        state, records, adjustment_records, applied, refused = _reference(options, deals, time_called, adjustments)
    except ScoringError:  # an invalid time call raises in both
        with pytest.raises(ScoringError):
            replay_partial(options=options, deals=deals, time_called_during_deal=time_called, adjustments=adjustments)
        return
    partial = replay_partial(options=options, deals=deals, time_called_during_deal=time_called, adjustments=adjustments)
    expected = state.result(deals=records, adjustments=adjustment_records)
    assert partial.result == expected and partial.result.to_json() == expected.to_json()
    assert partial.deals_applied == len(records) and partial.adjustments_applied == tuple(applied)
    got = (partial.error.code, partial.error.deal) if partial.error is not None else None
    assert got == refused
    kwargs = {"options": options, "deals": deals, "time_called_during_deal": time_called, "adjustments": adjustments}
    if refused is None:
        assert replay(**kwargs) == expected
    else:
        with pytest.raises(ScoringError) as caught:
            replay(**kwargs)
        assert caught.value is partial.error or (caught.value.code, caught.value.deal) == refused
