"""Registration pages: thin views that validate a form and call a service."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.errors import UserError, user_error_on_form
from tournament.htmx import HtmxHttpRequest
from tournament.parsing import int_or_none
from tournament.registration import services
from tournament.registration.forms import PLAYER_PREFIXES, DepartmentForm, PairForm, RosterImportForm, TournamentForm
from tournament.registration.models import Department, Game, Pair, Team, Tournament, TournamentStatus
from tournament.registration.roles import (
    organiser_view,
    tournaments_organised,
    user_can_create_tournaments,
)
from tournament.registration.roster import ROSTERS, RosterImportError, roster_import, roster_template
from tournament.registration.selectors import (
    PAIR_PAGE_SIZE,
    checkin_counts,
    checkin_page,
    checkin_row,
    pairs_with_players,
)


def home_groups(request: HttpRequest) -> list[dict[str, Any]]:
    """The home page's events (``tournament.site.views.home``, which adds the series) grouped by status:
    under way first, then coming, then past (each capped)."""
    shown: tuple[TournamentStatus, ...] = (
        TournamentStatus.RUNNING,
        TournamentStatus.CHECK_IN,
        TournamentStatus.REGISTRATION,
        TournamentStatus.FINISHED,
        TournamentStatus.ARCHIVED,
    )
    listed = Tournament.objects.filter(status__in=shown)
    if request.user.is_authenticated and (request.user.is_superuser or user_can_create_tournaments(request.user)):
        shown = (*shown[:3], TournamentStatus.DRAFT, *shown[3:])  # a draft is its organisers', not public
        listed = Tournament.objects.filter(status__in=shown)
        if not request.user.is_superuser:
            own = tournaments_organised(user=request.user)
            listed = listed.filter(~Q(status=TournamentStatus.DRAFT) | Q(pk__in=own))
    tournaments = list(listed.annotate(pair_count=Count("pairs")).order_by("-created_at", "-id")[:200])
    groups = []
    for status in shown:
        members = [tournament for tournament in tournaments if tournament.status == status][:50]
        if members:
            groups.append({"status": TournamentStatus(status), "tournaments": members})
    return groups


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    if not user_can_create_tournaments(request.user):
        raise PermissionDenied
    game = request.POST.get("game") or request.GET.get("game") or Game.GUANDAN
    form = TournamentForm(request.POST or None, game=game)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(organiser=request.user, **form.cleaned_data)
        except UserError as error:
            user_error_on_form(form, error)
        else:
            messages.success(request, _("Tournament created."))
            return redirect("registration:pairs", tournament_id=tournament.pk)
    games = [(value, label) for value, label in Game.choices]
    context = {"form": form, "games": games, "game": form.game_chosen}
    return render(request, "registration/tournament_form.html", context)


@organiser_view
def pair_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    kind = tournament.entrants
    form = PairForm(request.POST or None, kind=kind)
    if request.method == "POST" and form.is_valid():
        try:
            pair = services.REGISTRARS[kind.key].enter(
                tournament=tournament, players=form.players(), seed=form.cleaned_data["seed"]
            )
        except UserError as error:
            user_error_on_form(form, error)
        else:
            messages.success(request, str(kind.words["registered"]) % {"pair": pair.name})
            # the form stays open for the next pair (a roster typed in at the desk)
            return redirect(reverse("registration:pairs", args=[tournament.pk]) + "?add=1")
    query = request.GET.get("q", "")[:60]
    pairs = pairs_with_players(tournament=tournament, query=query)
    page = Paginator(pairs, PAIR_PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "tournament": tournament,
        "pairs": page,
        "page": page,
        "count_text": kind.words["counted"] % {"counter": page.paginator.count},
        "query": query.strip(),
        "page_query": urlencode({"q": query.strip()}) if query.strip() else "",
        "form": form,
        "adding": request.GET.get("add") == "1",
    }
    return render(request, "registration/pair_list.html", context)


@organiser_view
def pair_edit(request: HttpRequest, tournament: Tournament, pair_id: int) -> HttpResponse:
    pair = get_object_or_404(Pair.objects.filter(tournament=tournament), pk=pair_id)
    members = [member.player for member in pair.members.select_related("player__department").order_by("slot")]
    initial: dict[str, Any] = {"seed": pair.seed}
    kind = tournament.entrants
    for prefix, player in zip(PLAYER_PREFIXES[: kind.members], members, strict=True):
        initial.update(
            {
                f"{prefix}_name": player.name,
                f"{prefix}_employee_number": player.employee_number,
                f"{prefix}_department": player.department.name if player.department else "",
                f"{prefix}_phone": player.phone,
            }
        )
    form = PairForm(request.POST or None, initial=initial, kind=kind)
    if request.method == "POST" and form.is_valid():
        try:
            pair = services.REGISTRARS[kind.key].edit(pair=pair, players=form.players(), seed=form.cleaned_data["seed"])
        except UserError as error:
            user_error_on_form(form, error)
        else:
            messages.success(request, _("%(pair)s saved.") % {"pair": pair.name})
            return redirect("registration:pairs", tournament_id=tournament.pk)
    return render(request, "registration/pair_form.html", {"tournament": tournament, "pair": pair, "form": form})


@require_POST
@organiser_view
def pair_withdraw(request: HttpRequest, tournament: Tournament, pair_id: int) -> HttpResponse:
    pair = get_object_or_404(Pair.objects.filter(tournament=tournament), pk=pair_id)
    services.pair_withdraw(pair=pair)
    messages.success(request, _("%(pair)s withdrawn.") % {"pair": pair.name})
    return redirect("registration:pairs", tournament_id=tournament.pk)


@organiser_view
def department_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = DepartmentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.department_get_or_create(tournament=tournament, name=form.cleaned_data["name"])
        except UserError as error:
            user_error_on_form(form, error)
        else:
            return redirect("registration:departments", tournament_id=tournament.pk)
    departments = Department.objects.filter(tournament=tournament).annotate(player_count=Count("players"))
    return render(
        request,
        "registration/department_list.html",
        {"tournament": tournament, "departments": departments, "form": form},
    )


def _page_number(request: HttpRequest) -> int:
    page = int_or_none(request.GET.get("page", "1"))
    return 1 if page is None else max(1, min(page, 10_000))


@organiser_view
def check_in(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The door: every pair, those still to come first, paged, searchable."""
    query = request.GET.get("q", "").strip()[:60]
    team_id = int_or_none(request.GET.get("team", ""))
    team = Team.objects.filter(tournament=tournament, pk=team_id).first() if team_id is not None else None
    page = checkin_page(tournament=tournament, query=query, page=_page_number(request), team=team)
    template = "registration/_checkin_results.html" if request.htmx else "registration/checkin.html"
    return render(
        request,
        template,
        {
            "tournament": tournament,
            "page": page,
            "pairs": page.pairs,
            "counts": page.counts,
            "query": query,
            "team": team,
            "teams": list(Team.objects.filter(tournament=tournament).order_by("number").values("pk", "name")),
        },
    )


