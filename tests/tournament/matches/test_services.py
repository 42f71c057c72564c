"""Deal entry through the service: the rules core's fold is stored; bad deals change nothing."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from tests.factories import MatchFactory
from tournament.matches.errors import StaleVersion
from tournament.matches.fold import match_replay
from tournament.matches.models import Deal, MatchStatus
from tournament.matches.services import deal_record

pytestmark = pytest.mark.django_db


def play(match, *orders):
    for order in orders:
        deal_record(match_id=match.pk, outcome={"order": list(order)})
    match.refresh_from_db()
    return match


def test_deals_fold_into_the_match_snapshot():
    match = play(MatchFactory(), "NS", "NS", "NS")  # timed-40: +5 a 1-2 (seed 002), 2→7→12→A
    assert match.status == MatchStatus.RUNNING
    assert match.state["levels"] == {"NS": 14, "EW": 2}
    assert match.version == 3
    match = play(match, "NES")
    assert (match.status, match.winner, match.result_reason) == (MatchStatus.FINISHED, "NS", "passed_a")
    assert Deal.objects.get(match=match, number=4).record["passed_a"] is True


def test_an_invalid_order_or_a_deal_after_the_end_changes_nothing():
    match = play(MatchFactory(), "NS", "NS", "NS", "NES")
    with pytest.raises(ScoringError) as caught:
        deal_record(match_id=match.pk, outcome={"order": ["E", "W"]})
    assert caught.value.code == "match_finished"
    with pytest.raises(ScoringError) as caught:
        deal_record(match_id=MatchFactory().pk, outcome={"order": ["N", "E"]})
    assert caught.value.code == "invalid_order"
    assert Deal.objects.filter(match=match).count() == 4


def test_idempotency_key_and_stale_version():
    match = MatchFactory()
    first = deal_record(match_id=match.pk, outcome={"order": ["N", "S"]}, idempotency_key="abc")
    again = deal_record(match_id=match.pk, outcome={"order": ["N", "S"]}, idempotency_key="abc")
    assert again.replayed and again.deal.pk == first.deal.pk
    assert Deal.objects.filter(match=match).count() == 1
    with pytest.raises(StaleVersion):
        deal_record(match_id=match.pk, outcome={"order": ["E", "W"]}, expected_version=0)
    deal_record(match_id=match.pk, outcome={"order": ["E", "W"]}, expected_version=1)


def test_a_correction_that_shortens_the_match_flags_the_deals_after_its_end():
    match = play(MatchFactory(), "NS", "NS", "NS", "NEW", "NES")  # deal 4: 1-4, a failed A attempt
    assert match.status == MatchStatus.FINISHED
    Deal.objects.filter(match=match, number=4).update(outcome={"order": ["N", "S"]})  # corrected: passed A
    match_replay(match=match)
    match.refresh_from_db()
    assert (match.winner, match.result_reason) == ("NS", "passed_a")
    assert list(match.deals.order_by("number").values_list("flagged", flat=True)) == [False] * 4 + [True]
