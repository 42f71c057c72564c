"""The three-seat draw (Dou Dizhu, docs/rules.md §10): pure, seeded, tested without a database."""

from __future__ import annotations

import itertools

import pytest

from tournament.draw.pairing_three_seats import ALGORITHM, ThreeSeatPlayer, three_seat_draw


def _players(n: int) -> list[ThreeSeatPlayer]:
    return [ThreeSeatPlayer(id=i, rank=i) for i in range(1, n + 1)]


def _seated(draw) -> list[int]:
    return [player for table in draw.tables for player in table.seats]


@pytest.mark.parametrize("n", [3, 4, 5, 9, 10, 11, 27, 28])
@pytest.mark.parametrize("reseat", ["lot", "score"])
def test_everyone_once_three_per_table_or_a_bye(n, reseat):
    draw = three_seat_draw(players=_players(n), round_number=1, seed=7, reseat=reseat)
    seated = _seated(draw)
    assert all(len(table.seats) == 3 for table in draw.tables)
    assert len(draw.byes) == n % 3
    assert sorted(seated + list(draw.byes)) == list(range(1, n + 1))
    assert [table.table for table in draw.tables] == list(range(1, n // 3 + 1))
    assert draw.algorithm == ALGORITHM


def test_reproducible_from_the_seed_and_different_with_another():
    players = _players(27)
    first = three_seat_draw(players=players, round_number=1, seed=42)
    again = three_seat_draw(players=list(reversed(players)), round_number=1, seed=42)
    other = three_seat_draw(players=players, round_number=1, seed=43)
    assert first.tables == three_seat_draw(players=players, round_number=1, seed=42).tables
    assert {t.seats for t in first.tables} != {t.seats for t in other.tables}
    assert again.tables == first.tables  # the order the players are passed in does not matter


def test_the_lowest_ranked_without_a_bye_sits_out_and_nobody_gets_a_second_while_others_have_none():
    # 11 players: 2 byes a round; players 10 and 11 (lowest) had one already
    players = [ThreeSeatPlayer(id=i, rank=i, byes=1 if i >= 10 else 0) for i in range(1, 12)]
    draw = three_seat_draw(players=players, round_number=2, seed=1, reseat="score")
    assert sorted(draw.byes) == [8, 9]
    # over rounds: byes go round the field before anyone has a second
    byes = dict.fromkeys(range(1, 12), 0)
    for number in range(1, 6):
        field = [ThreeSeatPlayer(id=i, rank=i, byes=byes[i]) for i in range(1, 12)]
        for player in three_seat_draw(players=field, round_number=number, seed=number).byes:
            byes[player] += 1
        assert max(byes.values()) - min(byes.values()) <= 1


def test_round_one_byes_by_lot_among_the_unranked():
    players = [ThreeSeatPlayer(id=i) for i in range(1, 11)]
    chosen = {three_seat_draw(players=players, round_number=1, seed=seed).byes for seed in range(12)}
    assert len(chosen) > 1


def _mates_after(tables) -> dict[int, set[int]]:
    mates: dict[int, set[int]] = {}
    for table in tables:
        for a, b in itertools.permutations(table.seats, 2):
            mates.setdefault(a, set()).add(b)
    return mates


def test_lot_avoids_every_repeat_a_swap_can_avoid():
    # round 2 of 9 players after 1-2-3 / 4-5-6 / 7-8-9: a fresh lot with swaps seats nobody together again
    first = [ThreeSeatPlayer(id=i, rank=i) for i in range(1, 10)]
    round_1 = three_seat_draw(players=first, round_number=1, seed=3, reseat="score")
    mates = _mates_after(round_1.tables)
    second = [ThreeSeatPlayer(id=i, rank=i, mates=frozenset(mates[i])) for i in range(1, 10)]
    for seed in range(20):
        round_2 = three_seat_draw(players=second, round_number=2, seed=seed, reseat="lot")
        assert round_2.repeats == 0
        for table in round_2.tables:
            for a, b in itertools.combinations(table.seats, 2):
                assert b not in mates[a]
    by_score = three_seat_draw(players=second, round_number=2, seed=4, reseat="score")
    assert by_score.repeats < 9  # without swaps by standing: 1-2-3, 4-5-6, 7-8-9 again (9 repeats)


def test_score_swaps_with_the_next_table_moving_ranks_least():
    players = [
        ThreeSeatPlayer(id=i, rank=i, mates=frozenset({2} if i == 1 else {1} if i == 2 else ())) for i in range(1, 10)
    ]
    draw = three_seat_draw(players=players, round_number=2, seed=8, reseat="score")
    assert draw.repeats == 0
    assert set(draw.tables[0].seats) == {1, 3, 4}
    assert set(draw.tables[1].seats) == {2, 5, 6}
    assert set(draw.tables[2].seats) == {7, 8, 9}


def test_lot_avoids_repeats_over_several_rounds_of_27():
    mates: dict[int, set[int]] = {i: set() for i in range(1, 28)}
    for number in range(1, 5):
        field = [ThreeSeatPlayer(id=i, mates=frozenset(mates[i])) for i in range(1, 28)]
        draw = three_seat_draw(players=field, round_number=number, seed=100 + number)
        assert draw.repeats == 0
        for table in draw.tables:
            for a, b in itertools.permutations(table.seats, 2):
                mates[a].add(b)


def test_by_standing_only_last_rounds_table_mates_are_kept_apart():
    # 1 and 2 met in round 1, not in round 2 (last round): by standing they may meet again
    players = [
        ThreeSeatPlayer(id=i, rank=i, mates=frozenset({2} if i == 1 else {1} if i == 2 else ()), last_mates=frozenset())
        for i in range(1, 10)
    ]
    draw = three_seat_draw(players=players, round_number=3, seed=8, reseat="score")
    assert set(draw.tables[0].seats) == {1, 2, 3} and draw.repeats == 0
    by_lot = three_seat_draw(players=players, round_number=3, seed=8, reseat="lot")
    assert not any({1, 2} <= set(table.seats) for table in by_lot.tables)  # by lot: the whole stage


def test_score_keeps_the_top_three_together_in_round_one():
    draw = three_seat_draw(players=_players(9), round_number=2, seed=5, reseat="score")
    assert set(draw.tables[0].seats) == {1, 2, 3}
    assert set(draw.tables[2].seats) == {7, 8, 9}


def test_unavoidable_repeats_are_counted():
    # 3 players: the one table repeats everyone
    players = [ThreeSeatPlayer(id=i, mates=frozenset({1, 2, 3} - {i})) for i in (1, 2, 3)]
    draw = three_seat_draw(players=players, round_number=2, seed=1)
    assert draw.repeats == 3
    assert draw.options["repeats"] == 3


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="twice"):
        three_seat_draw(players=[ThreeSeatPlayer(id=1)] * 3, round_number=1, seed=1)
    with pytest.raises(ValueError, match="at least 3"):
        three_seat_draw(players=_players(2), round_number=1, seed=1)
    with pytest.raises(ValueError, match="reseat"):
        three_seat_draw(players=_players(3), round_number=1, seed=1, reseat="alphabet")  # type: ignore[arg-type]
