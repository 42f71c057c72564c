"""Seats at a three-seat table (Dou Dizhu, docs/rules.md §10): ``E``, ``S`` and ``W``.

Guandan's four seats and two sides (:mod:`scoring.seats`) do not fit a table of three individuals, so Dou
Dizhu has its own small seat type. A value per seat is a plain ``(e, s, w)`` tuple (:data:`Trio`),
indexed by :attr:`ThreeSeat.position`; its JSON form is ``{"E": …, "S": …, "W": …}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from scoring.errors import ErrorCode, ScoringError

__all__ = ["THREE_SEATS", "ThreeSeat", "Trio", "trio_json", "trio_of"]


class ThreeSeat(str, Enum):
    """A seat at a three-seat table: ``E``, ``S`` or ``W`` (the letters of the draw sheet)."""

    E = "E"
    S = "S"
    W = "W"

    @property
    def position(self) -> int:
        """The seat's place in a :data:`Trio`: E 0, S 1, W 2."""
        return _INDEX[self]

    @property
    def others(self) -> tuple[ThreeSeat, ThreeSeat]:
        """The two other seats (a landlord's farmers)."""
        return _OTHERS[self]

    @property
    def label_zh(self) -> str:
        return _LABEL_ZH[self]

    @property
    def next_to_play(self) -> ThreeSeat:
        """The seat after this one as play runs, counter-clockwise: E → W → S → E (the empty N seat lies
        between E and W). Seed 004's 轮流坐庄 passes the landlord this way (docs/rules.md §10)."""
        return _NEXT[self]

    @classmethod
    def parse(cls, value: object, *, deal: int | None = None) -> ThreeSeat:
        """``"E"`` → ``ThreeSeat.E``; anything else is an ``invalid_deal`` error (a seat that is not E/S/W
        cannot be recorded, docs/rules.md §10), tied to ``deal`` when given."""
        if isinstance(value, ThreeSeat):
            return value
        if isinstance(value, str) and value in _BY_LETTER:
            return _BY_LETTER[value]
        where, where_zh = (f"Deal {deal}: ", f"第 {deal} 局：") if deal is not None else ("", "")
        raise ScoringError(
            ErrorCode.INVALID_DEAL,
            f"{where}{value!r} is not a seat of a three-seat table; use E, S or W.",
            deal,
            message_zh=f"{where_zh}{value!r} 不是三人桌的座位，请用 E、S、W。",
        )

    def __repr__(self) -> str:
        return f"ThreeSeat.{self.value}"

    def __str__(self) -> str:
        return self.value


Trio = tuple[int, int, int]
"""A value per seat, in the order E, S, W (index with :attr:`ThreeSeat.position`)."""

THREE_SEATS: tuple[ThreeSeat, ThreeSeat, ThreeSeat] = (ThreeSeat.E, ThreeSeat.S, ThreeSeat.W)

_INDEX = {seat: index for index, seat in enumerate(THREE_SEATS)}
_BY_LETTER = {seat.value: seat for seat in ThreeSeat}
_OTHERS: dict[ThreeSeat, tuple[ThreeSeat, ThreeSeat]] = {
    ThreeSeat.E: (ThreeSeat.S, ThreeSeat.W),
    ThreeSeat.S: (ThreeSeat.E, ThreeSeat.W),
    ThreeSeat.W: (ThreeSeat.E, ThreeSeat.S),
}
_LABEL_ZH = {ThreeSeat.E: "东", ThreeSeat.S: "南", ThreeSeat.W: "西"}
_NEXT = {ThreeSeat.E: ThreeSeat.W, ThreeSeat.W: ThreeSeat.S, ThreeSeat.S: ThreeSeat.E}


def trio_json(trio: Trio) -> dict[str, int]:
    """``(12, -6, -6)`` → ``{"E": 12, "S": -6, "W": -6}``."""
    return {"E": trio[0], "S": trio[1], "W": trio[2]}


def trio_of(values: Mapping[ThreeSeat, int]) -> Trio:
    """``{ThreeSeat.S: 3, …}`` → ``(e, s, w)``; a seat not given counts 0."""
    return (values.get(ThreeSeat.E, 0), values.get(ThreeSeat.S, 0), values.get(ThreeSeat.W, 0))
