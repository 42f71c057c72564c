"""Throttles: logins (django-axes) and the API's request rates (an atomic counter in the cache).

Axes refuses ``authenticate()`` calls without a request; scripts, the shell and management
commands make such calls and cannot be brute-forced from outside, so they pass unthrottled.
Every login over HTTP (the login page, the API's token endpoint) carries its request.

DRF's own rate throttles keep a list of timestamps per client in the cache and write it back
(read, modify, write): 16 concurrent requests all read the same list and all pass, so 1,300
requests a minute against a rate of 1,200 were never refused. :class:`AtomicRateThrottle` counts
in a fixed window with the cache's atomic ``add`` and ``incr`` (Redis ``SET NX EX`` and ``INCR``
with django-redis; a lock with the local-memory cache): every request is counted exactly once,
whatever the number of workers sharing the cache (``CACHE_URL``). A client may send up to twice
the rate across a window's edge, the usual price of a fixed window.
"""

from __future__ import annotations

import math
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.conf import settings as axes_settings
from axes.helpers import get_cool_off, get_failure_limit
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.throttling import AnonRateThrottle

from tournament.proxies import client_ip


class LoginThrottle(AxesStandaloneBackend):
    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def lockout_page(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict[str, Any] | None = None
) -> HttpResponse:
    """The login page's answer to a locked-out name (``AXES_LOCKOUT_CALLABLE``): the site's page, in
    the user's language, saying how many wrong passwords locked it and for how many minutes."""
    cool_off = get_cool_off(request)
    context = {
        "failure_limit": get_failure_limit(request, credentials),
        "minutes": math.ceil(cool_off.total_seconds() / 60) if cool_off else None,
    }
    return render(request, "registration/locked_out.html", context, status=axes_settings.AXES_HTTP_RESPONSE_CODE)


class AtomicRateThrottle(AnonRateThrottle):
    """A per-address rate (DRF's ``rate`` / ``scope``) counted atomically in a fixed window; the
    address is :func:`tournament.proxies.client_ip` (never a forwarded address the client chose)."""

    def get_ident(self, request: Any) -> str:
        return client_ip(request) or ""

    # Set by DRF's constructor from ``rate``: both None when no rate is set.
    num_requests: int | None
    duration: int | None

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None or self.num_requests is None or self.duration is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        self.window_ends = (window + 1) * self.duration
        self.now = now
        key = f"{self.key}:{window}"
        count = self._count(key, timeout=self.duration + 1)
        return count <= self.num_requests

    def _count(self, key: str, *, timeout: int) -> int:
        """This request's number in the window (1 for the first)."""
        for _attempt in range(3):
            self.cache.add(key, 0, timeout=timeout)
            try:
                return int(self.cache.incr(key))
            except ValueError:  # the window's key expired between add and incr: start it again
                continue
        return 1

    def wait(self) -> float | None:
        return max(0.0, self.window_ends - self.now)
