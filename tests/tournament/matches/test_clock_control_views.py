"""The organiser's clock buttons: organiser-only (another organiser gets 404), a refused
change is said plainly and changes nothing, and the referee's page shows the new time."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import english_client, organiser, referee, round_match, table_match
from tournament.matches import clock, services
from tournament.matches.models import Match, Round

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 5, 1, 9, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def setup(time_machine):
    time_machine.move_to(T0, tick=False)
    boss = organiser(username="boss")
    ref = referee(username="ref")
    match = table_match(profile="timed-40", organiser_user=boss, referee_user=ref)
    round_match(round_=match.round)
    clock.round_start(round_id=match.round_id)
    return boss, ref, match, time_machine


def change_url(match: Match) -> str:
    return reverse("matches:round_clock_change", args=[match.round.stage.tournament_id, match.round_id])


def table_url(match: Match) -> str:
    return reverse("matches:table_clock_change", args=[match.round.stage.tournament_id, match.round_id, match.pk])


def test_another_organiser_and_a_referee_get_404(setup):
    _, ref, match, _ = setup
    client = english_client()
    for user in (organiser(username="other"), ref):
        client.force_login(user)
        assert client.post(change_url(match), {"action": "pause", "reason": "x"}).status_code == 404
        assert client.post(table_url(match), {"action": "pause", "reason": "x"}).status_code == 404
    assert Round.objects.get(pk=match.round_id).paused_at is None


def test_the_organiser_pauses_and_extends_and_the_referee_sees_it(setup):
    boss, ref, match, frozen = setup
    client = english_client()
    client.force_login(boss)
    page = reverse("matches:round_clock", args=[match.round.stage.tournament_id, match.round_id])
    html = client.get(page).content.decode()
    assert "Pause" in html and "Call time now" in html and "This table’s clock" in html
    frozen.shift(dt.timedelta(minutes=10))
    response = client.post(change_url(match), {"action": "pause", "reason": "fire alarm"}, follow=True)
    assert "Clock paused." in response.content.decode() and "Paused" in response.content.decode()

    referee_client = english_client()
    referee_client.force_login(ref)
    html = referee_client.get(reverse("matches:match", args=[match.pk])).content.decode()
    assert "Paused" in html and "30 minutes left" in html

    frozen.shift(dt.timedelta(minutes=5))
    client.post(change_url(match), {"action": "resume", "reason": "all clear"})
    client.post(change_url(match), {"action": "extend", "minutes": "10", "reason": "lost time"})
    html = referee_client.get(reverse("matches:match", args=[match.pk])).content.decode()
    assert "Paused" not in html and "40 minutes left" in html  # 30 left + 10 more
    match.refresh_from_db()
    assert match.clock_ends_at == T0 + dt.timedelta(minutes=55)


def test_a_refused_change_is_said_and_changes_nothing(setup):
    boss, _, match, _ = setup
    client = english_client()
    client.force_login(boss)
    response = client.post(change_url(match), {"action": "resume", "reason": "x"}, follow=True)
    assert "The clock is running, not paused." in response.content.decode()
    response = client.post(change_url(match), {"action": "extend", "reason": "x"}, follow=True)
    assert "Give the number of minutes." in response.content.decode()
    response = client.post(table_url(match), {"action": "cap", "minutes": "40", "reason": "x"}, follow=True)
    assert "This table already has a cap of 40 minutes." in response.content.decode()
    response = client.post(change_url(match), {"action": "pause", "reason": ""}, follow=True)
    assert response.status_code == 200
    round_ = Round.objects.get(pk=match.round_id)
    assert round_.ends_at == T0 + dt.timedelta(minutes=40) and round_.paused_at is None


def test_one_table_is_called_from_its_card(setup):
    boss, _, match, _ = setup
    client = english_client()
    client.force_login(boss)
    response = client.post(table_url(match), {"action": "call", "reason": "slow play"}, follow=True)
    assert "Time called." in response.content.decode()
    match.refresh_from_db()
    assert match.time_called_at == T0


def test_the_referee_page_says_what_happens_at_time_up(setup):
    _, ref, match, frozen = setup
    services.deal_record(match_id=match.pk, outcome={"order": ["N", "E", "S"]})
    frozen.shift(dt.timedelta(minutes=41))
    referee_client = english_client()
    referee_client.force_login(ref)
    html = referee_client.get(reverse("matches:match", args=[match.pk])).content.decode()
    assert "Deal 2 is the last deal" in html  # the deal being played when time was called
    services.deal_record(match_id=match.pk, outcome={"order": ["E", "N", "W"]})  # 4 : 4 after deal 2
    html = referee_client.get(reverse("matches:match", args=[match.pk])).content.decode()
    assert "Levels are equal: first to reach wins: N/S." in html  # timed-40: first_to_reach
    chinese = Client()
    chinese.force_login(ref)
    assert "级数相同" in chinese.get(reverse("matches:match", args=[match.pk])).content.decode()


def test_one_table_gets_its_own_cap_from_its_card(setup):
    boss, ref, match, frozen = setup
    client = english_client()
    client.force_login(boss)
    frozen.shift(dt.timedelta(minutes=10))
    response = client.post(table_url(match), {"action": "cap", "minutes": "50", "reason": "started late"}, follow=True)
    assert "Time cap changed." in response.content.decode()
    match.refresh_from_db()
    assert (match.time_cap_minutes, match.clock_ends_at) == (50, T0 + dt.timedelta(minutes=50))
    assert match.history.filter(history_change_reason="started late", history_user=boss).exists()
    referee_client = english_client()
    referee_client.force_login(ref)
    html = referee_client.get(reverse("matches:match", args=[match.pk])).content.decode()
    assert "40 minutes left" in html


def test_the_clock_page_costs_the_same_queries_for_3_or_30_tables_and_shows_a_due_call(time_machine):
    """The clock page checked every table's time one by one (0.45–0.66 s at 2,500 tables); it shows
    a call due at a table without storing it (the sweep does)."""
    from django.db import connection

    time_machine.move_to(T0, tick=False)
    boss = organiser(username="boss")
    client = english_client()
    client.force_login(boss)

    def loaded(tables: int) -> tuple[int, Match]:
        first = table_match(profile="timed-40", organiser_user=boss)
        for _ in range(tables - 1):
            round_match(round_=first.round)
        clock.round_start(round_id=first.round_id)
        clock.match_cap_change(match_id=first.pk, minutes=10, reason="a ruling")  # due before the round
        page = reverse("matches:round_clock", args=[first.round.stage.tournament_id, first.round_id])
        time_machine.move_to(T0 + dt.timedelta(minutes=15))
        assert "Time called" in client.get(page).content.decode()  # shown at the due table, not stored
        # counted at the cursor: the test client's request_started clears CaptureQueriesContext's log
        queries: list[str] = []
        with connection.execute_wrapper(lambda execute, sql, *args: (queries.append(sql), execute(sql, *args))[1]):
            assert client.get(page).status_code == 200
        time_machine.move_to(T0)
        assert queries
        return len(queries), first

    small, _first = loaded(3)
    large, first = loaded(30)
    assert large == small
    assert not Match.objects.filter(time_called_at__isnull=False).exists()
    time_machine.move_to(T0 + dt.timedelta(minutes=15))
    assert clock.time_calls_due() == 2  # the sweep: the due table of each round
    first.refresh_from_db()
    assert first.time_called_at == T0 + dt.timedelta(minutes=15) and first.time_called_during_deal == 1
    assert Match.objects.filter(round_id=first.round_id, time_called_at__isnull=False).count() == 1


def test_the_clock_page_comes_in_pages_and_finds_one_table(setup):
    boss, _, match, _ = setup
    for _ in range(105):
        round_match(round_=match.round)
    client = english_client()
    client.force_login(boss)
    page = reverse("matches:round_clock", args=[match.round.stage.tournament_id, match.round_id])
    html = client.get(page).content.decode()
    assert html.count('class="card table-card') == 100 and "Page 1 of 2" in html
    html = client.get(page, {"page": 2}).content.decode()
    assert html.count('class="card table-card') == 7
    html = client.get(page, {"table": match.table.number}).content.decode()
    assert html.count('class="card table-card') == 1 and f"Table {match.table.number}" in html
    assert "No table 99999 in this round." in client.get(page, {"table": "99999"}).content.decode()


def test_calling_time_asks_first_and_a_called_round_can_be_reopened(setup):
    boss, _, match, frozen = setup
    client = english_client()
    client.force_login(boss)
    page = reverse("matches:round_clock", args=[match.round.stage.tournament_id, match.round_id])
    html = client.get(page).content.decode()
    assert html.count('value="call" class="danger" data-confirm=') == 3  # the round's and each table's
    frozen.shift(dt.timedelta(minutes=10))
    client.post(change_url(match), {"action": "call", "reason": "tapped"})
    html = client.get(page).content.decode()
    assert "Reopen the round" in html and 'value="pause"' not in html

    # Reopening is the round's: posted for one table it is refused in words, nothing changes.
    refused = client.post(table_url(match), {"action": "reopen", "minutes": "5", "reason": "x"}, follow=True)
    assert "That change is made for the whole round." in refused.content.decode()
    response = client.post(change_url(match), {"action": "reopen", "reason": "by mistake"}, follow=True)
    assert "Give the number of minutes." in response.content.decode()
    reopen = {"action": "reopen", "minutes": "20", "reason": "by mistake"}
    response = client.post(change_url(match), reopen, follow=True)
    html = response.content.decode()
    assert "The round plays on" in html and 'value="pause"' in html
    match.refresh_from_db()
    assert match.time_called_at is None and match.clock_ends_at == T0 + dt.timedelta(minutes=30)
