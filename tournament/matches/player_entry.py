"""Players enter the deals at their table; the other side confirms (docs/player-entry.md).

A deal a player enters is a :class:`DealClaim`, not a deal: the match's fold and snapshot hold only
confirmed deals. Confirming a claim — by a player of the other side (``players_opponents``), by a
referee (either players' mode), or by the round's auto-confirm after N minutes unless disputed —
records its outcome with ``services.deal_record`` (the one write path: row lock, version, an
idempotency key ``claim:<id>``, one fold) in the same transaction as the claim's new status. A
disagreement is a dispute with both versions; a referee settles it by recording one of them (or
voids it and enters the deal). Every step is a history row of the claim naming who did it.

Claims go in deal order: a claim is for deal ``number`` (the next one after the confirmed deals and
the open claims — the "expected version" of a player's entry), and the claims of a match are
confirmed in that order. A claim for a number already taken is refused as stale, so two phones
entering the same deal, or a phone that was offline while a referee entered it, make one deal and
one clear refusal, never two.

Who a phone speaks for: a player of the table identifies once with their employee number or the
PIN on their seat card (:func:`seat_pin`); the confirm form also takes the code, so the phone can be
handed across the table.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import time
import unicodedata
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.audit import REASON_MAX, history_author, history_copy, reason_clean
from tournament.celery import task_send
from tournament.errors import UserError, user_error_of
from tournament.matches import fold, services, table_codes
from tournament.matches.deadlines import deadline_refuse_if_passed
from tournament.matches.errors import REFUSALS
from tournament.matches.event import match_id_event
from tournament.matches.fold import match_game
from tournament.matches.models import (
    CLAIM_OPEN,
    ClaimStatus,
    DealClaim,
    Match,
    MatchSeat,
    MatchStatus,
    claims_still_open,
)
from tournament.parsing import ascii_digits
from tournament.people import Actor, signed_in
from tournament.prepared import prepared_rows
from tournament.registration.lifecycle import event_write
from tournament.registration.models import EntryMode, PairMember, Player
from tournament.text import DIRECTION_CONTROLS, clean_text

logger = logging.getLogger(__name__)

PIN_DIGITS = 6
"""A seat PIN's length: 10⁶ codes per seat, against some twenty guesses a table allows in a round
(``table_codes``)."""


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """A player at the table: seat (N/E/S/W; E/S/W at a three-seat table), side (NS/EW; at a
    three-seat table the seat: each player answers for themselves), the player."""

    seat: str
    side: str
    player: Player


@dataclass(frozen=True, slots=True)
class ClaimEntry:
    """What an entry did: the claim, and whether it was a retry of one already recorded."""

    claim: DealClaim
    replayed: bool = False


@dataclass(frozen=True, slots=True)
class ClaimAnswer:
    """What a confirmation did: the claim, and the refusal of its deal if the match refused it."""

    claim: DealClaim
    refusal: UserError | None = None
    replayed: bool = False


def seat_pin(*, player_id: int) -> str:
    """The short PIN printed on a player's seat card: derived from the site's secret and the
    player, so nothing is stored and it cannot be guessed from the employee number."""
    digest = hmac.new(settings.SECRET_KEY.encode(), f"seat-pin:{player_id}".encode(), hashlib.sha256).digest()
    return str(int.from_bytes(digest[:8], "big") % 10**PIN_DIGITS).zfill(PIN_DIGITS)


def _pair_seats(match: Match) -> list[SeatPlayer]:
    """The four players of two pairs, seated by the one rule (slot 1 N or E, slot 2 S or W)."""
    seats = {(match.ns_pair_id, 1): ("N", "NS"), (match.ns_pair_id, 2): ("S", "NS")}
    if match.ew_pair_id is not None:
        seats |= {(match.ew_pair_id, 1): ("E", "EW"), (match.ew_pair_id, 2): ("W", "EW")}
    members = PairMember.objects.filter(pair_id__in=[match.ns_pair_id, match.ew_pair_id]).select_related("player")
    found = [SeatPlayer(*seats[(m.pair_id, m.slot)], m.player) for m in members if (m.pair_id, m.slot) in seats]
    return sorted(found, key=lambda seat: "NESW".index(seat.seat))


def _three_seats(match: Match) -> list[SeatPlayer]:
    """The three players of a three-seat table at their seats (E, S, W): each is their own side, so
    any other player of the table confirms or disputes what one entered (docs/player-entry.md)."""
    seats = dict(MatchSeat.objects.filter(match=match).values_list("pair_id", "seat"))
    members = PairMember.objects.filter(pair_id__in=seats).select_related("player")
    found = [SeatPlayer(seats[m.pair_id], seats[m.pair_id], m.player) for m in members]
    return sorted(found, key=lambda seat: "ESW".index(seat.seat))


TABLE_PLAYERS: dict[str, Callable[[Match], list[SeatPlayer]]] = {"pairs": _pair_seats, "players": _three_seats}
"""Who sits where at a match of each entrant kind (``tournament.games.entrants``), by its key."""


def table_players(*, match: Match) -> list[SeatPlayer]:
    """The players at the match's table in seat order: a pair's side is N/S or E/W; at a three-seat
    table a player's side is their own seat."""
    return TABLE_PLAYERS[match_game(match).entrants.key](match)


