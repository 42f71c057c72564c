"""Players' entry under real concurrency, on PostgreSQL: each thread has its own
connection and they start together. Two phones entering the same deal make one entry; the two
opponents confirming at once make one deal; a confirmation racing a referee's entry never doubles."""

from __future__ import annotations

import uuid

import pytest

from tests.tournament.matches.test_concurrency_postgres import together
from tests.tournament.matches.test_player_entry import players_match, seats
from tournament.matches import player_entry as pe
from tournament.matches.models import ClaimStatus, Deal, DealClaim
from tournament.matches.services import deal_record

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_phones_entering_the_same_deal_make_one_entry_and_one_refusal():
    match = players_match()
    s = seats(match)
    results = together(
        *[
            lambda seat=seat, order=order: pe.deal_claim_enter(
                match_id=match.pk,
                outcome={"order": order},
                player_id=s[seat].player.pk,
                number=1,
                idempotency_key=uuid.uuid4().hex,
            )
            for seat, order in (("N", ["N", "S"]), ("E", ["E", "W"]))
        ]
    )
    assert sorted(kind for kind, _value in results) == ["error", "ok"], results
    error = next(value for kind, value in results if kind == "error")
    assert getattr(error, "code", None) == "stale_number"
    assert DealClaim.objects.filter(match=match).count() == 1


def test_both_opponents_confirming_at_once_record_one_deal():
    match = players_match()
    s = seats(match)
    claim = pe.deal_claim_enter(
        match_id=match.pk, outcome={"order": ["N", "S"]}, player_id=s["N"].player.pk, number=1, idempotency_key="k"
    ).claim
    results = together(
        *[
            lambda seat=seat: pe.deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, player_id=s[seat].player.pk)
            for seat in ("E", "W")
        ]
    )
    assert [kind for kind, _value in results] == ["ok", "ok"], results
    assert sorted(answer.replayed for _kind, answer in results) == [False, True]
    assert Deal.objects.filter(match=match).count() == 1
    assert DealClaim.objects.get(pk=claim.pk).status == ClaimStatus.CONFIRMED


def test_a_confirmation_racing_a_referees_entry_of_the_same_deal_never_doubles():
    match = players_match()
    s = seats(match)
    claim = pe.deal_claim_enter(
        match_id=match.pk, outcome={"order": ["N", "S"]}, player_id=s["N"].player.pk, number=1, idempotency_key="k"
    ).claim
    results = together(
        lambda: pe.deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, player_id=s["E"].player.pk),
        lambda: deal_record(match_id=match.pk, outcome={"order": ["E", "W"]}, expected_version=0),
    )
    deals = list(Deal.objects.filter(match=match))
    claim.refresh_from_db()
    if claim.status == ClaimStatus.CONFIRMED:  # the confirmation came first: the referee's is stale
        assert results[1][0] == "error" and len(deals) == 1 and deals[0].outcome == {"order": ["N", "S"]}
    else:  # the referee came first: the entry is closed with the reason, its confirmation refused
        assert claim.status == ClaimStatus.REFUSED and claim.note  # in the language of the thread's write
        assert claim.history.first().history_change_reason == "superseded: a referee entered the deal"
        kind, error = results[0]
        assert kind == "error" and getattr(error, "code", None) == "claim_not_pending"
        assert len(deals) == 1 and deals[0].outcome == {"order": ["E", "W"]}
