"""Three-deck Tractor deals as the referee enters them and what they did (seed 001; docs/rules.md §9): the
level table (:func:`level_change`), bottom capture, the 20-point infractions, the faults that end or void a
deal, the deal record, and the JSON input (:func:`parse_tractor_deal`). The match reducer that plays them
is :mod:`scoring.tractor`, which re-exports all of this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from scoring.errors import ScoringError, bad_input
from scoring.seats import PerSide, Seat, Side, pair_json

__all__ = [
    "PENALTY_POINTS",
    "TAKE_OVER_POINTS",
    "BottomCapture",
    "Capture",
    "Infraction",
    "LevelChange",
    "Penalty",
    "TractorDeal",
    "TractorDealRecord",
    "TractorResult",
    "WrongCount",
    "level_change",
    "parse_tractor_deal",
]

PENALTY_POINTS = 20
"""Seed 001 §13, §16, §19, §20: each infraction costs 20 points."""

TAKE_OVER_POINTS = 120
"""Defenders with this many points take over (上台)."""


class Capture(str, Enum):
    """What the defenders won the last trick with (抠底, seed 001 §15)."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    TRACTOR_2_PAIRS = "tractor_2_pairs"
    TRACTOR_3_PAIRS = "tractor_3_pairs"
    TRACTOR_2_TRIPLES = "tractor_2_triples"

    @property
    def multiplier(self) -> int:
        return _MULTIPLIERS[self]


_MULTIPLIERS = {
    Capture.SINGLE: 2,
    Capture.PAIR: 3,
    Capture.TRIPLE: 4,
    Capture.TRACTOR_2_PAIRS: 5,
    Capture.TRACTOR_3_PAIRS: 6,
    Capture.TRACTOR_2_TRIPLES: 7,
}


class Infraction(str, Enum):
    """A 20-point infraction (seed 001)."""

    EXPOSED_CARD = "exposed_card"
    """暴露张 (§19)."""
    OUT_OF_TURN = "out_of_turn"
    """越序出牌 (§20)."""
    FAILED_THROW = "failed_throw"
    """甩牌 blocked (§13)."""
    WRONG_FOLLOW = "wrong_follow"
    """跟错牌 found within the trick (§16)."""


class TractorResult(str, Enum):
    DECLARERS_UP = "declarers_up"
    DEFENDERS_TAKE_OVER = "defenders_take_over"
    DEFENDERS_UP = "defenders_up"
    REPLAYED = "replayed"
    """A wrong card count in both sides' hands (seed 001 §18): the deal is played again."""


class WrongCount(str, Enum):
    """Whose hand had a wrong number of cards, found mid-deal (牌张数目不符, seed 001 §18)."""

    NS = "NS"
    EW = "EW"
    BOTH = "both"

    @property
    def side(self) -> Side | None:
        """The offending side, or None when both sides' hands were wrong."""
        return None if self is WrongCount.BOTH else Side.parse(self.value)


@dataclass(frozen=True, slots=True)
class LevelChange:
    """The seed-001 table's verdict for some defenders' points: who gains ``levels``."""

    result: TractorResult
    levels: int

    @property
    def declarers_keep(self) -> bool:
        return self.result is TractorResult.DECLARERS_UP


