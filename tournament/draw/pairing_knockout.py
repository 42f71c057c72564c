"""Knockout (淘汰赛) — docs/rules.md §4, seeds 003 and 004.

Two ways to run a knockout:

**Fixed bracket** (:func:`knockout_bracket`, then :func:`knockout_round` each round). The bracket
has ``size`` = the next power of two ≥ the number of pairs; positions follow the standard
seeding order (1 v size, 2 v size-1, … arranged so that seeds 1 and 2 can only meet in the
final, 1–4 only in the semi-finals, and so on). The ``size - n`` byes (轮空) go to the top
seeds, so no first-round match is bye v bye. ``seeding="seeds"`` uses the organiser's seeds
(``Entrant.seed``; unseeded pairs fill the remaining numbers by lot), ``seeding="random"``
draws every number by lot. With department protection the lot is adjusted so that first-round
opponents share no department when a swap of unseeded pairs allows it. Winners advance: given
the winners so far, :func:`knockout_round` returns the round to play next (byes and walkovers
are decided without a table); the champion is the stage's bracket state's
(``tournament.standings.selectors.stage_bracket_state_get``, through ``scoring.bracket``). An
optional third-place match (``third_place=True``) is played in the final round between the
losing semi-finalists; its winner is recorded under ``(final_round, 2)``.

**Re-draw each round** (seed 004: 每轮比赛结束后重新抽签决定下轮对手, :func:`knockout_redraw`):
the pairs still in are drawn at random; with an odd count one pair gets a bye and goes straight
into the next round's draw (差额小组自动轮空进入下轮抽签) — preferably a pair that has not had
one yet. A pair whose partner does not turn up forfeits as a pair: mark it withdrawn.

All randomness comes from ``random.Random(seed)``: the same inputs and seed give the same draw.
How departments are kept apart, and what changed between the versions ``knockout.bracket.v1`` /
``.v2`` and ``knockout.redraw.v1`` / ``.v2``: docs/knockout-draw.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import rustworkx

from scoring.bracket import BracketMismatch, MatchRef, fixed_bracket_state
from tournament.draw.pairing_seating import seat_pair
from tournament.draw.pairing_types import (
    DepartmentId,
    Draw,
    DrawError,
    DrawWarning,
    Entrant,
    EntrantId,
    OptionValue,
    Pairing,
)

__all__ = [
    "KNOCKOUT_ALGORITHM",
    "REDRAW_ALGORITHM",
    "KnockoutBracket",
    "MatchRef",
    "Seeding",
    "knockout_bracket",
    "knockout_redraw",
    "knockout_round",
    "seeding_order",
]

KNOCKOUT_ALGORITHM = "knockout.bracket.v2"
REDRAW_ALGORITHM = "knockout.redraw.v2"
_FIRST_BRACKET_ALGORITHM = "knockout.bracket.v1"  # a stored bracket without an algorithm predates v2

Seeding = Literal["seeds", "random"]


def seeding_order(size: int) -> list[int]:
    """Seed numbers by bracket position for a power-of-two ``size``: 8 → [1, 8, 4, 5, 2, 7, 3, 6].

    Position pairs (0, 1), (2, 3), … are the first-round matches; seed s meets seed size+1-s.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


