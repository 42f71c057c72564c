"""Swiss pairing (瑞士移位), docs/rules.md §4. Algorithm ``swiss.v6``.

The specification is docs/swiss-draw.md: the guarantees (numbered 1–8 and cited so here), how
the optimum is found, what is proven, the versions; tests/tournament/draw/test_pairing_swiss.py
checks each guarantee. In short: the entrants, ranked by score, then rank, then lots drawn with
the seed, are paired to minimise lexicographically the criteria vector (rematches,
same-department tables, severe seat tables, the tables crossing each score-group boundary from
the top, the groups skipped, seat strain), then the order inside groups. Up to ``DENSE_LIMIT``
entrants a draw is the optimum over every pairing; above, over the candidate tables, and proven
optimal over every pairing for the leading criteria ``notes["proven"]`` counts.

This module holds the round: the bye, the seed pairings, the blocks, the whole field's staged
matching or, at the class bound, the order improved group by group, and the draw's record. The
field and the candidates are ``pairing_swiss_candidates``; the seeds' maximum matchings
``pairing_swiss_seeds``; the lexicographic matching ``pairing_swiss_stages``; the class bound
and the class seed ``pairing_swiss_classes``; the proof ``pairing_swiss_proof``.
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
from tournament.draw.pairing_swiss_proof import criteria_proven
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
    """Pair one Swiss round. Its guarantees are docs/swiss-draw.md's.

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
        """How many leading criteria (the order excluded) are proven optimal (pairing_swiss_proof)."""
        groups = _group_numbers(self.field, members)
        self._sizes = Counter(groups)
        value = self.vector(members, groups, result.tables)
        return criteria_proven(
            self.field,
            members,
            groups,
            value,
            result.notes,
            classes=self._classes,
            bound=self._class_bound,
            class_problem=lambda: self._class_problem(members, groups, allow_rematches=False),
        )

    def _pair_in_blocks(self, members: list[int]) -> _Result | None:
        """Pair ``members`` block by block, or None unless the lower bounds prove it optimal.

        Blocks are runs of whole score groups of at least ``BLOCK_SIZE`` entrants, cut where
        the entrants above are even in number (docs/swiss-draw.md, "Blocks").
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
        pairing as a seed (docs/swiss-draw.md, "The class seed"; pairing_swiss_classes)."""
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
        improved group by group (docs/swiss-draw.md, "The order group by group"), as tables of members.

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
        """The criteria vector of a pairing of ``members`` (docs/swiss-draw.md, 4 and 7)."""
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
        """The lexicographic optimum over ``tables`` (docs/swiss-draw.md, "Staged exact matching")."""
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
