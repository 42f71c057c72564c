"""The table's own pages: what a phone opens from the table's QR code, without an account.

Every page takes its match from the signed token in the address (``table_links.table_link_resolve``:
refused with 403 and the reason when forged, revoked, or the round is over) — never from an id the
phone sends — so the token reaches its table's match and nothing else. A phone speaks for one player
of the table once identified (employee number or seat PIN, kept in the session per match); a
confirmation takes the opponent's PIN (typed on the confirm form, so one phone can be handed across
the table, or given when their own phone said who they are), never an employee number.

Writes go through ``tournament.matches.player_entry`` (and so through ``services.deal_record``). A
write sent by the offline queue (``static/js/deal_queue.js``, header ``X-Deal-Queue``) is answered
in JSON: ``accepted``, ``already`` (recorded before: the idempotency key) or ``refused`` with the
code and the reason; the pages answer forms with a redirect, and htmx with the fragment.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.errors import USER_ERRORS, UserError, user_error_of
from tournament.htmx import HtmxHttpRequest
from tournament.matches import clock, deal_queue, fold, player_entry, selectors, table_codes, views
from tournament.matches.claim_views import web_app_manifest
from tournament.matches.deadlines import match_reminder
from tournament.matches.deal_forms import DEAL_FORMS
from tournament.matches.fold import match_game
from tournament.matches.models import ClaimStatus, DealClaim, Match, MatchStatus
from tournament.matches.player_entry import SeatPlayer
from tournament.matches.table_links import TableLink, table_code_find, table_link_resolve
from tournament.parsing import int_or_none
from tournament.registration.announcements import announcements_shown
from tournament.registration.models import EntryMode

_DEVICE_KEY = "table_device"
"""Set in a phone's session at its first wrong code, so the session (the device) exists to count it."""


def _session_key(match: Match) -> str:
    return f"table_player:{match.pk}"


def _pin_key(match: Match) -> str:
    """Set when the phone said who it speaks for with that player's PIN (their seat slip)."""
    return f"table_pin:{match.pk}"


def _seat(request: HttpRequest, match: Match) -> SeatPlayer | None:
    return player_entry.seat_of(match=match, player_id=request.session.get(_session_key(match)))


def _seat_proven(request: HttpRequest, match: Match) -> bool:
    """Whether this phone's player was proven by their PIN: only then may it confirm a deal without
    a code (an employee number, which colleagues know, proves no one)."""
    return bool(request.session.get(_pin_key(match)))


def _link(token: str) -> TableLink:
    link = table_link_resolve(token=token)
    return dataclasses.replace(link, match=clock.match_as_of(link.match))  # a due time call shown, not stored


def _virtual(match: Match, pending: list[DealClaim]) -> Match:
    """The match as it would stand with the pending claims confirmed (not saved): the next deal's
    number, level, tribute and preview follow the deals entered so far, confirmed or not."""
    if not pending:
        return match
    folded = fold.match_fold(
        match=match,
        outcomes=[*fold.match_outcomes(match), *(claim.outcome for claim in pending)],
        adjustments=fold.match_adjustment_rows(match),
        time_called_during_deal=match.time_called_during_deal,
    )
    virtual = copy.copy(match)
    virtual.__dict__.pop("_snapshot", None)
    virtual.state = folded.result.to_json()
    if folded.result.status.value == "finished" and virtual.status == MatchStatus.RUNNING:
        virtual.status = MatchStatus.FINISHED
    return virtual


