"""The stored match snapshot, read back: :class:`MatchSnapshot` (one typed reader).

The web application keeps :meth:`scoring.outcome.MatchResult.to_json` on each match (``Match.state``)
and each deal's record (``DealRecord.to_json`` / ``TractorDealRecord.to_json``) on its deal row. This
module is the one place that reads them back; nothing else indexes into those dicts.

Schema (``"schema"`` in the snapshot):

- **1** — the shape ``MatchResult.to_json`` writes today (status, winner, reason, levels,
  a_failures (Guandan), points (``fixed_deals_points``), games (``best_of``), deals, adjustments,
  next_deal, next_declarer (Tractor), last_regular_deal). Snapshots stored before the version was
  written carry no ``"schema"``: they are version 1. Records stored before a field existed
  (``anti_tribute``, Tractor's ``wrong_bottom`` / ``wrong_count``) read as that field's "no".
- ``{}`` — a match never folded (drawn, or started set-based by ``round_start``): the start of a
  match, :attr:`MatchSnapshot.folded` False.

The reader also accepts a snapshot with only some keys (a query that fetched ``levels`` and
``points`` only): what is missing reads as for a match never folded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

__all__ = ["SCHEMA", "DealSnapshot", "MatchSnapshot", "NextDealSnapshot", "SidePair"]

SCHEMA = 1
"""The snapshot's schema version, written by ``MatchResult.to_json``."""

LOWEST = 2


class SidePair(NamedTuple):
    """A value per side (levels, points, games), ``(NS, EW)``; also readable as ``.NS`` / ``.EW``."""

    NS: int
    EW: int

    @classmethod
    def from_json(cls, value: object) -> SidePair | None:
        """``{"NS": 5, "EW": 2}`` → ``SidePair(5, 2)``; anything else (None, a partial dict) → None."""
        if not isinstance(value, Mapping):
            return None
        ns, ew = value.get("NS"), value.get("EW")
        if not isinstance(ns, int) or not isinstance(ew, int):
            return None
        return cls(ns, ew)

    def to_json(self) -> dict[str, int]:
        return {"NS": self.NS, "EW": self.EW}

    def get(self, code: object, default: int | None = None) -> int | None:
        """The value of side ``code`` ("NS" / "EW"), as the stored dict answered it."""
        if code == "NS":
            return self.NS
        if code == "EW":
            return self.EW
        return default


def _text(value: object) -> str | None:
    return value if value.__class__ is str and value else None


def _int(value: object) -> int | None:
    """A whole number (not a bool: ``True`` is no level)."""
    return value if value.__class__ is int else None


def _side_pair(value: object) -> SidePair | None:
    """The hot path of :meth:`SidePair.from_json` (a stored ``{"NS": …, "EW": …}``)."""
    if value.__class__ is dict:
        ns, ew = value.get("NS"), value.get("EW")
        if ns.__class__ is int and ew.__class__ is int:
            return _new_pair(SidePair, (ns, ew))
        return None
    return SidePair.from_json(value)


_new_pair = tuple.__new__


