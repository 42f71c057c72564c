"""A real Celery worker process, a real broker, a real database: a task completes end to end.

The worker is started against the test database and a queue of its own, so nothing else on
the broker can take the task and no stale worker can answer for this one.
"""

from __future__ import annotations

import time

import pytest

from tests.factories import MatchFactory
from tournament.matches.models import Deal, MatchStatus
from tournament.matches.tasks import match_refresh

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def test_a_real_worker_replays_a_match_and_stores_its_result(worker_queue):
    match = MatchFactory()
    for number, order in enumerate((["N", "S"], ["N", "S"], ["N", "S"], ["N", "S"], ["N", "E", "S"]), start=1):
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