def _code_bytes(text: str) -> bytes:
    """A code as compared: NFKC (the full-width digits a Chinese keyboard types are digits), no
    white space, upper case, as UTF-8 bytes (``hmac.compare_digest`` takes ASCII ``str`` only, and
    an employee number may be ``张三01``)."""
    return "".join(unicodedata.normalize("NFKC", text or "").split()).upper().encode()


def player_identify(
    *,
    match: Match,
    code: str,
    pin_only: bool = False,
    among: Sequence[SeatPlayer] | None = None,
    pins_paused: Collection[int] = (),
) -> SeatPlayer | None:
    """The player of this table (``among``: of these seats) whose employee number or seat PIN is
    ``code`` (None: no one); ``pin_only``: whose PIN it is — what a confirmation takes
    (docs/player-entry.md, what proves what). The PINs of ``pins_paused`` (player ids) are not
    compared: too many wrong codes were typed for them (``table_codes``)."""
    given = _code_bytes(code)
    if not given:
        return None
    for seat in table_players(match=match) if among is None else among:
        number = b"" if pin_only else _code_bytes(seat.player.employee_number)
        if number and hmac.compare_digest(number, given):
            return seat
        if seat.player.pk not in pins_paused and pin_proves(player_id=seat.player.pk, code=code):
            return seat
    return None


def pin_shaped(code: str) -> bool:
    """Whether ``code`` could be a seat PIN (its digits, as compared): a code that cannot is no
    guess at anyone's PIN (an employee number mistyped), so it counts against the phone only."""
    given = _code_bytes(code)
    return len(given) == PIN_DIGITS and ascii_digits(given.decode())


def pin_proves(*, player_id: int, code: str) -> bool:
    """Whether ``code`` is the player's seat PIN: it proves the phone holds their seat slip (an
    employee number proves only that someone knows it)."""
    return hmac.compare_digest(seat_pin(player_id=player_id).encode(), _code_bytes(code))


def seat_of(*, match: Match, player_id: int | None) -> SeatPlayer | None:
    if player_id is None:
        return None
    return next((seat for seat in table_players(match=match) if seat.player.pk == player_id), None)


def players_enter(match: Match) -> bool:
    return bool(match.round.stage.tournament.entry_mode != EntryMode.REFEREES)


def claims_open(*, match: Match) -> list[DealClaim]:
    """The match's claims awaiting confirmation or disputed, in deal order: never one whose deal number is
    recorded already (a deal is what the table has; the claim of its number can only be refused)."""
    return list(claims_still_open(match.claims.all()).select_related("entered_by").order_by("number"))


def claims_shown(*, match: Match, limit: int = 12) -> list[DealClaim]:
    """The match's latest claims, whatever became of them, newest first (the table's log)."""
    return list(
        match.claims.select_related("entered_by", "answered_by", "settled_by").order_by("-entered_at", "-pk")[:limit]
    )


