"""Registration reads, scoped by tournament."""

from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet

from tournament.registration.models import Pair, PairMember, Tournament


def pairs_with_players(*, tournament: Tournament) -> QuerySet[Pair]:
    """The tournament's pairs with their two players (and departments) prefetched."""
    members = PairMember.objects.select_related("player__department").order_by("slot")
    return (
        Pair.objects.filter(tournament=tournament)
        .prefetch_related(Prefetch("members", queryset=members))
        .order_by("id")
    )


def pair_search(*, tournament: Tournament, query: str, limit: int = 30) -> QuerySet[Pair]:
    """Pairs with a player whose name contains ``query`` or whose employee number starts with it."""
    matching = PairMember.objects.filter(player__tournament=tournament).filter(
        Q(player__name__icontains=query) | Q(player__employee_number__istartswith=query)
    )
    return pairs_with_players(tournament=tournament).filter(pk__in=matching.values("pair_id"))[:limit]
