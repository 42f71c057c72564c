"""The Swiss criteria as tiers of one integer weight, solved in stages of exact matchings
(used by :mod:`tournament.draw.pairing_swiss`; docs/swiss-draw.md defines the criteria).

Maximum-weight perfect matchings (rustworkx's ``max_weight_matching``, compiled Rust) over
*candidate tables*, with integer weights that encode the criteria vector: criterion (tier) t
counts u_t(e) units at table e; weight(e) = W - Σ_t M_t·u_t(e), W one more than the largest
penalty Σ_t M_t·u_t(e) of any candidate table (taken over the few distinct kinds of table).
rustworkx weights are signed 128-bit integers and its duals and slacks reach a few times the
largest weight, so W < 2**120 (``WEIGHT_LIMIT``).

*Ranges* (swiss.v5). Each tier t has a range R_t = U_t - L_t: L_t (the *floor*) is at most the
count of every perfect matching of the candidate graph — the fewest rematches (n/2 - ν, ν the
largest rematch-free matching over every table), the fewest clashes (the department floor, or
the clash seed's proof where no table is a rematch), 0 severe seats, for each boundary the
parity of the entrants above it (an odd number forces a table across), and for skips, strain
and order half the sum over entrants of their least candidate table (each sits at one);
U_t (the *ceiling*) is at least the optimum's count: a solved tier's optimum count; else, from
the lexicographically best seed pairing S (a candidate matching, so the optimum is no worse):
where S is at the floor on every tier before t the optimum ties S there, so U_t = S's count at
t, up to and including the first tier where S is above the floor — and so too while S ties a
lexicographic lower bound of the optimum (``least``: swiss.v6's class bound; the optimum lies
between it and S); else B_t, a bound over every
matching (half the entrants with a table of that kind; for boundary b, the fewer of the entrants
above and below b with a table across b; for skips, strain and order, half the sum over entrants
of their worst candidate table). The vector needs about Σ_t log2(R_t + 1) bits. swiss.v4 used
R_t = B_t (floors 0, no ceilings from seeds): ~124 bits on the hard bench field of 5,000 pairs,
over the 120 of one weight, so two matchings; the seed's prefix at the floor (clashes, severe
seats, the top boundaries: R_t = 0) and the floors bring it to ~113, one matching.

*Stages* (``notes["stages"]``; 1 wherever the vector fits): a stage charges every tier solved
before it, its own run of tiers — from the first unsolved one to the last that still fits — and
the order tier (a tie-break, charged in every stage because a matching full of ties is slow);
the others get M_t = 0. With M_order = 1 and M_t = 1 + Σ_{charged t' > t} M_t'·R_t', the stage's
matching X is the lexicographic optimum of the charged tiers. Proof: let Y be that optimum and
suppose it is better, first at tier s (it has at least one unit fewer there, worth M_s). Below
s, Y has at most U_t of each charged tier (it is optimal, so it has the optimum count of each
solved tier, and U_t bounds the optimum's count of the others) and X at least L_t (it is a
perfect matching of the candidate graph), so weight(Y) - weight(X) >= M_s - Σ_{charged t' > s}
M_t'·R_t' = 1 > 0: X was not heaviest, a contradiction. So X keeps the solved tiers' optima and
adds its own; after the last stage the draw is the lexicographic optimum over the candidate
tables of the whole vector. (Checked as it runs: no seed below a floor, no stage losing a solved
count, no matching below a floor; a seed better than the result is a bug too.)

:func:`staged_matching` returns the tables (positions), how many stages it took, and whether
every tier was solved (it always is on fields the 120 bits can hold one tier at a time beside
the solved ones: each solved tier costs log2(its optimum count - floor + 1) bits).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
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


def staged_matching(
    n: int,
    m: int,
    tables: list[Table],
    *,
    rematches: bool,
    departments: bool,
    floors: tuple[int, int] = (0, 0),
    seeds: Sequence[Sequence[tuple[int, int]]] = (),
    least: Sequence[int] = (),
) -> Staged:
    """The lexicographic optimum over ``tables`` of ``n`` members in ``m`` groups, in stages.

    Each stage is one exact matching over the tiers from the first unsolved one to the last
    that still fits in ``WEIGHT_LIMIT`` (module docstring). ``rematches``/``departments``:
    whether those tiers exist; ``floors``: the fewest rematches and clashes of every candidate
    pairing (the other floors are found here); ``seeds``: candidate pairings (positions, p < q),
    the best of which gives the ceilings; ``least``: a lexicographic lower bound of the optimum's
    counts, tier by tier (the class bound; its prefix, or none), which lets the best seed's
    counts be ceilings for as long as it ties the bound.
    """
    layout = _Layout.of(n, m, tables, rematches=rematches, departments=departments, floors=floors)
    tiers = len(layout.bounds)
    by_position = {(t.p, t.q): t for t in tables}
    layout.ceil_from(seeds, by_position, least)
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
        if any(c < f for c, f in zip(counts, layout.floors, strict=True)):  # pragma: no cover - floors hold
            raise DrawBug("a pairing is below a Swiss criterion's floor")
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
    floors: list[int]
    kinds: list[Table]  # the distinct units a table has (p = q = 0): the weight's range
    first_boundary: int
    boundaries: int
    has_rematch: bool
    has_department: bool
    ceilings: list[int] = field(default_factory=list)

    @classmethod
    def of(
        cls, n: int, m: int, tables: list[Table], *, rematches: bool, departments: bool, floors: tuple[int, int]
    ) -> _Layout:
        boundaries = max(m - 1, 0)
        touched_rematch: set[int] = set()
        touched_department: set[int] = set()
        touched_severe: set[int] = set()
        worst_skip = [0] * n
        worst_strain = [0] * n
        worst_order = [0] * n
        least_skip = [1 << 30] * n
        least_strain = [1 << 30] * n
        least_order = [1 << 30] * n
        group_of: list[int] = [0] * n
        for t in tables:
            group_of[t.p], group_of[t.q] = t.group_a, t.group_b
        down = group_of[:]  # the lowest group a candidate table of v reaches …
        up = group_of[:]  # … and the highest
        # One pass with the lists held locally (a hard field of 5,000 pairs has 100,000+ tables).
        for p, q, rematch, department, severe, group_a, group_b, skip, strain, order in tables:
            if worst_skip[p] < skip:
                worst_skip[p] = skip
            if worst_skip[q] < skip:
                worst_skip[q] = skip
            if worst_strain[p] < strain:
                worst_strain[p] = strain
            if worst_strain[q] < strain:
                worst_strain[q] = strain
            if worst_order[p] < order:
                worst_order[p] = order
            if worst_order[q] < order:
                worst_order[q] = order
            if least_skip[p] > skip:
                least_skip[p] = skip
            if least_skip[q] > skip:
                least_skip[q] = skip
            if least_strain[p] > strain:
                least_strain[p] = strain
            if least_strain[q] > strain:
                least_strain[q] = strain
            if least_order[p] > order:
                least_order[p] = order
            if least_order[q] > order:
                least_order[q] = order
            if rematch:
                touched_rematch.update((p, q))
            if department:
                touched_department.update((p, q))
            if severe:
                touched_severe.update((p, q))
            if down[p] < group_b:
                down[p] = group_b
            if up[q] > group_a:
                up[q] = group_a
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
        lowest: list[int] = []
        if rematches:
            bounds.append(len(touched_rematch) // 2)
            lowest.append(floors[0])
        if departments:
            bounds.append(len(touched_department) // 2)
            lowest.append(floors[1])
        bounds.append(len(touched_severe) // 2)
        lowest.append(0)
        first_boundary = len(bounds)
        bounds += crossing
        # Every perfect matching crosses a boundary with an odd number of entrants above it.
        sizes = [0] * (boundaries + 1)
        for g in group_of:
            sizes[g] += 1
        above_count = 0
        for b in range(boundaries):
            above_count += sizes[b]
            lowest.append(above_count % 2)
        bounds += [sum(worst_skip) // 2, sum(worst_strain) // 2, sum(worst_order) // 2]
        # Each entrant sits at one table: a matching's sum is at least half the sum of their least.
        lowest += [-(-sum(least) // 2) for least in (least_skip, least_strain, least_order)]
        return cls(
            bounds=bounds,
            floors=lowest,
            kinds=[Table(0, 0, *units) for units in sorted({t[2:] for t in tables})],
            first_boundary=first_boundary,
            boundaries=boundaries,
            has_rematch=rematches,
            has_department=departments,
        )

    def ceil_from(
        self,
        seeds: Sequence[Sequence[tuple[int, int]]],
        by_position: dict[tuple[int, int], Table],
        least: Sequence[int] = (),
    ) -> None:
        """Ceilings of the optimum's counts from the best seed S (lexicographically): the
        optimum is no worse than S, so where S is at the floor on every tier before t the
        optimum ties S there and has at most S's count at t. So too where S ties ``least`` on
        every tier before t: a lexicographic lower bound of the optimum (the class bound), so
        the optimum lies between the two."""
        if not seeds:
            return
        best = min(self.counts([by_position[pq] for pq in seed]) for seed in seeds)
        at_floor = at_least = True
        for t, (count, floor) in enumerate(zip(best, self.floors, strict=True)):
            if count < floor:  # pragma: no cover - a floor every matching obeys
                raise DrawBug("a seed pairing is below a Swiss criterion's floor")
            self.ceilings.append(count)
            at_floor = at_floor and count == floor
            at_least = at_least and t < len(least) and count == least[t]
            if not (at_floor or at_least):
                break

    def ranges(self, solved: list[int]) -> list[int]:
        """R_t = U_t - L_t: U_t ≥ the optimum's count (a solved tier's count, a seed's ceiling,
        the bound over any matching), L_t ≤ every matching's count (the floor)."""
        out: list[int] = []
        for t, (bound, floor) in enumerate(zip(self.bounds, self.floors, strict=True)):
            most = solved[t] if t < len(solved) else self.ceilings[t] if t < len(self.ceilings) else bound
            out.append(max(0, min(most, bound) - floor))
        return out

    def multipliers(self, solved: list[int], end: int, *, tie_break: bool = True) -> list[int]:
        """M_t for the tiers before ``end`` and (with ``tie_break``) the last, the order; 0 for
        the others: M_t = 1 + Σ_{charged t' > t} M_t'·R_t' (module docstring, "Stages").
        """
        out = [0] * len(self.bounds)
        last = len(self.bounds) - 1
        ranges = self.ranges(solved)
        below = 0  # Σ over the charged lower tiers of multiplier × range
        for t in reversed(range(len(self.bounds))):
            if t < end or (tie_break and t == last):
                out[t] = below + 1
                below += out[t] * ranges[t]
        return out

    def max_penalty(self, multipliers: list[int]) -> int:
        """The largest Σ_t M_t·u_t(e) over the tables (over their few distinct kinds)."""
        return max(self.penalties(self.kinds, multipliers), default=0)

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
