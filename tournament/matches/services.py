"""Match writes: deals, corrections, adjustments, sign-off and unlock.

Deals are the source of truth (docs/design.md): the match row's ``state``, ``winner``,
``result_reason`` and ``status`` are the rules core's fold of its deals and adjustments, rewritten
in the same transaction that writes a deal. Every write locks the match row
(``select_for_update`` on PostgreSQL; SQLite's IMMEDIATE transactions serialise writers), checks
the expected version and, for deal entry, honours an idempotency key, so a retried or doubled
submission records one deal (docs/design.md, "Nothing lost, nothing doubled"). Every change is kept by
django-simple-history with its author, address and reason ("Every change is audited"); a correction
never erases history.

The clock lives in :mod:`tournament.matches.clock`, the fold through the rules core in
:mod:`tournament.matches.fold`, the errors in :mod:`tournament.matches.errors`.

Who may call what is checked by the callers (``tournament.matches.access``); these functions
trust their ``match_id``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.audit import history_author, reason_clean
from tournament.matches.clock import clock_start, time_call_due, time_call_if_due
from tournament.matches.corrections import correction_close, correction_open, match_dependents
from tournament.matches.deadlines import deadline_refuse_if_passed
from tournament.matches.doudizhu_fold import TableFold
from tournament.matches.errors import REFUSALS, MatchRefused
from tournament.matches.event import match_id_event, match_tournament
from tournament.matches.fold import (
    Fold,
    check_version,
    deal_entry_adjustments,
    deal_entry_may_have,
    fold_store,
    locked_match,
    match_adjustment_rows,
    match_deal_parse,
    match_deals,
    match_fold,
    match_game,
    match_replay,
    refuse_unless_open,
)
from tournament.matches.models import (
    BYE,
    CLAIM_OPEN,
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
from tournament.matches.signals import match_confirmed, match_unlocked
from tournament.parsing import int_or_none
from tournament.people import Actor, signed_in
from tournament.registration.lifecycle import event_write


@dataclass(frozen=True, slots=True)
class DealEntry:
    """What ``deal_record`` did: the deal, the match after it, and whether it was a retry."""

    deal: Deal
    match: Match
    replayed: bool = False
    deals: list[Deal] | None = None
    """The match's deals in order after the write, as folded (a retry's answer: None, read them)."""
    flagged: int | None = None
    """How many of its deals and adjustments the fold flagged (None: count them)."""


def _locked_clocked(match_id: int, *, now: datetime) -> tuple[Match, list[str]]:
    """The match, locked, with time called on it if its cap has passed (not saved yet: the write's
    one fold stores it). Returns the fields the time call changed."""
    match = locked_match(match_id)
    return match, time_call_due(match, now=now)


def _locked_open(match_id: int, expected_version: int | None, *, now: datetime) -> tuple[Match, list[str]]:
    """The match, locked, for an edit, with time called on it if its cap has passed (as
    :func:`_locked_clocked`: the version a page showed includes that call): refused if it is a bye
    or signed off, or if it changed since the caller read ``expected_version``."""
    match, called = _locked_clocked(match_id, now=now)
    refuse_unless_open(match)
    check_version(match, expected_version)
    return match, called


@event_write("match_id", of=match_id_event, held=("locked", match_tournament))
def deal_record(
    *,
    match_id: int,
    outcome: dict[str, Any],
    user: Actor | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    locked: Match | None = None,
) -> DealEntry:
    """Record the next deal of a match (docs/rules.md §1–3 through the rules core).

    ``locked``: the match as the caller already locked it in its own transaction (the referee API
    locks it with its access check, one statement: :func:`tournament.matches.access.match_for_user`
    with ``lock=True``), so it is read once, under the lock; else it is locked here.

    Raises ScoringError for an impossible deal (``invalid_order``, ``match_finished`` …),
    StaleVersion when ``expected_version`` is not the match's version and MatchRefused when the
    match is signed off or has flagged deals to resolve; nothing is written then. A repeated
    ``idempotency_key`` returns the deal first recorded with it. The first deal starts the match
    clock if nobody started it.
    """
    now = timezone.now()
    refusal: Exception | None = None
    if locked is not None and (locked.pk != match_id or not transaction.get_connection().in_atomic_block):
        raise ValueError("deal_record(locked=…) takes the match locked in the caller's transaction")
    # The caller's transaction holds the lock: no savepoint of its own (two statements less).
    with transaction.atomic(savepoint=locked is None):
        match = locked if locked is not None else locked_match(match_id)
        called = time_call_due(match, now=now)  # the clock, once, inside the lock
        # Every deal is read anyway (the fold): a retry is found among them, not by a query of its own.
        deals = match_deals(match)
        if idempotency_key:
            earlier = next((deal for deal in deals if deal.idempotency_key == idempotency_key), None)
            if earlier is not None:
                if called:
                    match_replay(match=match, fields=called)
                return DealEntry(deal=earlier, match=match, replayed=True)
        adjustments = deal_entry_adjustments(match)
        number = len(deals) + 1
        try:
            refuse_unless_open(match)
            deadline_refuse_if_passed(match, now=now)
            check_version(match, expected_version)
            # parsed once: invalid_order before anything else, then folded as parsed
            parsed = match_deal_parse(match=match, outcome=outcome, number=number)
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
                # the fold's record of it, stored with it: no second write of the row
                record=fold.result.deals[number - 1].to_json(),
                entered_by=signed_in(user),
                idempotency_key=idempotency_key or None,
            )
            history_author(deal, user)
            deal.save()
            if deal_entry_may_have(match, "has_open_claims"):
                _claims_superseded(match, number=number, idempotency_key=idempotency_key or "", user=user)
            fields = [*called, "version"]
            if match.started_at is None:
                clock_start(match, now=now)
                fields += ["started_at", "clock_ends_at"]
            match.version += 1
            history_author(match, user)
            # Sets the deal's record and flag on this very instance: nothing to read back.
            fold_store(match, deals=[*deals, deal], adjustments=adjustments, fold=fold, fields=fields)
    if refusal is not None:
        raise refusal
    folded = [*deals, deal]
    flagged = sum(row.flagged for row in folded) + sum(row.flagged for row in adjustments)
    return DealEntry(deal=deal, match=match, deals=folded, flagged=flagged)


def _claims_superseded(match: Match, *, number: int, idempotency_key: str, user: Actor | None) -> None:
    """The players' entries of deal ``number`` still open when that deal is recorded otherwise (a
    referee entered it): closed, with the reason the table's page shows — never left "awaiting
    confirmation" beside the deal, holding a number the next entries count past. The entry whose
    confirmation records the deal (its key ``claim:<id>``) is its caller's."""
    claims = DealClaim.objects.filter(match=match, number=number)
    confirming = idempotency_key.startswith("claim:")
    claim_id = int_or_none(idempotency_key.removeprefix("claim:"), low=1) if confirming else None
    if claim_id is not None:
        claims = claims.exclude(pk=claim_id)
    note = _("A referee entered deal %(number)d: this entry is closed.") % {"number": number}
    _claims_close(claims, note=note, reason="superseded: a referee entered the deal", user=user)


