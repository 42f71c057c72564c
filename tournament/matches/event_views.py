"""The event's own page for its organiser: details and rules, status, archive, delete.

The event's fields and its life are the registration app's (its forms, ``lifecycle``); the page
lives here because what it shows hangs on this app's rounds and results (:mod:`tournament.matches.event`):
the rules lock once a round is drawn, and an event with results is archived, not deleted."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.errors import ScoringError
from scoring.profiles import options_for
from tournament.errors import UserError, user_error_on_form
from tournament.games import game_of
from tournament.labels import rule_value
from tournament.matches import event
from tournament.registration import lifecycle
from tournament.registration.forms import ConfirmForm, TournamentEditForm
from tournament.registration.models import Tournament, TournamentStatus
from tournament.registration.roles import organiser_view


def _initial(tournament: Tournament) -> dict[str, Any]:
    initial: dict[str, Any] = {
        "name": tournament.name,
        "venue": tournament.venue,
        "starts_on": tournament.starts_on,
        "ends_on": tournament.ends_on,
        "rule_profile": tournament.rule_profile,
        "provisional_results": tournament.provisional_results,
        "entry_mode": tournament.entry_mode,
        "auto_confirm_minutes": tournament.auto_confirm_minutes,
        "time_zone": tournament.time_zone,
    }
    for key in game_of(tournament).event_overrides:
        initial[key] = tournament.rule_overrides.get(key)
    return initial


def _show_profile_values(form: TournamentEditForm, tournament: Tournament) -> None:
    """An empty override field shows, greyed, what the profile itself says."""
    try:
        profile = options_for(profile=tournament.rule_profile, overrides={})
    except ScoringError:
        return
    for key in form.offered:
        field = form.fields[key]
        if isinstance(field, forms.IntegerField):
            field.widget.attrs["placeholder"] = rule_value(key, getattr(profile, key))


@organiser_view
def event_settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    archived = tournament.status == TournamentStatus.ARCHIVED
    locked = event.tournament_drawn(tournament=tournament)
    form = TournamentEditForm(
        request.POST or None, initial=_initial(tournament), game=tournament.game, locked=locked or archived
    )
    if archived:
        for field in form.fields.values():
            field.disabled = True
    _show_profile_values(form, tournament)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            lifecycle.tournament_update(
                tournament=tournament,
                name=data["name"],
                venue=data["venue"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                rule_profile=None if locked else data["rule_profile"],
                rule_overrides=None if locked else form.overrides(tournament.rule_overrides),
                provisional_results=data["provisional_results"] or None,  # not sent: unchanged
                entry_mode=data["entry_mode"] or None,  # not sent: unchanged
                auto_confirm_minutes=data["auto_confirm_minutes"],
                time_zone=data["time_zone"] or None,  # not sent: unchanged
                user=request.user,
            )
        except UserError as error:
            user_error_on_form(form, error)
        else:
            messages.success(request, _("Event saved."))
            return redirect("matches:event", tournament_id=tournament.pk)
    return render(
        request,
        "matches/event_settings.html",
        {
            "tournament": tournament,
            "form": form,
            "locked": locked,
            "locked_reason": event.rules_locked_reason() if locked else "",
            "archived": archived,
            "moves": [TournamentStatus(status) for status in lifecycle.status_moves(tournament=tournament)],
            "statuses": [TournamentStatus(status) for status in lifecycle.ORDER],
            "has_results": event.tournament_has_results(tournament=tournament),
        },
    )


@require_POST
@organiser_view
def event_status(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    action = request.POST.get("action", "")
    try:
        if action == "archive":
            lifecycle.tournament_archive(tournament=tournament, user=request.user)
        elif action == "unarchive":
            lifecycle.tournament_unarchive(tournament=tournament, user=request.user)
        else:
            lifecycle.tournament_status_set(
                tournament=tournament, status=request.POST.get("status", ""), user=request.user
            )
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("The event is now: %(status)s.") % {"status": TournamentStatus(tournament.status).label}
        )
    return redirect("matches:event", tournament_id=tournament.pk)


@organiser_view
def event_delete(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = ConfirmForm(request.POST or None)
    has_results = event.tournament_has_results(tournament=tournament)
    if request.method == "POST" and form.is_valid():
        if form.cleaned_data["name"].strip() != tournament.name:
            form.add_error("name", _("The name does not match."))
        else:
            try:
                lifecycle.tournament_delete(tournament=tournament, user=request.user)
            except UserError as error:
                user_error_on_form(form, error)
            else:
                messages.success(request, _("Event %(event)s deleted.") % {"event": tournament.name})
                return redirect("home")
    return render(
        request,
        "matches/event_delete.html",
        {"tournament": tournament, "form": form, "has_results": has_results},
        status=400 if request.method == "POST" else 200,
    )
