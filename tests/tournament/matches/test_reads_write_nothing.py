"""A GET writes nothing. Past a table's cap, with a player's claim past its auto-confirm time, every
page and API read of the match, its round and its table shows time called — computed in memory,
with the version the call will store — and leaves the database as it was; the Celery sweep (or the
next write) stores the call and confirms the claim (docs/referee.md, the clock)."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import english_client, organiser, referee, table_match
from tournament.matches import player_entry, tasks
from tournament.matches.clock import round_start
from tournament.matches.models import ClaimStatus, DealClaim, Match
from tournament.matches.services import deal_record
from tournament.matches.table_links import table_token
from tournament.registration.models import EntryMode

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 5, 1, 9, 0, tzinfo=dt.timezone.utc)
WRITES = ("INSERT", "UPDATE", "DELETE")


@pytest.fixture
def past_the_cap(time_machine):
    """A timed-40 table one deal in, a player's claim for deal 2 waiting, 45 minutes after the start."""
    cache.clear()
    time_machine.move_to(T0, tick=False)
    boss, ref = organiser(username="boss"), referee(username="ref")
    match = table_match(profile="timed-40", organiser_user=boss, referee_user=ref)
    tournament = match.round.stage.tournament
    tournament.entry_mode = EntryMode.PLAYERS_OPPONENTS_CONFIRM
    tournament.auto_confirm_minutes = 5
    tournament.save()
    round_start(round_id=match.round_id)
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    north = next(seat for seat in player_entry.table_players(match=match) if seat.seat == "N")
    claim = player_entry.deal_claim_enter(
        match_id=match.pk, outcome={"order": ["E", "W"]}, player_id=north.player.pk, number=2,
        idempotency_key=uuid.uuid4().hex,
    ).claim  # fmt: skip
    time_machine.move_to(T0 + dt.timedelta(minutes=45))
    return boss, ref, north, Match.objects.get(pk=match.pk), claim


def _writes(client, url: str) -> list[str]:
    """The write statements a GET of ``url`` ran (counted at the cursor: the test client's
    request_started clears CaptureQueriesContext's log)."""
    statements: list[str] = []

    def record(execute, sql, *args):
        statements.append(sql)
        return execute(sql, *args)

    with connection.execute_wrapper(record):
        response = client.get(url)
    assert response.status_code == 200, url
    return [sql for sql in statements if sql.lstrip().upper().startswith(WRITES)]


def test_no_page_or_api_read_writes_and_the_sweep_stores_what_was_due(past_the_cap):
    boss, ref, north, match, claim = past_the_cap
    tournament_id, round_id = match.round.stage.tournament_id, match.round_id
    token = table_token(round_=match.round, table_id=match.table_id)

    referee_pages, organiser_pages = english_client(), english_client()
    referee_pages.force_login(ref)
    organiser_pages.force_login(boss)
    phone = english_client()
    identify = phone.post(reverse("matches:table_identify", args=[token]), {"code": north.player.employee_number})
    assert identify.status_code == 302
    api = APIClient()
    api.force_authenticate(ref)
    reads = [
        (referee_pages, reverse("matches:match", args=[match.pk])),
        (referee_pages, reverse("matches:match", args=[match.pk]) + "?panel=clock"),
        (referee_pages, reverse("matches:referee_home")),
        (organiser_pages, reverse("matches:audit", args=[match.pk])),
        (organiser_pages, reverse("matches:round_clock", args=[tournament_id, round_id])),
        (organiser_pages, reverse("matches:progress_board", args=[tournament_id, round_id])),
        (phone, reverse("matches:table", args=[token])),
        (api, reverse("api:match", args=[match.pk])),
        (api, reverse("api:my_tables")),
    ]
    for client, url in reads:
        assert _writes(client, url) == [], url

    match.refresh_from_db()
    assert (match.time_called_at, match.time_called_during_deal, match.version) == (None, None, 1)
    assert DealClaim.objects.get(pk=claim.pk).status == ClaimStatus.PENDING
    # … yet each read showed the call as made, with the version the call stores
    assert "Time called" in referee_pages.get(reverse("matches:match", args=[match.pk])).content.decode()
    assert api.get(reverse("api:match", args=[match.pk])).data["version"] == 2
    board = organiser_pages.get(reverse("matches:progress_board", args=[tournament_id, round_id])).context["board"]
    assert [row.state for row in board.rows] == ["time_called"]

    assert tasks.clock_sweep.apply().get() == {"tables_called": 1, "claims_confirmed": 1}
    match.refresh_from_db()
    assert match.time_called_at == T0 + dt.timedelta(minutes=45) and match.time_called_during_deal == 2
    assert DealClaim.objects.get(pk=claim.pk).status == ClaimStatus.CONFIRMED
