"""The referee's and the organiser's match pages: thin views over the match services.

Every page scopes the match by the caller (``access.match_for_user``: out of scope is 404) and
shows it as it stands now (``clock.match_as_of``: a due time call shown, not stored — a GET
writes nothing; the services store the call when they write).
Pages work without JavaScript (each tap is a link, each action a form, then a redirect); with
htmx the same URLs answer with the fragment to swap, so nothing reloads the whole page.
"""

from __future__ import annotations

import math
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.options import AtTimeUp
from tournament import labels
from tournament.errors import USER_ERRORS, UserError, user_error_of
from tournament.games import GameKind
from tournament.htmx import HtmxHttpRequest
from tournament.matches import (
    access,
    audit_log,
    board,
    clearing,
    clock,
    corrections,
    deal_queue,
    errors,
    no_shows,
    player_entry,
    selectors,
    services,
    snapshot_reads,
)
from tournament.matches.deal_forms import DEAL_FORMS, DealEntryFields
from tournament.matches.fold import match_game
from tournament.matches.forms import (
    ADJUSTMENT_FORMS,
    AdjustmentForm,
    LateArrivalForm,
    ReasonForm,
    RoundClockForm,
    SeatAdjustmentForm,
    UnlockForm,
    VersionForm,
)
from tournament.matches.models import Adjustment, AdjustmentKind, Match, MatchStatus, Round
from tournament.parsing import int_or_none
from tournament.registration.roles import user_organises
from tournament.rules import rules_for_stage

# -- helpers ---------------------------------------------------------------------------------------


def match_for_request(request: HttpRequest, match_id: int, *, reading: bool = False) -> Match:
    """The match the user may score (or read) as it stands now: a due time call shown, not stored
    (a GET writes nothing; the Celery task or the next write stores it)."""
    return clock.match_as_of(access.match_for_user(user=request.user, match_id=match_id, reading=reading))


def deal_entry_form(game: GameKind, data: Any, *, next_deal: dict[str, Any] | None) -> DealEntryFields:
    """The game's deal form, bound when the referee entered a deal to preview (``?order=NE``, or the
    Tractor fields): :attr:`GameKind.bound_by` is in the query."""
    bound = data is not None and game.bound_by in data
    form: DealEntryFields = DEAL_FORMS[game.game].fields(data if bound else None, next_deal=next_deal)
    return form


def match_page_context(
    request: HttpRequest, match: Match, *, entry_form: DealEntryFields | None = None, **extra: Any
) -> dict[str, Any]:
    """The match page of any game: the game's deal form (``tournament.games``), previewed by the rules
    core before it is confirmed; Guandan's form is the seat taps, Tractor's the declarer and points."""
    game = match_game(match)
    deals = list(match.deals.order_by("number"))
    adjustments = list(match.adjustments.select_related("pair").order_by("created_at", "id"))
    flagged = sum(deal.flagged for deal in deals) + sum(row.flagged for row in adjustments)
    summary = selectors.match_summary(match=match, flagged=flagged)
    tribute, anti_tribute = selectors.next_tribute(match=match)
    # An archived event refuses every write (``event_write``): its match page offers none.
    archived = match.round.stage.tournament.read_only
    read_only = archived or not access.user_may_score(user=request.user, match=match)
    may_unlock = not archived and access.user_may_unlock(user=request.user, match=match)
    open_ = match.status in (MatchStatus.PENDING, MatchStatus.RUNNING) and not match.is_bye and not read_only
    form = entry_form if entry_form is not None else deal_entry_form(game, request.GET, next_deal=summary.next_deal)
    complete = form.complete()
    preview = extra.pop("preview", None)
    if preview is None and open_ and complete and not extra.get("correcting") and form.is_valid():
        preview = selectors.deal_preview(match=match, outcome=form.outcome())
    context = {
        "match": match,
        "game": game,
        "summary": summary,
        "deals": deals,
        "adjustments": adjustments,
        "entry_form": form,
        "taps": form.taps(),
        "complete": complete,
        "preview": preview,
        "entry_open": open_ and not flagged,
        "read_only": read_only,
        "archived": archived,
        "tribute": tribute,
        "anti_tribute": anti_tribute,
        "idempotency_key": uuid.uuid4().hex,
        "may_adjust": not archived and access.user_may_adjust(user=request.user, match=match),
        "may_unlock": may_unlock,
        # a reopened knockout match whose next match has started, or that next match
        "started_successors": corrections.correction_started_successors(match=match) if may_unlock else (),
        "clearable": may_unlock and clearing.match_clear_blocks(match=match) and clearing.match_started(match=match),
        # an organiser came from the round's clock page, not from tables of their own
        "organises": user_organises(user=request.user, tournament_id=match.round.stage.tournament_id),
        "team_match": selectors.match_team_match(match=match),
        "entry_url": reverse("matches:match", args=[match.pk]),
        "deal_post_url": reverse("matches:deal_create", args=[match.pk]),
        "seats": selectors.SEATS,
        "undo_form": ReasonForm(auto_id="undo-%s"),  # undo asks for a reason like a correction
        "claims": player_entry.claims_open(match=match),
        # the board's word for the table's state, on every page that shows the table (board.table_state)
        "table_state": board.table_state(match=match),
        # the deal the offline queue labels its entry with (static/js/deal_queue.js); the form ignores it
        "entry_number": summary.next_deal["number"] if summary.next_deal else None,
    }
    if request.user.is_authenticated and player_entry.players_enter(match):  # for the referee to lift a pause
        context["code_limits"] = player_entry.table_code_limits(match=match)
    context.update(extra)
    return context