def _claims_close(claims: Any, *, note: str, reason: str, user: Actor | None) -> None:
    """Close the open ones of ``claims`` (refused, with the ``note`` the table's page shows the players
    and ``reason`` in each claim's history): what no one can confirm any more is never left awaiting."""
    rows = (
        claims.select_for_update(of=("self",))
        .filter(status__in=CLAIM_OPEN)
        .order_by("pk")  # not the model's ordering, which joins the match and its table
    )
    for claim in rows:
        claim.status = ClaimStatus.REFUSED
        claim.note = note[:200]
        history_author(claim, user, reason)
        claim.save(update_fields=["status", "note"])


def _deal(match: Match, number: int) -> Deal:
    deal = match.deals.filter(number=number).first()
    if deal is None:
        raise MatchRefused("no_such_deal", _("There is no deal %(number)d.") % {"number": number}, conflict=False)
    return deal


@event_write("match_id", of=match_id_event)
def deal_correct(
    *,
    match_id: int,
    number: int,
    outcome: dict[str, Any],
    reason: str,
    user: Actor | None = None,
    expected_version: int | None = None,
) -> Match:
    """Change deal ``number``'s finishing order, with a reason, and replay the match from deal 1.

    Deals that become impossible (the match now ends earlier) are flagged; a correction that
    un-ends the match reopens it (docs/rules.md §1–3; docs/design.md: deals are the source of truth). An
    unreadable order is
    refused (``invalid_order``) and nothing changes.
    """
    now = timezone.now()
    refusal: Exception | None = None
    with transaction.atomic():
        match, called = _locked_clocked(match_id, now=now)
        try:
            refuse_unless_open(match)
            check_version(match, expected_version)
            reason = reason_clean(reason)
            deal = _deal(match, number)
            parsed = match_deal_parse(match=match, outcome=outcome, number=number)
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
            fold_store(match, deals=deals, adjustments=adjustments, fold=fold, fields=[*called, "version"])
            # Only a correction that reopens a match finished before its cap folds again: time is
            # called during the deal now being played (docs/rules.md §2).
            time_call_if_due(match, now=now)
    if refusal is not None:
        raise refusal
    return match