@dataclass(frozen=True, slots=True)
class KnockoutBracket:
    """A fixed bracket: round-1 positions (``None`` = bye) and who holds which seed number."""

    size: int
    slots: tuple[EntrantId | None, ...]
    seeds: tuple[EntrantId, ...]
    third_place: bool
    seed: int
    options: dict[str, OptionValue]
    departments: dict[EntrantId, frozenset[DepartmentId]]
    department_rounds: int = 0
    warnings: tuple[DrawWarning, ...] = ()
    algorithm: str = KNOCKOUT_ALGORITHM

    @property
    def rounds(self) -> int:
        return self.size.bit_length() - 1

    def seed_number(self, entrant: EntrantId) -> int:
        return self.seeds.index(entrant) + 1

    def matches_in_round(self, round_number: int) -> int:
        return self.size >> round_number

    def as_record(self) -> dict[str, OptionValue]:
        return {
            "algorithm": self.algorithm,
            "seed": self.seed,
            "options": dict(self.options),
            "size": self.size,
            "slots": list(self.slots),
            "seeds": list(self.seeds),
            "third_place": self.third_place,
            "warnings": [w.as_record() for w in self.warnings],
        }

    @classmethod
    def from_record(
        cls,
        record: Mapping[str, OptionValue],
        *,
        departments: Mapping[EntrantId, Collection[DepartmentId]] | None = None,
    ) -> KnockoutBracket:
        """Rebuild a bracket from :meth:`as_record` (e.g. as stored with a knockout stage).

        Departments are not part of the record (players may change department); pass them to
        get ``same_department`` warnings in the rounds ``<= department_rounds`` — an entrant
        missing from ``departments`` has none. Raises :class:`DrawError` ``invalid_bracket``
        when the record is not a consistent bracket (wrong size, an entrant twice, seeds that
        do not match the slots).
        """

        def invalid(why: str) -> DrawError:
            return DrawError("invalid_bracket", f"The stored bracket is broken: {why}.", "保存的签表已损坏。")

        size, seed, slots_value, seeds_value = (record.get(k) for k in ("size", "seed", "slots", "seeds"))
        if not isinstance(size, int) or size < 2 or size & (size - 1):
            raise invalid("size")
        if not isinstance(seed, int) or not isinstance(slots_value, list) or not isinstance(seeds_value, list):
            raise invalid("fields")
        slots: list[EntrantId | None] = []
        for value in slots_value:
            if value is not None and (isinstance(value, bool) or not isinstance(value, int | str)):
                raise invalid("slot")
            slots.append(value)
        seeds: list[EntrantId] = []
        for value in seeds_value:
            if not isinstance(value, int | str) or isinstance(value, bool):
                raise invalid("seed list")
            seeds.append(value)
        if len(slots) != size or len(set(seeds)) != len(seeds):
            raise invalid("slots")
        # Seed number k is the entrant at the position the standard order gives number k.
        numbers = zip(seeding_order(size), slots, strict=True)
        placed = {number: entrant for number, entrant in numbers if entrant is not None}
        if placed != dict(enumerate(seeds, start=1)):
            raise invalid("slots and seeds")
        options_value = record.get("options")
        options: dict[str, OptionValue] = dict(options_value) if isinstance(options_value, dict) else {}
        department_rounds = options.get("department_rounds", 0)
        if not isinstance(department_rounds, int):
            raise invalid("department_rounds")
        algorithm = record.get("algorithm", _FIRST_BRACKET_ALGORITHM)
        given = departments or {}
        warnings: list[DrawWarning] = []
        warnings_value = record.get("warnings")
        for w in warnings_value if isinstance(warnings_value, list) else []:
            if not isinstance(w, dict) or not isinstance(w.get("code"), str):
                raise invalid("warning")
            listed = w.get("entrants")
            entrants = tuple(e for e in (listed if isinstance(listed, list) else []) if isinstance(e, int | str))
            table = w.get("table")
            warnings.append(
                DrawWarning(
                    code=str(w["code"]),
                    entrants=entrants,
                    table=table if isinstance(table, int) else None,
                    message_en=str(w.get("message_en", "")),
                    message_zh=str(w.get("message_zh", "")),
                )
            )
        return cls(
            size=size,
            slots=tuple(slots),
            seeds=tuple(seeds),
            third_place=bool(record.get("third_place", False)),
            seed=seed,
            options=options,
            departments={e: frozenset(given.get(e, ())) for e in seeds} if department_rounds >= 1 else {},
            department_rounds=department_rounds,
            warnings=tuple(warnings),
            algorithm=algorithm if isinstance(algorithm, str) else _FIRST_BRACKET_ALGORITHM,
        )

    def __repr__(self) -> str:
        firsts = ", ".join(f"{self.slots[k]!r}-{self.slots[k + 1]!r}" for k in range(0, min(self.size, 8), 2))
        return f"<KnockoutBracket size={self.size} {firsts}{', …' if self.size > 8 else ''}>"


