"""Self-scheduled rounds (docs/rules.md §12.1): a round opened with a deadline instead of a clock start.

The pairs play whenever they meet and report through the players' entry (the opponents confirm) or a
referee. Until the deadline the players see it on their table's page and the event's page, and the
organiser's board (:func:`deadline_board`) shows every match's state. At the deadline every match of
the round without a confirmed result is a **double forfeit** — unless the organiser extended the round's
or that match's deadline before it passed (:func:`round_deadline_extend`, :func:`match_deadline_extend`,
audited with their reason). The forfeits are recorded by :func:`deadlines_pass` (the Celery task at the
deadline and the beat's sweep, ``tournament.matches.tasks``), set-based: two forfeit rows a match written
in bulk, each match folded once through the rules core and signed off (the deadline decided it), so a
knockout moves on at once and its next opponent gets a bye (docs/rules.md §7).

After the deadline a deal entered or confirmed for such a match is refused
(:func:`deadline_refuse_if_passed`, asked by ``deal_record`` and the players' entry); the organiser
enters a result reached in time as a correction, with a reason (the match is unlocked).

"Confirmed" here is the rules' word (a complete result whose every deal was confirmed): a match
``finished`` (awaiting the referee's sign-off) or ``confirmed`` stands at the deadline.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from simple_history.utils import bulk_create_with_history

from tournament.audit import bulk_history_attrs, history_author, history_copy, reason_clean
from tournament.celery import task_send
from tournament.matches.errors import MatchRefused
from tournament.matches.event import match_id_event, round_id_event
from tournament.matches.fold import FOLDS, SNAPSHOT_FIELDS, fold_apply, match_game
from tournament.matches.models import (
    Adjustment,
    AdjustmentKind,
    ClaimStatus,
    Deal,
    DealClaim,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
)
from tournament.matches.models.table_entry import CLAIM_OPEN
from tournament.matches.signals import match_confirmed
from tournament.people import Actor
from tournament.registration.lifecycle import event_write
from tournament.registration.models import Tournament
from tournament.rules import rules_for_stage
from tournament.signals import public_pages_bump

logger = logging.getLogger(__name__)

TASK = "tournament.matches.tasks.round_deadline_pass"

UNSETTLED = (MatchStatus.PENDING, MatchStatus.RUNNING)
"""A match without a confirmed result: nothing entered, or deals but no result yet."""


# -- time zones --------------------------------------------------------------------------------------


def event_zone(tournament: Tournament) -> ZoneInfo:
    """The event's time zone (deadlines are read and shown in it); the site's if the name is unknown."""
    try:
        return ZoneInfo(tournament.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(timezone.get_default_timezone_name())


def event_local(moment: datetime, tournament: Tournament) -> datetime:
    """``moment`` in the event's time zone."""
    return moment.astimezone(event_zone(tournament))


def event_aware(moment: datetime, tournament: Tournament) -> datetime:
    """A date and time typed by the organiser (naive: the event's time zone) as an aware moment."""
    if timezone.is_naive(moment):
        return moment.replace(tzinfo=event_zone(tournament))
    return moment


def deadline_text(moment: datetime, tournament: Tournament) -> str:
    """A deadline as people read it: the date and time in the event's time zone, with the zone."""
    local = event_local(moment, tournament)
    return f"{date_format(local, 'Y-m-d H:i')} ({tournament.time_zone})"


def days_left(moment: datetime, tournament: Tournament, *, now: datetime) -> int:
    """Calendar days from today to the deadline's day, in the event's time zone (0: today)."""
    return (event_local(moment, tournament).date() - event_local(now, tournament).date()).days


# -- the deadline of a match -------------------------------------------------------------------------


def match_deadline(match: Match) -> datetime | None:
    """The deadline ``match`` is played by: the later of its round's and its own extension (None: its
    round is not self-scheduled)."""
    round_deadline = match.round.deadline
    if round_deadline is None:
        return None
    if match.deadline is not None and match.deadline > round_deadline:
        return match.deadline
    return round_deadline


