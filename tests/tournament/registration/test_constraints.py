"""The database itself refuses broken invariants, not only the forms (docs/design.md: nothing lost, nothing doubled)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from tests.factories import (
    MatchFactory,
    PairFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TournamentFactory,
)
from tournament.matches.models import Deal, Match, RefereeAssignment, RoundEntry
from tournament.registration.models import Pair, PairMember, Player

pytestmark = pytest.mark.django_db


def refused(callable_) -> bool:
    try:
        with transaction.atomic():
            callable_()
    except IntegrityError:
        return True
    return False


def test_a_player_in_two_pairs_is_refused_by_the_database():
    pair = PairFactory()
    player = pair.members.first().player
    other = PairFactory(tournament=pair.tournament, with_players=False)
    assert refused(lambda: PairMember.objects.create(pair=other, player=player, slot=1))


def test_a_pair_with_the_same_player_twice_is_refused_by_the_database():
    tournament = TournamentFactory()
    player = PlayerFactory(tournament=tournament)
    pair = Pair.objects.create(tournament=tournament, number=1, name="x")
    PairMember.objects.create(pair=pair, player=player, slot=1)
    assert refused(lambda: PairMember.objects.create(pair=pair, player=player, slot=2))


def test_a_pair_has_at_most_two_players():
    pair = PairFactory()
    extra = PlayerFactory(tournament=pair.tournament)
    assert refused(lambda: PairMember.objects.create(pair=pair, player=extra, slot=2))
    assert refused(lambda: PairMember.objects.create(pair=pair, player=extra, slot=3))


def test_employee_numbers_are_unique_per_tournament_but_may_repeat_across_tournaments():
    first = PlayerFactory(employee_number="1001")
    assert refused(
        lambda: Player.objects.create(tournament=first.tournament, name="B", employee_number="1001")
    )
    Player.objects.create(tournament=TournamentFactory(), name="C", employee_number="1001")
    # Empty employee numbers do not clash.
    Player.objects.create(tournament=first.tournament, name="D", employee_number="")
    Player.objects.create(tournament=first.tournament, name="E", employee_number="")


def test_a_duplicate_deal_number_is_refused_by_the_database():
    match = MatchFactory()
    Deal.objects.create(match=match, number=1, outcome={"order": ["N", "S"]})
    assert refused(lambda: Deal.objects.create(match=match, number=1, outcome={"order": ["E", "W"]}))


def test_an_idempotency_key_is_used_once_per_match():
    match = MatchFactory()
    Deal.objects.create(match=match, number=1, outcome={"order": ["N", "S"]}, idempotency_key="k1")
    assert refused(lambda: Deal.objects.create(match=match, number=2, outcome={}, idempotency_key="k1"))
    Deal.objects.create(match=match, number=2, outcome={}, idempotency_key=None)
    Deal.objects.create(match=match, number=3, outcome={}, idempotency_key=None)


def test_a_pair_cannot_play_itself():
    match = MatchFactory()
    assert refused(
        lambda: Match.objects.create(round=match.round, ns_pair=match.ns_pair, ew_pair=match.ns_pair)
    )


def test_a_pair_sits_once_per_round_whichever_side():
    match = MatchFactory()
    RoundEntry.objects.create(round=match.round, pair=match.ns_pair, match=match, side="NS")
    other = MatchFactory(round=match.round)
    assert refused(
        lambda: RoundEntry.objects.create(round=match.round, pair=match.ns_pair, match=other, side="EW")
    )
    assert refused(
        lambda: Match.objects.create(round=match.round, ns_pair=match.ns_pair, ew_pair=other.ns_pair)
    )


def test_one_match_per_table_and_one_referee_per_table_in_a_round():
    round_ = RoundFactory()
    table = TableFactory(tournament=round_.stage.tournament)
    MatchFactory(round=round_, table=table)
    assert refused(lambda: MatchFactory(round=round_, table=table))
    from tests.factories import referee

    RefereeAssignment.objects.create(round=round_, table=table, referee=referee())
    assert refused(lambda: RefereeAssignment.objects.create(round=round_, table=table, referee=referee()))


def test_unknown_status_values_are_refused_by_the_database():
    match = MatchFactory()
    assert refused(lambda: Match.objects.filter(pk=match.pk).update(status="bogus"))
    assert refused(lambda: Match.objects.filter(pk=match.pk).update(winner="N"))
    assert refused(lambda: Pair.objects.filter(pk=match.ns_pair_id).update(status="gone"))
