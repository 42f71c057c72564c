"""A real Celery worker process, a real broker, a real database: a task completes end to end.

The worker is started against the test database and a queue of its own, so nothing else on
the broker can take the task and no stale worker can answer for this one.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

from tests.factories import MatchFactory
from tournament.matches.models import Deal, MatchStatus
from tournament.matches.tasks import match_refresh

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def _database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def worker_queue():
    queue = f"test-{uuid.uuid4().hex[:12]}"
    env = {**os.environ, "DATABASE_URL": _database_url()}
    process = subprocess.Popen(
        [
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
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
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


def test_a_real_worker_replays_a_match_and_stores_its_result(worker_queue):
    match = MatchFactory()
    for number, order in enumerate(
        (["N", "S"], ["N", "S"], ["N", "S"], ["N", "S"], ["N", "E", "S"]), start=1
    ):
        Deal.objects.create(match=match, number=number, outcome={"order": order})
    assert match.state == {}

    match_refresh.apply_async(args=[match.pk], queue=worker_queue)

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if match.state:
            break
        time.sleep(0.5)
    assert match.state["status"] == "finished"
    assert (match.winner, match.result_reason) == ("NS", "passed_a")
    assert match.status == MatchStatus.FINISHED
    assert [deal.record["levels_after"]["NS"] for deal in match.deals.order_by("number")] == [
        5,
        8,
        11,
        14,
        14,
    ]
