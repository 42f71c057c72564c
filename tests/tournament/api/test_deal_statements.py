"""What a deal entered through the referee API costs the database, counted at the cursor: the
match is read once, under its lock, by the access check itself, with its event (the archived
guard reads its status there) and whether it has adjustments or open players' entries (none: they
are not read); a retry is found among the deals the fold reads anyway. (In a test the request's
transaction is a savepoint: its SAVEPOINT and RELEASE stand for the BEGIN and COMMIT of
production.)"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIClient

from tests.factories import organiser, referee, table_match
from tests.tournament.api.test_referee_api import device
from tournament.matches import player_entry
from tournament.matches.models import AdjustmentKind, ClaimStatus, Deal, DealClaim, Match
from tournament.matches.services import adjustment_record
from tournament.registration.lifecycle import tournament_archive
from tournament.registration.models import EntryMode

pytestmark = pytest.mark.django_db

MID_MATCH_DEAL = 9
"""Token; SAVEPOINT; the match locked with the access check (and its event's status, whether it
has adjustments or open players' entries); the deals; the deal and its history row; the match and
its history row; RELEASE."""


@pytest.fixture
def phone_and_url():
    ref = referee(username="ref")
    match = table_match(referee_user=ref, organiser_user=organiser(username="boss"))
    phone = device(ref)
    phone.match = match
    url = reverse("api:deals", args=[match.pk])
    first = phone.post(url, {"order": ["N", "S"], "expected_version": 0, "idempotency_key": "k1"}, format="json")
    assert first.status_code == 201
    return phone, url, first.data["match"]["version"]


def test_a_mid_match_deal_reads_the_match_once_under_its_lock(phone_and_url):
    phone, url, version = phone_and_url
    body = {"order": ["E", "W"], "expected_version": version, "idempotency_key": "k2"}
    with CaptureQueriesContext(connection) as queries:
        second = phone.post(url, body, format="json")
    assert second.status_code == 201 and second.data["deal"]["number"] == 2
    statements = [query["sql"] for query in queries.captured_queries]
    assert len(statements) == MID_MATCH_DEAL, statements
    match_reads = [sql for sql in statements if sql.startswith('SELECT "matches_match"')]
    assert len(match_reads) == 1  # with the access check, FOR UPDATE on PostgreSQL


def test_a_retry_is_found_among_the_deals_and_stores_nothing(phone_and_url):
    phone, url, version = phone_and_url
    body = {"order": ["E", "W"], "expected_version": version, "idempotency_key": "k2"}
    first = phone.post(url, body, format="json")
    again = phone.post(url, body, format="json")
    assert again.status_code == 201 and again.data["replayed"] is True
    assert again.data["deal"]["number"] == first.data["deal"]["number"] == 2
    assert Deal.objects.filter(idempotency_key="k2").count() == 1
    assert not Deal.objects.filter(idempotency_key__isnull=True).exists()


def test_a_refused_deal_writes_nothing(phone_and_url):
    phone, url, version = phone_and_url
    stale = phone.post(url, {"order": ["E", "W"], "expected_version": version + 5}, format="json")
    assert stale.status_code == 409 and stale.data["error"]["code"] == "stale_version"
    bad = phone.post(url, {"order": ["N", "E"], "expected_version": version}, format="json")
    assert bad.status_code == 400
    assert Deal.objects.count() == 1


def test_an_archived_event_refuses_the_deal_from_the_lock_it_read(phone_and_url):
    phone, url, version = phone_and_url
    tournament_archive(tournament=phone.match.round.stage.tournament)
    refused = phone.post(url, {"order": ["E", "W"], "expected_version": version}, format="json")
    assert refused.status_code == 409 and refused.data["error"]["code"] == "event_archived"
    assert Deal.objects.count() == 1


def test_a_match_with_an_adjustment_folds_it_with_the_deal(phone_and_url):
    phone, url, _version = phone_and_url
    match = phone.match
    adjustment_record(
        match_id=match.pk, pair_id=match.ew_pair_id, kind=AdjustmentKind.PENALTY, reason="phone", levels=1
    )
    before = Match.objects.get(pk=match.pk)
    answer = phone.post(url, {"order": ["N", "E", "S"], "expected_version": before.version}, format="json")
    assert answer.status_code == 201
    stored = Match.objects.get(pk=match.pk)
    assert len(stored.state["adjustments"]) == 1  # folded with the deal, not dropped
    assert stored.state["levels"]["EW"] == before.state["levels"]["EW"]  # the deal left E/W where the penalty put them
    assert answer.data["match"]["levels"] == stored.state["levels"]


def test_a_referees_deal_closes_the_players_open_entry_of_its_number(phone_and_url):
    phone, url, version = phone_and_url
    match = phone.match
    tournament = match.round.stage.tournament
    tournament.entry_mode = EntryMode.PLAYERS_OPPONENTS_CONFIRM
    tournament.save()
    north = next(seat for seat in player_entry.table_players(match=match) if seat.seat == "N")
    claim = player_entry.deal_claim_enter(
        match_id=match.pk, outcome={"order": ["N", "S"]}, player_id=north.player.pk, number=2, idempotency_key="c2"
    ).claim
    answer = phone.post(url, {"order": ["E", "W"], "expected_version": version}, format="json")
    assert answer.status_code == 201 and answer.data["deal"]["number"] == 2
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.REFUSED and claim.note  # closed, the table told why
    assert DealClaim.objects.filter(match=match).count() == 1


def _drf_refusal(key: str) -> str:
    """What DRF's own token check says to ``key`` (in the API's language, Chinese first)."""
    with translation.override("zh-hans"), pytest.raises(AuthenticationFailed) as refused:
        TokenAuthentication().authenticate_credentials(key)
    return str(refused.value.detail)


def test_the_token_is_read_as_drf_reads_it_and_refused_in_its_words():
    """The token's statement is compiled once (tournament.api.authentication); an unknown key and an
    inactive user are refused as DRF refuses them."""
    ref = referee(username="ref")
    match = table_match(referee_user=ref)
    phone = device(ref)
    assert phone.get(reverse("api:match", args=[match.pk])).status_code == 200
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    refused = stranger.get(reverse("api:match", args=[match.pk]))
    assert refused.data["error"] == {"code": "authentication_failed", "message": _drf_refusal("0" * 40)}
    ref.is_active = False
    ref.save()
    refused = phone.get(reverse("api:match", args=[match.pk]))
    key = Token.objects.get(user=ref).key
    assert refused.data["error"] == {"code": "authentication_failed", "message": _drf_refusal(key)}
    assert refused.status_code == stranger.get(reverse("api:match", args=[match.pk])).status_code == 403
