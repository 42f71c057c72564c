"""Nothing lost, nothing doubled (docs/design.md), on PostgreSQL with real concurrent
connections: each thread below has its own database connection and they start together."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.db.utils import OperationalError
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import referee, round_match, table_match
from tournament.matches.clock import round_call_time, round_start
from tournament.matches.errors import StaleVersion
from tournament.matches.models import Deal, Match
from tournament.matches.services import deal_record

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def together(*calls: Callable[[], Any]) -> list[tuple[str, Any]]:
    """Run the calls at the same moment, each in a thread with its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list[tuple[str, Any]] = [("missing", None)] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = ("ok", call())
        except Exception as error:  # reported to the test, not swallowed
            results[index] = ("error", error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index, call)) for index, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def device(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def test_two_devices_entering_the_same_deal_record_exactly_one():
    match = table_match()
    results = together(
        *[lambda: deal_record(match_id=match.pk, outcome={"order": ["N", "S"]}, expected_version=0)] * 2
    )
    outcomes = sorted(kind for kind, _value in results)
    assert outcomes == ["error", "ok"], results
    error = next(value for kind, value in results if kind == "error")
    assert isinstance(error, StaleVersion) and error.match.version == 1
    assert Deal.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).version == 1


def test_two_phones_through_the_api_one_deal_one_409_with_the_state():
    ref = referee(username="ref")
    match = table_match(referee_user=ref)
    url = reverse("api:deals", args=[match.pk])
    phones = [device(ref), device(ref)]
    results = together(
        *[
            lambda phone=phone, order=order: phone.post(
                url, {"order": order, "expected_version": 0}, format="json"
            )
            for phone, order in zip(phones, (["N", "S"], ["E", "W"]), strict=True)
        ]
    )
    statuses = sorted(response.status_code for _kind, response in results)
    assert statuses == [201, 409], results
    conflict = next(response for _kind, response in results if response.status_code == 409)
    assert conflict.data["error"]["code"] == "stale_version"
    assert conflict.data["error"]["match"]["version"] == 1
    assert Deal.objects.filter(match=match).count() == 1


def test_a_retried_submission_with_the_same_key_returns_the_first_result():
    ref = referee(username="ref")
    match = table_match(referee_user=ref)
    url = reverse("api:deals", args=[match.pk])
    phone = device(ref)
    body = {"order": ["N", "E", "S"], "expected_version": 0, "idempotency_key": "retry-1"}
    results = together(*[lambda: phone.post(url, body, format="json")] * 3)
    responses = [response for _kind, response in results]
    assert [response.status_code for response in responses] == [201, 201, 201], results
    assert len({response.data["deal"]["number"] for response in responses}) == 1
    assert sorted(response.data["replayed"] for response in responses) == [False, True, True]
    assert Deal.objects.filter(match=match).count() == 1


def test_a_stale_version_is_409_on_postgresql():
    ref = referee(username="ref")
    match = table_match(referee_user=ref)
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    response = device(ref).post(
        reverse("api:deals", args=[match.pk]), {"order": ["E", "W"], "expected_version": 0}, format="json"
    )
    # the current state: N/S up 5 after a 1-2 finish (timed-40 is seed 002's +5/+3/+1)
    assert response.status_code == 409 and response.data["error"]["match"]["levels"] == {"NS": 7, "EW": 2}


def test_entry_locks_one_match_not_the_whole_tournament():
    """A bare FOR UPDATE would lock the joined round/stage/tournament rows as well."""
    match = table_match()
    neighbour = round_match(round_=match.round)
    holding, release = threading.Event(), threading.Event()

    def hold_first_match() -> None:
        with transaction.atomic():
            Match.objects.select_for_update(of=("self",)).select_related("round__stage__tournament").get(pk=match.pk)
            holding.set()
            release.wait(timeout=10)

    def enter_next_door() -> Any:
        holding.wait(timeout=10)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '3s'")
        try:
            return deal_record(match_id=neighbour.pk, outcome={"order": ["N", "S"]}).deal.number
        finally:
            release.set()

    results = together(hold_first_match, enter_next_door)
    assert results[1] == ("ok", 1), results
    assert not isinstance(results[1][1], OperationalError)


def test_time_is_called_once_when_the_task_and_pages_race(time_machine):
    import datetime as dt

    time_machine.move_to(dt.datetime(2026, 5, 1, 9, 0, tzinfo=dt.timezone.utc), tick=False)
    match = table_match()
    round_start(round_id=match.round_id)
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    time_machine.shift(dt.timedelta(minutes=41))
    results = together(*[lambda: round_call_time(round_id=match.round_id)] * 3)
    assert sorted(value for _kind, value in results) == [False, False, True], results
    match.refresh_from_db()
    assert (match.time_called_during_deal, match.version) == (2, 2)