def deadline_refuse_if_passed(match: Match, *, now: datetime | None = None) -> None:
    """Refuse a result for a match of a self-scheduled round once its deadline has passed (a match
    reopened for a correction is the organiser's: it takes the result)."""
    deadline = match_deadline(match)
    if deadline is None or match.reopened_at is not None:
        return
    if (now or timezone.now()) >= deadline:
        tournament = match.round.stage.tournament
        raise MatchRefused(
            "deadline_passed",
            _(
                "The deadline (%(deadline)s) has passed: results are no longer accepted for this match. "
                "The organiser can still enter a result reached in time as a correction, with a reason."
            )
            % {"deadline": deadline_text(deadline, tournament)},
        )


# -- opening and extending -----------------------------------------------------------------------------


def _deadline_in_future(deadline: datetime, *, now: datetime) -> datetime:
    if timezone.is_naive(deadline):
        raise MatchRefused("bad_input", _("Give the deadline's date and time."), conflict=False)
    if deadline <= now:
        raise MatchRefused("deadline_in_past", _("The deadline must be in the future."), conflict=False)
    return deadline


def _schedule(round_id: int, deadline: datetime) -> None:
    """The task at the deadline, once the transaction commits; a lost task loses nothing (the beat's
    sweep, :func:`deadlines_pass`, finds every deadline due). In eager mode it runs at once and finds
    nothing due yet."""

    def send() -> None:
        try:
            task_send(TASK, args=[round_id], eta=deadline)
        except Exception:  # broker down: the sweep covers it; the write already committed
            logger.warning("could not schedule the deadline of round %s", round_id, exc_info=True)

    transaction.on_commit(send)


@event_write("round_id", of=round_id_event)
def round_open_self_scheduled(
    *, round_id: int, deadline: datetime, user: Actor | None = None, now: datetime | None = None
) -> Round:
    """Open a published round as self-scheduled, to be played by ``deadline`` (docs/rules.md §12.1).

    Refused (nothing changed): a draft, a started or finished round, a deadline not in the future."""
    now = now or timezone.now()
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("stage__tournament").get(pk=round_id)
        if round_.status != RoundStatus.PUBLISHED or round_.started_at is not None:
            raise MatchRefused("round_not_open", _("Only a published round that has not started can be opened."))
        round_.deadline = _deadline_in_future(deadline, now=now)
        round_.started_at = now
        round_.ends_at = None
        round_.status = RoundStatus.RUNNING
        history_author(round_, user, "opened: self-scheduled")
        round_.save(update_fields=["deadline", "started_at", "ends_at", "status"])
        _schedule(round_.pk, round_.deadline)
        tournament_id = round_.stage.tournament_id
        transaction.on_commit(lambda: public_pages_bump(tournament_id=tournament_id, standings=False))
    return round_


@event_write("round_id", of=round_id_event)
def round_deadline_extend(
    *, round_id: int, deadline: datetime, reason: str, user: Actor | None = None, now: datetime | None = None
) -> Round:
    """Move a self-scheduled round's deadline later, before it has passed, with a reason (audited).

    Refused (nothing changed): not a self-scheduled round, a deadline that has passed, a new deadline
    not later than the current one."""
    now = now or timezone.now()
    reason = reason_clean(reason)
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("stage__tournament").get(pk=round_id)
        if round_.deadline is None:
            raise MatchRefused("not_self_scheduled", _("This round has no deadline."))
        _extension_check(round_.deadline, deadline, now=now, tournament=round_.stage.tournament)
        round_.deadline = deadline
        round_.deadline_done_at = None
        history_author(round_, user, reason)
        round_.save(update_fields=["deadline", "deadline_done_at"])
        _schedule(round_.pk, deadline)
        tournament_id = round_.stage.tournament_id
        transaction.on_commit(lambda: public_pages_bump(tournament_id=tournament_id, standings=False))
    return round_