@event_write("match_id", of=match_id_event)
def deal_delete(
    *,
    match_id: int,
    number: int,
    reason: str,
    user: Actor | None = None,
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
            refuse_unless_open(match)
            check_version(match, expected_version)
            reason = reason_clean(reason)
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


@event_write("match_id", of=match_id_event)
def deal_undo(*, match_id: int, reason: str, user: Actor | None = None, expected_version: int | None = None) -> Match:
    """Undo the last deal of the match: a deletion of it, audited with the referee's reason like a
    correction or a deletion (the reason is kept as typed, as :func:`reason_clean` refuses
    or keeps it)."""
    last = Deal.objects.filter(match_id=match_id).order_by("-number").values_list("number", flat=True).first()
    if last is None:
        raise MatchRefused("no_deals", _("There is no deal to undo."))
    return deal_delete(match_id=match_id, number=last, reason=reason, user=user, expected_version=expected_version)


# -- adjustments -------------------------------------------------------------------------------------


@event_write("match_id", of=match_id_event)
def adjustment_record(
    *,
    match_id: int,
    pair_id: int,
    kind: str,
    reason: str,
    user: Actor | None = None,
    levels: int = 0,
    points: int = 0,
    minutes_late: int | None = None,
    absent_player_id: int | None = None,
    after_deal: int | None = None,
    expected_version: int | None = None,
) -> Adjustment:
    """Record a forfeit, late arrival, penalty or warning against a pair of the match (docs/rules.md §7).

    It applies after the deals entered so far (a late arrival: before the first deal, whenever it is
    recorded). The rules
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
            fold_store(
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


def _sides_entrants(match: Match) -> set[int | None]:
    return {match.ns_pair_id, match.ew_pair_id}


def _seat_entrants(match: Match) -> set[int | None]:
    return set(match.seats.values_list("pair_id", flat=True))


MATCH_ENTRANTS: dict[str, Callable[[Match], set[int | None]]] = {"pairs": _sides_entrants, "players": _seat_entrants}
"""The entrants playing a match of each entrant kind (``tournament.games.entrants``), by its key: its
two pairs, or a three-seat table's players."""


def _entrants_of(match: Match) -> set[int | None]:
    return MATCH_ENTRANTS[match_game(match).entrants.key](match)


def _adjustment_trial(
    match: Match,
    *,
    expected_version: int | None,
    pair_id: int,
    kind: str,
    reason: str,
    user: Actor | None,
    levels: int,
    points: int,
    minutes_late: int | None,
    absent_player_id: int | None,
    after_deal: int | None,
    now: datetime,
) -> tuple[Adjustment, list[Deal], list[Adjustment], Fold | TableFold]:
    """The adjustment row ``adjustment_record`` would save and the match folded with it (the one
    fold of the write), or the refusal."""
    refuse_unless_open(match)
    check_version(match, expected_version)
    reason = reason_clean(reason)
    if pair_id not in _entrants_of(match):
        raise MatchRefused("bad_pair", _("That pair does not play this match."), conflict=False)
    deals = list(match.deals.order_by("number"))
    deal_count = len(deals)
    if kind not in AdjustmentKind.values:
        raise MatchRefused("bad_input", _("Unknown kind of adjustment."), conflict=False)
    if kind == AdjustmentKind.LATE_ARRIVAL:
        # The late-arrival table (docs/rules.md §7) speaks of the first deal: it applies before it, even
        # when the referee records it after deals were entered — the match is refolded
        # from deal 1, and refused if an entered deal could then not have been played.
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
        created_by=signed_in(user),
    )
    row.created_at = now
    rows = match_adjustment_rows(match)
    # The deals the rules accept now are those the last fold left unflagged (flags are a suffix:
    # ``fold_store``), so only the fold with the new row is needed.
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


