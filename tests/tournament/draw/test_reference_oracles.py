"""The tests' own matchings against brute force on small random graphs, and each other on larger
ones: Edmonds' cardinality search (``edmonds.py``: the oracle of the "could it have been avoided?"
questions) and the weighted blossom that swiss.v1 used (``blossom.py``)."""

from __future__ import annotations

import functools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournament.draw.reference_blossom import max_weight_matching
from tests.tournament.draw.reference_edmonds import max_cardinality_matching

Edge = tuple[int, int, int]


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[Edge]]:
    n = draw(st.integers(1, 10))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    weights = draw(st.lists(st.integers(-5, 40), min_size=len(chosen), max_size=len(chosen)))
    return n, [(i, j, w) for (i, j), w in zip(chosen, weights, strict=True)]


def brute_force(n: int, edges: list[Edge], *, max_cardinality: bool) -> tuple[int, int]:
    """(cardinality, weight) of the best matching: by weight, or by cardinality then weight."""
    weight = {(i, j): w for i, j, w in edges}

    @functools.cache
    def best(mask: int) -> tuple[int, int]:
        if mask == 0:
            return (0, 0)
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        result = best(rest)
        for j in range(n):
            if rest >> j & 1 and (i, j) in weight:
                card, total = best(rest & ~(1 << j))
                candidate = (card + 1, total + weight[(i, j)])
                if (max_cardinality and candidate > result) or (not max_cardinality and candidate[1] > result[1]):
                    result = candidate
        return result

    return best((1 << n) - 1)


def _check_mate(n: int, edges: list[Edge], mate: list[int]) -> tuple[int, int]:
    weight = {(i, j): w for i, j, w in edges}
    card = total = 0
    for v in range(n):
        if mate[v] >= 0:
            assert mate[mate[v]] == v
            if v < mate[v]:
                card += 1
                total += weight[(v, mate[v])]
    return card, total


@settings(deadline=None, max_examples=300)
@given(graph=graphs(), max_cardinality=st.booleans())
def test_max_weight_matching_is_optimal(graph: tuple[int, list[Edge]], max_cardinality: bool) -> None:
    n, edges = graph
    mate = max_weight_matching(n, edges, max_cardinality=max_cardinality)
    card, total = _check_mate(n, edges, mate)
    expected = brute_force(n, edges, max_cardinality=max_cardinality)
    if max_cardinality:
        assert (card, total) == expected
    else:
        assert total == expected[1]


@settings(deadline=None, max_examples=300)
@given(graph=graphs(), data=st.data())
def test_cardinality_matching_grows_any_start_to_maximum(graph: tuple[int, list[Edge]], data: st.DataObject) -> None:
    n, edges = graph
    adjacent: dict[int, set[int]] = {v: set() for v in range(n)}
    for i, j, _w in edges:
        adjacent[i].add(j)
        adjacent[j].add(i)
    start: dict[int, int] = {}
    for i, j, _w in data.draw(st.permutations(edges)):
        if i not in start and j not in start and data.draw(st.booleans()):
            start[i], start[j] = j, i
    mate = max_cardinality_matching(list(range(n)), lambda v: adjacent[v], dict(start))
    assert all(mate[u] == v and u in adjacent[v] for v, u in mate.items())
    assert set(start) <= set(mate), "a matched vertex stays matched"
    assert len(mate) // 2 == brute_force(n, [(i, j, 0) for i, j, _w in edges], max_cardinality=True)[0]


def test_big_integer_weights_are_exact() -> None:
    big = 10**40
    edges = [(0, 1, big + 1), (1, 2, big), (2, 3, big + 1), (0, 3, big)]
    assert max_weight_matching(4, edges, max_cardinality=True) == [1, 0, 3, 2]
    assert max_weight_matching(3, []) == [-1, -1, -1]


@settings(deadline=None, max_examples=40)
@given(
    n=st.integers(10, 90),
    density=st.sampled_from([0.03, 0.06, 0.1, 0.3, 0.8]),
    seed=st.integers(0, 2**32),
)
def test_both_engines_agree_on_larger_graphs(n: int, density: float, seed: int) -> None:
    """Blossoms nest on larger sparse graphs; the two independent algorithms must agree."""
    rng = random.Random(seed)
    edges = [(i, j, 1) for i in range(n) for j in range(i + 1, n) if rng.random() < density]
    adjacent: dict[int, list[int]] = {v: [] for v in range(n)}
    for i, j, _w in edges:
        adjacent[i].append(j)
        adjacent[j].append(i)
    for v in adjacent:
        rng.shuffle(adjacent[v])
    start: dict[int, int] = {}
    for i, j, _w in rng.sample(edges, len(edges)):
        if i not in start and j not in start and rng.random() < 0.5:
            start[i], start[j] = j, i
    mate = max_cardinality_matching(list(range(n)), lambda v: adjacent[v], dict(start))
    reference = max_weight_matching(n, edges, max_cardinality=True)
    assert len(mate) // 2 == sum(1 for v in range(n) if reference[v] > v)
