"""Suite-wide switches.

Tests marked ``postgres`` need row locks and real concurrent connections; ``celery_worker``
tests start a real worker against ``CELERY_BROKER_URL``. On the zero-setup default (SQLite, no
broker) they are skipped with the reason; with ``REQUIRE_SERVICES=1`` (set by ``.ci/run``) a
missing service fails them instead, so CI can never pass by skipping.
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings


def _service_missing(marker: str) -> str | None:
    if marker == "postgres" and settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return "needs PostgreSQL (set DATABASE_URL)"
    if marker == "celery_worker" and not settings.CELERY_BROKER_URL:
        return "needs a Celery broker (set CELERY_BROKER_URL)"
    return None


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in ("postgres", "celery_worker"):
        if item.get_closest_marker(marker) is None:
            continue
        reason = _service_missing(marker)
        if reason is None:
            continue
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}")
        pytest.skip(reason)