def _stale_message(*, match: Match, number: int, seat: SeatPlayer, pending: list[DealClaim]) -> str:
    """Why an entry for deal ``number`` was refused as stale, and what to do: confirm (or dispute) the
    other side's entry of that deal, check the partner's, or check the recorded deal — never "enter
    the next one", which would skip the deal the player entered. In the game's word for a deal."""
    holder = next((claim for claim in pending if claim.number == number), None)
    values = {"number": number}
    words = match_game(match).deal_words
    if holder is not None and holder.side != seat.side:
        return str(words["entered_other_side"]) % values
    if holder is not None:
        return str(words["entered_your_side"]) % values
    return str(words["already_recorded"]) % values


class ClaimRefused(UserError):
    """An entry, confirmation or settlement the table's state does not allow (HTTP 409)."""

    def __init__(self, code: str, message: str, *, status: int = 409) -> None:
        super().__init__(code, message, status=status)


def _name(seat: SeatPlayer) -> str:
    return f"{seat.player.name} ({seat.seat})"


# -- entry ------------------------------------------------------------------------------------------


@event_write("match_id", of=match_id_event)
def deal_claim_enter(
    *, match_id: int, outcome: dict[str, Any], player_id: int, number: int | None, idempotency_key: str
) -> ClaimEntry:
    """A player's entry of deal ``number`` (the expected next deal); see the module.

    Refused (nothing written): the event is not in a players' mode, the player is not at this
    table, the match is a bye, over or signed off, ``number`` is not the next deal (``stale_number``:
    someone entered first), or the rules core finds the deal impossible after the deals before it.
    A repeated ``idempotency_key`` returns the claim first recorded with it.
    """
    if not idempotency_key:
        raise ClaimRefused("idempotency_key_required", _("The entry has no key; reload the page."), status=400)
    table = Match.objects.select_related("round__stage__tournament").filter(pk=match_id).first()
    if table is not None:
        claims_auto_confirm_due(match=table)  # a write: the claims whose time is up stand first
    with transaction.atomic():
        match = fold.locked_match(match_id)
        earlier = match.claims.filter(idempotency_key=idempotency_key).first()
        if earlier is not None:
            return ClaimEntry(claim=earlier, replayed=True)
        if not players_enter(match):
            raise ClaimRefused("players_do_not_enter", _("At this event the referees enter the deals."), status=403)
        seat = seat_of(match=match, player_id=player_id)
        if seat is None:
            raise ClaimRefused("not_at_this_table", _("You are not a player of this table."), status=403)
        fold.refuse_unless_open(match)
        if match.status == MatchStatus.FINISHED:
            raise ClaimRefused("match_finished", _("The match is over."))
        deadline_refuse_if_passed(match)
        pending = claims_open(match=match)
        confirmed = fold.match_outcomes(match)
        missing = _number_missing(len(confirmed), pending)
        if missing is not None:
            raise _deal_missing(match, missing)
        expected = len(confirmed) + len(pending) + 1
        if number is not None and number != expected:
            raise ClaimRefused("stale_number", _stale_message(match=match, number=number, seat=seat, pending=pending))
        parsed = fold.match_deal_parse(match=match, outcome=outcome, number=expected)
        folded = fold.match_fold(
            match=match,
            outcomes=[*confirmed, *(claim.outcome for claim in pending), outcome],
            adjustments=fold.match_adjustment_rows(match),
            time_called_during_deal=match.time_called_during_deal,
            parsed={expected: parsed},
        )
        if folded.deals_valid < expected:
            if folded.partial.error is not None and folded.deals_valid == expected - 1:
                raise folded.partial.error
            raise ClaimRefused("flagged_deals", _("Resolve the flagged deals first."))
        claim = DealClaim(
            match=match,
            number=expected,
            outcome=outcome,
            side=seat.side,
            entered_by=seat.player,
            idempotency_key=idempotency_key,
        )
        history_author(claim, None, f"entered by {_name(seat)}")
        claim.save()
        minutes = match.round.stage.tournament.auto_confirm_minutes
        if minutes:
            _schedule_auto_confirm(match.pk, timezone.now() + timedelta(minutes=minutes))
    return ClaimEntry(claim=claim)


