"""The one error a user can cause: :class:`ScoringError`, with a stable code and a referee-ready message.

Two kinds of failure exist and they never mix (the Tabbycat lesson): a :class:`ScoringError` means the
input was wrong — a referee typed an impossible finishing order, an organiser named an unknown profile —
and it carries a sentence fit to show them, in English and in Chinese, because referees read these at the
table. Any other exception is a bug in this package.

Codes are part of the contract (the CLI prints them, the API maps them to HTTP 400/409):

- ``invalid_order``: a finishing order that cannot happen (unknown seat, a seat twice, 2 seats that are
  not partners, …);
- ``invalid_deal``: a deal that cannot be recorded as given (an anti-tribute on a deal where no tribute
  is due, …);
- ``match_finished``: a deal or adjustment entered after the match already has a result;
- ``unknown_profile``: a rule profile name that does not exist;
- ``bad_input``: anything else the user got wrong (wrong JSON shape, an option value out of range, an
  option combination that cannot work, …).
"""

from __future__ import annotations

from enum import Enum
from typing import Any

__all__ = ["ErrorCode", "ScoringError", "bad_input"]


class ErrorCode(str, Enum):
    """Stable machine-readable error codes (the API and the CLI expose them verbatim)."""

    INVALID_ORDER = "invalid_order"
    INVALID_DEAL = "invalid_deal"
    MATCH_FINISHED = "match_finished"
    UNKNOWN_PROFILE = "unknown_profile"
    BAD_INPUT = "bad_input"


_GENERIC_ZH: dict[ErrorCode, str] = {
    ErrorCode.INVALID_ORDER: "名次顺序无效。",
    ErrorCode.INVALID_DEAL: "这一副的录入无效。",
    ErrorCode.MATCH_FINISHED: "比赛已经结束，不能再录入。",
    ErrorCode.UNKNOWN_PROFILE: "没有这个规则方案。",
    ErrorCode.BAD_INPUT: "输入有误。",
}


class ScoringError(Exception):
    """Bad input, reported to a person: ``code`` (an :class:`ErrorCode`), ``message`` (one clear English
    sentence), ``message_zh`` (the same in Chinese) and ``deal`` (the 1-based deal it concerns, or None).
    """

    def __init__(
        self,
        code: ErrorCode | str,
        message: str,
        deal: int | None = None,
        *,
        message_zh: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message
        self.message_zh = message_zh if message_zh is not None else _GENERIC_ZH[self.code]
        self.deal = deal

    def with_deal(self, deal: int) -> ScoringError:
        """The same error, tied to ``deal`` (used when a deal's own parser did not know its number)."""
        return ScoringError(self.code, self.message, deal, message_zh=self.message_zh)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code.value,
            "message": self.message,
            "message_zh": self.message_zh,
            "deal": self.deal,
        }

    def __repr__(self) -> str:
        where = f", deal={self.deal}" if self.deal is not None else ""
        return f"ScoringError({self.code.value!r}, {self.message!r}{where})"


def bad_input(message: str, message_zh: str, deal: int | None = None) -> ScoringError:
    """Shorthand for the most common error."""
    return ScoringError(ErrorCode.BAD_INPUT, message, deal, message_zh=message_zh)
