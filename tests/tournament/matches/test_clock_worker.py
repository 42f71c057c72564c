"""The time-up task through a real broker and a real worker: scheduled with an ETA, it calls time
at that moment (docs/rules.md §2), and a second delivery changes nothing."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.utils import timezone

from tests.factories import table_match
from tournament.matches import clock, tasks
from tournament.matches.models import Match
from tournament.matches.services import deal_record

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def celery_eager():
    """Not eager here: the task goes through the broker to the worker."""
    yield


def test_a_real_worker_calls_time_at_the_scheduled_moment(worker_queue, monkeypatch):
    # only the tasks sent below go to the broker (to this test's queue), not the 40-minute one
    monkeypatch.setattr(clock, "_schedule", lambda *args: None)
    match = table_match(profile="timed-40")
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})  # starts the clock
    ends_at = timezone.now() + dt.timedelta(seconds=4)
    Match.objects.filter(pk=match.pk).update(clock_ends_at=ends_at)
    for _ in range(2):  # a duplicate delivery must change nothing
        tasks.match_time_up.apply_async(args=[match.pk], eta=ends_at, queue=worker_queue)

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if match.time_called_at is not None:
            break
        time.sleep(0.5)
    assert match.time_called_at is not None and match.time_called_at >= ends_at
    assert match.time_called_during_deal == 2
    time.sleep(2)  # let the second delivery run too
    match.refresh_from_db()
    assert match.version == 2  # the deal, then one time call
