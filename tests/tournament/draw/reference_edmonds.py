"""Maximum-cardinality matching on general graphs (Edmonds' blossom search), frozen: a test oracle.

It was the project's own matching: swiss.v1 completed its pairings with it (``swiss_v1.py``
here imports it), and the knockout draws ``knockout.bracket.v1`` / ``knockout.redraw.v1``
separated departments with it; production now uses rustworkx everywhere. The tests keep it as
an oracle independent of rustworkx: the largest number of allowed tables ("could it have been
avoided?") in the Swiss checker, the knockout's clash test, and the Swiss seeds' maximum
matchings are checked against it (it is checked against brute force in test_oracles.py).

:func:`max_cardinality_matching` grows any valid matching to maximum cardinality: it never
un-pairs a vertex that is already paired, it only adds pairs, and it proves when no perfect
matching exists. Vertices are any hashable integers; ``mate`` maps each matched vertex to its
partner.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence

__all__ = ["max_cardinality_matching"]


def max_cardinality_matching(
    vertices: Sequence[int],
    neighbours: Callable[[int], Iterable[int]],
    mate: dict[int, int],
    *,
    roots: Sequence[int] | None = None,
) -> dict[int, int]:
    """Grow ``mate`` (a valid matching on ``vertices``, partner by vertex) to maximum cardinality.

    ``neighbours(v)`` yields the vertices ``v`` may be matched with (anything outside
    ``vertices`` is ignored). Augmenting paths are searched from the unmatched vertices, those in
    ``roots`` first and in that order, so higher-priority vertices are covered first. A vertex
    that is matched stays matched (its partner may change). Returns ``mate`` (updated in place).

    Edmonds' algorithm. By Berge's theorem the matching is maximum once no augmenting path
    starts at an unmatched vertex. A failed search from ``r`` proves that none ever will, and
    its whole alternating ("Hungarian") tree can be set aside for good, since no augmenting
    path can pass through it — so hopeless vertices cost one search in total, not one each.
    The search stops as soon as at most one vertex is unmatched.
    """
    in_graph = set(vertices)
    first = list(roots) if roots is not None else []
    listed = set(first)
    order = first + [v for v in vertices if v not in listed]
    unmatched = sum(1 for v in in_graph if v not in mate)
    dead: set[int] = set()
    for root in order:
        if unmatched <= 1:
            break
        if root in mate or root not in in_graph or root in dead:
            continue
        if _augment_from(root, in_graph, neighbours, mate, dead):
            unmatched -= 2
    return mate


def _augment_from(
    root: int,
    in_graph: set[int],
    neighbours: Callable[[int], Iterable[int]],
    mate: dict[int, int],
    dead: set[int],
) -> bool:
    """One BFS of Edmonds' search (blossoms contracted via a base map). True if augmented.

    On failure every vertex of the search tree is added to ``dead``.
    """
    parent: dict[int, int] = {}
    base: dict[int, int] = {}  # union-find: a contracted blossom's vertices lead to its base
    outer: set[int] = {root}  # "even" vertices already queued

    def base_of(v: int) -> int:
        top = v
        while top in base:
            top = base[top]
        while v != top:  # path compression
            base[v], v = top, base[v]
        return top

    def lca(a: int, b: int) -> int:
        seen: set[int] = set()
        while True:
            a = base_of(a)
            seen.add(a)
            if a not in mate:
                break
            a = parent[mate[a]]
        while True:
            b = base_of(b)
            if b in seen:
                return b
            b = parent[mate[b]]

    def mark_path(v: int, b: int, child: int, in_blossom: set[int], odd: list[int]) -> None:
        while base_of(v) != b:
            in_blossom.add(base_of(v))
            in_blossom.add(base_of(mate[v]))
            odd.append(mate[v])
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    queue: deque[int] = deque([root])
    members: list[int] = [root]  # every vertex of the search tree
    while queue:
        v = queue.popleft()
        for to in neighbours(v):
            if to not in in_graph or to == v or to in dead:
                continue
            if base_of(v) == base_of(to) or mate.get(v) == to:
                continue
            if to == root or (to in mate and mate[to] in parent):
                # An odd cycle: contract it into a blossom based at `cur`. Its odd vertices
                # (the only ones not yet outer) become outer and are searched from.
                cur = lca(v, to)
                in_blossom: set[int] = set()
                odd: list[int] = []
                mark_path(v, cur, to, in_blossom, odd)
                mark_path(to, cur, v, in_blossom, odd)
                for b in in_blossom:
                    if b != cur:
                        base[b] = cur
                for u in odd:
                    if u not in outer:
                        outer.add(u)
                        queue.append(u)
            elif to not in parent:
                parent[to] = v
                members.append(to)
                if to not in mate:
                    # Augment along the alternating path ending at `to`.
                    u = to
                    while True:
                        pv = parent[u]
                        nxt = mate.get(pv)
                        mate[u] = pv
                        mate[pv] = u
                        if nxt is None:
                            break
                        u = nxt
                    return True
                m = mate[to]
                members.append(m)
                outer.add(m)
                queue.append(m)
    dead.update(members)
    return False
