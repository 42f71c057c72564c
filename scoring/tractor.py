"""Three-deck Tractor (拖拉机), the second game (seed 001; docs/rules.md §9).

One side declares (庄家), the other defends. Per deal the referee records the defenders' card points
(5s count 5, 10s and Ks count 10; three decks hold 300); the level change follows seed 001 §4:

============  =======================================
defenders' p  result
============  =======================================
… −115..−60   declarers +4 (one more per further 60)
−55..0        declarers +3
5..55         declarers +2
60..115       declarers +1
120..175      defenders take over (上台), +0
180..235      defenders +1
240..295      defenders +2
300..355      defenders +3
360..415 …    defenders +4 (one more per further 60)
============  =======================================

- Bottom capture (抠底, §15): when the defenders win the last trick the bottom's points are multiplied:
  single ×2, pair ×3, triple ×4, tractor of 2 pairs ×5, of 3 pairs ×6, of 2 triples ×7.
- Declarer rotation (§8): declarers upgrade → the declarer's partner declares next; declarers fall (下台)
  → the declarer's right-hand opponent (下家) declares next. So the declaring *side* stays after an
  upgrade and changes after a fall.
- Penalties (§13, §16, §19, §20): exposing a card, a wrong follow found in the trick, playing out of turn,
  a failed throw (甩牌) — 20 points each. Against the defenders they come off the defenders' points;
  against the declarers they are added to the defenders' points (the declarers hold no points).
- Revoke (藏张, §17: 如庄家藏张除判下台外并根据分数，满120分，防家升级；防家藏张则判庄家直接升级并根据
  分数，不够120分，升级) ends the deal. A **declarer's** revoke makes the declarers fall (下台: the
  defenders declare next); the defenders go up by the table only if their points reach 120, else +0
  (they just take over). A **defender's** revoke makes the declarers go up: by the table at the
  defenders' points if those are under 120, else +1 (always at least one level).
- Wrong number of bottom cards (§9.1: 如庄家留错底牌张数则判“下台”, ``wrong_bottom``): the declarers
  fall. The seed names no level change beyond 下台, and the fault is the declarers' own, so it is read
  like a declarer's revoke: the defenders take over, and go up by the table only if their points reach
  120 (the fault never costs the innocent side what its points earned, nor gives it more).
- Wrong card count found mid-deal (§18 牌张数目不符，无错方升级，规则同藏张；如双方均错则重新该局比赛,
  ``wrong_count``): in one side's hand, exactly that side's revoke; in both sides' hands the deal is
  replayed — it is recorded (it was started and counts as a deal number, so a time call by deal number
  stays meaningful) with the result ``replayed``: no level changes, no points count, and the same
  declarer (same seat) declares again.
- Late arrival (§2) is a :class:`~scoring.adjustments.LateArrival` adjustment: −20 / −30 points in the
  first deal, the first deal forfeited (opponents upgrade), or the round forfeited.
- The last 10 minutes (§3): one more deal is played (``at_time_up: one_more_deal``).

Seed 001 is silent on how a game ends; by analogy with Guandan (A必打, docs/rules.md §1) levels stop at A and a
side wins by keeping the declaration at its own A (passing A). When time ends the round, the higher level
wins and equal levels follow ``time_up_tie``, as in Guandan.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.adjustments import (
    Adjustment,
    AdjustmentRecord,
    Disqualification,
    Effect,
    Forfeit,
    LateArrival,
    LevelPenalty,
    PointPenalty,
    StepDown,
)
from scoring.errors import ErrorCode, ScoringError, bad_input
from scoring.levels import ACE, LOWEST
from scoring.options import Game, LatePenalty, RuleOptions
from scoring.outcome import MatchResult, NextDeal, Reason, Status, last_regular_deal, settle_on_levels
from scoring.seats import PerSide, Seat, Side
from scoring.tractor_deals import (
    PENALTY_POINTS,
    TAKE_OVER_POINTS,
    BottomCapture,
    Capture,
    Infraction,
    LevelChange,
    Penalty,
    TractorDeal,
    TractorDealRecord,
    TractorResult,
    WrongCount,
    level_change,
    parse_tractor_deal,
)

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
    "TractorState",
    "WrongCount",
    "level_change",
    "parse_tractor_deal",
]


@dataclass(frozen=True, slots=True)
class TractorState:
    """A Tractor match after some deals: immutable. Start with :meth:`initial`."""

    options: RuleOptions
    levels: PerSide = (LOWEST, LOWEST)
    reached_at: PerSide = (0, 0)
    declarer: Side | None = None
    """Who declares the next deal (None before the first: decided at the table by 抢庄, seed 001 §7)."""
    declarer_seat: Seat | None = None
    last_declarer: Side | None = None
    deals_played: int = 0
    pending_points: PerSide = (0, 0)
    """Points each side loses in the next deal (late arrival, point penalties)."""
    status: Status = Status.IN_PROGRESS
    winner: Side | None = None
    reason: Reason | None = None
    last_regular_deal: int | None = None
    time_called_during_deal: int | None = None
    events: int = 0

    @classmethod
    def initial(cls, options: RuleOptions) -> TractorState:
        if options.game is not Game.TRACTOR:
            raise bad_input(
                "These are Guandan options; a Guandan match is played with MatchState.",
                "这是掼蛋的规则，请用掼蛋的比赛状态。",
            )
        return cls(options)

    @property
    def is_finished(self) -> bool:
        return self.status is Status.FINISHED

    @property
    def next_deal(self) -> NextDeal | None:
        if self.status is Status.FINISHED:
            return None
        declarer = self.declarer
        return NextDeal(
            number=self.deals_played + 1,
            level=self.levels[declarer] if declarer is not None else LOWEST,
            extra=self.status is Status.NEEDS_EXTRA_DEAL,
            declarer=declarer,
            declarer_seat=self.declarer_seat,
            tractor=True,
        )

    def apply(self, deal: TractorDeal) -> tuple[TractorState, TractorDealRecord]:
        """The state after ``deal`` and what it did; ``self`` is unchanged (the referee's preview)."""
        running = _TractorRunning(self)
        record = running.play(deal)
        return running.freeze(), record

    def preview(self, deal: TractorDeal) -> TractorDealRecord:
        return self.apply(deal)[1]

    def adjust(self, adjustment: Adjustment) -> tuple[TractorState, AdjustmentRecord]:
        running = _TractorRunning(self)
        record = running.adjust(adjustment)
        return running.freeze(), record

    def call_time(self, *, during_deal: int) -> TractorState:
        running = _TractorRunning(self)
        running.call_time(during_deal)
        return running.freeze()

    def result(
        self, *, deals: Sequence[TractorDealRecord] = (), adjustments: Sequence[AdjustmentRecord] = ()
    ) -> MatchResult:
        return MatchResult(
            options=self.options,
            status=self.status,
            winner=self.winner,
            reason=self.reason,
            levels=self.levels,
            a_failures=None,
            points=None,
            games=None,
            deals=tuple(deals),
            adjustments=tuple(adjustments),
            next_deal=self.next_deal,
            last_regular_deal=self.last_regular_deal,
        )


class _TractorRunning:
    """Mutable accumulator behind :class:`TractorState` (Tractor is not on a benchmark's hot path, so
    this favours plainness)."""

    def __init__(self, state: TractorState) -> None:
        self.options = state.options
        self.levels = list(state.levels)
        self.reached = list(state.reached_at)
        self.declarer = state.declarer
        self.declarer_seat = state.declarer_seat
        self.last_declarer = state.last_declarer
        self.deals = state.deals_played
        self.pending = list(state.pending_points)
        self.status = state.status
        self.winner = state.winner
        self.reason = state.reason
        self.last_regular = state.last_regular_deal
        self.time_called = state.time_called_during_deal
        self.events = state.events

    def result(
        self, records: Sequence[TractorDealRecord], adjustments: Sequence[AdjustmentRecord]
    ) -> MatchResult:
        return self.freeze().result(deals=records, adjustments=adjustments)

    def freeze(self) -> TractorState:
        return TractorState(
            options=self.options,
            levels=(self.levels[0], self.levels[1]),
            reached_at=(self.reached[0], self.reached[1]),
            declarer=self.declarer,
            declarer_seat=self.declarer_seat,
            last_declarer=self.last_declarer,
            deals_played=self.deals,
            pending_points=(self.pending[0], self.pending[1]),
            status=self.status,
            winner=self.winner,
            reason=self.reason,
            last_regular_deal=self.last_regular,
            time_called_during_deal=self.time_called,
            events=self.events,
        )

    def play(self, deal: TractorDeal) -> TractorDealRecord:
        number = self.deals + 1
        if self.status is Status.FINISHED:
            raise _finished(self.winner, self.reason, f"deal {number} cannot be entered", number)
        if not isinstance(deal, TractorDeal):
            raise bad_input(
                f"Deal {number} of a Tractor match must give the declarer and the defenders' points.",
                f"拖拉机比赛的第 {number} 副必须填写庄家和防家得分。",
                number,
            )
        declarer, seat = self._declarer_of(deal, number)
        _check_faults(deal, declarer, number)  # before any change: a refused deal changes nothing
        defenders = declarer.other
        extra = self.status is Status.NEEDS_EXTRA_DEAL
        self.events = event = self.events + 1
        if deal.wrong_count is WrongCount.BOTH:
            return self._replayed(deal, number, declarer, seat, extra)

        penalty_points = 0
        for penalty in deal.penalties:
            penalty_points += -PENALTY_POINTS if penalty.side is defenders else PENALTY_POINTS
        penalty_points += self.pending[declarer] - self.pending[defenders]
        self.pending = [0, 0]
        bottom_points = deal.bottom.total if deal.bottom is not None else 0
        total = deal.defender_points + bottom_points + penalty_points

        change = _fault_change(level_change(total), deal, declarer)

        level = self.levels[declarer]
        passed = False
        if change.declarers_keep:
            gainer = declarer
            passed = level == ACE  # declarers keep their own A: the game is won
            next_declarer, next_seat = declarer, (seat.partner if seat is not None else None)
        else:
            gainer = defenders
            next_declarer, next_seat = defenders, (seat.right_hand_opponent if seat is not None else None)
        upgrade = 0
        if not passed:
            before = self.levels[gainer]
            after = min(ACE, before + change.levels)
            if after != before:
                self.levels[gainer] = after
                self.reached[gainer] = event
            upgrade = after - before
        self.deals = number
        self.last_declarer = declarer
        self.declarer, self.declarer_seat = next_declarer, next_seat
        record = TractorDealRecord(
            number=number,
            declarer=declarer,
            declarer_seat=seat,
            level=level,
            defender_points=deal.defender_points,
            bottom=deal.bottom,
            penalty_points=penalty_points,
            total_points=total,
            result=change.result,
            upgrade=upgrade,
            revoke=deal.revoke,
            passed_a=passed,
            levels_after=(self.levels[0], self.levels[1]),
            next_declarer=next_declarer,
            next_declarer_seat=next_seat,
            extra=extra,
            wrong_bottom=deal.wrong_bottom,
            wrong_count=deal.wrong_count,
        )
        if extra:
            if passed:
                self._finish(gainer, Reason.PASSED_A)
            elif upgrade:  # seed 003 先升级的为获胜方 (docs/rules.md §2): the side that goes up wins
                self._finish(gainer, Reason.EXTRA_DEAL)
            # else nobody went up (a take-over at +0, or capped at A): another extra deal follows
        elif passed:
            self._finish(gainer, Reason.PASSED_A)
        elif self.last_regular is not None and number >= self.last_regular:
            self._settle()
        return record

    def _replayed(
        self, deal: TractorDeal, number: int, declarer: Side, seat: Seat | None, extra: bool
    ) -> TractorDealRecord:
        """Seed 001 §18 如双方均错则重新该局比赛: the deal is void and played again — nothing changes,
        the same declarer declares; points pending from a late arrival or a penalty carry over to the
        replay. When it was the last regular deal, the replay takes its place."""
        self.deals = number
        if self.last_regular is not None and number >= self.last_regular:
            self.last_regular = number + 1
        self.declarer, self.declarer_seat = declarer, seat
        return TractorDealRecord(
            number=number,
            declarer=declarer,
            declarer_seat=seat,
            level=self.levels[declarer],
            defender_points=deal.defender_points,
            bottom=None,
            penalty_points=0,
            total_points=0,
            result=TractorResult.REPLAYED,
            upgrade=0,
            revoke=None,
            passed_a=False,
            levels_after=(self.levels[0], self.levels[1]),
            next_declarer=declarer,
            next_declarer_seat=seat,
            extra=extra,
            wrong_bottom=False,
            wrong_count=WrongCount.BOTH,
        )

    def _declarer_of(self, deal: TractorDeal, number: int) -> tuple[Side, Seat | None]:
        given = deal.declarer
        seat = deal.declarer_seat
        if seat is not None:
            if given is not None and seat.side is not given:
                raise bad_input(
                    f"Deal {number}: seat {seat.value} is not on side {given.code}.",
                    f"第 {number} 副：座位 {seat.value} 不属于 {given.label_zh}。",
                    number,
                )
            given = seat.side
        expected = self.declarer
        if expected is None:
            if given is None:
                raise bad_input(
                    f"Deal {number} needs the 'declarer' (who won the first declaration, 抢庄).",
                    f"第 {number} 副需要填写庄家 declarer（首副由抢庄决定）。",
                    number,
                )
            return given, seat
        if given is not None and given is not expected:
            raise bad_input(
                f"Deal {number} is declared by {expected.code} under the rotation (seed 001 §8), "
                f"not {given.code}.",
                f"按轮庄规定（规则 001 第八条），第 {number} 副应由{expected.label_zh}坐庄，"
                f"而不是{given.label_zh}。",
                number,
            )
        known = self.declarer_seat
        if seat is not None and known is not None and seat is not known:
            raise bad_input(
                f"Deal {number} is declared by seat {known.value} under the rotation (seed 001 §8), "
                f"not {seat.value}.",
                f"按轮庄规定，第 {number} 副应由 {known.value} 坐庄，而不是 {seat.value}。",
                number,
            )
        return expected, seat if seat is not None else known

    def _settle(self) -> None:
        status, winner, reason = settle_on_levels(
            levels=(self.levels[0], self.levels[1]),
            reached_at=(self.reached[0], self.reached[1]),
            last_setter=self.last_declarer,
            tie=self.options.time_up_tie,
            on_stage=self.declarer,
        )
        self.status, self.winner, self.reason = status, winner, reason

    def _finish(self, winner: Side | None, reason: Reason) -> None:
        self.status, self.winner, self.reason = Status.FINISHED, winner, reason

    def call_time(self, during_deal: int) -> None:
        self.last_regular = last_regular_deal(
            options=self.options, during_deal=during_deal, called_before=self.time_called, played=self.deals
        )
        self.time_called = during_deal
        self.events += 1
        if self.status is Status.IN_PROGRESS and self.deals >= self.last_regular:
            self._settle()

    def adjust(self, adjustment: Adjustment) -> AdjustmentRecord:
        if self.status is Status.FINISHED:
            what = f"a {adjustment.kind} adjustment cannot be applied"
            raise _finished(self.winner, self.reason, what, None)
        self.events += 1
        if isinstance(adjustment, Forfeit):
            return self._forfeit(adjustment, adjustment.side)
        if isinstance(adjustment, Disqualification):  # docs/rules.md §7: it forfeits the match
            self._finish(adjustment.side.other, Reason.FORFEIT)
            return AdjustmentRecord(adjustment, Effect.DISQUALIFIED, 0, (self.levels[0], self.levels[1]))
        if isinstance(adjustment, StepDown):
            return self._step_down(adjustment)
        if isinstance(adjustment, LevelPenalty):
            return self._opponents_upgrade(
                adjustment, adjustment.side, adjustment.levels, Effect.OPPONENTS_UPGRADE
            )
        if isinstance(adjustment, PointPenalty):
            return self._next_deal_points(adjustment, adjustment.side, adjustment.points)
        if isinstance(adjustment, LateArrival):
            band = self.options.late_arrival_band(adjustment.minutes)
            if band.penalty is LatePenalty.POINT_DEDUCTION:
                return self._next_deal_points(adjustment, adjustment.side, band.amount)
            if band.penalty is LatePenalty.LEVEL_PENALTY:
                return self._opponents_upgrade(
                    adjustment, adjustment.side, band.amount, Effect.OPPONENTS_UPGRADE
                )
            if band.penalty is LatePenalty.FORFEIT_FIRST_DEAL:
                if self.deals:
                    raise bad_input(
                        "A forfeited first deal can only be recorded before the first deal is played.",
                        "首局判负只能在第一副开始前登记。",
                    )
                record = self._opponents_upgrade(
                    adjustment, adjustment.side, band.amount, Effect.FIRST_DEAL_FORFEITED
                )
                # seed 001 §2 首局自动放弃，对手自动升级: the opponents won the first deal, so they declare
                self.declarer, self.declarer_seat = adjustment.side.other, None
                return record
            if band.penalty is LatePenalty.FORFEIT_MATCH:
                return self._forfeit(adjustment, adjustment.side)
            return AdjustmentRecord(adjustment, Effect.WARNING, 0, (self.levels[0], self.levels[1]))
        raise bad_input(f"Unknown adjustment {adjustment!r}.", "未知的调整项。")

    def _step_down(self, adjustment: StepDown) -> AdjustmentRecord:
        """Seed 001 §9(四) 该轮自动下台 (docs/rules.md §7): the side that would declare the next deal steps
        down; the defenders declare it at their own level — the declarer's right-hand opponent (下家), as
        after a fall (§8(四)). Levels do not change."""
        declarers = self.declarer
        if declarers is None:
            raise bad_input(
                "Nobody declares yet (the first deal's declarer is decided at the table, 抢庄): there is no "
                "declaring side to step down.",
                "尚未确定庄家（首副由抢庄决定），没有可以下台的庄家。",
            )
        if adjustment.side is not declarers:
            raise bad_input(
                f"Only the declarers step down: {declarers.code} declare the next deal, not "
                f"{adjustment.side.code}.",
                f"只有庄家才能下台：下一副由{declarers.label_zh}坐庄，而不是{adjustment.side.label_zh}。",
            )
        seat = self.declarer_seat
        self.declarer = declarers.other
        self.declarer_seat = seat.right_hand_opponent if seat is not None else None
        return AdjustmentRecord(adjustment, Effect.STEPPED_DOWN, 0, (self.levels[0], self.levels[1]))

    def _forfeit(self, adjustment: Adjustment, side: Side | None) -> AdjustmentRecord:
        self._finish(side.other if side is not None else None, Reason.FORFEIT)
        return AdjustmentRecord(adjustment, Effect.FORFEIT, 0, (self.levels[0], self.levels[1]))

    def _opponents_upgrade(
        self, adjustment: Adjustment, side: Side, levels: int, effect: Effect
    ) -> AdjustmentRecord:
        opponents = side.other
        before = self.levels[opponents]
        after = min(ACE, before + levels)
        if after != before:
            self.levels[opponents] = after
            self.reached[opponents] = self.events
        return AdjustmentRecord(adjustment, effect, after - before, (self.levels[0], self.levels[1]))

    def _next_deal_points(self, adjustment: Adjustment, side: Side, points: int) -> AdjustmentRecord:
        self.pending[side] += points
        return AdjustmentRecord(adjustment, Effect.NEXT_DEAL_POINTS, points, (self.levels[0], self.levels[1]))


def _check_faults(deal: TractorDeal, declarer: Side, number: int) -> None:
    """Refuse faults that cannot all have ended one deal: the declarers' and the defenders' together, or
    anything beside a replay (seed 001 §18: the replayed deal is void)."""
    if deal.wrong_count is WrongCount.BOTH:
        if deal.revoke is not None or deal.wrong_bottom or deal.bottom is not None or deal.penalties:
            raise bad_input(
                f"Deal {number} is replayed (wrong card counts in both sides' hands), so it has no revoke, "
                "wrong bottom, bottom capture or penalties.",
                f"第 {number} 副双方牌张数目均不符，重新比赛，不能再登记藏张、留错底牌、抠底或罚分。",
                number,
            )
        return
    faulty = deal.faulty_side
    if deal.wrong_bottom:
        if faulty is not None and faulty is not declarer:
            raise bad_input(
                f"Deal {number}: the declarers buried the wrong bottom and the defenders "
                f"{'revoked' if deal.revoke is not None else 'had a wrong card count'}; record the fault "
                "that ended the deal.",
                f"第 {number} 副：庄家留错底牌，防家又藏张或牌张数目不符；请只登记结束该副的违例。",
                number,
            )
    elif (
        deal.revoke is not None
        and deal.wrong_count is not None
        and deal.wrong_count.side is not deal.revoke
    ):
        raise bad_input(
            f"Deal {number}: a revoke by {deal.revoke.code} and a wrong card count in "
            f"{deal.wrong_count.value}'s hands; record the fault that ended the deal.",
            f"第 {number} 副：同时登记了{deal.revoke.label_zh}藏张和另一方牌张数目不符；请只登记结束该副的违例。",
            number,
        )


def _fault_change(change: LevelChange, deal: TractorDeal, declarer: Side) -> LevelChange:
    """The level change of a deal ended by a fault (seed 001 §9.1, §17, §18; docs/rules.md §9), from the
    table's ``change`` at the defenders' points (the faults were checked by :func:`_check_faults`).

    - the declarers' fault (their revoke, their wrong card count, a wrong number of bottom cards): the
      declarers fall (下台); the defenders go up by the table only from 120 points (满120分，防家升级),
      else they take over at +0;
    - the defenders' fault (revoke, wrong card count): the declarers go up directly (直接升级), by the
      table when the defenders' points are under 120 (不够120分), else by one level.
    """
    faulty = declarer if deal.wrong_bottom else deal.faulty_side
    if faulty is None:
        return change
    if faulty is declarer:  # 下台
        gain = 0 if change.declarers_keep else change.levels
        return LevelChange(TractorResult.DEFENDERS_UP if gain else TractorResult.DEFENDERS_TAKE_OVER, gain)
    gain = change.levels if change.declarers_keep else 1  # 直接升级
    return LevelChange(TractorResult.DECLARERS_UP, max(1, gain))


def _finished(winner: Side | None, reason: Reason | None, what: str, deal: int | None) -> ScoringError:
    why = reason.value if reason is not None else "finished"
    won = f"{winner.code} won ({why})" if winner is not None else f"it ended ({why})"
    return ScoringError(
        ErrorCode.MATCH_FINISHED,
        f"The match is already finished: {won}; {what}.",
        deal,
        message_zh="比赛已经结束，不能再录入。",
    )
