"""No-shows ("the door"): tables whose pair never arrived, offered as forfeits.

When the round's clock has run past the profile's **forfeit band** of the late-arrival table
(``RuleOptions.late_arrival_bands``, docs/rules.md §7: with the Guandan table, more than 20 minutes late
forfeits the match), every table of the round with a pair that was never checked in at the door,
no deal entered and no forfeit recorded yet is offered to the chief referee (and the organisers):
one tap records the forfeit through :func:`tournament.matches.services.adjustment_record` (kind
``forfeit``), audited like any adjustment. Nothing is forfeited by itself — a pair may have arrived
without passing the door; the referee at the table knows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.options import LatePenalty, RuleOptions
from tournament.matches.errors import MatchRefused
from tournament.matches.models import Adjustment, AdjustmentKind, Deal, Match, MatchStatus, Round
from tournament.matches.services import adjustment_record
from tournament.people import Actor
from tournament.registration.models import PairStatus
from tournament.rules import rules_for_stage


def forfeit_after_minutes(options: RuleOptions) -> int | None:
    """Minutes late after which the late-arrival table forfeits the match (the bound of the band
    before the ``forfeit_match`` band); None when the table has no such band."""
    previous = 0
    for band in options.late_arrival_bands:
        if band.penalty is LatePenalty.FORFEIT_MATCH:
            return previous
        if band.up_to_minutes is None:
            return None
        previous = band.up_to_minutes
    return None


@dataclass(frozen=True, slots=True)
class NoShow:
    """A table offered as a forfeit: the match and the pairs (one or both) not checked in."""

    match: Match
    absent: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class NoShowOffer:
    minutes: int | None
    """The forfeit threshold of the round's rules (None: the rules forfeit nobody for lateness)."""
    elapsed: int | None
    """Whole minutes since the round started (None: not started)."""
    due: bool
    tables: list[NoShow]


def round_no_shows(*, round_: Round, now: datetime | None = None) -> NoShowOffer:
    """The no-show tables of ``round_`` once its forfeit threshold has passed (one query)."""
    now = now or timezone.now()
    minutes = forfeit_after_minutes(rules_for_stage(round_.stage))
    elapsed = None if round_.started_at is None else int((now - round_.started_at).total_seconds() // 60)
    due = minutes is not None and elapsed is not None and elapsed > minutes
    if not due:
        return NoShowOffer(minutes=minutes, elapsed=elapsed, due=False, tables=[])
    absent = ~Q(ns_pair__status=PairStatus.CHECKED_IN) | ~Q(ew_pair__status=PairStatus.CHECKED_IN)
    forfeited = Adjustment.objects.filter(match=OuterRef("pk"), kind=AdjustmentKind.FORFEIT)
    matches = (
        Match.objects.filter(round=round_, ew_pair__isnull=False)
        .exclude(status__in=[MatchStatus.FINISHED, MatchStatus.CONFIRMED])
        .filter(absent)
        .filter(~Exists(Deal.objects.filter(match=OuterRef("pk"))), ~Exists(forfeited))
        .select_related("table", "ns_pair", "ew_pair")
        .order_by("table__number", "id")
    )
    tables = [
        NoShow(
            match=match,
            absent=tuple(
                pair
                for pair in (match.ns_pair, match.ew_pair)
                if pair is not None and pair.status != PairStatus.CHECKED_IN
            ),
        )
        for match in matches
    ]
    return NoShowOffer(minutes=minutes, elapsed=elapsed, due=True, tables=tables)


def no_show_forfeit(
    *, round_: Round, match_id: int, user: Actor | None = None, now: datetime | None = None
) -> list[Adjustment]:
    """Forfeit the match for each of its pairs still not checked in (both: a double forfeit), one
    adjustment each through ``adjustment_record``; refused (nothing written) when the table is no
    longer a no-show — a deal entered, a forfeit recorded, the pair checked in since — or is not
    a table of ``round_`` (the round the caller may oversee)."""
    offer = round_no_shows(round_=round_, now=now)
    table = next((table for table in offer.tables if table.match.pk == match_id), None)
    if table is None:
        raise MatchRefused("not_a_no_show", _("This table is not a no-show (any more)."))
    reason = _("No-show: not checked in %(minutes)d minutes after the round's start.") % {
        "minutes": offer.elapsed or 0
    }
    with transaction.atomic():
        return [
            adjustment_record(match_id=match_id, pair_id=pair.pk, kind=AdjustmentKind.FORFEIT, reason=reason, user=user)
            for pair in table.absent
        ]
