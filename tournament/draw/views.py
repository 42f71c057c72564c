"""Organiser pages of the draw: stages, generating and editing a round, referees, the draw sheet.

Thin views: a form checks the shape, a service in ``tournament.draw.services`` does the work and
raises ``UserError`` with a message for the organiser. Every lookup is scoped to the
organiser's tournament (``organiser_view``): anything else is 404.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.team_matches import Table as ScoringTable
from scoring.team_matches import TeamMatchReason, TeamMatchResult, TeamMatchStatus
from tournament import labels
from tournament.draw import edits, referee_assignments, services
from tournament.draw import stages as draw_stages
from tournament.draw.advancement_flags import advancement_flag_resolve
from tournament.draw.forms import (
    AdvanceForm,
    AdvancementFlagForm,
    MoveForm,
    RefereePlanForm,
    RoundDrawForm,
    RoundFlagForm,
    StageForm,
    SwapForm,
    TableAreaForm,
    TablesByHandForm,
)
from tournament.draw.pairing import DrawWarning
from tournament.draw.points_forms import PointsStageForm
from tournament.draw.round_flags import round_flag_resolve
from tournament.draw.selectors import (
    round_lines,
    round_matches,
    round_referee_loads,
    round_seats,
    round_table_referees,
    round_warnings,
    stage_decided,
)
from tournament.draw.team_knockout import team_match_extra_deal_record
from tournament.draw.team_matches import team_line_up_set
from tournament.errors import USER_ERRORS, UserError, user_error_of, user_error_on_form
from tournament.games.shown_rules import stage_rules_lines, stage_rules_title
from tournament.matches.correction_selectors import stage_flags_get
from tournament.matches.models import Match, MatchStatus, Round, RoundStatus, Stage, Table, TeamLineUp, TeamMatch
from tournament.matches.referees import referee_accounts_list
from tournament.matches.stage_options import draw_options_have
from tournament.matches.table_links import table_qr_codes
from tournament.matches.table_selectors import round_seating
from tournament.matches.team_matches import team_match_sign_off
from tournament.parsing import int_or_none
from tournament.registration.models import PairStatus, Team, Tournament
from tournament.registration.roles import organiser_view
from tournament.registration.teams import team_of_pairs, teams_short, teams_withdrawn
from tournament.standings.selectors import stage_ranking_get
from tournament.standings.team_matches import stage_team_matches_get
from tournament.standings.team_ranking import TeamRankLine, stage_team_ranking_get, team_match_table_get
from tournament.standings.teams import stage_team_total_get


def _stage(tournament: Tournament, stage_id: int) -> Stage:
    return get_object_or_404(Stage.objects.filter(tournament=tournament).select_related("tournament"), pk=stage_id)


def _round(tournament: Tournament, round_id: int) -> Round:
    rounds = Round.objects.filter(stage__tournament=tournament).select_related("stage__tournament")
    return get_object_or_404(rounds, pk=round_id)


def _warn(request: HttpRequest, warnings: list[DrawWarning]) -> None:
    for warning in warnings:
        where = _("Table %(table)s: ") % {"table": warning.table} if warning.table else ""
        messages.warning(request, where + services.warning_message(warning))


@organiser_view
def stage_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    # a three-seat game's stages are points stages (rounds, cuts, a final), not Swiss or knockout
    pages = DRAW_PAGES[tournament.entrants.key]
    form = pages.stage_form(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            stage = draw_stages.stage_create(tournament=tournament, user=request.user, **form.service_kwargs())
        except UserError as error:
            user_error_on_form(form, error)
        else:
            messages.success(request, _("Stage %(stage)s added.") % {"stage": stage.name})
            return redirect("draw:stage", tournament_id=tournament.pk, stage_id=stage.pk)
    stages = tournament.stages.order_by("order")
    context = {"tournament": tournament, "stages": stages, "form": form, "stage_fields_template": pages.stage_fields}
    return render(request, "draw/stage_list.html", context)


def _stage_page(
    request: HttpRequest,
    tournament: Tournament,
    stage: Stage,
    draw_form: RoundDrawForm,
    *,
    flag_form: AdvancementFlagForm | None = None,
    status: int = 200,
) -> HttpResponse:
    rounds = stage.rounds.order_by("number")
    # the one reader of the correction flags (the public pages, the API and the workbook read it too)
    flags = stage_flags_get(stage=stage, open_only=True)
    flag = next((item for item in flags if not item.is_round), None)
    bracket = services.stage_bracket(stage=stage)
    seeds: list[Any] = []
    if bracket is not None:  # a knockout of teams is seeded with teams (docs/rules.md §11)
        entrants = tournament.teams if stage.settings.team_match is not None else tournament.pairs
        names: dict[int | str, str] = dict(entrants.filter(pk__in=bracket.seeds).values_list("id", "name"))
        seeds = [(number, names.get(pair_id, pair_id)) for number, pair_id in enumerate(bracket.seeds, start=1)]
    advanced = stage.settings.advancement
    feeder = draw_stages.stage_entrants_missing(stage=stage)
    return render(
        request,
        "draw/stage_detail.html",
        {
            "tournament": tournament,
            "stage": stage,
            "rounds": rounds,
            "draw_form": draw_form,
            "can_draw": not rounds.filter(status=RoundStatus.DRAFT).exists(),
            "decided": stage_decided(stage=stage),
            "seeds": seeds,
            "advanced": advanced,
            "later_stages": tournament.stages.filter(order__gt=stage.order).exists(),
            # a later stage waiting for its entrants: the advance step is offered here, count filled
            "feeder": feeder,
            "feeder_count": draw_stages.advance_count_default(stage=feeder, next_stage=stage) if feeder else None,
            "rules_title": stage_rules_title(stage),
            "rules_lines": stage_rules_lines(stage),
            "flag": flag,
            "round_flags": [item for item in flags if item.is_round],
            "flag_form": flag_form or AdvancementFlagForm(),
            "team_total": stage_team_total_get(stage=stage),
            "team_matches": team_match_table_get(stage=stage),
            "has_teams": Team.objects.filter(tournament=tournament).exists(),
            "teams_not_drawn": _teams_not_drawn(stage),
        },
        status=status,
    )


def _teams_not_drawn(stage: Stage) -> str:
    """The event's teams a stage of team matches leaves out of its draws (fewer than two members: a team
    still being made, or one whose pairs were taken out), named so the organiser is told, "" if none."""
    if stage.settings.team_match is None:
        return ""
    return "、".join(team.name for team in teams_short(tournament=stage.tournament))


@require_POST
@organiser_view
def stage_teams(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """Rank teams beside the stage, or stop (docs/rules.md §11): a refusal is shown, nothing changes."""
    stage = _stage(tournament, stage_id)
    on = request.POST.get("team_total") == "1"
    count = int_or_none(request.POST.get("team_count", "")) if on else None
    try:
        draw_stages.stage_teams_set(stage=stage, team_total=on, team_count=count, user=request.user)
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Team ranking saved."))
    return redirect(reverse("draw:stage", args=[tournament.pk, stage.pk]) + "#teams")


@require_POST
@organiser_view
def stage_delete(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    stage = _stage(tournament, stage_id)
    try:
        draw_stages.stage_delete(stage=stage, user=request.user)
    except UserError as error:
        messages.error(request, error.message)
        return redirect("draw:stage", tournament_id=tournament.pk, stage_id=stage.pk)
    messages.success(request, _("Stage %(stage)s deleted.") % {"stage": stage.name})
    return redirect("draw:stages", tournament_id=tournament.pk)


@organiser_view
def stage_detail(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    return _stage_page(request, tournament, _stage(tournament, stage_id), RoundDrawForm())


@require_POST
@organiser_view
def stage_advancement_flag(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """The organiser's answer to "advancement changed": draw the stage again, or keep it."""
    stage = _stage(tournament, stage_id)
    form = AdvancementFlagForm(request.POST)
    if form.is_valid():
        try:
            advancement_flag_resolve(
                stage=stage, choice=form.cleaned_data["choice"], reason=form.cleaned_data["reason"], user=request.user
            )
        except USER_ERRORS as error:
            form.add_error(None, user_error_of(error).message)
        else:
            messages.success(request, _("Advancement decided."))
            return redirect("draw:stage", tournament_id=tournament.pk, stage_id=stage.pk)
    return _stage_page(request, tournament, stage, RoundDrawForm(), flag_form=form, status=400)