def _extension_check(current: datetime, deadline: datetime, *, now: datetime, tournament: Tournament) -> None:
    if now >= current:
        raise MatchRefused(
            "deadline_passed",
            _("The deadline (%(deadline)s) has passed: it can no longer be extended.")
            % {"deadline": deadline_text(current, tournament)},
        )
    _deadline_in_future(deadline, now=now)
    if deadline <= current:
        raise MatchRefused(
            "deadline_not_later",
            _("An extension must be later than the deadline now (%(deadline)s).")
            % {"deadline": deadline_text(current, tournament)},
            conflict=False,
        )


@event_write("match_id", of=match_id_event)
def match_deadline_extend(
    *, match_id: int, deadline: datetime, reason: str, user: Actor | None = None, now: datetime | None = None
) -> Match:
    """Give one match of a self-scheduled round more time, before its deadline has passed, with a
    reason (audited). Refused as :func:`round_deadline_extend` is, and for a bye or a settled match."""
    now = now or timezone.now()
    reason = reason_clean(reason)
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(of=("self",)).select_related("round__stage__tournament").get(pk=match_id)
        )
        current = match_deadline(match)
        if current is None:
            raise MatchRefused("not_self_scheduled", _("This match's round has no deadline."))
        if match.is_bye or match.status not in UNSETTLED:
            raise MatchRefused("match_settled", _("This match has its result already."))
        _extension_check(current, deadline, now=now, tournament=match.round.stage.tournament)
        match.deadline = deadline
        match.version += 1
        history_author(match, user, reason)
        match.save(update_fields=["deadline", "version"])
        Round.objects.filter(pk=match.round_id).update(deadline_done_at=None)
        _schedule(match.round_id, deadline)
    return match


# -- at the deadline -----------------------------------------------------------------------------------


def _due_matches(round_: Round, *, now: datetime) -> list[Match]:
    return list(
        round_.matches.select_for_update(of=("self",))
        .filter(status__in=UNSETTLED, ew_pair__isnull=False, reopened_at__isnull=True)
        .filter(Q(deadline__isnull=True) | Q(deadline__lte=now) | Q(deadline__lte=round_.deadline))
        .order_by("pk")
    )