def level_change(defender_points: int) -> LevelChange:
    """Seed 001 §4 (docs/rules.md §9), every band including the open ends:

    >>> level_change(0), level_change(5), level_change(-60), level_change(355), level_change(360)
    ... # doctest: +NORMALIZE_WHITESPACE
    (LevelChange(result=<TractorResult.DECLARERS_UP: 'declarers_up'>, levels=3),
     LevelChange(result=<TractorResult.DECLARERS_UP: 'declarers_up'>, levels=2),
     LevelChange(result=<TractorResult.DECLARERS_UP: 'declarers_up'>, levels=4),
     LevelChange(result=<TractorResult.DEFENDERS_UP: 'defenders_up'>, levels=3),
     LevelChange(result=<TractorResult.DEFENDERS_UP: 'defenders_up'>, levels=4))
    """
    p = defender_points
    if p >= TAKE_OVER_POINTS:
        gain = (p - TAKE_OVER_POINTS) // 60
        return LevelChange(TractorResult.DEFENDERS_UP if gain else TractorResult.DEFENDERS_TAKE_OVER, gain)
    if p >= 60:
        return LevelChange(TractorResult.DECLARERS_UP, 1)
    if p > 0:
        return LevelChange(TractorResult.DECLARERS_UP, 2)
    # 0 down to −55 is +3; each further 60 below −55 is one more level
    return LevelChange(TractorResult.DECLARERS_UP, 3 + (-p) // 60)


@dataclass(frozen=True, slots=True)
class BottomCapture:
    """The bottom's card points and how the defenders captured it; counts ``points × multiplier``."""

    points: int
    capture: Capture

    @property
    def multiplier(self) -> int:
        return self.capture.multiplier

    @property
    def total(self) -> int:
        return self.points * self.capture.multiplier

    def to_json(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "capture": self.capture.value,
            "multiplier": self.multiplier,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class Penalty:
    """A 20-point infraction by ``side`` (seed 001)."""

    side: Side
    infraction: Infraction

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side.code, "kind": self.infraction.value}


@dataclass(frozen=True, slots=True, kw_only=True)
class TractorDeal:
    """A Tractor deal as the referee enters it.

    ``defender_points`` are the defenders' card points — the final figure, or, when ``bottom`` and
    ``penalties`` are given, the points before them (the system adds the multiplied bottom and the
    penalties). ``declarer`` may be omitted after the first deal (the rotation knows it); when given it
    must match. ``declarer_seat`` lets the rotation name seats, not just sides.
    """

    declarer: Side | None = None
    defender_points: int
    declarer_seat: Seat | None = None
    bottom: BottomCapture | None = None
    penalties: tuple[Penalty, ...] = ()
    revoke: Side | None = None
    """The side that revoked (藏张): ends the deal (seed 001 §17, see the module docstring)."""
    wrong_bottom: bool = False
    """The declarer buried the wrong number of bottom cards: the declarers fall (seed 001 §9.1)."""
    wrong_count: WrongCount | None = None
    """A wrong card count found mid-deal (seed 001 §18): one side's is that side's revoke; ``both``:
    the deal is replayed."""

    @property
    def faulty_side(self) -> Side | None:
        """Whose fault (revoke, wrong bottom, wrong count) decides the deal, if any. ``declarer`` is
        needed for ``wrong_bottom``; :class:`TractorState` checks that the faults do not conflict."""
        if self.revoke is not None:
            return self.revoke
        if self.wrong_count is not None and self.wrong_count.side is not None:
            return self.wrong_count.side
        return None


@dataclass(frozen=True, slots=True)
class TractorDealRecord:
    """What one Tractor deal did."""

    number: int
    declarer: Side
    declarer_seat: Seat | None
    level: int
    """The declarers' level: the deal's level."""
    defender_points: int
    bottom: BottomCapture | None
    penalty_points: int
    """Net change of the defenders' points from penalties and late-arrival deductions."""
    total_points: int
    """The points the table was read with."""
    result: TractorResult
    upgrade: int
    """Levels actually gained (capped at A)."""
    revoke: Side | None
    passed_a: bool
    levels_after: PerSide
    next_declarer: Side
    next_declarer_seat: Seat | None
    extra: bool
    wrong_bottom: bool = False
    wrong_count: WrongCount | None = None

    @property
    def winner(self) -> Side | None:
        """The side the deal went to: the declarers if they upgraded, else the defenders; None for a
        replayed deal (seed 001 §18)."""
        if self.result is TractorResult.REPLAYED:
            return None
        return self.declarer if self.result is TractorResult.DECLARERS_UP else self.declarer.other

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "declarer": self.declarer.code,
            "declarer_seat": self.declarer_seat.value if self.declarer_seat is not None else None,
            "level": self.level,
            "defender_points": self.defender_points,
            "bottom": self.bottom.to_json() if self.bottom is not None else None,
            "penalty_points": self.penalty_points,
            "total_points": self.total_points,
            "result": self.result.value,
            "winner": self.winner.code if self.winner is not None else None,
            "upgrade": self.upgrade,
            "revoke": self.revoke.code if self.revoke is not None else None,
            "wrong_bottom": self.wrong_bottom,
            "wrong_count": self.wrong_count.value if self.wrong_count is not None else None,
            "passed_a": self.passed_a,
            "levels_after": pair_json(self.levels_after),
            "next_declarer": self.next_declarer.code,
            "next_declarer_seat": self.next_declarer_seat.value if self.next_declarer_seat else None,
            "extra": self.extra,
        }


# -- JSON input ---------------------------------------------------------------------------------------

_DEAL_FIELDS = {
    "declarer",
    "defender_points",
    "bottom",
    "penalties",
    "revoke",
    "wrong_bottom",
    "wrong_count",
}


