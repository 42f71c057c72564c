"""Dou Dizhu (斗地主), the third game: a three-seat table's match in one round (docs/rules.md §10; seed 004 and
the national 《中国二打一扑克竞赛规则》).

Three individuals sit at seats E, S and W. A table plays ``deals`` deals (1–12; seed 004: usually 3, 5 or 7), each
scored by :mod:`scoring.doudizhu_deals`; each player's points for the round are the sum of their deals.
The table is ``finished`` after its last deal, or — under a time cap — after the deal in play when time
was called (:meth:`DoudizhuTable.call_time`). A deal after that is ``match_finished``.

- ``landlord_by: lot`` (seed 004: the landlord seat drawn by lot each round): every bid is 1; another bid
  is ``invalid_deal``. Under ``landlord_rotation: counter_clockwise`` (seed 004 轮流坐庄, the default) the
  drawn seat is the first deal's landlord and each later deal's is the next seat as play runs (E → W → S);
  a deal with another landlord is ``invalid_deal``.
- ``deal_scoring: cards_left``: the deal is won, for "deals won", by the player who went out alone
  (``cards_left_winner: player``, seed 004 积分最高者为此局的胜利者), or by that player's side (``side``).
- Late arrival and no-shows (:class:`LatePlayer`), recorded before the first deal: a player more than
  ``late_forfeit_minutes`` late, or absent, forfeits the round — they score ``forfeit_points`` (default
  −6 × ``base``), the other two at the table ``bye_points``, and the table is not played (it is
  finished). Within the limit the lateness is only recorded (a warning). A second absent player at the
  same table forfeits too (two forfeits, one player scoring ``bye_points``).
- A point penalty (:class:`SeatPenalty`, docs/rules.md §7): points off one player after deal
  ``after_deal``, not zero-sum, with a reason.
- A disqualification (:class:`SeatDisqualification`, 取消比赛资格, docs/rules.md §7): before the table's first
  deal the player forfeits the round as a no-show does; after it the table ends there and the deals
  played stand. The standings rank the player last, marked.

:meth:`DoudizhuTable.apply` on the immutable state is also the referee's preview. :func:`replay_table`
folds a whole table, :func:`replay_table_partial` stops at the first refusal (as
:func:`scoring.match.replay_partial` does for the other games); ``python -m scoring replay`` reaches
:func:`replay_doudizhu_json` through :func:`scoring.match.replay_json`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from scoring.doudizhu_deals import (
    CardsLeftDeal,
    DoudizhuDeal,
    DoudizhuDealRecord,
    StakeDeal,
    Winner,
    cards_left_points,
    deal_multiple,
    parse_doudizhu_deals,
    stake_points,
)
from scoring.errors import ErrorCode, ScoringError, bad_input
from scoring.options import (
    CardsLeftWinner,
    DealScoring,
    Game,
    LandlordBy,
    LandlordRotation,
    PointPenalties,
    RuleOptions,
)
from scoring.outcome import Status, last_regular_deal
from scoring.three_seats import THREE_SEATS, ThreeSeat, Trio, trio_json

__all__ = [
    "DoudizhuResult",
    "DoudizhuTable",
    "LatePlayer",
    "SeatDisqualification",
    "SeatPenalty",
    "TableAdjustment",
    "TableAdjustmentRecord",
    "TableEffect",
    "TablePartialReplay",
    "parse_table_adjustments",
    "replay_doudizhu_json",
    "replay_table",
    "replay_table_partial",
]


# -- late arrival and no-shows ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class LatePlayer:
    """The player at ``seat`` arrived ``minutes`` late, or (``minutes`` None) did not come (docs/rules.md §10).
    Recorded before the first deal, with a reason."""

    seat: ThreeSeat
    minutes: int | None
    reason: str = ""

    @property
    def kind(self) -> str:
        return "no_show" if self.minutes is None else "late_arrival"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "seat": self.seat.value}
        if self.minutes is not None:
            out["minutes"] = self.minutes
        out["reason"] = self.reason
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatPenalty:
    """Misconduct by the player at ``seat``: ``points`` off their total after deal ``after_deal`` (docs/rules.md
    §7: in Dou Dizhu points are deducted from one player, not zero-sum, with a reason)."""

    seat: ThreeSeat
    points: int
    after_deal: int = 0
    reason: str = ""

    kind = "point_penalty"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seat": self.seat.value,
            "points": self.points,
            "after_deal": self.after_deal,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatDisqualification:
    """The chief referee disqualifies the player at ``seat`` after deal ``after_deal`` (取消比赛资格 —
    cheating, seed 004 一经发现将取消比赛资格; docs/rules.md §7), with a reason."""

    seat: ThreeSeat
    after_deal: int = 0
    reason: str = ""

    kind = "disqualification"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat.value, "after_deal": self.after_deal, "reason": self.reason}


TableAdjustment = LatePlayer | SeatPenalty | SeatDisqualification
"""An adjustment at a three-seat table."""


class TableEffect(str, Enum):
    """What a table adjustment did."""

    WARNING = "warning"
    """Within ``late_forfeit_minutes``: recorded, nothing changes."""
    FORFEIT = "forfeit"
    """The player forfeits the round; the table is not played."""
    POINTS_DEDUCTED = "points_deducted"
    """A point penalty: points off one player."""
    DISQUALIFIED = "disqualified"
    """The player is disqualified: before the first deal a forfeit, after it the table ends there."""


@dataclass(frozen=True, slots=True)
class TableAdjustmentRecord:
    adjustment: TableAdjustment
    effect: TableEffect
    points_after: Trio

    def to_json(self) -> dict[str, Any]:
        return {**self.adjustment.to_json(), "effect": self.effect.value, "points_after": trio_json(self.points_after)}


def parse_table_adjustments(data: object) -> tuple[TableAdjustment, ...]:
    """``[{"kind": "late_arrival", "seat": "E", "minutes": 12, "reason": "…"}, {"kind": "no_show", "seat":
    "W"}, {"kind": "point_penalty", "seat": "S", "points": 5, "after_deal": 2, "reason": "…"},
    {"kind": "disqualification", "seat": "W", "after_deal": 1, "reason": "…"}]`` (``reason`` optional for a
    late arrival or a no-show, required for a penalty and a disqualification; ``after_deal`` default 0)."""
    if not isinstance(data, list):
        raise bad_input("'adjustments' must be a list.", "adjustments 必须是列表。")
    out: list[TableAdjustment] = []
    for item in data:
        kind = item.get("kind") if isinstance(item, Mapping) else None
        if kind not in _ADJUSTMENT_FIELDS:
            raise bad_input(
                "Each Dou Dizhu adjustment needs a 'kind': late_arrival, no_show, point_penalty or "
                "disqualification.",
                "斗地主的每个调整项需要 kind：late_arrival（迟到）、no_show（缺席）、point_penalty（罚分）或 "
                "disqualification（取消资格）。",
            )
        assert isinstance(item, Mapping)
        unknown = set(item) - _ADJUSTMENT_FIELDS[kind]
        if unknown:
            raise bad_input(
                f"A {kind} adjustment has no field {sorted(unknown)[0]!r}.",
                f"{kind} 调整项没有字段 {sorted(unknown)[0]!r}。",
            )
        try:
            seat = ThreeSeat.parse(item.get("seat"))
        except ScoringError as error:
            raise bad_input(error.message, error.message_zh) from None
        minutes = None
        if kind == "late_arrival":
            minutes = item.get("minutes")
            if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
                raise bad_input(
                    f"A late arrival needs 'minutes' (a whole number ≥ 0); got {minutes!r}.",
                    f"迟到需要填写 minutes（不小于 0 的整数）；收到 {minutes!r}。",
                )
        reason = item.get("reason", "")
        if not isinstance(reason, str):
            raise bad_input("An adjustment's 'reason' must be text.", "调整项的 reason 必须是文字。")
        if kind in ("late_arrival", "no_show"):
            out.append(LatePlayer(seat=seat, minutes=minutes, reason=reason))
            continue
        after_deal = _whole(item.get("after_deal", 0), "after_deal", minimum=0)
        if not reason.strip():
            raise bad_input(
                f"A {kind} needs a 'reason' (the chief referee's ruling, docs/rules.md §7).",
                f"{kind} 需要填写 reason（总裁判长的判罚理由，规则第 7 节）。",
            )
        if kind == "point_penalty":
            points = _whole(item.get("points"), "points", minimum=1)
            out.append(SeatPenalty(seat=seat, points=points, after_deal=after_deal, reason=reason))
        else:
            out.append(SeatDisqualification(seat=seat, after_deal=after_deal, reason=reason))
    return tuple(out)


def _whole(value: object, name: str, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise bad_input(
            f"Adjustment field {name!r} must be a whole number ≥ {minimum}; got {value!r}.",
            f"调整项字段 {name!r} 必须是不小于 {minimum} 的整数；收到 {value!r}。",
        )
    return value


_ADJUSTMENT_FIELDS = {
    "late_arrival": {"kind", "seat", "minutes", "reason"},
    "no_show": {"kind", "seat", "reason"},
    "point_penalty": {"kind", "seat", "points", "after_deal", "reason"},
    "disqualification": {"kind", "seat", "after_deal", "reason"},
}


# -- the table ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DoudizhuResult:
    """A table's match as it stands; :meth:`to_json` is what ``python -m scoring replay`` prints."""

    options: RuleOptions
    status: Status
    points: Trio
    deals_won: Trio
    """Deals each seat's side won (a farmer wins with the other farmer)."""
    landlord_wins: Trio
    """Deals each seat won as landlord."""
    forfeited: tuple[ThreeSeat, ...]
    """Seats that forfeited the round (late or absent); the table was then not played."""
    disqualified: tuple[ThreeSeat, ...]
    """Seats the chief referee disqualified (docs/rules.md §7)."""
    deals: tuple[DoudizhuDealRecord, ...]
    adjustments: tuple[TableAdjustmentRecord, ...]
    next_deal: int | None
    """The number of the deal to play next; None once finished."""
    last_regular_deal: int
    """``deals``, or the deal during which time was called."""
    next_landlord: ThreeSeat | None = None
    """Whose turn it is to be landlord next, when landlords are drawn by lot and passed on (seed 004
    轮流坐庄); None when the bid or the draw decides."""

    @property
    def is_finished(self) -> bool:
        return self.status is Status.FINISHED

    def _next_deal_json(self) -> dict[str, Any] | None:
        if self.next_deal is None:
            return None
        if self.next_landlord is None:
            return {"number": self.next_deal}
        return {"number": self.next_deal, "landlord": self.next_landlord.value}

    def to_json(self) -> dict[str, Any]:
        """docs/rules.md §10: ``status``, ``points`` per seat, ``deals_won`` per seat (who won each deal is the
        rules' question — the winning side, or under cards-left scoring the player who went out: the
        standings read it from here), one record per deal; then, as for the other
        games, the adjustments, the next deal (``{"number": n}``, with ``"landlord"`` when it is a seat's
        turn, or null) and the last regular deal."""
        return {
            "status": self.status.value,
            "points": trio_json(self.points),
            "deals_won": trio_json(self.deals_won),
            "deals": [record.to_json() for record in self.deals],
            "adjustments": [record.to_json() for record in self.adjustments],
            "next_deal": self._next_deal_json(),
            "last_regular_deal": self.last_regular_deal,
        }


