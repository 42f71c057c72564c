"""Maximum matchings for the Swiss engine's seed pairings and bye test (docs/swiss-draw.md, 3 and
"Seed pairings"), on rustworkx.

:func:`maximum_matching` pairs the ranked members under an ``allowed`` rule: a greedy pass in rank
order first (each entrant with the next allowed one still free, at most ``SCAN`` looked at; with
``cost``, the first of the lowest cost seen), then — if it left two or more over — rustworkx's
maximum-cardinality matching (weighted to keep the greedy's tables where it can, which is also
what makes it fast) over a sparse graph of allowed tables: the greedy's own, every
allowed table of an entrant it left over, and every allowed table within ``_NEAR`` ranks. If that
still falls short of ``most`` tables (a bound no matching exceeds), the entrants it left over
bring in all their allowed tables and it is solved again, up to ``_ROUNDS`` times; then, where an
exact answer is asked for, over every allowed table (about n²/2: only a field too crowded for the
sparse graph, i.e. a small one or one where no perfect matching exists, gets there).

The answer is a maximum matching when it reaches ``most`` or was found over every allowed table;
:func:`maximum_matching` says which. When every entrant may meet at least half the others (a
large field a few rounds in), two entrants the greedy left over always have a length-three
augmenting path through one of its tables (their ≥ n/2 neighbours each are all matched, and
the greedy has fewer than n/2 tables), and the sparse graph holds every such path: that is why
it reaches ``most`` on large fields, and the dense graph is left to small or crowded ones.
"""

from __future__ import annotations

from collections.abc import Callable

import rustworkx

from tournament.draw.pairing_swiss_candidates import SCAN

__all__ = ["maximum_matching"]

_NEAR = 8  # the sparse graph: every allowed table within this many ranks …
_ROUNDS = 3  # … regrown this many times from the entrants still left over


def maximum_matching(
    members: list[int],
    allowed: Callable[[int, int], bool],
    *,
    cost: Callable[[int, int], int] | None = None,
    most: int | None = None,
    exact: bool = True,
) -> tuple[dict[int, int], bool]:
    """A matching of ``members`` under ``allowed`` (partner by member) and whether it is maximum.

    ``most``: an upper bound of the tables of any matching (default: half the members); reaching
    it proves the matching maximum. ``exact``: if the sparse graph falls short, solve over every
    allowed table (then the answer is maximum either way). See the module docstring.
    """
    n = len(members)
    most = n // 2 if most is None else most
    mate = _greedy(members, allowed, cost)
    if 2 * most <= len(mate) or n - len(mate) < 2:
        return mate, True
    near = {(p, q) for p in range(n) for q in range(p + 1, min(n, p + 1 + _NEAR))}
    edges = {(p, q) for p, q in near if allowed(members[p], members[q])}
    position = {v: p for p, v in enumerate(members)}
    kept = {(min(position[a], position[b]), max(position[a], position[b])) for a, b in mate.items()}
    edges.update(kept)
    grown: set[int] = set()
    for _ in range(_ROUNDS):
        left = [p for p, v in enumerate(members) if v not in mate and p not in grown]
        if not left:
            break
        grown.update(left)
        for p in left:
            a = members[p]
            edges.update((min(p, q), max(p, q)) for q, b in enumerate(members) if q != p and allowed(a, b))
        mate = _solve(members, sorted(edges), kept)
        if 2 * most <= len(mate) or n - len(mate) < 2:
            return mate, True
    if not exact:
        return mate, False
    every = [(p, q) for p in range(n) for q in range(p + 1, n) if allowed(members[p], members[q])]
    return _solve(members, every, kept), True


def _solve(members: list[int], edges: list[tuple[int, int]], kept: set[tuple[int, int]]) -> dict[int, int]:
    """rustworkx's maximum-cardinality matching over ``edges`` (positions), as partner by member:
    of the maximum matchings, one that keeps the most of the greedy's tables ``kept`` (weight 2,
    the others 1). Any weights give a maximum matching; with all equal the search is full of
    ties and slow (round 1 of 5,000 pairs with three departments protected: 7.2 s, 0.5 s so)."""
    graph: rustworkx.PyGraph[None, int] = rustworkx.PyGraph(multigraph=False)
    graph.add_nodes_from([None] * len(members))
    graph.add_edges_from([(p, q, 2 if (p, q) in kept else 1) for p, q in edges])
    mate: dict[int, int] = {}
    for p, q in rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int):
        mate[members[p]], mate[members[q]] = members[q], members[p]
    return mate


def _greedy(
    members: list[int], allowed: Callable[[int, int], bool], cost: Callable[[int, int], int] | None
) -> dict[int, int]:
    """Each entrant in rank order with the next allowed one still free (a linked list of the free
    ones, at most ``SCAN`` looked at) — with ``cost``, the first of the lowest cost seen,
    stopping at cost 0."""
    n = len(members)
    mate: dict[int, int] = {}
    following = list(range(1, n + 1))
    preceding = list(range(-1, n - 1))

    def unlink(k: int) -> None:
        before, after = preceding[k], following[k]
        if before >= 0:
            following[before] = after
        if after < n:
            preceding[after] = before

    for k in range(n):
        a = members[k]
        if a in mate:
            continue
        j, looked = following[k], 0
        best, best_cost = -1, 0
        while j < n and looked < SCAN:
            b = members[j]
            if allowed(a, b):
                here = 0 if cost is None else cost(a, b)
                if best < 0 or here < best_cost:
                    best, best_cost = j, here
                if here == 0:
                    break
            j, looked = following[j], looked + 1
        if best >= 0:
            b = members[best]
            mate[a], mate[b] = b, a
            unlink(k)
            unlink(best)
    return mate
