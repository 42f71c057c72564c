"""What happens once time is called, said plainly (docs/rules.md §2).

:func:`time_up_notice` reads the match's options (``at_time_up``, ``time_up_tie``, the format) and
its state after the fold (status, winner, reason, deals played, the last regular deal) and says
what the table does next, in Chinese and English: "deal N is the last deal", "one more deal is
played (deal N is the last)", "levels are equal: an extra deal decides", and once decided, the
result and why ("levels are equal: first to reach wins: N/S"). The referee's page and the big
screen show its texts; nothing there computes a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from scoring.options import AtTimeUp, RuleOptions, TimeUpTie
from scoring.outcome import Reason, Status
from scoring.seats import Side


class TimeUpStep(str, Enum):
    """Where a match stands after time was called."""

    LAST_DEAL = "last_deal"
    """The deal being played is the last regular deal (``finish_current_deal``, seed 002)."""
    ONE_MORE_DEAL = "one_more_deal"
    """The deal being played is finished, then one more is the last (``one_more_deal``, seed 001 §3)."""
    EXTRA_DEAL = "extra_deal"
    """The regular deals are over with equal levels: an extra deal decides (加赛一牌, seed 003)."""
    DECIDED = "decided"
    """The match is decided; ``winner`` (None: a draw) and ``reason`` say how."""


_TIE_EN = {
    TimeUpTie.FIRST_TO_REACH: "if the levels are then equal, the side that reached that level first wins",
    TimeUpTie.EXTRA_DEAL: "if the levels are then equal, an extra deal decides",
    TimeUpTie.SETTING_SIDE: "if the levels are then equal, the side on stage wins",
    TimeUpTie.DRAW: "if the levels are then equal, the match is a draw",
}
_TIE_ZH = {
    TimeUpTie.FIRST_TO_REACH: "届时级数相同，先到该级的一方获胜",
    TimeUpTie.EXTRA_DEAL: "届时级数相同，加赛一副决定胜负",
    TimeUpTie.SETTING_SIDE: "届时级数相同，台上方获胜",
    TimeUpTie.DRAW: "届时级数相同，判为平局",
}
_SIDE_EN = {Side.NS: "N/S", Side.EW: "E/W"}
_SIDE_ZH = {Side.NS: "南北", Side.EW: "东西"}


@dataclass(frozen=True, slots=True)
class TimeUpNotice:
    """What the referee announces once time is called; ``text_en`` / ``text_zh`` say it (shown
    beside "time called", so the texts do not repeat it)."""

    step: TimeUpStep
    last_deal: int | None
    """The last regular deal (LAST_DEAL, ONE_MORE_DEAL), or the extra deal's number (EXTRA_DEAL)."""
    tie: TimeUpTie
    winner: Side | None = None
    reason: Reason | None = None

    @property
    def text_en(self) -> str:
        if self.step is TimeUpStep.LAST_DEAL:
            return f"Deal {self.last_deal} is the last deal; {_TIE_EN[self.tie]}."
        if self.step is TimeUpStep.ONE_MORE_DEAL:
            return (
                f"Finish this deal, then one more deal is played (deal {self.last_deal} is the last); "
                f"{_TIE_EN[self.tie]}."
            )
        if self.step is TimeUpStep.EXTRA_DEAL:
            return f"Levels are equal: an extra deal (deal {self.last_deal}) decides."
        return self._decided_en()

    @property
    def text_zh(self) -> str:
        if self.step is TimeUpStep.LAST_DEAL:
            return f"第 {self.last_deal} 副为最后一副；{_TIE_ZH[self.tie]}。"
        if self.step is TimeUpStep.ONE_MORE_DEAL:
            return f"打完本副后再打一副（第 {self.last_deal} 副为最后一副）；{_TIE_ZH[self.tie]}。"
        if self.step is TimeUpStep.EXTRA_DEAL:
            return f"级数相同：加赛一副（第 {self.last_deal} 副）决定胜负。"
        return self._decided_zh()

    def _decided_en(self) -> str:
        if self.winner is None:
            return "Levels are equal: the match is a draw."
        side = _SIDE_EN[self.winner]
        by_reason = {
            Reason.FIRST_TO_REACH: f"Levels are equal: first to reach wins: {side}.",
            Reason.EXTRA_DEAL: f"The extra deal decided: {side} win.",
            Reason.SETTING_SIDE: f"Levels are equal: the side on stage wins: {side}.",
            Reason.HIGHER_LEVEL: f"Time is up: {side} win on the higher level.",
            Reason.PASSED_A: f"{side} passed A and win.",
        }
        return by_reason.get(self.reason, f"{side} win.") if self.reason is not None else f"{side} win."

    def _decided_zh(self) -> str:
        if self.winner is None:
            return "级数相同：本场平局。"
        side = _SIDE_ZH[self.winner]
        by_reason = {
            Reason.FIRST_TO_REACH: f"级数相同：先到者胜：{side}。",
            Reason.EXTRA_DEAL: f"加赛一副决出胜负：{side}获胜。",
            Reason.SETTING_SIDE: f"级数相同：台上方获胜：{side}。",
            Reason.HIGHER_LEVEL: f"时间到：{side}级数领先获胜。",
            Reason.PASSED_A: f"{side}过A获胜。",
        }
        return by_reason.get(self.reason, f"{side}获胜。") if self.reason is not None else f"{side}获胜。"

    def to_json(self) -> dict[str, object]:
        return {
            "step": self.step.value,
            "last_deal": self.last_deal,
            "tie": self.tie.value,
            "winner": self.winner.code if self.winner is not None else None,
            "reason": self.reason.value if self.reason is not None else None,
            "text_en": self.text_en,
            "text_zh": self.text_zh,
        }


def time_up_notice(
    *,
    options: RuleOptions,
    time_called_during_deal: int | None,
    status: Status,
    winner: Side | None,
    reason: Reason | None,
    deals_played: int,
    last_regular_deal: int | None,
) -> TimeUpNotice | None:
    """What the table does now that time is called (docs/rules.md §2); None if time is not called.

    The last regular deal is the fold's: the deal being played when time was called (or the one
    after it, ``one_more_deal``), or a fixed-deal format's own count if that comes first.

    ``status``, ``winner``, ``reason`` and ``last_regular_deal`` are the fold's (``MatchResult``);
    ``deals_played`` counts the deals recorded so far.
    """
    if time_called_during_deal is None:
        return None
    tie = options.time_up_tie
    if status is Status.FINISHED:
        return TimeUpNotice(TimeUpStep.DECIDED, last_regular_deal, tie, winner, reason)
    if status is Status.NEEDS_EXTRA_DEAL:
        return TimeUpNotice(TimeUpStep.EXTRA_DEAL, deals_played + 1, tie)
    if last_regular_deal is None:
        return None
    being_played = deals_played + 1
    if options.at_time_up is AtTimeUp.ONE_MORE_DEAL and being_played < last_regular_deal:
        return TimeUpNotice(TimeUpStep.ONE_MORE_DEAL, last_regular_deal, tie)
    return TimeUpNotice(TimeUpStep.LAST_DEAL, last_regular_deal, tie)