def _render_match(
    request: HtmxHttpRequest,
    match: Match,
    *,
    status: int = 200,
    entry_form: DealEntryFields | None = None,
    error: str = "",
) -> HttpResponse:
    match.refresh_from_db()
    context = match_page_context(request, match, entry_form=entry_form, error=error)
    template = context["game"].entrants.match_body_template if request.htmx else "matches/match_detail.html"
    return render(request, template, context, status=status)


def refused_page(
    request: HtmxHttpRequest, match_id: int, error: Exception, entry_form: DealEntryFields | None = None
) -> HttpResponse:
    """A refused write: the match page with the reason (and the deal as entered), at the status
    ``tournament.errors`` maps it to (409 with the current state for a stale version or the match's
    state, 400 for bad input)."""
    match = Match.objects.select_related("round__stage__tournament", "table", "ns_pair", "ew_pair").get(pk=match_id)
    failure = user_error_of(error)
    if isinstance(error, errors.StaleVersion):
        entry_form = None  # the deal was entered for a state that is gone
    return _render_match(request, match, status=failure.status, entry_form=entry_form, error=failure.message)


def _done(request: HtmxHttpRequest, match: Match, message: str) -> HttpResponse:
    if request.htmx:
        return _render_match(request, match)
    messages.success(request, message)
    return redirect("matches:match", match_id=match.pk)


WRITE_ERRORS = USER_ERRORS


# -- referee home ----------------------------------------------------------------------------------


@login_required
def referee_home(request: HtmxHttpRequest) -> HttpResponse:
    """My tables this round (referees) and the rounds being played (organisers, chief referees)."""
    matches = clock.matches_as_of(list(selectors.referee_tables(user=request.user)))
    rows = [selectors.match_summary(match=match) for match in matches]
    rounds = list(access.rounds_for_overseer(user=request.user)[:50])
    context = {
        "groups": selectors.referee_table_groups(rows=rows),
        "rows": rows,
        "rounds": rounds,
        "disputes": player_entry.disputes_at(matches=matches, rounds=rounds),
        "team_tables": selectors.team_tables_of(matches=matches),
    }
    template = "matches/_table_list.html" if request.htmx else "matches/referee_home.html"
    return render(request, template, context)


# -- a match ---------------------------------------------------------------------------------------


