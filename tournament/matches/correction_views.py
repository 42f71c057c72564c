"""The page that clears a started knockout match so that the bracket can follow a correction
(the service is ``tournament.matches.clearing.match_clear``, the API calls it too)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournament.errors import USER_ERRORS, user_error_of
from tournament.matches import access, clearing
from tournament.matches.forms import ReasonForm
from tournament.matches.views import match_for_request


@login_required
def match_clear(request: HttpRequest, match_id: int) -> HttpResponse:
    """What clearing the match deletes, then the reason: the organiser's or the chief referee's,
    as for an unlock."""
    match = match_for_request(request, match_id, reading=True)
    if not access.user_may_unlock(user=request.user, match=match):
        raise Http404
    form = ReasonForm(request.POST or None, initial={"version": match.version})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                clearing.match_clear(
                    match_id=match.pk,
                    reason=form.cleaned_data["reason"],
                    user=request.user,
                    expected_version=form.cleaned_data["version"],
                )
            except USER_ERRORS as error:
                failure = user_error_of(error)
                form.add_error(None, failure.message)
                status = failure.status
            else:
                messages.success(request, _("Match cleared: its deals are deleted and its clock reset."))
                blocks = clearing.match_clear_blocks(match=match)
                return redirect("matches:match", match_id=blocks[0].match_id if blocks else match.pk)
        else:
            status = 400
    context = {
        "match": match,
        "form": form,
        "blocks": clearing.match_clear_blocks(match=match),
        "deals": match.deals.count(),
        "adjustments": match.adjustments.count(),
        "started": clearing.match_started(match=match),
    }
    return render(request, "matches/clear.html", context, status=status)
