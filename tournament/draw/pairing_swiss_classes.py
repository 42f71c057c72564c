"""The class bound of the Swiss criteria: a lower bound over every pairing, and a pairing that
meets it (swiss.v6; used by :mod:`tournament.draw.pairing_swiss`; docs/swiss-draw.md
defines the criteria).

A *class* is what the criteria above the order see of an entrant: its score group, its
departments (when protected) and its seat need (capped as the seat strain caps it). Every
criterion but the rematches and the order is a sum over tables of units that depend only on the
classes of the table's two pairs. So a pairing gives, for each two classes A and B, a number of
tables x_AB between them, with

    Σ_B x_AB + 2·x_AA = |A| for every class A,   0 ≤ x_AB ≤ u_AB integer,

and its criteria are linear in x. Every pairing is such an x, so the lexicographic minimum over
all x is a lexicographic lower bound of every pairing's criteria — the *class bound*; with the
first criteria held at a pairing's counts (``fixed``), the next ones bound every pairing that
ties it so far. A pairing that ties the bound is the optimum over every pairing, whatever the
size of the field.

*Who has met whom.* Pooled classes forget it, and the leaders (and the last) of a late round
have met one another: a top group of two who have met must both float, which two members of
one class need not. So the members of the smallest score groups (``ALONE_GROUP``,
``ALONE_LIMIT``) are each a class of their own: two of them have a table only if they may meet
(u = 0 or 1), one of them and a class at most as many as the class has members it may meet.
Every pairing still is such an x. Where the bound is still below a criterion that another proof
covers (parity, forced crossings), the engine asks again with the draw's counts held.

*Solving.* One criterion at a time, each then held at its count: as a linear programme (HiGHS;
a few thousand variables, a few milliseconds), with rows every integer x obeys that half
tables would break (the odd-set rows: the tables inside a set of classes seat at most its
members, so there are at most ⌊members / 2⌋ of them — for the entrants above each boundary
and each score group); its minimum, rounded up, bounds every integer x. Last, one integer
programme finds class tables x at the whole bound (None if there are none: the bound is then
below every pairing, and still a bound). HiGHS computes in floating point: the data are small
integers, and a minimum within ``_EPSILON`` of an integer is taken as that integer. The solves
of one bound are limited by work (``SIMPLEX_LIMIT``, ``NODE_LIMIT``), never by time, so that the
same field always gets the same bound (and the same draw); a criterion not solved within them
ends the bound (the criteria after it are not bounded).

:meth:`ClassProblem.realize` turns x into a pairing of the entrants: each class hands out its
members in rank order to its tables (with the classes before it first, so floaters come from
its bottom; a table with an entrant on its own takes the first member it may meet), then each
two classes' members are matched by maximum matchings without rematches. It may fail where
rematches get in the way (then there is no such seed, tried ``_TRIES`` times); its pairing is a
seed of the weighted matching, which is never worse than its seeds.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from highspy import HighsModelStatus, HighsVarType
from highspy._core import _Highs

from tournament.draw.pairing_swiss_candidates import ClassKey
from tournament.draw.pairing_swiss_seeds import maximum_matching
from tournament.draw.pairing_swiss_stages import SEAT_STRAIN_CAP

__all__ = ["CLASS_LIMIT", "ClassBound", "ClassProblem"]

CLASS_LIMIT = 320
"""The bound is computed for fields of at most this many classes, entrants on their own included
(~50,000 class pairs); beyond, a field has many departments or seat needs and the engine's other
proofs are what it gets."""
ALONE_GROUP = 12  # the members of score groups of at most this many are each a class of their own …
ALONE_LIMIT = 64  # … smallest groups first, up to this many in all
SIMPLEX_LIMIT = 100_000  # simplex iterations for the solves of one bound (the fields measured: < 700)
NODE_LIMIT = 10_000  # branch-and-bound nodes of its integer programme (measured: 1)
_EPSILON = 1e-6  # a linear programme's optimum within this of an integer is that integer
_TRIES = 3  # realizations tried, the members of each class shuffled after the first

Met = Sequence[set[int]] | None


def _order(key: ClassKey) -> tuple[int, list[str], int]:
    return (key[0], sorted(map(str, key[1] or ())), key[2])


@dataclass(slots=True)
class ClassBound:
    """Lexicographic lower bounds of the criteria (docs/swiss-draw.md, 4: clashes, severe seats, each
    boundary, skips, strain — the vector less its rematches and order), as far as solved, and
    class tables x that reach them (class pair → tables)."""

    vector: list[int]
    tables: dict[tuple[int, int], int]


class ClassProblem:
    """The integer programme over class tables of one field's members (module docstring)."""

    def __init__(self, keys: list[ClassKey], positions: list[list[int]], boundaries: int, met: Met) -> None:
        self.keys = keys  # each class's criteria key (an entrant on its own shares its class's)
        self.positions = positions  # members' positions in each class, in rank order
        self.pairs: list[tuple[int, int]] = []
        self.upper: list[int] = []  # the most tables each pair of classes can hold
        class_of = {p: i for i, members in enumerate(positions) for p in members}
        for i, first in enumerate(positions):
            unmet: Counter[int] = Counter()  # for an entrant on its own: the members it may meet, by class
            if len(first) == 1 and met is not None:
                (p,) = first
                unmet.update({j: len(second) for j, second in enumerate(positions)})
                unmet.subtract(class_of[q] for q in met[p] if q in class_of)
            for j in range(i, len(positions)):
                second = positions[j]
                if i == j:
                    most = len(first) // 2
                elif len(first) == 1 and met is not None:
                    most = unmet[j]
                elif len(second) == 1 and met is not None:
                    most = len(first) - sum(class_of.get(q) == i for q in met[second[0]])
                else:
                    most = min(len(first), len(second))
                if most > 0:
                    self.pairs.append((i, j))
                    self.upper.append(most)
        self.tiers = self._tiers(boundaries)

    @classmethod
    def of(cls, *, classes: Sequence[ClassKey], boundaries: int, met: Met = None) -> ClassProblem | None:
        """The programme for members of the given classes (by position), or None beyond
        ``CLASS_LIMIT`` classes. ``met``: for each position, the positions it may not meet (its
        earlier opponents; None when rematches are allowed). The members of the smallest score
        groups (``ALONE_GROUP``, ``ALONE_LIMIT``) are each a class of their own, who meets only
        those it may: the leaders and the last of a late round have met one another, which a
        pooled class forgets."""
        sizes = Counter(key[0] for key in classes)
        alone: set[int] = set()
        total = 0
        for group, size in sorted(sizes.items(), key=lambda item: (item[1], item[0])):
            if met is None or size > ALONE_GROUP or total + size > ALONE_LIMIT:
                break
            alone.add(group)
            total += size
        index: dict[tuple[ClassKey, int], int] = {}
        for p in sorted(range(len(classes)), key=lambda p: (_order(classes[p]), p if classes[p][0] in alone else -1)):
            index.setdefault((classes[p], p if classes[p][0] in alone else -1), len(index))
        if len(index) > CLASS_LIMIT:
            return None
        positions: list[list[int]] = [[] for _ in index]
        for p, key in enumerate(classes):
            positions[index[key, p if key[0] in alone else -1]].append(p)
        return cls([key for key, _p in index], positions, boundaries, met)

    def _tiers(self, boundaries: int) -> list[np.ndarray]:
        """Each criterion's units per class pair (the same units as candidate_units)."""
        rows = np.zeros((4 + boundaries, len(self.pairs)))
        for k, (i, j) in enumerate(self.pairs):
            (ga, da, na), (gb, db, nb) = self.keys[i], self.keys[j]
            low, high = min(ga, gb), max(ga, gb)
            same_way = (na > 0 and nb > 0) or (na < 0 and nb < 0)
            smaller = min(abs(na), abs(nb))
            rows[0, k] = da is not None and db is not None and not da.isdisjoint(db)
            rows[1, k] = same_way and smaller >= 2
            rows[2 + low : 2 + high, k] = 1
            rows[2 + boundaries, k] = max(0, high - low - 1)
            rows[3 + boundaries, k] = min(smaller, SEAT_STRAIN_CAP) if same_way else 0
        return list(rows)

    def bound(self, fixed: Sequence[int] = ()) -> ClassBound:
        """The lexicographic minimum over class tables, the first ``len(fixed)`` criteria held
        at ``fixed`` (counts a pairing has), as far as it is solved (module docstring)."""
        n = len(self.pairs)
        columns = np.arange(n, dtype=np.int32)
        # The core solver: highspy.Highs's constructor prints HiGHS's banner to standard output
        # before any option can silence it (the draw's command line prints JSON there).
        h = _Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("presolve", "off")  # a fifth of the time on these small programmes
        h.setOptionValue("mip_rel_gap", 0.0)
        # Limits of work, not of time: a draw must not depend on how busy the machine is.
        h.setOptionValue("simplex_iteration_limit", SIMPLEX_LIMIT)
        h.setOptionValue("mip_max_nodes", NODE_LIMIT)
        sizes = np.array([len(p) for p in self.positions], dtype=float)
        h.addRows(len(sizes), sizes, sizes, 0, np.array([], dtype=np.int32), np.array([], dtype=np.int32), np.array([]))
        starts: list[int] = []
        index: list[int] = []
        value: list[float] = []
        for i, j in self.pairs:
            starts.append(len(index))
            if i == j:
                index.append(i)
                value.append(2.0)
            else:
                index += [i, j]
                value += [1.0, 1.0]
        h.addCols(
            n,
            np.zeros(n),
            np.zeros(n),
            np.array(self.upper, dtype=float),
            len(index),
            np.array(starts, dtype=np.int32),
            np.array(index, dtype=np.int32),
            np.array(value),
        )
        self._cut_odd_sets(h)
        vector: list[int] = []
        for t, units in enumerate(self.tiers):
            if t < len(fixed):
                count = fixed[t]
            else:
                h.changeColsCost(n, columns, units)
                h.run()
                if h.getModelStatus() != HighsModelStatus.kOptimal:
                    break  # held where no class tables tie them: nothing bounds the rest
                count = math.ceil(h.getInfo().objective_function_value - _EPSILON)
            used = np.nonzero(units)[0].astype(np.int32)
            h.addRow(count, count, len(used), used, units[used])
            vector.append(count)
        if len(vector) < len(self.tiers) or len(fixed) == len(self.tiers):
            return ClassBound(vector=vector, tables={})
        # Class tables at the bound: an integer point of the last programme (any will do).
        h.changeColsCost(n, columns, np.zeros(n))
        h.changeColsIntegrality(n, columns, np.full(n, HighsVarType.kInteger))
        h.run()
        if h.getModelStatus() != HighsModelStatus.kOptimal:
            return ClassBound(vector=vector, tables={})  # the bound is below every pairing's
        solution = np.round(np.array(h.getSolution().col_value))
        return ClassBound(vector=vector, tables={self.pairs[k]: int(x) for k, x in enumerate(solution) if x})

    def _cut_odd_sets(self, h: _Highs) -> None:
        """Rows every pairing obeys that the linear programme's half tables could break.

        For a set S of classes, the tables with both pairs in S seat at most all of S's members,
        so there are at most ⌊|S's members| / 2⌋ of them. Half tables get past that when S's
        members are odd in number; the sets that matter here are the entrants above each
        boundary (an odd number forces a table across, the parity floor) and each score group.
        """
        group_of = [key[0] for key in self.keys]
        groups = max(group_of) + 1
        sets = [range(0, b + 1) for b in range(groups - 1)] + [range(g, g + 1) for g in range(groups)]
        for chosen in sets:
            members = sum(len(self.positions[i]) for i in range(len(self.keys)) if group_of[i] in chosen)
            if members % 2:
                inside = [k for k, (i, j) in enumerate(self.pairs) if group_of[i] in chosen and group_of[j] in chosen]
                h.addRow(0, members // 2, len(inside), np.array(inside, dtype=np.int32), np.ones(len(inside)))

    def realize(
        self, tables: dict[tuple[int, int], int], members: list[int], allowed: Callable[[int, int], bool], *, seed: int
    ) -> list[tuple[int, int]] | None:
        """A pairing of ``members`` (ranked; ``positions`` index them) with ``tables[A, B]``
        tables between each two classes, every table ``allowed`` — or None if none was found."""
        rng = random.Random(f"swiss class realization {seed} {len(members)}")
        for attempt in range(_TRIES):
            ranked = [list(p) for p in self.positions]
            if attempt:
                for positions in ranked:
                    rng.shuffle(positions)
            found = self._realize_once(tables, ranked, members, allowed)
            if found is not None:
                return found
        return None

    def _realize_once(
        self,
        tables: dict[tuple[int, int], int],
        ranked: list[list[int]],
        members: list[int],
        allowed: Callable[[int, int], bool],
    ) -> list[tuple[int, int]] | None:
        # Each class hands out its members in order: to its tables with the classes before it,
        # then its own, then those after it (so floaters come from its bottom, go to the top);
        # a table with an entrant on its own takes the first member that entrant may meet.
        sides: dict[tuple[int, int], tuple[list[int], list[int]]] = {pair: ([], []) for pair in tables}
        for i, positions in enumerate(ranked):
            free = [members[p] for p in positions]
            mine = sorted((pair for pair in tables if i in pair), key=lambda pair: pair[0] if pair[1] == i else pair[1])
            for a, b in mine:
                other = b if a == i else a
                count = tables[a, b] * (2 if a == b else 1)
                if len(self.positions[other]) == 1 and len(free) > 1:
                    (alone,) = (members[p] for p in self.positions[other])
                    chosen = [next((x for x in free if allowed(alone, x)), free[0])]
                else:
                    chosen = free[:count]
                free = [x for x in free if x not in chosen]
                sides[a, b][0 if i == a else 1].extend(chosen)
        out: list[tuple[int, int]] = []
        for (a, b), (upper, lower) in sides.items():
            if a == b:
                mate, _maximum = maximum_matching(upper, allowed)
            else:
                mate, _maximum = maximum_matching(sorted(upper + lower), _across(set(upper), allowed))
            if len(mate) != len(upper) + len(lower):
                return None
            out += [(u, v) for u, v in mate.items() if u < v]
        return out


def _across(upper: set[int], allowed: Callable[[int, int], bool]) -> Callable[[int, int], bool]:
    """``allowed``, between a member of ``upper`` and one not in it."""
    return lambda u, v: (u in upper) != (v in upper) and allowed(u, v)
