"""How a match stands and how it ends: status, reason, the time-up decision, and :class:`MatchResult`.

Shared by both games (Guandan in :mod:`scoring.match`, Tractor in :mod:`scoring.tractor`): docs/rules.md §2's
end of a timed game — "the higher level wins; equal levels follow ``time_up_tie``" — is the same rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from scoring.adjustments import AdjustmentRecord
from scoring.errors import bad_input
from scoring.options import AtTimeUp, Game, RuleOptions, TimeUpTie
from scoring.seats import PerSide, Seat, Side, pair_json
from scoring.snapshot import SCHEMA

__all__ = ["DealRecordLike", "MatchResult", "NextDeal", "Reason", "Status", "settle_on_levels"]


class Status(str, Enum):
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    NEEDS_EXTRA_DEAL = "needs_extra_deal"
    """The regular deals are over and tied: one extra deal (加赛一牌) decides (seeds 003, 004)."""


class Reason(str, Enum):
    """Why the winner won (or why it is a draw)."""

    PASSED_A = "passed_a"
    HIGHER_LEVEL = "higher_level"
    FIRST_TO_REACH = "first_to_reach"
    SETTING_SIDE = "setting_side"
    EXTRA_DEAL = "extra_deal"
    DRAW = "draw"
    POINTS = "points"
    GAMES = "games"
    FORFEIT = "forfeit"


Decision = tuple[Status, "Side | None", "Reason | None"]


def last_regular_deal(*, options: RuleOptions, during_deal: int, called_before: int | None, played: int) -> int:
    """The last regular deal when time is called during deal ``during_deal`` (docs/rules.md §2): that deal
    (``finish_current_deal``) or the next one (``one_more_deal``, seed 001 §3: cards in play → one more).

    Refuses a deal number that is not a positive integer, a second call, and a deal already played.
    """
    if isinstance(during_deal, bool) or not isinstance(during_deal, int) or during_deal < 1:
        raise bad_input(
            f"time_called_during_deal must be a deal number (1 or more); got {during_deal!r}.",
            f"time_called_during_deal 必须是副数（从 1 开始）；收到 {during_deal!r}。",
        )
    if called_before is not None:
        raise bad_input(
            f"Time was already called during deal {called_before}.",
            f"已在第 {called_before} 副时宣布时间到。",
        )
    if during_deal < played:
        raise bad_input(
            f"Time cannot be called during deal {during_deal}: {played} deals have been played.",
            f"不能在第 {during_deal} 副宣布时间到：已经打了 {played} 副。",
        )
    return during_deal + 1 if options.at_time_up is AtTimeUp.ONE_MORE_DEAL else during_deal


def settle_on_levels(
    *,
    levels: PerSide,
    reached_at: PerSide,
    last_setter: Side | None,
    tie: TimeUpTie,
    on_stage: Side | None = None,
) -> Decision:
    """The result when the regular deals end without anyone passing A (docs/rules.md §2).

    The higher level wins. Equal levels follow ``tie``:

    - ``first_to_reach`` (seed 002): the side whose current level was reached at the earlier event;
      if both were reached at the same one, ``last_setter`` (the side that set the level of the last
      deal);
    - ``setting_side``: ``on_stage``, the side on stage (台上) when play stops — the winner of the last
      regular deal, at whose level the next deal would be played (Tractor: the next declarers);
    - ``extra_deal`` (seed 003): one more deal decides;
    - ``draw``: a draw.

    ``reached_at`` orders events (deals and adjustments); when the rule has no side to name (no deal
    set a level yet), one extra deal decides rather than guessing.
    """
    ns, ew = levels
    if ns != ew:
        return Status.FINISHED, (Side.NS if ns > ew else Side.EW), Reason.HIGHER_LEVEL
    if tie is TimeUpTie.DRAW:
        return Status.FINISHED, None, Reason.DRAW
    if tie is TimeUpTie.FIRST_TO_REACH:
        if reached_at[0] != reached_at[1]:
            earlier = Side.NS if reached_at[0] < reached_at[1] else Side.EW
            return Status.FINISHED, earlier, Reason.FIRST_TO_REACH
        if last_setter is not None:
            return Status.FINISHED, last_setter, Reason.FIRST_TO_REACH
    elif tie is TimeUpTie.SETTING_SIDE and on_stage is not None:
        return Status.FINISHED, on_stage, Reason.SETTING_SIDE
    return Status.NEEDS_EXTRA_DEAL, None, None


class DealRecordLike(Protocol):
    """What both games' deal records offer."""

    @property
    def number(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class NextDeal:
    """What the referee plays next: its number, its level and whose level it is (Guandan), or who
    declares (Tractor); ``extra`` for a tiebreak deal; ``game`` in best_of."""

    number: int
    level: int
    sets_level: Side | None = None
    extra: bool = False
    game: int | None = None
    declarer: Side | None = None
    declarer_seat: Seat | None = None
    tractor: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"number": self.number, "level": self.level}
        if self.tractor:
            out["declarer"] = self.declarer.code if self.declarer is not None else None
            out["declarer_seat"] = self.declarer_seat.value if self.declarer_seat is not None else None
        else:
            out["sets_level"] = self.sets_level.code if self.sets_level is not None else None
        if self.game is not None:
            out["game"] = self.game
        out["extra"] = self.extra
        return out


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A match as a fold of its deals and adjustments; :meth:`to_json` is exactly what
    ``python -m scoring replay`` prints."""

    options: RuleOptions
    status: Status
    winner: Side | None
    reason: Reason | None
    levels: PerSide
    a_failures: PerSide | None
    """Guandan only (None for Tractor)."""
    points: PerSide | None
    """``fixed_deals_points`` only."""
    games: PerSide | None
    """``best_of`` only: games won."""
    deals: Sequence[DealRecordLike]
    adjustments: Sequence[AdjustmentRecord]
    next_deal: NextDeal | None
    """None once the match is finished."""
    last_regular_deal: int | None
    """The last regular deal once time has been called (or for fixed-deal formats, their count)."""

    @property
    def is_finished(self) -> bool:
        return self.status is Status.FINISHED

    def to_json(self) -> dict[str, Any]:
        """The snapshot the web application stores (``Match.state``), read back by
        :class:`scoring.snapshot.MatchSnapshot`; ``schema`` is its version."""
        out: dict[str, Any] = {
            "schema": SCHEMA,
            "status": self.status.value,
            "winner": self.winner.code if self.winner is not None else None,
            "reason": self.reason.value if self.reason is not None else None,
            "levels": pair_json(self.levels),
        }
        if self.a_failures is not None:
            out["a_failures"] = pair_json(self.a_failures)
        if self.points is not None:
            out["points"] = pair_json(self.points)
        if self.games is not None:
            out["games"] = pair_json(self.games)
        out["deals"] = [deal.to_json() for deal in self.deals]
        out["adjustments"] = [adjustment.to_json() for adjustment in self.adjustments]
        out["next_deal"] = self.next_deal.to_json() if self.next_deal is not None else None
        if self.options.game is Game.TRACTOR:  # Who declares next
            declarer = self.next_deal.declarer if self.next_deal is not None else None
            out["next_declarer"] = declarer.code if declarer is not None else None
        out["last_regular_deal"] = self.last_regular_deal
        return out
