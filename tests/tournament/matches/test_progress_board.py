"""The room at a glance: the round's progress board — every table with its state,
counts per state, filters by area, referee and state, slowest/oldest first, paged — in a number
of queries that does not grow with the number of tables; organiser-only."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from tests.factories import english_client, organiser, referee, round_match, table_match
from tournament import labels
from tournament.matches import board, clock, services
from tournament.matches.models import ClaimStatus, Deal, DealClaim, RefereeAssignment

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 5, 1, 9, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def room(time_machine):
    """A round of six tables in two areas, with two referees, each table in another state."""
    time_machine.move_to(T0, tick=False)
    boss = organiser(username="boss")
    ref_a, ref_b = referee(username="ref_a", first_name="甲"), referee(username="ref_b", first_name="乙")
    first = table_match(profile="timed-40", organiser_user=boss, referee_user=ref_a)
    round_ = first.round
    tables = [first] + [round_match(round_=round_, referee_user=ref_a if i < 2 else ref_b) for i in range(5)]
    for index, match in enumerate(tables):
        match.table.area = "A区" if index < 3 else "B区"
        match.table.save()
    not_started = tables[5]
    clock.round_start(round_id=round_.pk)
    # tables[5] stays "not started": reset its clock as if it had been drawn after the start
    type(not_started).objects.filter(pk=not_started.pk).update(started_at=None, clock_ends_at=None, status="pending")
    time_machine.shift(dt.timedelta(minutes=12))
    services.deal_record(match_id=tables[0].pk, outcome={"order": ["N", "E", "S"]})
    services.deal_record(match_id=tables[0].pk, outcome={"order": ["N", "E", "S"]})
    services.deal_record(match_id=tables[1].pk, outcome={"order": ["E", "N", "W"]})
    services.adjustment_record(
        match_id=tables[2].pk, pair_id=tables[2].ew_pair_id, kind="forfeit", reason="absent"
    )  # finished: awaiting sign-off
    clock.match_pause(match_id=tables[3].pk, reason="dispute")  # disputed
    clock.match_call_now(match_id=tables[4].pk, reason="slow play")  # time called
    Deal.objects.filter(match=tables[1]).update(flagged=True)  # flagged
    return boss, ref_a, ref_b, round_, tables


def test_every_state_is_counted_and_shown(room):
    _, _, _, round_, tables = room
    result = board.round_board(round_=round_)
    states = {row.match.pk: row.state for row in result.rows}
    assert states == {
        tables[0].pk: "playing",
        tables[1].pk: "flagged",
        tables[2].pk: "awaiting",
        tables[3].pk: "disputed",
        tables[4].pk: "time_called",
        tables[5].pk: "not_started",
    }
    assert result.counts == {s: 1 for s in states.values()} and result.total == 6
    playing = next(row for row in result.rows if row.match.pk == tables[0].pk)
    assert (playing.deals, playing.elapsed_minutes, playing.referee) == (2, 12, "甲")
    tables[0].refresh_from_db()
    levels = (tables[0].state["levels"]["NS"], tables[0].state["levels"]["EW"])
    assert playing.score == f"{labels.level(levels[0])} : {labels.level(levels[1])}"
    assert levels[0] > 2 and levels[1] == 2
    rows = {row.match.pk: row for row in result.rows}
    assert rows[tables[3].pk].score == "2 : 2"  # started, no deal yet: at the start, not "—"
    assert rows[tables[5].pk].score == "—"  # not started


def test_filters_by_area_referee_and_state_and_the_slowest_first(room):
    _, _, ref_b, round_, tables = room
    assert {row.match.pk for row in board.round_board(round_=round_, area="B区").rows} == {t.pk for t in tables[3:]}
    by_ref = board.round_board(round_=round_, referee_id=ref_b.pk)
    assert {row.match.pk for row in by_ref.rows} == {t.pk for t in tables[3:]}
    assert [row.match.pk for row in board.round_board(round_=round_, state="disputed").rows] == [tables[3].pk]
    slowest = [row.match.pk for row in board.round_board(round_=round_, sort="slowest").rows]
    assert slowest[0] == tables[5].pk  # not started, no deal: first
    assert slowest.index(tables[0].pk) > slowest.index(tables[1].pk)  # two deals after one
    assert slowest[-1] == tables[2].pk  # finished tables last


def test_the_area_choices_are_every_area_of_the_rounds_tables_whatever_the_filters(room):
    _, _, ref_b, round_, tables = room
    assert board.round_board(round_=round_).areas == ["A区", "B区"]
    chosen = board.round_board(round_=round_, area="B区")
    assert chosen.areas == ["A区", "B区"] and chosen.total == 3 and sum(chosen.counts.values()) == 3
    assert board.round_board(round_=round_, referee_id=ref_b.pk).areas == ["A区", "B区"]  # ref_b: B区 only
    tables[0].table.area = ""
    tables[0].table.save()
    assert board.round_board(round_=round_).areas == ["A区", "B区"]


def test_a_round_of_two_sided_tables_reads_no_seats(room):
    _, _, _, round_, _ = room
    with CaptureQueriesContext(connection) as queries:
        board.round_board(round_=round_)
    assert not [query for query in queries.captured_queries if "matches_matchseat" in query["sql"]]


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_query_count_does_not_grow_with_the_number_of_tables(room):
    boss, ref_a, _, round_, _ = room
    client = english_client()
    client.force_login(boss)
    url = reverse("matches:progress_board", args=[round_.stage.tournament_id, round_.pk])
    client.get(url)  # warm the session and the caches
    before = _queries(client, url)
    for _ in range(30):
        round_match(round_=round_, referee_user=ref_a)
    clock.round_start(round_id=round_.pk)
    assert _queries(client, url) == before
    assert _queries(client, url + "?sort=oldest&area=A区") == before


def test_pages_of_a_hundred(room, monkeypatch):
    _, _, _, round_, _ = room
    monkeypatch.setattr(board, "PAGE_SIZE", 4)
    first, second = board.round_board(round_=round_), board.round_board(round_=round_, page=2)
    assert (first.pages, len(first.rows), len(second.rows)) == (2, 4, 2)
    assert board.round_board(round_=round_, page=99).page == 2  # a page past the end shows the last


def test_the_board_page_is_the_organisers_and_polls(room):
    boss, ref_a, _, round_, _ = room
    url = reverse("matches:progress_board", args=[round_.stage.tournament_id, round_.pk])
    client = english_client()
    for stranger in (organiser(username="other"), ref_a):
        client.force_login(stranger)
        assert client.get(url).status_code == 404
    client.force_login(boss)
    html = client.get(url).content.decode()
    assert 'hx-trigger="every 15s"' in html and "Awaiting" not in html
    assert "Finished, awaiting sign-off" in html and "Disputed" in html
    assert "<script>" not in html and "style=" not in html  # the CSP: no inline script or style
    fragment = client.get(url + "?state=flagged", headers={"HX-Request": "true"}).content.decode()
    assert fragment.startswith('<div id="board"') and "<html" not in fragment
    assert RefereeAssignment.objects.filter(round=round_).count() == 6


def test_the_rows_link_to_the_match_page(room):
    round_ = room[3]
    row = board.round_board(round_=round_).rows[0]
    assert row.url == reverse("matches:match", args=[row.match.pk])


def test_a_players_dispute_puts_its_table_among_the_disputed(room):
    _, _, _, round_, tables = room
    DealClaim.objects.create(
        match=tables[0],
        number=3,
        outcome={"order": ["N", "E", "S"]},
        side="NS",
        idempotency_key="k",
        status=ClaimStatus.DISPUTED,
        counter_outcome={"order": ["E", "N", "W"]},
    )
    result = board.round_board(round_=round_)
    states = {row.match.pk: row.state for row in result.rows}
    assert states[tables[0].pk] == "disputed" and result.counts["disputed"] == 2  # with the paused table
    row = next(row for row in result.rows if row.match.pk == tables[0].pk)
    assert row.elapsed_minutes == 12  # its clock runs on: the state does not say it is paused
    with translation.override("zh-hans"):
        assert str(board.STATE_NAMES["disputed"]) == "争议中"


def test_a_page_reads_the_levels_alone_and_the_details_of_its_own_tables_alone(room, monkeypatch):
    """The whole snapshot (every deal) is never fetched, and the pairs, deals so far and referee are
    read for the page's tables only, not for every table of the round."""
    _, _, _, round_, tables = room
    monkeypatch.setattr(board, "PAGE_SIZE", 2)
    with CaptureQueriesContext(connection) as queries:
        result = board.round_board(round_=round_)
    assert [row.match.pk for row in result.rows] == [tables[0].pk, tables[1].pk]
    sqls = [query["sql"] for query in queries.captured_queries]
    # a key of it alone is read inside a JSON operator or function: ("matches_match"."state" -> 'levels')
    assert not [sql for sql in sqls if re.search(r'(?<!\()"matches_match"\."state"', sql)]
    (details,) = [sql for sql in sqls if "registration_pair" in sql]
    assert f'"matches_match"."id" IN ({tables[0].pk}, {tables[1].pk})' in details
    assert "matches_refereeassignment" in details and "matches_deal" in details


