"""Reference only (tests): the ``swiss.v2`` Swiss engine, frozen as it was drawn until the staged
matching (``swiss.v3``).

Every round recorded with ``draw_algorithm = "swiss.v2"`` was drawn by this code: running
:func:`swiss_pair` here with the recorded options and seed (and the same entrants) reproduces
it table for table (tests/data/swiss_v2_rounds.json). Nothing below was changed.

Swiss pairing (瑞士移位) — docs/rules.md §4. Algorithm ``swiss.v2``.

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
5. **How the optimum is found** (``notes["optimality"]`` says how, ``notes["proven"]`` how many
   leading criteria of the vector are proven optimal over every pairing — all for ``"exact"``;
   otherwise those up to the first one above a lower bound every pairing obeys: the fewest
   rematches, no clash or the fewest, no severe seat table, the parity of each boundary, no skip):

   - *One matching.* A maximum-weight perfect matching (rustworkx's ``max_weight_matching``,
     compiled Rust) over *candidate tables*, with integer weights that encode the vector: each
     criterion t counts units u_t(e) per table e; with a bound B_t on its total over any
     matching of the candidate graph, multipliers M_last = 1, M_t = 1 + Σ_{t'>t} M_t'·B_t',
     weight(e) = W - Σ_t M_t·u_t(e). A matching worse at the first criterion where two differ
     loses at least M_t there and gains at most Σ_{t'>t} M_t'·B_t' < M_t below, so the
     heaviest matching is the lexicographic optimum. rustworkx weights are signed 128-bit
     integers and its duals and slacks reach a few times the largest weight, so W < 2**120.
     The bounds come from the candidate graph itself: half the number of entrants having a
     table of that kind; for boundary b, the fewer of the entrants above and below b with a
     table across b; for skips, strain and order, half the sum over entrants of their worst
     candidate table.
   - *Candidate tables.* Up to ``DENSE_LIMIT`` entrants (bye excluded): every allowed table
     (no rematch unless allowed), so the draw is the optimum over all pairings — ``"exact"``
     whenever the weights fit uncapped (the tests' nine-round events of up to 200 entrants do).
     Larger fields: every allowed table within ``_NEAR`` ranks below an entrant, then its first
     tables further down of each kind up to a quota (``_QUOTA``: clean — no clash, no severe
     seats, no strain; strain only; clash only), looking at most ``_SCAN`` ranks down (the
     other kinds: ``_SCAN_OTHER``, once the clean quota is full); plus the tables of the *seed
     pairings*. The draw is then the optimum over those tables — ``"candidates"``.
   - *Seed pairings* (Edmonds' maximum matchings, ``pairing_matching``): a maximum rematch-free
     matching with its leftover paired up is a candidate pairing; it exists whenever a
     rematch-free pairing does (guarantee 2), and every pairing has at least ``n/2 - ν``
     rematches, so the fewest rematches are always reached. When departments are protected, a
     maximum matching without rematch or clash whose leftover pairs up without rematches:
     no pairing has fewer clashes, so the fewest clashes are then reached too
     (``notes["fewest_department_clashes"]``; tried unless a department holds more than half
     of a field of over 1,000, where it is slow and clashes are certain anyway). A cascade
     avoiding severe seat tables first is a seed as well. The draw is the lexicographically
     best of the matching and the seeds, so it is never worse than any of them.
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
   - *Wide fields.* When the bounds of the candidate graph do not fit in 120 bits, the bounds
     of the same-department, severe-seat, crossing and skip criteria are capped at the largest
     C that fits (``notes["tier_cap"]``); strain and order keep their own. The matching is then
     the optimum over the candidates of every draw whose counts stay within C for each capped
     criterion — in particular it is the optimum itself whenever the optimum's counts do (the
     argument above, with B_t read as the optimum's count) — ``"capped"``.
   - *What is not proven.* A single 128-bit weight cannot hold the whole vector for wide hard
     fields: each boundary needs about log2(crossings it may carry) bits, 100–140 bits for
     1,000–5,000 pairs after ten rounds. So above ``DENSE_LIMIT`` the optimum is proven over
     the candidate tables (and, in blocks, for every criterion down to the last cut), not over
     every pairing — and a better pairing could use a table outside the candidates (the greedy
     seed was added when an 800-pair hard field showed one). The tests compare the draw with
     swiss.v1's exact engine on small fields (equal) and with its heuristic on hard fields of
     200–1,000 pairs (never worse, usually better there); that second comparison is evidence
     on the fields tried, not a theorem.
6. **Seats** follow :mod:`tournament.draw.pairing_seating`: a pair's ``|NS-EW|`` grows past 1
   only at a table where both pairs wanted the same seat (warning ``seat_imbalance``). A
   *severe seat table* has two pairs that both already sit two or more rounds more one way
   than the other (same way); they rank above score groups (4), so in practice
   ``|NS-EW| <= 2`` for every pair. Ordinary *seat strain* (the sum, over tables where both want
   the same seat, of the smaller of the two needs, capped at 8) ranks below score groups.
7. **Inside a group** (lowest priority): ``within_group="adjacent"`` pairs neighbours (1 v 2,
   3 v 4 — the usual Chinese 瑞士移位 practice), ``"slide"`` pairs top half v bottom half
   (1 v n/2+1, the chess Dutch order): the last criterion is the sum over tables of the squared
   rank distance (less half the group for ``"slide"``), capped at ``_ORDER_CAP`` per table.
8. **Reproducible.** Only ``random.Random(seed)`` is used (lots for equal rank); the same
   entrants (in the same order), options and seed give the same draw. rustworkx's matching is
   deterministic; where several matchings are equally good in every criterion, which one it
   returns is its own, so ``notes["matching"]`` records its version. Tables are numbered with
   the best-ranked table first; the bye comes last with no table.

Versions: ``swiss.v1`` (until ``swiss.v2``: exact up to 100 entrants on a hand-written blossom,
a bracket heuristic above) is kept, frozen, in ``tests/tournament/draw/reference/swiss_v1.py``;
running it with a ``swiss.v1`` round's recorded options and seed reproduces that round.

Performance (``bench/draw_bench.py``, two shared cores): round 9 of 5,000 pairs about 1 s (in
proven blocks); hard fields (ten rounds, two departments protected every round) of 1,000 pairs
about 0.5 s and of 5,000 pairs about 2–3 s — see the BENCH lines there.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from typing import Literal, NamedTuple

import rustworkx

from tournament.draw.pairing_matching import max_cardinality_matching
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

SWISS_ALGORITHM = "swiss.v2"
DENSE_LIMIT = 200
"""Up to this many entrants to pair (bye excluded), every allowed table is a candidate."""
BLOCK_SIZE = 500
"""Fields of at least twice this many are first tried in blocks of at least this many."""

WEIGHT_LIMIT = 1 << 120  # rustworkx: i128 weights; its duals and slacks reach a few times the largest

WithinGroup = Literal["adjacent", "slide"]

_NEAR = 8  # sparse candidates: every allowed table within this many ranks below …
_QUOTA = [12, 4, 3, 0]  # … then the first tables of each kind: clean, strain, clash, both …
_SCAN = 600  # … looked for at most this many ranks down (clean ones) …
_SCAN_OTHER = 64  # … or this many (the other kinds, once the clean quota is full)
_CROWDED_SEED_LIMIT = 1000  # the clash seed is skipped above this with a department over half
_MAX_SEAT_SEVERITY = 8
_ORDER_CAP = 15

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
    field = _Field.build(entrants, seed=seed, protect=round_number <= department_rounds)
    options: dict[str, OptionValue] = {
        "allow_rematches": allow_rematches,
        "department_rounds": department_rounds,
        "within_group": within_group,
    }
    solver = _Solver(field, within_group=within_group)

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
class _Field:
    """The ranked field with integer indices (0 = top) and precomputed lookups."""

    entrants: list[Entrant]
    opponents: list[set[int]]
    departments: list[frozenset[object]]
    score: list[float]
    need: list[int]
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
            need=[e.seat_need for e in ranked],
            protect=protect,
        )

    def same_department(self, a: int, b: int) -> bool:
        return self.protect and not self.departments[a].isdisjoint(self.departments[b])

    def severe(self, a: int, b: int) -> bool:
        """Both pairs already sit two or more rounds more one way than the other — the same way."""
        na, nb = self.need[a], self.need[b]
        return (na >= 2 and nb >= 2) or (na <= -2 and nb <= -2)


@dataclass(slots=True)
class _Result:
    tables: list[tuple[int, int]]  # (higher-ranked index, lower-ranked index)
    notes: dict[str, OptionValue]


class _Table(NamedTuple):
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


class _Solver:
    def __init__(self, field: _Field, *, within_group: WithinGroup) -> None:
        self.field = field
        self.within_group = within_group
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

    def _cascade(self, members: list[int], levels: list[Callable[[int, int], bool]]) -> list[tuple[int, int]] | None:
        """A maximum matching at the strictest level, what it leaves matched at the next, …

        The tables of a perfect pairing, or None if the last level leaves someone over.
        """
        mate: dict[int, int] = {}
        rest = list(members)
        for allowed in levels:
            found = self._max_matching(rest, allowed)
            mate.update(found)
            rest = [i for i in rest if i not in found]
            if not rest:
                return _complete(mate, [])
        return None

    def _max_matching(
        self, members: list[int], allowed: Callable[[int, int], bool], cost: Callable[[int, int], int] | None = None
    ) -> dict[int, int]:
        """A maximum matching of ``members`` under ``allowed``: greedy in rank order, then Edmonds.

        The greedy pairs each entrant with the next allowed one still free (a linked list of the
        free ones, at most ``_SCAN`` looked at) — with ``cost``, the first of the lowest cost
        seen, stopping at cost 0; Edmonds' search then covers what it can of the rest and
        proves the remainder cannot be covered.
        """
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
            while j < n and looked < _SCAN:
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
        unmatched = [i for i in members if i not in mate]
        if len(unmatched) > 1:

            def neighbours(v: int) -> Iterator[int]:
                return (u for u in members if u != v and allowed(v, u))

            max_cardinality_matching(members, neighbours, mate, roots=unmatched)
        return mate

    def pairable(self, members: list[int]) -> bool:
        """Whether ``members`` can be paired without a rematch (Edmonds proves it either way)."""
        mate = self._max_matching(members, self._allowed(departments=False))
        return len(mate) == len(members)

    def _seeds(
        self, members: list[int], *, allow_rematches: bool, department_seed: bool = True
    ) -> list[list[tuple[int, int]]] | None:
        """Perfect pairings of ``members`` that the weighted matching must match or beat.

        None if ``members`` cannot be paired without a rematch and rematches are not allowed.
        """
        f = self.field
        free = self._allowed(departments=False)
        mate = self._max_matching(members, free)
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

        greedy = self._max_matching(members, free, cost)
        if len(greedy) == len(members):
            seeds.append(_complete(greedy, []))
        strained = any(abs(f.need[i]) >= 2 for i in members)
        if f.protect and department_seed:
            counts: Counter[object] = Counter(d for i in members for d in f.departments[i])
            crowded = any(2 * c > len(members) for c in counts.values())
            if not crowded or len(members) <= _CROWDED_SEED_LIMIT:
                # Every pairing has at least n/2 - ν(no rematch, no clash) clashes: this one
                # has no more when its leftover pairs up without rematches.
                clean = self._cascade(members, [self._allowed(departments=True), free])
                if clean is not None:
                    seeds.append(clean)
                    self._fewest_clashes = True
                if strained:
                    levels = [self._allowed(departments=True, seats=True), self._allowed(departments=True), free]
                    seat_clean = self._cascade(members, levels)
                    if seat_clean is not None:
                        seeds.append(seat_clean)
        elif strained:
            seat_clean = self._cascade(members, [self._allowed(departments=False, seats=True), free])
            if seat_clean is not None:
                seeds.append(seat_clean)
        return seeds

    # -- candidates and weights ---------------------------------------------------------------
    def pair(self, members: list[int], *, allow_rematches: bool) -> _Result | None:
        """Pair the ranked ``members`` (even count) or return None if no valid pairing exists."""
        result: _Result | None = None
        if not allow_rematches and len(members) >= 2 * BLOCK_SIZE:
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
        clashes_proven = value[1] == 0 or bool(result.notes.get("fewest_department_clashes"))
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

    def _pair_whole(
        self, members: list[int], *, allow_rematches: bool, department_seed: bool = True
    ) -> _Result | None:
        if not members:
            return _Result(tables=[], notes={"optimality": "exact", "groups": 0})
        seeds = self._seeds(members, allow_rematches=allow_rematches, department_seed=department_seed)
        if seeds is None:
            return None
        position = {i: p for p, i in enumerate(members)}
        groups = _group_numbers(self.field, members)
        self._sizes = Counter(groups)
        self._groups = groups
        pairs = self._candidate_pairs(members, allow_rematches=allow_rematches)
        for seed in seeds:
            for a, b in seed:
                p, q = sorted((position[a], position[b]))
                pairs.add((p, q))
        tables = [self._table(members, groups, p, q) for p, q in sorted(pairs)]
        chosen, notes = self._solve(members, groups, tables, allow_rematches=allow_rematches)
        best = chosen
        best_value = self.vector(members, groups, chosen)
        for seed in seeds:
            value = self.vector(members, groups, seed)
            if value < best_value:
                best, best_value = seed, value
                notes["seed_won"] = True
        notes["groups"] = max(groups) + 1
        if self._fewest_clashes:
            notes["fewest_department_clashes"] = True
        return _Result(tables=[(a, b) if a < b else (b, a) for a, b in best], notes=notes)

    def _candidate_pairs(self, members: list[int], *, allow_rematches: bool) -> set[tuple[int, int]]:
        """Candidate tables as position pairs ``(p, q)``, ``p < q`` (module docstring, 5).

        Dense up to ``DENSE_LIMIT``. Above: from each entrant down the ranking, every allowed
        table within ``_NEAR`` ranks, then the first tables of each kind up to its quota
        (``_QUOTA``: clean; seat strain only; department clash only), at most ``_SCAN`` ranks
        down for clean ones and ``_SCAN_OTHER`` for the others. A table found from its upper
        side is also a candidate of its lower side, so every entrant has partners above and below.
        """
        f = self.field
        n = len(members)
        pairs: set[tuple[int, int]] = set()
        if n <= DENSE_LIMIT:
            for p, a in enumerate(members):
                opponents = f.opponents[a]
                pairs.update((p, q) for q in range(p + 1, n) if allow_rematches or members[q] not in opponents)
            return pairs
        protect, need, departments = f.protect, f.need, f.departments
        quota = _QUOTA if protect else [*_QUOTA[:2], 0, 0]
        for p, a in enumerate(members):
            opponents, na, da = f.opponents[a], need[a], departments[a]
            taken = [0, 0, 0, 0]  # by kind: clean, strain, clash, both
            for q in range(p + 1, min(n, p + 1 + _SCAN)):
                b = members[q]
                rematch = b in opponents
                if rematch and not allow_rematches:
                    continue
                if q - p <= _NEAR:
                    pairs.add((p, q))
                    continue
                nb = need[b]
                strained = rematch or (na > 0 and nb > 0) or (na < 0 and nb < 0)
                kind = strained + 2 * (protect and not da.isdisjoint(departments[b]))
                if taken[kind] < quota[kind]:
                    taken[kind] += 1
                    pairs.add((p, q))
                    if taken == quota:
                        break
                if taken[0] >= quota[0] and q - p > _SCAN_OTHER:
                    break
        return pairs

    def _table(self, members: list[int], groups: list[int], p: int, q: int) -> _Table:
        f = self.field
        a, b = members[p], members[q]
        ga, gb = groups[p], groups[q]
        distance = q - p
        if self.within_group == "slide" and ga == gb:
            distance -= self._sizes[ga] // 2
        # Seat strain as pairing_seating.seat_conflict counts it (inlined: this runs per candidate).
        na, nb = f.need[a], f.need[b]
        same_way = (na > 0 and nb > 0) or (na < 0 and nb < 0)
        return _Table(
            p,
            q,
            b in f.opponents[a],
            f.protect and not f.departments[a].isdisjoint(f.departments[b]),
            same_way and min(abs(na), abs(nb)) >= 2,
            ga,
            gb,
            max(gb - ga - 1, 0),
            min(abs(na), abs(nb), _MAX_SEAT_SEVERITY) if same_way else 0,
            min(distance * distance, _ORDER_CAP),
        )

    def vector(self, members: list[int], groups: list[int], tables: Sequence[tuple[int, int]]) -> Vector:
        """The criteria vector of a pairing of ``members`` (module docstring, 4 and 7)."""
        position = {i: p for p, i in enumerate(members)}
        m = max(groups) + 1 if groups else 0
        crossings = [0] * max(m - 1, 0)
        rematches = departments = severe = skips = strain = order = 0
        for x, y in tables:
            p, q = sorted((position[x], position[y]))
            t = self._table(members, groups, p, q)
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
        self, members: list[int], groups: list[int], tables: list[_Table], *, allow_rematches: bool
    ) -> tuple[list[tuple[int, int]], dict[str, OptionValue]]:
        n = len(members)
        m = max(groups) + 1
        layout = _Layout.of(n, m, tables, rematches=allow_rematches, departments=self.field.protect)
        cap: int | None = None
        if layout.max_penalty(None) >= WEIGHT_LIMIT:
            low, high = 1, max(layout.bounds)
            while low < high:  # the largest cap that fits
                mid = (low + high + 1) // 2
                if layout.max_penalty(mid) < WEIGHT_LIMIT:
                    low = mid
                else:
                    high = mid - 1
            cap = low
            if layout.max_penalty(cap) >= WEIGHT_LIMIT:  # pragma: no cover - 2**120 holds far more
                raise DrawBug("the Swiss criteria do not fit in a 128-bit weight")
        multipliers = layout.multipliers(cap)
        top = layout.max_penalty(cap) + 1
        graph: rustworkx.PyGraph[int, int] = rustworkx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(n))
        penalties = layout.penalties(tables, multipliers)
        graph.add_edges_from([(t.p, t.q, top - cost) for t, cost in zip(tables, penalties, strict=True)])
        matching = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        if 2 * len(matching) != n:  # pragma: no cover - the seeds are perfect pairings in the graph
            raise DrawBug("the weighted matching is not perfect")
        chosen = [(members[min(u, v)], members[max(u, v)]) for u, v in matching]
        notes: dict[str, OptionValue] = {
            "optimality": ("exact" if n <= DENSE_LIMIT else "candidates") if cap is None else "capped",
            "candidates": len(tables),
            "matching": f"rustworkx {version('rustworkx')}",
        }
        if cap is not None:
            notes["tier_cap"] = cap
        return chosen, notes


def _complete(mate: dict[int, int], leftover: list[int]) -> list[tuple[int, int]]:
    """The tables of ``mate`` plus ``leftover`` paired in order (a perfect pairing)."""
    tables = [(a, b) for a, b in mate.items() if a < b]
    tables += [(leftover[k], leftover[k + 1]) for k in range(0, len(leftover), 2)]
    return tables


def _group_numbers(field: _Field, members: list[int]) -> list[int]:
    """Score group (0 = top) of each ranked member, by position."""
    out: list[int] = []
    for k, i in enumerate(members):
        if k == 0:
            out.append(0)
        else:
            out.append(out[-1] + (field.score[i] != field.score[members[k - 1]]))
    return out


@dataclass(slots=True)
class _Layout:
    """The criteria as weight tiers (top first), with each tier's bound over any matching.

    Tiers: rematches (only when allowed), departments (only when protected), severe seats,
    one per boundary, skips, strain, order. ``cappable[t]`` marks the tiers whose bound may be
    capped (module docstring, 5 "wide fields").
    """

    bounds: list[int]
    per_table_max: list[int]
    cappable: list[bool]
    first_boundary: int
    boundaries: int
    has_rematch: bool
    has_department: bool

    @classmethod
    def of(cls, n: int, m: int, tables: list[_Table], *, rematches: bool, departments: bool) -> _Layout:
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
        cappable: list[bool] = []
        if rematches:
            bounds.append(len(touched_rematch) // 2)
            per_table.append(1)
            cappable.append(False)
        if departments:
            bounds.append(len(touched_department) // 2)
            per_table.append(1)
            cappable.append(True)
        bounds.append(len(touched_severe) // 2)
        per_table.append(1)
        cappable.append(True)
        first_boundary = len(bounds)
        bounds += crossing
        per_table += [1] * boundaries
        cappable += [True] * boundaries
        bounds += [sum(worst_skip) // 2, sum(worst_strain) // 2, sum(worst_order) // 2]
        per_table += [max((t.skip for t in tables), default=0), _MAX_SEAT_SEVERITY, _ORDER_CAP]
        cappable += [True, False, False]
        return cls(
            bounds=bounds,
            per_table_max=per_table,
            cappable=cappable,
            first_boundary=first_boundary,
            boundaries=boundaries,
            has_rematch=rematches,
            has_department=departments,
        )

    def multipliers(self, cap: int | None) -> list[int]:
        out = [0] * len(self.bounds)
        below = 0  # Σ over lower tiers of multiplier × bound
        for t in reversed(range(len(self.bounds))):
            out[t] = below + 1
            bound = self.bounds[t]
            if cap is not None and self.cappable[t]:
                bound = min(bound, cap)
            below += out[t] * bound
        return out

    def max_penalty(self, cap: int | None) -> int:
        multipliers = self.multipliers(cap)
        # A table crosses several boundaries: charge it every boundary multiplier (an upper bound).
        crossing = sum(multipliers[self.first_boundary : self.first_boundary + self.boundaries])
        rest = [most for t, most in enumerate(self.per_table_max) if not self._is_boundary(t)]
        others = [mult for t, mult in enumerate(multipliers) if not self._is_boundary(t)]
        return crossing + sum(mult * most for mult, most in zip(others, rest, strict=True))

    def _is_boundary(self, t: int) -> bool:
        return self.first_boundary <= t < self.first_boundary + self.boundaries

    def penalties(self, tables: list[_Table], multipliers: list[int]) -> list[int]:
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
