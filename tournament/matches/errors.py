"""What a match write refuses with (both :class:`~tournament.errors.UserError`)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.errors import ScoringError
from tournament.errors import UserError
from tournament.matches.models import (
    Match,
)


class StaleVersion(UserError):
    """The match changed since the caller read it (HTTP 409 with the current state)."""

    def __init__(self, match: Match) -> None:
        super().__init__(
            "stale_version",
            _("Someone else changed this match. Here is its current state; check it and try again."),
            status=409,
            message_en=f"match {match.pk} is at version {match.version}",
        )
        self.match = match


class MatchRefused(UserError):
    """A write the match's state does not allow (signed off, not finished, flagged deals …).

    ``code`` is stable (the API returns it); ``message`` is in the user's language. ``conflict``:
    the match's state is the reason (HTTP 409), else the input is (HTTP 400).
    """

    def __init__(self, code: str, message: str, *, conflict: bool = True) -> None:
        super().__init__(code, message, status=409 if conflict else 400)
        self.conflict = conflict


REFUSALS = (ScoringError, UserError)
"""What a write refuses with; nothing it was asked for is written then (a due time call still is)."""