def test_a_round_paused_reads_its_tables_paused_and_a_table_paused_before_it_disputed(room, time_machine):
    """The statement of a paused round (compiled once, as a running round's) tells the tables the
    round's pause stopped from the one stopped on its own before it; resumed, they play again."""
    _, _, _, round_, tables = room
    running = board.round_board(round_=round_)
    time_machine.shift(dt.timedelta(minutes=1))
    clock.round_pause(round_id=round_.pk, reason="fire alarm")
    round_.refresh_from_db()
    paused = {row.match.pk: row.state for row in board.round_board(round_=round_).rows}
    assert paused[tables[0].pk] == "paused" and paused[tables[3].pk] == "disputed"
    assert paused[tables[5].pk] == "not_started" and paused[tables[1].pk] == "flagged"
    clock.round_resume(round_id=round_.pk, reason="all clear")
    round_.refresh_from_db()
    resumed = board.round_board(round_=round_)
    assert [(row.match.pk, row.state) for row in resumed.rows] == [(row.match.pk, row.state) for row in running.rows]


def test_each_read_is_as_of_its_own_time(room, time_machine):
    """Past the tables' cap the playing table reads as time called, its elapsed time the new one's."""
    _, _, _, round_, tables = room
    before = {row.match.pk: row for row in board.round_board(round_=round_).rows}
    time_machine.shift(dt.timedelta(minutes=30))
    after = {row.match.pk: row for row in board.round_board(round_=round_).rows}
    assert (before[tables[0].pk].state, before[tables[0].pk].elapsed_minutes) == ("playing", 12)
    assert (after[tables[0].pk].state, after[tables[0].pk].elapsed_minutes) == ("time_called", 42)


