"""The organiser's page of a self-scheduled round (docs/rules.md §12.1): open it with a deadline, plan a
session, extend the round's or a match's deadline, and the board of its matches."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.errors import UserError, user_error_on_form
from tournament.matches import access
from tournament.matches.deadline_forms import DeadlineOpenForm, ExtendForm, SessionForm
from tournament.matches.deadlines import (
    deadline_board,
    event_aware,
    event_local,
    match_deadline_extend,
    round_deadline_extend,
    round_open_self_scheduled,
    round_session_plan,
)


@login_required
def round_deadline(request: HttpRequest, tournament_id: int, round_id: int) -> HttpResponse:
    round_ = access.round_for_organiser(user=request.user, tournament_id=tournament_id, round_id=round_id)
    tournament = round_.stage.tournament
    action = request.POST.get("action", "") if request.method == "POST" else ""
    forms: dict[str, Any] = {
        "open": DeadlineOpenForm(request.POST if action == "open" else None),
        "session": SessionForm(
            request.POST if action == "session" else None,
            initial={"scheduled_at": event_local(round_.scheduled_at, tournament).replace(tzinfo=None)}
            if round_.scheduled_at
            else None,
        ),
        "extend": ExtendForm(request.POST if action == "extend" else None),
    }
    form = forms.get(action)
    if form is not None and form.is_valid():
        data = form.cleaned_data
        try:
            if action == "open":
                round_open_self_scheduled(
                    round_id=round_.pk, deadline=event_aware(data["deadline"], tournament), user=request.user
                )
                messages.success(request, _("The round is open until its deadline."))
            elif action == "session":
                round_session_plan(
                    round_id=round_.pk, scheduled_at=event_aware(data["scheduled_at"], tournament), user=request.user
                )
                messages.success(request, _("Session planned."))
            elif data.get("match"):
                match = round_.matches.filter(pk=data["match"]).first()
                if match is None:
                    raise UserError("not_found", _("That match is not part of this round."), status=404)
                match_deadline_extend(
                    match_id=match.pk,
                    deadline=event_aware(data["deadline"], tournament),
                    reason=data["reason"],
                    user=request.user,
                )
                messages.success(request, _("The match's deadline was extended."))
            else:
                round_deadline_extend(
                    round_id=round_.pk,
                    deadline=event_aware(data["deadline"], tournament),
                    reason=data["reason"],
                    user=request.user,
                )
                messages.success(request, _("The round's deadline was extended."))
        except UserError as error:
            user_error_on_form(form, error)
        else:
            return redirect("matches:round_deadline", tournament_id=tournament.pk, round_id=round_.pk)
    round_.refresh_from_db()
    status = 400 if form is not None and form.errors else 200
    return render(
        request,
        "matches/round_deadline.html",
        {
            "tournament": tournament,
            "round": round_,
            "forms": forms,
            "board": deadline_board(round_=round_, now=timezone.now()),
            "extend_match": request.POST.get("match", "") if action == "extend" else "",
            "failed": form if form is not None and form.errors else None,
        },
        status=status,
    )
