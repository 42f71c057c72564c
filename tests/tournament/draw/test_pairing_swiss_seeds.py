"""The Swiss draw's maximum matchings (tournament/draw/pairing_swiss_seeds.py, on rustworkx) against
Edmonds' search (the tests' oracle, reference_edmonds.py) on random graphs."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournament.draw.reference_edmonds import max_cardinality_matching
from tournament.draw.pairing_swiss_seeds import maximum_matching


@settings(deadline=None, max_examples=60)
@given(
    n=st.integers(2, 80),
    density=st.sampled_from([0.02, 0.05, 0.1, 0.3, 0.9]),
    seed=st.integers(0, 2**32),
    exact=st.booleans(),
    costed=st.booleans(),
)
def test_swiss_seed_matching_is_maximum_when_it_says_so(
    n: int, density: float, seed: int, exact: bool, costed: bool
) -> None:
    """pairing_swiss_seeds.maximum_matching (the Swiss draw's, on rustworkx) against Edmonds'
    search: a valid matching of allowed pairs, maximum whenever it says so, and always
    when asked for ``exact``; members are any integers in rank order (here shuffled labels)."""
    rng = random.Random(seed)
    labels = rng.sample(range(1000), n)
    edges = {frozenset((labels[i], labels[j])) for i in range(n) for j in range(i + 1, n) if rng.random() < density}

    def allowed(a: int, b: int) -> bool:
        return frozenset((a, b)) in edges

    def cost(a: int, b: int) -> int:
        return (a + b) % 3

    mate, maximum = maximum_matching(labels, allowed, cost=cost if costed else None, exact=exact)
    assert all(mate[mate[v]] == v and allowed(v, mate[v]) for v in mate)
    adjacent = {v: [u for u in labels if u != v and allowed(v, u)] for v in labels}
    nu = len(max_cardinality_matching(labels, lambda v: adjacent[v], {})) // 2
    assert len(mate) // 2 <= nu
    if maximum or exact:
        assert maximum and len(mate) // 2 == nu