class DealSnapshot(NamedTuple):
    """One deal's stored record, either game. Guandan: ``order`` … ``points_after``; Tractor (seed
    001): ``declarer`` … ``next_declarer_seat``. ``winner`` is a side code (None: a replayed Tractor
    deal). An immutable named tuple rather than a dataclass: the workbook reads every deal of an
    event through it, and a tuple is built in one step."""

    number: int
    winner: str | None
    level: int | None
    upgrade: int
    passed_a: bool
    extra: bool
    levels_after: SidePair | None
    game: int | None = None
    # Guandan
    order: tuple[str, ...] = ()
    sets_level: str | None = None
    partner_place: int | None = None
    a_attempt: bool = False
    reset: bool = False
    a_failures_after: SidePair | None = None
    anti_tribute: bool = False
    points: int | None = None
    points_after: SidePair | None = None
    # Tractor
    declarer: str | None = None
    declarer_seat: str | None = None
    defender_points: int | None = None
    bottom: dict[str, Any] | None = None
    """``{"points", "capture", "multiplier", "total"}`` (``BottomCapture.to_json``)."""
    penalty_points: int | None = None
    total_points: int | None = None
    result: str | None = None
    revoke: str | None = None
    wrong_bottom: bool = False
    wrong_count: str | None = None
    next_declarer: str | None = None
    next_declarer_seat: str | None = None

    @property
    def tractor(self) -> bool:
        """A Tractor deal (a declarer and the defenders' points), not a finishing order."""
        return self.declarer is not None

    @classmethod
    def from_json(cls, record: object) -> DealSnapshot | None:
        """A stored record; None for none (``{}``: a deal a correction flagged has no record).

        The workbook reads every deal of an event through this (300,000 for 5,000 pairs): exact-type
        checks and one tuple built from the values, in field order.
        """
        if not isinstance(record, Mapping) or not record:
            return None
        # The writer (``DealRecord.to_json`` / ``TractorDealRecord.to_json``) gives every field its
        # type, so the values are taken as stored; only what may be missing (a record stored before
        # a field existed) or empty is defaulted.
        get = record.get
        pair = _side_pair
        declarer = get("declarer") or None
        values: tuple[Any, ...]
        if declarer is None:  # Guandan: the Tractor fields are absent
            order = get("order")
            if order.__class__ is not list:
                order = order.get("order") if isinstance(order, Mapping) else None  # stored with its flag
            values = (
                get("number") or 0,
                get("winner") or None,
                get("level"),
                get("upgrade") or 0,
                get("passed_a") is True,
                get("extra") is True,
                pair(get("levels_after")),
                get("game"),
                tuple(order) if order.__class__ is list else (),
                get("sets_level") or None,
                get("partner_place"),
                get("a_attempt") is True,
                get("reset") is True,
                pair(get("a_failures_after")),
                get("anti_tribute") is True,
                get("points"),
                pair(get("points_after")),
                *_NO_TRACTOR,
            )
        else:  # Tractor (seed 001): the Guandan fields are absent
            bottom = get("bottom")
            values = (
                get("number") or 0,
                get("winner") or None,
                get("level"),
                get("upgrade") or 0,
                get("passed_a") is True,
                get("extra") is True,
                pair(get("levels_after")),
                get("game"),
                *_NO_GUANDAN,
                declarer,
                get("declarer_seat") or None,
                get("defender_points"),
                dict(bottom) if isinstance(bottom, Mapping) else None,
                get("penalty_points"),
                get("total_points"),
                get("result") or None,
                get("revoke") or None,
                get("wrong_bottom") is True,
                get("wrong_count") or None,
                get("next_declarer") or None,
                get("next_declarer_seat") or None,
            )
        deal: DealSnapshot = _new_pair(cls, values)
        return deal

    def to_json(self) -> dict[str, Any]:
        """The record in the shape its game's record writes (schema 1)."""
        if self.tractor:
            return {
                "number": self.number,
                "declarer": self.declarer,
                "declarer_seat": self.declarer_seat,
                "level": self.level,
                "defender_points": self.defender_points,
                "bottom": self.bottom,
                "penalty_points": self.penalty_points,
                "total_points": self.total_points,
                "result": self.result,
                "winner": self.winner,
                "upgrade": self.upgrade,
                "revoke": self.revoke,
                "wrong_bottom": self.wrong_bottom,
                "wrong_count": self.wrong_count,
                "passed_a": self.passed_a,
                "levels_after": _pair_json(self.levels_after),
                "next_declarer": self.next_declarer,
                "next_declarer_seat": self.next_declarer_seat,
                "extra": self.extra,
            }
        out: dict[str, Any] = {
            "number": self.number,
            "order": list(self.order),
            "level": self.level,
            "sets_level": self.sets_level,
            "winner": self.winner,
            "partner_place": self.partner_place,
            "upgrade": self.upgrade,
            "a_attempt": self.a_attempt,
            "passed_a": self.passed_a,
            "reset": self.reset,
            "levels_after": _pair_json(self.levels_after),
            "a_failures_after": _pair_json(self.a_failures_after),
            "game": self.game,
            "extra": self.extra,
            "anti_tribute": self.anti_tribute,
        }
        if self.points_after is not None:
            out["points"] = self.points
            out["points_after"] = self.points_after.to_json()
        return out


_DEAL_FIELDS = (
    "number", "winner", "level", "upgrade", "passed_a", "extra", "levels_after", "game", "order", "sets_level",
    "partner_place", "a_attempt", "reset", "a_failures_after", "anti_tribute", "points", "points_after",
    "declarer", "declarer_seat", "defender_points", "bottom", "penalty_points", "total_points", "result",
    "revoke", "wrong_bottom", "wrong_count", "next_declarer", "next_declarer_seat",
)  # fmt: skip
assert DealSnapshot._fields == _DEAL_FIELDS, "DealSnapshot.from_json's order"
_NO_GUANDAN = ((), None, None, False, False, None, False, None, None)
"""``order`` … ``points_after`` of a Tractor deal."""
_NO_TRACTOR = (None, None, None, None, None, None, None, None, False, None, None, None)
"""``declarer`` … ``next_declarer_seat`` of a Guandan deal."""


def _pair_json(pair: SidePair | None) -> dict[str, int] | None:
    return pair.to_json() if pair is not None else None


