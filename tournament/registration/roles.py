"""Who may do what (docs/design.md: roles are enforced on the server), checked for every request.

- organiser: a member of the ``organisers`` group may create tournaments; a tournament's own
  organisers (or a superuser) may do everything in it;
- referee: a member of the ``referees`` group (later scoped to the tables assigned to them);
- public: read-only pages, no login.

Out-of-scope lookups answer 404, not 403, so they give no hint that the object exists.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404

from tournament.people import Actor, signed_in
from tournament.registration.models import Tournament

ORGANISERS_GROUP = "organisers"
REFEREES_GROUP = "referees"


def _in_group(user: Actor, group: str) -> bool:
    if not user.is_authenticated:
        return False
    cache: set[str] | None = getattr(user, "_group_names", None)
    if cache is None:
        cache = set(user.groups.values_list("name", flat=True))
        vars(user)["_group_names"] = cache  # read once per request: the account is the request's
    return group in cache


def user_can_create_tournaments(user: Actor) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or _in_group(user, ORGANISERS_GROUP)))


def user_is_referee(user: Actor) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or _in_group(user, REFEREES_GROUP)))


def user_may_use_referee_tools(user: Actor) -> bool:
    """Referees and organisers (of any tournament) may use the referee's read-only tools."""
    return bool(
        user.is_authenticated
        and (
            user_is_referee(user) or user_can_create_tournaments(user) or user.organised_tournaments.exists()
        )
    )


def organiser_of(*, user: Actor, tournament_ref: Any) -> Exists:
    """:func:`user_organises` as an ORM condition, for rows whose tournament is ``tournament_ref``
    (an id or an ``OuterRef``); a superuser is not named there: callers that show everything to
    a superuser say so before they filter."""
    rows = Tournament.organisers.through.objects.filter(tournament_id=tournament_ref, user=signed_in(user))
    return Exists(rows)


def user_organises(*, user: Actor, tournament_id: int) -> bool:
    """Whether ``user`` organises the tournament: one of its organisers, or a superuser (the one
    answer every page, API view and service asks)."""
    if not user.is_authenticated:
        return False
    return bool(user.is_superuser or Tournament.organisers.through.objects.filter(
        tournament_id=tournament_id, user_id=user.pk
    ).exists())


def tournaments_organised(*, user: Actor) -> QuerySet[Any]:
    """The ids of the tournaments ``user`` organises (a subquery: the home page lists their drafts)."""
    return Tournament.organisers.through.objects.filter(user=signed_in(user)).values("tournament_id")


def tournament_for_organiser(*, user: Actor, tournament_id: int) -> Tournament:
    """The tournament if ``user`` organises it, else 404."""
    if not user.is_authenticated:
        raise Http404
    tournaments = Tournament.objects.all()
    if not user.is_superuser:
        tournaments = tournaments.filter(organiser_of(user=user, tournament_ref=OuterRef("pk")))
    return get_object_or_404(tournaments, pk=tournament_id)


def organiser_view(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """A view of one tournament's organiser pages: login required, scoped, passes ``tournament``."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, tournament_id: int, *args: Any, **kwargs: Any) -> HttpResponseBase:
        tournament = tournament_for_organiser(user=request.user, tournament_id=tournament_id)
        return view(request, tournament, *args, **kwargs)

    return wrapper