def _number_missing(confirmed: int, pending: list[DealClaim]) -> int | None:
    """The first deal number below the open claims that neither a deal nor an open claim holds:
    a referee voided (or the match refused) a claim while later ones were open. Until a referee
    enters that deal, the next number is not "confirmed + open + 1" (that one is taken)."""
    held = {claim.number for claim in pending}
    highest = max(held, default=confirmed)
    return next((number for number in range(confirmed + 1, highest) if number not in held), None)


def _deal_missing(match: Match, number: int) -> ClaimRefused:
    return ClaimRefused("deal_missing", str(match_game(match).deal_words["missing"]) % {"number": number})


def _schedule_auto_confirm(match_id: int, eta: datetime) -> None:
    """Ask a task to confirm the claim when its time is up; losing it loses nothing: the periodic
    sweep (:func:`claims_auto_confirm_everywhere`) and the table's next entry confirm what is due."""

    def send() -> None:
        try:
            task_send("tournament.matches.tasks.claims_auto_confirm", args=[match_id], eta=eta)
        except Exception:  # broker down: the sweep covers it
            logger.warning("could not schedule the auto-confirm of match %s", match_id, exc_info=True)

    transaction.on_commit(send)


# -- confirmation -----------------------------------------------------------------------------------


def _claim_locked(match: Match, claim_id: int) -> DealClaim:
    # of=("self",): the claim row only (its entered_by is an outer join, which cannot be locked)
    claim = (
        DealClaim.objects.select_for_update(of=("self",))
        .filter(pk=claim_id, match=match)
        .select_related("entered_by")
        .first()
    )
    if claim is None:
        raise ClaimRefused("no_such_claim", _("There is no such entry at this table."), status=404)
    return claim


def _first_open(match: Match, claim: DealClaim) -> None:
    first = claims_still_open(match.claims.all()).order_by("number").first()
    if first is not None and first.pk != claim.pk:
        words = match_game(match).deal_words
        raise ClaimRefused("confirm_in_order", str(words["comes_first"]) % {"number": first.number})


def _record(match: Match, claim: DealClaim, outcome: dict[str, Any], *, user: Actor | None) -> ClaimAnswer | None:
    """Record ``outcome`` for ``claim`` through the one write path; a refusal marks the claim refused
    (with the reason) and is returned, never raised, so the claim's new state is kept. A deal
    before it with no entry (voided while this one was open) is raised: nothing changes, the claim
    waits for a referee to enter that deal."""
    recorded = len(fold.match_outcomes(match))
    if claim.number > recorded + 1:  # a deal before it has no entry (voided): nothing changes
        raise _deal_missing(match, recorded + 1)
    if claim.number != recorded + 1:
        words = match_game(match).deal_words
        refusal: UserError = ClaimRefused("stale_number", str(words["recorded_meanwhile"]) % {"number": claim.number})
    else:
        try:
            entry = services.deal_record(
                match_id=match.pk, outcome=outcome, user=user, idempotency_key=f"claim:{claim.pk}"
            )
        except REFUSALS as error:
            refusal = user_error_of(error)
        else:
            claim.deal = entry.deal
            return None
    claim.status = ClaimStatus.REFUSED
    claim.note = refusal.message[:200]
    history_author(claim, user, f"refused: {refusal.code}")
    claim.save(update_fields=["status", "note"])
    return ClaimAnswer(claim=claim, refusal=refusal)