@require_POST
@organiser_view
def round_generate(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    stage = _stage(tournament, stage_id)
    form = RoundDrawForm(request.POST)
    if form.is_valid():
        try:
            round_ = services.round_draw(
                stage=stage,
                seed=form.cleaned_data["seed"],
                allow_rematches=form.cleaned_data["allow_rematches"],
                user=request.user,
            )
        except UserError as error:
            user_error_on_form(form, error)
        else:
            messages.success(request, _("Round %(number)d drawn: check it, then publish.") % {"number": round_.number})
            left_out = _teams_not_drawn(stage)
            if left_out:
                messages.warning(request, _("Not drawn, fewer than two members: %(teams)s.") % {"teams": left_out})
            return redirect("draw:round", tournament_id=tournament.pk, round_id=round_.pk)
    return _stage_page(request, tournament, stage, form)


def _advance_target(request: HttpRequest, tournament: Tournament, later: list[tuple[int, str]]) -> Stage | None:
    """The stage the advance page advances into: the one posted, else ``?next=``, else the first later
    stage (its kind says whether pairs or teams are offered)."""
    ids = [pk for pk, _name in later]
    wanted = int_or_none(str(request.POST.get("next_stage") or request.GET.get("next") or ""), low=1)
    chosen = wanted if wanted in ids else (ids[0] if ids else None)
    return _stage(tournament, chosen) if chosen is not None else None


@organiser_view
def stage_advance(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    stage = _stage(tournament, stage_id)
    later = list(tournament.stages.filter(order__gt=stage.order).order_by("order").values_list("pk", "name"))
    target = _advance_target(request, tournament, later)
    teams = target is not None and target.settings.team_match is not None
    rows = [] if teams else stage_ranking_get(stage=stage).rows_with_pairs()
    team_rows: list[tuple[TeamRankLine, bool]] = []
    points_title = ""
    if teams:  # into a stage of team matches the teams advance, by this stage's team ranking (docs/rules.md §11)
        ranking = stage_team_ranking_get(stage=stage)
        if ranking is not None:
            points_title = _("Team match points") if ranking.team_match else str(ranking.words.points)
        gone = teams_withdrawn(tournament_id=tournament.pk)
        team_rows = [(line, line.team_id in gone) for line in (ranking.lines if ranking is not None else ())]
        choices = [(line.team_id, f"{line.rank}. {line.name}") for line, withdrawn in team_rows if not withdrawn]
    else:
        active = set(tournament.pairs.exclude(status=PairStatus.WITHDRAWN).values_list("id", flat=True))
        choices = [(pair.pk, f"{row.rank}. {pair.name}") for row, pair in rows if pair.pk in active]
    form = AdvanceForm(
        request.POST or None,
        stages=later,
        pairs=choices,
        advancing=_("Teams advancing") if teams else str(tournament.entrants.words["advancing"]),
        initial={
            "count": draw_stages.advance_count_default(stage=stage, next_stage=target),
            "next_stage": target.pk if target is not None else None,
        },
    )
    if request.method == "POST" and form.is_valid():
        next_stage = _stage(tournament, form.cleaned_data["next_stage"])
        try:
            draw_stages.stage_advance(
                stage=stage,
                next_stage=next_stage,
                count=form.cleaned_data["count"],
                overrides=form.overrides(),
                reason=form.cleaned_data["reason"],
                user=request.user,
            )
        except UserError as error:
            user_error_on_form(form, error)
        else:
            message = _("The teams advance into %(stage)s.") if next_stage.settings.team_match is not None else None
            messages.success(request, (message or _("The pairs advance into %(stage)s.")) % {"stage": next_stage.name})
            return redirect("draw:stage", tournament_id=tournament.pk, stage_id=next_stage.pk)
    return render(
        request,
        "draw/stage_advance.html",
        {
            "tournament": tournament,
            "stage": stage,
            "rows": rows,
            "teams": teams,
            "team_rows": team_rows,
            "points_title": points_title,
            "target": target,
            "later": later,
            "form": form,
            "has_later": bool(later),
        },
    )


@organiser_view
def round_detail(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    """A round's draw (the draft preview before publishing): tables in pages of
    :data:`ROUND_PAGE_SIZE` (2,500 on one page were 1.8 MB and seconds), or only those with a
    warning (``?problems=1``); the counts are of the whole round."""
    return _round_page(request, tournament, _round(tournament, round_id))


def _round_page(
    request: HttpRequest,
    tournament: Tournament,
    round_: Round,
    *,
    flag_form: RoundFlagForm | None = None,
    status: int = 200,
) -> HttpResponse:
    return DRAW_PAGES[tournament.entrants.key].round_page(
        request, tournament, round_, flag_form=flag_form, status=status
    )


def _sides_round(
    request: HttpRequest,
    tournament: Tournament,
    round_: Round,
    *,
    flag_form: RoundFlagForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """A round of two sides: its tables in pages, their warnings, swaps and moves while a draft."""
    flag = next(
        (
            item
            for item in stage_flags_get(stage=round_.stage_id, open_only=True)
            if item.is_round and item.round_number == round_.number
        ),
        None,
    )
    has_results = services.round_has_results(round_=round_)
    warnings = round_warnings(round_=round_)
    problem_counts = {pk: sum(w.code != "bye" for w in found) for pk, found in warnings.items()}
    draft = round_.status == RoundStatus.DRAFT
    only_problems = request.GET.get("problems") == "1"
    matches = round_matches(round_=round_)
    if only_problems:
        matches = matches.filter(pk__in=[pk for pk, count in problem_counts.items() if count])
    page = Paginator(matches, ROUND_PAGE_SIZE).get_page(request.GET.get("page"))
    counts = round_.matches.aggregate(
        tables=Count("pk", filter=Q(table__isnull=False)), byes=Count("pk", filter=Q(ew_pair=None))
    )
    return render(
        request,
        "draw/round_detail.html",
        {
            "tournament": tournament,
            "round": round_,
            "stage": round_.stage,
            "lines": round_lines(round_=round_, warnings=warnings, matches=page.object_list),
            "page": page,
            "page_query": "problems=1" if only_problems else "",
            "only_problems": only_problems,
            "tables": counts["tables"],
            "byes": counts["byes"],
            "problems": sum(problem_counts.values()),
            "draft": draft,
            "swap_form": SwapForm(round_=round_) if draft else None,
            "move_form": MoveForm(round_=round_) if draft else None,
            "can_unpublish": not draft and not has_results,
            "flag": flag,
            "flag_form": flag_form or RoundFlagForm(played=flag is not None and has_results),  # then only kept
            "team_matches": round_.stage.settings.team_match is not None,
        },
        status=status,
    )


@require_POST
@organiser_view
def round_flag(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    """The organiser's answer to a round drawn from standings a correction changed: draw it again
    or keep it, with a reason (``draw.round_flags``)."""
    round_ = _round(tournament, round_id)
    form = RoundFlagForm(request.POST)
    if form.is_valid():
        try:
            _flag, now = round_flag_resolve(
                round_=round_, choice=form.cleaned_data["choice"], reason=form.cleaned_data["reason"], user=request.user
            )
        except USER_ERRORS as error:
            form.add_error(None, user_error_of(error).message)
        else:
            if now.pk != round_.pk:
                messages.success(request, _("Round drawn again from the corrected standings: check it, then publish."))
            else:
                messages.success(request, _("Round kept as drawn."))
            return redirect("draw:round", tournament_id=tournament.pk, round_id=now.pk)
    return _round_page(request, tournament, round_, flag_form=form, status=400)


def _three_seat_round(
    request: HttpRequest,
    tournament: Tournament,
    round_: Round,
    *,
    flag_form: RoundFlagForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """A three-seat round (Dou Dizhu): its tables with the seats E/S/W, its byes, publish."""
    draft = round_.status == RoundStatus.DRAFT
    seating = round_seating(round_=round_, referees=True)
    return render(
        request,
        "draw/round_three_seats.html",
        {
            "tournament": tournament,
            "round": round_,
            "stage": round_.stage,
            "seating": seating,
            "draft": draft,
            "can_unpublish": not draft and not services.round_has_results(round_=round_),
        },
    )


ROUND_PAGE_SIZE = 100


@require_POST
@organiser_view
def round_swap(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    round_ = _round(tournament, round_id)
    form = SwapForm(request.POST, round_=round_)
    if not form.is_valid():
        messages.error(request, _("Choose two pairs of this round."))
    else:
        try:
            warnings = edits.round_pairs_swap(
                round_=round_,
                first_pair_id=form.cleaned_data["first"],
                second_pair_id=form.cleaned_data["second"],
                user=request.user,
            )
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("The two pairs were swapped."))
            _warn(request, warnings)
    return redirect("draw:round", tournament_id=tournament.pk, round_id=round_.pk)


@require_POST
@organiser_view
def round_move(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    round_ = _round(tournament, round_id)
    form = MoveForm(request.POST, round_=round_)
    if not form.is_valid():
        messages.error(request, _("Choose a match and a table number."))
    else:
        match = get_object_or_404(Match.objects.filter(round=round_), pk=form.cleaned_data["match"])
        try:
            warnings = edits.match_table_move(match=match, table_number=form.cleaned_data["table"], user=request.user)
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("The match was moved."))
            _warn(request, warnings)
    return redirect("draw:round", tournament_id=tournament.pk, round_id=round_.pk)


@require_POST
@organiser_view
def round_publish(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    round_ = _round(tournament, round_id)
    try:
        services.round_publish(round_=round_, user=request.user)
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Round %(number)d published.") % {"number": round_.number})
    return redirect("draw:round", tournament_id=tournament.pk, round_id=round_.pk)


@require_POST
@organiser_view
def round_unpublish(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    round_ = _round(tournament, round_id)
    try:
        services.round_unpublish(round_=round_, user=request.user, reason=request.POST.get("reason", ""))
    except UserError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Round %(number)d is a draft again.") % {"number": round_.number})
    return redirect("draw:round", tournament_id=tournament.pk, round_id=round_.pk)


@require_POST
@organiser_view
def round_delete(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    round_ = _round(tournament, round_id)
    try:
        services.round_delete(round_=round_, user=request.user)
    except UserError as error:
        messages.error(request, error.message)
        return redirect("draw:round", tournament_id=tournament.pk, round_id=round_.pk)
    messages.success(request, _("The draft was deleted."))
    return redirect("draw:stage", tournament_id=tournament.pk, stage_id=round_.stage_id)


def _referee_settings(round_: Round) -> dict[str, Any]:
    """This round's referee settings, else the latest earlier round's of the tournament."""
    if round_.draw_settings.referees is not None:
        return dict(round_.draw_settings.referees)
    earlier = (
        Round.objects.filter(draw_options_have("referees"), stage__tournament_id=round_.stage.tournament_id)
        .exclude(pk=round_.pk)
        .order_by("-stage__order", "-number")
        .first()
    )
    return dict(earlier.draw_settings.referees or {}) if earlier else {}


@organiser_view
def round_referees(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    """The round's referees: the automatic plan, tables by hand, and who has which tables."""
    round_ = _round(tournament, round_id)
    settings = _referee_settings(round_)
    referees = list(referee_accounts_list(tournament=tournament))
    areas = {int(r["id"]): r.get("area", "") for r in settings.get("referees", [])}
    tables = round_.matches.filter(table__isnull=False).count()
    action = request.POST.get("action", "plan") if request.method == "POST" else None
    form = RefereePlanForm(
        request.POST if action == "plan" else None,
        referees=referees,
        initial_areas=areas,
        initial={
            "tables_per_referee": settings.get("tables_per_referee") or max(1, -(-tables // max(1, len(referees)))),
            "by_area": settings.get("by_area", False),
        },
    )
    by_hand = TablesByHandForm(request.POST if action == "hand" else None, referees=referees, prefix="hand")
    if action == "plan" and form.is_valid():
        try:
            plan = referee_assignments.round_referees_assign(
                round_=round_,
                referees=form.referees(),
                tables_per_referee=form.cleaned_data["tables_per_referee"],
                by_area=form.cleaned_data["by_area"],
                replace=form.cleaned_data["replace"],
                user=request.user,
            )
        except UserError as error:
            user_error_on_form(form, error)
        else:
            messages.success(request, _("Referees assigned."))
            _warn(request, [w for item in plan for w in item.warnings])
            return redirect("draw:referees", tournament_id=tournament.pk, round_id=round_.pk)
    if action == "hand" and by_hand.is_valid():
        data = by_hand.cleaned_data
        try:
            count = referee_assignments.round_tables_assign(
                round_=round_,
                referee=by_hand.referee_user(),
                first=data["first"],
                last=data["last"],
                area=(data["area"] or "").strip() or None,
                user=request.user,
            )
        except UserError as error:
            user_error_on_form(by_hand, error)
        else:
            messages.success(request, _("%(count)d tables assigned.") % {"count": count})
            return redirect("draw:referees", tournament_id=tournament.pk, round_id=round_.pk)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "draw/round_referees.html",
        {
            "tournament": tournament,
            "round": round_,
            "stage": round_.stage,
            "form": form,
            "by_hand": by_hand,
            "loads": round_referee_loads(round_=round_),
            # pages of ROUND_PAGE_SIZE: 2,500 tables took a second and more to list
            "page": Paginator(round_table_referees(round_=round_), ROUND_PAGE_SIZE).get_page(request.GET.get("page")),
        },
        status=status,
    )


@organiser_view
def round_sheet(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    round_ = _round(tournament, round_id)
    return DRAW_PAGES[tournament.entrants.key].round_sheet(request, tournament, round_)


def _three_seat_sheet(request: HttpRequest, tournament: Tournament, round_: Round) -> HttpResponse:
    """Tables of three, seats E/S/W, the wall list by name (Dou Dizhu)."""
    seating = round_seating(round_=round_, referees=True)
    return render(
        request,
        "draw/round_sheet_three_seats.html",
        {"tournament": tournament, "round": round_, "stage": round_.stage, "seating": seating},
    )


def _sides_sheet(request: HttpRequest, tournament: Tournament, round_: Round) -> HttpResponse:
    """The wall sheet of a round of two sides: its tables, the seats by name, a QR code a table; in a
    round of team matches each pair's team and each table's team match and letter (players look for
    their team on the wall)."""
    letters: dict[int, tuple[int, str]] = {}  # a table's match → its team match's number and letter
    teams: dict[int, str] = {}
    if round_.stage.settings.team_match is not None:
        for number, table_a, table_b in TeamMatch.objects.filter(round=round_).values_list(
            "number", "table_a_id", "table_b_id"
        ):
            letters.update({table_a: (number, "a"), table_b: (number, "b")})
        teams = {pair_id: team.name for pair_id, team in team_of_pairs(tournament=tournament).items()}
    return render(
        request,
        "draw/round_sheet.html",
        {
            "tournament": tournament,
            "round": round_,
            "stage": round_.stage,
            "lines": round_lines(round_=round_, with_warnings=False),
            "seats": round_seats(round_=round_),
            "qr_codes": table_qr_codes(request=request, round_=round_, scale=2),
            "table_letters": letters,
            "pair_teams": teams,
        },
    )


@dataclass(frozen=True, slots=True)
class DrawPages:
    """The organiser's draw pages of an event of one entrant kind."""

    stage_form: type[StageForm] | type[PointsStageForm]
    stage_fields: str
    """The stage form's fields on the stage list (a template)."""
    round_page: Callable[..., HttpResponse]
    round_sheet: Callable[[HttpRequest, Tournament, Round], HttpResponse]


DRAW_PAGES: dict[str, DrawPages] = {
    "pairs": DrawPages(
        stage_form=StageForm,
        stage_fields="draw/_stage_fields.html",
        round_page=_sides_round,
        round_sheet=_sides_sheet,
    ),
    "players": DrawPages(
        stage_form=PointsStageForm,
        stage_fields="draw/_stage_fields_points.html",
        round_page=_three_seat_round,
        round_sheet=_three_seat_sheet,
    ),
}
"""The draw pages of each entrant kind (``tournament.games.entrants``), by its key."""


@organiser_view
def table_areas(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TableAreaForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            count = edits.table_areas_set(tournament=tournament, **form.cleaned_data)
        except UserError as error:
            user_error_on_form(form, error)
        else:
            messages.success(request, _("%(count)d tables updated.") % {"count": count})
            return redirect("draw:tables", tournament_id=tournament.pk)
    areas: dict[str, list[int]] = {}
    for number, area in Table.objects.filter(tournament=tournament).order_by("number").values_list("number", "area"):
        areas.setdefault(area, []).append(number)
    rows = [(area, labels.table_ranges(numbers), len(numbers)) for area, numbers in sorted(areas.items())]
    return render(request, "draw/tables.html", {"tournament": tournament, "form": form, "areas": rows})


def _deciding_table(row: TeamMatch, result: TeamMatchResult) -> tuple[str, Match] | None:
    """The table (its letter and match) where a drawn knockout team match's tie-break deal is played,
    while the team match waits for it (docs/rules.md §11); None otherwise."""
    if result.status is not TeamMatchStatus.NEEDS_EXTRA_DEAL or result.deciding_table is None:
        return None
    match = row.table_a if result.deciding_table is ScoringTable.A else row.table_b
    return (result.deciding_table.value, match) if match is not None else None


def _signed_off(row: TeamMatch) -> bool:
    """Both tables of the team match are signed off (a bye's has none): nothing is left to sign off."""
    tables = [table for table in (row.table_a, row.table_b) if table is not None]
    return bool(tables) and all(table.status == MatchStatus.CONFIRMED for table in tables)


def _results_in(row: TeamMatch) -> bool:
    """Both tables have their result (finished or signed off): the team match can be signed off."""
    tables = [table for table in (row.table_a, row.table_b) if table is not None]
    return bool(tables) and all(table.status not in (MatchStatus.PENDING, MatchStatus.RUNNING) for table in tables)


@organiser_view
def round_team_matches(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    """A round's team matches (docs/rules.md §11): each with its two tables, their state and the team
    match's result as the rules core decides it; a team match is signed off here (both tables at once:
    refused while a table has no result; not offered once signed off, nor while it waits for its tie-break
    deal), the line-ups are changed while the round is a draft, and the winning side of a drawn knockout
    team match's tie-break deal is recorded while it waits for one. An archived event's page offers no
    form (its services refuse them; the read-only note says why)."""
    round_ = _round(tournament, round_id)
    rows = {
        row.pk: row
        for row in TeamMatch.objects.filter(round=round_).select_related(
            "table_a__table",
            "table_a__ns_pair",
            "table_a__ew_pair",
            "table_b__table",
            "table_b__ns_pair",
            "table_b__ew_pair",
        )
    }
    if not rows:
        raise Http404
    if request.method == "POST":
        try:
            if request.POST.get("action") == "line_up":
                team = get_object_or_404(Team, tournament=tournament, pk=int_or_none(request.POST.get("team")) or 0)
                pairs = tournament.pairs.all()
                team_line_up_set(
                    round_=round_,
                    team=team,
                    first=get_object_or_404(pairs, pk=int_or_none(request.POST.get("first")) or 0),
                    second=get_object_or_404(pairs, pk=int_or_none(request.POST.get("second")) or 0),
                    user=request.user,
                )
                messages.success(request, _("Line-up saved: the tables are seated again."))
            elif request.POST.get("action") == "extra_deal":
                row = rows.get(int_or_none(request.POST.get("team_match")) or 0)
                if row is None:
                    raise Http404
                team_match_extra_deal_record(team_match=row, side=request.POST.get("side", ""), user=request.user)
                messages.success(request, _("Tie-break deal recorded: the team match is decided."))
            else:
                row = rows.get(int_or_none(request.POST.get("team_match")) or 0)
                if row is None:
                    raise Http404
                team_match_sign_off(team_match=row, user=request.user)
                messages.success(request, _("Team match signed off."))
        except UserError as error:
            messages.error(request, error.message)
        return redirect("draw:round_team_matches", tournament_id=tournament.pk, round_id=round_.pk)
    played = stage_team_matches_get(stage=round_.stage)
    line_ups = {
        line_up.team_id: line_up
        for line_up in TeamLineUp.objects.filter(round=round_).select_related("first", "second")
    }
    members = {  # the line-up's choices, a substitute marked
        team.pk: list(team.members.select_related("pair").order_by("position"))
        for team in Team.objects.filter(tournament=tournament)
    }
    lines = [
        {
            "row": rows[line.id],
            "line": line,
            "x": played.names.get(line.x, ""),
            "y": played.names.get(line.y, "") if line.y is not None else "",
            "walkover_over": played.names.get(line.walkover_over, "") if line.walkover_over is not None else "",
            "winner": played.names.get(int(line.result.winner), "") if line.result.winner else "",
            "extra_deal": line.result.reason is TeamMatchReason.EXTRA_DEAL,
            "deciding": _deciding_table(rows[line.id], line.result),
            "signed_off": _signed_off(rows[line.id]),
            "ready": _results_in(rows[line.id]),
            "teams": [
                (team_id, played.names.get(team_id, ""), line_ups.get(team_id), members.get(team_id, []))
                for team_id in (line.x, line.y)
                if team_id is not None
            ],
        }
        for line in played.of_round(round_.number)
    ]
    return render(
        request,
        "draw/round_team_matches.html",
        {"tournament": tournament, "round": round_, "lines": lines, "draft": round_.status == RoundStatus.DRAFT},
    )