@dataclass(frozen=True, slots=True)
class DoudizhuTable:
    """A Dou Dizhu table after some deals: immutable. Start with :meth:`initial`."""

    options: RuleOptions
    points: Trio = (0, 0, 0)
    deals_won: Trio = (0, 0, 0)
    landlord_wins: Trio = (0, 0, 0)
    deals_played: int = 0
    status: Status = Status.IN_PROGRESS
    time_called_during_deal: int | None = None
    forfeited: tuple[ThreeSeat, ...] = ()
    disqualified: tuple[ThreeSeat, ...] = ()
    last_landlord: ThreeSeat | None = None
    """The landlord of the last deal played (None before the first)."""

    @classmethod
    def initial(cls, options: RuleOptions) -> DoudizhuTable:
        if options.game is not Game.DOUDIZHU:
            raise bad_input(
                f"These are {options.game.value} options; a Dou Dizhu table needs game doudizhu.",
                f"这不是斗地主的规则（game 为 {options.game.value}）。",
            )
        return cls(options)

    @property
    def is_finished(self) -> bool:
        return self.status is Status.FINISHED

    @property
    def last_regular_deal(self) -> int:
        deals = self.options.deals or 0
        called = self.time_called_during_deal
        return min(deals, called) if called is not None else deals

    @property
    def next_deal(self) -> int | None:
        return None if self.is_finished else self.deals_played + 1

    @property
    def next_landlord(self) -> ThreeSeat | None:
        """Whose turn it is to be landlord in the next deal, when the rules say (``landlord_by: lot`` with
        the counter-clockwise rotation, after the first deal); None when the bid or the draw decides."""
        options = self.options
        if self.is_finished or self.last_landlord is None or options.landlord_by is not LandlordBy.LOT:
            return None
        if options.landlord_rotation is not LandlordRotation.COUNTER_CLOCKWISE:
            return None
        return self.last_landlord.next_to_play

    def apply(self, deal: DoudizhuDeal) -> tuple[DoudizhuTable, DoudizhuDealRecord]:
        """The table after ``deal`` and what it did; ``self`` is unchanged (the referee's preview)."""
        number = self.deals_played + 1
        if self.is_finished:
            raise self._finished(f"deal {number} cannot be entered", f"不能再录入第 {number} 局", number)
        options = self.options
        multiple = stake = None
        turn = self.next_landlord
        if turn is not None and isinstance(deal, StakeDeal | CardsLeftDeal) and deal.landlord is not turn:
            raise _invalid(
                f"Deal {number}: landlords are drawn by lot and passed on in turn (轮流坐庄): after "
                f"{self.last_landlord} the landlord is {turn.value}, not {deal.landlord.value} (docs/rules.md §10).",
                f"第 {number} 局：地主抽签确定后轮流坐庄，上一局地主为 {self.last_landlord}，本局地主应为 "
                f"{turn.value}，不是 {deal.landlord.value}（规则第 10 节）。",
                number,
            )
        if isinstance(deal, StakeDeal):
            if options.deal_scoring is not DealScoring.STAKE:
                raise _invalid(
                    f"Deal {number}: this table scores by cards left; give each seat's cards_left.",
                    f"第 {number} 局：本桌按剩余牌数计分，请填写每家的 cards_left。",
                    number,
                )
            if options.landlord_by is LandlordBy.LOT and deal.bid != 1:
                raise _invalid(
                    f"Deal {number}: landlords are drawn by lot (landlord_by lot), so the bid is 1, not "
                    f"{deal.bid}.",
                    f"第 {number} 局：地主由抽签确定（landlord_by lot），叫分只能是 1，不能是 {deal.bid}。",
                    number,
                )
            multiple = deal_multiple(bid=deal.bid, bombs=deal.bombs, spring=deal.spring, cap=options.multiple_cap)
            stake = options.base * multiple
            points = stake_points(landlord=deal.landlord, winner=deal.winner, stake=stake)
        elif isinstance(deal, CardsLeftDeal):
            if options.deal_scoring is not DealScoring.CARDS_LEFT:
                raise _invalid(
                    f"Deal {number}: this table scores by stake; give the winner (and bid, bombs, spring), "
                    "not cards_left.",
                    f"第 {number} 局：本桌按倍数计分，请填写胜方（及叫分、炸弹、春天），而不是 cards_left。",
                    number,
                )
            points = cards_left_points(cards_left=deal.cards_left)
        else:
            raise bad_input(
                f"Deal {number} of a Dou Dizhu table must be a StakeDeal or a CardsLeftDeal.",
                f"斗地主第 {number} 局的录入无效。",
                number,
            )
        landlord, winner = deal.landlord, deal.winner
        won: tuple[ThreeSeat, ...] = (landlord,) if winner is Winner.LANDLORD else landlord.others
        if isinstance(deal, CardsLeftDeal) and options.cards_left_winner is CardsLeftWinner.PLAYER:
            won = (deal.went_out,)  # seed 004 积分最高者为此局的胜利者: the player who went out, alone
        points_after = _add(self.points, points)
        table = dataclasses.replace(
            self,
            points=points_after,
            deals_won=_add(self.deals_won, _ones(won)),
            landlord_wins=_add(self.landlord_wins, _ones(won if winner is Winner.LANDLORD else ())),
            deals_played=number,
            last_landlord=landlord,
        )
        if number >= table.last_regular_deal:
            table = dataclasses.replace(table, status=Status.FINISHED)
        record = DoudizhuDealRecord(number, deal, landlord, winner, multiple, stake, points, points_after)
        return table, record

    def preview(self, deal: DoudizhuDeal) -> DoudizhuDealRecord:
        return self.apply(deal)[1]

    def call_time(self, *, during_deal: int) -> DoudizhuTable:
        """Time was called while deal ``during_deal`` was in play: that deal is the table's last
        (docs/rules.md §10, the deal in play is finished)."""
        if self.is_finished:
            raise self._finished("time cannot be called", "不能再宣布时间到", None)
        last_regular_deal(
            options=self.options,
            during_deal=during_deal,
            called_before=self.time_called_during_deal,
            played=self.deals_played,
        )  # refuses a bad deal number, a second call and a deal already played
        table = dataclasses.replace(self, time_called_during_deal=during_deal)
        if table.deals_played >= table.last_regular_deal:
            table = dataclasses.replace(table, status=Status.FINISHED)
        return table

    def adjust(self, adjustment: TableAdjustment) -> tuple[DoudizhuTable, TableAdjustmentRecord]:
        """A late or absent player (docs/rules.md §10), before the first deal; a point penalty or a
        disqualification (docs/rules.md §7) after the deals played so far."""
        if isinstance(adjustment, SeatPenalty):
            return self._penalty(adjustment)
        if isinstance(adjustment, SeatDisqualification):
            return self._disqualify(adjustment)
        if not isinstance(adjustment, LatePlayer):
            raise bad_input(f"Unknown adjustment {adjustment!r}.", "未知的调整项。")
        if self.deals_played:
            raise bad_input(
                "A late arrival or no-show is recorded before the table's first deal.",
                "迟到或缺席须在本桌第一局之前登记。",
            )
        seat = adjustment.seat
        minutes = adjustment.minutes
        if minutes is not None and minutes <= self.options.late_forfeit_minutes:
            return self, TableAdjustmentRecord(adjustment, TableEffect.WARNING, self.points)
        if self.is_finished and not self.forfeited:
            raise self._finished(f"a {adjustment.kind} cannot be recorded", "不能再登记迟到或缺席", None)
        if seat in self.forfeited:
            raise bad_input(
                f"Seat {seat.value} has already forfeited this round.",
                f"{seat.value} 座本轮已经弃权。",
            )
        forfeited = tuple(s for s in THREE_SEATS if s in self.forfeited or s is seat)
        forfeit, bye = self.options.forfeit_points_in_force, self.options.bye_points
        points = (
            forfeit if THREE_SEATS[0] in forfeited else bye,
            forfeit if THREE_SEATS[1] in forfeited else bye,
            forfeit if THREE_SEATS[2] in forfeited else bye,
        )
        table = dataclasses.replace(self, points=points, forfeited=forfeited, status=Status.FINISHED)
        return table, TableAdjustmentRecord(adjustment, TableEffect.FORFEIT, points)

    def result(
        self,
        *,
        deals: Sequence[DoudizhuDealRecord] = (),
        adjustments: Sequence[TableAdjustmentRecord] = (),
    ) -> DoudizhuResult:
        return DoudizhuResult(
            options=self.options,
            status=self.status,
            points=self.points,
            deals_won=self.deals_won,
            landlord_wins=self.landlord_wins,
            forfeited=self.forfeited,
            disqualified=self.disqualified,
            deals=tuple(deals),
            adjustments=tuple(adjustments),
            next_deal=self.next_deal,
            last_regular_deal=self.last_regular_deal,
            next_landlord=self.next_landlord,
        )

    def _penalty(self, adjustment: SeatPenalty) -> tuple[DoudizhuTable, TableAdjustmentRecord]:
        """Points off one player (not zero-sum). A table that was not played (a forfeit) takes none; a
        table that has played its deals still does — the misconduct may be in its last deal."""
        if self.forfeited:
            raise self._finished("a point penalty cannot be recorded", "不能再登记罚分", None)
        if self.options.point_penalties is PointPenalties.RECORDED:  # a stage created before they counted
            return self, TableAdjustmentRecord(adjustment, TableEffect.WARNING, self.points)
        seat = adjustment.seat
        points = list(self.points)
        points[seat.position] -= adjustment.points
        table = dataclasses.replace(self, points=(points[0], points[1], points[2]))
        return table, TableAdjustmentRecord(adjustment, TableEffect.POINTS_DEDUCTED, table.points)

    def _disqualify(self, adjustment: SeatDisqualification) -> tuple[DoudizhuTable, TableAdjustmentRecord]:
        """Before the first deal: the player forfeits the round as a no-show does (the table is not played);
        after it: the table ends with the deals played, which stand for the other two. Either way the seat
        is marked disqualified for the standings (docs/rules.md §7)."""
        seat = adjustment.seat
        if seat in self.disqualified or seat in self.forfeited:
            raise bad_input(
                f"Seat {seat.value} has already forfeited or been disqualified this round.",
                f"{seat.value} 座本轮已经弃权或被取消资格。",
            )
        if not self.deals_played and not self.forfeited:
            table, record = self.adjust(LatePlayer(seat=seat, minutes=None, reason=adjustment.reason))
            table = dataclasses.replace(table, disqualified=(*self.disqualified, seat))
            return table, TableAdjustmentRecord(adjustment, TableEffect.DISQUALIFIED, record.points_after)
        table = dataclasses.replace(self, disqualified=(*self.disqualified, seat), status=Status.FINISHED)
        return table, TableAdjustmentRecord(adjustment, TableEffect.DISQUALIFIED, table.points)

    def _finished(self, what: str, what_zh: str, deal: int | None) -> ScoringError:
        why = "a player forfeited" if self.forfeited else f"its {self.last_regular_deal} deals are played"
        why_zh = "有选手弃权" if self.forfeited else f"{self.last_regular_deal} 局已打完"
        return ScoringError(
            ErrorCode.MATCH_FINISHED,
            f"The table is already finished ({why}); {what}.",
            deal,
            message_zh=f"本桌比赛已经结束（{why_zh}）；{what_zh}。",
        )


