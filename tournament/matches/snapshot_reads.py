"""Reads of a match's stored snapshot (``Match.state``, the rules core's ``MatchResult.to_json``)
that the typed readers on the models (``Match.snapshot``, ``Deal.snapshot``) do not cover.

Deals played: the deals the rules core applied, i.e. the deals of the stored snapshot. A deal a
correction made impossible is flagged and left out of the snapshot, so it is not played; the
database answer counts the unflagged deal rows, which the fold keeps equal to the snapshot's deals.
"""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce

from tournament.matches.models import Deal, Match


def match_deals_played(match: Match) -> int:
    """How many deals of ``match`` were played (the rules core applied them); read from its snapshot."""
    if match.three_seats:
        return len(match.table_snapshot.deals)
    return len(match.snapshot.deals)


def deals_played_count() -> Coalesce:
    """:func:`match_deals_played` as an annotation of a match queryset: a correlated count over the
    unique (match, number) index, not a join and GROUP BY (which would sort every match row with its
    whole snapshot)."""
    played = (
        Deal.objects.filter(match=OuterRef("pk"), flagged=False)
        .order_by()
        .values("match")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Coalesce(Subquery(played, output_field=IntegerField()), 0)
