"""The final placings of a finished knockout: who came where, and the prize tiers.

A public page, read-only. The knockout ranking is the stage's (``stage_ranking_get``: the bracket's
placings, ``scoring.standings.bracket_placings``); the tiers are the organiser's prize tiers
awarded from the prize stage's ranking (``tournament.exports.prizes.prize_tiers_award``) when the
prize stage is this knockout — then the places after the knockout's follow, from the stage it was
advanced from (the one prize order, ``prize_order_get``). Shown once the bracket is decided (a champion,
nothing pending). A knockout of teams (docs/rules.md §11) shows its teams' placings, the stage's ranking
too (``stage_ranking_get``: the teams' bracket's placings), its champion first, with the team prizes.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from scoring.team_matches import TeamMatchStatus
from tournament.exports.prizes import prize_tiers_award, team_prizes_award
from tournament.matches.models import Stage, StageFormat
from tournament.registration.models import Pair, Tournament, TournamentStatus
from tournament.standings.selectors import StageStandings, stage_ranking_get
from tournament.standings.team_matches import stage_team_matches_get


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
    if standings.teams is not None:
        return _team_placings(request, tournament, stage, standings, decided=decided)
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
    rows = (
        [
            {
                "id": int(row.entrant),
                "rank": row.rank,
                "name": pairs[int(row.entrant)].name,
                "url": reverse("standings:pair", args=[tournament.pk, int(row.entrant)]),
                "tier": tiers.get(int(row.entrant), ""),
            }
            for row in order.rows
        ]
        if decided
        else []
    )
    return render(
        request,
        "public/placings.html",
        {"tournament": tournament, "stage": stage, "decided": decided, "rows": rows, "problem": problem},
    )


def _team_placings(
    request: HttpRequest, tournament: Tournament, stage: Stage, standings: StageStandings, *, decided: bool
) -> HttpResponse:
    """A knockout of teams (docs/rules.md §11): the stage's ranking of its teams (its bracket's placings),
    its champion first, with the team prizes (团体奖) when this stage awards them."""
    teams = standings.teams or {}
    tiers: dict[int, str] = {}
    problem = None
    if decided:
        awards = team_prizes_award(tournament=tournament)
        if awards.stage is not None and awards.stage.pk == stage.pk:
            tiers = {award.line.team_id: award.tier for award in awards.awards}
            problem = awards.problem
    rows = (
        [
            {
                "id": int(row.entrant),
                "rank": row.rank,
                "name": teams[int(row.entrant)].name,
                "url": "",
                "tier": tiers.get(int(row.entrant), ""),
            }
            for row in standings.standings.rows
        ]
        if decided
        else []
    )
    champion = standings.bracket.champion if standings.bracket is not None else None
    context = {"tournament": tournament, "stage": stage, "decided": decided, "rows": rows}
    if not decided:  # a team match left level by its two tables holds the bracket until its tie-break deal
        played = stage_team_matches_get(stage=stage)
        level = [line for line in played.matches if line.result.status is TeamMatchStatus.NEEDS_EXTRA_DEAL]
        context["tie_breaks"] = [(played.names[line.x], played.names.get(line.y or 0, "")) for line in level]
    context["champion"] = teams[int(champion)].name if champion else ""
    return render(request, "public/placings.html", {**context, "problem": problem})


def _points_placings(request: HttpRequest, tournament: Tournament, stage: Stage) -> HttpResponse:
    """The final placings of an event of points stages (Dou Dizhu, docs/rules.md §10): its last stage's
    ranking of players, shown once the event is finished (its champion first)."""
    decided = tournament.status in (TournamentStatus.FINISHED, TournamentStatus.ARCHIVED)
    standings = stage_ranking_get(stage=stage).players if decided else None
    lines = standings.players.rows if standings is not None else ()
    pairs = Pair.objects.in_bulk([int(row.player) for row in lines])
    rows = [
        {
            "id": int(row.player),
            "rank": row.rank,
            "name": pairs[int(row.player)].name,
            "url": reverse("standings:pair", args=[tournament.pk, int(row.player)]),
            "tier": "",
        }
        for row in lines
    ]
    return render(
        request,
        "public/placings.html",
        {
            "tournament": tournament,
            "stage": stage,
            "decided": bool(rows),
            "rows": rows,
            "problem": None,
            "champion": rows[0]["name"] if rows else "",
        },
    )
