"""Celery tasks of the matches app: they take ids and call a service (HackSoft style)."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import transaction

from tournament.matches.models import Match
from tournament.matches.services import match_replay


@shared_task(acks_late=True)
def match_refresh(match_id: int) -> dict[str, Any]:
    """Refold a match from its deals (e.g. after its stage's rules were changed). Idempotent."""
    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("round__stage__tournament").get(pk=match_id)
        result = match_replay(match=match)
    return {"match": match_id, "status": result.status.value}
