"""An event's home page: what everyone sees (its announcements, the public overview: current round,
time left, links), and for its organisers the way into the day (each round not finished, with its
draw, clock and board).

It lives with the public pages it embeds (this app reads the event, its rounds and their results);
the event's own settings page is the matches app's (:mod:`tournament.matches.event_views`)."""

from __future__ import annotations

from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournament.matches.deadlines import event_reminders
from tournament.matches.models import Round, RoundStatus
from tournament.registration.announcements import announcements_shown
from tournament.registration.models import PairStatus, Tournament, TournamentStatus
from tournament.registration.roles import user_organises
from tournament.standings.views import overview_html


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    counts = tournament.pairs.aggregate(
        total=Count("id", filter=~Q(status=PairStatus.WITHDRAWN)),
        checked_in=Count("id", filter=Q(status=PairStatus.CHECKED_IN)),
    )
    is_organiser = user_organises(user=request.user, tournament_id=tournament.pk)
    if tournament.status == TournamentStatus.DRAFT and not is_organiser:
        raise Http404  # a draft is its organisers', not public (the public pages and API say 404 too)
    # the organiser's way into the day: each round not finished, with its clock and board
    rounds = (
        Round.objects.filter(stage__tournament=tournament)
        .exclude(status=RoundStatus.FINISHED)
        .select_related("stage")
        .order_by("stage__order", "stage_id", "number")
        if is_organiser
        else []
    )
    return render(
        request,
        "public/tournament_detail.html",
        {
            "tournament": tournament,
            "counts": counts,
            "counts_text": tournament.entrants.words["registered_counts"]
            % {"total": counts["total"], "checked": counts["checked_in"]},
            "is_organiser": is_organiser,
            "rounds": rounds,
            "public_html": overview_html(tournament_id=tournament.pk),
            "announcements": announcements_shown(tournament_id=tournament.pk),
            "reminders": event_reminders(tournament=tournament),
        },
    )
