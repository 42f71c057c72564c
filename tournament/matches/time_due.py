"""Whether time is due for a table (docs/rules.md §2): the one answer, in Python for a match in
hand and as an ORM filter for a set of tables.

A time call is due when the table's cap has passed while its clock runs (not paused), the match
is neither signed off nor reopened for correction (a correction replays what was played: its
clock stays stopped), and the call has something left to record: the moment time was called, or —
while the match is still being played — the deal during which it was called. Every caller asks
this module: the writes that call time inside their lock, the set-based calls of a round, the
Celery tasks and the pages that show a clock.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q

from tournament.matches.models import Match, MatchStatus, Round

PLAYING = (MatchStatus.PENDING, MatchStatus.RUNNING)
"""A match still being played: time called now falls during one of its deals."""


def match_clock_expired(match: Match, *, now: datetime) -> bool:
    """The table's cap has passed while its clock runs, and the match is neither signed off nor
    reopened for correction: time is (or was) called there."""
    return (
        match.clock_ends_at is not None
        and now >= match.clock_ends_at
        and match.paused_at is None
        and match.status != MatchStatus.CONFIRMED
        and match.reopened_at is None
    )


def match_time_due(match: Match, *, now: datetime) -> bool:
    """A time call is due at ``match``: its cap has passed and the call is not fully recorded yet."""
    return match_clock_expired(match, now=now) and (
        match.time_called_at is None or (match.time_called_during_deal is None and match.status in PLAYING)
    )


def time_due_filter(*, now: datetime) -> Q:
    """:func:`match_time_due` as an ORM filter on matches (a round's tables past their caps)."""
    expired = Q(clock_ends_at__lte=now, paused_at__isnull=True, reopened_at__isnull=True) & ~Q(
        status=MatchStatus.CONFIRMED
    )
    unrecorded = Q(time_called_at__isnull=True) | Q(time_called_during_deal__isnull=True, status__in=PLAYING)
    return expired & unrecorded


def round_clock_expired(round_: Round, *, now: datetime) -> bool:
    """The round's cap has passed while its clock runs (not paused): its time is (or was) called."""
    return round_.ends_at is not None and now >= round_.ends_at and round_.paused_at is None


def round_time_due(round_: Round, *, now: datetime) -> bool:
    """A round's time call is due: its cap has passed and its time is not called yet."""
    return round_.time_called_at is None and round_clock_expired(round_, now=now)
