"""Round-robin (循环赛) — docs/rules.md §4: every pair meets every other pair exactly once.

Circle method (the construction behind Berger tables): the pairs get numbers 1…n in the order
given (or by lot with ``shuffle=True``); with an odd ``n`` a phantom number makes the count even
and its opponent has the bye in that round. Number n (or the phantom) stays put while the others
rotate, giving ``n - 1`` rounds for even ``n`` and ``n`` rounds for odd ``n``. Each pair sits N/S
and E/W equally often (within one). Tables are numbered by the better (lower) number at the
table, so with pairs given in ranking order the top-ranked matches come first. Groups of any
size: call it once per group.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tournament.draw.pairing_types import Draw, DrawError, Entrant, EntrantId, Pairing

__all__ = ["ROUND_ROBIN_ALGORITHM", "round_robin_schedule"]

ROUND_ROBIN_ALGORITHM = "round_robin.circle.v1"


def round_robin_schedule(*, entrants: Sequence[Entrant], seed: int, shuffle: bool = False) -> tuple[Draw, ...]:
    """All rounds of a round-robin group, round 1 first. Withdrawn entrants are left out."""
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise DrawError("duplicate_entrant", "A pair appears twice in the group.", "同一对在小组中出现两次。")
    players: list[EntrantId | None] = [e.id for e in entrants if not e.withdrawn]
    if len(players) < 2:
        raise DrawError("too_few_entrants", "At least two pairs are needed.", "至少需要两对参赛。")
    if shuffle:
        random.Random(seed).shuffle(players)
    number = {pid: k for k, pid in enumerate(players)}
    if len(players) % 2:
        players.append(None)  # the phantom: meeting it is the bye
    size = len(players)
    fixed, rotating = players[-1], players[:-1]
    cycle = size - 1
    draws: list[Draw] = []
    for r in range(cycle):
        seating = [(fixed, rotating[r]) if r % 2 == 0 else (rotating[r], fixed)]
        seating += [(rotating[(r + k) % cycle], rotating[(r - k) % cycle]) for k in range(1, size // 2)]
        matches: list[tuple[EntrantId, EntrantId]] = []
        bye: EntrantId | None = None
        for ns, ew in seating:
            if ns is not None and ew is not None:
                matches.append((ns, ew))
            else:
                bye = ns if ns is not None else ew
        matches.sort(key=lambda t: min(number[t[0]], number[t[1]]))
        pairings = [Pairing(table, ns, ew) for table, (ns, ew) in enumerate(matches, start=1)]
        if bye is not None:
            pairings.append(Pairing(None, bye, None))
        draws.append(
            Draw(
                algorithm=ROUND_ROBIN_ALGORITHM,
                round_number=r + 1,
                seed=seed,
                options={"shuffle": shuffle, "group_size": len(number)},
                pairings=tuple(pairings),
                notes={"numbers": {str(pid): k + 1 for pid, k in number.items()}},
            )
        )
    return tuple(draws)