@require_POST
@organiser_view
def check_in_toggle(request: HtmxHttpRequest, tournament: Tournament, pair_id: int) -> HttpResponse:
    pair = get_object_or_404(Pair.objects.filter(tournament=tournament), pk=pair_id)
    refusal = ""
    try:
        services.pair_check_in(pair=pair, checked_in=request.POST.get("undo") != "1")
    except UserError as error:
        refusal = error.message
        if not request.htmx:
            messages.error(request, refusal)
    if request.htmx:
        # The row answers in place, with the reason when the tap was refused.
        row = checkin_row(tournament=tournament, pair_id=pair.pk)
        return render(
            request,
            "registration/_checkin_row.html",
            {
                "tournament": tournament,
                "pair": row,
                "counts": checkin_counts(tournament=tournament),
                "oob": True,
                "refusal": refusal,
            },
        )
    url = reverse("registration:checkin", kwargs={"tournament_id": tournament.pk})
    return redirect(f"{url}?{urlencode({'q': request.POST.get('q', ''), 'page': request.POST.get('page', '1')})}")


@organiser_view
def roster_upload(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = RosterImportForm(request.POST or None, request.FILES or None)
    errors = []
    if request.method == "POST" and form.is_valid():
        try:
            result = roster_import(tournament=tournament, file=form.cleaned_data["file"], user=request.user)
        except RosterImportError as error:
            errors = error.errors
        except UserError as error:  # the event itself refuses (finished, archived): nothing was read
            messages.error(request, error.message)
        else:
            done = tournament.entrants.words["imported"]
            messages.success(request, str(done) % {"players": result.players, "pairs": result.pairs})
            if result.team_members:
                messages.success(
                    request, _("%(count)d entrants placed in their teams.") % {"count": result.team_members}
                )
            return redirect("registration:pairs", tournament_id=tournament.pk)
    return render(
        request, "registration/roster_import.html", {"tournament": tournament, "form": form, "errors": errors}
    )


def roster_template_download(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("kind", "pairs")  # an entrant kind's key (Dou Dizhu: "players", no partner column)
    response = HttpResponse(
        roster_template(kind=kind if kind in ROSTERS else "pairs"),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    response["Content-Disposition"] = 'attachment; filename="roster-template.xlsx"'
    return response
