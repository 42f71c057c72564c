"""Adjustments a referee or the chief referee records beside the deals (docs/rules.md §7, §9; seed 001 §2).

- :class:`Forfeit` — a walkover: the side (or both, a double forfeit) loses the match.
- :class:`LateArrival` — a pair ``minutes`` late; the options' late-arrival table decides what it costs.
- :class:`LevelPenalty` — misconduct in a level game: the opponents upgrade ``levels`` (capped at A, so a
  penalty never passes A).
- :class:`PointPenalty` — misconduct in a points format: ``points`` off the side's total; in Tractor, off
  the side's card points in the next deal.
- :class:`Disqualification` — the chief referee disqualifies a side (取消比赛资格, cheating: seeds 001–004;
  docs/rules.md §7): it forfeits this match; the standings rank it last, marked.
- :class:`StepDown` — Tractor only (seed 001 §9(四): 该轮自动下台): the declaring side steps down and the
  defenders declare the next deal at their own level.

Each applies *after* deal ``after_deal`` (0: before the first deal). What an adjustment did is reported as
an :class:`AdjustmentRecord`; the match reducers (:mod:`scoring.match`, :mod:`scoring.tractor`) apply them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from scoring.errors import bad_input
from scoring.seats import PerSide, Side, pair_json

__all__ = [
    "Adjustment",
    "AdjustmentRecord",
    "Disqualification",
    "Effect",
    "Forfeit",
    "LateArrival",
    "LevelPenalty",
    "PointPenalty",
    "StepDown",
    "parse_adjustment",
    "parse_adjustments",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Forfeit:
    """A walkover (弃权). ``side`` None: both pairs forfeit and both lose (docs/rules.md §5)."""

    side: Side | None
    after_deal: int = 0
    reason: str = ""

    kind = "forfeit"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "side": self.side.code if self.side is not None else "both",
            "after_deal": self.after_deal,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class LateArrival:
    """A pair arrived ``minutes`` late (docs/rules.md §7; seed 001 §2). Recorded before the first deal."""

    side: Side
    minutes: int
    after_deal: int = 0

    kind = "late_arrival"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "side": self.side.code,
            "minutes": self.minutes,
            "after_deal": self.after_deal,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class LevelPenalty:
    """Misconduct by ``side``: its opponents upgrade ``levels`` (docs/rules.md §7), capped at A."""

    side: Side
    levels: int
    after_deal: int = 0
    reason: str = ""

    kind = "level_penalty"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "side": self.side.code,
            "levels": self.levels,
            "after_deal": self.after_deal,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class PointPenalty:
    """Misconduct by ``side`` in a points format: ``points`` deducted (docs/rules.md §7)."""

    side: Side
    points: int
    after_deal: int = 0
    reason: str = ""

    kind = "point_penalty"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "side": self.side.code,
            "points": self.points,
            "after_deal": self.after_deal,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Disqualification:
    """The chief referee disqualifies ``side`` (取消比赛资格 — cheating, seeds 001–004; docs/rules.md §7), with
    a reason. It forfeits this match (the opponents win; the deals played stand), its remaining matches
    are forfeited, and the standings rank it last, marked (:func:`scoring.standings.rank`)."""

    side: Side
    after_deal: int = 0
    reason: str = ""

    kind = "disqualification"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side.code, "after_deal": self.after_deal, "reason": self.reason}


@dataclass(frozen=True, slots=True, kw_only=True)
class StepDown:
    """Tractor: the declaring side ``side`` steps down for signalling (seed 001 §9(四): 以不正当的手段…传递非法
    信息…轻则该轮自动下台; docs/rules.md §7, §9). The side that would declare the next deal gives it up: the
    defenders declare it at their own level (the declarer's right-hand opponent, as after a fall), and
    nobody's level changes."""

    side: Side
    after_deal: int = 0
    reason: str = ""

    kind = "step_down"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side.code, "after_deal": self.after_deal, "reason": self.reason}


Adjustment = Forfeit | LateArrival | LevelPenalty | PointPenalty | Disqualification | StepDown


class Effect(str, Enum):
    """What an adjustment did."""

    WARNING = "warning"
    OPPONENTS_UPGRADE = "opponents_upgrade"
    POINTS_DEDUCTED = "points_deducted"
    NEXT_DEAL_POINTS = "next_deal_points"
    """Tractor: the deduction is counted in the next deal's card points (seed 001 §2)."""
    FIRST_DEAL_FORFEITED = "first_deal_forfeited"
    FORFEIT = "forfeit"
    DISQUALIFIED = "disqualified"
    """The side was disqualified: it forfeits the match."""
    STEPPED_DOWN = "stepped_down"
    """Tractor: the declarers stepped down; the defenders declare the next deal."""