def _points(value: object, what: str, number: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value % 5:
        raise bad_input(
            f"Deal {number}: {what} must be a whole multiple of 5; got {value!r}.",
            f"第 {number} 副：{what} 必须是 5 的整数倍；收到 {value!r}。",
            number,
        )
    return value


def parse_tractor_deal(data: object, *, number: int) -> TractorDeal:
    """``{"declarer": "NS" | "N", "defender_points": 125, "bottom": {"points": 20, "capture": "pair"},
    "penalties": [{"side": "EW", "kind": "exposed_card"}], "revoke": "NS", "wrong_bottom": true,
    "wrong_count": "NS" | "EW" | "both"}`` (all but ``defender_points`` optional; ``declarer`` required for
    the first deal; ``defender_points`` may be left out of a replayed deal, ``wrong_count: both``)."""
    replayed = isinstance(data, Mapping) and data.get("wrong_count") == WrongCount.BOTH.value
    if not isinstance(data, Mapping) or ("defender_points" not in data and not replayed):
        raise bad_input(
            f'Deal {number} must look like {{"declarer": "NS", "defender_points": 125}}.',
            f'第 {number} 副的格式应为 {{"declarer": "NS", "defender_points": 125}}。',
            number,
        )
    unknown = set(data) - _DEAL_FIELDS
    if unknown:
        raise bad_input(
            f"Deal {number} has an unknown field {sorted(unknown)[0]!r}; a Tractor deal has "
            + ", ".join(sorted(_DEAL_FIELDS))
            + ".",
            f"第 {number} 副有未知字段 {sorted(unknown)[0]!r}。",
            number,
        )
    try:
        declarer: Side | None = None
        seat: Seat | None = None
        raw = data.get("declarer")
        if isinstance(raw, str) and len(raw) == 1:
            seat = Seat.parse(raw)
            declarer = seat.side
        elif raw is not None:
            declarer = Side.parse(raw)
        bottom = None
        if data.get("bottom") is not None:
            raw_bottom = data["bottom"]
            if not isinstance(raw_bottom, Mapping) or set(raw_bottom) - {"points", "capture"}:
                raise bad_input(
                    f'Deal {number}: bottom must look like {{"points": 20, "capture": "pair"}}.',
                    f'第 {number} 副：bottom 的格式应为 {{"points": 20, "capture": "pair"}}。',
                )
            bottom_points = _points(raw_bottom.get("points"), "the bottom's points", number)
            if bottom_points < 0:
                raise bad_input(
                    f"Deal {number}: the bottom's points cannot be negative.",
                    f"第 {number} 副：底牌分不能为负。",
                )
            try:
                capture = Capture(raw_bottom.get("capture"))
            except ValueError:
                kinds = ", ".join(c.value for c in Capture)
                raise bad_input(
                    f"Deal {number}: capture must be one of {kinds}.",
                    f"第 {number} 副：capture 必须是以下之一：{kinds}。",
                ) from None
            bottom = BottomCapture(bottom_points, capture)
        penalties = []
        raw_penalties = data.get("penalties", [])
        if not isinstance(raw_penalties, list):
            raise bad_input(
                f"Deal {number}: penalties must be a list.", f"第 {number} 副：penalties 必须是列表。"
            )
        for item in raw_penalties:
            if not isinstance(item, Mapping) or set(item) != {"side", "kind"}:
                raise bad_input(
                    f'Deal {number}: each penalty looks like {{"side": "EW", "kind": "exposed_card"}}.',
                    f'第 {number} 副：罚分项的格式应为 {{"side": "EW", "kind": "exposed_card"}}。',
                )
            try:
                infraction = Infraction(item["kind"])
            except ValueError:
                kinds = ", ".join(i.value for i in Infraction)
                raise bad_input(
                    f"Deal {number}: a penalty's kind must be one of {kinds}.",
                    f"第 {number} 副：罚分种类必须是以下之一：{kinds}。",
                ) from None
            penalties.append(Penalty(Side.parse(item["side"]), infraction))
        revoke = Side.parse(data["revoke"]) if data.get("revoke") is not None else None
        wrong_bottom = data.get("wrong_bottom", False)
        if not isinstance(wrong_bottom, bool):
            raise bad_input(
                f"Deal {number}: wrong_bottom must be true or false; got {wrong_bottom!r}.",
                f"第 {number} 副：wrong_bottom 必须是 true 或 false；收到 {wrong_bottom!r}。",
            )
        wrong_count: WrongCount | None = None
        if data.get("wrong_count") is not None:
            try:
                wrong_count = WrongCount(data["wrong_count"])
            except ValueError:
                raise bad_input(
                    f'Deal {number}: wrong_count must be "NS", "EW" or "both"; got {data["wrong_count"]!r}.',
                    f'第 {number} 副：wrong_count 必须是 "NS"、"EW" 或 "both"；收到 {data["wrong_count"]!r}。',
                ) from None
        return TractorDeal(
            declarer=declarer,
            declarer_seat=seat,
            defender_points=_points(data.get("defender_points", 0), "defender_points", number),
            bottom=bottom,
            penalties=tuple(penalties),
            revoke=revoke,
            wrong_bottom=wrong_bottom,
            wrong_count=wrong_count,
        )
    except ScoringError as error:
        raise error.with_deal(number) if error.deal is None else error from None
