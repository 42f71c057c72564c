"""The organiser's hand on a running clock: one form posts a change of a round's clock
or of one table's — pause, resume, extend, change the cap, call time now, and reopen a round whose
time was called — with a reason.

Thin views over the services ``round_*`` / ``match_*`` of ``tournament.matches.clock``: the round is
scoped to its organiser (``access.round_for_organiser``; another organiser gets 404) and the table to
the round.
A refused change (a paused clock paused again, a finished match extended …) is said in a message
and changes nothing; every outcome redirects back to the round's clock page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournament.errors import USER_ERRORS, form_errors_text, user_error_of
from tournament.matches import access, clock
from tournament.matches.forms import ClockChangeForm

_ROUND: dict[str, Callable[..., Any]] = {
    "pause": clock.round_pause,
    "resume": clock.round_resume,
    "extend": clock.round_extend,
    "cap": clock.round_cap_change,
    "call": clock.round_call_now,
    "reopen": clock.round_reopen,
}
_TABLE: dict[str, Callable[..., Any]] = {
    "pause": clock.match_pause,
    "resume": clock.match_resume,
    "extend": clock.match_extend,
    "cap": clock.match_cap_change,
    "call": clock.match_call_now,
}
_DONE = {
    "pause": gettext_lazy("Clock paused."),
    "resume": gettext_lazy("Clock resumed."),
    "extend": gettext_lazy("Clock extended."),
    "cap": gettext_lazy("Time cap changed."),
    "call": gettext_lazy("Time called."),
    "reopen": gettext_lazy("The round plays on: time is no longer called."),
}


def _apply(request: HttpRequest, operations: dict[str, Callable[..., Any]], **target: int) -> None:
    form = ClockChangeForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors_text(form))
        return
    action = form.cleaned_data["action"]
    operation = operations.get(action)
    if operation is None:  # a round's change posted for one table (reopening is the round's)
        messages.error(request, str(gettext_lazy("That change is made for the whole round.")))
        return
    arguments: dict[str, Any] = {"reason": form.cleaned_data["reason"], "user": request.user, **target}
    if action in ("extend", "cap", "reopen"):
        arguments["minutes"] = form.cleaned_data["minutes"]
    try:
        operation(**arguments)
    except USER_ERRORS as error:
        messages.error(request, user_error_of(error).message)
    else:
        messages.success(request, str(_DONE[action]))


@require_POST
@login_required
def round_clock_change(request: HttpRequest, tournament_id: int, round_id: int) -> HttpResponse:
    round_ = access.round_for_organiser(user=request.user, tournament_id=tournament_id, round_id=round_id)
    _apply(request, _ROUND, round_id=round_.pk)
    return redirect("matches:round_clock", tournament_id=tournament_id, round_id=round_.pk)


@require_POST
@login_required
def table_clock_change(request: HttpRequest, tournament_id: int, round_id: int, match_id: int) -> HttpResponse:
    round_ = access.round_for_organiser(user=request.user, tournament_id=tournament_id, round_id=round_id)
    if not round_.matches.filter(pk=match_id).exists():
        raise Http404
    _apply(request, _TABLE, match_id=match_id)
    return redirect("matches:round_clock", tournament_id=tournament_id, round_id=round_.pk)
