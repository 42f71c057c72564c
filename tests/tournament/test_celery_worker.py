"""A real Celery worker process, a real broker, a real database: a task completes end to end.

The worker is started against the test database and a queue of its own, so nothing else on
the broker can take the task and no stale worker can answer for this one.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import MatchFactory
from tournament.matches.models import Deal, MatchStatus
from tournament.matches.tasks import match_time_up

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def test_a_real_worker_calls_time_at_the_cap_and_stores_the_refolded_match(worker_queue):
    """The time-up task on a real worker: it calls time during the deal in play (docs/rules.md §2) and
    stores the match folded from its deals, as the scheduled task does on the day."""
    now = timezone.now()
    match = MatchFactory(started_at=now - timedelta(minutes=41), clock_ends_at=now - timedelta(minutes=1))
    for number in (1, 2, 3):
        Deal.objects.create(match=match, number=number, outcome={"order": ["N", "S"]})
    assert match.state == {} and match.time_called_at is None

    match_time_up.apply_async(args=[match.pk], queue=worker_queue)

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if match.time_called_at is not None:
            break
        time.sleep(0.5)
    assert match.time_called_at is not None
    assert match.time_called_during_deal == 4  # the deal being played when time was called
    assert match.status == MatchStatus.RUNNING
    # timed-40 is seed 002's +5/+3/+1: 2 → 7 → 12 → A (an upgrade never passes A)
    assert [deal.record["levels_after"]["NS"] for deal in match.deals.order_by("number")] == [7, 12, 14]
