"""Clearing a started knockout match so that the bracket can follow a correction.

When a corrected knockout match changes its winner, the later matches holding its pairs follow —
unless one of them has started (``corrections.correction_close`` refuses: ``successor_started``),
because it was played by the pair the old result sent there. The way forward is
:func:`match_clear` on that later match: its deals and adjustments are deleted with a reason
(each kept in the audit history), its open player claims refused, its clock reset, and it is
pending again; the correction's re-sign-off then moves the pairs, and the match is played again
by the right pair. Only the organiser or the chief referee may do it (the callers check
``access.user_may_unlock``, as for an unlock); a signed-off match is refused — unlock it first.
The pages and the API both call :func:`match_clear`.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.audit import history_author, reason_clean
from tournament.matches.clock import time_call_due
from tournament.matches.errors import MatchRefused
from tournament.matches.event import match_id_event
from tournament.matches.fold import check_version, locked_match, match_replay
from tournament.matches.models import (
    CLAIM_OPEN,
    ClaimStatus,
    Correction,
    CorrectionStatus,
    Match,
    MatchStatus,
    StageFormat,
)
from tournament.people import Actor
from tournament.registration.lifecycle import event_write
from tournament.signals import public_pages_bump


@dataclass(frozen=True, slots=True)
class ClearBlock:
    """A reopened match of an earlier round whose correction this match stands in the way of."""

    correction_id: int
    match_id: int
    round_number: int
    table: int | None


def match_clear_blocks(*, match: Match) -> tuple[ClearBlock, ...]:
    """The open corrections of earlier knockout matches that share a pair with ``match`` (whose
    winner, if it changes, must move into ``match``)."""
    if match.ew_pair_id is None or match.round.stage.format != StageFormat.KNOCKOUT:
        return ()
    pairs = (match.ns_pair_id, match.ew_pair_id)
    rows = (
        Correction.objects.filter(
            status=CorrectionStatus.OPEN,
            match__round__stage_id=match.round.stage_id,
            match__round__number__lt=match.round.number,
        )
        .filter(Q(match__ns_pair_id__in=pairs) | Q(match__ew_pair_id__in=pairs))
        .select_related("match__round", "match__table")
        .order_by("match__round__number", "id")
    )
    return tuple(
        ClearBlock(
            correction_id=row.pk,
            match_id=row.match_id,
            round_number=row.match.round.number,
            table=row.match.table.number if row.match.table else None,
        )
        for row in rows
    )


def match_started(*, match: Match) -> bool:
    """Played at all: a result, a deal, an adjustment or a started clock."""
    return (
        match.status != MatchStatus.PENDING
        or match.started_at is not None
        or match.deals.exists()
        or match.adjustments.exists()
    )


@event_write("match_id", of=match_id_event)
def match_clear(*, match_id: int, reason: str, user: Actor | None = None, expected_version: int | None = None) -> Match:
    """Clear a started knockout match that stands in the way of a correction: its deals and
    adjustments deleted (audited, with ``reason``), its open claims refused, its clock reset, the
    match pending again.

    Refused (409): the match is signed off (``match_locked``: unlock it first), nothing has been
    played (``not_started``), or no reopened match of an earlier round of its knockout shares a
    pair with it (``not_blocking``: there is nothing for it to make way for).
    """
    with transaction.atomic():
        match = locked_match(match_id)
        time_call_due(match, now=timezone.now())  # the version a page showed includes a due call (reset below)
        check_version(match, expected_version)
        if match.status == MatchStatus.CONFIRMED:
            raise MatchRefused("match_locked", _("The match is signed off: unlock it first, then clear it."))
        blocks = match_clear_blocks(match=match)
        if not blocks:
            raise MatchRefused(
                "not_blocking", _("No correction of an earlier match waits for this match: there is nothing to clear.")
            )
        if not match_started(match=match):
            raise MatchRefused("not_started", _("This match has not started: there is nothing to clear."))
        reason = reason_clean(reason, required=True)
        deals = list(match.deals.order_by("-number"))
        adjustments = list(match.adjustments.order_by("-id"))
        for row in [*deals, *adjustments]:
            history_author(row, user, reason)
            row.delete()
        for claim in match.claims.filter(status__in=CLAIM_OPEN):
            claim.status = ClaimStatus.REFUSED
            history_author(claim, user, reason)
            claim.save(update_fields=["status"])
        match.started_at = match.clock_ends_at = match.time_called_at = match.paused_at = None
        match.time_called_during_deal = None
        match.version += 1
        history_author(match, user, reason)
        match_replay(
            match=match,
            fields=["started_at", "clock_ends_at", "time_called_at", "paused_at", "time_called_during_deal", "version"],
        )
        cleared = {"match": match.pk, "deals": len(deals), "adjustments": len(adjustments), "reason": reason}
        for block in blocks:  # the correction's account says which next match was cleared for it
            correction = Correction.objects.select_for_update().get(pk=block.correction_id)
            correction.changes = {**correction.changes, "cleared": [*correction.changes.get("cleared", []), cleared]}
            history_author(correction, user, reason)
            correction.save(update_fields=["changes"])
        tournament_id = match.round.stage.tournament_id
        transaction.on_commit(lambda: public_pages_bump(tournament_id=tournament_id))
    return match