@login_required
def match_detail(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """The match page; ``?order=NE`` carries the seats tapped so far (no JavaScript needed). A referee's
    table of a finished round opens read-only."""
    match = match_for_request(request, match_id, reading=True)
    if request.htmx and request.GET.get("panel") == "clock":  # the clock's 30-second refresh
        return render(request, "matches/_clock.html", {"clock": selectors.match_clock(match=match)})
    context = match_page_context(request, match)
    if request.htmx and request.GET.get("panel") == "entry":
        return entry_panel(request, context)
    template = context["game"].entrants.match_body_template if request.htmx else "matches/match_detail.html"
    return render(request, template, context)


def entry_panel(request: HttpRequest, context: dict[str, Any], *, status: int = 200) -> HttpResponse:
    """The deal entry alone, for a seat tapped (``?panel=entry``, swapped over ``#entry``): the game's
    entry template, not ``_entry.html``, whose table conduct below the entry would be added again by
    each tap."""
    return render(request, context["game"].entry_template, context, status=status)


@require_POST
@login_required
def deal_create(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    match = match_for_request(request, match_id)
    game = match_game(match)
    form = DEAL_FORMS[game.game].deal(request.POST, next_deal=selectors.match_summary(match=match).next_deal)
    if not form.is_valid():
        if deal_queue.queued(request):
            return deal_queue.refused(UserError("invalid_deal", str(game.invalid_entry)))
        return _render_match(request, match, status=400, entry_form=form, error=str(game.invalid_entry))
    data = form.cleaned_data
    try:
        entry = services.deal_record(
            match_id=match.pk,
            outcome=form.outcome(),
            user=request.user,
            expected_version=data["version"],
            idempotency_key=data["idempotency_key"] or None,
        )
    except WRITE_ERRORS as error:
        if deal_queue.queued(request):
            return deal_queue.refused(error)
        return refused_page(request, match.pk, error, entry_form=form)
    if deal_queue.queued(request):
        message = match_game(match).deal_words["recorded"] % {"number": entry.deal.number}
        return deal_queue.accepted(replayed=entry.replayed, message=message, number=entry.deal.number)
    return _done(request, match, _("Deal recorded."))


@require_POST
@login_required
def deal_undo(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    match = match_for_request(request, match_id)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        return _render_match(request, match, status=400, error=str(match_game(match).deal_words["undo_reason"]))
    try:
        services.deal_undo(
            match_id=match.pk,
            reason=form.cleaned_data["reason"],
            user=request.user,
            expected_version=form.cleaned_data["version"],
        )
    except WRITE_ERRORS as error:
        return refused_page(request, match.pk, error)
    return _done(request, match, str(match_game(match).deal_words["undone"]))


@login_required
def deal_edit(request: HtmxHttpRequest, match_id: int, number: int) -> HttpResponse:
    """Correct deal ``number``: enter it again (prefilled where the game can), see what it changes,
    give a reason."""
    match = match_for_request(request, match_id)
    deal = match.deals.filter(number=number).first()
    if deal is None:
        raise Http404
    game = match_game(match)
    recorded = deal.snapshot
    # the rotation at that deal (Tractor's declarer); the first deal's declarer is entered (抢庄)
    rotation = (
        {}
        if number == 1
        else {
            "declarer": recorded.declarer if recorded else None,
            "declarer_seat": recorded.declarer_seat if recorded else None,
        }
    )
    data = request.POST if request.method == "POST" else request.GET
    bound = game.bound_by in data
    form = DEAL_FORMS[game.game].correction(
        data if bound else None,
        next_deal=rotation,
        initial={**game.initial(deal.outcome or {}), "version": match.version},
    )
    status = 200
    preview = None
    if bound:
        if request.method != "POST":  # a preview: the reason comes with the save
            form.fields["reason"].required = False
            form.fields["version"].required = False
        valid = form.is_valid()
        if valid and request.method == "POST":
            try:
                services.deal_correct(
                    match_id=match.pk,
                    number=number,
                    outcome=form.outcome(),
                    reason=form.cleaned_data["reason"],
                    user=request.user,
                    expected_version=form.cleaned_data["version"],
                )
            except WRITE_ERRORS as error:
                if isinstance(error, errors.StaleVersion):
                    return refused_page(request, match.pk, error)
                failure = user_error_of(error)
                form.add_error(None, failure.message)
                status = failure.status
            else:
                messages.success(request, match_game(match).deal_words["corrected"] % {"number": number})
                return redirect("matches:match", match_id=match.pk)
        if form.complete():
            preview = selectors.correction_preview(match=match, number=number, outcome=form.outcome())
        if not valid and request.method == "POST":
            status = 400
    elif request.method == "POST":
        status = 400
    context = match_page_context(
        request,
        match,
        entry_form=form,
        preview=preview,
        deal=deal,
        form=form,
        entry_url=reverse("matches:deal_edit", args=[match.pk, number]),
        correcting=True,
    )
    if request.htmx and request.GET.get("panel") == "entry":
        return entry_panel(request, context)
    return render(request, "matches/deal_edit.html", context, status=status)


@login_required
def deal_delete(request: HtmxHttpRequest, match_id: int, number: int) -> HttpResponse:
    match = match_for_request(request, match_id)
    deal = match.deals.filter(number=number).first()
    if deal is None:
        raise Http404
    form = ReasonForm(request.POST or None, initial={"version": match.version})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.deal_delete(
                    match_id=match.pk,
                    number=number,
                    reason=form.cleaned_data["reason"],
                    user=request.user,
                    expected_version=form.cleaned_data["version"],
                )
            except WRITE_ERRORS as error:
                return refused_page(request, match.pk, error)
            messages.success(request, match_game(match).deal_words["deleted"] % {"number": number})
            return redirect("matches:match", match_id=match.pk)
        status = 400
    context = {"match": match, "deal": deal, "form": form, "game": match_game(match)}
    return render(request, "matches/deal_delete.html", context, status=status)


@require_POST
@login_required
def match_start(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    match = match_for_request(request, match_id)
    try:
        clock.match_start(match_id=match.pk, user=request.user)
    except WRITE_ERRORS as error:
        return refused_page(request, match.pk, error)
    return _done(request, match, _("Clock started."))


@require_POST
@login_required
def match_sign_off(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    match = match_for_request(request, match_id)
    form = VersionForm(request.POST)
    if not form.is_valid():
        return _render_match(request, match, status=400)
    try:
        services.match_sign_off(match_id=match.pk, user=request.user, expected_version=form.cleaned_data["version"])
    except WRITE_ERRORS as error:
        return refused_page(request, match.pk, error)
    if request.htmx:
        return _render_match(request, match)
    # back to my tables: once the last match of a round is confirmed, the round is over
    messages.success(request, _("Result confirmed."))
    return redirect("matches:referee_home")


@login_required
def match_unlock(request: HttpRequest, match_id: int) -> HttpResponse:
    """The unlock page: what depends on the match first, then the reason and, when
    anything does, the organiser's or chief referee's acknowledgement."""
    match = match_for_request(request, match_id)
    if not access.user_may_unlock(user=request.user, match=match):
        raise Http404
    dependents = corrections.match_dependents(match=match)
    form = UnlockForm(request.POST or None, dependents=dependents.any)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.match_unlock(
                    match_id=match.pk,
                    reason=form.cleaned_data["reason"],
                    user=request.user,
                    dependents_seen=bool(form.cleaned_data.get("dependents_seen")),
                )
            except USER_ERRORS as error:
                failure = user_error_of(error)
                form.add_error(None, failure.message)
                status = failure.status
            else:
                messages.success(request, _("Match unlocked."))
                return redirect("matches:match", match_id=match.pk)
        else:
            status = 400
    context = {"match": match, "form": form, "dependents": dependents}
    return render(request, "matches/unlock.html", context, status=status)


@login_required
def adjustments(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """Forfeits, late arrivals, penalties and warnings: the chief referee's or an organiser's."""
    match = match_for_request(request, match_id)
    if not access.user_may_adjust(user=request.user, match=match):
        raise Http404
    initial = {"version": match.version}
    # Two forms: a late arrival (one pair, its minutes) and the rest; the one posted is bound. A
    # three-seat table has seats, not pairs: its one form takes a late player too (docs/rules.md §10).
    kind = match_game(match).entrants
    forms_of = ADJUSTMENT_FORMS[kind.key]
    late_posted = (
        forms_of.late is not None
        and request.method == "POST"
        and request.POST.get("kind") == AdjustmentKind.LATE_ARRIVAL
    )
    data = request.POST if request.method == "POST" else None
    late_form = forms_of.late(data if late_posted else None, match=match, initial=initial) if forms_of.late else None
    other_form = forms_of.other(None if late_posted else data, match=match, initial=initial)
    form: LateArrivalForm | AdjustmentForm | SeatAdjustmentForm = late_form if late_posted and late_form else other_form
    status = 200
    if request.method == "POST":
        if form.is_valid():
            cleaned = form.cleaned_data
            try:
                with transaction.atomic():  # a double forfeit is two rows, written together
                    version = cleaned["version"]
                    for pair_id in form.pair_ids():
                        absent = cleaned.get("absent_player")
                        in_pair = (
                            absent is not None
                            and match.round.stage.tournament.players.filter(
                                pk=absent, membership__pair_id=pair_id
                            ).exists()
                        )
                        services.adjustment_record(
                            match_id=match.pk,
                            pair_id=pair_id,
                            kind=cleaned["kind"],
                            reason=cleaned["reason"],
                            user=request.user,
                            levels=cleaned.get("levels") or 0,
                            points=cleaned.get("points") or 0,
                            minutes_late=cleaned.get("minutes_late"),
                            absent_player_id=absent if in_pair else None,
                            expected_version=version,
                        )
                        version += 1
            except errors.StaleVersion as error:
                return refused_page(request, match.pk, error)
            except USER_ERRORS as error:
                form.add_error(None, user_error_of(error).message)
                status = 400  # the form again with its error (several adjustments may have been asked)
            else:
                messages.success(request, _("Adjustment recorded."))
                return redirect("matches:adjustments", match_id=match.pk)
        else:
            status = 400
    match.refresh_from_db()
    context = {
        "match": match,
        "entrants": kind,
        "form": other_form,
        "late_form": late_form,
        "adjustments": _adjustment_rows(match),
        "summary": selectors.match_summary(match=match),
    }
    return render(request, "matches/adjustments.html", context, status=status)


def _adjustment_rows(match: Match) -> list[Adjustment]:
    """The match's adjustments, each with ``effect_text``: what the rules core did with it (a late
    arrival's levels to the opponents), so the referee sees it where they recorded it."""
    effects = snapshot_reads.match_adjustments_effects(match=match)
    rows = list(match.adjustments.select_related("pair", "absent_player", "created_by").order_by("created_at"))
    for row in rows:
        effect = effects.get(row.pk)
        setattr(row, "effect_text", labels.adjustment_effect(effect.effect, effect.amount) if effect else "")  # noqa: B010
    return rows


@require_POST
@login_required
def adjustment_delete(request: HtmxHttpRequest, match_id: int, adjustment_id: int) -> HttpResponse:
    match = match_for_request(request, match_id)
    if not access.user_may_adjust(user=request.user, match=match):
        raise Http404
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason."))
        return redirect("matches:adjustments", match_id=match.pk)
    try:
        services.adjustment_delete(
            match_id=match.pk,
            adjustment_id=adjustment_id,
            reason=form.cleaned_data["reason"],
            user=request.user,
            expected_version=form.cleaned_data["version"],
        )
    except WRITE_ERRORS as error:
        return refused_page(request, match.pk, error)
    messages.success(request, _("Adjustment removed."))
    return redirect("matches:adjustments", match_id=match.pk)


@login_required
def match_audit(request: HttpRequest, match_id: int) -> HttpResponse:
    """Every change to the match: who, when, from where, before → after, why (organisers)."""
    match = match_for_request(request, match_id)
    if not access.user_may_audit(user=request.user, match=match):
        raise Http404
    return render(request, "matches/audit.html", {"match": match, "entries": audit_log.match_audit(match=match)})


# -- the organiser's round clock -------------------------------------------------------------------


@login_required
def round_clock(request: HttpRequest, tournament_id: int, round_id: int) -> HttpResponse:
    """A round's clock and its tables: start the round (or one match), watch time run out.

    The tables come in pages of :data:`CLOCK_PAGE_SIZE` (2,500 tables on one page were megabytes
    of forms), or the one table asked for (``?table=12``); the lazy time check of every table is
    one query when nothing is due (set-based when something is), so the page costs the same for
    any number of tables.
    """
    round_ = clock.round_as_of(
        access.round_for_organiser(user=request.user, tournament_id=tournament_id, round_id=round_id)
    )
    tables = round_.matches.exclude(ns_pair__isnull=False, ew_pair=None)  # a bye is N/S alone
    table = int_or_none(request.GET.get("table"), low=1)
    if table is not None:
        tables = tables.filter(table__number=table)
    tables = selectors.with_flag_counts(
        tables.select_related("round__stage__tournament", "table", "ns_pair", "ew_pair")
    ).order_by("table__number", "id")
    page = Paginator(tables, CLOCK_PAGE_SIZE).get_page(request.GET.get("page"))
    initial = {"time_cap_minutes": round_.time_cap_minutes, "warning_minutes": round_.warning_minutes}
    context = {
        "clock_form": RoundClockForm(initial=initial),
        "round": round_,
        "tournament": round_.stage.tournament,
        "rows": [selectors.match_summary(match=match) for match in clock.matches_as_of(list(page))],
        "page": page,
        "table": table,
        "byes": selectors.round_byes(round_=round_),
        "cap": clock.time_cap_minutes(round_=round_),
        "paused_minutes_left": _paused_minutes_left(round_),
        # Tractor (seed 001 §3): when time is up one more deal is announced for every table
        "one_more_deal": rules_for_stage(round_.stage).at_time_up is AtTimeUp.ONE_MORE_DEAL,
    }
    return render(request, "matches/round_clock.html", context)


CLOCK_PAGE_SIZE = 100


def _paused_minutes_left(round_: Round) -> int | None:
    """A paused round's time left, standing still until it resumes."""
    if round_.paused_at is None or round_.ends_at is None:
        return None
    return max(0, math.ceil((round_.ends_at - round_.paused_at).total_seconds() / 60))


@require_POST
@login_required
def round_start(request: HttpRequest, tournament_id: int, round_id: int) -> HttpResponse:
    round_ = access.round_for_organiser(user=request.user, tournament_id=tournament_id, round_id=round_id)
    try:
        clock.round_start(round_id=round_.pk, user=request.user)
    except USER_ERRORS as error:
        messages.error(request, user_error_of(error).message)
    else:
        messages.success(request, _("Round started."))
    return redirect("matches:round_clock", tournament_id=tournament_id, round_id=round_.pk)


@require_POST
@login_required
def round_clock_set(request: HttpRequest, tournament_id: int, round_id: int) -> HttpResponse:
    round_ = access.round_for_organiser(user=request.user, tournament_id=tournament_id, round_id=round_id)
    form = RoundClockForm(request.POST)
    if form.is_valid():
        try:
            clock.round_clock_set(round_id=round_.pk, user=request.user, **form.cleaned_data)
        except USER_ERRORS as error:
            messages.error(request, user_error_of(error).message)
        else:
            messages.success(request, _("Clock saved."))
    else:
        messages.error(request, _("Check the minutes."))
    return redirect("matches:round_clock", tournament_id=tournament_id, round_id=round_.pk)


# -- no-shows -----------------------------------------------------------------------------


def _round_for_adjuster(request: HttpRequest, tournament_id: int, round_id: int) -> Round:
    """A round of a tournament the user organises or chief-referees, else 404."""
    user = request.user
    if not (
        user_organises(user=user, tournament_id=tournament_id)
        or access.user_is_chief_referee(user=user, tournament_id=tournament_id)
    ):
        raise Http404
    return get_object_or_404(
        Round.objects.select_related("stage__tournament"), pk=round_id, stage__tournament_id=tournament_id
    )


@login_required
def round_no_shows(request: HttpRequest, tournament_id: int, round_id: int) -> HttpResponse:
    """Tables whose pair never arrived, once the forfeit band is reached: one tap each."""
    round_ = _round_for_adjuster(request, tournament_id, round_id)
    if request.method == "POST":
        match_id = request.POST.get("match", "")
        try:
            no_shows.no_show_forfeit(round_=round_, match_id=int_or_none(match_id, low=1) or 0, user=request.user)
        except USER_ERRORS as error:
            messages.error(request, user_error_of(error).message)
        else:
            messages.success(request, _("Forfeit recorded."))
        return redirect("matches:round_no_shows", tournament_id=tournament_id, round_id=round_.pk)
    offer = no_shows.round_no_shows(round_=round_)
    return render(
        request,
        "matches/round_no_shows.html",
        {"round": round_, "tournament": round_.stage.tournament, "offer": offer},
    )
