"""The series' pages (docs/rules.md §12.3, §12.4): the public ranking with the rating, the organiser's page
(events, points table) and the workbook."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournament.errors import UserError
from tournament.exports.models import Series
from tournament.exports.series import (
    series_create,
    series_event_add,
    series_event_remove,
    series_organised,
    series_points_set,
    series_ratings_shown,
    series_standings_get,
    series_workbook,
)
from tournament.parsing import int_or_none
from tournament.registration.models import Game, Tournament
from tournament.registration.roles import tournaments_organised, user_can_create_tournaments


@require_safe
def series_page(request: HttpRequest, series_id: int) -> HttpResponse:
    series = get_object_or_404(Series, pk=series_id)
    standings = series_standings_get(series=series)
    ratings = series_ratings_shown(series=series) if series.show_rating else []
    return render(
        request,
        "exports/series.html",
        {
            "series": series,
            "standings": standings,
            "ratings": ratings,
            "places": list(enumerate(standings.table.by_place, 1)),
            "not_counted": [event for event in standings.events if event not in standings.counted],
            "lots_drawn": any(line.row.lots for line in standings.lines),
            # its organisers find their page from here (a series is reached from the home page)
            "manages": request.user.is_authenticated
            and series_organised(user=request.user).filter(pk=series.pk).exists(),
        },
    )


@require_safe
def series_download(request: HttpRequest, series_id: int) -> HttpResponse:
    series = get_object_or_404(Series, pk=series_id)
    response = HttpResponse(
        series_workbook(series=series),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    response["Content-Disposition"] = f'attachment; filename="series-{series.pk}.xlsx"'
    return response


@login_required
def series_new(request: HttpRequest) -> HttpResponse:
    if not user_can_create_tournaments(request.user):
        raise PermissionDenied
    error = ""
    if request.method == "POST":
        try:
            series = series_create(
                name=request.POST.get("name", ""), game=request.POST.get("game", ""), user=request.user
            )
        except UserError as refused:
            error = refused.message
        else:
            return redirect("exports:series_manage", series_id=series.pk)
    return render(
        request, "exports/series_new.html", {"games": Game.choices, "error": error}, status=400 if error else 200
    )


def _table_from_post(request: HttpRequest) -> object:
    """The points table as typed: one number a place (``place_1``, ``place_2`` … as many as sent) and
    ``others``; a blank place ends the table; anything else goes to the rules core, which refuses it."""
    places: dict[str, object] = {}
    for place in range(1, 101):
        raw = request.POST.get(f"place_{place}")
        if raw is None:
            break
        if raw.strip() == "":
            continue
        value = int_or_none(raw.strip())
        places[str(place)] = value if value is not None else raw
    others = request.POST.get("others", "0").strip()
    others_value = int_or_none(others)
    return {"places": places, "others": others_value if others_value is not None else others}


def _organised(request: HttpRequest) -> QuerySet[Tournament]:
    """The events the signed-in organiser runs (a series counts only its organisers' events)."""
    if request.user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(pk__in=tournaments_organised(user=request.user))


@login_required
def series_manage(request: HttpRequest, series_id: int) -> HttpResponse:
    series = get_object_or_404(series_organised(user=request.user), pk=series_id)
    error = ""
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "points":
                series_points_set(
                    series=series,
                    table=_table_from_post(request),
                    show_rating=request.POST.get("show_rating") == "on",
                    user=request.user,
                )
                messages.success(request, _("Points table saved."))
            elif action == "add":
                event_id = int_or_none(request.POST.get("tournament"))
                tournament = _organised(request).filter(pk=event_id or 0).first()
                if tournament is None:
                    raise Http404
                series_event_add(series=series, tournament=tournament, user=request.user)
                messages.success(request, _("Event added."))
            elif action == "remove":
                series_event_remove(
                    series=series, tournament_id=int_or_none(request.POST.get("tournament")) or 0, user=request.user
                )
                messages.success(request, _("Event removed."))
        except UserError as refused:
            error = refused.message
        else:
            return redirect("exports:series_manage", series_id=series.pk)
        series.refresh_from_db()
    events = series.events.order_by("starts_on", "created_at")
    candidates = _organised(request).exclude(pk__in=events.values("pk"))
    table = series.points_table
    places = [(int(place), points) for place, points in sorted(table["places"].items(), key=lambda kv: int(kv[0]))]
    places += [(len(places) + extra, "") for extra in (1, 2)]
    return render(
        request,
        "exports/series_manage.html",
        {
            "series": series,
            "events": events,
            "candidates": candidates,
            "places": places,
            "others": table.get("others", 0),
            "error": error,
            "table_json": json.dumps(table, ensure_ascii=False),
            "game_label": Game(series.game).label if series.game in Game.values else series.game,
        },
        status=400 if error else 200,
    )