@dataclass(frozen=True, slots=True)
class AdjustmentRecord:
    """What one adjustment did: its ``effect``, the levels (or points) the opponents gained or the points
    deducted (``amount``), and the standing after it."""

    adjustment: Adjustment
    effect: Effect
    amount: int
    levels_after: PerSide
    points_after: PerSide | None = None

    def to_json(self) -> dict[str, Any]:
        out = {
            **self.adjustment.to_json(),
            "effect": self.effect.value,
            "amount": self.amount,
            "levels_after": pair_json(self.levels_after),
        }
        if self.points_after is not None:
            out["points_after"] = pair_json(self.points_after)
        return out


_FIELDS: dict[str, set[str]] = {
    "forfeit": {"kind", "side", "after_deal", "reason"},
    "late_arrival": {"kind", "side", "minutes", "after_deal"},
    "level_penalty": {"kind", "side", "levels", "after_deal", "reason"},
    "point_penalty": {"kind", "side", "points", "after_deal", "reason"},
    "disqualification": {"kind", "side", "after_deal", "reason"},
    "step_down": {"kind", "side", "after_deal", "reason"},
}


def _whole(data: Mapping[str, Any], name: str, *, minimum: int, default: int | None = None) -> int:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise bad_input(
            f"Adjustment field {name!r} must be a whole number ≥ {minimum}; got {value!r}.",
            f"调整项字段 {name!r} 必须是不小于 {minimum} 的整数；收到 {value!r}。",
        )
    return value


def parse_adjustment(data: object) -> Adjustment:
    """One adjustment from its JSON form, e.g. ``{"kind": "level_penalty", "side": "EW", "levels": 1,
    "after_deal": 3, "reason": "signalling"}`` or ``{"kind": "forfeit", "side": "both"}``."""
    if not isinstance(data, Mapping) or data.get("kind") not in _FIELDS:
        raise bad_input(
            "Each adjustment needs a 'kind': forfeit, late_arrival, level_penalty, point_penalty, "
            "disqualification or step_down.",
            "每个调整项需要 kind：forfeit、late_arrival、level_penalty、point_penalty、disqualification 或 step_down。",
        )
    kind = data["kind"]
    unknown = set(data) - _FIELDS[kind]
    if unknown:
        raise bad_input(
            f"A {kind} adjustment has no field {sorted(unknown)[0]!r}.",
            f"{kind} 调整项没有字段 {sorted(unknown)[0]!r}。",
        )
    after_deal = _whole(data, "after_deal", minimum=0, default=0)
    reason = data.get("reason", "")
    if not isinstance(reason, str):
        raise bad_input("An adjustment's 'reason' must be text.", "调整项的 reason 必须是文字。")
    if kind == "forfeit":
        side = None if data.get("side") == "both" else Side.parse(data.get("side"))
        return Forfeit(side=side, after_deal=after_deal, reason=reason)
    if kind == "late_arrival":
        return LateArrival(
            side=Side.parse(data.get("side")),
            minutes=_whole(data, "minutes", minimum=0),
            after_deal=after_deal,
        )
    if kind in ("disqualification", "step_down"):
        if not reason.strip():
            raise bad_input(
                f"A {kind} needs a 'reason' (the chief referee's ruling, docs/rules.md §7).",
                f"{kind} 需要填写 reason（总裁判长的判罚理由，规则第 7 节）。",
            )
        kept = Disqualification if kind == "disqualification" else StepDown
        return kept(side=Side.parse(data.get("side")), after_deal=after_deal, reason=reason)
    if kind == "level_penalty":
        return LevelPenalty(
            side=Side.parse(data.get("side")),
            levels=_whole(data, "levels", minimum=1),
            after_deal=after_deal,
            reason=reason,
        )
    return PointPenalty(
        side=Side.parse(data.get("side")),
        points=_whole(data, "points", minimum=1),
        after_deal=after_deal,
        reason=reason,
    )


def parse_adjustments(data: object) -> tuple[Adjustment, ...]:
    if not isinstance(data, list):
        raise bad_input("'adjustments' must be a list.", "adjustments 必须是列表。")
    return tuple(parse_adjustment(item) for item in data)
