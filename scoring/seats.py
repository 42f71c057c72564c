"""Seats and sides at a four-player table (docs/rules.md §1, §4; seed 003 §1).

N/S play against E/W; partners sit opposite. Play runs counter-clockwise (逆时针, seeds 000, 002, 003), so
the player who acts after you — your 下家 — sits on your **right**: N → W → S → E → N. Your 上家 (the player
before you) sits on your left.
"""

from __future__ import annotations

from enum import Enum, IntEnum

from scoring.errors import bad_input

__all__ = ["SEATS", "PerSide", "Seat", "Side", "pair_json"]


_SEAT_ZH = {"N": "北", "E": "东", "S": "南", "W": "西"}


class Seat(str, Enum):
    """A seat at the table: ``N``, ``E``, ``S`` or ``W`` (compass points, as referees' sheets use)."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def side(self) -> Side:
        return _SIDE_OF[self]

    @property
    def label_zh(self) -> str:
        """The seat as Chinese texts name it: 北, 东, 南, 西 (the rules core's Chinese messages)."""
        return _SEAT_ZH[self.value]

    @property
    def partner(self) -> Seat:
        """The seat opposite (对家)."""
        return _PARTNER[self]

    @property
    def right_hand_opponent(self) -> Seat:
        """下家: the opponent who plays next (play is counter-clockwise, so they sit on the right)."""
        return _RIGHT[self]

    @property
    def left_hand_opponent(self) -> Seat:
        """上家: the opponent who played just before (on the left)."""
        return _LEFT[self]

    @classmethod
    def parse(cls, value: object) -> Seat:
        """``"N"`` → ``Seat.N``; anything else is a ``bad_input`` error with a clear sentence."""
        if isinstance(value, Seat):
            return value
        if isinstance(value, str) and value in _BY_LETTER:
            return _BY_LETTER[value]
        raise bad_input(
            f"{value!r} is not a seat; use N, E, S or W.",
            f"{value!r} 不是座位，请用 N、E、S、W。",
        )

    def __repr__(self) -> str:
        return f"Seat.{self.value}"

    def __str__(self) -> str:
        return self.value


class Side(IntEnum):
    """A partnership: ``NS`` or ``EW``.

    An IntEnum on purpose: per-side values (levels, A failures, points) are plain ``(ns, ew)`` tuples
    indexed by the side itself — ``levels[Side.EW]`` — which keeps the replay hot path free of dicts.
    Its JSON form is its name (``"NS"``), never the integer.
    """

    NS = 0
    EW = 1

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)

    @property
    def code(self) -> str:
        """The JSON form: ``"NS"`` or ``"EW"``."""
        return self.name

    @property
    def label_zh(self) -> str:
        return "南北" if self is Side.NS else "东西"

    @classmethod
    def parse(cls, value: object) -> Side:
        """``"NS"`` → ``Side.NS`` (``"SN"`` and ``"WE"`` are accepted too)."""
        if isinstance(value, Side):
            return value
        if isinstance(value, str) and value in _SIDE_BY_NAME:
            return _SIDE_BY_NAME[value]
        raise bad_input(
            f"{value!r} is not a side; use NS or EW.",
            f"{value!r} 不是一方，请用 NS（南北）或 EW（东西）。",
        )

    def __repr__(self) -> str:
        return f"Side.{self.name}"

    def __str__(self) -> str:
        return self.name


PerSide = tuple[int, int]  # not "Pair": that is the registered pair of two players (the model)
"""A value per side, indexed by :class:`Side`: ``(ns, ew)``."""

SEATS: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S, Seat.W)

_BY_LETTER = {seat.value: seat for seat in Seat}
_SIDE_BY_NAME = {"NS": Side.NS, "SN": Side.NS, "EW": Side.EW, "WE": Side.EW}
_SIDE_OF = {Seat.N: Side.NS, Seat.S: Side.NS, Seat.E: Side.EW, Seat.W: Side.EW}
_PARTNER = {Seat.N: Seat.S, Seat.S: Seat.N, Seat.E: Seat.W, Seat.W: Seat.E}
_RIGHT = {Seat.N: Seat.W, Seat.W: Seat.S, Seat.S: Seat.E, Seat.E: Seat.N}
_LEFT = {right: seat for seat, right in _RIGHT.items()}


def pair_json(pair: PerSide) -> dict[str, int]:
    """``(5, 2)`` → ``{"NS": 5, "EW": 2}``."""
    return {"NS": pair[0], "EW": pair[1]}