def _invalid(message: str, message_zh: str, deal: int) -> ScoringError:
    return ScoringError(ErrorCode.INVALID_DEAL, message, deal, message_zh=message_zh)


def _add(a: Trio, b: Trio) -> Trio:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _ones(seats: Sequence[ThreeSeat]) -> Trio:
    return (
        int(ThreeSeat.E in seats),
        int(ThreeSeat.S in seats),
        int(ThreeSeat.W in seats),
    )


# -- whole tables -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TablePartialReplay:
    """A table replayed as far as the rules allow (:func:`replay_table_partial`): ``result`` folds
    everything before the first refusal — ``deals_applied`` deals (1..n) and the adjustments at the indices
    ``adjustments_applied`` (indices into the sequence given) — and ``error`` says why the rest was refused
    (None: nothing was)."""

    result: DoudizhuResult
    deals_applied: int
    adjustments_applied: tuple[int, ...]
    error: ScoringError | None

    @property
    def complete(self) -> bool:
        return self.error is None


def replay_table_partial(
    *,
    options: RuleOptions,
    deals: Sequence[DoudizhuDeal],
    adjustments: Sequence[TableAdjustment] = (),
    time_called_during_deal: int | None = None,
) -> TablePartialReplay:
    """Replay a table: time is called first, then for each deal the adjustments set after the previous
    deal (late arrivals and no-shows are all before the first; penalties and disqualifications after
    ``after_deal``), in the order given, then the deal; adjustments set after the last deal come last, and
    one set after a deal that was not entered is refused there. It stops at the first refusal, which
    carries its deal's number (an adjustment's: the deal it follows, None before the first). An invalid
    ``time_called_during_deal`` raises. The result equals applying each item to
    :meth:`DoudizhuTable.apply` / :meth:`DoudizhuTable.adjust` one by one."""
    table = DoudizhuTable.initial(options)
    if time_called_during_deal is not None:
        table = table.call_time(during_deal=time_called_during_deal)
    schedule: dict[int, list[int]] = {}
    for index, adjustment in enumerate(adjustments):
        after = 0 if isinstance(adjustment, LatePlayer) else adjustment.after_deal
        schedule.setdefault(min(after, len(deals) + 1), []).append(index)
    adjustment_records: list[TableAdjustmentRecord] = []
    applied: list[int] = []
    records: list[DoudizhuDealRecord] = []
    error: ScoringError | None = None
    for position in range(len(deals) + 2):
        for index in schedule.get(position, ()):
            adjustment = adjustments[index]
            try:
                if position > len(deals):
                    after = 0 if isinstance(adjustment, LatePlayer) else adjustment.after_deal
                    raise bad_input(
                        f"An adjustment is set after deal {after}, but only {len(deals)} deals have been entered.",
                        f"调整项设在第 {after} 局之后，但只录入了 {len(deals)} 局。",
                    )
                table, adjustment_record = table.adjust(adjustment)
            except ScoringError as refused:
                error = refused if refused.deal is not None or not position else refused.with_deal(position)
                break
            adjustment_records.append(adjustment_record)
            applied.append(index)
        if error is not None or position >= len(deals):
            if error is not None:
                break
            continue
        try:
            table, record = table.apply(deals[position])
        except ScoringError as refused:
            error = refused if refused.deal is not None else refused.with_deal(position + 1)
            break
        records.append(record)
    return TablePartialReplay(
        table.result(deals=records, adjustments=adjustment_records),
        len(records),
        tuple(applied),
        error,
    )


def replay_table(
    *,
    options: RuleOptions,
    deals: Sequence[DoudizhuDeal],
    adjustments: Sequence[TableAdjustment] = (),
    time_called_during_deal: int | None = None,
) -> DoudizhuResult:
    """:func:`replay_table_partial`, raising what it refused (``match_finished``, ``invalid_deal``, …)."""
    partial = replay_table_partial(
        options=options, deals=deals, adjustments=adjustments, time_called_during_deal=time_called_during_deal
    )
    if partial.error is not None:
        raise partial.error
    return partial.result


def replay_doudizhu_json(*, options: RuleOptions, data: Mapping[str, Any]) -> DoudizhuResult:
    """The CLI's ``replay`` for a Dou Dizhu table (``data`` has been checked by
    :func:`scoring.match.replay_json`): ``deals``, optional ``adjustments`` and ``time_called_during_deal``."""
    deals = parse_doudizhu_deals(options=options, data=data["deals"])
    adjustments = parse_table_adjustments(data.get("adjustments", []))
    return replay_table(
        options=options,
        deals=deals,
        adjustments=adjustments,
        time_called_during_deal=data.get("time_called_during_deal"),
    )
