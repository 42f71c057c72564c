"""A Guandan deal as the referee enters it and what it did: :class:`GuandanDeal`, :class:`DealRecord`, and
the JSON input of both games' deals (:func:`parse_deal`). The fold that plays them is :mod:`scoring.match`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from scoring.errors import ScoringError, bad_input
from scoring.finishing_order import FinishingOrder
from scoring.levels import level_label
from scoring.options import Game, RuleOptions
from scoring.seats import PerSide, Side, pair_json
from scoring.tractor_deals import TractorDeal, parse_tractor_deal

__all__ = ["DealInput", "DealRecord", "GuandanDeal", "new_deal_record", "parse_deal", "parse_deals"]


@dataclass(frozen=True, slots=True)
class GuandanDeal:
    """A Guandan deal with more than its finishing order: ``anti_tribute`` (抗贡, docs/rules.md §6; seeds
    000, 002, 003) records that at the start of this deal the side due to pay tribute (from the
    previous deal) held both big jokers, so no tribute was paid and the previous deal's 上游 led. It
    changes no level; it is refused on a game's first deal (no tribute is due there: seed 003 从第二副牌
    开始进贡). A plain :class:`FinishingOrder` is a deal without anti-tribute."""

    order: FinishingOrder
    anti_tribute: bool = False


DealInput = FinishingOrder | GuandanDeal | TractorDeal
"""One deal as a referee enters it: a finishing order or a :class:`GuandanDeal` (Guandan), or a Tractor
deal."""

@dataclass(frozen=True, slots=True)
class DealRecord:
    """What one Guandan deal did (one object per deal of :attr:`MatchResult.deals`)."""

    number: int
    order: FinishingOrder
    level: int
    """The level the deal was played at."""
    sets_level: Side | None
    """The side whose level it was (None for a game's first deal)."""
    upgrade: int
    """Levels the winner actually gained (0 when capped at A, or on passing A)."""
    a_attempt: bool
    passed_a: bool
    reset: bool
    """The setting side's limit-th failed A attempt sent it back to 2."""
    levels_after: PerSide
    a_failures_after: PerSide
    points: int
    """Points this deal gave 上游's side (points formats; 0 otherwise)."""
    points_after: PerSide | None
    game: int
    """The game of a best_of match (1 otherwise)."""
    extra: bool
    """A tiebreak deal (加赛) played after the regular deals."""
    anti_tribute: bool = False
    """抗贡 was recorded for this deal (docs/rules.md §6): no tribute was paid before it."""

    @property
    def winner(self) -> Side:
        """上游's side."""
        return self.order.winner

    @property
    def partner_place(self) -> int:
        return self.order.partner_place

    def __repr__(self) -> str:
        setter = self.sets_level.code if self.sets_level is not None else "-"
        ns, ew = self.levels_after
        flags = "".join(
            f" {flag}"
            for flag, on in (
                ("A-attempt", self.a_attempt),
                ("passed-A", self.passed_a),
                ("reset", self.reset),
                ("anti-tribute", self.anti_tribute),
            )
            if on
        )
        return (
            f"DealRecord(#{self.number} {str(self.order)!r} at {level_label(self.level)} ({setter}) "
            f"+{self.upgrade}{flags} → NS {level_label(ns)}, EW {level_label(ew)})"
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number,
            "order": self.order.to_json(),
            "level": self.level,
            "sets_level": self.sets_level.code if self.sets_level is not None else None,
            "winner": self.order.winner.code,
            "partner_place": self.order.partner_place,
            "upgrade": self.upgrade,
            "a_attempt": self.a_attempt,
            "passed_a": self.passed_a,
            "reset": self.reset,
            "levels_after": pair_json(self.levels_after),
            "a_failures_after": pair_json(self.a_failures_after),
            "game": self.game,
            "extra": self.extra,
            "anti_tribute": self.anti_tribute,
        }
        if self.points_after is not None:
            out["points"] = self.points
            out["points_after"] = pair_json(self.points_after)
        return out


_DEAL_RECORD_SETTERS: tuple[Any, ...] = tuple(vars(DealRecord)[f.name].__set__ for f in fields(DealRecord))


def new_deal_record(
    number: int,
    order: FinishingOrder,
    level: int,
    sets_level: Side | None,
    upgrade: int,
    a_attempt: bool,
    passed_a: bool,
    reset: bool,
    levels_after: PerSide,
    a_failures_after: PerSide,
    points: int,
    points_after: PerSide | None,
    game: int,
    extra: bool,
    anti_tribute: bool,
    *,
    _new: Any = object.__new__,
    _setters: tuple[Any, ...] = _DEAL_RECORD_SETTERS,
) -> DealRecord:
    """``DealRecord(...)`` for the replay hot path, about twice as fast.

    A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, which dominates the
    cost of a deal; writing the slots through their descriptors directly gives the same frozen object
    (same class, same fields, still immutable afterwards) at half the price. Field order is checked at
    import time below.
    """
    record: DealRecord = _new(DealRecord)
    s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14 = _setters
    s0(record, number)
    s1(record, order)
    s2(record, level)
    s3(record, sets_level)
    s4(record, upgrade)
    s5(record, a_attempt)
    s6(record, passed_a)
    s7(record, reset)
    s8(record, levels_after)
    s9(record, a_failures_after)
    s10(record, points)
    s11(record, points_after)
    s12(record, game)
    s13(record, extra)
    s14(record, anti_tribute)
    return record


assert [f.name for f in fields(DealRecord)] == list(new_deal_record.__code__.co_varnames[:15])


# -- JSON input ---------------------------------------------------------------------------------------


_GUANDAN_DEAL_FIELDS = frozenset({"order", "anti_tribute"})


def parse_deal(*, options: RuleOptions, data: object, number: int) -> DealInput:
    """One deal from its JSON form: ``{"order": ["N", "E", "S"], "anti_tribute": false}`` for Guandan
    (``anti_tribute`` optional, default false: a :class:`FinishingOrder`; true: a :class:`GuandanDeal`),
    ``{"declarer": "NS", "defender_points": 125, …}`` for Tractor
    (:func:`scoring.tractor.parse_tractor_deal`). Errors carry ``number``. Whether an anti-tribute is
    allowed (not on a game's first deal) is the replay's check: it depends on the deals before."""
    if options.game is Game.TRACTOR:
        return parse_tractor_deal(data, number=number)
    if not isinstance(data, Mapping) or "order" not in data:
        raise bad_input(
            f'Deal {number} must look like {{"order": ["N", "E", "S"]}}.',
            f'第 {number} 副的格式应为 {{"order": ["N", "E", "S"]}}。',
            number,
        )
    extra = set(data) - _GUANDAN_DEAL_FIELDS
    if extra:
        raise bad_input(
            f"Deal {number} has an unknown field {sorted(extra)[0]!r}; a Guandan deal has 'order' "
            "and optionally 'anti_tribute'.",
            f"第 {number} 副有未知字段 {sorted(extra)[0]!r}；掼蛋每副只有 order 和可选的 anti_tribute。",
            number,
        )
    anti_tribute = data.get("anti_tribute", False)
    if not isinstance(anti_tribute, bool):
        raise bad_input(
            f"Deal {number}: 'anti_tribute' must be true or false; got {anti_tribute!r}.",
            f"第 {number} 副：anti_tribute 必须是 true 或 false；收到 {anti_tribute!r}。",
            number,
        )
    try:
        order = FinishingOrder.parse(data["order"])
    except ScoringError as error:
        raise error.with_deal(number) from None
    return GuandanDeal(order, anti_tribute=True) if anti_tribute else order


def parse_deals(*, options: RuleOptions, data: object) -> list[DealInput]:
    """Every deal of a JSON ``deals`` list (see :func:`parse_deal`)."""
    if not isinstance(data, list):
        raise bad_input("'deals' must be a list of deals.", "deals 必须是列表。")
    return [parse_deal(options=options, data=item, number=number) for number, item in enumerate(data, 1)]

