"""The organiser's progress board of a round: a thin view over ``board.round_board``.

Filters are GET parameters (``area``, ``referee``, ``state``, ``sort``, ``page``), so a filtered
board is a link to share; htmx polls the same URL every 15 seconds and swaps the board in place
(no inline script: the site's CSP forbids it).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render

from tournament.htmx import HtmxHttpRequest
from tournament.matches import access, board, clock, player_entry
from tournament.parsing import int_or_none

POLL_SECONDS = 15


@login_required
def progress_board(request: HtmxHttpRequest, tournament_id: int, round_id: int) -> HttpResponse:
    round_ = clock.round_as_of(
        access.round_for_organiser(user=request.user, tournament_id=tournament_id, round_id=round_id)
    )
    area = request.GET.get("area", "")[:40]
    referee_id = int_or_none(request.GET.get("referee"))
    state = request.GET.get("state", "") if request.GET.get("state") in board.STATE_NAMES else ""
    sort = request.GET.get("sort", "table") if request.GET.get("sort") in dict(board.SORTS) else "table"
    filters = {"area": area, "referee_id": referee_id, "state": state, "sort": sort}
    page = int_or_none(request.GET.get("page"), low=1) or 1
    result = board.round_board(round_=round_, page=page, area=area, referee_id=referee_id, state=state, sort=sort)
    query = request.GET.copy()
    query.pop("page", None)
    state_links = []
    for code, label in board.STATES:
        chosen = query.copy()
        chosen["state"] = code
        state_links.append((code, label, result.counts.get(code, 0), chosen.urlencode()))
    everything = query.copy()
    everything.pop("state", None)
    context = {
        "round": round_,
        "tournament": round_.stage.tournament,
        "board": result,
        "filters": filters,
        "states": board.STATES,
        "sorts": board.SORTS,
        "query": query.urlencode(),
        "state_links": state_links,
        "all_states": everything.urlencode(),
        "poll_seconds": POLL_SECONDS,
        "disputes": player_entry.disputes_open(tournament_id=tournament_id, round_id=round_.pk),
    }
    template = "matches/_board.html" if request.htmx else "matches/progress_board.html"
    return render(request, template, context)
