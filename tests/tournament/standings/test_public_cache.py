"""Public pages are cached per tournament version, and events — not time — invalidate them."""

from __future__ import annotations

import pickle
import threading
import time

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournament.standings.events import play_out, swiss_event
from tournament.draw.services import round_draw, round_publish
from tournament.matches.models import Match, MatchStatus
from tournament.matches.services import deal_record, match_sign_off
from tournament.standings import cache as public_cache
from tournament.standings.cache import public_cached, public_version_bump, public_version_get
from tournament.standings.public import draw_list, standings_get

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return swiss_event()


def standings_shown(client, page_url):
    """The standings as shown: the table and the note above it (not the page's CSRF token or poll URL)."""
    page = client.get(page_url).content.decode()
    return page[page.index('<p class="muted small">') : page.index("</table>")]


def test_a_deal_entered_changes_the_standings_page_on_the_next_request(client, event):
    page_url = reverse("standings:stage_standings", args=[event.tournament.pk, event.first.stage_id])
    before = standings_shown(client, page_url)
    match = event.second.matches.exclude(ew_pair=None).select_related("ns_pair").first()
    match = play_out(match, deals=3)  # N/S at A (timed-40: +5 a 1-2): one deal from the end
    assert match.status == MatchStatus.RUNNING
    assert standings_shown(client, page_url) == before  # running matches do not count yet …
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})  # … the deal that ends it does
    after = standings_shown(client, page_url)
    assert after != before
    assert "Results up to round 2" in after and "Results up to round 2" not in before


def test_a_cached_page_costs_no_query(client, event):
    page_url = reverse("standings:stage_standings", args=[event.tournament.pk, event.first.stage_id])
    client.get(page_url)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(page_url).status_code == 200
    assert len(queries) == 0


@pytest.mark.parametrize("event_name", ["deal entered", "match signed off", "draw published"])
def test_each_event_bumps_the_tournament_version(event, event_name):
    before = public_version_get(tournament_id=event.tournament.pk)
    if event_name == "deal entered":
        deal_record(match_id=event.second.matches.exclude(ew_pair=None).first().pk, outcome={"order": ["N", "S"]})
    elif event_name == "match signed off":
        match = event.first.matches.exclude(ew_pair=None).first()
        assert match.status == MatchStatus.FINISHED
        match_sign_off(match_id=match.pk)
    else:
        for match in event.second.matches.exclude(ew_pair=None):
            play_out(match)
        before = public_version_get(tournament_id=event.tournament.pk)
        draft = round_draw(stage=event.second.stage, seed=3)
        round_publish(round_=draft)
    assert public_version_get(tournament_id=event.tournament.pk) > before


def test_other_tournaments_keep_their_cache(event):
    other = swiss_event(pairs=4, name="另一场")
    before = public_version_get(tournament_id=other.tournament.pk)
    deal_record(match_id=event.second.matches.exclude(ew_pair=None).first().pk, outcome={"order": ["N", "S"]})
    assert public_version_get(tournament_id=other.tournament.pk) == before


def test_no_time_expiry_decides_freshness():
    calls = []
    assert public_cached(tournament_id=1, key="k", build=lambda: calls.append(1) or "a") == "a"
    assert public_cached(tournament_id=1, key="k", build=lambda: calls.append(1) or "b") == "a"
    public_version_bump(tournament_id=1)
    assert public_cached(tournament_id=1, key="k", build=lambda: calls.append(1) or "c") == "c"
    assert len(calls) == 2


def test_a_worker_serves_a_value_from_memory_until_the_version_moves():
    assert public_cached(tournament_id=5, key="m", build=lambda: "first") == "first"
    version = public_version_get(tournament_id=5)
    cache.delete(f"{public_cache.PREFIX}:5:{version}:m")  # the shared copy is evicted
    assert public_cached(tournament_id=5, key="m", build=lambda: "again") == "first"  # no round trip
    public_version_bump(tournament_id=5)
    assert public_cached(tournament_id=5, key="m", build=lambda: "second") == "second"


def test_a_lost_version_key_never_revives_old_entries():
    public_cached(tournament_id=1, key="k", build=lambda: "old")
    cache.delete(f"{public_cache.PREFIX}:version:1")  # evicted
    assert public_cached(tournament_id=1, key="k", build=lambda: "new") == "new"


def test_one_builder_at_a_time_the_others_wait_for_its_value(monkeypatch):
    monkeypatch.setattr(public_cache, "WAIT_STEP", 0.005)
    started, release, waiting = threading.Event(), threading.Event(), threading.Event()
    builds = []
    sleep = time.sleep

    def waits(seconds: float) -> None:
        waiting.set()  # the second reader found the lock taken and waits for the value
        sleep(seconds)

    monkeypatch.setattr(public_cache.time, "sleep", waits)

    def slow_build():
        builds.append(1)
        started.set()
        release.wait(5)
        return "built"

    results = []
    first = threading.Thread(target=lambda: results.append(public_cached(tournament_id=2, key="s", build=slow_build)))
    first.start()
    started.wait(5)
    waiter = threading.Thread(target=lambda: results.append(public_cached(tournament_id=2, key="s", build=slow_build)))
    waiter.start()
    assert waiting.wait(5)  # released only once the second reader waits: not before it asked (a race)
    release.set()
    first.join(5)
    waiter.join(5)
    assert results == ["built", "built"]
    assert len(builds) == 1


def test_while_a_build_runs_a_stale_value_may_be_served():
    public_cached(tournament_id=3, key="t", build=lambda: "v1", stale_ok=True)
    public_version_bump(tournament_id=3)
    cache.add(f"{public_cache.PREFIX}:3:lock:t", 1)  # somebody else is building (of whatever version)
    assert public_cached(tournament_id=3, key="t", build=lambda: "v2", stale_ok=True) == "v1"
    cache.delete(f"{public_cache.PREFIX}:3:lock:t")  # done: the next reader builds the current version
    assert public_cached(tournament_id=3, key="t", build=lambda: "v2", stale_ok=True) == "v2"


def test_a_broken_cache_still_serves_the_page(monkeypatch):
    def broken(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(cache, "get", broken)
    assert public_cached(tournament_id=4, key="x", build=lambda: "direct") == "direct"


def test_bumps_happen_again_after_the_commit(django_capture_on_commit_callbacks, event):
    match = Match.objects.filter(round=event.second).exclude(ew_pair=None).first()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    before = public_version_get(tournament_id=event.tournament.pk)
    for callback in callbacks:
        callback()
    assert public_version_get(tournament_id=event.tournament.pk) > before


def test_the_builds_come_back_from_the_shared_cache_as_they_were_built(event):
    """A build's lines, rows and sides are pickled as calls of their classes with their fields
    (``PickledByFields``): what another worker unpickles is equal to what was built, field for field."""
    tournament_id = event.tournament.pk
    match = event.second.matches.exclude(ew_pair=None).first()
    play_out(match, deals=2)
    table = standings_get(tournament_id=tournament_id, stage_id=event.first.stage_id)
    rows = draw_list(tournament_id=tournament_id, round_id=event.second.pk)
    assert table is not None and table.lines and rows
    for value in (table, rows, rows[0].ns):
        again = pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
        assert again == value and type(again) is type(value)
    moved = [line.movement for line in pickle.loads(pickle.dumps(table)).lines]
    assert moved == [line.movement for line in table.lines]
