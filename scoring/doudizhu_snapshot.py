"""The stored Dou Dizhu table snapshot, read back (one typed reader per stored shape).

The web application keeps :meth:`scoring.doudizhu.DoudizhuResult.to_json` on a three-seat table's match
(``Match.state``) and each deal's :meth:`~scoring.doudizhu_deals.DoudizhuDealRecord.to_json` on its deal
row (``Deal.record``). :mod:`scoring.snapshot` reads the two-side games' snapshots; this module is the one
place that reads a three-seat table's. ``{}`` is a table never folded (drawn, not yet played).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.three_seats import THREE_SEATS, Trio, trio_json

__all__ = ["TableDealSnapshot", "TableSnapshot"]


def _trio(value: object) -> Trio | None:
    if not isinstance(value, Mapping):
        return None
    values = [value.get(seat.value) for seat in THREE_SEATS]
    if not all(item.__class__ is int for item in values):
        return None
    return (values[0], values[1], values[2])  # type: ignore[return-value]


def _seat(value: object) -> str | None:
    return value if value in ("E", "S", "W") else None


def _int(value: object) -> int | None:
    return value if value.__class__ is int else None


@dataclass(frozen=True, slots=True)
class TableDealSnapshot:
    """One deal's record: who was landlord, who won, the multiple and stake (stake scoring), the points
    per seat and the table's points after it."""

    number: int
    landlord: str
    winner: str
    multiple: int | None
    stake: int | None
    points: Trio
    points_after: Trio

    @classmethod
    def from_json(cls, record: object) -> TableDealSnapshot | None:
        """A stored record; None for ``{}`` (a flagged deal has no record) or anything unreadable."""
        if not isinstance(record, Mapping) or not record:
            return None
        number, landlord, winner = _int(record.get("number")), record.get("landlord"), record.get("winner")
        points, points_after = _trio(record.get("points")), _trio(record.get("points_after"))
        if number is None or not isinstance(landlord, str) or not isinstance(winner, str):
            return None
        if points is None or points_after is None:
            return None
        return cls(
            number, landlord, winner, _int(record.get("multiple")), _int(record.get("stake")), points, points_after
        )

    @property
    def landlord_won(self) -> bool:
        return self.winner == "landlord"

    def points_of(self, seat: str) -> int:
        return self.points[_position(seat)]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"number": self.number, "landlord": self.landlord, "winner": self.winner}
        if self.multiple is not None:
            out["multiple"], out["stake"] = self.multiple, self.stake
        out["points"] = trio_json(self.points)
        out["points_after"] = trio_json(self.points_after)
        return out


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """A stored ``DoudizhuResult.to_json()``: ``status`` (``in_progress`` / ``finished``), the points per
    seat, the deals, the adjustments' records, the seats that forfeited, the next deal's number."""

    folded: bool
    status: str | None = None
    points: Trio = (0, 0, 0)
    deals: tuple[TableDealSnapshot, ...] = ()
    adjustments: tuple[dict[str, Any], ...] = ()
    forfeited: tuple[str, ...] = ()
    disqualified: tuple[str, ...] = ()
    """The seats the chief referee disqualified (docs/rules.md §7)."""
    next_deal: int | None = 1
    next_landlord: str | None = None
    """Whose turn it is to be landlord in the next deal when the rules say (landlords drawn by lot and
    passed on in turn, docs/rules.md §10); None when the bid or the lot at the table decides."""
    last_regular_deal: int | None = None
    won: Trio | None = None
    """Deals each seat won, as the fold counted them (``deals_won``); None in a snapshot stored before the
    fold wrote it, which counted every deal for the winning side."""

    @classmethod
    def from_json(cls, state: object) -> TableSnapshot:
        if not isinstance(state, Mapping) or not state:
            return EMPTY_TABLE
        deals = state.get("deals")
        adjustments = state.get("adjustments")
        rows = (
            tuple(dict(item) for item in adjustments if isinstance(item, Mapping))
            if isinstance(adjustments, list)
            else ()
        )
        next_deal = state.get("next_deal")
        return cls(
            folded=True,
            status=state.get("status") if isinstance(state.get("status"), str) else None,
            points=_trio(state.get("points")) or (0, 0, 0),
            deals=tuple(deal for deal in (TableDealSnapshot.from_json(item) for item in deals) if deal is not None)
            if isinstance(deals, list)
            else (),
            adjustments=rows,
            forfeited=tuple(str(row.get("seat")) for row in rows if row.get("effect") == "forfeit"),
            disqualified=tuple(str(row.get("seat")) for row in rows if row.get("effect") == "disqualified"),
            next_deal=_int(next_deal.get("number")) if isinstance(next_deal, Mapping) else None,
            next_landlord=_seat(next_deal.get("landlord")) if isinstance(next_deal, Mapping) else None,
            last_regular_deal=_int(state.get("last_regular_deal")),
            won=_trio(state.get("deals_won")),
        )

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    def points_of(self, seat: str) -> int:
        return self.points[_position(seat)]

    def deals_won(self, seat: str) -> int:
        """Deals the seat won, as the fold counted them (docs/rules.md §10: the winning side, or under
        cards-left scoring the player who went out alone); a snapshot stored before the fold counted them
        gave every deal to the winning side (a farmer wins with the other farmer)."""
        if self.won is not None:
            return self.won[_position(seat)]
        return sum(1 for deal in self.deals if (deal.landlord == seat) == deal.landlord_won)

    def landlord_wins(self, seat: str) -> int:
        return sum(1 for deal in self.deals if deal.landlord == seat and deal.landlord_won)


EMPTY_TABLE = TableSnapshot(folded=False)
"""A table never folded (``{}``): no deals, nobody has points, deal 1 is next."""


def _position(seat: str) -> int:
    return {"E": 0, "S": 1, "W": 2}[seat]
