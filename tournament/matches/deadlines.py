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

import json
import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import connection, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.audit import history_author, history_copy, reason_clean
from tournament.celery import task_send
from tournament.labels import round_name
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
from tournament.matches.models.table_entry import CLAIM_OPEN, claims_still_open
from tournament.matches.selectors import round_knockout_pairs
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
        raise MatchRefused("bad_input", _("Give the date and time."), conflict=False)
    if deadline <= now:
        raise MatchRefused("deadline_in_past", _("The date and time must be in the future."), conflict=False)
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


@event_write("round_id", of=round_id_event)
def round_session_plan(
    *, round_id: int, scheduled_at: datetime | None, user: Actor | None = None, now: datetime | None = None
) -> Round:
    """Plan (or, with None, unplan) the session a round is played in together, for the calendar feed;
    refused (nothing changed) for a time in the past or a round already started."""
    now = now or timezone.now()
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_id)
        if round_.started_at is not None:
            raise MatchRefused("round_started", _("The round has started; its session can no longer be planned."))
        round_.scheduled_at = None if scheduled_at is None else _deadline_in_future(scheduled_at, now=now)
        history_author(round_, user, "session planned")
        round_.save(update_fields=["scheduled_at"])
    return round_


# -- at the deadline -----------------------------------------------------------------------------------


