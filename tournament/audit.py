"""Audit history for every change: who, when, from where, before → after (docs/design.md: every change is audited).

django-simple-history records who and when (its middleware gives the user); this adds the
client's IP address to every historical row, read from the request that made the change
(:func:`tournament.proxies.client_ip`: behind the trusted proxies, never an address the client chose).
"""

from __future__ import annotations

from typing import Any

from django.db import connection, models
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.manager import HistoryDescriptor
from simple_history.models import HistoricalRecords
from simple_history.signals import pre_create_historical_record

from tournament.errors import UserError
from tournament.people import Actor, signed_in
from tournament.proxies import client_ip
from tournament.text import clean_text, direction_control_message, direction_controls


class IPAddressHistoricalModel(models.Model):
    """Abstract base of every historical model: the change's client address."""

    history_ip_address = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        abstract = True


class _HistoryOnce:
    """``Model.history`` with its manager's class built once. simple-history's descriptor builds it
    on every access (``HistoryManager.from_queryset``, which walks the queryset's members with
    ``inspect``), and every history row written asks for it: a deal's two rows paid for it twice."""

    def __init__(self, built: Any) -> None:
        self.model = built.model
        self.manager_class = built.manager_class.from_queryset(built.queryset_class)

    def __get__(self, instance: Any, owner: Any) -> Any:
        return self.manager_class(self.model, instance)


def AuditedHistory(**kwargs: Any) -> HistoricalRecords:
    """``HistoricalRecords`` whose rows also keep the client's IP address, and whose ``history``
    manager's class is built once (:class:`_HistoryOnce`, put in place once simple-history has
    finished the model: its ``finalize``, which it connects to ``class_prepared`` as it is given)."""
    records = HistoricalRecords(bases=[IPAddressHistoricalModel], **kwargs)
    finalize = records.finalize

    def finalize_once(sender: Any, **signal: Any) -> None:
        finalize(sender, **signal)
        built = sender.__dict__.get(records.manager_name)
        if isinstance(built, HistoryDescriptor):  # the model these records audit (finalize hears every class)
            setattr(sender, records.manager_name, _HistoryOnce(built))

    records.finalize = finalize_once
    return records


@receiver(pre_create_historical_record)
def _record_ip_address(sender: Any, history_instance: Any, **kwargs: Any) -> None:
    request = getattr(HistoricalRecords.context, "request", None)
    if request is not None and hasattr(history_instance, "history_ip_address"):
        history_instance.history_ip_address = client_ip(request)


REASON_MAX = 100
"""A change's reason is kept as the history row's change reason (simple-history: 100 characters)."""


def reason_clean(reason: str | None, *, required: bool = True) -> str:
    """A change's reason as it is kept (:func:`tournament.text.clean_text`: invisible characters
    removed, white space collapsed); refused if it is empty (when ``required`` — two zero-width
    spaces are empty), holds a text-direction control, or is longer than :data:`REASON_MAX` —
    refused, not cut, so the organiser never sees a different reason in the history than the one
    typed. Raises :class:`UserError` (HTTP 400, code ``reason_required`` / ``reason_direction`` /
    ``reason_too_long``, the message on the ``reason`` field)."""
    text = clean_text(reason)
    if required and not text:
        message = _("Give a reason.")
        raise UserError("reason_required", message, fields={"reason": [message]})
    if direction_controls(text):
        message = direction_control_message(_("The reason"))
        raise UserError("reason_direction", message, fields={"reason": [message]})
    if len(text) > REASON_MAX:
        message = _("The reason is longer than %(max)d characters.") % {"max": REASON_MAX}
        raise UserError("reason_too_long", message, fields={"reason": [message]})
    return text


def history_author(instance: Any, user: Actor | None, reason: str | None = None) -> None:
    """Name the author (and the reason) on the history row the next save writes — also outside a
    request (the demo, a task, the shell), where simple-history's middleware names nobody. The
    reason is cut to its column; callers refuse a longer one before they get here."""
    account = signed_in(user)
    if account is not None:
        instance._history_user = account
    if reason:
        instance._change_reason = reason[:REASON_MAX]


def bulk_history_attrs() -> dict[str, Any]:
    """The client address for history rows written in bulk (``bulk_history_create`` and the
    ``*_with_history`` utilities skip the signal above)."""
    request = getattr(HistoricalRecords.context, "request", None)
    return {"history_ip_address": client_ip(request)} if request is not None else {}


def history_copy(*, queryset: Any, user: Actor | None = None, reason: str | None = None, created: bool = False) -> None:
    """One "changed" (``created``: "created") history row per row of ``queryset``, copied by the database in one
    ``INSERT … SELECT`` — for set-based writes (a round of 2,500 matches started at once), where
    building the rows in Python cost more than the write itself. Call it after the update, in the
    same transaction: the rows copy the values as they now are, like a history row of a save."""
    model = queryset.model
    history = model.history.model
    names = [field.attname for field in history._meta.concrete_fields if not field.name.startswith("history_")]
    select, params = queryset.order_by().values(*names).query.sql_with_params()
    qn = connection.ops.quote_name
    columns = [
        *(qn(name) for name in names),
        *(qn(name) for name in ("history_date", "history_type", "history_change_reason", "history_user_id")),
        qn("history_ip_address"),
    ]
    request = getattr(HistoricalRecords.context, "request", None)
    extra = [
        connection.ops.adapt_datetimefield_value(timezone.now()),
        "+" if created else "~",
        reason,
        account.pk if (account := signed_in(user)) is not None else None,
        client_ip(request) if request is not None else None,
    ]
    sql = (
        f"INSERT INTO {qn(history._meta.db_table)} ({', '.join(columns)}) "
        f"SELECT sub.*, %s, %s, %s, %s, %s FROM ({select}) sub"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*extra, *params])  # in the order of their placeholders in the text