def test_a_short_last_page_lists_its_own_tables_alone(room, monkeypatch):
    _, _, _, round_, tables = room
    monkeypatch.setattr(board, "PAGE_SIZE", 4)
    last = board.round_board(round_=round_, page=2)
    assert [row.match.pk for row in last.rows] == [tables[4].pk, tables[5].pk]
    assert [row.table_label for row in last.rows] == [str(tables[4].table.number), str(tables[5].table.number)]
    assert last.rows[0].entrants == f"{tables[4].ns_pair.name} – {tables[4].ew_pair.name}"


def test_the_board_page_lists_the_rounds_disputes_in_as_many_queries_however_many(room):
    boss, _, _, round_, tables = room
    url = reverse("matches:progress_board", args=[round_.stage.tournament_id, round_.pk])
    client = english_client()
    client.force_login(boss)
    client.get(url)  # warm the session and the caches
    none = _queries(client, url)
    assert 'id="disputes"' not in client.get(url).content.decode()
    claims = [
        DealClaim.objects.create(
            match=match,
            number=3,
            outcome={"order": ["N", "E", "S"]},
            side="NS",
            idempotency_key=f"k{match.pk}",
            status=ClaimStatus.DISPUTED,
            counter_outcome={"order": ["E", "N", "W"]},
        )
        for match in (tables[1], tables[0])
    ]
    assert _queries(client, url) == none
    html = client.get(url).content.decode()
    assert "2 disputes waiting for a referee" in html
    listed = re.findall(r'data-dispute="(\d+)"><a href="[^"]+">Table (\d+), deal 3</a>', html)
    assert listed == [
        (str(claim.pk), str(claim.match.table.number))
        for claim in sorted(claims, key=lambda claim: claim.match.table.number)
    ]


def test_the_board_is_its_events_organisers_and_a_superusers_under_its_own_event_alone(room):
    boss, _, _, round_, _ = room
    other = organiser(username="other_boss")
    elsewhere = table_match(organiser_user=other)
    root = get_user_model().objects.create_superuser(username="root", password="x")
    client = english_client()
    own = reverse("matches:progress_board", args=[round_.stage.tournament_id, round_.pk])
    misfiled = reverse("matches:progress_board", args=[elsewhere.round.stage.tournament_id, round_.pk])
    for user, url, status in ((boss, own, 200), (root, own, 200), (boss, misfiled, 404), (root, misfiled, 404)):
        client.force_login(user)
        assert client.get(url).status_code == status
    client.force_login(other)
    assert client.get(own).status_code == 404
