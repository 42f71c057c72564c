"""A referee voids a disputed deal while a later entry is open: the table's numbers stay whole.

Voiding deal 1 with claim 2 open used to make the next number ``confirmed + open + 1`` = 2, which
claim 2 holds (an IntegrityError, 500, on the partial unique constraint), and confirming claim 2
said falsely that deal 2 "was recorded meanwhile by someone else" and refused it for good."""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.factories import english_client, referee, table_match
from tournament.matches import player_entry as pe
from tournament.matches.models import ClaimStatus, Deal, DealClaim, Match
from tournament.matches.services import deal_record
from tournament.matches.table_links import table_token
from tournament.registration.models import EntryMode

pytestmark = pytest.mark.django_db

NS_WINS = {"order": ["N", "S"]}
EW_WINS = {"order": ["E", "W"]}


@pytest.fixture(autouse=True)
def no_wrong_codes_counted():
    cache.clear()


def _match(ref) -> Match:
    match = table_match(referee_user=ref)
    tournament = match.round.stage.tournament
    tournament.entry_mode = EntryMode.PLAYERS_OPPONENTS_CONFIRM
    tournament.save()
    return Match.objects.select_related("round__stage__tournament").get(pk=match.pk)


def _enter(match, seat, outcome, number):
    return pe.deal_claim_enter(
        match_id=match.pk, outcome=outcome, player_id=seat.player.pk, number=number, idempotency_key=uuid.uuid4().hex
    ).claim


def test_voiding_a_disputed_deal_with_a_later_entry_open_keeps_the_numbers_whole():
    ref = referee()
    match = _match(ref)
    s = {seat.seat: seat for seat in pe.table_players(match=match)}
    first = _enter(match, s["N"], NS_WINS, 1)
    pe.deal_claim_dispute(match_id=match.pk, claim_id=first.pk, player_id=s["E"].player.pk, counter_outcome=EW_WINS)
    second = _enter(match, s["N"], NS_WINS, 2)
    pe.deal_claim_settle(match_id=match.pk, claim_id=first.pk, user=ref, choice="void", reason="看不清")

    # the next entry is a clear refusal, not a 500: deal 1 waits for the referee
    for number in (1, 2, 3, None):
        with pytest.raises(pe.ClaimRefused) as refused:
            _enter(match, s["E"], EW_WINS, number)
        assert refused.value.code == "deal_missing" and "Deal 1" in refused.value.message
    # confirming deal 2 now says what is missing, and leaves the claim waiting (not refused)
    with pytest.raises(pe.ClaimRefused) as refused:
        pe.deal_claim_confirm(match_id=match.pk, claim_id=second.pk, player_id=s["E"].player.pk)
    assert refused.value.code == "deal_missing"
    second.refresh_from_db()
    assert second.status == ClaimStatus.PENDING

    deal_record(match_id=match.pk, outcome=EW_WINS, user=ref)  # the referee enters deal 1
    answer = pe.deal_claim_confirm(match_id=match.pk, claim_id=second.pk, player_id=s["E"].player.pk)
    assert answer.refusal is None
    assert list(Deal.objects.filter(match=match).order_by("number").values_list("outcome", flat=True)) == [
        EW_WINS,
        NS_WINS,
    ]
    assert _enter(match, s["E"], EW_WINS, 3).number == 3


def test_the_table_page_answers_the_missing_deal_in_words_not_a_server_error():
    ref = referee()
    match = _match(ref)
    s = {seat.seat: seat for seat in pe.table_players(match=match)}
    first = _enter(match, s["N"], NS_WINS, 1)
    pe.deal_claim_dispute(match_id=match.pk, claim_id=first.pk, player_id=s["E"].player.pk, counter_outcome=None)
    _enter(match, s["N"], NS_WINS, 2)
    pe.deal_claim_settle(match_id=match.pk, claim_id=first.pk, user=ref, choice="void", reason="重打")
    token = table_token(round_=match.round, table_id=match.table_id)
    client = english_client(raise_request_exception=False)
    client.post(reverse("matches:table_identify", args=[token]), {"code": s["W"].player.employee_number})
    body = {"order": "EW", "version": 0, "idempotency_key": "x1", "number": 2}
    queued = client.post(reverse("matches:table_deal", args=[token]), body, HTTP_X_DEAL_QUEUE="1")
    assert queued.status_code == 409 and queued.json()["code"] == "deal_missing"
    assert DealClaim.objects.filter(match=match, status__in=["pending", "disputed"]).count() == 1