def _context(
    request: HttpRequest, link: TableLink, *, entry_form: Any = None, error: str = "", dispute: DealClaim | None = None
) -> dict[str, Any]:
    match = link.match
    seat = _seat(request, match)
    pending = player_entry.claims_open(match=match)
    game = match_game(match)
    table_url = reverse("matches:table", args=[link.token])
    if dispute is None:  # the next deal, after every entry still waiting
        before = pending
        entry_url, post_url = table_url, reverse("matches:table_deal", args=[link.token])
    else:  # the other side's version of the disputed deal: after the entries before it
        before = [claim for claim in pending if claim.number < dispute.number]
        entry_url = post_url = reverse("matches:table_dispute", args=[link.token, dispute.pk])
    virtual = _virtual(match, before)
    summary_next = selectors.match_summary(match=virtual, flagged=0).next_deal
    form = entry_form if entry_form is not None else views.deal_entry_form(game, request.GET, next_deal=summary_next)
    preview = None
    if form.complete() and form.is_valid():
        preview = selectors.deal_preview(match=match, outcome=form.outcome(), pending=[c.outcome for c in before])
    players_enter = player_entry.players_enter(match)
    open_ = virtual.status in (MatchStatus.PENDING, MatchStatus.RUNNING) and not match.is_bye
    context = views.match_page_context(
        request,
        virtual,
        entry_form=form,
        preview=preview,
        error=error,
        entry_url=entry_url,
        deal_post_url=post_url,
        entry_number=summary_next["number"] if summary_next else None,
    )
    flagged = context["summary"].flagged
    context.update(
        link=link,
        table_match=match,  # as stored: its result (the levels above include the entries waiting)
        token=link.token,
        table_url=table_url,
        seat=seat,
        seat_proven=seat is not None and _seat_proven(request, match),
        players=player_entry.table_players(match=match),
        announcements=announcements_shown(tournament_id=match.round.stage.tournament_id),
        reminder=match_reminder(match=match),
        players_enter=players_enter,
        opponents_confirm=match.round.stage.tournament.entry_mode == EntryMode.PLAYERS_OPPONENTS_CONFIRM,
        pending=pending,
        log=player_entry.claims_shown(match=match),
        dispute=dispute,
        entry_open=(players_enter and seat is not None and (open_ or dispute is not None) and not flagged),
        may_adjust=False,
        may_unlock=False,
        auto_confirm_minutes=match.round.stage.tournament.auto_confirm_minutes,
    )
    return context


def _render(request: HtmxHttpRequest, link: TableLink, *, status: int = 200, **kwargs: Any) -> HttpResponse:
    link.match.refresh_from_db()
    context = _context(request, link, **kwargs)
    if request.htmx and request.GET.get("panel") == "entry":
        return views.entry_panel(request, context, status=status)
    if request.htmx and request.GET.get("panel") == "claims":  # the 15-second refresh
        return render(request, "matches/_table_refresh.html", context, status=status)
    template = "matches/_table_body.html" if request.htmx else "matches/table.html"
    return render(request, template, context, status=status)


