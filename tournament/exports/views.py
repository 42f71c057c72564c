"""Export pages (organisers only): the workbook with a progress bar, round sheets, prize tiers.

Thin views: they validate a form and call a service or a builder. Every lookup is scoped to a
tournament the user organises (``organiser_view``); anything else is 404.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.bounds import column_max
from tournament.errors import UserError, scoring_message
from tournament.exports import headers as h
from tournament.exports.forms import ExportForm, PrizeStageForm, PrizeTierFormSet, TeamPrizeTierFormSet
from tournament.exports.models import ExportJob, ExportKind, ExportStatus, PrizeTier, TeamPrizeTier
from tournament.exports.prizes import (
    prize_lots_draw,
    prize_stage_set,
    prize_tiers_award,
    prize_tiers_set,
    team_prize_lots_draw,
    team_prize_tiers_set,
    team_prizes_award,
)
from tournament.exports.round_sheets import (
    round_draw_build,
    round_tables,
    score_sheet_columns,
    score_sheet_rows,
    score_sheets_build,
)
from tournament.exports.services import export_job_start
from tournament.htmx import HtmxHttpRequest
from tournament.locale import ui_is_chinese
from tournament.matches.models import Round, Table
from tournament.matches.table_links import table_qr_codes
from tournament.matches.table_selectors import round_seating
from tournament.parsing import int_or_none
from tournament.registration.models import Team, Tournament
from tournament.registration.roles import organiser_view
from tournament.rules import rules_for_stage, stage_table_conduct

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _page_language() -> h.Language:
    """The sheet vocabulary matching the page's language (score sheets printed from the page)."""
    return "zh" if ui_is_chinese() else "en"


def _language(request: HttpRequest) -> h.Language:
    return "en" if request.GET.get("lang") == "en" else "zh"


def _file_name(text: str) -> str:
    """A download name that no operating system refuses."""
    return re.sub(r'[\\/:*?"<>|\x00-\x1f]+', "_", text).strip() + ".xlsx"


def _job_file_name(job: ExportJob) -> str:
    language: h.Language = "en" if job.language == "en" else "zh"
    tournament = job.tournament.name
    if job.kind == ExportKind.WORKBOOK or job.round is None:
        return _file_name(h.word("file_workbook", language, tournament=tournament))
    key = "file_round_draw" if job.kind == ExportKind.ROUND_DRAW else "file_score_sheets"
    return _file_name(h.word(key, language, tournament=tournament, stage=job.round.stage.name, round=job.round.number))


def _round(tournament: Tournament, round_id: int) -> Round:
    return get_object_or_404(
        Round.objects.filter(stage__tournament=tournament).select_related("stage__tournament"), pk=round_id
    )


