"""Reference only (tests): the ``swiss.v4`` Swiss engine, frozen as it was drawn until the
criteria's ranges were tightened by the seeds and floors (``swiss.v5``); with ``swiss_v4_candidates``,
``swiss_v4_stages`` and ``swiss_v4_seeds`` beside it (the production modules
``pairing_swiss_candidates``, ``pairing_swiss_stages`` and ``pairing_swiss_seeds`` of the time).

Every round recorded with ``draw_algorithm = "swiss.v4"`` was drawn by this code: running
:func:`swiss_pair` here with the recorded options and seed (and the same entrants) reproduces
it table for table (tests/data/swiss_v4_rounds.json). Nothing below was changed but the imports
of its three sibling modules.

Swiss pairing (瑞士移位) — docs/rules.md §4. Algorithm ``swiss.v4``.

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
4. **The criteria**, minimised lexicographically in this order (the *criteria vector*):

   (rematches, same-department tables, severe seat tables, tables crossing boundary 1,
   boundary 2, …, boundary m-1, total skips, seat strain), then the order inside groups (7).

   Let the groups of the entrants being paired (bye removed) be 1…m. A table *crosses*
   boundary b (between groups b and b+1) if one side is in groups 1…b and the other in
   b+1…m; it *skips* ``d - 1`` groups if its sides are d groups apart. Same-department tables
   count only when ``round_number <= department_rounds`` (two pairs sharing a department;
   warning ``same_department``). So: the top groups are paired as purely as possible first, no
   floater goes further than needed, and only then are ordinary seat wishes considered (6).
5. **How the optimum is found** (``notes["optimality"]`` says over which tables the draw is the
   lexicographic optimum, ``notes["proven"]`` how many leading criteria of the vector are proven
   optimal over *every* pairing — all for ``"exact"``; otherwise those up to the first one above
   a lower bound every pairing obeys: the fewest rematches, no clash or the fewest (a seed's
   proof, or the department floor: a department held by c of n members leaves at least
   ⌈(2c - n)/2⌉ clash tables, since a clean table seats one of its members at most), no severe
   seat table, the parity of each boundary, no skip):

   - *Staged exact matching* (:mod:`tournament.draw.pairing_swiss_stages`, where the proof
     is): maximum-weight perfect matchings (rustworkx's ``max_weight_matching``, compiled Rust)
     over the *candidate tables*, each criterion a tier of an integer weight; where the whole
     vector does not fit one 128-bit weight it is solved a run of tiers at a time, each run
     with the runs before it held at their optimum (``notes["stages"]``). The result is the
     lexicographic optimum of the whole vector over the candidate tables, at every size.
   - *Candidate tables.* Up to ``DENSE_LIMIT`` entrants (bye excluded): every allowed table
     (no rematch unless allowed), so the draw is the optimum over all pairings — ``"exact"``.
     Larger fields: every allowed table within ``_NEAR`` ranks below an entrant, then its first
     tables further down of each kind up to a quota (``_QUOTA``: clean — no clash, no severe
     seats, no strain; strain only; clash only), looking at most ``SCAN`` ranks down (the
     other kinds: ``_SCAN_OTHER``, once the clean quota is full); plus the tables of the *seed
     pairings*; plus, up to ``_CLASS_LIMIT`` entrants, *class tables*: a class is what the
     criteria above the order see of an entrant (score group, departments when protected, seat
     need), and each entrant gets, for each class of its own group and the next
     ``_CLASS_GROUPS``, the nearest allowed member (``_CLASS_QUOTA``; above and below in its own
     group) and ``_CLASS_SPREAD`` members drawn at random from the whole class (lots from the
     draw's seed). The random ones matter: nearest tables alone send everyone to the top of
     the next group, and a field that must float many pairs down (to keep the department
     clashes at their minimum) then could not; random tables between two classes hold a
     pairing of almost any of their members. The draw is the optimum over all these tables —
     ``"candidates"``. They include all of swiss.v2's, so a swiss.v3 draw is never worse than
     swiss.v2's by the vector (v2 was the best over its tables, or less where it capped; blocks
     kept by v2 are kept by v3 too, and sums of block vectors keep the order).
   - *Seed pairings* (maximum matchings, :mod:`tournament.draw.pairing_swiss_seeds`: a greedy,
     then rustworkx's maximum-cardinality matching over a sparse graph, over every allowed table
     where that falls short): a maximum rematch-free matching with its leftover paired up is a
     candidate pairing; it exists whenever a rematch-free pairing does (guarantee 2), and every
     pairing has at least ``n/2 - ν`` rematches, so the fewest rematches are always reached.
     When departments are protected, a matching without rematch or clash whose leftover pairs
     up without rematches: when it is proven maximum (over every table, up to 1,000 entrants;
     or at the department floor) no pairing has fewer clashes, so the fewest clashes are then
     reached too (``notes["fewest_department_clashes"]``; tried unless a department holds more
     than half of a field of over 1,000, where clashes are certain anyway). A cascade avoiding
     severe seat tables first is a seed as well. Their tables are candidates, so the draw is
     never worse than any of them.
   - *Blocks* (fields of at least ``2 × BLOCK_SIZE`` entrants, no rematch): the ranking is cut
     between score groups into blocks of at least ``BLOCK_SIZE``, each cut with an even number
     of entrants above it, and each block is paired on its own as above. Kept only if no table
     has a clash or severe seats and every boundary above the last cut is crossed exactly as
     often as its parity forces (0 or 1 times: |T_b| odd needs one floater). Those are lower
     bounds of every pairing, so those criteria are optimal over all pairings, and any pairing
     at least as good ties them, crosses no cut, and is a union of block pairings — none
     better than the union of the blocks' optima (the criteria are sums over blocks, so the
     lexicographic optimum of a union is the union of the optima; each block's is "exact" or
     "candidates" as above). Otherwise the whole field is paired as one. Ordinary rounds of
     thousands of pairs take this path (``notes["blocks"]``).
   - *What is not proven.* Above ``DENSE_LIMIT`` (400 entrants) the draw is the optimum over
     the candidate tables, and over every pairing only for the criteria ``notes["proven"]``
     counts: a better pairing may use a table that is not a candidate. Every allowed table
     (about n²/2) costs rustworkx ~0.5 s at 400 entrants and ~6 s at 1,000; proving from the
     candidates alone that no other table helps needs the matching's dual solution (rustworkx
     does not expose it) or an exchange argument that holds for sparse tables (none does: a
     field may need any of a class's members far below) — docs/swiss-draw.md says what was
     tried. Measured instead (the tests repeat it on fields just above ``DENSE_LIMIT``): the
     draw equalled the optimum over every allowed table in every criterion on the hard fields
     of 260–800 pairs tried.
6. **Seats** follow :mod:`tournament.draw.pairing_seating`: a pair's ``|NS-EW|`` grows past 1
   only at a table where both pairs wanted the same seat (warning ``seat_imbalance``). A
   *severe seat table* has two pairs that both already sit two or more rounds more one way
   than the other (same way); they rank above score groups (4), so in practice
   ``|NS-EW| <= 2`` for every pair. Ordinary *seat strain* (the sum, over tables where both want
   the same seat, of the smaller of the two needs, capped at 8) ranks below score groups.
7. **Inside a group** (lowest priority): ``within_group="adjacent"`` pairs neighbours (1 v 2,
   3 v 4 — the usual Chinese 瑞士移位 practice), ``"slide"`` pairs top half v bottom half
   (1 v n/2+1, the chess Dutch order): the last criterion is the sum over tables of the squared
   rank distance (less half the group for ``"slide"``), capped at ``ORDER_CAP`` per table.
8. **Reproducible.** Only ``random.Random(seed)`` is used (lots for equal rank); the same
   entrants (in the same order), options and seed give the same draw. rustworkx's matching is
   deterministic; where several matchings are equally good in every criterion, which one it
   returns is its own, so ``notes["matching"]`` records its version. Tables are numbered with
   the best-ranked table first; the bye comes last with no table.

Versions. A recorded round names its algorithm (``draw_algorithm``); the code that drew it
is kept, frozen, under ``tests/tournament/draw/reference/``, and running it with the round's
recorded entrants, options and seed reproduces that round table for table (tested against
rounds recorded before each change). Production draws only with the current version; an old
round is never redrawn, its tables are what was recorded.

- ``swiss.v1`` (until ``swiss.v2``): exact up to 100 entrants on a hand-written blossom, a bracket
  heuristic above — ``reference/swiss_v1.py`` (with that blossom, tests only).
- ``swiss.v2``: one rustworkx matching; above 200 entrants sparser candidates, and on wide
  fields the criteria's bounds capped to fit one 128-bit weight (optimal only where the
  optimum stayed under the cap) — ``reference/swiss_v2.py``.
- ``swiss.v3``: the staged matching above (the optimum over the candidates of every criterion
  at every size) and the class candidates; every table a candidate up to 200 entrants. A draw
  of up to 200 entrants whose vector fits one weight is the same as ``swiss.v2``'s (same
  tables, same weights) — ``reference/swiss_v3.py`` (with ``swiss_v3_candidates`` and
  ``swiss_v3_stages``).
- ``swiss.v4``: every allowed table a candidate up to 400 entrants (``DENSE_LIMIT``), so those
  draws are the optimum over every pairing; the department floor among the proofs of
  ``notes["proven"]``; the seed matchings on rustworkx instead of the hand-written Edmonds
  search. Up to 200 entrants it draws swiss.v3's tables; above 400 too, unless a greedy seed
  left entrants over and the two searches completed it differently (other seed tables).

Performance (``bench/draw_bench.py``, CPU seconds on the shared two cores at a load of about 2):
round 9 of 5,000 pairs 0.75 s (three proven blocks); hard fields (ten rounds, two departments
protected every round) of 1,000 pairs 0.58 s and of 5,000 pairs 5.4 s (5.9 s at a load of 3–4),
two stages of ~2.4 s of rustworkx each — over the 5 s target (docs/swiss-draw.md: why the vector does not fit
one stage there).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from typing import Literal

from tests.tournament.draw.reference.swiss_v4_candidates import (
    DENSE_LIMIT,
    SwissField,
    candidate_tables,
    candidate_units,
)
from tests.tournament.draw.reference.swiss_v4_seeds import maximum_matching
from tests.tournament.draw.reference.swiss_v4_stages import Table, staged_matching
from tournament.draw.pairing_seating import seat_pair, tables_in_rank_order
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

__all__ = ["DENSE_LIMIT", "SWISS_ALGORITHM", "WithinGroup", "swiss_pair"]

SWISS_ALGORITHM = "swiss.v4"
BLOCK_SIZE = 500
"""Fields of at least twice this many are first tried in blocks of at least this many."""


WithinGroup = Literal["adjacent", "slide"]

_CROWDED_SEED_LIMIT = 1000  # the clash seed is skipped above this with a department over half

Vector = tuple[int, ...]


def swiss_pair(
    *,
    entrants: Sequence[Entrant],
    round_number: int,
    seed: int,
    allow_rematches: bool = False,
    department_rounds: int = 0,
    within_group: WithinGroup = "adjacent",
) -> Draw:
    """Pair one Swiss round. See the module docstring for the exact guarantees.

    Raises :class:`DrawError` (``too_few_entrants``, ``duplicate_entrant``, ``invalid_option``,
    ``no_bye_available``, ``no_pairing_without_rematch``).
    """
    _check_options(round_number=round_number, within_group=within_group)
    field = SwissField.build(entrants, seed=seed, protect=round_number <= department_rounds)
    options: dict[str, OptionValue] = {
        "allow_rematches": allow_rematches,
        "department_rounds": department_rounds,
        "within_group": within_group,
    }
    solver = _Solver(field, within_group=within_group, seed=seed)

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
            rest = [i for i in everyone if i != candidate]
            if solver.pairable(rest):
                bye = candidate
                result = solver.pair(rest, allow_rematches=False)
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


def _check_options(*, round_number: int, within_group: str) -> None:
    if round_number < 1:
        raise DrawError("invalid_option", "Rounds are numbered from 1.", "轮次从1开始编号。")
    if within_group not in ("adjacent", "slide"):
        raise DrawError("invalid_option", f"Unknown pairing order {within_group!r}.", "未知的组内配对方式。")


@dataclass(slots=True)
class _Result:
    tables: list[tuple[int, int]]  # (higher-ranked index, lower-ranked index)
    notes: dict[str, OptionValue]


class _Solver:
    def __init__(self, field: SwissField, *, within_group: WithinGroup, seed: int = 0) -> None:
        self.field = field
        self.within_group = within_group
        self.seed = seed
        self._sizes: Counter[int] = Counter()  # group sizes of the members being paired …
        self._groups: list[int] = []  # … and their groups, by position
        self._fewest_clashes = False  # a seed proves the fewest department clashes

    # -- seeds: pairings found by maximum matchings ---------------------------------------------
    def _allowed(self, *, departments: bool, seats: bool = False) -> Callable[[int, int], bool]:
        f = self.field

        def allowed(a: int, b: int) -> bool:
            if b in f.opponents[a]:
                return False
            if departments and f.same_department(a, b):
                return False
            return not (seats and f.severe(a, b))

        return allowed

    def _cascade(
        self, members: list[int], levels: list[Callable[[int, int], bool]], *, exact: bool = True
    ) -> tuple[list[tuple[int, int]] | None, bool]:
        """A maximum matching at the strictest level, what it leaves matched at the next, …

        The tables of a perfect pairing, or None if the last level leaves someone over; and
        whether the first level's matching is proven maximum (``pairing_swiss_seeds``; at most
        half the members less the department floor when the first level avoids clashes).
        """
        mate: dict[int, int] = {}
        rest = list(members)
        first_maximum = False
        for k, allowed in enumerate(levels):
            most = len(rest) // 2 - (self.field.department_floor(rest) if k == 0 else 0)
            found, maximum = maximum_matching(rest, allowed, most=most, exact=exact)
            first_maximum = first_maximum or (k == 0 and maximum)
            mate.update(found)
            rest = [i for i in rest if i not in found]
            if not rest:
                return _complete(mate, []), first_maximum
        return None, first_maximum

    def pairable(self, members: list[int]) -> bool:
        """Whether ``members`` can be paired without a rematch (proven either way: ``exact``)."""
        mate, _maximum = maximum_matching(members, self._allowed(departments=False))
        return len(mate) == len(members)

    def _seeds(
        self, members: list[int], *, allow_rematches: bool, department_seed: bool = True
    ) -> list[list[tuple[int, int]]] | None:
        """Perfect pairings of ``members`` that the weighted matching must match or beat.

        None if ``members`` cannot be paired without a rematch and rematches are not allowed.
        """
        f = self.field
        free = self._allowed(departments=False)
        mate, _maximum = maximum_matching(members, free)  # exact: proves the fewest rematches
        leftover = [i for i in members if i not in mate]
        if leftover and not allow_rematches:
            return None
        seeds = [_complete(mate, leftover)]
        self._fewest_clashes = False
        if leftover:
            return seeds
        # The old bracket heuristic's way: each entrant, in rank order, with the first free one
        # below that suits it best (no clash, then no seat strain), completed by Edmonds. Its
        # long tables (when the near ones are taken) join the candidates.
        need = f.need

        def cost(a: int, b: int) -> int:
            na, nb = need[a], need[b]
            strained = (na > 0 and nb > 0) or (na < 0 and nb < 0)
            return 2 * f.same_department(a, b) + strained

        greedy, _maximum = maximum_matching(members, free, cost=cost, exact=False)
        if len(greedy) == len(members):
            seeds.append(_complete(greedy, []))
        strained = any(abs(f.need[i]) >= 2 for i in members)
        if f.protect and department_seed:
            counts: Counter[object] = Counter(d for i in members for d in f.departments[i])
            crowded = any(2 * c > len(members) for c in counts.values())
            if not crowded or len(members) <= _CROWDED_SEED_LIMIT:
                # Every pairing has at least n/2 - ν(no rematch, no clash) clashes: this one
                # has no more when its leftover pairs up without rematches.
                # Over every table if the sparse graph falls short only up to the crowded limit.
                levels = [self._allowed(departments=True), free]
                clean, maximum = self._cascade(members, levels, exact=len(members) <= _CROWDED_SEED_LIMIT)
                if clean is not None:
                    seeds.append(clean)
                    self._fewest_clashes = maximum
                if strained:
                    levels = [self._allowed(departments=True, seats=True), self._allowed(departments=True), free]
                    seat_clean, _maximum = self._cascade(members, levels, exact=False)
                    if seat_clean is not None:
                        seeds.append(seat_clean)
        elif strained:
            levels = [self._allowed(departments=False, seats=True), free]
            seat_clean, _maximum = self._cascade(members, levels, exact=False)
            if seat_clean is not None:
                seeds.append(seat_clean)
        return seeds

    # -- candidates and weights ---------------------------------------------------------------
    def pair(self, members: list[int], *, allow_rematches: bool) -> _Result | None:
        """Pair the ranked ``members`` (even count) or return None if no valid pairing exists."""
        result: _Result | None = None
        # Blocks are kept only without a clash: not tried when the department floor forces one.
        if not allow_rematches and len(members) >= 2 * BLOCK_SIZE and not self.field.department_floor(members):
            result = self._pair_in_blocks(members)
        if result is None:
            result = self._pair_whole(members, allow_rematches=allow_rematches)
        if result is not None:
            result.notes["proven"] = self._proven(members, result)
        return result

    def _proven(self, members: list[int], result: _Result) -> int:
        """How many leading criteria (module docstring, 4; order excluded) are proven optimal.

        All of them for an ``"exact"`` draw. Otherwise those up to the first one above a lower
        bound that every pairing obeys: the fewest rematches (a seed reaches it), no clash (or
        the fewest, when a seed proves it), no severe seat table, each boundary crossed only as
        often as its parity forces, no skip. Criteria at such bounds cannot be improved.
        """
        groups = _group_numbers(self.field, members)
        self._sizes = Counter(groups)
        value = self.vector(members, groups, result.tables)
        criteria = len(value) - 1
        if result.notes["optimality"] == "exact":
            return criteria
        clashes_proven = (
            value[1] == 0
            or bool(result.notes.get("fewest_department_clashes"))
            or value[1] == self.field.department_floor(members)
        )
        at_bound = [True, clashes_proven, value[2] == 0]
        above = 0
        for boundary in range(max(groups)):
            above += self._sizes[boundary]
            at_bound.append(value[3 + boundary] == above % 2)
        at_bound.append(value[-3] == 0)
        proven = 0
        while proven < len(at_bound) and at_bound[proven]:
            proven += 1
        return proven

    def _pair_in_blocks(self, members: list[int]) -> _Result | None:
        """Pair ``members`` block by block, or None unless the lower bounds prove it optimal.

        Blocks are runs of whole score groups of at least ``BLOCK_SIZE`` entrants, cut where
        the entrants above are even in number (module docstring, 5 "blocks").
        """
        groups = _group_numbers(self.field, members)
        cuts: list[int] = []
        start = 0
        for k in range(1, len(members)):
            fits = k - start >= BLOCK_SIZE and len(members) - k >= BLOCK_SIZE
            if groups[k] != groups[k - 1] and k % 2 == 0 and fits:
                cuts.append(k)
                start = k
        if not cuts:
            return None
        edges = [0, *cuts, len(members)]
        tables: list[tuple[int, int]] = []
        optimality: list[OptionValue] = []
        for k, (low, high) in enumerate(itertools.pairwise(edges)):
            block = members[low:high]
            result = self._pair_whole(block, allow_rematches=False, department_seed=False)
            if result is None:
                return None
            # Checked block by block (failing early): no same-department or severe seat table,
            # and above the last cut no boundary crossed more often than its parity demands
            # (the entrants above a cut are even in number, so parity is the block's own).
            value = self.vector(block, self._groups, result.tables)
            if value[1] or value[2]:
                return None
            if k < len(edges) - 2:
                above, boundaries = 0, max(self._groups)
                for boundary, crossed in enumerate(value[3 : 3 + boundaries]):
                    above += self._sizes[boundary]
                    if crossed != above % 2:
                        return None
            tables += result.tables
            optimality.append(result.notes["optimality"])
        notes: dict[str, OptionValue] = {
            "optimality": "exact" if all(o == "exact" for o in optimality) else "candidates",
            "blocks": len(edges) - 1,
            "block_optimality": optimality,
            "matching": f"rustworkx {version('rustworkx')}",
            "groups": max(groups) + 1,
        }
        return _Result(tables=tables, notes=notes)

    def _pair_whole(self, members: list[int], *, allow_rematches: bool, department_seed: bool = True) -> _Result | None:
        if not members:
            return _Result(tables=[], notes={"optimality": "exact", "groups": 0})
        seeds = self._seeds(members, allow_rematches=allow_rematches, department_seed=department_seed)
        if seeds is None:
            return None
        position = {i: p for p, i in enumerate(members)}
        groups = _group_numbers(self.field, members)
        self._sizes = Counter(groups)
        self._groups = groups
        pairs = candidate_tables(self.field, members, self._groups, seed=self.seed, allow_rematches=allow_rematches)
        for seed in seeds:
            for a, b in seed:
                p, q = sorted((position[a], position[b]))
                pairs.add((p, q))
        tables = self._tables(members, groups, sorted(pairs))
        chosen, notes = self._solve(members, groups, tables, allow_rematches=allow_rematches)
        value = self.vector(members, groups, chosen)
        for seed in seeds:
            if self.vector(members, groups, seed) < value:
                if notes["optimality"] != "prefix":  # pragma: no cover - its tables are candidates
                    raise DrawBug("a seed pairing beat the exact matching over tables that include its own")
                chosen, value = seed, self.vector(members, groups, seed)
        notes["groups"] = max(groups) + 1
        if self._fewest_clashes:
            notes["fewest_department_clashes"] = True
        return _Result(tables=[(a, b) if a < b else (b, a) for a, b in chosen], notes=notes)

    def _tables(self, members: list[int], groups: list[int], pairs: Sequence[tuple[int, int]]) -> list[Table]:
        slide = self.within_group == "slide"
        return candidate_units(self.field, members, groups, pairs, sizes=self._sizes, slide=slide)

    def vector(self, members: list[int], groups: list[int], tables: Sequence[tuple[int, int]]) -> Vector:
        """The criteria vector of a pairing of ``members`` (module docstring, 4 and 7)."""
        position = {i: p for p, i in enumerate(members)}
        m = max(groups) + 1 if groups else 0
        crossings = [0] * max(m - 1, 0)
        rematches = departments = severe = skips = strain = order = 0
        at = [(min(position[x], position[y]), max(position[x], position[y])) for x, y in tables]
        for t in self._tables(members, groups, at):
            rematches += t.rematch
            departments += t.department
            severe += t.severe
            for boundary in range(t.group_a, t.group_b):
                crossings[boundary] += 1
            skips += t.skip
            strain += t.strain
            order += t.order
        return (rematches, departments, severe, *crossings, skips, strain, order)

    def _solve(
        self, members: list[int], groups: list[int], tables: list[Table], *, allow_rematches: bool
    ) -> tuple[list[tuple[int, int]], dict[str, OptionValue]]:
        """The lexicographic optimum over ``tables`` (module docstring, 5; pairing_swiss_stages)."""
        n = len(members)
        found = staged_matching(n, max(groups) + 1, tables, rematches=allow_rematches, departments=self.field.protect)
        notes: dict[str, OptionValue] = {
            "optimality": ("exact" if n <= DENSE_LIMIT else "candidates") if found.complete else "prefix",
            "candidates": len(tables),
            "stages": found.stages,
            "matching": f"rustworkx {version('rustworkx')}",
        }
        if not found.complete:  # not seen with 120 bits (the hard 5,000-pair field needs ~60); tested with fewer
            notes["solved_tiers"] = found.solved
        return [(members[p], members[q]) for p, q in found.tables], notes


def _complete(mate: dict[int, int], leftover: list[int]) -> list[tuple[int, int]]:
    """The tables of ``mate`` plus ``leftover`` paired in order (a perfect pairing)."""
    tables = [(a, b) for a, b in mate.items() if a < b]
    tables += [(leftover[k], leftover[k + 1]) for k in range(0, len(leftover), 2)]
    return tables


def _group_numbers(field: SwissField, members: list[int]) -> list[int]:
    """Score group (0 = top) of each ranked member, by position."""
    out: list[int] = []
    for k, i in enumerate(members):
        if k == 0:
            out.append(0)
        else:
            out.append(out[-1] + (field.score[i] != field.score[members[k - 1]]))
    return out


def _build_draw(
    field: SwissField,
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


def _verify(field: SwissField, draw: Draw, bye: int | None, *, allow_rematches: bool) -> None:
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
