"""Swiss pairing (瑞士移位) — docs/rules.md §4. Algorithm ``swiss.v6``.

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
   optimal over *every* pairing — all for ``"exact"``; otherwise those up to the first one that
   neither ties the *class bound* (below) nor sits at a lower bound every pairing obeys: the
   fewest rematches, no clash or the fewest (a seed's
   proof, or the department floor: a department held by c of n members leaves at least
   ⌈(2c - n)/2⌉ clash tables, since a clean table seats one of its members at most), no severe
   seat table, each boundary crossed only as often as its parity forces — or as its *forced
   crossings* do: a pairing that ties the draw on the criteria before a boundary has at most
   k = rematches + clashes + severe tables that are not clean, so with ν the largest clean
   matching of the entrants above the boundary (or of those below) it crosses the boundary at
   least |side| - 2(ν + k) times (sides of up to 1,000 entrants are tried) — no skip, no seat
   strain):

   - *The class bound* (swiss.v6, :mod:`tournament.draw.pairing_swiss_classes`, above
     ``DENSE_LIMIT``). A *class* is what the criteria above the order see of an entrant (score
     group, departments when protected, seat need), and every criterion but the rematches and
     the order is a sum of units that depend on the classes of a table's two pairs only. So
     every pairing gives numbers of tables between classes, whose criteria are linear in them;
     the lexicographic minimum over all such numbers (integer programmes of a few thousand
     variables, HiGHS; each criterion solved as a linear programme with odd-set rows, ceiled)
     is a lower bound of every pairing — with the criteria before one held at a pairing's
     counts, of that criterion among the pairings that tie it so far. A draw that ties it is
     the optimum over *every* pairing, at any size. The bound forgets who has met whom, so it
     can be below every pairing (the leaders of a late round have met); where another proof
     covers a criterion above the bound, the bound is asked again with the draw's counts held
     (``_REBOUNDS``). The numbers of tables that reach the bound are made a real pairing
     (members in rank order to their tables, maximum matchings without rematches), the *class
     seed*; it ties the bound unless rematches get in the way, and it is a seed (below) and
     lets the best seed's counts be the weight's ceilings while it ties the bound.
   - *Staged exact matching* (:mod:`tournament.draw.pairing_swiss_stages`, where the proof
     is): maximum-weight perfect matchings (rustworkx's ``max_weight_matching``, compiled Rust)
     over the *candidate tables*, each criterion a tier of an integer weight, sized by its range
     between a floor every candidate pairing obeys and a ceiling of the optimum (the best seed
     pairing's count where the seed is at the floor on every criterion before); where the whole
     vector does not fit one 128-bit weight it is solved a run of tiers at a time, each run
     with the runs before it held at their optimum (``notes["stages"]``). The result is the
     lexicographic optimum of the whole vector over the candidate tables, at every size.
   - *The order group by group* (``notes["optimality"] == "groups"``). Above ``_WHOLE_LIMIT``
     (2,000 entrants), when the class seed ties the class bound, every criterion but the order
     is already the optimum over every pairing, and one matching over all candidate tables
     would only improve the order, at more than twice the cost of the rest of the draw. Instead the
     seed's tables are split by the score group of their higher-ranked pair, then of their
     lower-ranked one, and each part is paired again by the staged matching over the
     candidate tables among its members, its share of the pairing so far its seed: never worse
     by the vector, so the whole stays at the bound; the order is the best within each part
     (on the hard bench field of 5,000 pairs the order is 3% above one matching's over every
     candidate; the draw takes 2.1–2.6 s instead of 7.4 s).
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
   - *What is not proven.* Above ``DENSE_LIMIT`` (400 entrants) a draw is proven over every
     pairing for the criteria ``notes["proven"]`` counts: all but the order wherever it ties
     the class bound — every round of the hard fields of 600 to 5,000 pairs measured (one to
     four departments protected, docs/swiss-draw.md). Short of that (a class seed with a
     rematch; more than ``CLASS_LIMIT`` classes) it is the optimum over the candidate tables
     and proven as far as the bound and the other proofs reach, as in swiss.v5. The order is
     never proven above ``DENSE_LIMIT``. The bound rests on HiGHS's floating point (small
     integer data; module pairing_swiss_classes).
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
   returns is its own, so ``notes["matching"]`` records its version (and ``notes["class_bound"]``
   HiGHS's, whose class tables make the class seed). Tables are numbered with
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
  left entrants over and the two searches completed it differently (other seed tables) —
  ``reference/swiss_v4.py`` (with ``swiss_v4_candidates``, ``swiss_v4_stages`` and
  ``swiss_v4_seeds``).
- ``swiss.v5``: the same criteria, each tier's range in the weight narrowed by floors and the
  best seed's ceilings (``pairing_swiss_stages``), so hard fields of 1,000 and 5,000 pairs take
  one matching instead of two; the seeds' maximum matching keeps the greedy's tables where it
  can (``pairing_swiss_seeds``: round 1 of 5,000 pairs with three departments protected took
  9 s, now 2.5 s). Up to ``DENSE_LIMIT`` its draws have swiss.v4's criteria vector (both are
  the optimum over every table), but with other weights rustworkx may pick another of several
  equally good pairings; above it a seed, hence a few candidate tables, may differ too —
  ``reference/swiss_v5.py`` (with ``swiss_v5_candidates``, ``swiss_v5_stages`` and
  ``swiss_v5_seeds``).
- ``swiss.v6``: the class bound (HiGHS), its class seed and its ceilings above ``DENSE_LIMIT``,
  and above ``_WHOLE_LIMIT`` the order improved group by group when the seed ties the bound.
  Up to ``DENSE_LIMIT`` it draws swiss.v5's tables; above, the same criteria or better (on the
  hard bench field of 5,000 pairs better from the third boundary on), every one proven where
  the seed ties the bound.

Performance (``bench/draw_bench.py``; docs/swiss-draw.md has the figures): the ordinary round 9
of 5,000 pairs in proven blocks; the hard fields (ten rounds, two departments protected every
round) of 1,000 pairs in one matching over the candidates and of 5,000 pairs group by group,
every criterion proven in both, in less than half of swiss.v5's time at 5,000.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from typing import Literal

from tournament.draw.pairing_seating import seat_pair, tables_in_rank_order
from tournament.draw.pairing_swiss_candidates import DENSE_LIMIT, SwissField, candidate_tables, candidate_units
from tournament.draw.pairing_swiss_classes import ClassBound, ClassProblem
from tournament.draw.pairing_swiss_seeds import maximum_matching
from tournament.draw.pairing_swiss_stages import Table, staged_matching
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

SWISS_ALGORITHM = "swiss.v6"
BLOCK_SIZE = 500
"""Fields of at least twice this many are first tried in blocks of at least this many."""


WithinGroup = Literal["adjacent", "slide"]

_CROWDED_SEED_LIMIT = 1000  # the clash seed is skipped above this with a department over half
_FORCED_SIDE = 1000  # the proof of forced crossings looks at sides of up to this many entrants
_REBOUNDS = 2  # the class bound is asked again at most this often in a proof
_WHOLE_LIMIT = 2000  # above, a class seed at the class bound has its order improved group by group

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
        self._fewest_rematches = 0  # … and the fewest rematches
        self._clash_floor = 0  # every rematch-free pairing has at least this many clashes
        self._classes: ClassProblem | None = None  # the class bound's programme of the members …
        self._class_bound: ClassBound | None = None  # … and its lexicographic minimum

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
        self, members: list[int], *, allow_rematches: bool, in_block: bool = False
    ) -> list[list[tuple[int, int]]] | None:
        """Perfect pairings of ``members`` that the weighted matching must match or beat.

        None if ``members`` cannot be paired without a rematch and rematches are not allowed.
        """
        f = self.field
        free = self._allowed(departments=False)
        mate, _maximum = maximum_matching(members, free)  # exact: proves the fewest rematches
        leftover = [i for i in members if i not in mate]
        self._fewest_rematches = len(leftover) // 2  # every pairing has n/2 - ν or more
        if leftover and not allow_rematches:
            return None
        seeds = [_complete(mate, leftover)]
        self._fewest_clashes = False
        self._clash_floor = 0
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
        if f.protect and not in_block:
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
                    if maximum:  # no rematch-free pairing has fewer clashes than this seed
                        self._clash_floor = sum(f.same_department(a, b) for a, b in clean)
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

        All of them for an ``"exact"`` draw. Otherwise those up to the first one that neither
        ties the class bound (pairing_swiss_classes: a lower bound over every pairing that ties
        the draw on the criteria before) nor sits at a lower bound that every pairing obeys:
        the fewest rematches (a seed reaches it), no clash (or the fewest, when a seed proves
        it, or the department floor), no severe seat table, each boundary crossed only as often
        as its parity forces or as :meth:`_crossings_forced` shows, no skip, no seat strain.
        Criteria at such bounds cannot be improved. Where the class bound is below a criterion
        proven the other way (it forgets who has met whom), it is asked again with the draw's
        counts held up to there, at most ``_REBOUNDS`` times. A draw in blocks asks it only at
        the first criterion the other proofs leave open.
        """
        groups = _group_numbers(self.field, members)
        self._sizes = Counter(groups)
        value = self.vector(members, groups, result.tables)
        criteria = len(value) - 1
        if result.notes["optimality"] == "exact":
            return criteria
        classes = self._classes
        bound = self._class_bound.vector if self._class_bound is not None else []
        rebounds = _REBOUNDS if classes is not None else 0
        fewest = bool(result.notes.get("fewest_department_clashes"))
        blocks = "blocks" in result.notes  # their class bound is asked only when it is needed
        for t in range(1, criteria):
            if bound[: t - 1] != list(value[1:t]) and rebounds and classes is not None:
                rebounds -= 1
                bound = classes.bound(fixed=value[1:t]).vector
            if bound[:t] == list(value[1 : t + 1]) or self._at_lower_bound(members, groups, value, t, fewest):
                continue
            if blocks:
                blocks = False
                classes = self._class_problem(members, groups, allow_rematches=False)
                if classes is not None:
                    rebounds = _REBOUNDS - 1
                    bound = classes.bound(fixed=value[1:t]).vector
                    if bound[:t] == list(value[1 : t + 1]):
                        continue
            return t
        return criteria

    def _at_lower_bound(
        self, members: list[int], groups: list[int], value: Vector, t: int, fewest_clashes: bool
    ) -> bool:
        """Whether criterion ``t`` of the draw (its vector ``value``, the criteria before ``t``
        proven) is at a lower bound every such pairing obeys (:meth:`_proven`); ``fewest_clashes``:
        a seed proved the fewest clashes."""
        boundaries = max(groups)
        if t == 1:
            return value[1] == 0 or fewest_clashes or value[1] == self.field.department_floor(members)
        if t == 2 or t >= 3 + boundaries:  # severe seats, skips, seat strain: proven at 0
            return value[t] == 0
        boundary = t - 3
        above = sum(self._sizes[g] for g in range(boundary + 1))
        if value[t] == above % 2:
            return True
        slack = value[0] + value[1] + value[2]
        return self._crossings_forced(members, groups, boundary, count=value[t], slack=slack)

    def _crossings_forced(
        self, members: list[int], groups: list[int], boundary: int, *, count: int, slack: int
    ) -> bool:
        """Whether every pairing that ties the draw on the criteria before ``boundary`` (they are
        proven) crosses it at least ``count`` times.

        Such a pairing has as many rematch, clash and severe tables as the draw: at most
        ``slack`` tables that are not *clean* (no rematch, no clash when protected, no severe
        seats). Of its tables inside one side of the boundary (the entrants above it, or
        those below), the clean ones form a clean matching of that side, so there are at most
        ν + slack of them, ν the side's largest clean matching, and it crosses the boundary
        at least |side| - 2(ν + slack) times. Proven when that reaches ``count`` on either side
        (ν only where the matching is proven maximum). Only sides of up to ``_FORCED_SIDE``
        entrants are tried, the smaller first (a field's forced floaters come from its few top
        or bottom pairs that have met or share a department; a matching per boundary of
        thousands would cost more than the draw).
        """
        clean = self._allowed(departments=True, seats=True)
        sides = (
            [i for i, g in zip(members, groups, strict=True) if g <= boundary],
            [i for i, g in zip(members, groups, strict=True) if g > boundary],
        )
        for side in sorted(sides, key=len):
            limit = (len(side) - count) // 2 - slack  # the most clean tables inside that proves it
            if limit < 0 or len(side) > _FORCED_SIDE:
                continue
            mate, maximum = maximum_matching(side, clean, most=limit + 1, exact=len(side) <= DENSE_LIMIT)
            if maximum and len(mate) // 2 <= limit:
                return True
        return False

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
            result = self._pair_whole(block, allow_rematches=False, in_block=True)
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

    def _pair_whole(self, members: list[int], *, allow_rematches: bool, in_block: bool = False) -> _Result | None:
        if not members:
            return _Result(tables=[], notes={"optimality": "exact", "groups": 0})
        seeds = self._seeds(members, allow_rematches=allow_rematches, in_block=in_block)
        if seeds is None:
            return None
        position = {i: p for p, i in enumerate(members)}
        groups = _group_numbers(self.field, members)
        self._sizes = Counter(groups)
        self._groups = groups
        self._classes = self._class_bound = None
        if len(members) > DENSE_LIMIT and not in_block:
            seeds += self._class_seed(members, groups, allow_rematches=allow_rematches)
        pairs = candidate_tables(self.field, members, self._groups, seed=self.seed, allow_rematches=allow_rematches)
        for seed in seeds:
            for a, b in seed:
                p, q = sorted((position[a], position[b]))
                pairs.add((p, q))
        tables = self._tables(members, groups, sorted(pairs))
        at = [[(min(position[a], position[b]), max(position[a], position[b])) for a, b in seed] for seed in seeds]
        if len(members) > _WHOLE_LIMIT and self._ties_class_bound(members, groups, seeds):
            chosen, notes = self._solve_by_groups(members, groups, tables, allow_rematches=allow_rematches, seed=at[-1])
        else:
            chosen, notes = self._solve(members, groups, tables, allow_rematches=allow_rematches, seeds=at)
        value = self.vector(members, groups, chosen)
        for seed in seeds:
            if self.vector(members, groups, seed) < value:
                if notes["optimality"] not in ("prefix", "groups"):  # pragma: no cover - its tables are candidates
                    raise DrawBug("a seed pairing beat the exact matching over tables that include its own")
                chosen, value = seed, self.vector(members, groups, seed)
        notes["groups"] = max(groups) + 1
        if self._classes is not None:  # its class seed is one of the draw's seeds: recorded as the matching is
            notes["class_bound"] = f"highspy {version('highspy')}"
        if self._fewest_clashes:
            notes["fewest_department_clashes"] = True
        return _Result(tables=[(a, b) if a < b else (b, a) for a, b in chosen], notes=notes)

    def _class_problem(self, members: list[int], groups: list[int], *, allow_rematches: bool) -> ClassProblem | None:
        """The class bound's programme of ``members`` (pairing_swiss_classes), or None beyond its
        class limit."""
        f = self.field
        classes = [f.class_key(i, g) for i, g in zip(members, groups, strict=True)]
        position = {i: p for p, i in enumerate(members)}
        met = None if allow_rematches else [{position[j] for j in f.opponents[i] if j in position} for i in members]
        return ClassProblem.of(classes=classes, boundaries=max(groups), met=met)

    def _class_seed(
        self, members: list[int], groups: list[int], *, allow_rematches: bool
    ) -> list[list[tuple[int, int]]]:
        """The class bound of ``members`` (kept for the proof) and, when a pairing ties it, that
        pairing as a seed (module docstring, 5 "class bound"; pairing_swiss_classes)."""
        self._classes = self._class_problem(members, groups, allow_rematches=allow_rematches)
        if self._classes is None:
            return []
        self._class_bound = self._classes.bound()
        if not self._class_bound.tables:
            return []
        allowed = (lambda a, b: True) if allow_rematches else self._allowed(departments=False)
        found = self._classes.realize(self._class_bound.tables, members, allowed, seed=self.seed)
        return [] if found is None else [found]

    def _ties_class_bound(self, members: list[int], groups: list[int], seeds: list[list[tuple[int, int]]]) -> bool:
        """Whether the last seed (the class seed, when one was found) ties the class bound on
        every criterion but the order, and so is the optimum over every pairing on them."""
        if self._class_bound is None or not self._class_bound.tables or not seeds:
            return False
        value = self.vector(members, groups, seeds[-1])
        return value[0] == self._fewest_rematches and list(value[1:-1]) == self._class_bound.vector

    def _solve_by_groups(
        self,
        members: list[int],
        groups: list[int],
        tables: list[Table],
        *,
        allow_rematches: bool,
        seed: list[tuple[int, int]],
    ) -> tuple[list[tuple[int, int]], dict[str, OptionValue]]:
        """The class seed ``seed`` (positions, p < q; it ties the class bound) with its order
        improved group by group (module docstring, 5 "class bound"), as tables of members.

        Twice: each table goes to the group of its higher-ranked pair, then (after that pass)
        of its lower-ranked one; the members of each group's tables are paired again by an
        exact lexicographic matching over the candidate tables among them, their share of the
        pairing so far its seed. Each part's new pairing is no worse by the vector than its
        share, and the vector is a sum over tables, so the whole stays at the class bound:
        every criterion but the order is the optimum over every pairing; the order is the best
        within each part.
        """
        chosen = seed
        stages = parts = 0
        for end in (0, 1):  # the higher-ranked pair's group, then the lower-ranked one's
            part = [0] * len(members)
            for table in chosen:
                part[table[0]] = part[table[1]] = groups[table[end]]
            subsets: dict[int, list[int]] = {}
            for p, g in enumerate(part):
                subsets.setdefault(g, []).append(p)
            local = [0] * len(members)
            for subset in subsets.values():
                for k, p in enumerate(subset):
                    local[p] = k
            own: dict[int, list[Table]] = {g: [] for g in subsets}
            for t in tables:  # (a NamedTuple's _replace took a tenth of the draw)
                if part[t.p] == part[t.q]:
                    own[part[t.p]].append(Table(local[t.p], local[t.q], *t[2:]))
            paired: list[tuple[int, int]] = []
            for g, subset in subsets.items():
                share = [(local[p], local[q]) for p, q in chosen if part[p] == g]
                found = staged_matching(
                    len(subset),
                    max(groups) + 1,
                    own[g],
                    rematches=allow_rematches,
                    departments=self.field.protect,
                    floors=(0, self.field.department_floor([members[p] for p in subset])),
                    seeds=[share],
                )
                paired += [(subset[p], subset[q]) for p, q in found.tables]
                stages = max(stages, found.stages)
            chosen = paired
            parts += len(subsets)
        notes: dict[str, OptionValue] = {
            "optimality": "groups",
            "candidates": len(tables),
            "stages": stages,
            "parts": parts,
            "matching": f"rustworkx {version('rustworkx')}",
        }
        return [(members[p], members[q]) for p, q in chosen], notes

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
        self,
        members: list[int],
        groups: list[int],
        tables: list[Table],
        *,
        allow_rematches: bool,
        seeds: list[list[tuple[int, int]]],
    ) -> tuple[list[tuple[int, int]], dict[str, OptionValue]]:
        """The lexicographic optimum over ``tables`` (module docstring, 5; pairing_swiss_stages)."""
        n = len(members)
        # Floors every candidate pairing obeys: the clash seed's proof only binds rematch-free ones.
        clashes = self.field.department_floor(members)
        if not allow_rematches:
            clashes = max(clashes, self._clash_floor)
        floors = (self._fewest_rematches, clashes)
        least: list[int] = []  # the class bound, as the stages' tiers (pairing_swiss_stages)
        if self._class_bound is not None:
            bound = self._class_bound.vector
            least = [self._fewest_rematches] if allow_rematches else []
            least += bound if self.field.protect else bound[1:]
        found = staged_matching(
            n,
            max(groups) + 1,
            tables,
            rematches=allow_rematches,
            departments=self.field.protect,
            floors=floors,
            seeds=seeds,
            least=least,
        )
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