@event_write("match_id", of=match_id_event)
def deal_claim_confirm(
    *, match_id: int, claim_id: int, player_id: int | None = None, user: Actor | None = None, auto: bool = False
) -> ClaimAnswer:
    """Confirm a pending claim: a player of the other side (``players_opponents``), a referee (``user``,
    either players' mode) or the auto-confirm (``auto``). Confirming twice is a retry (``replayed``).
    The claim's deal is recorded in the same transaction; if the match refuses it (a referee
    recorded that deal meanwhile), the claim is marked refused with the reason."""
    now = timezone.now()
    with transaction.atomic():
        match = fold.locked_match(match_id)
        claim = _claim_locked(match, claim_id)
        seat = seat_of(match=match, player_id=player_id)
        if claim.status == ClaimStatus.CONFIRMED:
            return ClaimAnswer(claim=claim, replayed=True)
        if claim.status != ClaimStatus.PENDING:
            raise ClaimRefused("claim_not_pending", _("This entry is no longer awaiting confirmation."))
        deadline_refuse_if_passed(match, now=now)
        mode = match.round.stage.tournament.entry_mode
        if not auto and user is None:
            if seat is None:
                raise ClaimRefused("not_at_this_table", _("You are not a player of this table."), status=403)
            if seat.side == claim.side:
                words = match_game(match).entrants.words
                raise ClaimRefused("confirm_by_opponent", str(words["confirm_own"]), status=403)
            if mode != EntryMode.PLAYERS_OPPONENTS_CONFIRM:
                raise ClaimRefused("referee_confirms", _("At this event a referee confirms the deals."), status=403)
        _first_open(match, claim)
        who = "auto-confirm" if auto else (_name(seat) if seat is not None else f"referee {user}")
        refused = _record(match, claim, claim.outcome, user=user)
        if refused is not None:
            return refused
        claim.status = ClaimStatus.CONFIRMED
        claim.answered_by = seat.player if seat is not None and user is None else None
        claim.answered_at = now
        claim.auto_confirmed = auto
        if user is not None:
            claim.settled_by = signed_in(user)
        history_author(claim, user, f"confirmed by {who}")
        claim.save(update_fields=["status", "answered_by", "answered_at", "auto_confirmed", "settled_by", "deal"])
    return ClaimAnswer(claim=claim)


@event_write("match_id", of=match_id_event)
def deal_claim_dispute(
    *, match_id: int, claim_id: int, player_id: int, counter_outcome: dict[str, Any] | None, note: str = ""
) -> DealClaim:
    """A player of the other side says the entry is wrong, with their version of the deal (the same
    entry the referees use). The referees see the dispute at once (their tables, the progress board)."""
    with transaction.atomic():
        match = fold.locked_match(match_id)
        claim = _claim_locked(match, claim_id)
        seat = seat_of(match=match, player_id=player_id)
        if seat is None:
            raise ClaimRefused("not_at_this_table", _("You are not a player of this table."), status=403)
        if seat.side == claim.side:
            words = match_game(match).entrants.words
            raise ClaimRefused("dispute_by_opponent", str(words["dispute_own"]), status=403)
        if claim.status == ClaimStatus.DISPUTED:
            return claim
        if claim.status != ClaimStatus.PENDING:
            raise ClaimRefused("claim_not_pending", _("This entry is no longer awaiting confirmation."))
        if counter_outcome is not None:
            fold.match_deal_parse(match=match, outcome=counter_outcome, number=claim.number)
        claim.status = ClaimStatus.DISPUTED
        claim.counter_outcome = counter_outcome
        claim.answered_by = seat.player
        claim.answered_at = timezone.now()
        claim.note = "".join(char for char in clean_text(note) if char not in DIRECTION_CONTROLS)[:200]
        history_author(claim, None, f"disputed by {_name(seat)}")
        claim.save(update_fields=["status", "counter_outcome", "answered_by", "answered_at", "note"])
    return claim


SETTLE_CHOICES = ("entered", "counter", "void")


@event_write("match_id", of=match_id_event)
def deal_claim_settle(*, match_id: int, claim_id: int, user: Actor | None, choice: str, reason: str) -> ClaimAnswer:
    """A referee settles a dispute: ``entered`` records the version entered, ``counter`` the other
    side's, ``void`` records neither (the referee then enters the deal on the match page)."""
    reason = reason_clean(reason)
    if choice not in SETTLE_CHOICES:
        raise ClaimRefused("bad_choice", _("Choose one version."), status=400)
    with transaction.atomic():
        match = fold.locked_match(match_id)
        claim = _claim_locked(match, claim_id)
        if claim.status not in CLAIM_OPEN:
            raise ClaimRefused("claim_not_open", _("This entry was already settled."))
        if choice == "counter" and claim.counter_outcome is None:
            raise ClaimRefused("no_counter_version", _("The other side gave no version of its own."), status=400)
        if choice != "void":
            _first_open(match, claim)
            outcome = claim.outcome if choice == "entered" else claim.counter_outcome
            assert outcome is not None
            refused = _record(match, claim, outcome, user=user)
            if refused is not None:
                return refused
        claim.status = ClaimStatus.SETTLED if choice != "void" else ClaimStatus.WITHDRAWN
        claim.settled_by = signed_in(user)
        claim.settled_at = timezone.now()
        claim.note = f"{choice}: {reason}"[:200]
        history_author(claim, user, f"settled ({choice}): {reason}")
        claim.save(update_fields=["status", "settled_by", "settled_at", "note", "deal"])
    return ClaimAnswer(claim=claim)