def knockout_bracket(
    *,
    entrants: Sequence[Entrant],
    seed: int,
    seeding: Seeding = "seeds",
    third_place: bool = False,
    department_rounds: int = 0,
) -> KnockoutBracket:
    """Draw a fixed knockout bracket. Withdrawn entrants are left out.

    Raises :class:`DrawError` ``too_few_entrants``, ``duplicate_entrant``, ``duplicate_seed``,
    ``invalid_option``.
    """
    if seeding not in ("seeds", "random"):
        raise DrawError("invalid_option", f"Unknown seeding {seeding!r}.", "未知的种子排位方式。")
    active = _active(entrants)
    rng = random.Random(seed)
    if seeding == "seeds":
        seeded = [e for e in active if e.seed is not None]
        numbers = [e.seed for e in seeded]
        if len(set(numbers)) != len(numbers):
            raise DrawError("duplicate_seed", "Two pairs have the same seed.", "两对的种子号相同。")
        seeded.sort(key=lambda e: e.seed if e.seed is not None else 0)
        unseeded = [e for e in active if e.seed is None]
        rng.shuffle(unseeded)
        order = seeded + unseeded
        movable = {e.id for e in unseeded}
    else:
        order = list(active)
        rng.shuffle(order)
        movable = {e.id for e in order}
    n = len(order)
    size = 1 << (n - 1).bit_length()
    positions = seeding_order(size)
    slots: list[EntrantId | None] = [order[s - 1].id if s <= n else None for s in positions]
    protect = department_rounds >= 1
    departments = {e.id: frozenset(e.departments) for e in active} if protect else {}
    if protect:
        _separate_departments(slots, departments, movable)
    number_of = {entrant: positions[p] for p, entrant in enumerate(slots) if entrant is not None}
    by_number = tuple(sorted(number_of, key=number_of.__getitem__))
    warnings: list[DrawWarning] = []
    for k in range(0, size, 2):
        a, b = slots[k], slots[k + 1]
        if a is not None and b is not None and protect and not departments[a].isdisjoint(departments[b]):
            warnings.append(DrawWarning.of("same_department", a, b))
    return KnockoutBracket(
        size=size,
        slots=tuple(slots),
        seeds=by_number,
        third_place=third_place,
        seed=seed,
        options={"seeding": seeding, "third_place": third_place, "department_rounds": department_rounds},
        departments=departments,
        department_rounds=department_rounds,
        warnings=tuple(warnings),
    )


def _active(entrants: Sequence[Entrant]) -> list[Entrant]:
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise DrawError("duplicate_entrant", "A pair appears twice in the draw.", "同一对在抽签名单中出现两次。")
    active = [e for e in entrants if not e.withdrawn]
    if len(active) < 2:
        raise DrawError("too_few_entrants", "At least two pairs are needed.", "至少需要两对参赛。")
    return active


def _separate_departments(
    slots: list[EntrantId | None],
    departments: Mapping[EntrantId, frozenset[DepartmentId]],
    movable: set[EntrantId],
) -> None:
    """Rearrange first-round opponents so that as few as possible share a department.

    Only ``movable`` entrants (not placed by an organiser seed) move, and byes stay where the
    seeding put them. When every entrant in a first-round match is movable (a random draw),
    the opponents are re-paired with a maximum matching of the "no shared department" graph,
    so a clash remains only if no pairing of those entrants avoids it. Otherwise swaps of two
    movable entrants are made while one removes a clash without creating one, so a remaining
    clash cannot be removed by any single such swap.
    """

    def clash(x: EntrantId | None, y: EntrantId | None) -> bool:
        return x is not None and y is not None and not departments[x].isdisjoint(departments[y])

    size = len(slots)
    real = [k for k in range(0, size, 2) if slots[k] is not None and slots[k + 1] is not None]
    players = [slots[p] for k in real for p in (k, k + 1)]
    if all(x in movable for x in players):
        ids = [x for x in players if x is not None]
        found = _pairs_apart(len(ids), lambda i, j: not clash(ids[i], ids[j]))
        tables = [(ids[i], ids[j]) for i, j in found]
        for k, (a, b) in zip(real, tables, strict=True):
            slots[k], slots[k + 1] = a, b
        return

    swapped = True
    while swapped:  # each swap removes a clash and creates none, so this ends
        swapped = False
        for k in real:
            if not clash(slots[k], slots[k + 1]):
                continue
            for mine in (k + 1, k):
                if slots[mine] not in movable:
                    continue
                partner = slots[mine ^ 1]
                for other in range(size):
                    if other // 2 == k // 2 or slots[other] not in movable or slots[other ^ 1] is None:
                        continue
                    if not clash(partner, slots[other]) and not clash(slots[other ^ 1], slots[mine]):
                        slots[mine], slots[other] = slots[other], slots[mine]
                        swapped = True
                        break
                if swapped:
                    break