def round_deadline_pass(*, round_id: int, now: datetime | None = None) -> int:
    """Record the double forfeits of ``round_id``'s matches whose deadline has passed without a confirmed
    result; the number recorded. Idempotent: a match forfeited is signed off, and is never due again; a
    deadline not reached (or extended since the task was scheduled) records nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("stage__tournament").filter(pk=round_id).first()
        if round_ is None or round_.deadline is None or round_.deadline_done_at is not None or now < round_.deadline:
            return 0
        matches = _due_matches(round_, now=now)
        for match in matches:
            match.round = round_
        if matches:
            _double_forfeits(round_, matches, now=now)
        later = round_.matches.filter(status__in=UNSETTLED, ew_pair__isnull=False, deadline__gt=now).exists()
        if not later:
            round_.deadline_done_at = now
            round_.save(update_fields=["deadline_done_at"])
        if matches and not round_.matches.exclude(status=MatchStatus.CONFIRMED).filter(ew_pair__isnull=False).exists():
            round_.status = RoundStatus.FINISHED
            round_.save(update_fields=["status"])
        if matches:
            last = matches[-1]
            tournament_id = round_.stage.tournament_id
            # the stage-level hooks (a fixed bracket's next round, the event decided) read the whole
            # stage: one signal for the batch does what one per match would
            transaction.on_commit(lambda: match_confirmed.send(sender=Match, match=last))
            transaction.on_commit(lambda: public_pages_bump(tournament_id=tournament_id))
    return len(matches)


def _double_forfeits(round_: Round, matches: list[Match], *, now: datetime) -> None:
    """Two forfeit rows per match (both sides: one double forfeit), in bulk with their history; each
    match folded once through the rules core and signed off; the players' open entries closed."""
    tournament = round_.stage.tournament
    reason = _("Not played or not reported by the deadline (%(deadline)s): lost by both.") % {
        "deadline": deadline_text(round_.deadline or now, tournament)
    }
    ids = [match.pk for match in matches]
    deals: dict[int, list[Deal]] = defaultdict(list)
    for deal in Deal.objects.filter(match_id__in=ids).order_by("match_id", "number"):
        deals[deal.match_id].append(deal)
    rows: dict[int | None, list[Adjustment]] = defaultdict(list)
    for row in Adjustment.objects.filter(match_id__in=ids).order_by("created_at", "id"):
        rows[row.match_id].append(row)
    new = [
        Adjustment(
            tournament_id=tournament.pk,
            match_id=match.pk,
            pair_id=pair_id,
            kind=AdjustmentKind.FORFEIT,
            reason=reason[:200],
            after_deal=len(deals[match.pk]),
        )
        for match in matches
        for pair_id in (match.ns_pair_id, match.ew_pair_id)
        if pair_id is not None  # the due matches have both sides (byes are never due)
    ]
    created = bulk_create_with_history(
        new, Adjustment, batch_size=500, default_change_reason="deadline", custom_historical_attrs=bulk_history_attrs()
    )
    if any(row.pk is None for row in created):  # a backend that returns no ids: read them back
        created = list(Adjustment.objects.filter(match_id__in=ids, reason=reason[:200]).order_by("id"))
    for row in created:
        rows[row.match_id].append(row)
    fold = FOLDS[match_game(matches[0]).entrants.key]
    options = rules_for_stage(round_.stage)
    changed_deals: list[Deal] = []
    changed_rows: list[Adjustment] = []
    for match in matches:
        folded = fold(
            match=match,
            options=options,
            outcomes=[deal.outcome for deal in deals[match.pk]],
            adjustments=rows[match.pk],
            time_called_during_deal=match.time_called_during_deal,
            parsed=None,
        )
        more_deals, more_rows = fold_apply(match, deals=deals[match.pk], adjustments=rows[match.pk], fold=folded)
        changed_deals += more_deals
        changed_rows += more_rows
        match.status = MatchStatus.CONFIRMED  # decided by the deadline: signed off by it
        match.signed_off_at = now
        match.signed_off_by = None
        match.version += 1
    if changed_deals:
        Deal.objects.bulk_update(changed_deals, ["record", "flagged"], batch_size=500)
    if changed_rows:
        Adjustment.objects.bulk_update(changed_rows, ["flagged"], batch_size=500)
    fields = list(dict.fromkeys([*SNAPSHOT_FIELDS, "status", "signed_off_at", "signed_off_by", "version"]))
    Match.objects.bulk_update(matches, fields, batch_size=500)
    history_copy(queryset=Match.objects.filter(pk__in=ids), reason="deadline: lost by both")
    open_claims = DealClaim.objects.filter(match_id__in=ids, status__in=CLAIM_OPEN)
    claim_ids = list(open_claims.values_list("pk", flat=True))
    if claim_ids:
        DealClaim.objects.filter(pk__in=claim_ids).update(
            status=ClaimStatus.REFUSED, note=_("The deadline passed: this entry is closed.")[:200]
        )
        history_copy(queryset=DealClaim.objects.filter(pk__in=claim_ids), reason="closed: the deadline passed")


def deadlines_pass(*, now: datetime | None = None) -> int:
    """Every self-scheduled round whose deadline has passed and is not processed yet (the beat's
    sweep and a lost task's cover): their double forfeits recorded; the number recorded."""
    now = now or timezone.now()
    due = Round.objects.filter(deadline__lte=now, deadline_done_at__isnull=True).values_list("pk", flat=True)
    return sum(round_deadline_pass(round_id=round_id, now=now) for round_id in list(due))


# -- what the pages show ---------------------------------------------------------------------------------


BOARD_STATES = {
    "not_yet": gettext_lazy("Not played yet"),
    "reported": gettext_lazy("Reported, awaiting the opponents"),
    "played": gettext_lazy("Played, no result yet"),
    "confirmed": gettext_lazy("Confirmed"),
    "forfeited": gettext_lazy("Lost by both"),
}


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One match on the organiser's board of a self-scheduled round."""

    match: Match
    state: str
    deadline: datetime
    days_left: int
    extended: bool
    not_reported: tuple[str, ...]
    """The pairs that have not reported (both sides of a match with nothing confirmed)."""

    @property
    def state_label(self) -> str:
        return str(BOARD_STATES[self.state])


