"""Suite-wide switches.

Tests marked ``postgres`` need row locks and real concurrent connections; ``celery_worker``
tests start a real worker against ``CELERY_BROKER_URL``; ``redis`` tests need the shared cache
(``CACHE_URL=redis://…``). On the zero-setup default (SQLite, no
broker) they are skipped with the reason; with ``REQUIRE_SERVICES=1`` (set by ``.ci/run``) a
missing service fails them instead, so CI can never pass by skipping.
"""

from __future__ import annotations

import json
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


DURATIONS = ROOT / "tests" / "data" / "test_durations.json"
"""Seconds each slow test took on a recorded run (``pytest --record-durations``), by node id. Only
tests of a second or more are kept: any other test counts as quick."""
E2E = ROOT / "tests" / "e2e"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-durations",
        action="store_true",
        help=f"write the seconds of every test of a second or more that ran into {DURATIONS.relative_to(ROOT)}",
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slowest test modules run first, the browser tests' (tests/e2e) as one block ahead of the rest.

    With ``--dist worksteal`` (the Makefile's ``make test``) each process starts on its half of this order and an
    idle one takes the back half of a busy one's queue: the long tests (the browser tests, the demo's)
    then run early beside the quick ones instead of last, one process working through them while the
    other waits (pytest-django's order put the transactional tests, the browser ones among them, at the
    end). A module's tests stay together in their own order (its fixtures and imports warm), and the
    browser tests stay together, so a process starts Chromium once for them. A module's weight is the
    recorded seconds of its tests (``--record-durations``); a test missing from the record (a new one)
    counts as quick, so a new module goes among the quick ones. The order changes which process runs a
    test and when, never what it checks: no test reads data another left (a transactional test empties
    the database after itself, and the migrations seed no rows that one could take away). The sort is
    stable, so every process of a run computes the same order, as xdist requires."""
    try:
        recorded: dict[str, float] = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except FileNotFoundError:
        recorded = {}
    weight: dict[str, float] = {}
    for nodeid, seconds in recorded.items():
        module = nodeid.split("::", 1)[0]
        weight[module] = weight.get(module, 0.0) + seconds
    items.sort(
        key=lambda item: (
            not Path(item.path).is_relative_to(E2E),
            -weight.get(item.nodeid.split("::", 1)[0], 0.0),
        )
    )


_measured: dict[str, float] = {}
_first_of: dict[str, str] = {}  # each process's first test, which also created the test database


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    first = _first_of.setdefault(getattr(report, "worker_id", ""), report.nodeid)
    if report.nodeid != first:
        _measured[report.nodeid] = _measured.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """With ``--record-durations``, the tests of this run replace their recorded seconds (once, in the
    process that gathers every worker's reports). A process's first test keeps its record: its seconds
    include the test database's creation."""
    if not session.config.getoption("record_durations") or hasattr(session.config, "workerinput"):
        return
    try:
        recorded = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except FileNotFoundError:
        recorded = {}
    for nodeid, took in _measured.items():
        recorded.pop(nodeid, None)
        if took >= 1.0:
            recorded[nodeid] = round(took, 1)
    DURATIONS.write_text(
        json.dumps(dict(sorted(recorded.items())), indent=0, ensure_ascii=False) + "\n", encoding="utf-8"
    )


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
