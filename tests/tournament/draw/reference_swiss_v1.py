"""Reference only (tests): the ``swiss.v1`` Swiss engine, frozen as it drew (the first engine).

The tests' yardstick for the current engine (tournament/draw/pairing_swiss.py): its exact
engine on small fields (the same criteria vector) and its bracket heuristic on hard large ones
(never better). Running :func:`swiss_pair` here with a recorded swiss.v1 round's entrants,
options and seed reproduces that round table for table (tests/data/swiss_rounds.json), which
shows this copy is the engine that drew them. Nothing below was changed except the imports
(its weighted blossom and Edmonds' search live beside it, frozen too).

Swiss pairing (瑞士移位) — docs/rules.md §4.

Entrants are ranked by ``score`` (match points, 场分) descending, then ``rank`` (the standings
position from the rules core), then lots drawn with the draw's ``seed``. A *score group* is a
set of entrants with equal score; groups are numbered 1, 2, … from the top. Withdrawn entrants
are left out.

Guarantees (each is checked by ``tests/tournament/draw/test_pairing_swiss.py``):

1. **Everyone once.** Every entrant that is not withdrawn is in exactly one table or is the bye.
2. **No rematch** unless ``allow_rematches=True``. If any pairing without a rematch exists
   (with a bye chosen as in 3), one is returned; otherwise :class:`DrawError`
   ``no_pairing_without_rematch``. With ``allow_rematches=True`` the number of rematches is the
   minimum possible (for the bye chosen) and each carries a ``rematch`` warning.
3. **Bye (轮空)** when the count is odd: to the lowest-ranked entrant with ``byes == 0`` whose
   removal leaves a field that can be paired without a rematch (when none can and rematches
   are allowed: the lowest-ranked with ``byes == 0``). Nobody gets a second bye: if everyone
   has had one, :class:`DrawError` ``no_bye_available``.
4. **Department protection** when ``round_number <= department_rounds``: if a pairing without
   two pairs of one department at a table exists (within 2), one is used; otherwise each such
   table carries a ``same_department`` warning. Their number is the minimum possible with the
   exact engine; with the fast engine too when the pairs a maximum clash-free matching leaves
   over can be paired without rematches (``notes["compatibility"] ==
   "fewest_department_clashes"``; tried unless a department holds more than half of a field
   of over 1,000), else they are kept few greedily within score groups.
5. **Smallest score differences.** Let the groups of the entrants being paired (bye removed)
   be 1…m. A table *crosses* boundary b (between groups b and b+1) if one side is in groups
   1…b and the other in b+1…m; it *skips* ``d - 1`` groups if its sides are d groups apart.

   - *Exact engine* (at most ``exact_limit`` entrants to pair, bye excluded; default 100):
     minimises, lexicographically, (rematches, same-department tables, severe seat tables,
     tables crossing boundary 1, boundary 2, …, boundary m-1, total skips, seat strain) —
     i.e. the top groups are paired as purely as possible first, no floater goes further than
     needed, and only then are ordinary seat wishes considered (see 6). Computed with a
     maximum-weight matching whose integer weights encode that order exactly.
   - *Fast engine* (larger fields): groups are paired top-down as *brackets*; bracket k is
     group k plus the entrants floated down into it. Each bracket floats down exactly
     ``|bracket| - 2·ν(bracket)`` entrants, where ν is the largest number of allowed tables
     inside the bracket (allowed: no rematch; no shared department while a clash-free pairing
     is sought, see 4; no severe seat table while those are avoided, see 6) — never more than
     it must (floated-in entrants are offered partners first, so they rarely float again).
     If the bottom cannot be completed that way the
     lowest brackets are merged into one *tail* (the shortest that can be completed; paired
     top-down, nearest ranks first) and ``notes["tail_from_group"]`` says where it starts.
     (In ordinary Swiss rounds no tail is needed and every boundary is crossed at most once.)

6. **Seats** follow :mod:`tournament.draw.pairing_seating`: a pair's ``|NS-EW|`` grows past 1
   only at a table where both pairs wanted the same seat (warning ``seat_imbalance``). Two
   levels, as with colours in chess Swiss systems:

   - A *severe seat table* has two pairs that both already sit two or more rounds more one way
     than the other (same way); one of them would go to 3. These are avoided above score
     groups (after 2 and 4): if a pairing without them exists, none is drawn (fast engine:
     given how 4 was settled; ``notes["seats_protected"]``), and the exact engine draws as
     few as possible. So in practice ``|NS-EW| <= 2`` for every pair.
   - Ordinary *seat strain* (the sum, over tables where both want the same seat, of the smaller
     of the two needs, capped at 8) ranks below score groups — a group with more pairs wanting
     N/S than E/W must strain some. The exact engine minimises it after the criteria of 5; the
     fast engine pairs each pair, in ranking order, with the best-ranked one left that wants
     the other seat (``"adjacent"``) or compares the next few candidates (``"slide"``).
     Strain is transient: at its next table a strained pair's need (now 2) wins its seat
     unless the opponent's is as large.
7. **Inside a group** (lowest priority): ``within_group="adjacent"`` pairs neighbours (1 v 2,
   3 v 4 — the usual Chinese 瑞士移位 practice; 1 v 3, 2 v 4 when that spares a seat strain),
   ``"slide"`` pairs top half v bottom half (1 v n/2+1, the chess Dutch order).
8. **Reproducible.** Only ``random.Random(seed)`` is used (lots for equal rank); the same
   entrants (in the same order), options and seed give the same draw. Tables are numbered with
   the best-ranked table first; the bye comes last with no table.

Performance: the fast engine is O(n·k) for n entrants (k = previous opponents) in ordinary
rounds; round 9 of 5,000 pairs takes well under a second (``bench/draw_bench.py``).
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from tests.tournament.draw.reference_blossom import max_weight_matching
from tests.tournament.draw.reference_edmonds import max_cardinality_matching
from tournament.draw.pairing_seating import seat_conflict, seat_pair, tables_in_rank_order
from tournament.draw.pairing_types import (
    Draw,
    DrawBug,
    DrawError,
    DrawWarning,
    Entrant,
    EntrantId,
    OptionValue,
    Pairing,
)

__all__ = ["EXACT_LIMIT", "SWISS_ALGORITHM", "swiss_pair"]

SWISS_ALGORITHM = "swiss.v1"
EXACT_LIMIT = 100
"""Fields up to this many entrants (after removing the bye) use the exact engine by default.

