"""Celery tasks of the matches app: they take ids and call a service (HackSoft style).

The time-up tasks are scheduled for the cap with ``apply_async(eta=…)``. They are idempotent
(a duplicate delivery or a retry changes nothing) and only a safety net: the clock lives in the
database and every page or API call that touches a match after its cap calls time too. In eager
mode (no broker) a task runs at once, before the cap, and does nothing; the lazy check then
calls time.

Each task carries the deadline it was scheduled for (``ends_at``, ISO 8601). When the organiser
pauses, extends or changes a clock a new task is scheduled for the new deadline; the old one,
delivered later, finds a different deadline in the database: it is stale and schedules nothing.
It still asks the database (``round_call_time`` calls time only if the stored deadline has passed
and the clock is not paused), so a stale task can never call time early.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from celery import shared_task
from django.utils import timezone

from tournament.matches.clock import match_call_time, round_call_time
from tournament.matches.models import Match, Round
from tournament.matches.player_entry import claims_auto_confirm_due


@shared_task(bind=True, acks_late=True)
def round_time_up(self: Any, round_id: int, ends_at: str | None = None) -> dict[str, Any]:
    """Call time for a round at its cap (docs/rules.md §2)."""
    round_ = Round.objects.filter(pk=round_id).first()
    if round_ is None:
        return {"round": round_id, "called": False}
    called = round_call_time(round_id=round_id)
    if not _stale(ends_at, round_.ends_at, round_.paused_at):
        _again_if_early(self, round_id, round_.ends_at, round_.time_called_at)
    return {"round": round_id, "called": called}


@shared_task(bind=True, acks_late=True)
def match_time_up(self: Any, match_id: int, ends_at: str | None = None) -> dict[str, Any]:
    """Call time for a match started on its own, at its cap (docs/rules.md §2)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return {"match": match_id, "called": False}
    called = match_call_time(match_id=match_id)
    if not _stale(ends_at, match.clock_ends_at, match.paused_at):
        _again_if_early(self, match_id, match.clock_ends_at, match.time_called_at)
    return {"match": match_id, "called": called}


def _stale(scheduled_for: str | None, ends_at: datetime | None, paused_at: datetime | None) -> bool:
    """A task scheduled for another deadline than the stored one (or for a paused clock): a change
    since scheduled a task of its own (resuming schedules one), so this one must not."""
    if paused_at is not None:
        return True
    if scheduled_for is None:  # a task from before deadlines travelled with the tasks
        return False
    return ends_at is None or datetime.fromisoformat(scheduled_for) != ends_at


def _again_if_early(task: Any, pk: int, ends_at: Any, called_at: Any) -> None:
    """A worker whose clock runs behind may get the task early: schedule it again for the cap
    (never in eager mode, where it would run again at once)."""
    if ends_at is not None and called_at is None and timezone.now() < ends_at and not task.request.is_eager:
        task.apply_async(args=[pk], kwargs={"ends_at": ends_at.isoformat()}, eta=ends_at)


@shared_task(acks_late=True)
def claims_auto_confirm(match_id: int) -> dict[str, Any]:
    """Confirm the match's claims whose auto-confirm time has passed. Idempotent, and only
    a safety net: the referees' and organisers' match pages and the table's own pages confirm what
    is due when they are opened (``claims_auto_confirm_due``); the public pages do not."""
    match = Match.objects.select_related("round__stage__tournament").filter(pk=match_id).first()
    if match is None:
        return {"match": match_id, "confirmed": 0}
    return {"match": match_id, "confirmed": claims_auto_confirm_due(match=match)}
