"""The match clock: start a round or a table, call time at the cap, and the organiser's hand on
a running clock (docs/rules.md §2).

The clock (docs/rules.md §2): an organiser starts a round (every match of it) or a single match; the
cap comes from the round or the rules. The deadline is stored on the rows and a Celery task is
scheduled for it. Time is called — stored — by that task, by the periodic sweep
(:func:`time_calls_due`, every minute: a lost task or a restart loses nothing) and by every write
to a match or a clock, first, inside its lock; calling time twice has no further effect. A page or
an API read writes nothing: it shows a due call made in memory (:func:`match_as_of`,
:func:`matches_as_of`, :func:`round_as_of`), exactly as the task or the next write will store it
(the same fields, the same version).

The organiser's hand on a running clock: pause and resume, extend by N minutes, change
the round's cap, call time now — for a round (every open table of it, set-based: a few queries for
2,500 tables) or one table, each with a reason kept on the history rows. A pause is stored as
``paused_at`` on the round and its tables; while it is set time is never called, and on resume the
pause's length is added to ``ends_at`` / ``clock_ends_at`` (no running total: the deadline is always
the one stored). A round's resume resumes the tables its pause paused (``paused_at`` equal to the
round's); a table paused on its own is resumed on its own. Every change schedules a new task for the
new deadline, carrying that deadline: a task whose deadline is no longer the stored one is stale and
schedules nothing (it still asks the database, which stays the source of truth, so it can never call
time early). Refused where it makes no sense, with a stable code: not started, untimed, already
paused, not paused, time already called, match over.

Who may call what is checked by the callers (``tournament.matches.access``).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Case, Exists, F, OuterRef, QuerySet, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.audit import history_author, history_copy, reason_clean
from tournament.celery import task_send
from tournament.matches import clock_changes as changes
from tournament.matches.errors import MatchRefused
from tournament.matches.event import match_id_event, round_id_event
from tournament.matches.fold import (
    locked_match,
    match_refold,
    match_replay,
    matches_refold,
    matches_replay,
    refuse_unless_open,
)
from tournament.matches.models import (
    Match,
    MatchStatus,
    Round,
    RoundStatus,
)
from tournament.matches.time_due import (
    PLAYING,
    match_time_due,
    round_clock_expired,
    round_time_due,
    time_due_filter,
)
from tournament.parsing import int_or_none
from tournament.people import Actor
from tournament.registration.lifecycle import event_write
from tournament.rules import rules_for_stage
from tournament.signals import public_pages_bump

logger = logging.getLogger(__name__)


def time_cap_minutes(*, round_: Round) -> int | None:
    """The round's own cap (custom minutes) or the rules' (40, 90 … docs/rules.md §2); None: untimed."""
    if round_.time_cap_minutes:
        return round_.time_cap_minutes
    minutes: int | None = rules_for_stage(round_.stage).time_cap_minutes
    return minutes


def clock_start(match: Match, *, now: datetime, ends_at: datetime | None = None, schedule: bool = True) -> None:
    """On a locked match: start its clock at ``now`` (ending at ``ends_at`` or after the cap)."""
    # a self-scheduled round's matches have no clock: the players report after they played
    minutes = time_cap_minutes(round_=match.round) if match.round.deadline is None else None
    match.started_at = now
    match.clock_ends_at = ends_at or (now + timedelta(minutes=minutes) if minutes else None)
    if schedule and match.clock_ends_at is not None:
        _schedule("match", match.pk, match.clock_ends_at)


def _schedule(kind: str, pk: int, eta: datetime) -> None:
    """Schedule the time call once the transaction commits. Losing it loses nothing: the periodic
    sweep (:func:`time_calls_due`) and the next write to the match call time after the cap."""

    def send() -> None:
        task = "tournament.matches.tasks.round_time_up" if kind == "round" else "tournament.matches.tasks.match_time_up"
        try:
            # the deadline travels with the task: a later change makes it stale (see tasks.py)
            task_send(task, args=[pk], kwargs={"ends_at": eta.isoformat()}, eta=eta)
        except Exception:  # broker down: the sweep covers it; the write already committed
            logger.warning("could not schedule the time call of %s %s", kind, pk, exc_info=True)

    transaction.on_commit(send)


@event_write("match_id", of=match_id_event)
def match_start(*, match_id: int, user: Actor | None = None, now: datetime | None = None) -> Match:
    """Start one match's clock (its round's cap). Starting a started match changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        match = locked_match(match_id)
        refuse_unless_open(match)
        if match.started_at is not None:
            return match
        clock_start(match, now=now)
        history_author(match, user)
        match_replay(match=match, fields=["started_at", "clock_ends_at"])
    return match