@event_write("match_id", of=match_id_event)
def deal_claim_withdraw(*, match_id: int, claim_id: int, player_id: int) -> DealClaim:
    """The side that entered a claim takes it back before it is answered (a wrong tap): the deal is
    entered again. Only the latest open claim can be withdrawn, so the deal order stays whole."""
    with transaction.atomic():
        match = fold.locked_match(match_id)
        claim = _claim_locked(match, claim_id)
        seat = seat_of(match=match, player_id=player_id)
        if seat is None or seat.side != claim.side:
            raise ClaimRefused("withdraw_own", _("Only the side that entered it can take it back."), status=403)
        if claim.status == ClaimStatus.WITHDRAWN:
            return claim
        if claim.status != ClaimStatus.PENDING:
            raise ClaimRefused("claim_not_pending", _("This entry is no longer awaiting confirmation."))
        if claims_still_open(match.claims.filter(number__gt=claim.number)).exists():
            raise ClaimRefused("withdraw_latest", _("Take back the later entries first."))
        claim.status = ClaimStatus.WITHDRAWN
        history_author(claim, None, f"withdrawn by {_name(seat)}")
        claim.save(update_fields=["status"])
    return claim


# -- auto-confirm -----------------------------------------------------------------------------------


def claims_auto_confirm_due(*, match: Match, now: datetime | None = None) -> int:
    """Confirm, in order, the claims whose auto-confirm time has passed (the event's
    ``auto_confirm_minutes``), stopping at a dispute; the lazy half of the Celery task. Returns the
    number confirmed. Called by the Celery tasks and before a player's next entry, never by a page."""
    minutes = match.round.stage.tournament.auto_confirm_minutes
    if not minutes or match.round.stage.tournament.entry_mode == EntryMode.REFEREES:
        return 0
    cutoff = (now or timezone.now()) - timedelta(minutes=minutes)
    confirmed = 0
    for claim in claims_open(match=match):
        if claim.status != ClaimStatus.PENDING or claim.entered_at > cutoff:
            break
        answer = deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, auto=True)
        if answer.refusal is not None:
            break
        confirmed += 1
    if confirmed:
        match.refresh_from_db()
    return confirmed


def claims_auto_confirm_everywhere(*, now: datetime | None = None) -> int:
    """:func:`claims_auto_confirm_due` at every match with a claim waiting, in the events that
    confirm claims by themselves (the periodic sweep, ``tasks.clock_sweep``). How many were confirmed."""
    waiting = DealClaim.objects.filter(
        status=ClaimStatus.PENDING, match__round__stage__tournament__auto_confirm_minutes__isnull=False
    ).exclude(match__round__stage__tournament__entry_mode=EntryMode.REFEREES)
    match_ids = sorted(set(waiting.values_list("match_id", flat=True)))
    matches = Match.objects.select_related("round__stage__tournament").filter(pk__in=match_ids).order_by("pk")
    return sum(claims_auto_confirm_due(match=match, now=now) for match in matches)


@dataclass(frozen=True, slots=True)
class Dispute:
    """A disputed claim waiting for a referee, with both versions in words, each in its match's game
    (``tournament.games``): the entering player's and the opponent's."""

    claim: DealClaim
    entered_text: str
    counter_text: str


