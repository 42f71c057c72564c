"""Who is asking: one setting (``TRUSTED_PROXIES``), one function (``tournament.proxies.client_ip``),
asked by the API's throttle, the audit's stored address and the login lockout — and a client
writing ``X-Forwarded-For`` itself changes none of them. The requests go through the whole
middleware stack (Django's test client), as a proxy's would."""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache
from django.test import RequestFactory
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import PairFactory, TournamentFactory, UserFactory, organiser
from tournament.proxies import client_ip

pytestmark = pytest.mark.django_db

PEER = "192.0.2.10"  # the connection's peer: the proxy, or the client itself without one


def _meta(forwarded: str | None = None, peer: str = PEER) -> dict[str, str]:
    meta = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return meta


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, None, PEER),
        (0, "203.0.113.5", PEER),  # no proxy trusted: the header is anyone's
        (1, None, PEER),
        (1, "203.0.113.5", "203.0.113.5"),  # nginx set it to the client's address
        (1, "6.6.6.6, 203.0.113.5", "203.0.113.5"),  # a client's own value stands left of the proxy's
        (2, "6.6.6.6, 203.0.113.5, 10.0.0.2", "203.0.113.5"),  # edge proxy, then an inner one
        (1, "not-an-address", PEER),  # garbage is nobody: the peer (the audit column is an address)
        (1, " 2001:DB8::1 ", "2001:db8::1"),  # canonical form: one client, one key
    ],
)
def test_the_client_is_the_address_the_outermost_trusted_proxy_wrote(settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXIES = proxies
    assert client_ip(RequestFactory().get("/", **_meta(forwarded))) == expected
    assert client_ip(_meta(forwarded)) == expected  # the WSGI environ reads the same


def _forged(n: int) -> str:
    return f"10.{n // 250 % 250}.{n % 250}.{uuid.uuid4().int % 250 + 1}"


def test_the_public_api_throttle_is_not_reset_by_a_forged_header(settings):
    settings.PUBLIC_API_THROTTLE_RATE = "3/minute"
    cache.clear()
    TournamentFactory()
    client = APIClient(REMOTE_ADDR="198.51.100.77")
    answers = [
        client.get("/api/public/tournaments/", HTTP_X_FORWARDED_FOR=_forged(n)).status_code for n in range(5)
    ]
    assert answers == [200, 200, 200, 429, 429]


def test_behind_one_proxy_the_throttle_counts_the_client_the_proxy_saw(settings):
    settings.PUBLIC_API_THROTTLE_RATE = "2/minute"
    settings.TRUSTED_PROXIES = 1
    cache.clear()
    TournamentFactory()
    client = APIClient(REMOTE_ADDR="127.0.0.1")  # nginx on the same machine
    first = [
        client.get("/api/public/tournaments/", HTTP_X_FORWARDED_FOR=f"{_forged(n)}, 203.0.113.9").status_code
        for n in range(3)
    ]
    other = client.get("/api/public/tournaments/", HTTP_X_FORWARDED_FOR="203.0.113.10").status_code
    assert first == [200, 200, 429] and other == 200


@pytest.mark.parametrize(("proxies", "expected"), [(0, "192.0.2.44"), (1, "203.0.113.21")])
def test_the_audit_keeps_the_address_the_trusted_proxies_give(client, settings, proxies, expected):
    settings.TRUSTED_PROXIES = proxies
    boss = organiser(username="boss")
    client.force_login(boss)
    event = TournamentFactory()
    event.organisers.add(boss)
    pair = PairFactory(tournament=event)
    client.post(
        reverse("registration:checkin_toggle", args=[event.pk, pair.pk]),
        REMOTE_ADDR="192.0.2.44",
        HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.21",
    )
    assert pair.history.first().history_ip_address == expected


@pytest.mark.parametrize("proxies", [0, 1])
def test_the_login_lockout_holds_whatever_address_the_client_writes(client, settings, fast_passwords, proxies):
    settings.TRUSTED_PROXIES = proxies
    UserFactory(username="ref")
    peer = {"REMOTE_ADDR": "127.0.0.1"} if proxies else {"REMOTE_ADDR": "198.51.100.5"}
    real = ", 203.0.113.50" if proxies else ""
    answers = [
        client.post(
            "/accounts/login/",
            {"username": "ref", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=_forged(n) + real,
            **peer,
        ).status_code
        for n in range(7)
    ]
    assert answers[:4] == [200] * 4 and answers[4:] == [429] * 3  # the fifth wrong password locks
    if proxies:  # another client behind the same proxy is not locked out by the first
        other = client.post(
            "/accounts/login/", {"username": "ref", "password": "wrong"}, HTTP_X_FORWARDED_FOR="203.0.113.51", **peer
        )
        assert other.status_code == 200