def knockout_round(
    *,
    bracket: KnockoutBracket,
    winners: Mapping[MatchRef, EntrantId | None],
    withdrawn: Collection[EntrantId] = (),
) -> Draw:
    """The round to play next: the first round with an undecided match, all its sides known.

    The bracket's state is the rules core's (:func:`scoring.bracket.fixed_bracket_state`, which
    says how byes, walkovers, matches lost by both and the third-place match are decided).
    ``winners`` maps ``(round, bracket_match)`` to the winning pair for every match confirmed so
    far (a winner may also be given for a bye; it must be the pair that advanced), or to ``None``
    for a match lost by both (a double forfeit, docs/rules.md §7): nobody advances from it, so the
    pair it would have met next advances without playing. A pair in
    ``withdrawn`` that has not yet played its match loses it by walkover. The draw lists the
    round's matches with tables (top seed's match first; in the final round the final is table
    1 and the third-place match table 2) and, without a table, the pairs that advance without
    playing (bye or walkover); a walkover is also listed in ``notes["walkovers"]`` (the pair that
    goes on → the withdrawn pair it was due to meet), as the other draws list theirs. Raises
    :class:`DrawError` ``bracket_complete`` once the champion (and third place) are decided, and
    ``winner_not_in_match`` / ``round_not_ready`` / ``unknown_match`` for results that do not fit
    the bracket.
    """
    try:
        state = fixed_bracket_state(
            slots=bracket.slots,
            seeds=bracket.seeds,
            third_place=bracket.third_place,
            winners=winners,
            withdrawn=withdrawn,
        )
    except BracketMismatch as error:
        raise DrawError(
            error.reason, error.message, error.message_zh, details={"round": error.ref[0], "match": error.ref[1]}
        ) from error
    current = state.current_round
    if current is None:
        raise DrawError("bracket_complete", "Every match of this bracket is decided.", "该签表的比赛已全部结束。")
    keyed: list[tuple[tuple[int, int], Pairing]] = []
    walkovers: dict[str, OptionValue] = {}
    for (r, j), match in sorted(state.matches.items()):
        if r != current:
            continue
        if match.played or not match.decided:
            ns, ew = match.ns, match.ew
            assert ns is not None and ew is not None
            warnings: tuple[DrawWarning, ...] = ()
            if r <= bracket.department_rounds and not bracket.departments[ns].isdisjoint(bracket.departments[ew]):
                warnings = (DrawWarning.of("same_department", ns, ew),)
            key = (1 if match.third_place else 0, min(bracket.seed_number(ns), bracket.seed_number(ew)))
            keyed.append((key, Pairing(None, ns, ew, warnings, bracket_match=j, third_place=match.third_place)))
        elif match.advances is not None:
            warnings = (DrawWarning.of("walkover", match.advances),) if match.walkover else ()
            if match.walkover:  # a forfeit win over the withdrawn pair, not a bye (docs/rules.md §4, §5)
                absent = match.ew if match.ns == match.advances else match.ns
                walkovers[str(match.advances)] = absent
            pairing = Pairing(None, match.advances, None, warnings, bracket_match=j, third_place=match.third_place)
            keyed.append(((2, j), pairing))
    keyed.sort(key=lambda kp: kp[0])
    pairings: list[Pairing] = []
    table = 0
    for _key, p in keyed:
        if p.ew is not None:
            table += 1
            p = Pairing(table, p.ns, p.ew, _at_table(p.warnings, table), p.bracket_match, p.third_place)
        pairings.append(p)
    return Draw(
        algorithm=bracket.algorithm,
        round_number=current,
        seed=bracket.seed,
        options=dict(bracket.options),
        pairings=tuple(pairings),
        notes={
            "bracket_size": bracket.size,
            "rounds": bracket.rounds,
            **({"walkovers": walkovers} if walkovers else {}),
        },
    )


def _at_table(warnings: tuple[DrawWarning, ...], table: int) -> tuple[DrawWarning, ...]:
    return tuple(DrawWarning(w.code, w.entrants, table, w.message_en, w.message_zh) for w in warnings)