@dataclass(frozen=True, slots=True)
class NextDealSnapshot:
    """The next deal (``NextDeal.to_json``): its number and level, whose level (Guandan) or who
    declares (Tractor), the game in ``best_of``, and whether it is an extra deal."""

    number: int
    level: int
    sets_level: str | None = None
    extra: bool = False
    game: int | None = None
    declarer: str | None = None
    declarer_seat: str | None = None
    tractor: bool = False

    @classmethod
    def from_json(cls, value: object) -> NextDealSnapshot | None:
        if not isinstance(value, Mapping):
            return None
        return cls(
            number=_int(value.get("number")) or 1,
            level=_int(value.get("level")) or LOWEST,
            sets_level=_text(value.get("sets_level")),
            extra=bool(value.get("extra")),
            game=_int(value.get("game")),
            declarer=_text(value.get("declarer")),
            declarer_seat=_text(value.get("declarer_seat")),
            tractor="declarer" in value,
        )

    def to_json(self) -> dict[str, Any]:
        """As ``NextDeal.to_json`` writes it."""
        out: dict[str, Any] = {"number": self.number, "level": self.level}
        if self.tractor:
            out["declarer"] = self.declarer
            out["declarer_seat"] = self.declarer_seat
        else:
            out["sets_level"] = self.sets_level
        if self.game is not None:
            out["game"] = self.game
        out["extra"] = self.extra
        return out


START = NextDealSnapshot(number=1, level=LOWEST)
"""The first deal of a match never folded: deal 1 at the lowest level, nobody's yet."""


@dataclass(frozen=True, slots=True)
class MatchSnapshot:
    """A stored ``MatchResult.to_json()`` read back, typed (see the module docstring for the schema).

    ``status``, ``winner`` and ``reason`` are the rules core's codes (``Status`` / ``Side`` /
    ``Reason`` values); ``levels`` … ``games`` None where the snapshot has none (``a_failures``:
    Guandan only; ``points``: ``fixed_deals_points``; ``games``: ``best_of``; ``levels``: a match
    never folded). ``next_deal`` None once the match is over, or for a match never folded.
    """

    schema: int
    folded: bool
    status: str | None = None
    winner: str | None = None
    reason: str | None = None
    levels: SidePair | None = None
    a_failures: SidePair | None = None
    points: SidePair | None = None
    games: SidePair | None = None
    deals: tuple[DealSnapshot, ...] = ()
    adjustments: tuple[dict[str, Any], ...] = ()
    """The rules core's ``AdjustmentRecord.to_json`` for each adjustment applied."""
    next_deal: NextDealSnapshot | None = None
    next_declarer: str | None = None
    last_regular_deal: int | None = None

    @classmethod
    def from_json(cls, state: object) -> MatchSnapshot:
        """Read a stored snapshot (or part of one). Refuses a schema this reader does not know."""
        if not isinstance(state, Mapping) or not state:
            return EMPTY
        schema = state.get("schema", SCHEMA)
        if schema != SCHEMA:
            raise ValueError(f"match snapshot schema {schema!r} is not {SCHEMA}")
        deals = state.get("deals")
        adjustments = state.get("adjustments")
        return cls(
            schema=SCHEMA,
            folded=True,
            status=_text(state.get("status")),
            winner=_text(state.get("winner")),
            reason=_text(state.get("reason")),
            levels=SidePair.from_json(state.get("levels")),
            a_failures=SidePair.from_json(state.get("a_failures")),
            points=SidePair.from_json(state.get("points")),
            games=SidePair.from_json(state.get("games")),
            deals=tuple(deal for deal in (DealSnapshot.from_json(item) for item in deals) if deal is not None)
            if isinstance(deals, list)
            else (),
            adjustments=tuple(dict(item) for item in adjustments if isinstance(item, Mapping))
            if isinstance(adjustments, list)
            else (),
            next_deal=NextDealSnapshot.from_json(state.get("next_deal")),
            next_declarer=_text(state.get("next_declarer")),
            last_regular_deal=_int(state.get("last_regular_deal")),
        )

    @property
    def needs_extra_deal(self) -> bool:
        return self.status == "needs_extra_deal"

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    @property
    def levels_or_start(self) -> SidePair:
        """The levels, the lowest for both sides before any fold (docs/rules.md §1: everyone starts at 2)."""
        return self.levels if self.levels is not None else SidePair(LOWEST, LOWEST)

    @property
    def next_deal_or_start(self) -> NextDealSnapshot | None:
        """The next deal, deal 1 at the lowest level for a match never folded."""
        return self.next_deal if self.folded else START


EMPTY = MatchSnapshot(schema=SCHEMA, folded=False)
"""The snapshot of a match never folded (``{}``)."""