def table(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The table's page: its match, the deals, the entries awaiting confirmation, and — for an
    identified player at an event where players enter — the same tap entry as the referees'."""
    return _render(request, _link(token))


def _answer(
    request: HtmxHttpRequest, link: TableLink, *, replayed: bool, message: str, number: int | None = None
) -> HttpResponse:
    if deal_queue.queued(request):
        return deal_queue.accepted(replayed=replayed, message=message, number=number)
    if request.htmx:
        return _render(request, link)
    messages.success(request, message)
    return redirect("matches:table", token=link.token)


def _refused(request: HtmxHttpRequest, link: TableLink, error: Exception, *, entry_form: Any = None) -> HttpResponse:
    if deal_queue.queued(request):
        return deal_queue.refused(error)
    failure = user_error_of(error)
    response = _render(request, link, status=failure.status, entry_form=entry_form, error=failure.message)
    for name, value in failure.headers.items():  # Retry-After of a pause on wrong codes
        response[name] = value
    return response


def _identified(request: HttpRequest, link: TableLink) -> SeatPlayer:
    seat = _seat(request, link.match)
    if seat is None:
        raise UserError("identify_first", _("Say who you are first: your employee number or seat PIN."), status=403)
    return seat


def _named(request: HttpRequest, seats: list[SeatPlayer]) -> list[SeatPlayer]:
    """The seats a code is compared with: the one the phone named (``seat``: its letter), if it is
    among ``seats``, else all of them."""
    named = [seat for seat in seats if seat.seat == request.POST.get("seat")]
    return named or seats


def _identify(
    request: HttpRequest, link: TableLink, code: str, *, pin_only: bool = False, among: list[SeatPlayer] | None = None
) -> SeatPlayer:
    """The player of the table (``among``: of these seats; the one the phone named, if any) whose
    employee number or PIN is ``code`` (``pin_only``: whose PIN); wrong codes are counted per seat
    PIN being guessed and per phone, never per table or address (``table_codes``: past their free
    codes, each is paused for longer; a referee or organiser lifts a pause)."""

    def device_start() -> str:  # a session from the first wrong code on: the phone's count is its own
        request.session[_DEVICE_KEY] = True
        request.session.save()
        return str(request.session.session_key)

    seats = _named(request, among if among is not None else player_entry.table_players(match=link.match))
    # a code that cannot be a PIN (a mistyped employee number) is no guess at anyone's PIN
    targets = [str(seat.player.pk) for seat in seats] if player_entry.pin_shaped(code) else []
    answer = table_codes.code_attempt(
        scope=table_codes.match_scope(link.match.pk),
        device=request.session.session_key,
        device_start=device_start,
        targets=targets,
        check=lambda paused: player_entry.player_identify(
            match=link.match, code=code, pin_only=pin_only, among=seats, pins_paused={int(p) for p in paused}
        ),
    )
    if answer.found is not None:
        return answer.found
    if targets and answer.paused >= set(targets):  # no PIN it could be was compared: say whose, and how long
        names = "、".join(seat.player.name for seat in seats)
        raise table_codes.paused_error(
            "pin_codes_paused",
            _("Too many wrong PINs for %(names)s: PIN entry waits %%(minutes)d min. A referee can lift it.")
            % {"names": names},
            answer.wait,
        )
    if pin_only:
        raise UserError("bad_pin", _("No player of this table has that PIN (on the seat slip)."), status=400)
    raise UserError("bad_code", _("No player of this table has that employee number or PIN."), status=400)


@require_POST
def table_identify(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A player of the table says who they are (employee number or seat PIN)."""
    link = _link(token)
    code = request.POST.get("code", "")
    try:
        seat = _identify(request, link, code)
    except UserError as error:
        response = _render(request, link, status=error.status, error=error.message)
        for name, value in error.headers.items():  # Retry-After of a pause
            response[name] = value
        return response
    request.session[_session_key(link.match)] = seat.player.pk
    request.session[_pin_key(link.match)] = player_entry.pin_proves(player_id=seat.player.pk, code=code)
    return redirect("matches:table", token=link.token)


@require_POST
def table_leave(request: HttpRequest, token: str) -> HttpResponse:
    """Forget who this phone speaks for (before handing it to someone else)."""
    link = _link(token)
    request.session.pop(_session_key(link.match), None)
    request.session.pop(_pin_key(link.match), None)
    return redirect("matches:table", token=link.token)


def _entered_outcome(request: HttpRequest, link: TableLink) -> tuple[Any, dict[str, Any] | None]:
    game = match_game(link.match)
    form = DEAL_FORMS[game.game].deal(request.POST)
    return form, (form.outcome() if form.is_valid() else None)


@require_POST
def table_deal(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A player enters a deal: it waits for the other side's confirmation."""
    link = _link(token)
    form, outcome = _entered_outcome(request, link)
    try:
        seat = _identified(request, link)
        if outcome is None:
            raise UserError("invalid_deal", str(match_game(link.match).invalid_entry))
        entry = player_entry.deal_claim_enter(
            match_id=link.match.pk,
            outcome=outcome,
            player_id=seat.player.pk,
            number=int_or_none(request.POST.get("number"), low=1, high=32767),
            idempotency_key=(form.cleaned_data.get("idempotency_key") or "")[:64],
        )
    except USER_ERRORS as error:
        return _refused(request, link, error, entry_form=form)
    game = match_game(link.match)
    number = entry.claim.number
    message = str(game.entrants.words["claim_entered"]) % {
        "number": number,
        "deal": game.deal_name % {"number": number},
    }
    return _answer(request, link, replayed=entry.replayed, message=message, number=entry.claim.number)


def _claim(link: TableLink, claim_id: int) -> DealClaim:
    claim = DealClaim.objects.filter(pk=claim_id, match=link.match).first()
    if claim is None:
        raise UserError("no_such_claim", _("There is no such entry at this table."), status=404)
    return claim


def _confirmers(request: HttpRequest, link: TableLink, claim: DealClaim) -> list[SeatPlayer]:
    """Whose PIN a confirmation of ``claim`` is compared with (and counted against): this phone's
    player, if it speaks for the other side (their own phone); else the other side's players (the
    phone handed across) and this phone's own player, who is then told that the side that entered a
    deal does not confirm it, rather than that no one has that PIN."""
    seat = _seat(request, link.match)
    if seat is not None and seat.side != claim.side:
        return [seat]
    others = [other for other in player_entry.table_players(match=link.match) if other.side != claim.side]
    return others + ([seat] if seat is not None else [])


@require_POST
def table_confirm(request: HtmxHttpRequest, token: str, claim_id: int) -> HttpResponse:
    """An opponent confirms an entry: on their own phone said to be theirs by their PIN, or on any
    phone with their PIN typed — never by an employee number, which colleagues know."""
    link = _link(token)
    try:
        claim = _claim(link, claim_id)
        code = request.POST.get("code", "").strip()
        seat = (
            _identify(request, link, code, pin_only=True, among=_confirmers(request, link, claim))
            if code
            else _identified(request, link)
        )
        if not code and not _seat_proven(request, link.match):
            raise UserError(
                "pin_required",
                _("To confirm, give the PIN on your seat slip: an employee number does not prove who confirms."),
                status=403,
            )
        answer = player_entry.deal_claim_confirm(match_id=link.match.pk, claim_id=claim.pk, player_id=seat.player.pk)
        if answer.refusal is not None:
            raise answer.refusal
    except USER_ERRORS as error:
        return _refused(request, link, error)
    message = _("%(deal)s confirmed.") % {"deal": match_game(link.match).deal_name % {"number": claim.number}}
    return _answer(request, link, replayed=answer.replayed, message=message, number=claim.number)


def table_dispute(request: HtmxHttpRequest, token: str, claim_id: int) -> HttpResponse:
    """The other side says an entry is wrong and enters its own version (the same entry)."""
    link = _link(token)
    try:
        claim = _claim(link, claim_id)
        seat = _identified(request, link)
    except USER_ERRORS as error:
        return _refused(request, link, error)
    if request.method != "POST":
        if claim.status != ClaimStatus.PENDING:  # disputed (or settled) already: the form is closed
            return redirect("matches:table", token=link.token)
        return _render(request, link, dispute=claim)
    form, outcome = _entered_outcome(request, link)
    try:
        if outcome is None:
            raise UserError("invalid_deal", str(match_game(link.match).invalid_entry))
        player_entry.deal_claim_dispute(
            match_id=link.match.pk, claim_id=claim.pk, player_id=seat.player.pk, counter_outcome=outcome
        )
    except USER_ERRORS as error:
        return _refused(request, link, error, entry_form=form)
    deal = match_game(link.match).deal_name % {"number": claim.number}
    message = _("%(deal)s disputed: a referee is on the way.") % {"deal": deal}
    return _answer(request, link, replayed=False, message=message, number=claim.number)


@require_POST
def table_withdraw(request: HtmxHttpRequest, token: str, claim_id: int) -> HttpResponse:
    link = _link(token)
    try:
        claim = _claim(link, claim_id)
        seat = _identified(request, link)
        player_entry.deal_claim_withdraw(match_id=link.match.pk, claim_id=claim.pk, player_id=seat.player.pk)
    except USER_ERRORS as error:
        return _refused(request, link, error)
    return _answer(request, link, replayed=False, message=_("Entry taken back: enter the deal again."))


def table_manifest(request: HttpRequest, token: str) -> HttpResponse:
    """The web app manifest of a table's page: installed, it opens this table."""
    link = table_link_resolve(token=token)
    return web_app_manifest(
        name=_("Table %(number)s") % {"number": link.table.number},
        start_url=reverse("matches:table", args=[link.token]),
    )


def table_find(request: HttpRequest) -> HttpResponse:
    """The short address printed on the table cards, for a phone that cannot scan the QR code: the
    table's number and the code beside it open the table's page. Wrong codes are counted per table
    number being guessed and per phone, never per address (``table_codes``); a referee or organiser
    of the table lifts a pause from the match page."""
    number_text = request.POST.get("table", "") if request.method == "POST" else ""
    code = request.POST.get("code", "") if request.method == "POST" else ""
    context: dict[str, Any] = {"number": number_text}
    if request.method != "POST":
        return render(request, "matches/table_find.html", context)
    number = int_or_none(number_text, low=1, high=99999)
    try:
        if number is None:
            raise UserError("invalid_table", _("Give the table's number, as on its card."), status=400)

        def device_start() -> str:  # a session from the first wrong code on: the phone's count is its own
            request.session[_DEVICE_KEY] = True
            request.session.save()
            return str(request.session.session_key)

        answer = table_codes.code_attempt(
            scope=table_codes.table_number_scope(number),
            device=request.session.session_key,
            device_start=device_start,
            targets=[str(number)],
            check=lambda paused: None if paused else table_code_find(number=number, code=code),
        )
        if answer.found is not None:
            return redirect("matches:table", token=answer.found)
        if answer.paused:
            raise table_codes.paused_error(
                "table_code_paused",
                _("Too many wrong codes for table %(number)d: wait %%(minutes)d min, or ask a referee.")
                % {"number": number},
                answer.wait,
            )
        raise UserError("bad_table_code", _("No table %(number)d being played has that code.") % {"number": number})
    except UserError as error:
        response = render(request, "matches/table_find.html", context | {"error": error.message}, status=error.status)
        for name, value in error.headers.items():  # Retry-After of a pause
            response[name] = value
        return response