def _due(round_: Round, *, now: datetime) -> list[int]:
    """The ids of the round's matches due (locked, in id order): both sides, no result, not reopened,
    at their deadline."""
    return list(
        round_.matches.select_for_update(of=("self",))
        .filter(status__in=UNSETTLED, ew_pair__isnull=False, reopened_at__isnull=True)
        .filter(Q(deadline__isnull=True) | Q(deadline__lte=now) | Q(deadline__lte=round_.deadline))
        .order_by("pk")
        .values_list("pk", flat=True)
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
        due = _due(round_, now=now)
        entered = set(Deal.objects.filter(match_id__in=due).values_list("match_id", flat=True))
        entered |= set(Adjustment.objects.filter(match_id__in=due).values_list("match_id", flat=True))
        reason = _("Not played or not reported by the deadline (%(deadline)s): lost by both.") % {
            "deadline": deadline_text(round_.deadline, round_.stage.tournament)
        }
        plain = [pk for pk in due if pk not in entered]
        if plain:
            _plain_forfeits(round_, plain, reason=reason[:200], now=now)
        matches = list(Match.objects.filter(pk__in=[pk for pk in due if pk in entered]).order_by("pk"))
        for match in matches:
            match.round = round_
        if matches:
            _double_forfeits(round_, matches, reason=reason[:200], now=now)
        if due:
            _claims_close(due)
            history_copy(queryset=Match.objects.filter(pk__in=due), reason="deadline: lost by both")
        later = round_.matches.filter(status__in=UNSETTLED, ew_pair__isnull=False, deadline__gt=now).exists()
        if not later:
            round_.deadline_done_at = now
            round_.save(update_fields=["deadline_done_at"])
        if due and not round_.matches.exclude(status=MatchStatus.CONFIRMED).filter(ew_pair__isnull=False).exists():
            round_.status = RoundStatus.FINISHED
            round_.save(update_fields=["status"])
        if due:
            last = Match.objects.select_related("round__stage__tournament").get(pk=due[-1])
            tournament_id = round_.stage.tournament_id
            # the stage-level hooks (a fixed bracket's next round, the event decided) read the whole
            # stage: one signal for the batch does what one per match would
            transaction.on_commit(lambda: match_confirmed.send(sender=Match, match=last))
            transaction.on_commit(lambda: public_pages_bump(tournament_id=tournament_id))
    return len(due)


SIGNED_OFF_BY_DEADLINE = {"status": MatchStatus.CONFIRMED, "signed_off_by": None}


def _plain_forfeits(round_: Round, ids: list[int], *, reason: str, now: datetime) -> None:
    """The matches with nothing entered (nearly all of a deadline's): two forfeit rows each, written by
    the database in one ``INSERT … SELECT`` per side with their history copied in one; they all fold to
    one snapshot, folded once through the rules core and stored by one ``UPDATE``."""
    tournament_id = round_.stage.tournament_id
    columns = ["tournament_id", "match_id", "pair_id", "kind", "levels", "points", "after_deal", "flagged"]
    columns += ["reason", "created_at"]
    qn = connection.ops.quote_name
    table = qn(Adjustment._meta.db_table)
    created_at = connection.ops.adapt_datetimefield_value(now)
    for side in ("ns_pair_id", "ew_pair_id"):
        select, params = Match.objects.filter(pk__in=ids).order_by("pk").values("pk", side).query.sql_with_params()
        sql = (
            f"INSERT INTO {table} ({', '.join(qn(column) for column in columns)}) "
            f"SELECT %s, sub.*, %s, 0, 0, 0, %s, %s, %s FROM ({select}) sub"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [tournament_id, AdjustmentKind.FORFEIT, False, reason, created_at, *params])
    rows = Adjustment.objects.filter(match_id__in=ids, kind=AdjustmentKind.FORFEIT)
    history_copy(queryset=rows, reason="deadline", created=True)
    template = Match.objects.select_related("round__stage__tournament").get(pk=ids[0])
    trial = [
        Adjustment(pk=-1, match=template, pair=template.ns_pair, kind=AdjustmentKind.FORFEIT, reason=reason),
        Adjustment(pk=-2, match=template, pair=template.ew_pair, kind=AdjustmentKind.FORFEIT, reason=reason),
    ]
    fold = FOLDS[match_game(template).entrants.key](
        match=template,
        options=rules_for_stage(round_.stage),
        outcomes=[],
        adjustments=trial,
        time_called_during_deal=template.time_called_during_deal,
        parsed=None,
    )
    fold_apply(template, deals=[], adjustments=trial, fold=fold)
    values = {field: getattr(template, field) for field in SNAPSHOT_FIELDS if field != "status"}
    if values.get("finished_at") is not None:
        values["finished_at"] = now
    Match.objects.filter(pk__in=ids).update(
        **values, **SIGNED_OFF_BY_DEADLINE, signed_off_at=now, version=F("version") + 1
    )


def _claims_close(ids: list[int]) -> None:
    """The players' entries still open at the forfeited tables: closed, saying why (audited in one)."""
    claim_ids = list(DealClaim.objects.filter(match_id__in=ids, status__in=CLAIM_OPEN).values_list("pk", flat=True))
    if claim_ids:
        DealClaim.objects.filter(pk__in=claim_ids).update(
            status=ClaimStatus.REFUSED, note=_("The deadline passed: this entry is closed.")[:200]
        )
        history_copy(queryset=DealClaim.objects.filter(pk__in=claim_ids), reason="closed: the deadline passed")


def _double_forfeits(round_: Round, matches: list[Match], *, reason: str, now: datetime) -> None:
    """The matches with deals or adjustments entered: two forfeit rows each after their last deal, each
    match folded through the rules core (its deals and earlier adjustments with them) and signed off."""
    tournament = round_.stage.tournament
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
    created = Adjustment.objects.bulk_create(new, batch_size=1000)
    if any(row.pk is None for row in created):  # a backend that returns no ids: read them back
        created = list(Adjustment.objects.filter(match_id__in=ids, reason=reason[:200]).order_by("id"))
    history_copy(
        queryset=Adjustment.objects.filter(pk__in=[row.pk for row in created]), reason="deadline", created=True
    )
    for row in created:
        rows[row.match_id].append(row)
    fold = FOLDS[match_game(matches[0]).entrants.key]
    options = rules_for_stage(round_.stage)
    changed_deals: list[Deal] = []
    changed_rows: list[Adjustment] = []
    # Matches with nothing entered all fold to the same snapshot: one UPDATE per distinct snapshot
    # (bulk_update's CASE per row and field cost seconds for a round of 2,500 tables).
    groups: dict[str, list[int]] = defaultdict(list)
    values: dict[str, dict[str, Any]] = {}
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
        if match.finished_at is not None:  # finished by the deadline's pass, the same moment for all
            match.finished_at = now
        snapshot = {field: getattr(match, field) for field in SNAPSHOT_FIELDS if field != "status"}
        key = json.dumps(snapshot, sort_keys=True, default=str)
        values[key] = snapshot
        groups[key].append(match.pk)
    if changed_deals:
        Deal.objects.bulk_update(changed_deals, ["record", "flagged"], batch_size=500)
    if changed_rows:
        Adjustment.objects.bulk_update(changed_rows, ["flagged"], batch_size=500)
    for key, pks in groups.items():
        # decided by the deadline: signed off by it
        Match.objects.filter(pk__in=pks).update(
            **values[key], **SIGNED_OFF_BY_DEADLINE, signed_off_at=now, version=F("version") + 1
        )
    for match in matches:
        match.status = MatchStatus.CONFIRMED
        match.signed_off_at = now
        match.signed_off_by = None


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
            has_claims=Exists(claims_still_open(DealClaim.objects.filter(match=OuterRef("pk")))),
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


def _round_name(round_: Round) -> str:
    """The round as its pages name it (四分之一决赛, 第 2 轮), not a bare number."""
    return round_name(number=round_.number, knockout_pairs=round_knockout_pairs(round_=round_))


def event_reminders(*, tournament: Tournament, now: datetime | None = None) -> list[Reminder]:
    """The self-scheduled rounds of the event whose deadline is still ahead (the event's page)."""
    now = now or timezone.now()
    rounds = Round.objects.filter(stage__tournament=tournament, deadline__gt=now).select_related("stage")
    return [
        _reminder(f"{round_.stage.name} · {_round_name(round_)}", round_.deadline, tournament, now=now)
        for round_ in rounds.order_by("deadline")
        if round_.deadline is not None
    ]
