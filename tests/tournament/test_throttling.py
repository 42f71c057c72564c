"""The public API's throttle counts every request once, under concurrency: 1,300
requests from 16 threads against 1,200 a minute used to pass all (DRF's throttle reads, modifies
and writes back a list of timestamps; concurrent requests overwrite each other's)."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.test import RequestFactory

from tournament.api.public_views import PublicRateThrottle

NOW = 1_800_000_030.0  # a fixed instant in the middle of a minute: the test never straddles a window


def _request(address: str):
    request = RequestFactory().get("/api/public/tournaments/", REMOTE_ADDR=address)
    request.user = AnonymousUser()  # the public API reads no authentication
    return request


def _hammer(throttle_class, address: str, requests: int, threads: int = 16) -> list[bool]:
    def one(_n: int) -> bool:
        throttle = throttle_class()
        throttle.timer = lambda: NOW
        return throttle.allow_request(_request(address), None)

    with ThreadPoolExecutor(max_workers=threads) as pool:
        return list(pool.map(one, range(requests)))


def _address() -> str:
    """A fresh address per run: the counters of an earlier run in the shared Redis never count."""
    number = uuid.uuid4().int
    return f"10.{number % 250}.{number // 250 % 250}.{number // 62500 % 250 + 1}"


@pytest.mark.redis
def test_1300_concurrent_requests_against_1200_a_minute_refuse_exactly_the_excess(settings):
    settings.PUBLIC_API_THROTTLE_RATE = "1200/minute"
    answers = _hammer(PublicRateThrottle, _address(), 1300)
    assert answers.count(True) == 1200 and answers.count(False) == 100


def test_the_count_is_per_address_and_per_window(settings):
    settings.PUBLIC_API_THROTTLE_RATE = "5/minute"
    cache.clear()
    first, second = _address(), _address()
    assert _hammer(PublicRateThrottle, first, 8, threads=4).count(True) == 5
    assert _hammer(PublicRateThrottle, second, 3, threads=2).count(True) == 3
    throttle = PublicRateThrottle()
    throttle.timer = lambda: NOW + 60  # the next minute
    assert throttle.allow_request(_request(first), None)


def test_a_refused_client_is_told_when_the_window_ends(settings):
    settings.PUBLIC_API_THROTTLE_RATE = "1/minute"
    cache.clear()
    throttle = PublicRateThrottle()
    throttle.timer = lambda: NOW
    request = _request(_address())
    assert throttle.allow_request(request, None) and not throttle.allow_request(request, None)
    assert throttle.wait() == 30.0
