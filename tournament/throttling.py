"""Login throttling (django-axes) for every login that comes with a request.

Axes refuses ``authenticate()`` calls without a request; scripts, the shell and management
commands make such calls and cannot be brute-forced from outside, so they pass unthrottled.
Every login over HTTP (the login page, the API's token endpoint) carries its request.
"""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend


class LoginThrottle(AxesStandaloneBackend):
    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
