"""Property tests of Dou Dizhu tables (docs/rules.md §10): every deal is zero-sum, the multiple
never exceeds the cap, the points after each deal are the running sums, and a table plays exactly its
deals."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.doudizhu import DoudizhuTable, replay_table_partial
from scoring.doudizhu_deals import MAX_BOMBS, CardsLeftDeal, DoudizhuDeal, StakeDeal, Winner
from scoring.errors import ErrorCode
from scoring.options import DealScoring, RuleOptions
from scoring.profiles import options_for
from scoring.three_seats import THREE_SEATS

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tables(draw: st.DrawFn) -> tuple[RuleOptions, list[DoudizhuDeal]]:
    overrides: dict[str, Any] = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "deals": st.integers(min_value=1, max_value=12),
                "multiple_cap": st.none() | st.integers(1, 256),
                "base": st.integers(1, 5),
                "deal_scoring": st.sampled_from(["stake", "cards_left"]),
            },
        )
    )
    options = options_for(profile="doudizhu", overrides=overrides)
    deals: list[DoudizhuDeal] = []
    for _ in range(draw(st.integers(0, 9))):
        landlord = draw(st.sampled_from(THREE_SEATS))
        if overrides.get("deal_scoring") == "cards_left":
            out = draw(st.sampled_from(THREE_SEATS))
            counts = [
                0 if seat is out else draw(st.integers(1, 20 if seat is landlord else 17)) for seat in THREE_SEATS
            ]
            deals.append(CardsLeftDeal(landlord=landlord, cards_left=(counts[0], counts[1], counts[2])))
        else:
            deals.append(
                StakeDeal(
                    landlord=landlord,
                    winner=draw(st.sampled_from(list(Winner))),
                    bid=draw(st.integers(1, 3)),
                    bombs=draw(st.integers(0, MAX_BOMBS)),
                    spring=draw(st.booleans()),
                )
            )
    return options, deals


@FAST
@given(tables())
def test_every_deal_is_zero_sum_and_points_after_are_the_running_sums(table: tuple[RuleOptions, list[Any]]) -> None:
    options, deals = table
    result = replay_table_partial(options=options, deals=deals).result
    running = [0, 0, 0]
    for record in result.deals:
        assert sum(record.points) == 0
        running = [total + points for total, points in zip(running, record.points, strict=True)]
        assert list(record.points_after) == running
    assert list(result.points) == running and sum(result.points) == 0


@FAST
@given(tables())
def test_the_multiple_never_exceeds_the_cap(table: tuple[RuleOptions, list[Any]]) -> None:
    options, deals = table
    for record in replay_table_partial(options=options, deals=deals).result.deals:
        if record.multiple is None:  # cards_left scoring has no multiple
            continue
        assert record.multiple >= 1 and (options.multiple_cap is None or record.multiple <= options.multiple_cap)
        assert record.stake == options.base * record.multiple
        landlord = record.landlord.position
        assert abs(record.points[landlord]) == 2 * record.stake
        assert all(abs(points) == record.stake for seat, points in enumerate(record.points) if seat != landlord)


@FAST
@given(tables())
def test_a_table_plays_exactly_its_deals_and_equals_deal_by_deal_application(
    table: tuple[RuleOptions, list[Any]],
) -> None:
    options, deals = table
    partial = replay_table_partial(options=options, deals=deals)
    assert options.deals is not None
    assert partial.deals_applied == min(len(deals), options.deals)
    assert partial.result.is_finished == (len(deals) >= options.deals)
    if len(deals) > options.deals:
        assert partial.error is not None
        assert (partial.error.code, partial.error.deal) == (ErrorCode.MATCH_FINISHED, options.deals + 1)
    else:
        assert partial.error is None
    state = DoudizhuTable.initial(options)
    records = []
    for deal in deals[: options.deals]:
        state, record = state.apply(deal)
        records.append(record)
    assert state.result(deals=records) == partial.result
    won = sum(state.deals_won)
    # the landlord alone, or both farmers; under cards-left scoring the player who went out alone (seed 004
    # 积分最高者为此局的胜利者, docs/rules.md §10)
    alone = options.deal_scoring is DealScoring.CARDS_LEFT
    assert won == sum(1 if alone or record.winner is Winner.LANDLORD else 2 for record in records)
