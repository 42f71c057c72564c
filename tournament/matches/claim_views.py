"""The referees' and organisers' side of players' entry: confirm an entry, settle a
dispute, lift a table's pause on wrong codes, print the table cards (QR code and seat PINs), revoke
a table's link — and the service worker that keeps the entry pages working offline.

Referees reach only their tables (``access.match_for_user``); the cards and the revocation are the
organiser's (``organiser_view``).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournament.errors import USER_ERRORS, user_error_of
from tournament.htmx import HtmxHttpRequest
from tournament.matches import player_entry
from tournament.matches.fold import match_game
from tournament.matches.models import Match, Round, Table
from tournament.matches.selectors import team_tables_of
from tournament.matches.table_links import table_codes_of, table_link_revoke, table_qr_codes, table_tokens, table_url
from tournament.matches.views import match_for_request, refused_page
from tournament.parsing import int_or_none
from tournament.registration.models import Tournament
from tournament.registration.roles import organiser_view

logger = logging.getLogger(__name__)


@require_POST
@login_required
def claim_confirm(request: HtmxHttpRequest, match_id: int, claim_id: int) -> HttpResponse:
    """A referee confirms a player's entry (either players' mode)."""
    match = match_for_request(request, match_id)
    try:
        answer = player_entry.deal_claim_confirm(match_id=match.pk, claim_id=claim_id, user=request.user)
        if answer.refusal is not None:
            raise answer.refusal
    except USER_ERRORS as error:
        return refused_page(request, match.pk, error)
    messages.success(request, match_game(match).deal_words["confirmed"] % {"number": answer.claim.number})
    return redirect("matches:match", match_id=match.pk)


@require_POST
@login_required
def claim_settle(request: HtmxHttpRequest, match_id: int, claim_id: int) -> HttpResponse:
    """A referee settles a dispute: one version recorded (or neither), with a reason."""
    match = match_for_request(request, match_id)
    try:
        answer = player_entry.deal_claim_settle(
            match_id=match.pk,
            claim_id=claim_id,
            user=request.user,
            choice=request.POST.get("choice", ""),
            reason=request.POST.get("reason", ""),
        )
        if answer.refusal is not None:
            raise answer.refusal
    except USER_ERRORS as error:
        return refused_page(request, match.pk, error)
    messages.success(request, _("Dispute settled."))
    return redirect("matches:match", match_id=match.pk)


@require_POST
@login_required
def table_codes_lift(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """A referee of the table (or an organiser) lifts the pauses on its codes (wrong codes past the
    limit: a guesser, or players who mistyped); every count of the table's seats, its phones and its
    table number starts again. Audited in the match's history."""
    match = match_for_request(request, match_id)
    try:
        player_entry.table_codes_lift(match_id=match.pk, user=request.user)
    except USER_ERRORS as error:
        return refused_page(request, match.pk, error)
    messages.success(request, _("The table's code limit is lifted: the players can identify again."))
    return redirect("matches:match", match_id=match.pk)


@organiser_view
def table_cards(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    """The round's table cards to print: per table its number, QR code and who sits where, then the
    four seat slips with each player's PIN (cut and handed to the players)."""
    round_ = Round.objects.select_related("stage__tournament").filter(pk=round_id, stage__tournament=tournament).first()
    if round_ is None:
        raise Http404
    codes = table_qr_codes(request=request, round_=round_, scale=4)
    tokens = table_tokens(round_=round_)
    table_codes = table_codes_of(round_=round_)  # to type, with the short address, when a phone cannot scan
    cards = []
    matches = list(
        Match.objects.filter(round=round_, table__isnull=False)
        .select_related("round__stage", "table", "ns_pair", "ew_pair")
        .order_by("table__number")
    )
    team_tables = team_tables_of(matches=matches)  # a team round's card names the team match and letter
    for match in matches:
        if match.table_id is None:  # never: filtered on a table
            continue
        cards.append(
            {
                "match": match,
                "team": team_tables.get(match.pk),
                "qr": codes.get(match.pk, ""),
                "url": table_url(request, tokens[match.table_id]),
                "code": table_codes.get(match.table_id, ""),
                "players": [
                    {"seat": seat, "pin": player_entry.seat_pin(player_id=seat.player.pk)}
                    for seat in player_entry.table_players(match=match)
                ],
            }
        )
    tables = Table.objects.filter(pk__in=tokens).order_by("number")
    return render(
        request,
        "matches/table_cards.html",
        {
            "tournament": tournament,
            "round": round_,
            "cards": cards,
            "tables": tables,
            "find_url": request.build_absolute_uri(reverse("matches:table_find")),
        },
    )


@require_POST
@organiser_view
def table_links_revoke(request: HttpRequest, tournament: Tournament, round_id: int) -> HttpResponse:
    """Withdraw one table's QR code (``table``: its number) or every table's of the round."""
    round_ = Round.objects.filter(pk=round_id, stage__tournament=tournament).select_related("stage").first()
    if round_ is None:
        raise Http404
    number = int_or_none(request.POST.get("table"), low=1)
    table_id = None
    if number is not None:
        table_id = Table.objects.filter(tournament=tournament, number=number).values_list("pk", flat=True).first()
        if table_id is None:
            messages.error(request, _("There is no table %(number)d.") % {"number": number})
            return redirect("matches:table_cards", tournament_id=tournament.pk, round_id=round_.pk)
    try:
        count = table_link_revoke(round_=round_, table_id=table_id, user=request.user)
    except USER_ERRORS as error:
        messages.error(request, user_error_of(error).message)
    else:
        messages.success(request, _("%(count)d table codes withdrawn: print the new cards.") % {"count": count})
    return redirect("matches:table_cards", tournament_id=tournament.pk, round_id=round_.pk)


SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "entry_sw.js"


@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    """The entry pages' service worker, served from the site's root so its scope covers both the
    table pages (``/table/``) and the referees' (``/referee/``); see ``static/js/entry_sw.js``."""
    response = HttpResponse(SERVICE_WORKER.read_text(encoding="utf-8"), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


def web_app_manifest(*, name: str, start_url: str) -> HttpResponse:
    """A web app manifest that, installed, opens ``start_url`` (the referees' and the tables' pages)."""
    body = {
        "name": name,
        "short_name": name,
        "start_url": start_url,
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#b71c1c",
        "icons": [{"src": "/static/img/favicon.svg", "sizes": "any", "type": "image/svg+xml"}],
    }
    return HttpResponse(json.dumps(body, ensure_ascii=False), content_type="application/manifest+json")


def referee_manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest of the referees' pages: installed, it opens "my tables"."""
    return web_app_manifest(name=_("My tables"), start_url="/referee/")
