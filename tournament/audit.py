"""Audit history for every change: who, when, from where, before → after (DESIGN.md principle 4).

django-simple-history records who and when (its middleware gives the user); this adds the
client's IP address to every historical row, read from the request that made the change.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.dispatch import receiver
from simple_history.models import HistoricalRecords
from simple_history.signals import pre_create_historical_record


class IPAddressHistoricalModel(models.Model):
    """Abstract base of every historical model: the change's client address."""

    history_ip_address = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        abstract = True


def AuditedHistory(**kwargs: Any) -> HistoricalRecords:
    """``HistoricalRecords`` whose rows also keep the client's IP address."""
    return HistoricalRecords(bases=[IPAddressHistoricalModel], **kwargs)


def client_ip(request: Any) -> str | None:
    """The client address; behind a proxy the first hop of X-Forwarded-For."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    return forwarded.split(",")[0].strip() or request.META.get("REMOTE_ADDR") or None


@receiver(pre_create_historical_record)
def _record_ip_address(sender: Any, history_instance: Any, **kwargs: Any) -> None:
    request = getattr(HistoricalRecords.context, "request", None)
    if request is not None and hasattr(history_instance, "history_ip_address"):
        history_instance.history_ip_address = client_ip(request)