@event_write("match_id", of=match_id_event)
def adjustment_delete(
    *, match_id: int, adjustment_id: int, reason: str, user: Actor | None = None, expected_version: int | None = None
) -> Match:
    """Remove an adjustment entered by mistake, with a reason (kept in the audit history)."""
    with transaction.atomic():
        match, called = _locked_open(match_id, expected_version, now=timezone.now())
        reason = reason_clean(reason)
        row = match.adjustments.filter(pk=adjustment_id).first()
        if row is None:
            raise MatchRefused("no_such_adjustment", _("There is no such adjustment."), conflict=False)
        history_author(row, user, reason)
        row.delete()
        match.version += 1
        history_author(match, user, reason)
        match_replay(match=match, fields=[*called, "version"])
    return match


# -- sign-off ----------------------------------------------------------------------------------------


@event_write("match_id", of=match_id_event)
def match_sign_off(*, match_id: int, user: Actor | None = None, expected_version: int | None = None) -> Match:
    """The referee confirms the final result: the match is locked and counts as confirmed.

    Standings read confirmed snapshots; ``signals.match_confirmed`` is sent after the commit for
    bracket progression. A second sign-off of a confirmed match changes nothing (a retry).
    """
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status == MatchStatus.CONFIRMED:
            return match
        refuse_unless_open(match)
        check_version(match, expected_version)
        if match.status != MatchStatus.FINISHED:
            raise MatchRefused("not_finished", _("The match has no result yet."))
        if match.deals.filter(flagged=True).exists() or match.adjustments.filter(flagged=True).exists():
            raise MatchRefused("flagged_deals", _("Resolve the flagged deals first."))
        correction_close(match=match, user=user)  # refuses a winner change the next match cannot follow
        match.status = MatchStatus.CONFIRMED
        match.signed_off_by = signed_in(user)
        match.signed_off_at = timezone.now()
        match.reopened_at = None
        match.version += 1
        history_author(match, user)
        match.save(update_fields=["status", "signed_off_by", "signed_off_at", "reopened_at", "version"])
        # the players' entries still open: nothing can be confirmed at a signed-off table
        note = _("The match was signed off: this entry is closed.")
        _claims_close(match.claims.all(), note=note, reason="closed: the match was signed off", user=user)
        _round_finish_if_done(match.round)
        transaction.on_commit(lambda: match_confirmed.send(sender=Match, match=match))
    return match


@event_write("match_id", of=match_id_event)
def match_unlock(*, match_id: int, reason: str, user: Actor | None = None, dependents_seen: bool = False) -> Match:
    """Reopen a signed-off match for a correction, with a reason; it must be signed off again.

    Callers let only the organiser or the chief referee do it (``access.user_may_unlock``). When
    later rounds, later stages, a knockout's next matches or decided placings depend on the match
    (:func:`~tournament.matches.corrections.match_dependents`), the caller must have shown them:
    without ``dependents_seen`` the unlock is refused (``dependents``) and nothing changes. The
    unlock is recorded as a ``Correction``; the match is marked reopened for correction and never
    restarts its clock, and a finished round stays finished.
    """
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != MatchStatus.CONFIRMED:
            raise MatchRefused("not_locked", _("The match is not signed off."))
        reason = reason_clean(reason)
        dependents = match_dependents(match=match)
        if dependents.any and not dependents_seen:
            raise MatchRefused(
                "dependents", _("Later rounds, stages or placings depend on this match: review them first.")
            )
        correction_open(match=match, reason=reason, user=user, dependents=dependents)
        match.status = MatchStatus.FINISHED
        match.signed_off_by = None
        match.signed_off_at = None
        match.reopened_at = timezone.now()
        match.version += 1
        history_author(match, user, reason)
        match_replay(match=match, fields=["signed_off_by", "signed_off_at", "reopened_at", "version"])
        transaction.on_commit(lambda: match_unlocked.send(sender=Match, match=match))
    return match


def _round_finish_if_done(round_: Round) -> None:
    # every table of the round, of two sides or of three seats, signed off (a bye is no table)
    open_matches = round_.matches.exclude(status=MatchStatus.CONFIRMED).exclude(BYE)
    if not open_matches.exists() and round_.status != RoundStatus.FINISHED:
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        round_.status = RoundStatus.FINISHED
        round_.save(update_fields=["status"])


# -- the clock ---------------------------------------------------------------------------------------
