"""A pair's page seen for the first time (each of thousands of phones opens a different pair's page, so
its first view is what a round costs): few round trips to the shared cache, no lock taken for a page
only its own pair's phones ask, the own version a first view creates made in the same round trip as
the versions are read; the pair read with its players, its matches planned once per connection."""

from __future__ import annotations

import time

import pytest
import redis.connection
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournament.standings.events import knockout_event, play_out, swiss_event
from tournament.matches.models import Match, Round
from tournament.registration.models import Pair, PairMember, Tournament, TournamentStatus
from tournament.standings import cache as public_cache
from tournament.standings.cache import own_key, public_cached, public_versions_get
from tournament.standings.public import match_history_get, pair_history_get, tournament_overview_get

pytestmark = pytest.mark.django_db


def sends_counted(monkeypatch) -> list:
    """What is sent to Redis from now on (one entry a round trip: a command, or a pipeline's packed parts)."""
    sent: list = []
    send = redis.connection.Connection.send_packed_command

    def counted(self, command, check_health=True):
        sent.append(command)
        return send(self, command, check_health)

    monkeypatch.setattr(redis.connection.Connection, "send_packed_command", counted)
    return sent


@pytest.fixture
def event():
    return swiss_event()


def pair_url(event, pair_id: int) -> str:
    return reverse("standings:pair", args=(event.tournament.pk, pair_id))


def test_a_page_only_its_own_pairs_phones_ask_is_built_without_the_lock(monkeypatch):
    cache.clear()

    def locked(*args, **kwargs):
        raise AssertionError("a lock taken")

    monkeypatch.setattr(cache, "add", locked)
    built = []

    def build() -> str:
        built.append(1)
        return "page"

    assert public_cached(tournament_id=5, key="pair:1", build=build, version="c1.p1", lock=False) == "page"
    public_cache.local_memo._entries.clear()  # another worker: the shared cache has it
    assert public_cached(tournament_id=5, key="pair:1", build=build, version="c1.p1", lock=False) == "page"
    assert built == [1]


def test_a_value_under_a_version_this_request_made_is_not_looked_for(monkeypatch):
    cache.clear()

    def looked(*args, **kwargs):
        raise AssertionError("looked for")

    monkeypatch.setattr(cache, "get", looked)
    monkeypatch.setattr(cache, "add", looked)
    assert public_cached(tournament_id=5, key="pair:2", build=lambda: "page", version="c1.p2", fresh=True) == "page"
    monkeypatch.undo()
    public_cache.local_memo._entries.clear()
    assert public_cached(tournament_id=5, key="pair:2", build=lambda: "other", version="c1.p2") == "page"  # stored


@pytest.mark.redis
def test_versions_not_there_are_created_in_one_round_trip_and_one_there_is_kept(monkeypatch):
    cache.clear()
    there = own_key(tournament_id=9, kind="pair", pk=1)
    missing = own_key(tournament_id=9, kind="pair", pk=2)
    cache.set(there, 41, timeout=None)
    before = time.time_ns()
    sent = sends_counted(monkeypatch)
    owns = {there: 0, missing: 0}
    made: set[str] = set()
    public_versions_get(tournament_id=9, owns=owns, made=made)
    assert len(sent) == 2  # the versions read with the pair's own made, then the four scopes (missing) made
    assert made == {missing}
    assert owns[there] == 41 and owns[missing] >= before
    assert 0 < cache.ttl(missing) <= public_cache.ENTRY_TIMEOUT
    assert cache.ttl(there) is None  # one there is left as it is
    assert 0 < cache.ttl(f"{public_cache.PREFIX}:common:9") <= public_cache.VERSION_TIMEOUT
    sent.clear()
    again = {there: 0, missing: 0}
    public_versions_get(tournament_id=9, owns=again, made=made)
    assert again == owns and made == {missing}  # made once, then read
    assert len(sent) == 1
    new = own_key(tournament_id=9, kind="pair", pk=3)
    sent.clear()
    fresh: set[str] = set()
    public_versions_get(tournament_id=9, owns={new: 0}, made=fresh)
    assert fresh == {new} and len(sent) == 1  # a pair's first view: its own made as the versions are read


@pytest.mark.redis
def test_a_pairs_first_view_reads_the_shared_cache_twice(client, event, monkeypatch):
    """The versions with the standings build's marker and the pair's own version made, its page stored:
    no lock, no marker read apart (the frame, the layout and the build are in the worker's memory
    after the first page), its page not looked for under a version just made."""
    cache.clear()
    here = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    assert client.get(pair_url(event, here.ns_pair_id)).status_code == 200
    sent = sends_counted(monkeypatch)
    page = client.get(pair_url(event, here.ew_pair_id))
    assert page.status_code == 200 and 'id="pair-ranks"' in page.content.decode()
    assert len(sent) == 2, sent
    sent.clear()
    for entry in [key for key in public_cache.local_memo._entries if ":page:" in str(key)]:
        del public_cache.local_memo._entries[entry]  # as another worker: the page is in the shared cache
    assert client.get(pair_url(event, here.ew_pair_id)).content == page.content
    assert len(sent) == 2, sent  # the versions, the page


