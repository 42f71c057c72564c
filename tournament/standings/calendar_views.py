"""The calendar feeds (``.ics``, docs/rules.md §12.2): per event and per pair; public like the event's
pages (a draft is its organisers': 404)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from tournament.matches.calendar import event_calendar, pair_calendar
from tournament.registration.models import Pair, Tournament, TournamentStatus


def _public(tournament_id: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if tournament.status == TournamentStatus.DRAFT:
        raise Http404
    return tournament


def _ics(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@require_safe
def tournament_calendar(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _public(tournament_id)
    return _ics(event_calendar(tournament=tournament).to_ical(), f"event-{tournament.pk}.ics")


@require_safe
def pair_calendar_view(request: HttpRequest, tournament_id: int, pair_id: int) -> HttpResponse:
    tournament = _public(tournament_id)
    pair = get_object_or_404(Pair.objects.select_related("tournament"), tournament=tournament, pk=pair_id)
    return _ics(pair_calendar(pair=pair).to_ical(), f"event-{tournament.pk}-pair-{pair.number}.ics")
