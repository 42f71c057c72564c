"""Round-robin groups: every pair meets every other exactly once (circle method)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournament.draw.pairing import DrawError, Entrant, EntrantId, round_robin_schedule


@pytest.mark.parametrize("n", range(3, 21))
@pytest.mark.parametrize("shuffle", [False, True])
def test_every_pair_meets_every_other_exactly_once(n: int, shuffle: bool) -> None:
    entrants = [Entrant(id=f"g{i}") for i in range(1, n + 1)]
    rounds = round_robin_schedule(entrants=entrants, seed=n, shuffle=shuffle)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met: Counter[frozenset[EntrantId]] = Counter()
    byes: Counter[EntrantId] = Counter()
    ns: Counter[EntrantId] = Counter()
    ew: Counter[EntrantId] = Counter()
    for number, draw in enumerate(rounds, start=1):
        assert draw.round_number == number and draw.algorithm == "round_robin.circle.v1"
        placed = [x for p in draw.pairings for x in p.entrants]
        assert sorted(placed) == sorted(e.id for e in entrants), "everyone exactly once per round"
        assert len(draw.byes) == n % 2
        assert [p.table for p in draw.matches] == list(range(1, n // 2 + 1))
        for p in draw.matches:
            assert p.ew is not None
            met[frozenset((p.ns, p.ew))] += 1
            ns[p.ns] += 1
            ew[p.ew] += 1
        for p in draw.byes:
            byes[p.ns] += 1
    assert set(met) == {frozenset(c) for c in combinations([e.id for e in entrants], 2)}
    assert set(met.values()) == {1}
    if n % 2:
        assert byes == Counter({e.id: 1 for e in entrants})
    for e in entrants:
        assert abs(ns[e.id] - ew[e.id]) <= 1, "seats balanced within one"


def test_tables_in_number_order_withdrawn_left_out_and_reproducible() -> None:
    entrants = [Entrant(id=i) for i in range(1, 7)] + [Entrant(id=99, withdrawn=True)]
    rounds = round_robin_schedule(entrants=entrants, seed=5)
    assert all(99 not in [x for p in d.pairings for x in p.entrants] for d in rounds)
    first = rounds[0]
    lows = [min(int(p.ns), int(p.ew or 0)) for p in first.matches]
    assert lows == sorted(lows)
    assert rounds == round_robin_schedule(entrants=entrants, seed=5)
    shuffled = round_robin_schedule(entrants=entrants, seed=5, shuffle=True)
    assert shuffled == round_robin_schedule(entrants=entrants, seed=5, shuffle=True)
    assert shuffled[0].as_record()["options"] == {"shuffle": True, "group_size": 6}
    with pytest.raises(DrawError) as caught:
        round_robin_schedule(entrants=[Entrant(id=1)], seed=1)
    assert caught.value.code == "too_few_entrants"
