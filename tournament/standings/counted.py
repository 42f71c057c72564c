"""Which results count, as the event's policy says (``Tournament.provisional_results``): the one answer
the ranking of every game reads (:mod:`tournament.standings.selectors` for two sides,
:mod:`tournament.standings.doudizhu` for three-seat tables) and advancement asks before it goes on.

A match *awaiting sign-off* is a played one the rules core has finished and nobody has signed off: a
match between two pairs or a table of three (a bye or a walkover, with one pair and no opponent, is
finished when drawn and has nothing to sign off)."""

from __future__ import annotations

from django.db.models import QuerySet

from tournament.matches.models import Match, MatchSeat, MatchStatus, Stage
from tournament.registration.models import ProvisionalResults, Tournament

COUNTED = (MatchStatus.FINISHED, MatchStatus.CONFIRMED)
SIGNED_OFF_ONLY = (MatchStatus.CONFIRMED,)


def counted_statuses(*, stage: Stage) -> tuple[str, ...]:
    """The match statuses whose results count in the stage's standings (the event's policy)."""
    policy = Tournament.objects.filter(pk=stage.tournament_id).values_list("provisional_results", flat=True).first()
    return SIGNED_OFF_ONLY if policy == ProvisionalResults.SIGNED_OFF else COUNTED


def awaiting_sign_off(*, stage: Stage) -> QuerySet[Match]:
    """The stage's played matches finished and not signed off: two sides or a table of three, not a bye."""
    return Match.objects.filter(round__stage=stage, status=MatchStatus.FINISHED).exclude(
        ns_pair__isnull=False, ew_pair__isnull=True
    )


def stage_provisional_pairs(*, stage: Stage) -> frozenset[str]:
    """Entrants (ids as text) with a counted result still awaiting sign-off (shown 待确认): the pairs of a
    match, the players seated at a table of three."""
    if MatchStatus.FINISHED not in counted_statuses(stage=stage):
        return frozenset()
    awaiting = awaiting_sign_off(stage=stage)
    sides = {pk for pair in awaiting.values_list("ns_pair_id", "ew_pair_id") for pk in pair if pk is not None}
    seated = set(MatchSeat.objects.filter(match__in=awaiting).values_list("pair_id", flat=True))
    return frozenset(str(pk) for pk in sides | seated)
