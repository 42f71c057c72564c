"""The final placings of a finished knockout: who came where, and the prize tiers.

A public page, read-only. The knockout ranking is the stage's (``stage_ranking_get``: the bracket's
placings, ``scoring.standings.bracket_placings``); the tiers are the organiser's prize tiers
awarded from the prize stage's ranking (``tournament.exports.prizes.prize_tiers_award``) when the
prize stage is this knockout — then the places after the knockout's follow, from the stage it was
advanced from (the one prize order, ``prize_order_get``). Shown once the bracket is decided (a champion,
nothing pending).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from tournament.exports.prizes import prize_tiers_award
from tournament.matches.models import Stage, StageFormat
from tournament.registration.models import Pair, Tournament, TournamentStatus
from tournament.standings.selectors import stage_ranking_get


@require_safe
def placings(request: HttpRequest, tournament_id: int, stage_id: int | None = None) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    stages = Stage.objects.filter(tournament=tournament, format=StageFormat.KNOCKOUT).order_by("-order")
    if not stages.exists() and stage_id is None:
        # no knockout (a Dou Dizhu event's points stages): the last stage's standings, once the event is over
        last = Stage.objects.filter(tournament=tournament, format=StageFormat.POINTS).order_by("-order").first()
        if last is not None:
            return _points_placings(request, tournament, last)
    stage = get_object_or_404(stages, pk=stage_id) if stage_id is not None else stages.first()
    if stage is None:
        raise Http404
    standings = stage_ranking_get(stage=stage)
    decided = standings.bracket is not None and standings.bracket.complete and not standings.bracket.pending
    tiers: dict[int, str] = {}
    problem = None
    order = standings.standings
    if decided:
        awards = prize_tiers_award(tournament=tournament)
        if awards.stage is not None and awards.stage.pk == stage.pk:
            tiers = {award.pair.id: award.tier for award in awards.awards}
            problem = awards.problem
            # the prize order: the knockout's placings, then the places after them from the stage before
            order = awards.order or order
    pairs = Pair.objects.in_bulk([int(row.entrant) for row in order.rows]) if decided else {}
    rows = [
        {"rank": row.rank, "pair": pairs[int(row.entrant)], "tier": tiers.get(int(row.entrant), "")}
        for row in order.rows
    ] if decided else []
    return render(
        request,
        "public/placings.html",
        {"tournament": tournament, "stage": stage, "decided": decided, "rows": rows, "problem": problem},
    )


def _points_placings(request: HttpRequest, tournament: Tournament, stage: Stage) -> HttpResponse:
    """The final placings of an event of points stages (Dou Dizhu, docs/rules.md §10): its last stage's
    ranking of players, shown once the event is finished (its champion first)."""
    decided = tournament.status in (TournamentStatus.FINISHED, TournamentStatus.ARCHIVED)
    standings = stage_ranking_get(stage=stage).players if decided else None
    lines = standings.players.rows if standings is not None else ()
    pairs = Pair.objects.in_bulk([int(row.player) for row in lines])
    rows = [{"rank": row.rank, "pair": pairs[int(row.player)], "tier": ""} for row in lines]
    return render(
        request,
        "public/placings.html",
        {"tournament": tournament, "stage": stage, "decided": bool(rows), "rows": rows, "problem": None},
    )
