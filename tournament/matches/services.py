"""Match writes: deals, corrections, adjustments, sign-off, and the match clock.

Deals are the source of truth (DESIGN.md principle 1): the match row's ``state``, ``winner``,
``result_reason`` and ``status`` are the rules core's fold of its deals and adjustments, rewritten
in the same transaction that writes a deal. Every write locks the match row
(``select_for_update`` on PostgreSQL; SQLite's IMMEDIATE transactions serialise writers), checks
the expected version and, for deal entry, honours an idempotency key, so a retried or doubled
submission records one deal (principle 3). Every change is kept by django-simple-history with its
author, address and reason (principle 4); a correction never erases history.

The clock (RULES.md §2): an organiser starts a round (every match of it) or a single match; the
cap comes from the round or the rules. The deadline is stored on the rows, a Celery task is
scheduled for it, and :func:`match_time_check` calls time lazily whenever a page or API call
touches a match after its cap, so a lost task or a restart loses nothing. Calling time twice has
no further effect.

The organiser's hand on a running clock (issue 15): pause and resume, extend by N minutes, change
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

Who may call what is checked by the callers (``tournament.matches.access``); these functions
trust their ``match_id``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.adjustments import Adjustment as ScoringAdjustment
from scoring.adjustments import Forfeit, LateArrival, LevelPenalty, PointPenalty
from scoring.errors import ScoringError
from scoring.match import DealInput, PartialReplay, parse_deal, replay_partial
from scoring.options import RuleOptions
from scoring.outcome import MatchResult, Status
from scoring.seats import Side
from tournament.audit import REASON_MAX, history_author, history_copy
from tournament.errors import UserError
from tournament.matches.models import (
    Adjustment,
    AdjustmentKind,
    Deal,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
)
from tournament.matches.signals import match_confirmed, match_unlocked
from tournament.registration.lifecycle import event_write
from tournament.rules import rules_for_stage
from tournament.standings.cache import public_version_bump

logger = logging.getLogger(__name__)


SNAPSHOT_FIELDS = ["state", "winner", "result_reason", "status", "finished_at"]


class StaleVersion(UserError):
    """The match changed since the caller read it (HTTP 409 with the current state)."""

    def __init__(self, match: Match) -> None:
        super().__init__(
            "stale_version",
            _("Someone else changed this match. Here is its current state; check it and try again."),
            status=409,
            message_en=f"match {match.pk} is at version {match.version}",
        )
        self.match = match


class MatchRefused(UserError):
    """A write the match's state does not allow (signed off, not finished, flagged deals …).

    ``code`` is stable (the API returns it); ``message`` is in the user's language. ``conflict``:
    the match's state is the reason (HTTP 409), else the input is (HTTP 400).
    """

    def __init__(self, code: str, message: str, *, conflict: bool = True) -> None:
        super().__init__(code, message, status=409 if conflict else 400)
        self.conflict = conflict


@dataclass(frozen=True, slots=True)
class DealEntry:
    """What ``deal_record`` did: the deal, the match after it, and whether it was a retry."""

    deal: Deal
    match: Match
    replayed: bool = False


# -- folding a match through the rules core --------------------------------------------------------


def match_rules(match: Match) -> RuleOptions:
    """The rules that apply to ``match`` (its stage's, through ``tournament.rules``)."""
    return rules_for_stage(match.round.stage)


def _side_of(match: Match, pair_id: int) -> Side:
    return Side.NS if pair_id == match.ns_pair_id else Side.EW


def scoring_adjustments(
    *, match: Match, rows: Sequence[Adjustment]
) -> list[tuple[list[Adjustment], ScoringAdjustment]]:
    """The rules core's adjustments for ``rows`` (RULES.md §5, §7), each with the rows it stands for.

    Warnings change nothing and are left out. Both pairs forfeiting at the same point is one
    double forfeit (both lose), not two walkovers.
    """
    out: list[tuple[list[Adjustment], ScoringAdjustment]] = []
    forfeits: dict[tuple[int, Side], int] = {}
    for row in rows:
        side = _side_of(match, row.pair_id)
        if row.kind == AdjustmentKind.FORFEIT:
            other = forfeits.get((row.after_deal, side.other))
            if other is not None and isinstance(out[other][1], Forfeit) and len(out[other][0]) == 1:
                out[other] = (
                    [*out[other][0], row],
                    Forfeit(side=None, after_deal=row.after_deal, reason=row.reason),
                )
                continue
            forfeits[(row.after_deal, side)] = len(out)
            out.append(([row], Forfeit(side=side, after_deal=row.after_deal, reason=row.reason)))
        elif row.kind == AdjustmentKind.LATE_ARRIVAL:
            out.append(([row], LateArrival(side=side, minutes=row.minutes_late or 0, after_deal=row.after_deal)))
        elif row.kind == AdjustmentKind.PENALTY and row.levels:
            out.append(
                ([row], LevelPenalty(side=side, levels=row.levels, after_deal=row.after_deal, reason=row.reason))
            )
        elif row.kind == AdjustmentKind.PENALTY and row.points:
            out.append(
                ([row], PointPenalty(side=side, points=row.points, after_deal=row.after_deal, reason=row.reason))
            )
    return out


@dataclass(frozen=True, slots=True)
class Fold:
    """A match folded through the rules core, with what it refused (to be flagged)."""

    partial: PartialReplay
    deals_valid: int
    adjustments_valid: frozenset[int]
    """Ids of the adjustment rows the fold applied (warnings count as applied)."""

    @property
    def result(self) -> MatchResult:
        return self.partial.result


def match_fold(
    *,
    match: Match,
    outcomes: Sequence[Any],
    adjustments: Sequence[Adjustment],
    time_called_during_deal: int | None,
    parsed: dict[int, DealInput] | None = None,
) -> Fold:
    """Fold outcomes and adjustment rows through ``scoring.match.replay_partial`` (no writes).

    A stored outcome the rules core cannot even read stops the fold at that deal, like any other
    deal it refuses. ``parsed``: deal number → that deal already parsed by the caller (a write
    parses the deal it was given once, to refuse it first; issue 14).
    """
    options = match_rules(match)
    deals: list[DealInput] = []
    for number, outcome in enumerate(outcomes, 1):
        if parsed and number in parsed:
            deals.append(parsed[number])
            continue
        try:
            deals.append(parse_deal(options=options, data=outcome, number=number))
        except ScoringError:
            break
    groups = scoring_adjustments(match=match, rows=adjustments)
    partial = replay_partial(
        options=options,
        deals=deals,
        time_called_during_deal=time_called_during_deal,
        adjustments=[adjustment for _rows, adjustment in groups],
    )
    applied = {row.pk for index in partial.adjustments_applied for row in groups[index][0]}
    grouped = {row.pk for rows, _adjustment in groups for row in rows}
    applied |= {row.pk for row in adjustments if row.pk not in grouped}  # warnings
    return Fold(partial=partial, deals_valid=partial.deals_applied, adjustments_valid=frozenset(applied))


def _store(match: Match, result: MatchResult) -> None:
    match.state = result.to_json()
    match.winner = result.winner.code if result.winner is not None else ""
    match.result_reason = result.reason.value if result.reason is not None else ""
    if match.status != MatchStatus.CONFIRMED:
        if result.status is Status.FINISHED:
            match.status = MatchStatus.FINISHED
            match.finished_at = match.finished_at or timezone.now()
        else:
            started = bool(result.deals) or match.started_at is not None
            match.status = MatchStatus.RUNNING if started else MatchStatus.PENDING
            match.finished_at = None


def match_replay(*, match: Match, fields: Iterable[str] = ()) -> MatchResult:
    """Refold ``match`` from its deals and adjustments and store the snapshot (call inside a
    transaction, on a locked row; ``fields`` are other fields of ``match`` to save with it).

    A deal or adjustment the rules core refuses (e.g. entered after the match ended, once a
    correction shortened it) is flagged for the referee along with everything after it — never
    silently kept in the result or dropped (DESIGN.md principle 1).
    """
    deals = list(match.deals.order_by("number"))
    adjustments = match_adjustment_rows(match)
    fold = match_fold(
        match=match,
        outcomes=[deal.outcome for deal in deals],
        adjustments=adjustments,
        time_called_during_deal=match.time_called_during_deal,
    )
    return _fold_store(match, deals=deals, adjustments=adjustments, fold=fold, fields=fields)


def _fold_store(
    match: Match, *, deals: Sequence[Deal], adjustments: Sequence[Adjustment], fold: Fold, fields: Iterable[str]
) -> MatchResult:
    """Store ``fold`` — the fold of exactly ``deals`` and ``adjustments`` as they are now saved — on
    the match, its deals' records and the flags (the one fold of a write; issue 14)."""
    records = fold.result.deals
    changed = []
    for index, deal in enumerate(deals):
        record = records[index].to_json() if index < fold.deals_valid else {}
        flagged = index >= fold.deals_valid
        if deal.record != record or deal.flagged != flagged:
            deal.record, deal.flagged = record, flagged
            changed.append(deal)
    if changed:
        # derived data, not an edit: no history row of its own (the edit that caused it has one)
        Deal.objects.bulk_update(changed, ["record", "flagged"])
    changed_adjustments = []
    for row in adjustments:
        flagged = row.pk not in fold.adjustments_valid
        if row.flagged != flagged:
            row.flagged = flagged
            changed_adjustments.append(row)
    if changed_adjustments:
        Adjustment.objects.bulk_update(changed_adjustments, ["flagged"])
    _store(match, fold.result)
    match.save(update_fields=list(dict.fromkeys([*SNAPSHOT_FIELDS, *fields])))
    return fold.result


# -- helpers shared by the writes ------------------------------------------------------------------


def _locked(match_id: int) -> Match:
    # of=("self",): lock the match row only. A bare FOR UPDATE would also lock the joined round,
    # stage and tournament rows and so serialise every table of the event on one row.
    return Match.objects.select_for_update(of=("self",)).select_related("round__stage__tournament").get(pk=match_id)


def _user_or_none(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


def _refuse_unless_open(match: Match) -> None:
    if match.is_bye:
        raise MatchRefused("bye", _("A bye has no deals."))
    if match.status == MatchStatus.CONFIRMED:
        raise MatchRefused("match_locked", _("The match is signed off; an organiser must unlock it first."))


def _check_version(match: Match, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != match.version:
        raise StaleVersion(match)


REFUSALS = (ScoringError, UserError)
"""What a write refuses with; nothing it was asked for is written then (a due time call still is)."""


def _locked_clocked(match_id: int, *, now: datetime) -> tuple[Match, list[str]]:
    """The match, locked, with time called on it if its cap has passed (not saved yet: the write's
    one fold stores it; issue 14). Returns the fields the time call changed."""
    match = _locked(match_id)
    return match, _time_call_due(match, now=now)


def _locked_open(match_id: int, expected_version: int | None) -> Match:
    """The match, locked, for an edit: refused if it is a bye or signed off, or if it changed
    since the caller read ``expected_version``."""
    match = _locked(match_id)
    _refuse_unless_open(match)
    _check_version(match, expected_version)
    return match


def _clean_reason(reason: str | None) -> str:
    text = " ".join((reason or "").split())
    if not text:
        raise MatchRefused("reason_required", _("Give a reason."), conflict=False)
    if len(text) > REASON_MAX:
        raise MatchRefused(
            "reason_too_long",
            _("The reason is longer than %(max)d characters.") % {"max": REASON_MAX},
            conflict=False,
        )
    return text


def match_outcomes(match: Match) -> list[Any]:
    """The outcomes of the match's deals, in order."""
    return list(match.deals.order_by("number").values_list("outcome", flat=True))


def match_adjustment_rows(match: Match) -> list[Adjustment]:
    """The match's adjustments in the order they were recorded (the order they apply in)."""
    return list(match.adjustments.order_by("created_at", "id"))


# -- deals -------------------------------------------------------------------------------------------


@event_write
def deal_record(
    *,
    match_id: int,
    outcome: dict[str, Any],
    user: Any = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> DealEntry:
    """Record the next deal of a match (RULES.md §1–3 through the rules core).

    Raises ScoringError for an impossible deal (``invalid_order``, ``match_finished`` …),
    StaleVersion when ``expected_version`` is not the match's version and MatchRefused when the
    match is signed off or has flagged deals to resolve; nothing is written then. A repeated
    ``idempotency_key`` returns the deal first recorded with it. The first deal starts the match
    clock if nobody started it.
    """
    now = timezone.now()
    refusal: Exception | None = None
    with transaction.atomic():
        match = _locked(match_id)
        called = _time_call_due(match, now=now)  # the clock, once, inside the lock (issue 14)
        if idempotency_key:
            earlier = match.deals.filter(idempotency_key=idempotency_key).first()
            if earlier is not None:
                if called:
                    match_replay(match=match, fields=called)
                return DealEntry(deal=earlier, match=match, replayed=True)
        deals = list(match.deals.order_by("number"))
        adjustments = match_adjustment_rows(match)
        number = len(deals) + 1
        try:
            _refuse_unless_open(match)
            _check_version(match, expected_version)
            # parsed once: invalid_order before anything else, then folded as parsed
            parsed = parse_deal(options=match_rules(match), data=outcome, number=number)
            fold = match_fold(
                match=match,
                outcomes=[*(deal.outcome for deal in deals), outcome],
                adjustments=adjustments,
                time_called_during_deal=match.time_called_during_deal,
                parsed={number: parsed},
            )
            if fold.deals_valid < number:
                if fold.deals_valid < number - 1 or fold.partial.error is None:
                    raise MatchRefused("flagged_deals", _("Resolve the flagged deals first."))
                raise fold.partial.error
        except REFUSALS as error:
            refusal = error
            if called:  # the time call stands even when the deal is refused
                match_replay(match=match, fields=called)
        else:
            deal = Deal(
                match=match,
                number=number,
                outcome=outcome,
                entered_by=_user_or_none(user),
                idempotency_key=idempotency_key or None,
            )
            history_author(deal, user)
            deal.save()
            fields = [*called, "version"]
            if match.started_at is None:
                _clock_start(match, now=now)
                fields += ["started_at", "clock_ends_at"]
            match.version += 1
            history_author(match, user)
            _fold_store(match, deals=[*deals, deal], adjustments=adjustments, fold=fold, fields=fields)
            deal.refresh_from_db()
    if refusal is not None:
        raise refusal
    return DealEntry(deal=deal, match=match)


def _deal(match: Match, number: int) -> Deal:
    deal = match.deals.filter(number=number).first()
    if deal is None:
        raise MatchRefused("no_such_deal", _("There is no deal %(number)d.") % {"number": number}, conflict=False)
    return deal


@event_write
def deal_correct(
    *,
    match_id: int,
    number: int,
    outcome: dict[str, Any],
    reason: str,
    user: Any = None,
    expected_version: int | None = None,
) -> Match:
    """Change deal ``number``'s finishing order, with a reason, and replay the match from deal 1.

    Deals that become impossible (the match now ends earlier) are flagged; a correction that
    un-ends the match reopens it (RULES.md §1–3; DESIGN.md principle 1). An unreadable order is
    refused (``invalid_order``) and nothing changes.
    """
    now = timezone.now()
    refusal: Exception | None = None
    with transaction.atomic():
        match, called = _locked_clocked(match_id, now=now)
        try:
            _refuse_unless_open(match)
            _check_version(match, expected_version)
            reason = _clean_reason(reason)
            deal = _deal(match, number)
            parsed = parse_deal(options=match_rules(match), data=outcome, number=number)
        except REFUSALS as error:
            refusal = error
            if called:
                match_replay(match=match, fields=called)
        else:
            deal.outcome = outcome
            deal.version += 1
            history_author(deal, user, reason)
            deal.save(update_fields=["outcome", "version"])
            match.version += 1
            history_author(match, user, reason)
            deals = list(match.deals.order_by("number"))
            adjustments = match_adjustment_rows(match)
            fold = match_fold(
                match=match,
                outcomes=[row.outcome for row in deals],
                adjustments=adjustments,
                time_called_during_deal=match.time_called_during_deal,
                parsed={number: parsed},
            )
            _fold_store(match, deals=deals, adjustments=adjustments, fold=fold, fields=[*called, "version"])
            # Only a correction that reopens a match finished before its cap folds again: time is
            # called during the deal now being played (RULES.md §2).
            _time_call_if_due(match, now=now)
    if refusal is not None:
        raise refusal
    return match


@event_write
def deal_delete(
    *,
    match_id: int,
    number: int,
    reason: str,
    user: Any = None,
    expected_version: int | None = None,
) -> Match:
    """Delete deal ``number`` with a reason; later deals move up one number and the match is replayed.

    Adjustments set after a later deal, and the deal during which time was called, move with the
    deals they follow, so deleting a doubled entry changes nothing else. The deleted deal stays in
    the audit history.
    """
    now = timezone.now()
    refusal: Exception | None = None
    with transaction.atomic():
        match, called = _locked_clocked(match_id, now=now)
        try:
            _refuse_unless_open(match)
            _check_version(match, expected_version)
            reason = _clean_reason(reason)
            deal = _deal(match, number)
        except REFUSALS as error:
            refusal = error
            if called:
                match_replay(match=match, fields=called)
        else:
            history_author(deal, user, reason)
            deal.delete()
            # one by one, in order: each step keeps (match, number) unique on every database
            for later in match.deals.filter(number__gt=number).order_by("number"):
                later.number -= 1
                history_author(later, user, reason)
                later.save(update_fields=["number"])
            for row in match.adjustments.filter(after_deal__gte=number).order_by("id"):
                row.after_deal -= 1
                history_author(row, user, reason)
                row.save(update_fields=["after_deal"])
            fields = [*called, "version"]
            if match.time_called_during_deal is not None and number < match.time_called_during_deal:
                match.time_called_during_deal -= 1
                fields.append("time_called_during_deal")
            match.version += 1
            history_author(match, user, reason)
            match_replay(match=match, fields=fields)
    if refusal is not None:
        raise refusal
    return match


@event_write
def deal_undo(*, match_id: int, reason: str, user: Any = None, expected_version: int | None = None) -> Match:
    """Undo the last deal of the match: a deletion of it, with the referee's reason like a correction
    or a deletion (issue 17), audited as "Undo: <reason>"."""
    last = Deal.objects.filter(match_id=match_id).order_by("-number").values_list("number", flat=True).first()
    if last is None:
        raise MatchRefused("no_deals", _("There is no deal to undo."))
    return deal_delete(
        match_id=match_id,
        number=last,
        reason=_("Undo: %(reason)s") % {"reason": reason},
        user=user,
        expected_version=expected_version,
    )


# -- adjustments -------------------------------------------------------------------------------------


@event_write
def adjustment_record(
    *,
    match_id: int,
    pair_id: int,
    kind: str,
    reason: str,
    user: Any = None,
    levels: int = 0,
    points: int = 0,
    minutes_late: int | None = None,
    absent_player_id: int | None = None,
    after_deal: int | None = None,
    expected_version: int | None = None,
) -> Adjustment:
    """Record a forfeit, late arrival, penalty or warning against a pair of the match (RULES.md §7).

    It applies after the deals entered so far (a late arrival: before the first deal). The rules
    core decides what it does (the late-arrival table, the A cap on penalties …) and refuses what
    cannot apply — a level penalty in a points format, anything after the match has ended, an
    adjustment that would make entered deals impossible; nothing is written then.
    """
    now = timezone.now()
    refusal: Exception | None = None
    with transaction.atomic():
        match, called = _locked_clocked(match_id, now=now)
        try:
            row, deals, rows, fold = _adjustment_trial(
                match,
                expected_version=expected_version,
                pair_id=pair_id,
                kind=kind,
                reason=reason,
                user=user,
                levels=levels,
                points=points,
                minutes_late=minutes_late,
                absent_player_id=absent_player_id,
                after_deal=after_deal,
                now=now,
            )
        except REFUSALS as error:
            refusal = error
            if called:
                match_replay(match=match, fields=called)
        else:
            history_author(row, user)
            row.save()
            applied = frozenset(row.pk if pk == TRIAL_PK else pk for pk in fold.adjustments_valid)
            match.version += 1
            history_author(match, user, row.reason)
            _fold_store(
                match,
                deals=deals,
                adjustments=[*rows, row],
                fold=replace(fold, adjustments_valid=applied),
                fields=[*called, "version"],
            )
    if refusal is not None:
        raise refusal
    return row


TRIAL_PK = -1
"""A stand-in id for an adjustment row in the fold that decides whether it may be saved."""


def _adjustment_trial(
    match: Match,
    *,
    expected_version: int | None,
    pair_id: int,
    kind: str,
    reason: str,
    user: Any,
    levels: int,
    points: int,
    minutes_late: int | None,
    absent_player_id: int | None,
    after_deal: int | None,
    now: datetime,
) -> tuple[Adjustment, list[Deal], list[Adjustment], Fold]:
    """The adjustment row ``adjustment_record`` would save and the match folded with it (the one
    fold of the write), or the refusal."""
    _refuse_unless_open(match)
    _check_version(match, expected_version)
    reason = _clean_reason(reason)
    if pair_id not in (match.ns_pair_id, match.ew_pair_id):
        raise MatchRefused("bad_pair", _("That pair does not play this match."), conflict=False)
    deals = list(match.deals.order_by("number"))
    deal_count = len(deals)
    if kind not in AdjustmentKind.values:
        raise MatchRefused("bad_input", _("Unknown kind of adjustment."), conflict=False)
    if kind == AdjustmentKind.LATE_ARRIVAL:
        # the late-arrival table (RULES.md §7) speaks of the first deal: it applies before it
        if deal_count:
            raise MatchRefused("bad_input", _("A late arrival is recorded before the first deal."), conflict=False)
        after_deal = 0
        if minutes_late is None:
            raise MatchRefused("bad_input", _("Give the minutes late."), conflict=False)
    if kind == AdjustmentKind.PENALTY and (levels > 0) == (points > 0):
        raise MatchRefused("bad_input", _("A penalty is either levels or points."), conflict=False)
    after_deal = deal_count if after_deal is None else after_deal
    if not 0 <= after_deal <= deal_count:
        raise MatchRefused("bad_input", _("No such deal."), conflict=False)
    if (
        absent_player_id is not None
        and not match.round.stage.tournament.players.filter(pk=absent_player_id, membership__pair_id=pair_id).exists()
    ):
        raise MatchRefused("bad_input", _("That player is not in the pair."), conflict=False)
    row = Adjustment(
        tournament=match.round.stage.tournament,
        match=match,
        pair_id=pair_id,
        kind=kind,
        levels=levels if kind == AdjustmentKind.PENALTY else 0,
        points=points if kind == AdjustmentKind.PENALTY else 0,
        minutes_late=minutes_late if kind == AdjustmentKind.LATE_ARRIVAL else None,
        absent_player_id=absent_player_id if kind == AdjustmentKind.FORFEIT else None,
        after_deal=after_deal,
        reason=reason,
        created_by=_user_or_none(user),
    )
    row.created_at = now
    rows = match_adjustment_rows(match)
    # The deals the rules accept now are those the last fold left unflagged (flags are a suffix:
    # ``_fold_store``), so only the fold with the new row is needed.
    valid_before = sum(1 for deal in deals if not deal.flagged)
    row.pk = TRIAL_PK
    fold = match_fold(
        match=match,
        outcomes=[deal.outcome for deal in deals],
        adjustments=[*rows, row],
        time_called_during_deal=match.time_called_during_deal,
    )
    row.pk = None
    if TRIAL_PK not in fold.adjustments_valid or fold.deals_valid < valid_before:
        error = fold.partial.error
        if error is not None:
            raise error
        raise MatchRefused("bad_input", _("This adjustment cannot apply here."), conflict=False)
    return row, deals, rows, fold


@event_write
def adjustment_delete(
    *, match_id: int, adjustment_id: int, reason: str, user: Any = None, expected_version: int | None = None
) -> Match:
    """Remove an adjustment entered by mistake, with a reason (kept in the audit history)."""
    with transaction.atomic():
        match = _locked_open(match_id, expected_version)
        reason = _clean_reason(reason)
        row = match.adjustments.filter(pk=adjustment_id).first()
        if row is None:
            raise MatchRefused("no_such_adjustment", _("There is no such adjustment."), conflict=False)
        history_author(row, user, reason)
        row.delete()
        match.version += 1
        history_author(match, user, reason)
        match_replay(match=match, fields=["version"])
    return match


# -- sign-off ----------------------------------------------------------------------------------------


@event_write
def match_sign_off(*, match_id: int, user: Any = None, expected_version: int | None = None) -> Match:
    """The referee confirms the final result: the match is locked and counts as confirmed.

    Standings read confirmed snapshots; ``signals.match_confirmed`` is sent after the commit for
    bracket progression. A second sign-off of a confirmed match changes nothing (a retry).
    """
    with transaction.atomic():
        match = _locked(match_id)
        if match.status == MatchStatus.CONFIRMED:
            return match
        _refuse_unless_open(match)
        _check_version(match, expected_version)
        if match.status != MatchStatus.FINISHED:
            raise MatchRefused("not_finished", _("The match has no result yet."))
        if match.deals.filter(flagged=True).exists() or match.adjustments.filter(flagged=True).exists():
            raise MatchRefused("flagged_deals", _("Resolve the flagged deals first."))
        match.status = MatchStatus.CONFIRMED
        match.signed_off_by = _user_or_none(user)
        match.signed_off_at = timezone.now()
        match.version += 1
        history_author(match, user)
        match.save(update_fields=["status", "signed_off_by", "signed_off_at", "version"])
        _round_finish_if_done(match.round)
        transaction.on_commit(lambda: match_confirmed.send(sender=Match, match=match))
    return match


@event_write
def match_unlock(*, match_id: int, reason: str, user: Any = None) -> Match:
    """An organiser reopens a signed-off match, with a reason; it must be signed off again."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != MatchStatus.CONFIRMED:
            raise MatchRefused("not_locked", _("The match is not signed off."))
        reason = _clean_reason(reason)
        match.status = MatchStatus.FINISHED
        match.signed_off_by = None
        match.signed_off_at = None
        match.version += 1
        history_author(match, user, reason)
        match_replay(match=match, fields=["signed_off_by", "signed_off_at", "version"])
        round_ = Round.objects.select_for_update().get(pk=match.round_id)
        if round_.status == RoundStatus.FINISHED:
            round_.status = _round_open_status(round_)
            history_author(round_, user, reason)
            round_.save(update_fields=["status"])
        transaction.on_commit(lambda: match_unlocked.send(sender=Match, match=match))
    return match


def _round_open_status(round_: Round) -> str:
    if round_.time_called_at is not None:
        return RoundStatus.TIME_CALLED
    return RoundStatus.RUNNING if round_.started_at is not None else RoundStatus.PUBLISHED


def _round_finish_if_done(round_: Round) -> None:
    open_matches = round_.matches.exclude(status=MatchStatus.CONFIRMED).exclude(ew_pair__isnull=True)
    if not open_matches.exists() and round_.status != RoundStatus.FINISHED:
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        round_.status = RoundStatus.FINISHED
        round_.save(update_fields=["status"])


# -- the clock ---------------------------------------------------------------------------------------


def time_cap_minutes(*, round_: Round) -> int | None:
    """The round's own cap (custom minutes) or the rules' (40, 90 … RULES.md §2); None: untimed."""
    if round_.time_cap_minutes:
        return round_.time_cap_minutes
    minutes: int | None = rules_for_stage(round_.stage).time_cap_minutes
    return minutes


def _clock_start(match: Match, *, now: datetime, ends_at: datetime | None = None, schedule: bool = True) -> None:
    minutes = time_cap_minutes(round_=match.round)
    match.started_at = now
    match.clock_ends_at = ends_at or (now + timedelta(minutes=minutes) if minutes else None)
    if schedule and match.clock_ends_at is not None:
        _schedule("match", match.pk, match.clock_ends_at)


def _schedule(kind: str, pk: int, eta: datetime) -> None:
    """Schedule the time call once the transaction commits. Losing it loses nothing: the lazy
    check calls time when anyone touches the match after the cap."""

    def send() -> None:
        from tournament.matches import tasks

        task = tasks.round_time_up if kind == "round" else tasks.match_time_up
        try:
            # the deadline travels with the task: a later change makes it stale (see tasks.py)
            task.apply_async(args=[pk], kwargs={"ends_at": eta.isoformat()}, eta=eta)
        except Exception:  # broker down: the lazy check covers it; the write already committed
            logger.warning("could not schedule the time call of %s %s", kind, pk, exc_info=True)

    transaction.on_commit(send)


@event_write
def match_start(*, match_id: int, user: Any = None, now: datetime | None = None) -> Match:
    """Start one match's clock (its round's cap). Starting a started match changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked(match_id)
        _refuse_unless_open(match)
        if match.started_at is not None:
            return match
        _clock_start(match, now=now)
        history_author(match, user)
        match_replay(match=match, fields=["started_at", "clock_ends_at"])
    return match


@event_write
def round_start(*, round_id: int, user: Any = None, now: datetime | None = None) -> Round:
    """Start a round: its clock and that of every match not started yet (RULES.md §2).

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
            public_version_bump(tournament_id=round_.stage.tournament_id, seating=False)
    return round_


@event_write
def round_clock_set(
    *, round_id: int, time_cap_minutes: int | None, warning_minutes: int, user: Any = None
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


def _time_call_if_due(match: Match, *, now: datetime) -> bool:
    """On a locked match: call time if its cap has passed and a deal is being played (RULES.md §2).

    The deal being played when time is called is the one after those entered. A match that has
    already ended needs no call; if a correction reopens it later, time is called then.
    """
    fields = _time_call_due(match, now=now)
    if not fields:
        return False
    match_replay(match=match, fields=fields)
    return True


def _time_call_due(match: Match, *, now: datetime) -> list[str]:
    """On a locked match: call time in memory if its cap has passed (RULES.md §2); the fields it
    changed, for the caller's fold to store (none: nothing was due). A signed-off match is left as is."""
    if (
        match.status == MatchStatus.CONFIRMED
        or match.clock_ends_at is None
        or now < match.clock_ends_at
        or match.paused_at is not None  # a paused clock never calls time
    ):
        return []
    fields = []
    if match.time_called_at is None:
        match.time_called_at = now
        fields.append("time_called_at")
    if match.time_called_during_deal is None and match.status in (MatchStatus.PENDING, MatchStatus.RUNNING):
        match.time_called_during_deal = match.deals.count() + 1
        match.version += 1
        fields += ["time_called_during_deal", "version"]
    return fields


def match_call_time(*, match_id: int, now: datetime | None = None) -> bool:
    """Call time for one match if its cap has passed; True if anything changed (idempotent)."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked(match_id)
        if match.status == MatchStatus.CONFIRMED:
            return False
        return _time_call_if_due(match, now=now)


def match_time_check(*, match: Match, now: datetime | None = None) -> bool:
    """The lazy half of the clock: call time if ``match`` (as read) is past its cap and not called.

    Cheap when nothing is due (no query, no lock); used by every page and API call that touches
    a match, so the clock holds without the scheduled task.
    """
    now = now or timezone.now()
    due = (
        match.clock_ends_at is not None
        and now >= match.clock_ends_at
        and match.paused_at is None
        and (
            match.time_called_at is None
            or (match.time_called_during_deal is None and match.status in (MatchStatus.PENDING, MatchStatus.RUNNING))
        )
        and match.status != MatchStatus.CONFIRMED
    )
    if not due:
        return False
    changed = match_call_time(match_id=match.pk, now=now)
    match.refresh_from_db()
    return changed


def round_call_time(*, round_id: int, now: datetime | None = None) -> bool:
    """Call time for a round at its cap: the round once, then each of its matches that is due.

    True the one time the round's time is called; later calls (a duplicate task, a lazy check)
    change nothing (RULES.md §2: the project calls time itself, once) but finish any match a
    crashed earlier call missed. Each match is called in its own short transaction.
    """
    now = now or timezone.now()
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_id)
        if round_.ends_at is None or now < round_.ends_at or round_.paused_at is not None:
            return False
        first = round_.time_called_at is None
        if first:
            round_.time_called_at = now
            if round_.status == RoundStatus.RUNNING:
                round_.status = RoundStatus.TIME_CALLED
            round_.save(update_fields=["time_called_at", "status"])
    due = round_.matches.filter(
        clock_ends_at__lte=now, time_called_at__isnull=True, paused_at__isnull=True
    ).exclude(status=MatchStatus.CONFIRMED)
    for match_id in due.values_list("pk", flat=True):
        match_call_time(match_id=match_id, now=now)
    return first


def round_time_check(*, round_: Round, now: datetime | None = None) -> bool:
    """The lazy check for a round (its organiser's page): call time if its cap has passed."""
    now = now or timezone.now()
    if (
        round_.ends_at is None
        or round_.time_called_at is not None
        or round_.paused_at is not None
        or now < round_.ends_at
    ):
        return False
    changed = round_call_time(round_id=round_.pk, now=now)
    round_.refresh_from_db()
    return changed


# -- the organiser's hand on a running clock (issue 15) ----------------------------------------------

EXTEND_MAX_MINUTES = 240
"""An extension or a cap beyond four hours is a typing error, not a decision."""

_OPEN = (MatchStatus.PENDING, MatchStatus.RUNNING)


def _refuse_round_clock(round_: Round, *, paused: bool | None = None, timed: bool = True) -> None:
    """Refuse a change of a round's clock that makes no sense; ``paused``: the state it needs."""
    if round_.started_at is None:
        raise MatchRefused("clock_not_started", _("The round's clock has not started."))
    if round_.status == RoundStatus.FINISHED:
        raise MatchRefused("round_finished", _("The round is finished; its clock can no longer change."))
    if round_.time_called_at is not None:
        raise MatchRefused("time_called", _("Time has already been called for this round."))
    if timed and round_.ends_at is None:
        raise MatchRefused("untimed", _("This round has no time limit."))
    if paused is True and round_.paused_at is None:
        raise MatchRefused("not_paused", _("The clock is running, not paused."))
    if paused is False and round_.paused_at is not None:
        raise MatchRefused("already_paused", _("The clock is already paused."))


def _refuse_match_clock(match: Match, *, paused: bool | None = None, timed: bool = True) -> None:
    """Refuse a change of one table's clock that makes no sense; ``paused``: the state it needs."""
    if match.is_bye:
        raise MatchRefused("bye", _("A bye has no clock."))
    if match.status not in _OPEN:
        raise MatchRefused("match_over", _("The match is over; its clock can no longer change."))
    if match.started_at is None:
        raise MatchRefused("clock_not_started", _("This table's clock has not started."))
    if match.time_called_at is not None:
        raise MatchRefused("time_called", _("Time has already been called at this table."))
    if timed and match.clock_ends_at is None:
        raise MatchRefused("untimed", _("This table has no time limit."))
    if paused is True and match.paused_at is None:
        raise MatchRefused("not_paused", _("The clock is running, not paused."))
    if paused is False and match.paused_at is not None:
        raise MatchRefused("already_paused", _("The clock is already paused."))


def _clean_minutes(minutes: Any, *, low: int = 1) -> int:
    try:
        value = int(minutes)
    except (TypeError, ValueError):
        value = low - 1
    if not low <= value <= EXTEND_MAX_MINUTES:
        raise MatchRefused(
            "minutes_out_of_range",
            _("Give a number of minutes from %(low)d to %(high)d.") % {"low": low, "high": EXTEND_MAX_MINUTES},
            conflict=False,
        )
    return value


def _round_open_matches(round_: Round) -> Any:
    """The round's tables whose clock runs with the round's: started, timed, time not called."""
    return round_.matches.filter(
        started_at__isnull=False, clock_ends_at__isnull=False, time_called_at__isnull=True, status__in=_OPEN
    )


def _matches_update(round_: Round, queryset: Any, *, user: Any, reason: str, **values: Any) -> list[int]:
    """Lock ``queryset``'s rows in id order (one query), update them (one) and copy their history
    rows with the reason (one): the set-based write of a round-wide clock change."""
    ids = list(queryset.select_for_update(of=("self",)).order_by("pk").values_list("pk", flat=True))
    if ids:
        Match.objects.filter(pk__in=ids).update(**values)
        history_copy(queryset=Match.objects.filter(pk__in=ids), user=user, reason=reason)
    public_version_bump(tournament_id=round_.stage.tournament_id, seating=False)
    return ids


def _schedule_round(round_: Round) -> None:
    """A task for the round's new deadline, and one for each of its tables whose deadline differs
    (extended or paused on its own): the round's task calls only the tables then due."""
    if round_.ends_at is None or round_.paused_at is not None:
        return
    _schedule("round", round_.pk, round_.ends_at)
    own = _round_open_matches(round_).filter(paused_at__isnull=True).exclude(clock_ends_at=round_.ends_at)
    for pk, ends_at in own.values_list("pk", "clock_ends_at"):
        _schedule("match", pk, ends_at)


def _round_locked(round_id: int) -> Round:
    return Round.objects.select_for_update(of=("self",)).select_related("stage").get(pk=round_id)


@event_write
def round_pause(*, round_id: int, reason: str, user: Any = None, now: datetime | None = None) -> Round:
    """Pause a round's clock and that of every table running with it (a fire alarm, a dispute)."""
    now = now or timezone.now()
    reason = _clean_reason(reason)
    with transaction.atomic():
        round_ = _round_locked(round_id)
        _refuse_round_clock(round_, paused=False)
        round_.paused_at = now
        history_author(round_, user, reason)
        round_.save(update_fields=["paused_at"])
        _matches_update(
            round_, _round_open_matches(round_).filter(paused_at__isnull=True), user=user, reason=reason, paused_at=now
        )
    return round_


@event_write
def round_resume(*, round_id: int, reason: str, user: Any = None, now: datetime | None = None) -> Round:
    """Resume a paused round: its deadline, and that of each table its pause paused, move on by the
    pause's length; tables paused on their own stay paused."""
    now = now or timezone.now()
    reason = _clean_reason(reason)
    with transaction.atomic():
        round_ = _round_locked(round_id)
        _refuse_round_clock(round_, paused=True)
        assert round_.paused_at is not None and round_.ends_at is not None
        pause = now - round_.paused_at
        paused_with_round = _round_open_matches(round_).filter(paused_at=round_.paused_at)
        round_.ends_at += pause
        round_.paused_at = None
        history_author(round_, user, reason)
        round_.save(update_fields=["ends_at", "paused_at"])
        moved = F("clock_ends_at") + pause
        _matches_update(round_, paused_with_round, user=user, reason=reason, paused_at=None, clock_ends_at=moved)
        _schedule_round(round_)
    return round_


@event_write
def round_extend(*, round_id: int, minutes: int, reason: str, user: Any = None) -> Round:
    """Give a round's clock, and every table running with it, ``minutes`` more (paused or not)."""
    minutes = _clean_minutes(minutes)
    reason = _clean_reason(reason)
    with transaction.atomic():
        round_ = _round_locked(round_id)
        _refuse_round_clock(round_)
        assert round_.ends_at is not None
        delta = timedelta(minutes=minutes)
        round_.ends_at += delta
        history_author(round_, user, reason)
        round_.save(update_fields=["ends_at"])
        moved = F("clock_ends_at") + delta
        _matches_update(round_, _round_open_matches(round_), user=user, reason=reason, clock_ends_at=moved)
        _schedule_round(round_)
    return round_


@event_write
def round_cap_change(
    *, round_id: int, minutes: int, reason: str, user: Any = None, now: datetime | None = None
) -> Round:
    """Change a started round's cap to ``minutes``: every deadline moves by the difference (pauses
    and extensions already given are kept). A cap already past calls time at once."""
    now = now or timezone.now()
    minutes = _clean_minutes(minutes)
    reason = _clean_reason(reason)
    with transaction.atomic():
        round_ = _round_locked(round_id)
        _refuse_round_clock(round_, timed=False)
        assert round_.started_at is not None
        old = time_cap_minutes(round_=round_)
        round_.time_cap_minutes = minutes
        open_matches = _round_open_matches(round_)
        if round_.ends_at is None or old is None:  # an untimed round gets its first deadline
            round_.ends_at = round_.started_at + timedelta(minutes=minutes)
            open_matches = round_.matches.filter(
                started_at__isnull=False, clock_ends_at__isnull=True, time_called_at__isnull=True, status__in=_OPEN
            )
            values: dict[str, Any] = {"clock_ends_at": F("started_at") + timedelta(minutes=minutes)}
        else:
            delta = timedelta(minutes=minutes - old)
            round_.ends_at += delta
            values = {"clock_ends_at": F("clock_ends_at") + delta}
        history_author(round_, user, reason)
        round_.save(update_fields=["time_cap_minutes", "ends_at"])
        _matches_update(round_, open_matches, user=user, reason=reason, **values)
        _schedule_round(round_)
    if round_.paused_at is None and round_.ends_at <= now:
        round_call_time(round_id=round_.pk, now=now)
        round_.refresh_from_db()
    return round_


@event_write
def round_call_now(*, round_id: int, reason: str, user: Any = None, now: datetime | None = None) -> Round:
    """Call time for a round now (paused or not): every table running with it is called at once."""
    now = now or timezone.now()
    reason = _clean_reason(reason)
    with transaction.atomic():
        round_ = _round_locked(round_id)
        _refuse_round_clock(round_, timed=False)
        round_.ends_at = now
        round_.paused_at = None
        history_author(round_, user, reason)
        round_.save(update_fields=["ends_at", "paused_at"])
        # the untimed tables too: "call time now" is the organiser's cap
        open_matches = round_.matches.filter(started_at__isnull=False, time_called_at__isnull=True, status__in=_OPEN)
        _matches_update(round_, open_matches, user=user, reason=reason, clock_ends_at=now, paused_at=None)
    # each table's time call replays it through the rules core (the deal being played is recorded)
    round_call_time(round_id=round_.pk, now=now)
    round_.refresh_from_db()
    return round_


def _match_clock_save(match: Match, *, user: Any, reason: str, fields: list[str]) -> None:
    history_author(match, user, reason)
    match.save(update_fields=fields)
    public_version_bump(tournament_id=match.round.stage.tournament_id, seating=False)


@event_write
def match_pause(*, match_id: int, reason: str, user: Any = None, now: datetime | None = None) -> Match:
    """Pause one table's clock (a dispute at that table)."""
    now = now or timezone.now()
    reason = _clean_reason(reason)
    with transaction.atomic():
        match = _locked(match_id)
        _refuse_match_clock(match, paused=False)
        match.paused_at = now
        _match_clock_save(match, user=user, reason=reason, fields=["paused_at"])
    return match


@event_write
def match_resume(*, match_id: int, reason: str, user: Any = None, now: datetime | None = None) -> Match:
    """Resume one table's clock (paused alone or with its round): its deadline moves on by the pause."""
    now = now or timezone.now()
    reason = _clean_reason(reason)
    with transaction.atomic():
        match = _locked(match_id)
        _refuse_match_clock(match, paused=True)
        assert match.paused_at is not None and match.clock_ends_at is not None
        match.clock_ends_at += now - match.paused_at
        match.paused_at = None
        _match_clock_save(match, user=user, reason=reason, fields=["clock_ends_at", "paused_at"])
        _schedule("match", match.pk, match.clock_ends_at)
    return match


@event_write
def match_extend(*, match_id: int, minutes: int, reason: str, user: Any = None) -> Match:
    """Give one table ``minutes`` more (a long dispute there), paused or not."""
    minutes = _clean_minutes(minutes)
    reason = _clean_reason(reason)
    with transaction.atomic():
        match = _locked(match_id)
        _refuse_match_clock(match)
        assert match.clock_ends_at is not None
        match.clock_ends_at += timedelta(minutes=minutes)
        _match_clock_save(match, user=user, reason=reason, fields=["clock_ends_at"])
        if match.paused_at is None:
            _schedule("match", match.pk, match.clock_ends_at)
    return match


@event_write
def match_call_now(*, match_id: int, reason: str, user: Any = None, now: datetime | None = None) -> Match:
    """Call time at one table now (paused or not, timed or not)."""
    now = now or timezone.now()
    reason = _clean_reason(reason)
    with transaction.atomic():
        match = _locked(match_id)
        _refuse_match_clock(match, timed=False)
        match.clock_ends_at = now
        match.paused_at = None
        history_author(match, user, reason)
        match.save(update_fields=["clock_ends_at", "paused_at"])
        _time_call_if_due(match, now=now)
        public_version_bump(tournament_id=match.round.stage.tournament_id, seating=False)
    return match