@organiser_view
def export_home(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The exports page: start the workbook, the recent jobs, each round's sheets."""
    form = ExportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        job = export_job_start(tournament=tournament, language=form.cleaned_data["language"], user=request.user)
        return redirect("exports:job", tournament_id=tournament.pk, job_id=job.pk)
    rounds = (
        Round.objects.filter(stage__tournament=tournament).select_related("stage").order_by("stage__order", "number")
    )
    jobs = ExportJob.objects.filter(tournament=tournament).select_related("round__stage")[:10]
    return render(
        request, "exports/home.html", {"tournament": tournament, "form": form, "rounds": rounds, "jobs": jobs}
    )


@organiser_view
def export_job_detail(request: HtmxHttpRequest, tournament: Tournament, job_id: int) -> HttpResponse:
    """The job with its progress bar; htmx polls the status part until it is done or failed."""
    job = get_object_or_404(ExportJob.objects.filter(tournament=tournament).select_related("round__stage"), pk=job_id)
    template = "exports/_job_status.html" if request.htmx else "exports/job.html"
    return render(request, template, {"tournament": tournament, "job": job})


@organiser_view
def export_job_download(request: HttpRequest, tournament: Tournament, job_id: int) -> HttpResponseBase:
    job = get_object_or_404(
        ExportJob.objects.filter(tournament=tournament, status=ExportStatus.DONE).select_related(
            "tournament", "round__stage"
        ),
        pk=job_id,
    )
    if not job.file.name or not job.file.storage.exists(job.file.name):
        raise Http404
    return FileResponse(job.file.open("rb"), as_attachment=True, filename=_job_file_name(job), content_type=XLSX)


@require_POST
@organiser_view
def round_export_start(request: HttpRequest, tournament: Tournament, round_id: int, kind: str) -> HttpResponse:
    """A round's sheets as a background job (for very large rounds; the direct links serve most)."""
    if kind not in (ExportKind.ROUND_DRAW, ExportKind.SCORE_SHEETS):
        raise Http404
    form = ExportForm(request.POST)
    language = form.cleaned_data["language"] if form.is_valid() else "zh"
    job = export_job_start(
        tournament=tournament, kind=kind, language=language, round=_round(tournament, round_id), user=request.user
    )
    return redirect("exports:job", tournament_id=tournament.pk, job_id=job.pk)


def _xlsx_response(build: Callable[[IO[bytes]], None], name: str) -> FileResponse:
    # The response closes the file once it is sent; a failed build closes it here.
    scratch = tempfile.TemporaryFile(suffix=".xlsx")  # noqa: SIM115
    try:
        build(scratch)
    except BaseException:
        scratch.close()
        raise
    scratch.seek(0)
    return FileResponse(scratch, as_attachment=True, filename=_file_name(name), content_type=XLSX)


def _sides_draw(round_: Round) -> dict[str, object]:
    return {"tables": list(round_tables(round=round_))}


def _seats_draw(round_: Round) -> dict[str, object]:
    """Tables of three: seats E/S/W, the byes after."""
    return {"seating": round_seating(round_=round_)}


def _sides_score_tables(round_: Round, first: int | None, last: int | None) -> list[object]:
    return [table for table in round_tables(round=round_, first_table=first, last_table=last) if not table.is_bye]


def _seats_score_tables(round_: Round, first: int | None, last: int | None) -> list[object]:
    """Tables of three: the players by seat E/S/W."""
    return [table for table in round_seating(round_=round_).tables if _in_batch(table.number, first, last)]


@dataclass(frozen=True, slots=True)
class PrintedSheets:
    """The printed draw and score sheets of an event of one entrant kind."""

    draw_template: str
    draw: Callable[[Round], dict[str, object]]
    """What the draw's template shows of the round."""
    score_template: str
    score_tables: Callable[[Round, int | None, int | None], list[object]]
    """The tables that get a score sheet, those numbered ``first``..``last`` (either open)."""


PRINTED_SHEETS: dict[str, PrintedSheets] = {
    "pairs": PrintedSheets(
        draw_template="exports/round_draw.html",
        draw=_sides_draw,
        score_template="exports/score_sheets.html",
        score_tables=_sides_score_tables,
    ),
    "players": PrintedSheets(
        draw_template="exports/round_draw_three_seats.html",
        draw=_seats_draw,
        score_template="exports/score_sheets_three_seats.html",
        score_tables=_seats_score_tables,
    ),
}
"""The printed sheets of each entrant kind (``tournament.games.entrants``), by its key."""


@organiser_view
def round_draw_sheet(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponseBase:
    """The round's draw: a print-ready page, or the .xlsx with ``?format=xlsx``."""
    round_ = _round(tournament, round_id)
    language = _language(request)
    if request.GET.get("format") == "xlsx":
        name = h.word(
            "file_round_draw", language, tournament=tournament.name, stage=round_.stage.name, round=round_.number
        )
        return _xlsx_response(lambda out: round_draw_build(round=round_, target=out, language=language), name)
    codes = table_qr_codes(request=request, round_=round_, scale=2)
    sheets = PRINTED_SHEETS[tournament.entrants.key]
    return render(
        request,
        sheets.draw_template,
        {"tournament": tournament, "round": round_, **sheets.draw(round_), "qr_codes": codes},
    )


def _table_number(value: str | None) -> int | None:
    return int_or_none(value, low=1, high=column_max(Table, "number")) if value else None


def _in_batch(number: int | None, first: int | None, last: int | None) -> bool:
    """Whether table ``number`` is in the batch ``first``..``last`` (either open)."""
    if first is None and last is None:
        return True
    return number is not None and (first is None or number >= first) and (last is None or number <= last)


@organiser_view
def score_sheets(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponseBase:
    """Paper score sheets, one page per table: print-ready (``?from=&to=`` table numbers to print a
    batch), or the .xlsx with ``?format=xlsx``."""
    round_ = _round(tournament, round_id)
    language = _language(request)
    if request.GET.get("format") == "xlsx":
        name = h.word(
            "file_score_sheets", language, tournament=tournament.name, stage=round_.stage.name, round=round_.number
        )
        return _xlsx_response(lambda out: score_sheets_build(round=round_, target=out, language=language), name)
    options = rules_for_stage(round_.stage)
    first, last = _table_number(request.GET.get("from")), _table_number(request.GET.get("to"))
    columns = score_sheet_columns(stage=round_.stage, options=options)
    # The grid is the same empty rows on every sheet: built once, not once per table.
    blank = "<td></td>" * (len(columns) - 1)
    grid_rows = mark_safe(  # safe: only numbers and fixed tags
        "".join(f"<tr><td>{number}</td>{blank}</tr>" for number in range(1, score_sheet_rows(options) + 1))
    )
    sheets = PRINTED_SHEETS[tournament.entrants.key]
    return render(
        request,
        sheets.score_template,
        {
            "tournament": tournament,
            "round": round_,
            "tables": sheets.score_tables(round_, first, last),
            "column_titles": h.titles(columns, _page_language()),
            "grid_rows": grid_rows,
            "time_cap": options.time_cap_minutes or round_.time_cap_minutes,
            "conduct": stage_table_conduct(round_.stage),  # docs/rules.md §7: printed on every sheet
            "qr_codes": table_qr_codes(request=request, round_=round_, scale=2),
            "first": first,
            "last": last,
        },
    )


@organiser_view
def prizes(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Prize tiers: define them (name, how many pairs), pick the ranking, see the award list."""
    initial = [
        {"name": tier.name, "pair_count": tier.pair_count}
        for tier in PrizeTier.objects.filter(tournament=tournament).order_by("order")
    ]
    # Bound without ``initial``: a row the organiser left as it was must still count (a formset
    # skips validating an extra row that equals its initial value).
    if request.POST.get("action") == "tiers":
        tier_forms = PrizeTierFormSet(request.POST, prefix="tiers")
    else:
        tier_forms = PrizeTierFormSet(initial=initial, prefix="tiers")
    team_initial = [
        {"name": tier.name, "pair_count": tier.team_count}
        for tier in TeamPrizeTier.objects.filter(tournament=tournament).order_by("order")
    ]
    if request.POST.get("action") == "team_tiers":
        team_tier_forms = TeamPrizeTierFormSet(request.POST, prefix="team_tiers")
    else:
        team_tier_forms = TeamPrizeTierFormSet(initial=team_initial, prefix="team_tiers")
    stage_form = PrizeStageForm(
        request.POST if request.POST.get("action") == "stage" else None,
        tournament_id=tournament.pk,
        initial={"stage": getattr(getattr(tournament, "prize_ranking", None), "stage", None)},
    )
    tier_errors: list[str] = []
    team_tier_errors: list[str] = []
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "team_tiers" and team_tier_forms.is_valid():
            tiers = [tier for form in team_tier_forms.forms if (tier := form.tier()) is not None]
            try:
                team_prize_tiers_set(tournament=tournament, tiers=tiers)
            except UserError as error:
                team_tier_errors = error.messages
            else:
                messages.success(request, _("Team prizes saved."))
                return redirect(reverse("exports:prizes", args=[tournament.pk]) + "#team-prizes")
        elif action == "team_lots":
            try:
                team_prize_lots_draw(tournament=tournament, user=request.user)
            except UserError as error:
                messages.error(request, error.message)
            else:
                messages.success(request, _("Lots drawn; the seed is recorded."))
            return redirect(reverse("exports:prizes", args=[tournament.pk]) + "#team-prizes")
        if action == "tiers" and tier_forms.is_valid():
            tiers = [tier for form in tier_forms.forms if (tier := form.tier()) is not None]
            try:
                prize_tiers_set(tournament=tournament, tiers=tiers)
            except UserError as error:
                tier_errors = error.messages
            else:
                messages.success(request, _("Prize tiers saved."))
                return redirect("exports:prizes", tournament_id=tournament.pk)
        elif action == "stage" and stage_form.is_valid():
            prize_stage_set(tournament=tournament, stage=stage_form.cleaned_data["stage"])
            messages.success(request, _("Ranking for the prizes saved."))
            return redirect("exports:prizes", tournament_id=tournament.pk)
        elif action == "lots":
            prize_lots_draw(tournament=tournament, user=request.user)
            messages.success(request, _("Lots drawn; the seed is recorded."))
            return redirect("exports:prizes", tournament_id=tournament.pk)
    award_list = prize_tiers_award(tournament=tournament)
    team_awards = team_prizes_award(tournament=tournament)
    return render(
        request,
        "exports/prizes.html",
        {
            "tournament": tournament,
            "tier_forms": tier_forms,
            "tier_errors": tier_errors,
            "stage_form": stage_form,
            "award_list": award_list,
            "problem": scoring_message(award_list.problem) if award_list.problem else "",
            "has_teams": Team.objects.filter(tournament=tournament).exists(),
            "team_tier_forms": team_tier_forms,
            "team_tier_errors": team_tier_errors,
            "team_awards": team_awards,
            "team_problem": scoring_message(team_awards.problem) if team_awards.problem else "",
        },
    )