@pytest.mark.redis
@pytest.mark.usefixtures("connections_kept")
def test_through_the_kept_responses_a_first_view_shares_its_page_with_its_response(event, monkeypatch):
    """Through the WSGI application (the kept responses in front of Django): the kept response looked
    for, the versions read with the pair's own made, then its page's HTML, its poll notes and its
    response written in one round trip — and another worker finds that HTML in the shared cache."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import RequestFactory

    from tournament.standings.public_responses import PublicResponses

    cache.clear()
    app = PublicResponses(WSGIHandler())
    matches = list(event.second.matches.exclude(ew_pair=None).order_by("table__number"))

    def get(pair_id: int) -> bytes:
        environ = RequestFactory().get(pair_url(event, pair_id), HTTP_HOST="testserver").environ
        answer: list[str] = []
        body = b"".join(app(environ, lambda status, headers, exc_info=None: answer.append(status)))
        assert answer == ["200 OK"]
        return body

    get(matches[0].ns_pair_id)  # the frame, the layout, the ranks' build: in this worker's memory
    sent = sends_counted(monkeypatch)
    page = get(matches[1].ns_pair_id)
    assert len(sent) == 3, sent
    last = b"".join(sent[-1]) if isinstance(sent[-1], list) else sent[-1]  # a pipeline's packed parts
    assert b"EVAL" in last and b":page:" in last  # the page's HTML with the response
    (kept,) = [kept for kept in app.kept._entries.values() if kept.body == page]
    assert kept.reads.later == {}  # the HTML is written beside the response, not inside it
    monkeypatch.undo()
    public_cache.local_memo._entries.clear()
    built = []
    monkeypatch.setattr("tournament.standings.views.pair_history_get", lambda **kwargs: built.append(1))
    app = PublicResponses(WSGIHandler())  # another worker, and the response shared is gone
    cache.delete_many([key for key in cache.keys("*") if ":response:" in key])
    assert get(matches[1].ns_pair_id) == page and built == []  # its HTML found, not built again


def test_the_pair_comes_with_its_players_and_a_pair_without_any_is_read_alone(event):
    pair = event.pairs[0]
    frame = tournament_overview_get(tournament_id=event.tournament.pk)
    view = pair_history_get(tournament_id=event.tournament.pk, pair_id=pair.pk, frame=frame)
    assert view is not None and view.name == pair.name and len(view.players) == 2 and view.matches
    PairMember.objects.filter(pair=pair).delete()
    alone = pair_history_get(tournament_id=event.tournament.pk, pair_id=pair.pk, frame=frame)
    assert alone is not None and alone.players == () and alone.matches == view.matches
    assert pair_history_get(tournament_id=event.tournament.pk + 1, pair_id=event.pairs[1].pk, frame=frame) is None
    assert pair_history_get(tournament_id=event.tournament.pk, pair_id=event.pairs[1].pk, frame=None) is None
    Tournament.objects.filter(pk=event.tournament.pk).update(status=TournamentStatus.DRAFT)
    assert pair_history_get(tournament_id=event.tournament.pk, pair_id=event.pairs[1].pk, frame=frame) is None


@pytest.mark.postgres
def test_a_pairs_and_a_matchs_page_read_through_statements_planned_once_per_connection(client, event):
    matches = list(event.second.matches.exclude(ew_pair=None).order_by("table__number"))
    tournament = event.tournament.pk
    client.get(pair_url(event, matches[0].ns_pair_id))
    client.get(reverse("standings:match", args=(tournament, matches[0].pk)))
    with CaptureQueriesContext(connection) as queries:
        assert client.get(pair_url(event, matches[1].ns_pair_id)).status_code == 200
        assert client.get(reverse("standings:match", args=(tournament, matches[1].pk))).status_code == 200
    statements = [query["sql"] for query in queries.captured_queries]
    assert len(statements) == 3 and all(sql.startswith("EXECUTE prepared_") for sql in statements), statements


def test_a_pairs_page_reads_each_match_as_the_match_page_does():
    """A pair's page reads its matches as tuples of the columns it shows, their rounds from the frame; a
    match's page reads the match with its round, stage and event: both show the same match — a played
    one, a running one whose time was called, a knockout's bye and walkover, a match not started."""
    event = swiss_event()
    running = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    play_out(running, deals=2)
    called = event.first.matches.exclude(ew_pair=None).order_by("table__number").first()
    Match.objects.filter(pk=called.pk).update(time_called_during_deal=2)  # decided after time was called
    knockout, rounds = knockout_event()
    bye = rounds[0].matches.get(ew_pair=None)
    gone = Pair.objects.filter(tournament=knockout).exclude(pk=bye.ns_pair_id).first()
    Round.objects.filter(pk=rounds[0].pk).update(draw_options={"walkovers": {str(bye.ns_pair_id): gone.pk}})
    shown = 0
    for tournament in (event.tournament, knockout):
        frame = tournament_overview_get(tournament_id=tournament.pk)
        for pair in Pair.objects.filter(tournament=tournament):
            view = pair_history_get(tournament_id=tournament.pk, pair_id=pair.pk, frame=frame)
            assert view is not None
            for match in view.matches:
                assert match == match_history_get(tournament_id=tournament.pk, match_id=match.id)
                shown += 1
    matches = {
        match.id: match
        for match in pair_history_get(
            tournament_id=event.tournament.pk,
            pair_id=called.ns_pair_id,
            frame=tournament_overview_get(tournament_id=event.tournament.pk),
        ).matches
    }
    assert matches[called.pk].time_up is not None
    running_shown = match_history_get(tournament_id=event.tournament.pk, match_id=running.pk)
    assert running_shown is not None and len(running_shown.deals) == 2
    walkover = match_history_get(tournament_id=knockout.pk, match_id=bye.pk)
    assert walkover is not None and walkover.walkover_over == gone.name
    assert walkover.round_knockout_pairs is not None and shown > 20