def knockout_redraw(
    *,
    entrants: Sequence[Entrant],
    round_number: int,
    seed: int,
    department_rounds: int = 0,
    third_place: tuple[Entrant, Entrant] | None = None,
) -> Draw:
    """Draw one knockout round afresh among the pairs still in (seed 004).

    ``entrants`` are the pairs still in the event (winners of the last round plus the pair that
    had the bye); withdrawn ones are left out. With an odd count one pair gets the bye — drawn
    by lot among those with ``byes == 0`` (if everyone has had one, among all, with a
    ``repeat_bye`` warning). The others are paired by lot; in rounds ``<= department_rounds``
    the lot avoids two pairs of one department at a table whenever some pairing does
    (remaining clashes are warned). ``third_place``, if given, adds the play-off between the
    two losing semi-finalists (not in ``entrants``) as the last table. Seats follow the seat-balance rule; tables
    are numbered by the best ``rank`` (or ``seed``) at the table, then in the order drawn.
    """
    if round_number < 1:
        raise DrawError("invalid_option", "Rounds are numbered from 1.", "轮次从1开始编号。")
    active = _active(entrants)
    if third_place is not None and {e.id for e in third_place} & {e.id for e in active}:
        raise DrawError(
            "duplicate_entrant",
            "A pair in the third-place match is also in the main draw.",
            "三四名决赛的参赛对同时出现在主抽签中。",
        )
    rng = random.Random(seed)
    order = list(active)
    rng.shuffle(order)
    pairings_keyed: list[tuple[tuple[float, float], Pairing]] = []
    bye: Entrant | None = None
    if len(order) % 2:
        fresh = [e for e in order if e.byes == 0]
        bye = rng.choice(fresh or order)
        order.remove(bye)
    protect = round_number <= department_rounds
    tables = _draw_pairs(order, protect)
    for draw_position, (a, b) in enumerate(tables):
        ns, ew, seat_warnings = seat_pair(a, b)
        clash = protect and not a.departments.isdisjoint(b.departments)
        warnings = (DrawWarning.of("same_department", a.id, b.id),) if clash else ()
        pairings_keyed.append(
            (
                (min(_rank_key(a), _rank_key(b)), draw_position),
                Pairing(None, ns.id, ew.id, warnings + seat_warnings),
            )
        )
    if third_place is not None:
        a, b = third_place
        ns, ew, seat_warnings = seat_pair(a, b)
        pairings_keyed.append(
            ((float("inf"), float("inf")), Pairing(None, ns.id, ew.id, seat_warnings, third_place=True))
        )
    pairings_keyed.sort(key=lambda kp: kp[0])
    pairings = [
        Pairing(t, p.ns, p.ew, _at_table(p.warnings, t), third_place=p.third_place)
        for t, (_k, p) in enumerate(pairings_keyed, start=1)
    ]
    if bye is not None:
        bye_warnings = (DrawWarning.of("repeat_bye", bye.id),) if bye.byes else ()
        pairings.append(Pairing(None, bye.id, None, bye_warnings))
    return Draw(
        algorithm=REDRAW_ALGORITHM,
        round_number=round_number,
        seed=seed,
        options={"department_rounds": department_rounds, "third_place": third_place is not None},
        pairings=tuple(pairings),
        notes={"entrants": len(active)},
    )


def _rank_key(e: Entrant) -> float:
    if e.rank > 0:
        return float(e.rank)
    if e.seed is not None:
        return float(e.seed)
    return float("inf")


def _draw_pairs(order: list[Entrant], protect: bool) -> list[tuple[Entrant, Entrant]]:
    """Pair ``order`` (already shuffled) in sequence, avoiding department clashes if asked."""
    if not protect:
        return [(order[k], order[k + 1]) for k in range(0, len(order), 2)]
    found = _pairs_apart(len(order), lambda i, j: order[i].departments.isdisjoint(order[j].departments))
    return [(order[i], order[j]) for i, j in found]


def _pairs_apart(n: int, apart: Callable[[int, int], bool]) -> list[tuple[int, int]]:
    """Pair ``0 … n-1`` (``n`` even, in the order drawn) with as many tables ``apart`` as any
    pairing has, as ``(i, j)``, ``i < j``, by ``i`` (docs/knockout-draw.md).

    The lot's greedy first: each in turn with the next one still free that it may meet. If that
    leaves two or more over, a maximum matching of the allowed tables that keeps as many of the
    greedy's tables as one can (rustworkx's ``max_weight_matching``, maximum cardinality: the
    greedy's tables weigh 2, the other allowed ones 1). Those still over meet in order.
    """
    mate: dict[int, int] = {}
    for i in range(n):
        if i in mate:
            continue
        j = next((j for j in range(i + 1, n) if j not in mate and apart(i, j)), None)
        if j is not None:
            mate[i], mate[j] = j, i
    if n - len(mate) >= 2:
        graph = rustworkx.PyGraph()
        graph.add_nodes_from(range(n))
        allowed = [(i, j) for i in range(n) for j in range(i + 1, n) if apart(i, j)]
        graph.add_edges_from([(i, j, 2 if mate.get(i) == j else 1) for i, j in allowed])
        mate = {}
        for a, b in rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int):
            mate[a], mate[b] = b, a
    leftover = [i for i in range(n) if i not in mate]
    for k in range(0, len(leftover), 2):
        mate[leftover[k]], mate[leftover[k + 1]] = leftover[k + 1], leftover[k]
    return [(i, j) for i, j in sorted(mate.items()) if i < j]