The exact engine pairs 100 entrants in about 0.1 s, 200 in about 0.8 s (it is O(n³))."""

WithinGroup = Literal["adjacent", "slide"]
Engine = Literal["auto", "exact", "fast"]

_LOOKAHEAD = 4  # candidates of equal score the fast engine compares for seats
_CROWDED_EXACT_LIMIT = 1000  # fast engine: fewest clashes even with a crowded department up to here
_LOOKAHEAD_DEPARTMENT = 32  # … and, while all of them share a department, for departments
_MAX_SEAT_SEVERITY = 8


def swiss_pair(
    *,
    entrants: Sequence[Entrant],
    round_number: int,
    seed: int,
    allow_rematches: bool = False,
    department_rounds: int = 0,
    within_group: WithinGroup = "adjacent",
    engine: Engine = "auto",
    exact_limit: int = EXACT_LIMIT,
) -> Draw:
    """Pair one Swiss round. See the module docstring for the exact guarantees.

    Raises :class:`DrawError` (``too_few_entrants``, ``duplicate_entrant``, ``invalid_option``,
    ``no_bye_available``, ``no_pairing_without_rematch``).
    """
    _check_options(round_number=round_number, within_group=within_group, engine=engine, exact_limit=exact_limit)
    field = _Field.build(entrants, seed=seed, protect=round_number <= department_rounds)
    options: dict[str, OptionValue] = {
        "allow_rematches": allow_rematches,
        "department_rounds": department_rounds,
        "within_group": within_group,
        "engine": engine,
        "exact_limit": exact_limit,
    }
    solver = _Solver(field, within_group=within_group, engine=engine, exact_limit=exact_limit)

    bye: int | None = None
    result: _Result | None = None
    everyone = list(range(field.n))
    if field.n % 2 == 0:
        result = solver.pair(everyone, allow_rematches=False)
    else:
        candidates = [i for i in reversed(everyone) if field.entrants[i].byes == 0]
        if not candidates:
            raise DrawError(
                "no_bye_available",
                "The number of pairs is odd and every pair has already had a bye.",
                "参赛对数为奇数，但每一对都已轮空过，无法再安排轮空。",
            )
        for candidate in candidates:
            result = solver.pair([i for i in everyone if i != candidate], allow_rematches=False)
            if result is not None:
                bye = candidate
                break
        if result is None:
            bye = candidates[0]
    if result is None:
        if not allow_rematches:
            raise DrawError(
                "no_pairing_without_rematch",
                "Every possible pairing of this round repeats an earlier match. Allow rematches to continue.",
                "本轮任何对阵都会出现重复交手。如需继续，请允许重复对阵。",
                details={"round_number": round_number, "entrants": field.n},
            )
        rest = [i for i in everyone if i != bye]
        result = solver.pair(rest, allow_rematches=True)
        if result is None:  # pragma: no cover - pairing with rematches allowed always succeeds
            raise DrawBug("pairing with rematches allowed failed")

    draw = _build_draw(field, result, bye, round_number=round_number, seed=seed, options=options)
    _verify(field, draw, bye, allow_rematches=allow_rematches)
    return draw


def _check_options(*, round_number: int, within_group: str, engine: str, exact_limit: int) -> None:
    if round_number < 1:
        raise DrawError("invalid_option", "Rounds are numbered from 1.", "轮次从1开始编号。")
    if within_group not in ("adjacent", "slide"):
        raise DrawError("invalid_option", f"Unknown pairing order {within_group!r}.", "未知的组内配对方式。")
    if engine not in ("auto", "exact", "fast"):
        raise DrawError("invalid_option", f"Unknown engine {engine!r}.", "未知的编排引擎。")
    if exact_limit < 0:
        raise DrawError("invalid_option", "exact_limit must not be negative.", "exact_limit 不能为负数。")


@dataclass(slots=True)
class _Field:
    """The ranked field with integer indices (0 = top) and precomputed lookups."""

    entrants: list[Entrant]
    opponents: list[set[int]]
    departments: list[frozenset[object]]
    score: list[float]
    protect: bool

    @property
    def n(self) -> int:
        return len(self.entrants)

    @classmethod
    def build(cls, entrants: Sequence[Entrant], *, seed: int, protect: bool) -> _Field:
        ids = [e.id for e in entrants]
        if len(set(ids)) != len(ids):
            raise DrawError("duplicate_entrant", "A pair appears twice in the draw.", "同一对在抽签名单中出现两次。")
        rng = random.Random(seed)
        lots = [rng.random() for _ in entrants]
        active = [(e, lot) for e, lot in zip(entrants, lots, strict=True) if not e.withdrawn]
        if len(active) < 2:
            raise DrawError("too_few_entrants", "At least two pairs are needed.", "至少需要两对参赛。")
        active.sort(key=lambda el: (-el[0].score, el[0].rank if el[0].rank > 0 else float("inf"), el[1]))
        ranked = [e for e, _lot in active]
        index = {e.id: i for i, e in enumerate(ranked)}
        opponents = [{index[o] for o in e.opponents if o in index} for e in ranked]
        return cls(
            entrants=ranked,
            opponents=opponents,
            departments=[frozenset(e.departments) for e in ranked],
            score=[float(e.score) for e in ranked],
            protect=protect,
        )

    def same_department(self, a: int, b: int) -> bool:
        return self.protect and not self.departments[a].isdisjoint(self.departments[b])

    def groups(self, members: Sequence[int]) -> list[list[int]]:
        """Split ranked ``members`` into score groups, top first."""
        out: list[list[int]] = []
        for i in members:
            if out and self.score[out[-1][-1]] == self.score[i]:
                out[-1].append(i)
            else:
                out.append([i])
        return out


@dataclass(slots=True)
class _Result:
    tables: list[tuple[int, int]]  # (higher-ranked index, lower-ranked index)
    notes: dict[str, OptionValue]


class _Solver:
    def __init__(self, field: _Field, *, within_group: WithinGroup, engine: Engine, exact_limit: int) -> None:
        self.field = field
        self.crowded: frozenset[object] = frozenset()
        self.within_group = within_group
        self.engine = engine
        self.exact_limit = exact_limit

    def pair(self, members: list[int], *, allow_rematches: bool) -> _Result | None:
        """Pair the ranked ``members`` (even count) or return None if no valid pairing exists."""
        if self.engine == "exact" or (self.engine == "auto" and len(members) <= self.exact_limit):
            return self._exact(members, allow_rematches=allow_rematches)
        return self._fast(members, allow_rematches=allow_rematches)

    # -- exact engine ----------------------------------------------------------------------
    def _exact(self, members: list[int], *, allow_rematches: bool) -> _Result | None:
        f = self.field
        groups = f.groups(members)
        group_of = {i: g for g, grp in enumerate(groups) for i in grp}
        group_size = {i: len(groups[g]) for i, g in group_of.items()}
        n, m = len(members), len(groups)
        half = n // 2 + 1
        # Mixed-radix multipliers, least significant first; each tier's total over a matching
        # is below its radix, so maximising weight minimises the tiers lexicographically.
        mult_order = 1
        mult_seat = mult_order * (half * n * n + 1)
        mult_skip = mult_seat * (half * _MAX_SEAT_SEVERITY + 1)
        mult_cross = [0] * max(m - 1, 0)
        nxt = mult_skip * (half * m + 1)
        for b in reversed(range(m - 1)):
            mult_cross[b] = nxt
            nxt *= half + 1
        mult_seat_severe = nxt
        mult_dept = mult_seat_severe * (half + 1)
        mult_rematch = mult_dept * (half + 1)
        base = mult_rematch * (half + 1)
        cross_prefix = [0]
        for value in mult_cross:
            cross_prefix.append(cross_prefix[-1] + value)

        edges: list[tuple[int, int, int]] = []
        for pa, a in enumerate(members):
            ea = f.entrants[a]
            for pb in range(pa + 1, n):
                b = members[pb]
                rematch = b in f.opponents[a]
                if rematch and not allow_rematches:
                    continue
                ga, gb = group_of[a], group_of[b]
                penalty = cross_prefix[gb] - cross_prefix[ga]
                penalty += mult_skip * max(gb - ga - 1, 0)
                if rematch:
                    penalty += mult_rematch
                if f.same_department(a, b):
                    penalty += mult_dept
                strain = seat_conflict(ea, f.entrants[b])
                if strain >= 2:
                    penalty += mult_seat_severe
                penalty += mult_seat * min(strain, _MAX_SEAT_SEVERITY)
                distance = pb - pa
                if self.within_group == "slide" and ga == gb:
                    distance -= group_size[a] // 2
                penalty += mult_order * distance * distance
                edges.append((pa, pb, base - penalty))
        mate = max_weight_matching(n, edges, max_cardinality=True)
        if any(x < 0 for x in mate):
            return None
        tables = [(members[p], members[q]) for p, q in enumerate(mate) if p < q]
        return _Result(tables=tables, notes={"engine": "exact", "groups": m})

    # -- fast engine -----------------------------------------------------------------------
    def _fast(self, members: list[int], *, allow_rematches: bool) -> _Result | None:
        f = self.field
        self.crowded = self._crowded_departments(members) if f.protect else frozenset()
        # A severe seat table needs two pairs already two rounds off the same way.
        strained = any(abs(f.entrants[i].seat_need) >= 2 for i in members)
        plans: list[tuple[bool, bool]] = []  # (departments hard, seats hard), best first
        if f.protect and (not self.crowded or len(members) <= _CROWDED_EXACT_LIMIT):
            plans += [(True, True)] if strained else []
            plans.append((True, False))
        plans += [(False, True)] if strained else []
        plans.append((False, False))
        tables: list[tuple[int, int]] = []
        leftover: list[int] = []
        notes: dict[str, OptionValue] = {}
        for hard_departments, hard_seats in plans:
            tables, leftover, notes = self._fast_level(
                members, hard_departments=hard_departments, hard_seats=hard_seats
            )
            notes["compatibility"] = "no_rematch_no_department" if hard_departments else "no_rematch"
            notes["seats_protected"] = hard_seats
            if not leftover:
                return _Result(tables=tables, notes=notes)
            if hard_departments and not hard_seats:
                # `leftover` is what a maximum clash-free matching cannot cover; if it pairs up
                # without rematches, no pairing has fewer department clashes.
                extra = self._pair_up(leftover)
                if extra is not None:
                    notes["compatibility"] = "fewest_department_clashes"
                    return _Result(tables=tables + extra, notes=notes)
        if not allow_rematches:
            return None
        # The leftover is what a maximum rematch-free matching cannot cover: pairing it among
        # itself gives the fewest rematches possible.
        tables = list(tables)
        for k in range(0, len(leftover), 2):
            tables.append((leftover[k], leftover[k + 1]))
        notes["compatibility"] = "rematches_allowed"
        notes["rematch_tables"] = len(leftover) // 2
        return _Result(tables=tables, notes=notes)

    def _pair_up(self, members: list[int]) -> list[tuple[int, int]] | None:
        """Pair ``members`` among themselves without a rematch (departments ignored), or None."""
        opponents = self.field.opponents
        mate: dict[int, int] = {}
        for k, a in enumerate(members):
            if a not in mate:
                b = next((b for b in members[k + 1 :] if b not in mate and b not in opponents[a]), None)
                if b is not None:
                    mate[a], mate[b] = b, a

        def neighbours(v: int) -> Iterator[int]:
            return (u for u in members if u != v and u not in opponents[v])

        max_cardinality_matching(members, neighbours, mate)
        if len(mate) < len(members):
            return None
        return [(a, b) for a, b in mate.items() if a < b]

    def _crowded_departments(self, members: list[int]) -> frozenset[object]:
        """Departments in more than half the field: clashes with them are then certain.

        (Each of their pairs would need an opponent from outside.) The fast engine then skips
        the hopeless search for a clash-free pairing and, to keep clashes few, lets pairs from
        outside a crowded department prefer opponents from inside it.
        """
        counts: Counter[object] = Counter(d for i in members for d in self.field.departments[i])
        return frozenset(d for d, c in counts.items() if 2 * c > len(members))

    def _fast_level(
        self, members: list[int], *, hard_departments: bool, hard_seats: bool
    ) -> tuple[list[tuple[int, int]], list[int], dict[str, OptionValue]]:
        f = self.field
        opponents = f.opponents
        departments = f.departments
        need = [e.seat_need for e in f.entrants]

        def allowed(a: int, b: int) -> bool:
            if b in opponents[a]:
                return False
            if hard_departments and not departments[a].isdisjoint(departments[b]):
                return False
            # Severe seat table: both pairs already sit two or more rounds off the same way.
            return not (hard_seats and need[a] * need[b] > 0 and min(abs(need[a]), abs(need[b])) >= 2)

        groups = f.groups(members)
        carried_in: list[list[int]] = []
        bracket_tables: list[list[tuple[int, int]]] = []
        carry: list[int] = []
        floats: list[OptionValue] = []
        for group in groups:
            carried_in.append(carry)
            bracket = carry + group
            tables, floaters = self._pair_bracket(bracket, len(carry), allowed)
            bracket_tables.append(tables)
            floats.append(len(floaters))
            carry = floaters
        notes: dict[str, OptionValue] = {"engine": "fast", "groups": len(groups), "floats": floats}
        if not carry:
            return [t for ts in bracket_tables for t in ts], [], notes
        # The bottom could not be completed: merge the lowest brackets into one tail, growing it
        # upwards until it can be completed (Edmonds proves when even the whole field cannot).
        unmatched: list[int] = []
        tail_tables: list[tuple[int, int]] = []
        for start in reversed(range(len(groups))):
            tail = carried_in[start] + [i for group in groups[start:] for i in group]
            tail_tables, unmatched = self._pair_bracket(tail, len(carried_in[start]), allowed, tail=True)
            if not unmatched:
                notes["tail_from_group"] = start + 1
                upper = [t for ts in bracket_tables[:start] for t in ts]
                return upper + tail_tables, [], notes
        notes["tail_from_group"] = 1
        return tail_tables, unmatched, notes

    def _pair_bracket(
        self, bracket: list[int], n_carried: int, allowed: Callable[[int, int], bool], *, tail: bool = False
    ) -> tuple[list[tuple[int, int]], list[int]]:
        """Pair one bracket (ranked, floated-in entrants first) with a maximum matching.

        Returns the tables and the unmatched entrants (ranked), which float down.
        """
        mate: dict[int, int] = {}
        if tail:
            self._greedy_in_order(bracket, allowed, mate)
        elif self.within_group == "adjacent":
            order = bracket[:n_carried] + self._seat_order(bracket[n_carried:])
            self._greedy_in_order(order, allowed, mate)
        else:
            self._greedy_in_order(bracket[:n_carried], allowed, mate, candidates=bracket)
            rest = [i for i in bracket[n_carried:] if i not in mate]
            half = len(rest) // 2
            top, bottom = rest[:half], rest[half:]
            for k, a in enumerate(top):
                order = bottom[k:] + bottom[:k]
                b = self._choose(a, (x for x in order if x not in mate), allowed)
                if b is not None:
                    mate[a], mate[b] = b, a
            self._greedy_in_order([i for i in bracket if i not in mate], allowed, mate)
        unmatched = [i for i in bracket if i not in mate]
        if len(unmatched) > len(bracket) % 2:
            unmatched = self._short_augment(bracket, allowed, mate, unmatched)
        if len(unmatched) > len(bracket) % 2:
            members = set(bracket)

            def neighbours(v: int) -> Iterator[int]:
                return (u for u in bracket if u != v and allowed(v, u))

            max_cardinality_matching(bracket, neighbours, mate, roots=unmatched)
            unmatched = [i for i in bracket if i not in mate]
            if any(k not in members for k in mate):  # pragma: no cover - defensive
                raise DrawBug("matching left the bracket")
        tables = [(a, b) for a, b in mate.items() if a < b]
        return tables, unmatched

    def _seat_order(self, group: list[int]) -> list[int]:
        """Reorder a score group so that neighbours can take opposite seats.

        Repeatedly: the best-ranked entrant left, then the best-ranked one left that does not
        want the same seat (else the best-ranked left). With no seat wishes in the way this is
        the ranking itself (1 v 2, 3 v 4); otherwise e.g. 1 v 3, 2 v 4 rather than two tables
        where both pairs want N/S — the order the exact engine's seat criterion gives.
        """
        need = [self.field.entrants[i].seat_need for i in group]
        queues: dict[int, deque[int]] = {1: deque(), -1: deque(), 0: deque()}
        for k, wish in enumerate(need):
            queues[(wish > 0) - (wish < 0)].append(k)
        out: list[int] = []
        while True:
            fronts = [q[0] for q in queues.values() if q]
            if not fronts:
                break
            first = min(fronts)
            wish = (need[first] > 0) - (need[first] < 0)
            queues[wish].popleft()
            out.append(group[first])
            fitting = [q[0] for w, q in queues.items() if q and (w != wish or w == 0)]
            rest = fitting or [q[0] for q in queues.values() if q]
            if rest:
                second = min(rest)
                queues[(need[second] > 0) - (need[second] < 0)].popleft()
                out.append(group[second])
        return out

    @staticmethod
    def _short_augment(
        bracket: list[int], allowed: Callable[[int, int], bool], mate: dict[int, int], unmatched: list[int]
    ) -> list[int]:
        """Cover unmatched entrants by the shortest augmenting paths: u–v, w–u' where w was v's.

        In the nearly complete graphs of a Swiss bracket these almost always exist, and finding
        them directly is far cheaper than Edmonds' general search (which still runs afterwards
        for whatever is left, so the result is a maximum matching either way).
        """
        free = list(unmatched)
        for u in unmatched:
            if u in mate:
                continue
            for v in bracket:
                if v == u or v not in mate or not allowed(u, v):
                    continue
                w = mate[v]
                other = next((x for x in free if x != u and x not in mate and allowed(w, x)), None)
                if other is not None:
                    mate[u], mate[v], mate[w], mate[other] = v, u, other, w
                    break
        return [i for i in bracket if i not in mate]

    def _greedy_in_order(
        self,
        order: list[int],
        allowed: Callable[[int, int], bool],
        mate: dict[int, int],
        *,
        candidates: list[int] | None = None,
    ) -> None:
        """Pair each entrant of ``order`` with the best of the next allowed, unpaired entrants."""
        pool = candidates if candidates is not None else order
        position = {i: p for p, i in enumerate(pool)}
        # "Next unpaired" pointers with path compression keep the scan linear.
        skip = list(range(len(pool) + 1))

        def next_free(p: int) -> int:
            root = p
            while skip[root] != root:
                root = skip[root]
            while skip[p] != root:
                skip[p], p = root, skip[p]
            return root

        for p, i in enumerate(pool):
            if i in mate:
                skip[p] = p + 1

        def following(a: int) -> Iterator[int]:
            q = next_free(position[a] + 1)
            while q < len(pool):
                yield pool[q]
                q = next_free(q + 1)

        for a in order:
            if a in mate:
                continue
            b = self._choose(a, following(a), allowed)
            if b is not None:
                mate[a], mate[b] = b, a
                skip[position[a]] = position[a] + 1
                skip[position[b]] = position[b] + 1

    def _choose(self, a: int, candidates: Iterator[int], allowed: Callable[[int, int], bool]) -> int | None:
        """The first allowed candidate, or a later one of equal score that strains less.

        "Strain" is (same department, a pair outside a crowded department passing over one
        inside it, seat conflict); at most ``_LOOKAHEAD`` allowed candidates of
        the first one's score are compared (``_LOOKAHEAD_DEPARTMENT`` while every one so far
        shares a department with ``a``), earlier wins ties.
        """
        f = self.field
        ea = f.entrants[a]
        best: int | None = None
        best_cost: tuple[bool, bool, int] = (False, False, 0)
        wants_crowded = bool(self.crowded) and self.crowded.isdisjoint(f.departments[a])
        seen = 0
        for b in candidates:
            if not allowed(a, b):
                continue
            if best is not None and f.score[b] != f.score[best]:
                break
            cost = (
                f.same_department(a, b),
                wants_crowded and self.crowded.isdisjoint(f.departments[b]),
                seat_conflict(ea, f.entrants[b]),
            )
            if best is None or cost < best_cost:
                best, best_cost = b, cost
            if best_cost == (False, False, 0):
                break
            seen += 1
            if seen >= (_LOOKAHEAD_DEPARTMENT if best_cost[0] else _LOOKAHEAD):
                break
        return best


def _build_draw(
    field: _Field,
    result: _Result,
    bye: int | None,
    *,
    round_number: int,
    seed: int,
    options: dict[str, OptionValue],
) -> Draw:
    keyed: list[tuple[tuple[float, ...], EntrantId, EntrantId | None]] = []
    warnings_of: dict[tuple[EntrantId, EntrantId | None], tuple[DrawWarning, ...]] = {}
    for a, b in sorted(result.tables):
        first, second = field.entrants[a], field.entrants[b]
        ns, ew, seat_warnings = seat_pair(first, second)
        found: list[DrawWarning] = []
        if field.same_department(a, b):
            found.append(DrawWarning.of("same_department", first.id, second.id))
        if b in field.opponents[a]:
            found.append(DrawWarning.of("rematch", first.id, second.id))
        keyed.append(((float(a), float(b)), ns.id, ew.id))
        warnings_of[(ns.id, ew.id)] = (*found, *seat_warnings)
    if bye is not None:
        keyed.append(((float(bye),), field.entrants[bye].id, None))
    pairings: list[Pairing] = []
    for table, ns_id, ew_id in tables_in_rank_order(keyed):
        warnings = warnings_of.get((ns_id, ew_id), ())
        if table is not None:
            warnings = tuple(DrawWarning(w.code, w.entrants, table, w.message_en, w.message_zh) for w in warnings)
        pairings.append(Pairing(table=table, ns=ns_id, ew=ew_id, warnings=warnings))
    notes = dict(result.notes)
    notes["ranking"] = [e.id for e in field.entrants]
    return Draw(
        algorithm=SWISS_ALGORITHM,
        round_number=round_number,
        seed=seed,
        options=options,
        pairings=tuple(pairings),
        notes=notes,
    )


def _verify(field: _Field, draw: Draw, bye: int | None, *, allow_rematches: bool) -> None:
    placed = Counter(x for p in draw.pairings for x in p.entrants)
    if placed != Counter(e.id for e in field.entrants):
        raise DrawBug("a Swiss draw must place every active entrant exactly once")
    if bye is not None and field.entrants[bye].byes:
        raise DrawBug("a pair was given a second bye")
    if not allow_rematches:
        index = {e.id: i for i, e in enumerate(field.entrants)}
        for p in draw.matches:
            if p.ew is not None and index[p.ew] in field.opponents[index[p.ns]]:
                raise DrawBug("a rematch was drawn although rematches are not allowed")
