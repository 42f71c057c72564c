"""What a deal entered through the referee API costs the database, counted at the cursor: the
match is read once, under its lock, by the access check itself; a retry is found among the deals
the fold reads anyway. (In a test the request's transaction is a savepoint: its SAVEPOINT and
RELEASE stand for the BEGIN and COMMIT of production.)"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import organiser, referee, table_match
from tests.tournament.api.test_referee_api import device
from tournament.matches.models import Deal

pytestmark = pytest.mark.django_db

MID_MATCH_DEAL = 12
"""Token; SAVEPOINT; the match locked with the access check; the archived guard; the deals; the
adjustments; the deal and its history row; the players' open entries of that deal; the match and
its history row; RELEASE."""


@pytest.fixture
def phone_and_url():
    ref = referee(username="ref")
    match = table_match(referee_user=ref, organiser_user=organiser(username="boss"))
    phone = device(ref)
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
