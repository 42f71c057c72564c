"""The Guandan game and match reducer: immutable state + a deal → new state + what the deal did.

A match's state is a pure fold of its deals, adjustments and a "time called during deal k" event
(docs/design.md: deals are the source of truth). The rules, in docs/rules.md's words (§1–3; seeds
000, 002, 003, 004):

- A deal is played at the level of the side that won the previous deal (that side *sets the level*,
  台上); a game's first deal is played at 2.
- Only 上游's side upgrades, from its own level, by ``upgrades``: partner 2nd +3, 3rd +2, last +1 by
  default (seed 002: +5/+3/+1) — never past A.
- A deal played at the setting side's own A is an *A attempt*. It passes A by ``a_pass``: by default
  when that side takes 上游 and the partner is not last; under ``side_not_last`` (seed 003) also when the
  opponents finish 1-4. Passing A wins the game. A deal at the opponents' level is not an attempt. A
  failed attempt counts toward ``a_failure_limit``; the limit-th failure sends the side back to 2
  (counter to 0) — under ``a_reset: upgrade_from_2`` (seed 002) plus its own upgrade from 2 if it took
  上游 itself — while the opponents upgrade normally if they won the deal.
- Time called during deal k makes deal k (``finish_current_deal``) or k+1 (``one_more_deal``) the last
  regular deal; after it the higher level wins, equal levels follow ``time_up_tie``
  (:func:`scoring.outcome.settle_on_levels`; ``setting_side`` is the winner of the last regular deal).
  An extra deal is won by the side that goes up in it (seed 003: 先升级的为获胜方), or by passing A
  (reason passed_a); one in which nobody goes up (both at A) decides nothing and another extra deal
  follows. In ``fixed_deals_points`` the extra deal's 上游's side wins (seed 004: 加赛一局).
- A deal may record an anti-tribute (抗贡, docs/rules.md §6: ``GuandanDeal.anti_tribute``): it changes who
  leads, not the levels, and is refused on a game's first deal, where no tribute is due.
- ``best_of``: each game starts at 2–2; first to ⌈N/2⌉ games. The time cap runs for the whole match
  (``cap_scope: match``: time called decides the match — more games won, else the game in play by §2) or
  for each game (``cap_scope: game``, seed 003: time called in a game decides that game by §2, the next
  game has its own cap; ``time_called_during_deal`` may then list one call per game).
  ``fixed_deals_points``: every deal at 2, scored 3/2/1 by the partner's place; after ``deals`` deals the
  higher total wins, a tie needs an extra deal. ``fixed_deals_levels``: ``deals`` deals with normal
  levels, then the higher level wins.
- A deal entered after the match has finished is a ``match_finished`` error.

A deal as entered (:class:`GuandanDeal`, :func:`parse_deal`) and what it did (:class:`DealRecord`) live
in :mod:`scoring.deals` and are re-exported here. Use :func:`replay` for a whole match, or
:meth:`MatchState.initial` and :meth:`MatchState.apply` deal by deal; ``state.apply(deal)`` on an
immutable state is also the referee's preview ("what would this deal do?") — nothing is committed until
the caller keeps the new state. Tractor matches go through the same :func:`replay` (see
:mod:`scoring.tractor`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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
    parse_adjustments,
)
from scoring.deals import DealInput, DealRecord, GuandanDeal, new_deal_record, parse_deal, parse_deals
from scoring.doudizhu import DoudizhuResult, DoudizhuTable, replay_doudizhu_json
from scoring.errors import ErrorCode, ScoringError, bad_input
from scoring.finishing_order import FinishingOrder
from scoring.levels import ACE, LOWEST, level_label
from scoring.match_rules import rule_tables
from scoring.options import CapScope, Game, LatePenalty, RuleOptions
from scoring.outcome import MatchResult, NextDeal, Reason, Status, last_regular_deal, settle_on_levels
from scoring.profiles import options_for
from scoring.seats import PerSide, Side
from scoring.tractor import TractorState, _TractorRunning

__all__ = [
    "DealInput",
    "DealRecord",
    "GuandanDeal",
    "MatchState",
    "PartialReplay",
    "parse_deal",
    "parse_deals",
    "replay",
    "replay_partial",
    "start",
]


_NEVER = 1 << 62  # "no last regular deal yet": larger than any deal number
_FINISHED = Status.FINISHED
_IN_PROGRESS = Status.IN_PROGRESS
_EXTRA = Status.NEEDS_EXTRA_DEAL



@dataclass(frozen=True, slots=True)
class MatchState:
    """A Guandan match after some deals: immutable. Start with :meth:`initial`."""

    options: RuleOptions
    levels: PerSide = (LOWEST, LOWEST)
    a_failures: PerSide = (0, 0)
    reached_at: PerSide = (0, 0)
    """When each side's current level was reached (an event counter: deals and adjustments), for
    ``first_to_reach`` (seed 002)."""
    sets_level: Side | None = None
    """The side whose level the next deal is played at (None at a game's start)."""
    last_sets_level: Side | None = None
    """The side that set the level of the last deal played (for ``setting_side``)."""
    deals_played: int = 0
    forfeited_deals: int = 0
    """1 after a late arrival forfeited the first deal: it counts toward a fixed-deal format's deals
    but has no deal number."""
    game: int = 1
    game_deals: int = 0
    games: PerSide = (0, 0)
    points: PerSide = (0, 0)
    status: Status = Status.IN_PROGRESS
    winner: Side | None = None
    reason: Reason | None = None
    last_regular_deal: int | None = None
    time_called_during_deal: int | None = None
    events: int = 0

    @classmethod
    def initial(cls, options: RuleOptions) -> MatchState:
        """A match before its first deal: both sides at 2 (docs/rules.md §1)."""
        rule_tables(options)  # refuse Tractor options here, not at the first deal
        return cls(options)

    @property
    def is_finished(self) -> bool:
        return self.status is Status.FINISHED

    @property
    def next_deal(self) -> NextDeal | None:
        """The deal to play next (its level and whose level it is), or None once finished."""
        return _Running.thaw(self).next_deal()

    def apply(self, deal: FinishingOrder | GuandanDeal) -> tuple[MatchState, DealRecord]:
        """The state after ``deal`` and what the deal did. ``self`` is unchanged: calling this without
        keeping the new state is the referee's preview."""
        running = _Running.thaw(self)
        record = running.play(deal)
        return running.freeze(), record

    def preview(self, deal: FinishingOrder | GuandanDeal) -> DealRecord:
        """What ``deal`` would do, committing nothing."""
        return self.apply(deal)[1]

    def adjust(self, adjustment: Adjustment) -> tuple[MatchState, AdjustmentRecord]:
        """The state after an adjustment (forfeit, late arrival, penalty) and what it did."""
        running = _Running.thaw(self)
        record = running.adjust(adjustment)
        return running.freeze(), record

    def call_time(self, *, during_deal: int) -> MatchState:
        """Time was called while deal ``during_deal`` was being played (docs/rules.md §2): that deal
        (``finish_current_deal``) or the next one (``one_more_deal``) is the last regular deal."""
        running = _Running.thaw(self)
        running.call_time(during_deal)
        return running.freeze()

    def result(
        self, *, deals: Sequence[DealRecord] = (), adjustments: Sequence[AdjustmentRecord] = ()
    ) -> MatchResult:
        """The match as it stands, with the records of how it got here."""
        return _Running.thaw(self).result(deals, adjustments)

    def __repr__(self) -> str:
        ns, ew = self.levels
        head = f"MatchState(NS {level_label(ns)}, EW {level_label(ew)}, {self.status.value}"
        if self.winner is not None:
            head += f", winner {self.winner.code}"
        return head + f", after {self.deals_played} deals)"


class _Running:
    """The mutable accumulator behind the immutable :class:`MatchState` — one per replay, so a deal costs
    no state copy. Never escapes this module."""

    __slots__ = (
        "a_failures",
        "deals",
        "events",
        "forfeited",
        "game",
        "game_caps",
        "game_deals",
        "games",
        "last_regular",
        "last_setter",
        "levels",
        "misplaced_call",
        "options",
        "pending_calls",
        "points",
        "reached",
        "reason",
        "rules",
        "setter",
        "status",
        "stop",
        "time_called",
        "winner",
    )

    def __init__(self, options: RuleOptions) -> None:
        self.options = options
        self.rules = rule_tables(options)
        self.levels = [LOWEST, LOWEST]
        self.a_failures = [0, 0]
        self.reached = [0, 0]
        self.setter: Side | None = None
        self.last_setter: Side | None = None
        self.deals = 0
        self.forfeited = 0
        self.game = 1
        self.game_deals = 0
        self.games = [0, 0]
        self.points = [0, 0]
        self.status = _IN_PROGRESS
        self.winner: Side | None = None
        self.reason: Reason | None = None
        self.last_regular: int | None = None
        self.time_called: int | None = None
        self.events = 0
        self.stop = _NEVER
        self.game_caps = self.rules.best_of and options.cap_scope is CapScope.GAME
        self.pending_calls: list[int] = []
        """Time calls of later games (``cap_scope: game``), each activated when the game before ends."""
        self.misplaced_call: int | None = None
        """A later time call that fell in a game whose time was called already (reported after the fold:
        a bad time call is not a deal's fault)."""
        self._update_stop()

    @classmethod
    def thaw(cls, state: MatchState) -> _Running:
        running = cls(state.options)
        running.levels = list(state.levels)
        running.a_failures = list(state.a_failures)
        running.reached = list(state.reached_at)
        running.setter = state.sets_level
        running.last_setter = state.last_sets_level
        running.deals = state.deals_played
        running.forfeited = state.forfeited_deals
        running.game = state.game
        running.game_deals = state.game_deals
        running.games = list(state.games)
        running.points = list(state.points)
        running.status = state.status
        running.winner = state.winner
        running.reason = state.reason
        running.last_regular = state.last_regular_deal
        running.time_called = state.time_called_during_deal
        running.events = state.events
        running._update_stop()
        return running

    def freeze(self) -> MatchState:
        return MatchState(
            self.options,
            (self.levels[0], self.levels[1]),
            (self.a_failures[0], self.a_failures[1]),
            (self.reached[0], self.reached[1]),
            self.setter,
            self.last_setter,
            self.deals,
            self.forfeited,
            self.game,
            self.game_deals,
            (self.games[0], self.games[1]),
            (self.points[0], self.points[1]),
            self.status,
            self.winner,
            self.reason,
            self.last_regular,
            self.time_called,
            self.events,
        )

    # -- deals ---------------------------------------------------------------------------------------

    def play(self, order: FinishingOrder | GuandanDeal) -> DealRecord:
        """Apply one deal. This is the hot path of every replay: table lookups, no allocation beyond
        the record."""
        number = self.deals + 1
        status = self.status
        if status is _FINISHED:
            what, what_zh = f"deal {number} cannot be entered", f"不能再录入第 {number} 副"
            raise self._finished_error(what, what_zh, number)
        anti_tribute = False
        if type(order) is not FinishingOrder:
            if type(order) is not GuandanDeal:
                raise bad_input(
                    f"Deal {number} of a Guandan match must be a finishing order.",
                    f"掼蛋比赛的第 {number} 副必须是名次顺序。",
                    number,
                )
            anti_tribute = order.anti_tribute
            if anti_tribute and not self.game_deals:
                raise ScoringError(
                    ErrorCode.INVALID_DEAL,
                    f"Deal {number} is the first deal of its game: no tribute is due, so it cannot record "
                    "an anti-tribute (docs/rules.md §6).",
                    number,
                    message_zh=f"第 {number} 副是本局第一副，不需要进贡，不能登记抗贡（规则第 6 节）。",
                )
            order = order.order
        rules = self.rules
        self.events = event = self.events + 1
        extra = status is _EXTRA
        setter = self.setter
        winner = order.winner
        place = order.partner_place
        levels = self.levels
        a_failures = self.a_failures
        a_attempt = passed = reset = False
        upgrade = 0
        gained = 0
        points_after: PerSide | None = None
        if rules.has_levels:
            if setter is None:
                level = LOWEST
            else:
                level = levels[setter]
                if level == ACE:
                    a_attempt = True
                    by_place = rules.passes_by_place if winner is setter else rules.passes_against_by_place
                    passed = by_place[place]
            if not passed:
                before = levels[winner]
                after = before + rules.upgrade_by_place[place]
                if after > ACE:  # A must be played: an upgrade never passes A (docs/rules.md §1)
                    after = ACE
                if after != before:
                    levels[winner] = after
                    self.reached[winner] = event
                    upgrade = after - before
                if a_attempt:
                    assert setter is not None
                    failures = a_failures[setter] + 1
                    if failures == rules.failure_limit:  # 三次打A不过降至2 (seeds 002, 003)
                        failures = 0
                        reset = True
                        after = LOWEST
                        if winner is setter and rules.upgrade_from_2:
                            # seed 002: 降至2的一队中有一家取得上游时，从3开始打 — its upgrade applies from 2
                            after = min(ACE, LOWEST + rules.upgrade_by_place[place])
                            upgrade = after - LOWEST
                        levels[setter] = after
                        self.reached[setter] = event
                    a_failures[setter] = failures
        else:
            level = LOWEST  # every deal at 2 (seed 004)
            gained = rules.points_by_place[place]
            self.points[winner] += gained
            points_after = (self.points[0], self.points[1])
        self.deals = number
        self.game_deals += 1
        self.last_setter = setter
        self.setter = winner
        record = new_deal_record(
            number,
            order,
            level,
            setter,
            upgrade,
            a_attempt,
            passed,
            reset,
            (levels[0], levels[1]),
            (a_failures[0], a_failures[1]),
            gained,
            points_after,
            self.game,
            extra,
            anti_tribute,
        )
        if extra:
            if passed:
                assert setter is not None
                self._extra_won(setter, Reason.PASSED_A)
            elif (upgrade and not (reset and winner is setter)) or not rules.has_levels:
                # seed 003 先升级: the winner's level rose (a reset side's climb from 2 is no rise)
                self._extra_won(winner, Reason.EXTRA_DEAL)
            # else: nobody went up (both at A) — the deal decides nothing, another extra deal follows
        else:
            if passed:
                assert setter is not None
                self._game_won(setter)
            if number >= self.stop and self.status is _IN_PROGRESS:
                self._settle()
        return record

    def _update_stop(self) -> None:
        """``stop``: the number of the last regular deal, when known — by the fixed count (a forfeited
        first deal has no number, so it shortens the count), by the time call, or the earlier of both."""
        stop = _NEVER
        if self.rules.fixed_deals:
            stop = self.rules.fixed_deals - self.forfeited
        if self.last_regular is not None and self.last_regular < stop:
            stop = self.last_regular
        self.stop = stop

    def _extra_won(self, side: Side, reason: Reason) -> None:
        """An extra deal decided: the match — or, with a cap per game, the game (docs/rules.md §7)."""
        if self.game_caps:
            self._game_won(side)
        else:
            self._finish(side, reason)

    def _game_won(self, side: Side) -> None:
        """A side passed A — or, with a cap per game, won the game at time: the game is won (docs/rules.md
        §1, §7). In best_of a new game starts at 2–2."""
        if not self.rules.best_of:
            self._finish(side, Reason.PASSED_A)
            return
        self.games[side] += 1
        if self.games[side] >= self.rules.games_to_win:
            self._finish(side, Reason.GAMES)
            return
        self.game += 1
        self.game_deals = 0
        self.levels = [LOWEST, LOWEST]
        self.a_failures = [0, 0]
        self.reached = [self.events, self.events]
        self.setter = None
        self.last_setter = None
        if self.game_caps:
            self.status = _IN_PROGRESS
            self._next_game_clock()

    def _next_game_clock(self) -> None:
        """Seed 003 caps each game: the new game's clock. A time call during a deal the game before played
        was that game's; a later one (called before, or waiting) is the new game's."""
        if self.time_called is not None and self.time_called <= self.deals:
            self.time_called = None
            self.last_regular = None
        while self.time_called is None and self.pending_calls:
            during = self.pending_calls.pop(0)
            if during <= self.deals:  # in a game whose time was called already
                if self.misplaced_call is None:
                    self.misplaced_call = during
                continue
            self.call_time(during)
        self._update_stop()

    def call_times(self, calls: Sequence[int]) -> None:
        """The time calls of a replay: one for the match, or with a cap per game (``cap_scope: game`` in
        best_of) one for each game that ran out of time, in order (docs/rules.md §7)."""
        if not calls:
            return
        if len(calls) > 1 and not self.game_caps:
            raise bad_input(
                "Time is called once in a match; several calls need a cap per game (cap_scope game, best_of).",
                "一场比赛只宣布一次时间到；多次宣布需每局单独限时（cap_scope: game，best_of 赛制）。",
            )
        if not all(isinstance(call, int) and not isinstance(call, bool) for call in calls):
            raise bad_input(
                f"time_called_during_deal lists deal numbers; got {list(calls)!r}.",
                f"time_called_during_deal 须为副数列表；收到 {list(calls)!r}。",
            )
        if any(later <= earlier for earlier, later in itertools.pairwise(calls)):
            raise bad_input(
                f"Time calls must come in order, one per game: {list(calls)}.",
                f"宣布时间到的副数须按顺序、每局一次：{list(calls)}。",
            )
        self.call_time(calls[0])
        self.pending_calls = list(calls[1:])

    def _settle(self) -> None:
        """The regular deals are over (time, or the fixed count): decide, or ask for an extra deal."""
        options = self.options
        if not self.rules.has_levels:
            ns, ew = self.points
            if ns != ew:
                self._finish(Side.NS if ns > ew else Side.EW, Reason.POINTS)
            elif options.time_up_tie.value == "draw":
                self._finish(None, Reason.DRAW)
            else:  # seed 004: 积分相同则加赛一局
                self.status = _EXTRA
            return
        if self.rules.best_of and not self.game_caps and self.games[0] != self.games[1]:
            self._finish(Side.NS if self.games[0] > self.games[1] else Side.EW, Reason.GAMES)
            return
        status, winner, reason = settle_on_levels(
            levels=(self.levels[0], self.levels[1]),
            reached_at=(self.reached[0], self.reached[1]),
            last_setter=self.last_setter,
            tie=options.time_up_tie,
            on_stage=self.setter,
        )
        if self.game_caps and status is Status.FINISHED and winner is not None:
            self._game_won(winner)  # time decides the game by §2; the match goes on (seed 003)
            return
        self.status, self.winner, self.reason = status, winner, reason

    def _finish(self, winner: Side | None, reason: Reason) -> None:
        self.status = _FINISHED
        self.winner = winner
        self.reason = reason

    def _finished_error(self, what: str, what_zh: str, deal: int | None) -> ScoringError:
        reason = self.reason.value if self.reason is not None else "finished"
        won = f"{self.winner.code} won ({reason})" if self.winner is not None else f"it ended ({reason})"
        won_zh = f"{self.winner.label_zh}已获胜（{reason}）" if self.winner is not None else f"（{reason}）"
        return ScoringError(
            ErrorCode.MATCH_FINISHED,
            f"The match is already finished: {won}; {what}.",
            deal,
            message_zh=f"比赛已经结束：{won_zh}；{what_zh}。",
        )

    # -- time ----------------------------------------------------------------------------------------

    def call_time(self, during_deal: int) -> None:
        self.last_regular = last_regular_deal(
            options=self.options, during_deal=during_deal, called_before=self.time_called, played=self.deals
        )
        self.time_called = during_deal
        self.events += 1
        self._update_stop()
        if self.status is _IN_PROGRESS and self.deals >= self.stop:
            self._settle()

    # -- adjustments ---------------------------------------------------------------------------------

    def adjust(self, adjustment: Adjustment) -> AdjustmentRecord:
        if self.status is _FINISHED:
            raise self._finished_error(
                f"a {adjustment.kind} adjustment cannot be applied", "不能再做调整", None
            )
        self.events += 1
        if isinstance(adjustment, Forfeit):
            return self._forfeit(adjustment, adjustment.side)
        if isinstance(adjustment, Disqualification):  # docs/rules.md §7: it forfeits the match
            self._finish(adjustment.side.other, Reason.FORFEIT)
            return self._record(adjustment, Effect.DISQUALIFIED, 0)
        if isinstance(adjustment, StepDown):
            raise bad_input(
                "Stepping down (下台) is Tractor's adjustment (seed 001 §9); in Guandan use a level penalty.",
                "自动下台是拖拉机的判罚（规则 001 第九条）；掼蛋请用罚级。",
            )
        if isinstance(adjustment, LevelPenalty):
            return self._opponents_upgrade(adjustment, adjustment.side, adjustment.levels)
        if isinstance(adjustment, PointPenalty):
            return self._deduct(adjustment, adjustment.side, adjustment.points)
        if isinstance(adjustment, LateArrival):
            band = self.options.late_arrival_band(adjustment.minutes)
            penalty = band.penalty
            if penalty is LatePenalty.LEVEL_PENALTY:
                return self._opponents_upgrade(adjustment, adjustment.side, band.amount)
            if penalty is LatePenalty.POINT_DEDUCTION:
                return self._deduct(adjustment, adjustment.side, band.amount)
            if penalty is LatePenalty.FORFEIT_FIRST_DEAL:
                return self._forfeit_first_deal(adjustment, adjustment.side, band.amount)
            if penalty is LatePenalty.FORFEIT_MATCH:
                return self._forfeit(adjustment, adjustment.side)
            return self._record(adjustment, Effect.WARNING, 0)
        raise bad_input(f"Unknown adjustment {adjustment!r}.", "未知的调整项。")

    def _record(self, adjustment: Adjustment, effect: Effect, amount: int) -> AdjustmentRecord:
        points = (self.points[0], self.points[1]) if not self.rules.has_levels else None
        return AdjustmentRecord(adjustment, effect, amount, (self.levels[0], self.levels[1]), points)

    def _forfeit(self, adjustment: Adjustment, side: Side | None) -> AdjustmentRecord:
        """A walkover: the other side wins; a double forfeit has no winner (docs/rules.md §5)."""
        self._finish(side.other if side is not None else None, Reason.FORFEIT)
        return self._record(adjustment, Effect.FORFEIT, 0)

    def _opponents_upgrade(self, adjustment: Adjustment, side: Side, levels: int) -> AdjustmentRecord:
        """docs/rules.md §7: the opponents upgrade N levels — capped at A, so a penalty never passes A."""
        if not self.rules.has_levels:
            raise bad_input(
                "A level penalty cannot apply in fixed_deals_points (every deal is at 2); "
                "use a point penalty.",
                "fixed_deals_points 每副都打 2，不能罚级；请用扣分。",
            )
        opponents = side.other
        before = self.levels[opponents]
        after = min(ACE, before + levels)
        if after != before:
            self.levels[opponents] = after
            self.reached[opponents] = self.events
        return self._record(adjustment, Effect.OPPONENTS_UPGRADE, after - before)

    def _deduct(self, adjustment: Adjustment, side: Side, points: int) -> AdjustmentRecord:
        if self.rules.has_levels:
            raise bad_input(
                "A point penalty needs a points format (fixed_deals_points); use a level penalty.",
                "扣分只适用于积分赛制（fixed_deals_points）；升级赛制请用罚级。",
            )
        self.points[side] -= points
        return self._record(adjustment, Effect.POINTS_DEDUCTED, points)

    def _forfeit_first_deal(self, adjustment: Adjustment, side: Side, amount: int) -> AdjustmentRecord:
        """docs/rules.md §7: the first deal is forfeited — the opponents gain as if they had won it 1-2 and
        set the level of the next deal. It counts as a regular deal of a fixed-deal format."""
        if self.deals:
            raise bad_input(
                "A forfeited first deal can only be recorded before the first deal is played.",
                "首副判负只能在第一副开始前登记。",
            )
        opponents = side.other
        if self.rules.has_levels:
            before = self.levels[opponents]
            after = min(ACE, before + amount)
            self.levels[opponents] = after
            self.reached[opponents] = self.events
            gained = after - before
        else:
            self.points[opponents] += amount
            gained = amount
        self.setter = opponents
        self.forfeited += 1
        self._update_stop()
        if self.deals >= self.stop:
            self._settle()
        return self._record(adjustment, Effect.FIRST_DEAL_FORFEITED, gained)

    def next_deal(self) -> NextDeal | None:
        if self.status is _FINISHED:
            return None
        setter = self.setter
        return NextDeal(
            number=self.deals + 1,
            level=LOWEST if setter is None or not self.rules.has_levels else self.levels[setter],
            sets_level=setter,
            extra=self.status is _EXTRA,
            game=self.game if self.rules.best_of else None,
        )

    def result(self, records: Sequence[DealRecord], adjustments: Sequence[AdjustmentRecord]) -> MatchResult:
        options = self.options
        return MatchResult(
            options=options,
            status=self.status,
            winner=self.winner,
            reason=self.reason,
            levels=(self.levels[0], self.levels[1]),
            a_failures=(self.a_failures[0], self.a_failures[1]),
            points=(self.points[0], self.points[1]) if not self.rules.has_levels else None,
            games=(self.games[0], self.games[1]) if self.rules.best_of else None,
            deals=tuple(records),
            adjustments=tuple(adjustments),
            next_deal=self.next_deal(),
            last_regular_deal=self.stop if self.stop != _NEVER else None,
        )


# -- whole matches ------------------------------------------------------------------------------------


def start(*, options: RuleOptions) -> MatchState | TractorState | DoudizhuTable:
    """The initial state of a match under ``options``: a :class:`MatchState` for Guandan, a
    :class:`~scoring.tractor.TractorState` for Tractor, a :class:`~scoring.doudizhu.DoudizhuTable` for Dou
    Dizhu."""
    if options.game is Game.DOUDIZHU:
        return DoudizhuTable.initial(options)
    if options.game is Game.TRACTOR:
        return TractorState.initial(options)
    return MatchState.initial(options)


def replay(
    *,
    options: RuleOptions,
    deals: Sequence[DealInput],
    time_called_during_deal: int | Sequence[int] | None = None,
    adjustments: Sequence[Adjustment] = (),
) -> MatchResult:
    """Replay a whole match: the result equals applying ``call_time``, then each deal (with each
    adjustment after deal ``adjustment.after_deal``) to :func:`start`'s state one by one.

    This is :func:`replay_partial` raising what it refused (one replay in the rules core):
    a ScoringError with the offending deal's number — ``match_finished`` (a deal after the end),
    ``invalid_deal``, ``bad_input``; ``invalid_order`` is caught earlier by :func:`parse_deals`.
    """
    result, _deals, _adjustments, error = _fold(options, deals, time_called_during_deal, adjustments)
    if error is not None:
        raise error
    return result


@dataclass(frozen=True, slots=True)
class PartialReplay:
    """A match replayed as far as the rules allow (:func:`replay_partial`).

    ``result`` folds every deal and adjustment before the first one the rules core refused;
    ``deals_applied`` deals (1..n) and the adjustments at the indices ``adjustments_applied`` (indices
    into the sequence given) are in it; ``error`` says why the rest was refused (None: nothing was).
    """

    result: MatchResult
    deals_applied: int
    adjustments_applied: tuple[int, ...]
    error: ScoringError | None

    @property
    def complete(self) -> bool:
        return self.error is None


def replay_partial(
    *,
    options: RuleOptions,
    deals: Sequence[DealInput],
    time_called_during_deal: int | Sequence[int] | None = None,
    adjustments: Sequence[Adjustment] = (),
) -> PartialReplay:
    """Replay a match, stopping at the first deal or adjustment the rules refuse — the one fold of the
    rules core (:func:`replay` is this plus raising the refusal).

    A correction to an early deal can make later ones impossible — typically a deal or an adjustment
    after the match has ended (``match_finished``), or an adjustment set after a deal that no longer
    exists. Deals are the source of truth (docs/design.md), so those are flagged for the referee, never
    silently kept or dropped: the
    caller keeps ``result`` (everything before the refusal) and flags everything from the refused item on.

    The order: time is called first, then for each deal the adjustments set after the previous deal (in
    the order given), then the deal; adjustments set after the last deal come last, and one set after a
    deal that was not entered is refused there. A refused deal carries its number; a refused adjustment
    the number of the deal it follows (None before the first). An invalid ``time_called_during_deal`` is
    not a deal's fault and raises. With a cap per game (``cap_scope: game`` in best_of) it may list one
    call per game, in order; each after the first counts for the game in play once the one before ends.

    Both games fold through their mutable accumulator (one per replay, no state copy per deal): the
    result equals applying each item to the immutable :meth:`MatchState.apply` /
    :meth:`TractorState.apply` one by one (tests/scoring/test_replay_partial.py checks it).
    """
    return PartialReplay(*_fold(options, deals, time_called_during_deal, adjustments))


def _fold(
    options: RuleOptions,
    deals: Sequence[DealInput],
    time_called_during_deal: int | Sequence[int] | None,
    adjustments: Sequence[Adjustment],
) -> tuple[MatchResult, int, tuple[int, ...], ScoringError | None]:
    """:func:`replay_partial`'s fold, as a plain tuple (the replay hot path builds no wrapper)."""
    # the accumulators stay private to the rules core; this is the one place both are driven from
    tractor = options.game is Game.TRACTOR
    running = _TractorRunning(TractorState.initial(options)) if tractor else _Running(options)
    calls = time_called_during_deal
    if isinstance(calls, list | tuple):
        if isinstance(running, _Running):
            running.call_times(calls)
        elif len(calls) != 1:
            raise bad_input("Time is called once in a Tractor match.", "拖拉机比赛只宣布一次时间到。")
        else:
            running.call_time(calls[0])
    elif calls is not None:
        running.call_time(calls)  # type: ignore[arg-type]  # call_time refuses anything but a deal number
    folded = _fold_items(running, deals, adjustments)
    if isinstance(running, _Running) and running.misplaced_call is not None:
        during = running.misplaced_call
        raise bad_input(
            f"Time was called during deal {during}, in a game whose time had been called already.",
            f"第 {during} 副宣布时间到，但该副所在的一局已宣布过时间到。",
        )
    return folded


def _fold_items(
    running: _Running | _TractorRunning, deals: Sequence[DealInput], adjustments: Sequence[Adjustment]
) -> tuple[MatchResult, int, tuple[int, ...], ScoringError | None]:
    play = running.play
    records: list[Any] = []
    append = records.append
    error: ScoringError | None = None
    if not adjustments:  # the hot path: deals only
        try:
            for deal in deals:
                append(play(deal))  # type: ignore[arg-type]  # play() checks the deal's type
        except ScoringError as refused:
            error = _numbered(refused, len(records) + 1)
        return running.result(records, ()), len(records), (), error
    schedule: dict[int, list[int]] = {}
    for index, adjustment in enumerate(adjustments):
        schedule.setdefault(min(adjustment.after_deal, len(deals) + 1), []).append(index)
    adjustment_records: list[AdjustmentRecord] = []
    applied: list[int] = []
    for position in range(len(deals) + 2):
        for index in schedule.get(position, ()):
            adjustment = adjustments[index]
            try:
                if position > len(deals):
                    raise bad_input(
                        f"An adjustment is set after deal {adjustment.after_deal}, but only {len(deals)} "
                        "deals have been entered.",
                        f"调整项设在第 {adjustment.after_deal} 副之后，但只录入了 {len(deals)} 副。",
                    )
                adjustment_records.append(running.adjust(adjustment))
            except ScoringError as refused:
                error = _numbered(refused, adjustment.after_deal or None)
                break
            applied.append(index)
        if error is not None or position >= len(deals):
            if error is not None:
                break
            continue  # only adjustments come after the last deal
        try:
            append(play(deals[position]))  # type: ignore[arg-type]  # play() checks the deal's type
        except ScoringError as refused:
            error = _numbered(refused, position + 1)
            break
    return running.result(records, adjustment_records), len(records), tuple(applied), error


def _numbered(error: ScoringError, deal: int | None) -> ScoringError:
    """``error`` tied to ``deal`` unless it already names one."""
    if error.deal is not None or deal is None:
        return error
    return error.with_deal(deal)



def replay_json(data: object) -> MatchResult | DoudizhuResult:
    """The CLI's ``replay``: ``{"profile": …, "rules": {…}, "deals": […], "time_called_during_deal": k,
    "adjustments": […]}`` → :class:`MatchResult` (``rules``, ``time_called_during_deal`` and
    ``adjustments`` optional). A Dou Dizhu table (``game: doudizhu``, e.g. the ``doudizhu`` profile) is
    replayed by :func:`scoring.doudizhu.replay_doudizhu_json` into a
    :class:`~scoring.doudizhu.DoudizhuResult` (docs/rules.md §10)."""

    if not isinstance(data, Mapping):
        raise bad_input(
            'The input must be a JSON object like {"profile": "classic", "deals": [...]}.',
            '输入必须是 JSON 对象，例如 {"profile": "classic", "deals": [...]}。',
        )
    unknown = set(data) - {"profile", "rules", "deals", "time_called_during_deal", "adjustments"}
    if unknown:
        raise bad_input(
            f"Unknown field {sorted(unknown)[0]!r}; a replay has profile, rules, deals, "
            "time_called_during_deal and adjustments.",
            f"未知字段 {sorted(unknown)[0]!r}；"
            "可用字段：profile、rules、deals、time_called_during_deal、adjustments。",
        )
    if "profile" not in data:
        raise bad_input(
            "The input needs a 'profile' (see python -m scoring profiles).",
            "输入需要 profile（见 python -m scoring profiles）。",
        )
    options = options_for(profile=data["profile"], overrides=data.get("rules") or {})
    if "deals" not in data:
        raise bad_input(
            "The input needs 'deals' (a list, possibly empty).", "输入需要 deals（列表，可以为空）。"
        )
    if options.game is Game.DOUDIZHU:
        return replay_doudizhu_json(options=options, data=data)
    deals = parse_deals(options=options, data=data["deals"])
    adjustments = parse_adjustments(data.get("adjustments", []))
    return replay(
        options=options,
        deals=deals,
        time_called_during_deal=data.get("time_called_during_deal"),
        adjustments=adjustments,
    )
