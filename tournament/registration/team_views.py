"""The organiser's teams page (docs/rules.md §11): teams made by hand or one per department in one
click, entrants assigned by their numbers, substitutes registered. Thin: each form calls a service of
:mod:`tournament.registration.teams`; a refusal is shown on the page and changes nothing."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.errors import UserError, form_errors_text, user_error_on_form
from tournament.registration import teams
from tournament.registration.forms import TeamForm, TeamMemberForm, TeamSeedForm
from tournament.registration.models import Pair, Team, Tournament
from tournament.registration.roles import organiser_view


def _pairs_by_number(tournament: Tournament, numbers: list[int]) -> list[Pair]:
    """The entrants of ``numbers`` in that order; an unknown number is refused by name."""
    found = {pair.number: pair for pair in Pair.objects.filter(tournament=tournament, number__in=numbers)}
    missing = [str(number) for number in numbers if number not in found]
    if missing:
        raise UserError.of_fields(
            {"members": _("No entrant has the number %(numbers)s.") % {"numbers": ", ".join(missing)}}
        )
    return [found[number] for number in numbers]


@organiser_view
def team_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TeamForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            team = teams.team_create(
                tournament=tournament,
                name=form.cleaned_data["name"],
                pairs=_pairs_by_number(tournament, form.numbers()),
                user=request.user,
            )
        except UserError as error:
            user_error_on_form(form, error)
        else:
            messages.success(request, _("Team %(team)s made.") % {"team": team.name})
            return redirect("registration:teams", tournament_id=tournament.pk)
    listed = list(teams.teams_with_members(tournament=tournament))
    free = list(teams.pairs_free(tournament=tournament)[:500])
    context = {
        "tournament": tournament,
        "teams": listed,
        "form": form,
        "member_form": TeamMemberForm(),
        "free": free,
        "free_count": teams.pairs_free(tournament=tournament).count(),
        "short": [team for team in listed if len(team.members.all()) < teams.TEAM_MIN_MEMBERS],
        "departments": tournament.departments.exists(),
    }
    return render(request, "registration/team_list.html", context)


@require_POST
@organiser_view
def teams_from_departments(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        done = teams.teams_from_departments(tournament=tournament, user=request.user)
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("%(created)d teams made, %(added)d entrants placed in their department's team.")
            % {"created": len(done.created), "added": done.added},
        )
        if done.skipped:
            messages.warning(
                request,
                _("No team for %(departments)s: fewer than two entrants not yet in a team (a team has at least two).")
                % {"departments": "、".join(done.skipped)},
            )
    return redirect("registration:teams", tournament_id=tournament.pk)


@require_POST
@organiser_view
def team_member_add(request: HttpRequest, tournament: Tournament, team_id: int) -> HttpResponse:
    team = get_object_or_404(Team.objects.filter(tournament=tournament), pk=team_id)
    form = TeamMemberForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors_text(form))
        return redirect("registration:teams", tournament_id=tournament.pk)
    try:
        (pair,) = _pairs_by_number(tournament, [form.cleaned_data["number"]])
        if form.cleaned_data["substitute"]:
            teams.team_substitute_add(team=team, pair=pair, user=request.user)
        else:
            teams.team_member_add(team=team, pair=pair, user=request.user)
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(pair)s joined %(team)s.") % {"pair": pair.name, "team": team.name})
    return redirect(reverse("registration:teams", args=[tournament.pk]) + f"#team-{team.pk}")


@require_POST
@organiser_view
def team_seed_set(request: HttpRequest, tournament: Tournament, team_id: int) -> HttpResponse:
    """The organiser's seed of a team (empty: none), for a knockout of teams seeded by seeds."""
    team = get_object_or_404(Team.objects.filter(tournament=tournament), pk=team_id)
    form = TeamSeedForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors_text(form))
    else:
        try:
            teams.team_seed_set(team=team, seed=form.cleaned_data["seed"], user=request.user)
        except UserError as error:
            messages.error(request, error.message)
        else:
            seed = form.cleaned_data["seed"]
            if seed is None:
                messages.success(request, _("%(team)s has no seed.") % {"team": team.name})
            else:
                messages.success(request, _("%(team)s is seed %(seed)d.") % {"team": team.name, "seed": seed})
    return redirect(reverse("registration:teams", args=[tournament.pk]) + f"#team-{team.pk}")


@require_POST
@organiser_view
def team_member_remove(request: HttpRequest, tournament: Tournament, team_id: int, pair_id: int) -> HttpResponse:
    team = get_object_or_404(Team.objects.filter(tournament=tournament), pk=team_id)
    pair = get_object_or_404(Pair.objects.filter(tournament=tournament), pk=pair_id)
    try:
        teams.team_member_remove(team=team, pair=pair, user=request.user)
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(pair)s left %(team)s.") % {"pair": pair.name, "team": team.name})
    return redirect("registration:teams", tournament_id=tournament.pk)


@require_POST
@organiser_view
def team_delete(request: HttpRequest, tournament: Tournament, team_id: int) -> HttpResponse:
    team = get_object_or_404(Team.objects.filter(tournament=tournament), pk=team_id)
    try:
        teams.team_delete(team=team, user=request.user)
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Team %(team)s deleted; its members are in no team.") % {"team": team.name})
    return redirect("registration:teams", tournament_id=tournament.pk)
