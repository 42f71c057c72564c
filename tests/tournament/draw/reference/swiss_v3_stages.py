"""Reference only (tests): ``pairing_swiss_stages`` as ``swiss.v3`` drew with it (see
``swiss_v3``). Nothing below was changed.

The Swiss criteria as tiers of one integer weight, solved in stages of exact matchings
(used by :mod:`tournament.draw.pairing_swiss`, whose docstring defines the criteria).

Maximum-weight perfect matchings (rustworkx's ``max_weight_matching``, compiled Rust) over
*candidate tables*, with integer weights that encode the criteria vector: criterion (tier) t
counts u_t(e) units at table e; weight(e) = W - Σ_t M_t·u_t(e). rustworkx weights are signed
128-bit integers and its duals and slacks reach a few times the largest weight, so W < 2**120
(``WEIGHT_LIMIT``). The whole vector needs about Σ_t log2(B_t + 1) bits, B_t a bound on tier t
over every matching of the candidate graph (half the entrants with a table of that kind; for
boundary b, the fewer of the entrants above and below b with a table across b; for skips, strain
and order, half the sum over entrants of their worst candidate table) — 100–300 bits on hard
fields of 1,000–5,000 pairs, where each boundary needs its own ~10. So the tiers are solved in
*stages* (``notes["stages"]``; 1 wherever the vector fits): a stage charges every tier solved
before it, its own run of tiers — from the first unsolved one to the last that still fits — and
the order tier (a tie-break, charged in every stage because a matching full of ties is slow);
the others get M_t = 0. With M_order = 1 and M_t = 1 + Σ_{charged t' > t} M_t'·R_t', where R_t
is the optimum count found for a solved tier and B_t for the stage's own, the stage's matching X
is the lexicographic optimum of the charged tiers. Proof: let Y be that optimum and suppose it
is better, first at tier s (it has at least one unit fewer there, worth M_s). Below s, Y has
exactly the optimum count R_t of each solved tier (it is optimal on them, as every later optimum
is) and at most B_t of the stage's own, and X has at least 0 of each, so weight(Y) - weight(X)
>= M_s - Σ_{charged t' > s} M_t'·R_t' = 1 > 0: X was not heaviest, a contradiction. So X keeps
the solved tiers' optima and adds its own; after the last stage the draw is the lexicographic
optimum over the candidate tables of the whole vector. (Each stage checks that the solved counts
survive; a seed better than the result is a bug too.)

:func:`staged_matching` returns the tables (positions), how many stages it took, and whether
every tier was solved (it always is on fields the 120 bits can hold one tier at a time beside
the solved ones: each solved tier costs log2(its optimum count + 1) bits, about 60 in all on a
hard field of 5,000 pairs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import rustworkx

from tournament.draw.pairing_types import DrawBug

__all__ = ["ORDER_CAP", "SEAT_STRAIN_CAP", "WEIGHT_LIMIT", "Staged", "Table", "staged_matching"]

WEIGHT_LIMIT = 1 << 120  # rustworkx: i128 weights; its duals and slacks reach a few times the largest
SEAT_STRAIN_CAP = 8  # a table's seat strain counts at most this much
ORDER_CAP = 15  # a table's order term (squared rank distance) counts at most this much


class Table(NamedTuple):
    """A candidate table and its units of each criterion (positions in the members' list)."""

    p: int
    q: int
    rematch: bool
    department: bool
    severe: bool
    group_a: int
    group_b: int
    skip: int
    strain: int
    order: int


class Staged(NamedTuple):
    tables: list[tuple[int, int]]  # (p, q) positions, p < q
    stages: int
    solved: int  # tiers solved
    complete: bool  # every tier solved: the lexicographic optimum over the tables


def staged_matching(n: int, m: int, tables: list[Table], *, rematches: bool, departments: bool) -> Staged:
    """The lexicographic optimum over ``tables`` of ``n`` members in ``m`` groups, in stages.

    Each stage is one exact matching over the tiers from the first unsolved one to the last
    that still fits in ``WEIGHT_LIMIT`` with the solved tiers' optimum counts as their ranges
    (module docstring). ``rematches``/``departments``: whether those tiers exist.
    """
    layout = _Layout.of(n, m, tables, rematches=rematches, departments=departments)
    tiers = len(layout.bounds)
    by_position = {(t.p, t.q): t for t in tables}
    solved: list[int] = []  # the optimum count of each tier solved so far
    chosen: list[tuple[int, int]] = []
    stages = 0
    while len(solved) < tiers:
        end = len(solved) + 1
        tie_break = layout.max_penalty(layout.multipliers(solved, end)) < WEIGHT_LIMIT
        if not tie_break and layout.max_penalty(layout.multipliers(solved, end, tie_break=False)) >= WEIGHT_LIMIT:
            if not stages:  # pragma: no cover - one criterion alone takes under 40 bits
                raise DrawBug("a Swiss criterion does not fit in a 128-bit weight")
            break  # the solved tiers fill the weight: the draw is proven for them only
        while (
            end < tiers and layout.max_penalty(layout.multipliers(solved, end + 1, tie_break=tie_break)) < WEIGHT_LIMIT
        ):
            end += 1
        multipliers = layout.multipliers(solved, end, tie_break=tie_break)
        top = layout.max_penalty(multipliers) + 1
        graph: rustworkx.PyGraph[int, int] = rustworkx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(n))
        penalties = layout.penalties(tables, multipliers)
        graph.add_edges_from([(t.p, t.q, top - cost) for t, cost in zip(tables, penalties, strict=True)])
        matching = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        if 2 * len(matching) != n:  # pragma: no cover - the seeds are perfect pairings in the graph
            raise DrawBug("the weighted matching is not perfect")
        chosen = [(min(u, v), max(u, v)) for u, v in matching]
        counts = layout.counts([by_position[pq] for pq in chosen])
        if counts[: len(solved)] != solved:  # pragma: no cover - the weights keep the solved tiers
            raise DrawBug("a later stage lost a solved Swiss criterion")
        solved = counts[:end]
        stages += 1
    return Staged(tables=chosen, stages=stages, solved=len(solved), complete=len(solved) == tiers)


