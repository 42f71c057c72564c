"""Suite-wide switches.

Tests marked ``postgres`` need row locks and real concurrent connections; ``celery_worker``
tests start a real worker against ``CELERY_BROKER_URL``; ``redis`` tests need the shared cache
(``CACHE_URL=redis://…``). On the zero-setup default (SQLite, no
broker) they are skipped with the reason; with ``REQUIRE_SERVICES=1`` (set by ``.ci/run``) a
missing service fails them instead, so CI can never pass by skipping.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def _service_missing(marker: str) -> str | None:
    if marker == "postgres" and connection.vendor != "postgresql":
        return "needs PostgreSQL (set DATABASE_URL)"
    if marker == "celery_worker" and not settings.CELERY_BROKER_URL:
        return "needs a Celery broker (set CELERY_BROKER_URL)"
    if marker == "redis" and "redis" not in settings.CACHES["default"]["BACKEND"].lower():
        return "needs Redis as the cache (set CACHE_URL=redis://…)"
    return None


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in ("postgres", "celery_worker", "redis"):
        if item.get_closest_marker(marker) is None:
            continue
        reason = _service_missing(marker)
        if reason is None:
            continue
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}")
        pytest.skip(reason)


def _database_url() -> str:
    """The test database as a URL, for a subprocess that must see what the test wrote."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture(scope="session", autouse=True)
def cache_of_this_worker():
    """Each parallel test process (pytest-xdist's ``gw0``, ``gw1``…) gets a Redis database of its
    own when the cache is Redis (CI): a test that clears the cache (``FLUSHDB``) or counts a
    throttle must never see another process's keys. ``CACHE_URL`` is changed too, so a real
    worker a test starts uses the same database as the test."""
    from django.test import override_settings

    from tournament.settings import cache_config

    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("CACHE_URL", "")
    if not worker.startswith("gw") or not url.startswith(("redis://", "rediss://")):
        yield
        return
    parts = urlsplit(url)
    database = int(parts.path.strip("/") or 0) + 1 + int(worker.removeprefix("gw"))
    ours = urlunsplit(parts._replace(path=f"/{database}"))
    os.environ["CACHE_URL"] = ours
    try:
        with override_settings(CACHES={"default": cache_config(ours)}):
            yield
    finally:
        os.environ["CACHE_URL"] = url


@pytest.fixture(autouse=True)
def standings_rebuilt_at_once(settings):
    """A result shows in the standings on the next request: no coalescing window between two
    rebuilds (production waits ``PUBLIC_REBUILD_SECONDS``). The window itself is tested with a
    controlled clock (tests/tournament/standings/test_live_standings.py), which sets it back."""
    settings.PUBLIC_REBUILD_SECONDS = 0


@pytest.fixture
def worker_env() -> dict[str, str]:
    """Extra environment of the real worker (a test module may override this fixture)."""
    return {}


@pytest.fixture
def worker_queue(worker_env):
    """A real ``celery -A tournament worker`` on a queue of its own, against the test database.

    Its own queue means nothing else on the broker takes the task and no stale worker answers.
    Use with ``@pytest.mark.celery_worker`` and ``django_db(transaction=True)``.
    """
    queue = f"test-{uuid.uuid4().hex[:12]}"
    env = {**os.environ, "DATABASE_URL": _database_url(), **worker_env}
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "tournament",
        "worker",
        "--pool=solo",
        "-Q",
        queue,
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-l",
        "warning",
    ]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        yield queue
    finally:
        process.terminate()
        try:
            output, _ = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        print(output)  # shown by pytest if the test failed


@pytest.fixture
def celery_eager():
    """Run tasks in-process even when CELERY_BROKER_URL is set (the PostgreSQL CI run), so tasks a
    test schedules never reach the shared broker; the real worker has its own tests (celery_worker)."""
    from tournament.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Every test hashes passwords with a fast hasher: the tests check who may sign in, not the
    hash's cost, and production's PBKDF2 spends about 0.3 s of a core on every user a test
    creates and every login. The production settings keep their hashers (``check --deploy``
    runs them in a subprocess of its own)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
