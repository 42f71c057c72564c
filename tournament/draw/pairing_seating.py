"""Seats, table numbers and referees — shared by every draw.

Seats (docs/rules.md §4 "Seating": one pair N/S, the other E/W). A pair's *seat need* is
``seats_ew - seats_ns``: positive wants N/S, negative wants E/W. At each table the pair with the
greater need sits N/S; on equal need the pair that last sat E/W (or has not sat yet, over one
that last sat N/S) sits N/S; then the higher-ranked pair. Consequence, tested: a pair's
``|NS - EW|`` only grows past 1 at a table where both pairs wanted the same seat and the
opponent's need was at least as great — i.e. where the table could not satisfy both.

Tables are numbered with the top-ranked matches first (table 1 = the best-ranked pairing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

from tournament.draw.pairing_types import DrawError, DrawWarning, Entrant, EntrantId, Seat

__all__ = [
    "Referee",
    "SeatRefereeAssignment",
    "TableArea",
    "referees_assign",
    "seat_conflict",
    "seat_pair",
    "tables_in_rank_order",
]

_LAST_SEAT_ORDER: dict[Seat | None, int] = {"EW": 2, None: 1, "NS": 0}


def seat_pair(first: Entrant, second: Entrant) -> tuple[Entrant, Entrant, tuple[DrawWarning, ...]]:
    """Decide who sits N/S: returns ``(ns, ew, warnings)``. ``first`` is the higher-ranked pair.

    A ``seat_imbalance`` warning names a pair pushed to ``|NS - EW| >= 2`` by this table.
    """
    key_first = (first.seat_need, _LAST_SEAT_ORDER[first.last_seat])
    key_second = (second.seat_need, _LAST_SEAT_ORDER[second.last_seat])
    ns, ew = (second, first) if key_second > key_first else (first, second)
    warnings: list[DrawWarning] = []
    # Only a pair pushed the wrong way can end at 2 or more: ns with need <= -1, ew with need >= 1.
    if ns.seat_need < 0:
        warnings.append(DrawWarning.of("seat_imbalance", ns.id))
    if ew.seat_need > 0:
        warnings.append(DrawWarning.of("seat_imbalance", ew.id))
    return ns, ew, tuple(warnings)


def seat_conflict(a: Entrant, b: Entrant) -> int:
    """How badly a table of ``a`` and ``b`` strains seat balance: 0 if both can be satisfied.

    Otherwise the imbalance the losing pair ends with minus one (1 for a pair going to 2, …).
    """
    na, nb = a.seat_need, b.seat_need
    if (na > 0 and nb > 0) or (na < 0 and nb < 0):
        return min(abs(na), abs(nb))
    return 0


# -- referees -------------------------------------------------------------------------------

RefereeId: TypeAlias = int | str


@dataclass(frozen=True, slots=True)
class Referee:
    """A referee (裁判) and, optionally, the area (赛区/楼层) they cover and a personal limit."""

    id: RefereeId
    area: str | None = None
    max_tables: int | None = None


@dataclass(frozen=True, slots=True)
class TableArea:
    """A table number and the area it stands in (``None`` when the venue has no areas)."""

    table: int
    area: str | None = None


@dataclass(frozen=True, slots=True)
class SeatRefereeAssignment:
    table: int
    referee: RefereeId | None
    warnings: tuple[DrawWarning, ...] = ()


def referees_assign(
    *,
    tables: Sequence[TableArea | int],
    referees: Sequence[Referee],
    tables_per_referee: int,
    by_area: bool = False,
) -> tuple[SeatRefereeAssignment, ...]:
    """Assign referees to tables, each referee at most ``tables_per_referee`` (and ``max_tables``).

    Tables go in runs of consecutive numbers (a referee walks less) and as evenly as the limits
    allow (loads differ by at most one unless a limit binds). With ``by_area`` a table is first
    served by referees of its own area, in the order given; tables left over then go to any
    referee with room (warning ``referee_outside_area``), and a table nobody can take gets
    ``referee=None`` with a ``table_without_referee`` warning. Deterministic (no randomness).
    """
    if tables_per_referee < 1:
        raise DrawError(
            "invalid_option",
            "Each referee must be allowed at least one table.",
            "每位裁判至少负责一张桌。",
        )
    slots = sorted((t if isinstance(t, TableArea) else TableArea(t) for t in tables), key=lambda t: t.table)
    numbers = [t.table for t in slots]
    if len(set(numbers)) != len(numbers):
        raise DrawError("duplicate_table", "A table number appears twice.", "桌号重复。")
    ids = [r.id for r in referees]
    if len(set(ids)) != len(ids):
        raise DrawError("duplicate_referee", "A referee appears twice.", "裁判重复。")
    room = {
        r.id: min(tables_per_referee, r.max_tables if r.max_tables is not None else tables_per_referee)
        for r in referees
    }
    result: dict[int, tuple[RefereeId | None, tuple[DrawWarning, ...]]] = {}

    def fill(pool_tables: list[TableArea], pool_refs: list[Referee], warn: str | None) -> list[TableArea]:
        quotas = _even_quotas(len(pool_tables), [room[r.id] for r in pool_refs])
        position = 0
        for referee, quota in zip(pool_refs, quotas, strict=True):
            for slot in pool_tables[position : position + quota]:
                warnings = (DrawWarning.of(warn, table=slot.table),) if warn else ()
                result[slot.table] = (referee.id, warnings)
            room[referee.id] -= quota
            position += quota
        return pool_tables[position:]

    leftover: list[TableArea] = []
    if by_area:
        areas: list[str | None] = []
        for slot in slots:
            if slot.area not in areas:
                areas.append(slot.area)
        for area in areas:
            area_tables = [s for s in slots if s.area == area]
            area_refs = [r for r in referees if r.area == area and room[r.id] > 0]
            leftover.extend(fill(area_tables, area_refs, None))
        leftover.sort(key=lambda s: s.table)
        leftover = fill(leftover, [r for r in referees if room[r.id] > 0], "referee_outside_area")
    else:
        leftover = fill(slots, [r for r in referees if room[r.id] > 0], None)
    for slot in leftover:
        result[slot.table] = (None, (DrawWarning.of("table_without_referee", table=slot.table),))
    return tuple(SeatRefereeAssignment(table=n, referee=result[n][0], warnings=result[n][1]) for n in numbers)


def _even_quotas(count: int, capacities: Sequence[int]) -> list[int]:
    """Split ``count`` items over bins with ``capacities`` as evenly as possible, in order."""
    quotas = [0] * len(capacities)
    remaining = count
    while remaining > 0:
        progressed = False
        for i, cap in enumerate(capacities):
            if remaining > 0 and quotas[i] < cap:
                quotas[i] += 1
                remaining -= 1
                progressed = True
        if not progressed:
            break
    return quotas


def tables_in_rank_order(
    keyed: Sequence[tuple[tuple[float, ...], EntrantId, EntrantId | None]],
) -> list[tuple[int | None, EntrantId, EntrantId | None]]:
    """Number matches 1, 2, … by ascending key (best-ranked first); byes get no table, come last."""
    matches = sorted((k, i) for i, (k, _ns, ew) in enumerate(keyed) if ew is not None)
    out: list[tuple[int | None, EntrantId, EntrantId | None]] = []
    for table, (_k, i) in enumerate(matches, start=1):
        out.append((table, keyed[i][1], keyed[i][2]))
    out.extend((None, ns, ew) for _k, ns, ew in keyed if ew is None)
    return out