@dataclass(slots=True)
class _Layout:
    """The criteria as weight tiers (top first), with each tier's bound over any matching.

    Tiers: rematches (only when allowed), departments (only when protected), severe seats,
    one per boundary, skips, strain, order.
    """

    bounds: list[int]
    per_table_max: list[int]
    first_boundary: int
    boundaries: int
    has_rematch: bool
    has_department: bool

    @classmethod
    def of(cls, n: int, m: int, tables: list[Table], *, rematches: bool, departments: bool) -> _Layout:
        boundaries = max(m - 1, 0)
        touched_rematch: set[int] = set()
        touched_department: set[int] = set()
        touched_severe: set[int] = set()
        worst_skip = [0] * n
        worst_strain = [0] * n
        worst_order = [0] * n
        group_of: list[int] = [0] * n
        for t in tables:
            group_of[t.p], group_of[t.q] = t.group_a, t.group_b
        down = group_of[:]  # the lowest group a candidate table of v reaches …
        up = group_of[:]  # … and the highest
        for t in tables:
            for v in (t.p, t.q):
                worst_skip[v] = max(worst_skip[v], t.skip)
                worst_strain[v] = max(worst_strain[v], t.strain)
                worst_order[v] = max(worst_order[v], t.order)
            if t.rematch:
                touched_rematch.update((t.p, t.q))
            if t.department:
                touched_department.update((t.p, t.q))
            if t.severe:
                touched_severe.update((t.p, t.q))
            down[t.p] = max(down[t.p], t.group_b)
            up[t.q] = min(up[t.q], t.group_a)
        above = [0] * (boundaries + 1)  # difference arrays over boundaries
        below = [0] * (boundaries + 1)
        for v in range(n):
            g = group_of[v]
            if down[v] > g:
                above[g] += 1
                above[down[v]] -= 1
            if up[v] < g:
                below[up[v]] += 1
                below[g] -= 1
        crossing: list[int] = []
        run_above = run_below = 0
        for b in range(boundaries):
            run_above += above[b]
            run_below += below[b]
            crossing.append(min(run_above, run_below))
        bounds: list[int] = []
        per_table: list[int] = []
        if rematches:
            bounds.append(len(touched_rematch) // 2)
            per_table.append(1)
        if departments:
            bounds.append(len(touched_department) // 2)
            per_table.append(1)
        bounds.append(len(touched_severe) // 2)
        per_table.append(1)
        first_boundary = len(bounds)
        bounds += crossing
        per_table += [1] * boundaries
        bounds += [sum(worst_skip) // 2, sum(worst_strain) // 2, sum(worst_order) // 2]
        per_table += [max((t.skip for t in tables), default=0), SEAT_STRAIN_CAP, ORDER_CAP]
        return cls(
            bounds=bounds,
            per_table_max=per_table,
            first_boundary=first_boundary,
            boundaries=boundaries,
            has_rematch=rematches,
            has_department=departments,
        )

    def multipliers(self, solved: list[int], end: int, *, tie_break: bool = True) -> list[int]:
        """M_t for the tiers before ``end`` and (with ``tie_break``) the last, the order; 0 for
        the others: M_t = 1 + Σ_{charged t' > t} M_t'·R_t', R_t a solved tier's optimum count,
        else the tier's bound over any matching (module docstring, 5 "staged").
        """
        out = [0] * len(self.bounds)
        last = len(self.bounds) - 1
        below = 0  # Σ over the charged lower tiers of multiplier × range
        for t in reversed(range(len(self.bounds))):
            if t < end or (tie_break and t == last):
                out[t] = below + 1
                below += out[t] * (solved[t] if t < len(solved) else self.bounds[t])
        return out

    def max_penalty(self, multipliers: list[int]) -> int:
        """An upper bound of Σ_t M_t·u_t(e) over the tables."""
        # A table crosses several boundaries: charge it every boundary multiplier (an upper bound).
        crossing = sum(multipliers[self.first_boundary : self.first_boundary + self.boundaries])
        rest = [most for t, most in enumerate(self.per_table_max) if not self._is_boundary(t)]
        others = [mult for t, mult in enumerate(multipliers) if not self._is_boundary(t)]
        return crossing + sum(mult * most for mult, most in zip(others, rest, strict=True))

    def counts(self, tables: list[Table]) -> list[int]:
        """Each tier's count over ``tables`` (a matching)."""
        base, tail = self.first_boundary, self.first_boundary + self.boundaries
        out = [0] * len(self.bounds)
        for t in tables:
            if self.has_rematch:
                out[0] += t.rematch
            if self.has_department:
                out[int(self.has_rematch)] += t.department
            out[base - 1] += t.severe
            for boundary in range(t.group_a, t.group_b):
                out[base + boundary] += 1
            out[tail] += t.skip
            out[tail + 1] += t.strain
            out[tail + 2] += t.order
        return out

    def _is_boundary(self, t: int) -> bool:
        return self.first_boundary <= t < self.first_boundary + self.boundaries

    def penalties(self, tables: list[Table], multipliers: list[int]) -> list[int]:
        """Σ_t M_t·u_t(e) for each table (crossings through prefix sums of their multipliers)."""
        base, tail = self.first_boundary, self.first_boundary + self.boundaries
        prefix = [0]
        for mult in multipliers[base:tail]:
            prefix.append(prefix[-1] + mult)
        m_rematch = multipliers[0] if self.has_rematch else 0
        m_department = multipliers[int(self.has_rematch)] if self.has_department else 0
        m_severe = multipliers[base - 1]
        m_skip, m_strain, m_order = multipliers[tail], multipliers[tail + 1], multipliers[tail + 2]
        return [
            m_rematch * t.rematch
            + m_department * t.department
            + m_severe * t.severe
            + prefix[t.group_b]
            - prefix[t.group_a]
            + m_skip * t.skip
            + m_strain * t.strain
            + m_order * t.order
            for t in tables
        ]
