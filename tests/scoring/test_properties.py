"""Property tests: levels stay within 2..14; a finished match refuses further deals; replay is
deterministic and equals deal-by-deal application; in a level game a winner either passed A or time was
called; points totals are the sum of per-deal points; standings ranks agree with the ordering."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.adjustments import Adjustment, LateArrival, LevelPenalty
from scoring.errors import ErrorCode, ScoringError
from scoring.finishing_order import FinishingOrder
from scoring.match import DealRecord, MatchState, replay
from scoring.options import RuleOptions
from scoring.outcome import Reason, Status
from scoring.profiles import PROFILES, options_for
from scoring.seats import SEATS, Side
from scoring.standings import METRICS, MatchRecord, rank
from scoring.tractor import TractorDeal, TractorState

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ORDERS: list[FinishingOrder] = sorted(
    {
        FinishingOrder.parse([seat.value for seat in permutation[:3]])
        for permutation in itertools.permutations(SEATS)
    }
    | {FinishingOrder.parse([seat.value, seat.partner.value]) for seat in SEATS},
    key=str,
)

GUANDAN_OPTIONS: list[RuleOptions] = [
    PROFILES["classic"],
    PROFILES["timed-40"],
    PROFILES["timed-90"],
    PROFILES["points-6"],
    options_for(profile="timed-40", overrides={"at_time_up": "one_more_deal", "time_up_tie": "setting_side"}),
    options_for(profile="timed-40", overrides={"time_up_tie": "draw", "a_pass": "one_two_only"}),
    options_for(profile="classic", overrides={"format": "best_of", "games": 3, "a_failure_limit": 2}),
    options_for(profile="timed-90", overrides={"format": "fixed_deals_levels", "deals": 12}),
    options_for(profile="points-6", overrides={"time_up_tie": "draw", "deals": 5}),
]


@st.composite
def matches(draw: st.DrawFn) -> tuple[RuleOptions, list[FinishingOrder], int | None, list[Adjustment]]:
    """A valid match: deals drawn one by one and kept only while the match is unfinished."""
    options = draw(st.sampled_from(GUANDAN_OPTIONS))
    wanted = draw(st.lists(st.sampled_from(ORDERS), max_size=60))
    time_called = draw(st.none() | st.integers(min_value=1, max_value=40))
    adjustments: list[Adjustment] = []
    if options.has_levels and draw(st.booleans()):
        adjustments.append(
            LateArrival(side=draw(st.sampled_from(list(Side))), minutes=draw(st.integers(0, 20)))
        )
    state = MatchState.initial(options)
    if time_called is not None:
        state = state.call_time(during_deal=time_called)
    for adjustment in adjustments:
        state, _ = state.adjust(adjustment)
    deals: list[FinishingOrder] = []
    for order in wanted:
        if state.is_finished:
            break
        state, _ = state.apply(order)
        deals.append(order)
        if options.has_levels and not state.is_finished and draw(st.integers(0, 9)) == 0:
            penalty = LevelPenalty(
                side=draw(st.sampled_from(list(Side))), levels=draw(st.integers(1, 4)), after_deal=len(deals)
            )
            state, _ = state.adjust(penalty)
            adjustments.append(penalty)
    return options, deals, time_called, adjustments


def _fold(
    options: RuleOptions, deals: list[FinishingOrder], time_called: int | None, adjustments: list[Adjustment]
) -> tuple[MatchState, list[DealRecord]]:
    state = MatchState.initial(options)
    if time_called is not None:
        state = state.call_time(during_deal=time_called)
    records: list[DealRecord] = []
    for index in range(len(deals) + 1):
        for adjustment in adjustments:
            if adjustment.after_deal == index:
                state, _ = state.adjust(adjustment)
        if index < len(deals):
            state, record = state.apply(deals[index])
            records.append(record)
    return state, records


@FAST
@given(matches())
def test_levels_stay_within_2_and_14(match: tuple) -> None:  # type: ignore[type-arg]
    options, deals, time_called, adjustments = match
    result = replay(
        options=options, deals=deals, time_called_during_deal=time_called, adjustments=adjustments
    )
    assert all(2 <= level <= 14 for level in result.levels)
    for record in result.deals:
        assert all(2 <= level <= 14 for level in record.levels_after)  # type: ignore[attr-defined]
        assert 2 <= record.level <= 14  # type: ignore[attr-defined]


@FAST
@given(matches(), st.sampled_from(ORDERS))
def test_a_finished_match_refuses_further_deals(match: tuple, extra: FinishingOrder) -> None:  # type: ignore[type-arg]
    options, deals, time_called, adjustments = match
    state, _ = _fold(options, deals, time_called, adjustments)
    if state.status is Status.FINISHED:
        with pytest.raises(ScoringError) as caught:
            state.apply(extra)
        assert caught.value.code is ErrorCode.MATCH_FINISHED and caught.value.deal == len(deals) + 1
        with pytest.raises(ScoringError):
            replay(
                options=options,
                deals=[*deals, extra],
                time_called_during_deal=time_called,
                adjustments=adjustments,
            )
    else:
        state.apply(extra)  # an unfinished match takes another deal


@FAST
@given(matches())
def test_replay_is_deterministic_and_equals_deal_by_deal_application(match: tuple) -> None:  # type: ignore[type-arg]
    options, deals, time_called, adjustments = match
    first = replay(options=options, deals=deals, time_called_during_deal=time_called, adjustments=adjustments)
    second = replay(
        options=options, deals=list(deals), time_called_during_deal=time_called, adjustments=adjustments
    )
    assert first == second and first.to_json() == second.to_json()
    state, records = _fold(options, deals, time_called, adjustments)
    assert tuple(records) == tuple(first.deals)
    folded = state.result(deals=records, adjustments=first.adjustments)
    assert folded == first


@FAST
@given(matches())
def test_a_level_game_winner_passed_a_or_time_was_called(match: tuple) -> None:  # type: ignore[type-arg]
    options, deals, time_called, adjustments = match
    if options.format.value != "level_game":
        return
    result = replay(
        options=options, deals=deals, time_called_during_deal=time_called, adjustments=adjustments
    )
    if result.winner is not None:
        assert (
            result.reason is Reason.PASSED_A
            or result.reason is Reason.FORFEIT
            or (time_called is not None and result.last_regular_deal is not None)
        )
    if time_called is None and not adjustments:
        assert result.status is not Status.NEEDS_EXTRA_DEAL
        assert result.winner is None or result.reason is Reason.PASSED_A


@FAST
@given(st.lists(st.sampled_from(ORDERS), max_size=8), st.none() | st.integers(1, 8))
def test_points_totals_are_the_sum_of_per_deal_points(
    wanted: list[FinishingOrder], time_called: int | None
) -> None:
    options = PROFILES["points-6"]
    state = MatchState.initial(options)
    if time_called is not None:
        state = state.call_time(during_deal=time_called)
    records = []
    for order in wanted:
        if state.is_finished:
            break
        state, record = state.apply(order)
        records.append(record)
    totals = [0, 0]
    for record in records:
        totals[record.winner] += record.points
        assert record.points == (3, 2, 1)[record.partner_place - 2] and record.level == 2
        assert record.points_after == tuple(totals)
    assert state.points == tuple(totals) and state.levels == (2, 2)


@FAST
@given(
    st.lists(
        st.tuples(
            st.integers(0, 7),
            st.integers(0, 7),
            st.sampled_from(["NS", "EW", None, "forfeit", "both"]),
            st.integers(2, 14),
            st.integers(2, 14),
            st.booleans(),
        ),
        max_size=30,
    ),
    st.permutations(["match_points", "small_points", "levels_sum", "buchholz", "wins"]),
    st.booleans(),
    st.none() | st.integers(0, 10**6),
)
def test_standings_ranks_are_consistent_with_the_ordering(
    games: list[tuple],
    order: list[str],
    head_to_head: bool,
    seed: int | None,  # type: ignore[type-arg]
) -> None:
    results = []
    for round_number, (a, b, outcome, level_a, level_b, passed) in enumerate(games, 1):
        if a == b:
            results.append(MatchRecord(round=round_number, ns=f"P{a}", ew=None))
            continue
        if outcome == "forfeit":
            results.append(MatchRecord(round=round_number, ns=f"P{a}", ew=f"P{b}", forfeit=Side.EW))
        elif outcome == "both":
            results.append(MatchRecord(round=round_number, ns=f"P{a}", ew=f"P{b}", double_forfeit=True))
        else:
            winner = Side[outcome] if outcome else None
            levels = (
                14 if passed and winner is Side.NS else level_a,
                14 if passed and winner is Side.EW else level_b,
            )
            results.append(
                MatchRecord(
                    round=round_number,
                    ns=f"P{a}",
                    ew=f"P{b}",
                    winner=winner,
                    levels=levels,
                    passed_a=passed and winner is not None,
                )
            )
    tie_breakers = [*order[:3], *(["head_to_head"] if head_to_head else []), *order[3:], "lots"]
    options = options_for(profile="classic", overrides={"tie_breakers": tie_breakers})
    standings = rank(results=results, options=options, lots_seed=seed)
    rows = standings.rows
    entrant_metrics = [name for name in tie_breakers if METRICS[name].of_entrant is not None]
    for position, row in enumerate(rows):
        assert row.rank <= position + 1
        if position:
            previous = rows[position - 1]
            assert previous.rank <= row.rank
            assert (previous.rank == row.rank) == (row.rank != position + 1)
            if not head_to_head:
                key = [getattr(row, name) for name in entrant_metrics]
                previous_key = [getattr(previous, name) for name in entrant_metrics]
                assert previous_key >= key
                if previous.rank == row.rank:
                    assert previous_key == key
    if seed is not None:
        assert not any(row.shared for row in rows)
    ranks = [row.rank for row in rows]
    for row in rows:
        assert row.shared == (ranks.count(row.rank) > 1)


@FAST
@given(
    st.sampled_from([name for name, options in PROFILES.items() if not options.is_doudizhu]),
    st.fixed_dictionaries(
        {},
        optional={
            "time_cap_minutes": st.none() | st.integers(1, 120),
            "at_time_up": st.sampled_from(["finish_current_deal", "one_more_deal"]),
            "time_up_tie": st.sampled_from(["first_to_reach", "extra_deal", "setting_side", "draw"]),
            "match_points": st.fixed_dictionaries({"win": st.integers(2, 3), "draw": st.integers(1, 1)}),
            "tribute_variant": st.sampled_from(["standard", "seed_000", "national_2017", "seed_002"]),
            "bye_margin": st.integers(0, 13),
            "a_pass": st.sampled_from(["top_and_partner_not_last", "side_not_last", "one_two_only"]),
            "a_reset": st.sampled_from(["to_2", "upgrade_from_2"]),
            "wild_reading": st.sampled_from(["largest", "stated_example"]),
        },
    ),
)
def test_options_round_trip_through_json(profile: str, overrides: dict) -> None:  # type: ignore[type-arg]
    """Guandan and Tractor profiles with their options (Dou Dizhu has none of these; its round trip is in
    tests/scoring/test_doudizhu_options.py)."""
    options = options_for(profile=profile, overrides=overrides)
    assert RuleOptions.from_json(options.to_json()) == options


@FAST
@given(
    st.sampled_from(list(Side)),
    st.lists(
        st.tuples(st.integers(-60, 90).map(lambda n: n * 5), st.none() | st.sampled_from(list(Side))),
        max_size=40,
    ),
)
def test_tractor_levels_stay_within_2_and_14(first: Side, deals: list[tuple[int, Side | None]]) -> None:
    state = TractorState.initial(PROFILES["tractor-3deck"])
    for number, (points, revoke) in enumerate(deals):
        if state.is_finished:
            break
        deal = TractorDeal(declarer=first if number == 0 else None, defender_points=points, revoke=revoke)
        state, record = state.apply(deal)
        assert all(2 <= level <= 14 for level in record.levels_after)
        assert record.next_declarer is (
            record.declarer if record.result.value == "declarers_up" else record.declarer.other
        )
