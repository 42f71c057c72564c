"""Celery tasks of the matches app: they take ids and call a service (HackSoft style).

The time-up tasks are scheduled for the cap with ``apply_async(eta=…)``. They are idempotent
(a duplicate delivery or a retry changes nothing). The clock lives in the database: a page or an
API read shows a due call without storing it, and the periodic :func:`clock_sweep` (Celery beat,
every minute) stores whatever a lost task, a restart or a worker's slow clock left due, so nothing
is lost. In eager mode (no broker, no beat) a task runs at once, before the cap, and does nothing;
the next write to the match then stores the call.

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

from tournament.matches.clock import match_call_time, round_call_time, time_calls_due
from tournament.matches.deadlines import deadlines_pass, round_deadline_pass
from tournament.matches.models import Match, Round
from tournament.matches.player_entry import claims_auto_confirm_due, claims_auto_confirm_everywhere


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
def clock_sweep() -> dict[str, int]:
    """What is due and not stored yet, made (Celery beat, ``CELERY_BEAT_SCHEDULE``): time called
    wherever a cap has passed, claims confirmed wherever their auto-confirm time has come."""
    return {"tables_called": time_calls_due(), "claims_confirmed": claims_auto_confirm_everywhere()}


@shared_task(acks_late=True)
def claims_auto_confirm(match_id: int) -> dict[str, Any]:
    """Confirm the match's claims whose auto-confirm time has passed (scheduled for that time when a
    claim is entered). Idempotent; the sweep (:func:`clock_sweep`) and the table's next entry confirm
    what a lost task left; no page does (a read writes nothing)."""
    match = Match.objects.select_related("round__stage__tournament").filter(pk=match_id).first()
    if match is None:
        return {"match": match_id, "confirmed": 0}
    return {"match": match_id, "confirmed": claims_auto_confirm_due(match=match)}



@shared_task(name="tournament.matches.tasks.round_deadline_pass", acks_late=True)
def round_deadline_task(round_id: int) -> dict[str, Any]:
    """A self-scheduled round's deadline (docs/rules.md §12.1): the double forfeits of its matches without
    a confirmed result. Scheduled for the deadline; idempotent, and early (eager mode, an extension since)
    it records nothing: the sweep below comes back every minute."""
    return {"round": round_id, "forfeited": round_deadline_pass(round_id=round_id)}


@shared_task(acks_late=True)
def deadline_sweep() -> dict[str, int]:
    """Every deadline passed and not processed yet (Celery beat, ``CELERY_BEAT_SCHEDULE``)."""
    return {"forfeited": deadlines_pass()}