@dataclass(frozen=True, slots=True)
class DeadlineBoard:
    round: Round
    deadline: datetime
    deadline_text: str
    days_left: int
    passed: bool
    rows: tuple[BoardRow, ...]
    counts: dict[str, int]


def _state(match: Match, *, has_deals: bool, has_claims: bool, forfeited: bool) -> str:
    if match.status in (MatchStatus.FINISHED, MatchStatus.CONFIRMED):
        return "forfeited" if forfeited and not match.winner else "confirmed"
    if has_claims:
        return "reported"
    return "played" if has_deals else "not_yet"


def deadline_board(*, round_: Round, now: datetime | None = None) -> DeadlineBoard | None:
    """The organiser's board of a self-scheduled round (None for another round): per match its state
    (not yet / reported / played / confirmed / lost by both), the pairs that have not reported and the
    days left (three queries, whatever the round's size)."""
    if round_.deadline is None:
        return None
    now = now or timezone.now()
    tournament = round_.stage.tournament
    forfeit = Adjustment.objects.filter(match=OuterRef("pk"), kind=AdjustmentKind.FORFEIT)
    matches = list(
        round_.matches.filter(ew_pair__isnull=False)
        .select_related("table", "ns_pair", "ew_pair")
        .annotate(
            has_deals=Exists(Deal.objects.filter(match=OuterRef("pk"))),
            has_claims=Exists(DealClaim.objects.filter(match=OuterRef("pk"), status__in=CLAIM_OPEN)),
            forfeited=Exists(forfeit),
        )
        .order_by("table__number", "pk")
    )
    rows = []
    counts: dict[str, int] = dict.fromkeys(BOARD_STATES, 0)
    for match in matches:
        match.round = round_
        facts: Any = match  # the three annotations above
        state = _state(match, has_deals=facts.has_deals, has_claims=facts.has_claims, forfeited=facts.forfeited)
        counts[state] += 1
        deadline = match_deadline(match) or round_.deadline
        names = tuple(pair.name for pair in (match.ns_pair, match.ew_pair) if pair is not None)
        rows.append(
            BoardRow(
                match=match,
                state=state,
                deadline=deadline,
                days_left=days_left(deadline, tournament, now=now),
                extended=deadline > round_.deadline,
                not_reported=names if state in ("not_yet", "played") else (),
            )
        )
    return DeadlineBoard(
        round=round_,
        deadline=round_.deadline,
        deadline_text=deadline_text(round_.deadline, tournament),
        days_left=days_left(round_.deadline, tournament, now=now),
        passed=now >= round_.deadline,
        rows=tuple(rows),
        counts=counts,
    )


@dataclass(frozen=True, slots=True)
class Reminder:
    """A deadline still ahead, as the players' pages show it."""

    round_name: str
    deadline: datetime
    text: str
    days_left: int


def _reminder(name: str, deadline: datetime, tournament: Tournament, *, now: datetime) -> Reminder:
    return Reminder(name, deadline, deadline_text(deadline, tournament), days_left(deadline, tournament, now=now))


def match_reminder(*, match: Match, now: datetime | None = None) -> Reminder | None:
    """The deadline a table's players must report by, while it is ahead and the match has no result."""
    now = now or timezone.now()
    deadline = match_deadline(match)
    if deadline is None or now >= deadline or match.status not in UNSETTLED or match.is_bye:
        return None
    return _reminder(str(match.round.stage.name), deadline, match.round.stage.tournament, now=now)


def event_reminders(*, tournament: Tournament, now: datetime | None = None) -> list[Reminder]:
    """The self-scheduled rounds of the event whose deadline is still ahead (the event's page)."""
    now = now or timezone.now()
    rounds = Round.objects.filter(stage__tournament=tournament, deadline__gt=now).select_related("stage")
    return [
        _reminder(f"{round_.stage.name} · {round_.number}", round_.deadline, tournament, now=now)
        for round_ in rounds.order_by("deadline")
        if round_.deadline is not None
    ]