@event_write("round_id", of=round_id_event)
def round_start(*, round_id: int, user: Actor | None = None, now: datetime | None = None) -> Round:
    """Start a round: its clock and that of every match not started yet (docs/rules.md §2).

    One task is scheduled for the round's cap. The matches are started set-based, in a second
    short transaction (locks are never held on the round while a match is locked, the order
    sign-off uses): their rows are locked in id order in one query, updated in one, and their
    history rows copied by the database in one — four queries for 2,500 tables, where one
    transaction per match cost seven queries each. Starting a started round only starts the matches that were missed.
    """
    now = now or timezone.now()
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_id)
        if round_.started_at is None:
            if round_.status in (RoundStatus.DRAFT, RoundStatus.FINISHED):
                raise MatchRefused("round_not_published", _("Only a published round can be started."))
            minutes = time_cap_minutes(round_=round_)
            round_.started_at = now
            round_.ends_at = now + timedelta(minutes=minutes) if minutes else None
            round_.status = RoundStatus.RUNNING
            history_author(round_, user)
            round_.save(update_fields=["started_at", "ends_at", "status"])
            if round_.ends_at is not None:
                _schedule("round", round_.pk, round_.ends_at)
    with transaction.atomic():
        ids = list(
            round_.matches.select_for_update(of=("self",))
            .filter(started_at__isnull=True, ew_pair__isnull=False)
            .filter(status__in=(MatchStatus.PENDING, MatchStatus.RUNNING))
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        if ids:
            started = round_.started_at or now
            # A match not started has no deals (the first deal starts its clock), so its fold is
            # unchanged but for the status it reads: pending becomes running.
            Match.objects.filter(pk__in=ids).update(
                started_at=started,
                clock_ends_at=round_.ends_at,
                status=Case(When(status=MatchStatus.PENDING, then=Value(MatchStatus.RUNNING)), default=F("status")),
            )
            history_copy(queryset=Match.objects.filter(pk__in=ids), user=user)
            public_pages_bump(tournament_id=round_.stage.tournament_id, seating=False)
    return round_


@event_write("round_id", of=round_id_event)
def round_clock_set(
    *, round_id: int, time_cap_minutes: int | None, warning_minutes: int, user: Actor | None = None
) -> Round:
    """Set a round's cap (custom minutes; None: the rules') and when the warning shows, before it starts."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_id)
        if round_.started_at is not None:
            raise MatchRefused("round_started", _("The round has started; its clock can no longer change."))
        round_.time_cap_minutes = time_cap_minutes
        round_.warning_minutes = warning_minutes
        history_author(round_, user)
        round_.save(update_fields=["time_cap_minutes", "warning_minutes"])
    return round_


def time_call_if_due(match: Match, *, now: datetime) -> bool:
    """On a locked match: call time if its cap has passed and a deal is being played (docs/rules.md §2).

    The deal being played when time is called is the one after those entered. A match that has
    already ended needs no call; if a correction reopens it later, time is called then.
    """
    fields = time_call_due(match, now=now)
    if not fields:
        return False
    match_replay(match=match, fields=fields)
    return True


def time_call_due(match: Match, *, now: datetime, deals_entered: int | None = None) -> list[str]:
    """On a locked match: call time in memory if its cap has passed (docs/rules.md §2); the fields it
    changed, for the caller's fold to store (none: nothing was due, ``time_due``). A signed-off match
    is left as is. ``deals_entered``: the deals already read by a set-based caller (else counted here)."""
    if not match_time_due(match, now=now):
        return []
    fields = []
    if match.time_called_at is None:
        match.time_called_at = now
        fields.append("time_called_at")
    if match.time_called_during_deal is None and match.status in (MatchStatus.PENDING, MatchStatus.RUNNING):
        entered = match.deals.count() if deals_entered is None else deals_entered
        match.time_called_during_deal = entered + 1
        match.version += 1
        fields += ["time_called_during_deal", "version"]
    return fields


def match_call_time(*, match_id: int, now: datetime | None = None) -> bool:
    """Call time for one match if its cap has passed; True if anything changed (idempotent)."""
    now = now or timezone.now()
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status == MatchStatus.CONFIRMED:
            return False
        return time_call_if_due(match, now=now)


# -- what a read shows: a due time call made in memory, nothing stored --------------------------------


def _unsaved_copy(match: Match) -> Match:
    copied = copy.copy(match)
    copied.__dict__.pop("_snapshot", None)
    copied.__dict__.pop("_table_snapshot", None)
    return copied


def match_as_of(match: Match, *, now: datetime | None = None) -> Match:
    """``match`` as it stands now: a due time call made on a copy in memory and folded, nothing saved
    (``match`` itself as it is when nothing is due, without a query). What the pages and the API
    show between the cap and the task or write that stores the call: the same fields and version."""
    now = now or timezone.now()
    if not match_time_due(match, now=now):
        return match
    shown = _unsaved_copy(match)
    if "time_called_during_deal" in time_call_due(shown, now=now):
        match_refold(shown)
    return shown


def matches_as_of(matches: Sequence[Match], *, now: datetime | None = None) -> list[Match]:
    """:func:`match_as_of` of many matches, set-based (a page of a round's tables): the due ones'
    deals and adjustments read in one query each; no query when none is due."""
    now = now or timezone.now()
    shown = [_unsaved_copy(match) if match_time_due(match, now=now) else match for match in matches]
    due = [copied for copied, match in zip(shown, matches, strict=True) if copied is not match]
    if due:

        def call_time(match: Match, entered: int) -> None:
            time_call_due(match, now=now, deals_entered=entered)

        matches_refold(matches=due, change=call_time)
    return shown


def round_as_of(round_: Round, *, now: datetime | None = None) -> Round:
    """``round_`` as it stands now: a due time call made on a copy in memory, nothing saved."""
    now = now or timezone.now()
    if not round_time_due(round_, now=now):
        return round_
    shown = copy.copy(round_)
    shown.time_called_at = now
    if shown.status == RoundStatus.RUNNING:
        shown.status = RoundStatus.TIME_CALLED
    return shown


_TIME_CALL_FIELDS = ["clock_ends_at", "paused_at", "time_called_at", "time_called_during_deal", "version"]


def _tables_time_call(
    round_: Round,
    queryset: Any,
    *,
    now: datetime,
    user: Actor | None = None,
    reason: str | None = None,
    values: dict[str, Any] | None = None,
) -> int:
    """Call time at every table of ``queryset`` (of ``round_``) at once, set-based: the rows locked
    in id order in one query, their deals and adjustments read in one each, each table folded
    through the rules core (the deal being played is recorded), every row stored in one bulk update
    and the history rows copied in one — a few queries for 2,500 tables, where one transaction per
    table cost a dozen each. ``values``: set on each table first (call now: the deadline is now).
    How many tables were called."""
    with transaction.atomic():
        matches = list(queryset.select_for_update(of=("self",)).order_by("pk"))
        if not matches:
            return 0

        def call(match: Match, deals_entered: int) -> None:
            match.round = round_  # one round (and its stage's rules) for every table: no query each
            for name, value in (values or {}).items():
                setattr(match, name, value)
            time_call_due(match, now=now, deals_entered=deals_entered)

        matches_replay(matches=matches, fields=_TIME_CALL_FIELDS, change=call)
        history_copy(queryset=Match.objects.filter(pk__in=[match.pk for match in matches]), user=user, reason=reason)
        public_pages_bump(tournament_id=round_.stage.tournament_id, seating=False)
    return len(matches)


def _round_due_tables(round_: Round, *, now: datetime) -> QuerySet[Match]:
    """The round's tables at which a time call is due (``time_due``; a paused one waits)."""
    return round_.matches.filter(time_due_filter(now=now))


def round_call_time(*, round_id: int, now: datetime | None = None) -> bool:
    """Call time for a round at its cap: the round once, then every one of its matches that is due.

    True the one time the round's time is called; later calls (a duplicate task, the sweep, a write)
    change nothing (docs/rules.md §2: the project calls time itself, once) but finish any match a
    crashed earlier call missed. The matches are called set-based, in a second transaction (the
    order sign-off uses: never a match locked while the round is).
    """
    now = now or timezone.now()
    with transaction.atomic():
        round_ = _round_locked(round_id)
        if not round_clock_expired(round_, now=now):
            return False
        first = round_.time_called_at is None
        if first:
            round_.time_called_at = now
            if round_.status == RoundStatus.RUNNING:
                round_.status = RoundStatus.TIME_CALLED
            round_.save(update_fields=["time_called_at", "status"])
    _tables_time_call(round_, _round_due_tables(round_, now=now), now=now)
    return first


def time_calls_due(*, now: datetime | None = None) -> int:
    """Call time wherever it is due and not stored yet (the periodic sweep, ``tasks.clock_sweep``):
    every round being played past its cap, then every table at which a call is due
    (``time_due``), round by round, set-based. How many tables a call was due at."""
    now = now or timezone.now()
    playing = Round.objects.filter(status__in=(RoundStatus.PUBLISHED, RoundStatus.RUNNING, RoundStatus.TIME_CALLED))
    due = Match.objects.filter(round__in=playing).filter(time_due_filter(now=now))
    tables = dict(due.values_list("pk", "round_id"))
    for round_id in playing.filter(ends_at__lte=now, time_called_at__isnull=True, paused_at__isnull=True).values_list(
        "pk", flat=True
    ):
        round_call_time(round_id=round_id, now=now)  # its due tables with it
    for round_id in sorted(set(tables.values())):
        round_ = Round.objects.select_related("stage__tournament").get(pk=round_id)
        _tables_time_call(round_, _round_due_tables(round_, now=now), now=now)
    return len(tables)


# -- the organiser's hand on a running clock ----------------------------------------------
#
# Each change is written once for a round and a table alike (``clock_changes``); a round's version
# saves the round and applies the change to the tables running with it set-based, a table's saves it.

EXTEND_MAX_MINUTES = 240
"""An extension or a cap beyond four hours is a typing error, not a decision."""

_OPEN = PLAYING


def _refuse_clock_state(target: changes.Clocked, *, paused: bool | None, timed: bool, untimed: str) -> None:
    """The refusals a round and a table share; ``paused``: the state the change needs."""
    if timed and getattr(target, changes.deadline_field(target)) is None:
        raise MatchRefused("untimed", untimed)
    if paused is True and target.paused_at is None:
        raise MatchRefused("not_paused", _("The clock is running, not paused."))
    if paused is False and target.paused_at is not None:
        raise MatchRefused("already_paused", _("The clock is already paused."))


def _refuse_round_clock(round_: Round, *, paused: bool | None = None, timed: bool = True) -> None:
    """Refuse a change of a round's clock that makes no sense; ``paused``: the state it needs."""
    if round_.started_at is None:
        raise MatchRefused("clock_not_started", _("The round's clock has not started."))
    if round_.status == RoundStatus.FINISHED:
        raise MatchRefused("round_finished", _("The round is finished; its clock can no longer change."))
    if round_.time_called_at is not None:
        raise MatchRefused("time_called", _("Time has already been called for this round."))
    _refuse_clock_state(round_, paused=paused, timed=timed, untimed=_("This round has no time limit."))


def _refuse_match_clock(match: Match, *, paused: bool | None = None, timed: bool = True) -> None:
    """Refuse a change of one table's clock that makes no sense; ``paused``: the state it needs."""
    if match.is_bye:
        raise MatchRefused("bye", _("A bye has no clock."))
    if match.status not in _OPEN:
        raise MatchRefused("match_over", _("The match is over; its clock can no longer change."))
    if match.reopened_at is not None:
        raise MatchRefused("reopened", _("The match is reopened for correction; its clock stays stopped."))
    if match.started_at is None:
        raise MatchRefused("clock_not_started", _("This table's clock has not started."))
    if match.time_called_at is not None:
        raise MatchRefused("time_called", _("Time has already been called at this table."))
    _refuse_clock_state(match, paused=paused, timed=timed, untimed=_("This table has no time limit."))


def _clean_minutes(minutes: Any, *, low: int = 1) -> int:
    value = int_or_none(minutes, low=low, high=EXTEND_MAX_MINUTES)
    if value is None:
        raise MatchRefused(
            "minutes_out_of_range",
            _("Give a number of minutes from %(low)d to %(high)d.") % {"low": low, "high": EXTEND_MAX_MINUTES},
            conflict=False,
        )
    return value


def _clock_save(target: changes.Clocked, fields: list[str], *, user: Actor | None, reason: str) -> None:
    """Save a round's or a table's clock change with its author and reason (the history row)."""
    history_author(target, user, reason)
    target.save(update_fields=fields)
    round_ = target if isinstance(target, Round) else target.round
    public_pages_bump(tournament_id=round_.stage.tournament_id, seating=False)


def _round_open_matches(round_: Round) -> QuerySet[Match]:
    """The round's tables whose clock runs with the round's: started, timed, time not called."""
    return round_.matches.filter(
        started_at__isnull=False, clock_ends_at__isnull=False, time_called_at__isnull=True, status__in=_OPEN
    )


def _matches_update(queryset: Any, *, user: Actor | None, reason: str, values: dict[str, Any]) -> list[int]:
    """Lock ``queryset``'s rows in id order (one query), update them (one) and copy their history
    rows with the reason (one): the set-based write of a round-wide clock change."""
    ids = list(queryset.select_for_update(of=("self",)).order_by("pk").values_list("pk", flat=True))
    if ids:
        Match.objects.filter(pk__in=ids).update(**values)
        history_copy(queryset=Match.objects.filter(pk__in=ids), user=user, reason=reason)
    return ids


def _schedule_round(round_: Round) -> None:
    """A task for the round's new deadline, and one for each of its tables whose deadline differs
    (extended, paused or capped on its own): the round's task calls only the tables then due."""
    if round_.ends_at is None or round_.paused_at is not None:
        return
    _schedule("round", round_.pk, round_.ends_at)
    own = _round_open_matches(round_).filter(paused_at__isnull=True).exclude(clock_ends_at=round_.ends_at)
    for pk, ends_at in own.values_list("pk", "clock_ends_at"):
        if ends_at is not None:  # always: open matches are timed
            _schedule("match", pk, ends_at)


def _schedule_table(match: Match) -> None:
    if match.paused_at is None and match.clock_ends_at is not None:
        _schedule("match", match.pk, match.clock_ends_at)


def _round_locked(round_id: int) -> Round:
    return Round.objects.select_for_update(of=("self",)).select_related("stage__tournament").get(pk=round_id)


def _round_calls_first(round_id: int, *, now: datetime) -> None:
    """A change to a round's clock first stores the time calls due in it (the round's and its
    tables'), as any write does: it is refused or applied on the clock as it stands now."""
    due_tables = Exists(Match.objects.filter(round_id=OuterRef("pk")).filter(time_due_filter(now=now)))
    round_ = Round.objects.select_related("stage__tournament").annotate(due_tables=due_tables).get(pk=round_id)
    if round_time_due(round_, now=now):
        round_call_time(round_id=round_id, now=now)  # its due tables with it
    elif round_.due_tables:
        _tables_time_call(round_, _round_due_tables(round_, now=now), now=now)


@event_write("round_id", of=round_id_event)
def round_pause(*, round_id: int, reason: str, user: Actor | None = None, now: datetime | None = None) -> Round:
    """Pause a round's clock and that of every table running with it (a fire alarm, a dispute)."""
    now = now or timezone.now()
    reason = reason_clean(reason)
    _round_calls_first(round_id, now=now)
    with transaction.atomic():
        round_ = _round_locked(round_id)
        _refuse_round_clock(round_, paused=False)
        fields, values = changes.pause(round_, now=now)
        _clock_save(round_, fields, user=user, reason=reason)
        running = _round_open_matches(round_).filter(paused_at__isnull=True)
        _matches_update(running, user=user, reason=reason, values=values)
    return round_


@event_write("round_id", of=round_id_event)
def round_resume(*, round_id: int, reason: str, user: Actor | None = None, now: datetime | None = None) -> Round:
    """Resume a paused round: its deadline, and that of each table its pause paused, move on by the
    pause's length; tables paused on their own stay paused."""
    now = now or timezone.now()
    reason = reason_clean(reason)
    _round_calls_first(round_id, now=now)
    with transaction.atomic():
        round_ = _round_locked(round_id)
        _refuse_round_clock(round_, paused=True)
        paused_with_round = _round_open_matches(round_).filter(paused_at=round_.paused_at)
        fields, values = changes.resume(round_, now=now)
        _clock_save(round_, fields, user=user, reason=reason)
        _matches_update(paused_with_round, user=user, reason=reason, values=values)
        _schedule_round(round_)
    return round_


@event_write("round_id", of=round_id_event)
def round_extend(*, round_id: int, minutes: int, reason: str, user: Actor | None = None) -> Round:
    """Give a round's clock, and every table running with it, ``minutes`` more (paused or not)."""
    minutes = _clean_minutes(minutes)
    reason = reason_clean(reason)
    _round_calls_first(round_id, now=timezone.now())
    with transaction.atomic():
        round_ = _round_locked(round_id)
        _refuse_round_clock(round_)
        fields, values = changes.extend(round_, delta=timedelta(minutes=minutes))
        _clock_save(round_, fields, user=user, reason=reason)
        _matches_update(_round_open_matches(round_), user=user, reason=reason, values=values)
        _schedule_round(round_)
    return round_


@event_write("round_id", of=round_id_event)
def round_cap_change(
    *, round_id: int, minutes: int, reason: str, user: Actor | None = None, now: datetime | None = None
) -> Round:
    """Change a started round's cap to ``minutes``: every deadline moves by the difference (pauses
    and extensions already given are kept). A cap already past calls time at once. A table given
    its own cap (:func:`match_cap_change`) keeps it."""
    now = now or timezone.now()
    minutes = _clean_minutes(minutes)
    reason = reason_clean(reason)
    _round_calls_first(round_id, now=now)
    with transaction.atomic():
        round_ = _round_locked(round_id)
        _refuse_round_clock(round_, timed=False)
        old = time_cap_minutes(round_=round_)
        untimed = round_.ends_at is None or old is None
        fields, values = changes.cap(round_, old=old, minutes=minutes)
        _clock_save(round_, fields, user=user, reason=reason)
        if untimed:  # an untimed round's tables get their first deadline
            tables = round_.matches.filter(
                started_at__isnull=False, clock_ends_at__isnull=True, time_called_at__isnull=True, status__in=_OPEN
            )
        else:
            tables = _round_open_matches(round_)
        _matches_update(tables.filter(time_cap_minutes__isnull=True), user=user, reason=reason, values=values)
        _schedule_round(round_)
    assert round_.ends_at is not None
    if round_.paused_at is None and round_.ends_at <= now:
        round_call_time(round_id=round_.pk, now=now)
        round_.refresh_from_db()
    return round_


@event_write("round_id", of=round_id_event)
def round_call_now(*, round_id: int, reason: str, user: Actor | None = None, now: datetime | None = None) -> Round:
    """Call time for a round now (paused or not): every table running with it is called at once,
    set-based (a few queries for 2,500 tables), each folded through the rules core."""
    now = now or timezone.now()
    reason = reason_clean(reason)
    _round_calls_first(round_id, now=now)
    with transaction.atomic():
        round_ = _round_locked(round_id)
        _refuse_round_clock(round_, timed=False)
        fields, values = changes.call_now(round_, now=now)
        round_.time_called_at = now
        if round_.status == RoundStatus.RUNNING:
            round_.status = RoundStatus.TIME_CALLED
        _clock_save(round_, [*fields, "time_called_at", "status"], user=user, reason=reason)
        # the untimed tables too: "call time now" is the organiser's cap
        running = round_.matches.filter(started_at__isnull=False, time_called_at__isnull=True, status__in=_OPEN)
        _tables_time_call(round_, running, now=now, user=user, reason=reason, values=values)
        _tables_time_call(round_, _round_due_tables(round_, now=now), now=now)  # any other table past its cap
    return round_


@event_write("round_id", of=round_id_event)
def round_reopen(
    *, round_id: int, minutes: int, reason: str, user: Actor | None = None, now: datetime | None = None
) -> Round:
    """Take back a round's time call (a mistaken "call time now", or play resumed after an
    interruption): the round and every table it called that is not signed off play on, with
    ``minutes`` from now on their clocks. Each such table is refolded without the call: a match the
    call ended plays on from its deals, and a deal entered after the call counts like any other.
    The round's and the tables' history rows keep the reason; a signed-off table stays as signed."""
    now = now or timezone.now()
    minutes = _clean_minutes(minutes)
    reason = reason_clean(reason)
    with transaction.atomic():
        round_ = _round_locked(round_id)
        if round_.status == RoundStatus.FINISHED:
            raise MatchRefused("round_finished", _("The round is finished; its clock can no longer change."))
        if round_.time_called_at is None:
            raise MatchRefused(
                "time_not_called", _("Time has not been called for this round: extend its clock instead.")
            )
        ends_at = now + timedelta(minutes=minutes)
        round_.time_called_at = None
        round_.ends_at = ends_at
        round_.paused_at = None
        if round_.status == RoundStatus.TIME_CALLED:
            round_.status = RoundStatus.RUNNING
        _clock_save(round_, ["time_called_at", "ends_at", "paused_at", "status"], user=user, reason=reason)
        called = list(
            round_.matches.filter(time_called_at__isnull=False)
            .exclude(status=MatchStatus.CONFIRMED)
            .select_for_update(of=("self",))
            .order_by("pk")
        )

        def reopen(match: Match, deals_entered: int) -> None:
            match.round = round_  # one round (and its stage's rules) for every table: no query each
            match.time_called_at = None
            match.time_called_during_deal = None
            match.clock_ends_at = ends_at
            match.paused_at = None
            match.version += 1

        matches_replay(matches=called, fields=_TIME_CALL_FIELDS, change=reopen)
        history_copy(queryset=Match.objects.filter(pk__in=[match.pk for match in called]), user=user, reason=reason)
        public_pages_bump(tournament_id=round_.stage.tournament_id, seating=False)
        _schedule_round(round_)
    return round_


@event_write("match_id", of=match_id_event)
def match_pause(*, match_id: int, reason: str, user: Actor | None = None, now: datetime | None = None) -> Match:
    """Pause one table's clock (a dispute at that table)."""
    now = now or timezone.now()
    reason = reason_clean(reason)
    match_call_time(match_id=match_id, now=now)  # a write stores a due time call first
    with transaction.atomic():
        match = locked_match(match_id)
        _refuse_match_clock(match, paused=False)
        fields, _values = changes.pause(match, now=now)
        _clock_save(match, fields, user=user, reason=reason)
    return match


@event_write("match_id", of=match_id_event)
def match_resume(*, match_id: int, reason: str, user: Actor | None = None, now: datetime | None = None) -> Match:
    """Resume one table's clock (paused alone or with its round): its deadline moves on by the pause."""
    now = now or timezone.now()
    reason = reason_clean(reason)
    match_call_time(match_id=match_id, now=now)  # a write stores a due time call first
    with transaction.atomic():
        match = locked_match(match_id)
        _refuse_match_clock(match, paused=True)
        fields, _values = changes.resume(match, now=now)
        _clock_save(match, fields, user=user, reason=reason)
        _schedule_table(match)
    return match


@event_write("match_id", of=match_id_event)
def match_extend(*, match_id: int, minutes: int, reason: str, user: Actor | None = None) -> Match:
    """Give one table ``minutes`` more (a long dispute there), paused or not."""
    minutes = _clean_minutes(minutes)
    reason = reason_clean(reason)
    match_call_time(match_id=match_id)  # a write stores a due time call first
    with transaction.atomic():
        match = locked_match(match_id)
        _refuse_match_clock(match)
        fields, _values = changes.extend(match, delta=timedelta(minutes=minutes))
        _clock_save(match, fields, user=user, reason=reason)
        _schedule_table(match)
    return match


@event_write("match_id", of=match_id_event)
def match_cap_change(
    *, match_id: int, minutes: int, reason: str, user: Actor | None = None, now: datetime | None = None
) -> Match:
    """Give one table its own cap of ``minutes``, counted from its start like the round's (a table
    that started late, a pair with a ruling): its deadline moves by the difference from the cap it
    had — its own or the round's — keeping pauses and extensions already given; an untimed table gets
    its first deadline. A cap already past calls time at once. The table keeps it when the round's
    cap changes later. Refused as the other changes are, and when the cap is the one it has."""
    now = now or timezone.now()
    minutes = _clean_minutes(minutes)
    reason = reason_clean(reason)
    match_call_time(match_id=match_id, now=now)  # a write stores a due time call first
    with transaction.atomic():
        match = locked_match(match_id)
        _refuse_match_clock(match, timed=False)
        old = match.time_cap_minutes or time_cap_minutes(round_=match.round)
        if old == minutes and match.clock_ends_at is not None:
            raise MatchRefused(
                "cap_unchanged", _("This table already has a cap of %(minutes)d minutes.") % {"minutes": minutes}
            )
        fields, _values = changes.cap(match, old=old, minutes=minutes)
        _clock_save(match, fields, user=user, reason=reason)
        if not time_call_if_due(match, now=now):
            _schedule_table(match)
    return match


@event_write("match_id", of=match_id_event)
def match_call_now(*, match_id: int, reason: str, user: Actor | None = None, now: datetime | None = None) -> Match:
    """Call time at one table now (paused or not, timed or not)."""
    now = now or timezone.now()
    reason = reason_clean(reason)
    match_call_time(match_id=match_id, now=now)  # a write stores a due time call first
    with transaction.atomic():
        match = locked_match(match_id)
        _refuse_match_clock(match, timed=False)
        fields, _values = changes.call_now(match, now=now)
        _clock_save(match, fields, user=user, reason=reason)
        time_call_if_due(match, now=now)
    return match
