"""The organiser's referee pages and the referee's one-time sign-in.

Thin views: a form checks the shape, a service in ``tournament.matches.referees`` does the work.
A new link's token is known only when it is issued: it is kept in the organiser's session until
the referee's page has shown it (with its QR code) once; after that only a reset makes a new one.

The sign-in link opens a page with one button: the link is used by the POST of that button, not
by opening it, so that a chat app or a QR scanner fetching the address to preview it does not
spend the referee's single use.
"""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.errors import UserError, user_error_on_form
from tournament.matches import referees as services
from tournament.matches.forms import RefereeForm
from tournament.matches.models import Referee, Round
from tournament.registration.models import Tournament
from tournament.registration.roles import organiser_view

_SESSION_KEY = "referee_links"


def _referee(tournament: Tournament, referee_id: int) -> Referee:
    return get_object_or_404(Referee.objects.filter(tournament=tournament).select_related("user"), pk=referee_id)


def _keep_link(request: HttpRequest, referee: Referee, issued: services.IssuedLink) -> None:
    links = dict(request.session.get(_SESSION_KEY, {}))
    links[str(referee.pk)] = issued.token
    request.session[_SESSION_KEY] = links


def _take_link(request: HttpRequest, referee: Referee) -> str | None:
    links = dict(request.session.get(_SESSION_KEY, {}))
    token: str | None = links.pop(str(referee.pk), None)
    if token is not None:
        request.session[_SESSION_KEY] = links
    return token


@organiser_view
def referee_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The event's referees and a form to add one (who then gets a sign-in link at once)."""
    form = RefereeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            referee = services.referee_create(tournament=tournament, **form.cleaned_data, user=request.user)
        except UserError as error:
            user_error_on_form(form, error)
        else:
            _keep_link(request, referee, services.referee_link_issue(referee=referee, user=request.user))
            messages.success(request, _("Referee %(name)s added.") % {"name": referee.name})
            return redirect("matches:referee", tournament_id=tournament.pk, referee_id=referee.pk)
    status = 400 if request.method == "POST" else 200
    context = {
        "tournament": tournament,
        "form": form,
        "referees": services.referee_list(tournament=tournament),
        "rounds": _rounds(tournament),
    }
    return render(request, "matches/referee_list.html", context, status=status)


def _rounds(tournament: Tournament) -> list[Round]:
    """The event's rounds (newest first), for links to each round's referee page."""
    return list(
        Round.objects.filter(stage__tournament=tournament).select_related("stage").order_by("-stage__order", "-number")
    )


def _link_and_qr(request: HttpRequest, token: str) -> tuple[str, str]:
    url = request.build_absolute_uri(reverse("matches:referee_sign_in", args=[token]))
    # segno writes presentation attributes only (no inline style), so the SVG passes the CSP.
    svg = segno.make(url, error="m").svg_inline(scale=5, svgclass="qr", light="#fff")
    return url, mark_safe(svg)


@require_POST
@organiser_view
def referee_links_reset_all(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """New links for every active referee not signed in yet, then the sheet that shows them once."""
    issued = services.referee_links_issue_all(tournament=tournament, user=request.user)
    for referee, link in issued:
        _keep_link(request, referee, link)
    text = _("New sign-in links for %(count)d referees not signed in yet; their old links no longer work.")
    messages.success(request, text % {"count": len(issued)})
    return redirect("matches:referee_links", tournament_id=tournament.pk)


@organiser_view
def referee_links(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The sheet of new links with their QR codes, to print or show; each is shown once."""
    cards = []
    for referee in services.referee_list(tournament=tournament):
        token = _take_link(request, referee)
        if token is not None:
            url, svg = _link_and_qr(request, token)
            cards.append({"referee": referee, "url": url, "qr_svg": svg})
    return render(request, "matches/referee_links.html", {"tournament": tournament, "cards": cards})


@organiser_view
def referee_detail(request: HttpRequest, tournament: Tournament, referee_id: int) -> HttpResponse:
    """A referee: edit, the new sign-in link and its QR code (once), reset, deactivate, chief."""
    referee = _referee(tournament, referee_id)
    form = RefereeForm(
        request.POST or None,
        initial={"name": referee.name, "phone": referee.phone, "employee_number": referee.employee_number},
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.referee_update(referee=referee, **form.cleaned_data, user=request.user)
        except UserError as error:
            user_error_on_form(form, error)
        else:
            messages.success(request, _("Saved."))
            return redirect("matches:referee", tournament_id=tournament.pk, referee_id=referee.pk)
    token = None if request.method == "POST" else _take_link(request, referee)
    link_url = qr_svg = None
    if token is not None:
        link_url = request.build_absolute_uri(reverse("matches:referee_sign_in", args=[token]))
        # segno writes presentation attributes only (no inline style), so the SVG passes the CSP.
        qr_svg = mark_safe(segno.make(link_url, error="m").svg_inline(scale=5, svgclass="qr", light="#fff"))
    last_link = referee.sign_in_links.order_by("-created_at").first()
    context = {
        "tournament": tournament,
        "referee": referee,
        "form": form,
        "link_url": link_url,
        "qr_svg": qr_svg,
        "last_link": last_link,
        "now": timezone.now(),
        "is_chief": services.referee_is_chief(referee=referee),
        "tables": services.referee_tables_now(referee=referee),
    }
    return render(request, "matches/referee_detail.html", context, status=400 if request.method == "POST" else 200)


@require_POST
@organiser_view
def referee_link_reset(request: HttpRequest, tournament: Tournament, referee_id: int) -> HttpResponse:
    referee = _referee(tournament, referee_id)
    try:
        issued = services.referee_link_issue(referee=referee, user=request.user)
    except UserError as error:
        messages.error(request, error.message)
    else:
        _keep_link(request, referee, issued)
        messages.success(request, _("A new sign-in link is ready; the old one no longer works."))
    return redirect("matches:referee", tournament_id=tournament.pk, referee_id=referee.pk)


@require_POST
@organiser_view
def referee_active(request: HttpRequest, tournament: Tournament, referee_id: int) -> HttpResponse:
    referee = _referee(tournament, referee_id)
    active = request.POST.get("active") == "1"
    services.referee_active_set(referee=referee, active=active, user=request.user)
    if active:
        messages.success(request, _("Activated. Give the referee a new sign-in link."))
    else:
        messages.success(request, _("Deactivated: this referee can no longer sign in."))
    return redirect("matches:referee", tournament_id=tournament.pk, referee_id=referee.pk)


@require_POST
@organiser_view
def referee_chief(request: HttpRequest, tournament: Tournament, referee_id: int) -> HttpResponse:
    referee = _referee(tournament, referee_id)
    chief = request.POST.get("chief") == "1"
    services.chief_referee_set(referee=referee, chief=chief, user=request.user)
    messages.success(request, _("Named chief referee.") if chief else _("No longer chief referee."))
    return redirect("matches:referee", tournament_id=tournament.pk, referee_id=referee.pk)


def referee_sign_in(request: HttpRequest, token: str) -> HttpResponse:
    """The one-time link: a page naming the referee and the event, and a button that signs in."""
    link = services.referee_link_find(token=token)
    if request.method == "POST":
        try:
            user = services.referee_link_redeem(token=token)
        except UserError as refused:
            context = {"error": refused.message, "link": link}
            return render(request, "matches/referee_sign_in.html", context, status=400)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("matches:referee_home")
    refusal = services.referee_link_refusal(link=link)
    error = refusal.message if refusal is not None else None
    status = 400 if error else 200
    return render(request, "matches/referee_sign_in.html", {"error": error, "link": link}, status=status)
