"""Grouped round robins and walkovers, as pure functions (no database)."""

from __future__ import annotations

from tournament.draw.pairing_groups import groups_round, snake_groups, walkovers
from tournament.draw.pairing_round_robin import round_robin_schedule
from tournament.draw.pairing_types import Draw, Entrant, Pairing


def test_snake_groups_deal_by_seed_then_rank_in_snake_order() -> None:
    entrants = [Entrant(id=pair, seed=pair) for pair in range(1, 9)]
    group_of = snake_groups(entrants, 3, seed=7)
    # 1 2 3 | 3 2 1 | 1 2
    assert [group_of[str(pair)] for pair in range(1, 9)] == [1, 2, 3, 3, 2, 1, 1, 2]


def test_snake_groups_break_full_ties_by_lots_of_the_seed() -> None:
    entrants = [Entrant(id=pair) for pair in range(1, 13)]
    first = snake_groups(entrants, 4, seed=1)
    assert first == snake_groups(entrants, 4, seed=1)  # the same seed gives the same groups
    assert sorted(first.values()) == sorted([1, 2, 3, 4] * 3)
    assert any(snake_groups(entrants, 4, seed=seed) != first for seed in range(2, 10))


def test_groups_round_numbers_the_tables_group_by_group_with_byes_last() -> None:
    schedules = [
        round_robin_schedule(entrants=[Entrant(id=pair) for pair in (1, 2, 3)], seed=5),
        round_robin_schedule(entrants=[Entrant(id=pair) for pair in (4, 5, 6, 7)], seed=5),
    ]
    merged = groups_round(schedules, 1, 2)
    tables = [p for p in merged.pairings if p.ew is not None]
    assert [p.table for p in tables] == list(range(1, len(tables) + 1))
    assert all(p.ew is None for p in merged.pairings[len(tables) :])
    assert len(tables) == 3 and len(merged.byes) == 1  # 1 table + a bye in the group of 3, 2 tables in the other
    assert merged.options["groups"] == 2 and merged.options["group_size"] == [3, 4]


def _draw(*pairings: Pairing) -> Draw:
    return Draw(algorithm="test", round_number=1, seed=1, options={}, pairings=pairings)


def test_walkovers_take_a_withdrawn_pair_out_and_renumber_the_tables() -> None:
    draw = _draw(Pairing(1, 1, 2), Pairing(2, 3, 4), Pairing(3, 5, 6))
    after = walkovers(draw, {3})
    assert [(p.table, p.ns, p.ew) for p in after.pairings] == [(1, 1, 2), (2, 5, 6), (None, 4, None)]
    assert after.notes["walkovers"] == {"4": 3}
    assert [w.code for w in after.pairings[-1].warnings] == ["walkover"]


def test_walkovers_leave_a_draw_without_withdrawn_pairs_as_it_is() -> None:
    draw = _draw(Pairing(1, 1, 2), Pairing(None, 3, None))
    assert walkovers(draw, {9}) is draw
