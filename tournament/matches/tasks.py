"""Celery tasks of the matches app: they take ids and call a service (HackSoft style).

The time-up tasks are scheduled for the cap with ``apply_async(eta=…)``. They are idempotent
(a duplicate delivery or a retry changes nothing) and only a safety net: the clock lives in the
database and every page or API call that touches a match after its cap calls time too. In eager
mode (no broker) a task runs at once, before the cap, and does nothing; the lazy check then
calls time.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.utils import timezone

from tournament.matches.models import Match, Round
from tournament.matches.services import match_call_time, round_call_time


@shared_task(bind=True, acks_late=True)
def round_time_up(self: Any, round_id: int) -> dict[str, Any]:
    """Call time for a round at its cap (RULES.md §2)."""
    round_ = Round.objects.filter(pk=round_id).first()
    if round_ is None:
        return {"round": round_id, "called": False}
    called = round_call_time(round_id=round_id)
    _again_if_early(self, round_id, round_.ends_at, round_.time_called_at)
    return {"round": round_id, "called": called}


@shared_task(bind=True, acks_late=True)
def match_time_up(self: Any, match_id: int) -> dict[str, Any]:
    """Call time for a match started on its own, at its cap (RULES.md §2)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return {"match": match_id, "called": False}
    called = match_call_time(match_id=match_id)
    _again_if_early(self, match_id, match.clock_ends_at, match.time_called_at)
    return {"match": match_id, "called": called}


def _again_if_early(task: Any, pk: int, ends_at: Any, called_at: Any) -> None:
    """A worker whose clock runs behind may get the task early: schedule it again for the cap
    (never in eager mode, where it would run again at once)."""
    if ends_at is not None and called_at is None and timezone.now() < ends_at and not task.request.is_eager:
        task.apply_async(args=[pk], eta=ends_at)
