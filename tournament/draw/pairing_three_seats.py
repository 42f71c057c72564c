"""The draw of a three-seat round (Dou Dizhu, docs/rules.md §10): players at tables of three, seats E/S/W.

Pure and seeded like the other generators (no Django): the same players and seed give the same draw,
so a round is reproducible from its record (``Round.draw_algorithm`` / ``draw_options`` / ``draw_seed``).

- **Byes** first, when the field is not a multiple of 3: the ``n mod 3`` players with the fewest byes so
  far sit out, the lowest-ranked of them first (docs/rules.md §10: "the lowest-ranked players who have not had
  one"); players of equal rank (round 1: everyone) are chosen by lot. So nobody has a second bye while
  another player still has none.
- **Tables**, ``reseat``:
  - ``lot`` (seed 004 每轮比赛结束后，重新抽签): the players are shuffled and seated three by three; then a
    swap of two players between any two tables is made while it lowers the number of repeated
    table-mates (two players who already shared a table this stage), until no swap does.
  - ``score`` (瑞士移位): by standing, the top three at table 1, the next three at table 2, …; a table
    that repeats *last round's* table-mates (docs/rules.md §10) swaps one player with the next table when that
    lowers the repeats (the swap that moves ranks least is taken).
  Repeats that no swap removes are allowed and counted in the record (``repeats``): a small field
  cannot always avoid them.
- **Seats** at each table are drawn by lot (seed 004: the landlord seat is drawn per round).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from scoring.options import Reseat

__all__ = ["ALGORITHM", "SEATS", "Reseat", "ThreeSeatDraw", "ThreeSeatPlayer", "ThreeSeatTable", "three_seat_draw"]

ALGORITHM = "three-seats-v1"
"""The name and version of this generator, kept with each round it drew."""

SEATS = ("E", "S", "W")

@dataclass(frozen=True, slots=True)
class ThreeSeatPlayer:
    """A player as the draw sees them: ``rank`` in the stage's standings (1 = best, 0 = unranked: drawn
    by lot among equals), ``byes`` had, ``mates`` (ids of the players they shared a table with this
    stage) and ``last_mates`` (last round's; the same as ``mates`` when not given)."""

    id: int
    rank: int = 0
    byes: int = 0
    mates: AbstractSet[int] = field(default_factory=frozenset)
    last_mates: AbstractSet[int] | None = None


@dataclass(frozen=True, slots=True)
class ThreeSeatTable:
    """Table ``table`` (numbered from 1) and its players at E, S and W."""

    table: int
    seats: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class ThreeSeatDraw:
    round_number: int
    seed: int
    reseat: Reseat
    tables: tuple[ThreeSeatTable, ...]
    byes: tuple[int, ...]
    repeats: int
    """Pairs of table-mates seated together again (0 unless unavoidable by swaps): of this stage by lot,
    of last round by standing."""

    algorithm: str = ALGORITHM

    @property
    def options(self) -> dict[str, Any]:
        """What the round records next to the algorithm and seed."""
        return {"reseat": self.reseat.value, "repeats": self.repeats, "byes": list(self.byes)}


def three_seat_draw(
    *, players: Sequence[ThreeSeatPlayer], round_number: int, seed: int, reseat: Reseat = Reseat.LOT
) -> ThreeSeatDraw:
    """Seat ``players`` three to a table for round ``round_number`` (see the module)."""
    try:
        reseat = Reseat(reseat)  # the rules' option (a caller may name it: "lot", "score")
    except ValueError:
        raise ValueError(f"reseat is 'lot' or 'score', not {reseat!r}") from None
    ids = [player.id for player in players]
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    if len(players) < 3:
        raise ValueError("a three-seat round needs at least 3 players")
    rng = random.Random(seed)
    # the lot is drawn over the players in id order, so the order they are passed in does not matter
    in_order = sorted(players, key=lambda player: player.id)
    lots = {player.id: index for index, player in enumerate(rng.sample(in_order, len(in_order)))}
    mates = {player.id: frozenset(player.mates) for player in players}
    if reseat is Reseat.SCORE:  # by standing, only last round's table-mates are kept apart (docs/rules.md §10)
        mates = {
            player.id: frozenset(player.last_mates if player.last_mates is not None else player.mates)
            for player in players
        }
    byes = _byes(players, len(players) % 3, lots)
    seated = [player for player in players if player.id not in byes]
    if reseat is Reseat.SCORE:
        ordered = sorted(seated, key=lambda player: (_rank_key(player), lots[player.id]))
        groups = [[player.id for player in ordered[i : i + 3]] for i in range(0, len(ordered), 3)]
        _swap_with_next(groups, mates, {player.id: index for index, player in enumerate(ordered)})
    else:
        shuffled = sorted(seated, key=lambda player: lots[player.id])
        groups = [[player.id for player in shuffled[i : i + 3]] for i in range(0, len(shuffled), 3)]
        _swap_anywhere(groups, mates)
    tables = []
    for number, group in enumerate(groups, 1):
        seats = list(group)
        rng.shuffle(seats)
        tables.append(ThreeSeatTable(number, (seats[0], seats[1], seats[2])))
    repeats = sum(_repeats(group, mates) for group in groups)
    return ThreeSeatDraw(round_number, seed, reseat, tuple(tables), tuple(byes), repeats)


def _rank_key(player: ThreeSeatPlayer) -> int:
    """Best first; an unranked player (0) after every ranked one."""
    return player.rank if player.rank > 0 else 1 << 30


def _byes(players: Sequence[ThreeSeatPlayer], count: int, lots: dict[int, int]) -> list[int]:
    """The ``count`` players to sit out: fewest byes first, then lowest-ranked, then by lot."""
    if not count:
        return []
    order = sorted(players, key=lambda player: (player.byes, -_rank_key(player), lots[player.id]))
    return [player.id for player in order[:count]]


def _repeats(group: Sequence[int], mates: dict[int, frozenset[int]]) -> int:
    return sum(1 for i, a in enumerate(group) for b in group[i + 1 :] if b in mates[a])


def _swap_anywhere(groups: list[list[int]], mates: dict[int, frozenset[int]]) -> None:
    """Swap players between tables while a swap lowers the repeats (first improving swap, in table order;
    each swap lowers a finite count, so this ends)."""
    improved = True
    while improved:
        improved = False
        for t, table in enumerate(groups):
            if not _repeats(table, mates):
                continue
            for u, other in enumerate(groups):
                if u == t:
                    continue
                if _best_swap(table, other, mates) is not None:
                    improved = True
                    break


def _best_swap(
    table: list[int], other: list[int], mates: dict[int, frozenset[int]], cost: dict[int, int] | None = None
) -> tuple[int, int] | None:
    """Make the swap between ``table`` and ``other`` that lowers their repeats most (ties: the smallest
    ``cost``, the rank distance of the two players swapped); None when none lowers them."""
    before = _repeats(table, mates) + _repeats(other, mates)
    best: tuple[int, int, int, int] | None = None
    for i, a in enumerate(table):
        for j, b in enumerate(other):
            table[i], other[j] = b, a
            after = _repeats(table, mates) + _repeats(other, mates)
            table[i], other[j] = a, b
            if after < before:
                distance = abs(cost[a] - cost[b]) if cost is not None else 0
                candidate = (after, distance, i, j)
                if best is None or candidate < best:
                    best = candidate
    if best is None:
        return None
    _after, _distance, i, j = best
    table[i], other[j] = other[j], table[i]
    return i, j


def _swap_with_next(groups: list[list[int]], mates: dict[int, frozenset[int]], positions: dict[int, int]) -> None:
    """By standing: a table that repeats table-mates swaps a player with the next table while that lowers
    the repeats, moving ranks least (docs/rules.md §10, 瑞士移位); passes top down until no swap helps (each
    swap lowers a finite count, so this ends). Only neighbouring tables swap, so the order by score holds
    up to a table."""
    improved = True
    while improved:
        improved = False
        for t in range(len(groups) - 1):
            while (_repeats(groups[t], mates) or _repeats(groups[t + 1], mates)) and _best_swap(
                groups[t], groups[t + 1], mates, positions
            ):
                improved = True