def disputes_open(*, tournament_id: int, round_id: int | None = None, table_ids: Any = None) -> list[Dispute]:
    """Disputed claims waiting for a referee (the referees' home, the progress board)."""
    if round_id is not None and table_ids is None:
        # a round's, asked by every poll of its board: the statement compiled once per process
        # (tournament.prepared; compiling its joins cost more than the read, mostly of no row)
        claims: Any = prepared_rows("round-disputes", _round_disputes, tournament_id=tournament_id, round_id=round_id)
    else:
        claims = _disputes(tournament_id=tournament_id)
        if round_id is not None:
            claims = claims.filter(match__round_id=round_id)
        if table_ids is not None:
            claims = claims.filter(match__table_id__in=table_ids)
    found = []
    for claim in claims:
        game = match_game(claim.match)
        counter = game.outcome_text(claim.counter_outcome) if claim.counter_outcome else ""
        found.append(Dispute(claim, game.outcome_text(claim.outcome), counter))
    return found


def _disputes(*, tournament_id: int) -> QuerySet[DealClaim]:
    """The event's disputed claims by table, with what a dispute shows (its match's event: its game)."""
    return (
        DealClaim.objects.filter(status=ClaimStatus.DISPUTED, match__round__stage__tournament_id=tournament_id)
        .select_related("match__table", "match__round__stage__tournament", "entered_by", "answered_by")
        .order_by("match__table__number", "number")
    )


def _round_disputes(*, tournament_id: int, round_id: int) -> QuerySet[DealClaim]:
    return _disputes(tournament_id=tournament_id).filter(match__round_id=round_id)


def disputes_at(*, matches: Any, rounds: Any) -> list[Dispute]:
    """The disputes a referee's home shows: at their tables, and in the rounds they oversee."""
    found: dict[int, Dispute] = {}
    by_tournament: dict[int, list[int]] = {}
    for match in matches:
        by_tournament.setdefault(match.round.stage.tournament_id, []).append(match.table_id)
    for tournament_id, table_ids in by_tournament.items():
        for dispute in disputes_open(tournament_id=tournament_id, table_ids=table_ids):
            found[dispute.claim.pk] = dispute
    for round_ in rounds:
        for dispute in disputes_open(tournament_id=round_.stage.tournament_id, round_id=round_.pk):
            found[dispute.claim.pk] = dispute
    return list(found.values())


@dataclass(frozen=True, slots=True)
class SeatCodeLimit:
    """The wrong codes counted against one seat's PIN in this round, and how long it still waits."""

    seat: SeatPlayer
    wrong: int
    paused_minutes: int


def table_code_limits(*, match: Match) -> list[SeatCodeLimit]:
    """The wrong codes against each seat's PIN at the table (the referee's match page shows those
    with any): a seat being guessed stands out, the others are not paused (``table_codes``)."""
    seats = table_players(match=match)
    limits = table_codes.code_limits(
        scope=table_codes.match_scope(match.pk), targets=[str(seat.player.pk) for seat in seats]
    )
    now = time.time()
    return [
        SeatCodeLimit(
            seat=seat,
            wrong=limits[str(seat.player.pk)].wrong,
            paused_minutes=math.ceil(limits[str(seat.player.pk)].wait(now) / 60),
        )
        for seat in seats
        if limits[str(seat.player.pk)].wrong
    ]


@event_write("match_id", of=match_id_event)
def table_codes_lift(*, match_id: int, user: Actor) -> None:
    """A referee of the table or an organiser lifts the pauses on its codes: every wrong code counted
    against its seats' PINs, its phones and its table number's code is forgotten. Audited as a row of
    the match's history (who, when, from where, which counts were lifted)."""
    match = Match.objects.select_related("table").get(pk=match_id)
    lifted = [
        f"{row.seat.player.name} {row.wrong}" for row in table_code_limits(match=match)
    ]  # the counts as they stood, for the audit
    table_codes.code_limit_lift(scope=table_codes.match_scope(match.pk))
    if match.table is not None:
        table_codes.code_limit_lift(scope=table_codes.table_number_scope(match.table.number))
    reason = _("Wrong-code limit lifted") + (f": {', '.join(lifted)}" if lifted else "")
    with transaction.atomic():
        history_copy(queryset=Match.objects.filter(pk=match.pk), user=user, reason=reason[:REASON_MAX])
    logger.warning("table codes of match %s lifted by %s", match.pk, signed_in(user))
