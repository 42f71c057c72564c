"""Announcements (公告, docs/rules.md §12): the organiser's short notices to an event.

One write path: the organiser's page (and anything else) calls :func:`announcement_post`,
:func:`announcement_edit` and :func:`announcement_withdraw`; each is guarded by the event's write
guard and audited (the history names who and why). :func:`announcements_shown` is the one answer to
"which notices does the event show", asked by the public page, the big screen, the players' table
page and the Atom feed.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.audit import history_author
from tournament.bounds import text_max
from tournament.errors import UserError
from tournament.people import Actor, signed_in
from tournament.registration.lifecycle import event_write, tournament_event
from tournament.registration.models import Announcement, Tournament
from tournament.registration.text import clean_text
from tournament.signals import public_pages_bump
from tournament.text import direction_control_message, direction_controls

TEXT_MAX = text_max(Announcement, "text")
SHOWN_MAX = 5
"""The newest notices the pages show (the feed and the organiser's page show them all)."""


def _text_clean(text: object) -> str:
    cleaned = clean_text(text)
    if not cleaned:
        raise UserError("announcement_empty", _("Write the announcement's text."), fields={"text": [_("Required.")]})
    if len(cleaned) > TEXT_MAX:
        message = _("An announcement is at most %(count)d characters.") % {"count": TEXT_MAX}
        raise UserError("announcement_too_long", message, fields={"text": [message]})
    if direction_controls(cleaned):
        message = direction_control_message(_("Text"))
        raise UserError("bad_input", message, fields={"text": [message]})
    return cleaned


def _changed(tournament_id: int) -> None:
    # the big screen is a cached fragment: it shows the new notice on its next poll
    transaction.on_commit(lambda: public_pages_bump(tournament_id=tournament_id, seating=False, standings=False))


@event_write("tournament", of=tournament_event)
def announcement_post(*, tournament: Tournament, text: str, user: Actor | None = None) -> Announcement:
    """Post a notice to ``tournament``; refused (nothing written) when the text is empty or too long."""
    cleaned = _text_clean(text)
    with transaction.atomic():
        row = Announcement(tournament=tournament, text=cleaned, posted_by=signed_in(user), posted_at=timezone.now())
        history_author(row, user, "posted")
        row.save()
        _changed(tournament.pk)
    return row


def _locked(tournament: Tournament, announcement_id: int) -> Announcement:
    row = Announcement.objects.select_for_update().filter(tournament=tournament, pk=announcement_id).first()
    if row is None:
        raise UserError("no_such_announcement", _("There is no such announcement."), status=404)
    return row


@event_write("tournament", of=tournament_event)
def announcement_edit(
    *, tournament: Tournament, announcement_id: int, text: str, user: Actor | None = None
) -> Announcement:
    """Change a notice's text (the history keeps the text before); a withdrawn notice is not edited."""
    cleaned = _text_clean(text)
    with transaction.atomic():
        row = _locked(tournament, announcement_id)
        if row.withdrawn_at is not None:
            raise UserError("announcement_withdrawn", _("This announcement was withdrawn."), status=409)
        if row.text != cleaned:
            row.text = cleaned
            row.edited_at = timezone.now()
            history_author(row, user, "edited")
            row.save(update_fields=["text", "edited_at"])
            _changed(tournament.pk)
    return row


@event_write("tournament", of=tournament_event)
def announcement_withdraw(*, tournament: Tournament, announcement_id: int, user: Actor | None = None) -> Announcement:
    """Withdraw a notice: no page or feed shows it any more; the row and its history are kept.
    Withdrawing it again changes nothing (a retry)."""
    with transaction.atomic():
        row = _locked(tournament, announcement_id)
        if row.withdrawn_at is None:
            row.withdrawn_at = timezone.now()
            history_author(row, user, "withdrawn")
            row.save(update_fields=["withdrawn_at"])
            _changed(tournament.pk)
    return row


def announcements_shown(*, tournament_id: int, limit: int | None = SHOWN_MAX) -> QuerySet[Announcement]:
    """The event's notices that are not withdrawn, newest first (``limit`` of them; None: all)."""
    rows = Announcement.objects.filter(tournament_id=tournament_id, withdrawn_at__isnull=True).order_by(
        "-posted_at", "-id"
    )
    return rows[:limit] if limit is not None else rows
