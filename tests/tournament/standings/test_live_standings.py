"""While results flow in: the standings change only with what they count, their
rebuilds are coalesced, and requests are served the last complete build — with a controlled clock."""

from __future__ import annotations

import gc

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection
from django.urls import reverse

from tests.tournament.standings.events import play_out, swiss_event
from tournament.matches.models import MatchStatus
from tournament.matches.services import deal_correct, deal_record, match_sign_off, match_unlock
from tournament.standings import cache as public_cache
from tournament.standings import public_cache as cached_reads
from tournament.standings import views
from tournament.standings.cache import LocalMemo, coalesced_get, public_version_bump, public_version_get

pytestmark = pytest.mark.django_db

WINDOW = 3.0


@pytest.fixture
def event():
    return swiss_event()


@pytest.fixture
def window(settings):
    settings.PUBLIC_REBUILD_SECONDS = WINDOW
    return WINDOW


def running_match(event, *, deals=3):
    """A match of round 2 one deal from its end (N/S at A after three deals won 1-2: timed-40 is seed
    002's +5/+3/+1)."""
    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    match = play_out(match, deals=deals)
    assert match.status == MatchStatus.RUNNING
    return match


def standings_shown(client, page_url):
    page = client.get(page_url).content.decode()
    return page[page.index('<p class="muted small">') : page.index("</table>")]


def test_a_deal_that_finishes_nothing_leaves_the_standings_build_untouched(event, builds):
    match = running_match(event, deals=2)
    tournament_id, stage_id = event.tournament.pk, event.first.stage_id
    token, table = cached_reads.standings_build_get(tournament_id=tournament_id, stage_id=stage_id)
    assert builds == [stage_id]
    standings = public_version_get(tournament_id=tournament_id, scope="standings")
    public_before = public_version_get(tournament_id=tournament_id, scope="public")
    entry = deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    assert entry.match.status == MatchStatus.RUNNING
    assert public_version_get(tournament_id=tournament_id, scope="public") > public_before  # live levels move …
    assert public_version_get(tournament_id=tournament_id, scope="standings") == standings  # … the standings do not
    again_token, again = cached_reads.standings_build_get(tournament_id=tournament_id, stage_id=stage_id)
    assert (again_token, again) == (token, table) and again is table  # the very build, from memory
    assert builds == [stage_id]  # no rebuild


def test_a_deal_that_finishes_nothing_costs_the_standings_and_find_pages_no_query(client, event):
    match = running_match(event, deals=2)
    pages = [
        reverse("standings:stage_standings", args=[event.tournament.pk, event.first.stage_id]),
        reverse("standings:find", args=[event.tournament.pk]) + "?q=20001",
    ]
    before = [client.get(url).content for url in pages]
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    # Counted at the database cursor: CaptureQueriesContext would read a log that the test client's
    # request_started signal clears, and so always see 0.
    queries: list[str] = []
    with connection.execute_wrapper(lambda execute, sql, *args: (queries.append(sql), execute(sql, *args))[1]):
        after = [client.get(url).content for url in pages]
    assert after == before
    assert queries == []


def test_the_finishing_deal_shows_on_the_next_page_within_the_window(client, event, builds, window):
    page_url = reverse("standings:stage_standings", args=[event.tournament.pk, event.first.stage_id])
    match = running_match(event)
    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False) as clock:
        before = standings_shown(client, page_url)
        assert builds == [event.first.stage_id]
        clock.shift(1)
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})  # the match is won
        assert standings_shown(client, page_url) == before  # the last complete build, inside the window
        assert len(builds) == 1
        clock.shift(window - 1)  # the window since the last rebuild has passed
        after = standings_shown(client, page_url)
        assert "Results up to round 2" in after and "Results up to round 2" not in before
        assert len(builds) == 2
        assert standings_shown(client, page_url) == after  # and it stays built
        clock.shift(window)
        assert standings_shown(client, page_url) == after
        assert len(builds) == 2  # nothing counted changed: no rebuild, however long it has been


def test_one_rebuild_at_a_time_the_others_serve_the_last_complete_build(event, builds, window):
    tournament_id, stage_id = event.tournament.pk, event.first.stage_id
    match = running_match(event)
    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False) as clock:
        token, table = cached_reads.standings_build_get(tournament_id=tournament_id, stage_id=stage_id)
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
        clock.shift(window)
        lock = f"{public_cache.PREFIX}:{tournament_id}:rebuild:standings:{stage_id}"
        cache.add(lock, 1)  # another worker (or machine) is rebuilding
        assert cached_reads.standings_build_get(tournament_id=tournament_id, stage_id=stage_id) == (token, table)
        assert len(builds) == 1
        cache.delete(lock)  # it died without a build: the next request rebuilds
        new_token, new = cached_reads.standings_build_get(tournament_id=tournament_id, stage_id=stage_id)
        assert new_token > token and new != table
        assert len(builds) == 2


def test_a_worker_never_serves_a_build_older_than_the_last_complete_one(monkeypatch, event, builds, window):
    tournament_id, stage_id = event.tournament.pk, event.first.stage_id
    match = running_match(event)
    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False) as clock:
        old_token, _old = cached_reads.standings_build_get(tournament_id=tournament_id, stage_id=stage_id)
        this_worker = public_cache.build_memo  # holds the old build
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
        clock.shift(window)
        monkeypatch.setattr(public_cache, "build_memo", LocalMemo(8))  # another worker builds the new one
        new_token, new = cached_reads.standings_build_get(tournament_id=tournament_id, stage_id=stage_id)
        monkeypatch.setattr(public_cache, "build_memo", this_worker)
        assert new_token > old_token
        assert cached_reads.standings_build_get(tournament_id=tournament_id, stage_id=stage_id) == (new_token, new)
        assert len(builds) == 2  # fetched from the shared cache, not built again


def test_a_deal_moves_the_match_page_at_once_and_leaves_the_standings_build(client, event, builds):
    """Live levels are on the public version: the match page follows every deal; the standings
    build is not touched for it."""
    match = running_match(event, deals=1)
    cached_reads.standings_build_get(tournament_id=event.tournament.pk, stage_id=event.first.stage_id)
    page_url = reverse("standings:match", args=[event.tournament.pk, match.pk])
    before = client.get(page_url).content
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    assert client.get(page_url).content != before
    assert builds == [event.first.stage_id]


def test_a_correction_of_a_finished_match_moves_the_standings_version(event):
    match = event.first.matches.exclude(ew_pair=None).first()
    assert match.status == MatchStatus.FINISHED
    before = public_version_get(tournament_id=event.tournament.pk, scope="standings")
    deal_correct(match_id=match.pk, number=1, outcome={"order": ["E", "W"]}, reason="记错了")
    assert public_version_get(tournament_id=event.tournament.pk, scope="standings") > before


@pytest.mark.parametrize("step", ["signed off", "unlocked"])
def test_sign_off_and_unlock_move_the_standings_version(event, step):
    match = event.first.matches.exclude(ew_pair=None).first()
    assert match.status == MatchStatus.FINISHED
    if step == "unlocked":
        match_sign_off(match_id=match.pk)
    before = public_version_get(tournament_id=event.tournament.pk, scope="standings")
    if step == "signed off":
        match_sign_off(match_id=match.pk)
    else:
        match_unlock(match_id=match.pk, reason="记错了", dependents_seen=True)  # round 2 was drawn from it
    assert public_version_get(tournament_id=event.tournament.pk, scope="standings") > before


def test_the_seating_version_moves_the_standings_version_too(event):
    """A renamed pair shows in the standings: every event that moves seats moves standings."""
    before = public_version_get(tournament_id=event.tournament.pk, scope="standings")
    pair = event.pairs[0]
    pair.name = "新名字"
    pair.save()
    assert public_version_get(tournament_id=event.tournament.pk, scope="standings") > before


def test_without_a_cache_standings_are_built_afresh(monkeypatch, event, builds):
    def broken(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(cache, "get", broken)
    monkeypatch.setattr(cache, "get_many", broken)
    tournament_id, stage_id = event.tournament.pk, event.first.stage_id
    first = cached_reads.standings_build_get(tournament_id=tournament_id, stage_id=stage_id)
    second = cached_reads.standings_build_get(tournament_id=tournament_id, stage_id=stage_id)
    assert first[1] == second[1] and first[0] != second[0]  # never taken for one another's build
    assert len(builds) == 2


def test_a_failing_build_raises_and_leaves_no_build():
    def fails():
        raise ValueError("no such stage")

    with pytest.raises(ValueError, match="no such stage"):
        coalesced_get(tournament_id=9, key="x", build=fails)
    assert coalesced_get(tournament_id=9, key="x", build=lambda: "built")[1] == "built"


def test_a_build_runs_without_garbage_collection_and_the_worker_collects_again_after_it():
    collecting: list[bool] = []

    def build() -> str:
        collecting.append(gc.isenabled())
        return "built"

    def fails() -> str:
        collecting.append(gc.isenabled())
        raise ValueError("no such stage")

    assert coalesced_get(tournament_id=9, key="gc", build=build)[1] == "built"
    assert gc.isenabled()
    with pytest.raises(ValueError, match="no such stage"):
        coalesced_get(tournament_id=9, key="gc-fails", build=fails)
    assert gc.isenabled()
    gc.disable()  # a worker that runs without it keeps it off
    try:
        coalesced_get(tournament_id=9, key="gc-off", build=build)
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert collecting == [False, False, False]


def _bumps_recorded(monkeypatch) -> list[str]:
    """The scopes of tournament 1's versions bumped, in order, each bump as it is sent to the cache."""
    scopes = {public_cache._version_key(1, scope): scope for scope in ("public", "common", "standings", "seating")}
    bumped: list[str] = []
    monkeypatch.setattr(public_cache, "_bumps", lambda keys, what: bumped.extend(scopes[key] for key, _ in keys))
    return bumped


def test_inside_a_transaction_a_bump_happens_at_once_and_on_commit(django_capture_on_commit_callbacks, monkeypatch):
    bumped = _bumps_recorded(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        public_version_bump(tournament_id=1, seating=False, standings=False)
        assert bumped == ["public", "common"]
    assert bumped == ["public", "common", "public", "common"]


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_a_bump_happens_once(monkeypatch):
    bumped = _bumps_recorded(monkeypatch)
    public_version_bump(tournament_id=1, seating=False)
    assert bumped == ["public", "common", "standings"]


def test_the_draw_follows_deals_one_build_every_window(client, event, window):
    """The draw's live levels are a coalesced build of the public version: a deal shows within
    the window, and a poll is answered 204 (nothing new) until the next build lands."""
    draw_url = reverse("standings:draw", args=[event.tournament.pk])
    match = running_match(event, deals=1)
    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False) as clock:
        before = client.get(draw_url).content.decode()
        poll = before[before.index(draw_url + "?v=") :].split('"', 1)[0].replace("&amp;", "&")
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
        assert client.get(draw_url).content.decode() == before  # inside the window: the last build
        assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
        clock.shift(window)
        after = client.get(draw_url).content.decode()
        assert after != before
        assert client.get(poll, headers={"HX-Request": "true"}).status_code == 200  # the new build


def test_a_deal_moves_its_own_draw_page_and_leaves_the_others_as_they_are(client, event, window, monkeypatch):
    """A draw page is keyed on the rows it shows of the round's build, not on the build: a deal at a
    table of page 1 moves page 1 with the next build, while page 2 (the same rows in that build) keeps
    its token, so its poll stays 204 and its HTML is not rendered again."""
    monkeypatch.setattr(views, "DRAW_PAGE_SIZE", 2)  # 4 tables: 2 pages
    draw_url = reverse("standings:draw", args=[event.tournament.pk])
    match = running_match(event, deals=1)  # the first table: page 1

    def page_and_poll(number):
        page = client.get(f"{draw_url}?page={number}").content.decode()
        return page, page[page.index(draw_url + "?") :].split('"', 1)[0].replace("&amp;", "&")

    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False) as clock:
        first, first_poll = page_and_poll(1)
        second, second_poll = page_and_poll(2)
        assert f"match-{match.pk}" in first and f"match-{match.pk}" not in second
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
        clock.shift(window)
        assert client.get(first_poll, headers={"HX-Request": "true"}).status_code == 200  # the new build
        assert client.get(second_poll, headers={"HX-Request": "true"}).status_code == 204
        assert page_and_poll(2) == (second, second_poll) and page_and_poll(1)[0] != first


def cache_calls_counted(monkeypatch, names: tuple[str, ...]) -> list[str]:
    """The list the shared cache's methods ``names`` are named in as they are called from outside the
    cache: a call it makes of itself is not another round trip (the local-memory cache's get_many calls
    get; on Redis it is one)."""
    calls: list[str] = []
    depth = [0]

    def counted(name, real):
        def call(*args, **kwargs):
            if depth[0] == 0:
                calls.append(name)
            depth[0] += 1
            try:
                return real(*args, **kwargs)
            finally:
                depth[0] -= 1

        return call

    for name in names:
        monkeypatch.setattr(cache, name, counted(name, getattr(cache, name)))
    return calls


def test_a_standings_or_find_page_served_from_memory_costs_one_cache_round_trip(client, event, monkeypatch):
    pages = [
        reverse("standings:stage_standings", args=[event.tournament.pk, event.first.stage_id]),
        reverse("standings:find", args=[event.tournament.pk]) + "?q=20001",
    ]
    for url in pages:
        client.get(url)
    calls = cache_calls_counted(monkeypatch, ("get", "get_many", "add", "set", "set_many", "incr"))
    for url in pages:
        calls.clear()
        assert client.get(url).status_code == 200
        assert calls == ["get_many"], url  # the versions (and the standings build's marker) at once


def evict(*parts):
    """Drop the shared cache's entries whose key holds one of ``parts``: by pattern on Redis
    (django-redis, ``CACHE_URL``), else from the tests' LocMemCache (raw keys ``:<version>:<key>``)."""
    if hasattr(cache, "delete_pattern"):
        for part in parts:
            cache.delete_pattern(f"*{part}*")
        return
    for raw in list(cache._cache):
        if any(part in raw for part in parts):
            cache.delete(raw.split(":", 2)[2])


@pytest.fixture
def rankings(monkeypatch):
    """Every time the rules core ranks a stage (the number of results it ranked), with an empty
    memory of earlier rankings."""
    from tournament.standings import selectors

    ranked: list[int] = []
    real = selectors.rank_stage

    def counting(**kwargs):
        ranked.append(len(kwargs["results"]))
        return real(**kwargs)

    monkeypatch.setattr(selectors, "rank_stage", counting)
    monkeypatch.setattr(selectors, "earlier_rankings", LocalMemo(8))
    return ranked


def test_a_rebuild_ranks_the_rounds_before_the_latest_once_a_round(event, rankings, monkeypatch):
    from tournament.standings import selectors
    from tournament.standings.public import standings_get

    tournament_id, stage_id = event.tournament.pk, event.first.stage_id
    first_round = len(event.first.matches.all())
    matches = list(event.second.matches.exclude(ew_pair=None).order_by("table__number"))
    play_out(matches[0], winner="EW")
    standings_get(tournament_id=tournament_id, stage_id=stage_id)
    assert rankings == [first_round + 1, first_round]  # the stage now, and up to round 1 for the movement
    play_out(matches[1])
    table = standings_get(tournament_id=tournament_id, stage_id=stage_id)
    assert rankings[2:] == [first_round + 2]  # round 1's ranking is remembered: ranked once this round
    monkeypatch.setattr(selectors, "earlier_rankings", LocalMemo(8))
    assert standings_get(tournament_id=tournament_id, stage_id=stage_id) == table  # the same as ranked afresh

    # A round-1 result corrected: the ranking before round 2 is ranked again, with it.
    corrected = event.first.matches.exclude(ew_pair=None).order_by("table__number").first()
    deal_correct(match_id=corrected.pk, number=1, outcome={"order": ["E", "W"]}, reason="记错了")
    del rankings[:]
    fresh = standings_get(tournament_id=tournament_id, stage_id=stage_id)
    assert len(rankings) == 2
    monkeypatch.setattr(selectors, "earlier_rankings", LocalMemo(8))
    assert standings_get(tournament_id=tournament_id, stage_id=stage_id) == fresh


def test_a_standings_page_cached_under_its_build_never_fetches_the_build(client, event, monkeypatch, window):
    page_url = reverse("standings:stage_standings", args=[event.tournament.pk, event.first.stage_id])
    match = running_match(event)
    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False) as clock:
        before = standings_shown(client, page_url)
        fetched: list[object] = []
        real = public_cache._held_build

        def held(*args):
            fetched.append(args)
            return real(*args)

        monkeypatch.setattr(public_cache, "_held_build", held)
        monkeypatch.setattr(public_cache, "build_memo", LocalMemo(8))  # a worker that never held the build
        assert standings_shown(client, page_url) == before
        assert fetched == []  # the page's HTML was cached under the build's token: the build was not read
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})  # the match is won
        clock.shift(window)
        after = standings_shown(client, page_url)  # this request rebuilds and renders from its build
        assert "Results up to round 2" in after
        assert fetched == []
        monkeypatch.setattr(public_cache, "build_memo", LocalMemo(8))
        monkeypatch.setattr(public_cache, "local_memo", LocalMemo(8))
        evict(":page:")  # the page evicted
        assert standings_shown(client, page_url) == after  # rendered again from its lines, kept apart …
        assert fetched == []  # … under the build's token: the build was not read
        monkeypatch.setattr(public_cache, "local_memo", LocalMemo(8))
        evict(":page:", ":standings-page:")  # the page and its lines evicted
        assert standings_shown(client, page_url) == after  # rendered again from the build …
        assert len(fetched) == 1  # … fetched once


def cached_keys(part):
    """The shared cache's keys that hold ``part`` (as :func:`evict` finds them)."""
    if hasattr(cache, "keys"):
        return list(cache.keys(f"*{part}*"))
    return [raw for raw in cache._cache if part in raw]


def draw_poll_token(page: str, draw_url: str) -> str:
    """The ``v=`` a draw page's poll asks from: ``s<seating>.d<digest of the page's rows>``."""
    poll = page[page.index(draw_url + "?v=") :].split('"', 1)[0]
    return poll.split("?v=", 1)[1]


def test_a_draw_page_cached_under_its_digest_never_fetches_the_build(client, event, monkeypatch, window):
    """Another worker serves a draw page from the digests and the HTML the first one shared, and renders
    one from the page's own rows: it never fetches the round's build (thousands of rows in a big event)."""
    draw_url = reverse("standings:draw", args=[event.tournament.pk])
    match = running_match(event, deals=1)
    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False) as clock:
        before = client.get(draw_url).content.decode()
        fetched: list[object] = []
        real = public_cache._held_build

        def held(*args):
            fetched.append(args)
            return real(*args)

        monkeypatch.setattr(public_cache, "_held_build", held)
        monkeypatch.setattr(public_cache, "build_memo", LocalMemo(8))  # a worker that never held the build
        monkeypatch.setattr(public_cache, "local_memo", LocalMemo(8))
        assert client.get(draw_url).content.decode() == before
        assert fetched == []
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
        clock.shift(window)
        after = client.get(draw_url).content.decode()  # this request rebuilds, and renders from its build
        assert after != before and fetched == []
        monkeypatch.setattr(public_cache, "build_memo", LocalMemo(8))  # a third worker
        monkeypatch.setattr(public_cache, "local_memo", LocalMemo(8))
        assert client.get(draw_url).content.decode() == after
        assert fetched == []
        monkeypatch.setattr(public_cache, "local_memo", LocalMemo(8))
        evict(":page:")  # the page's HTML evicted: rendered again from its own rows, not from the build
        assert client.get(draw_url).content.decode() == after
        assert fetched == []


def test_a_draw_page_whose_build_was_evicted_is_rendered_and_keyed_on_the_rows_it_shows(
    client, event, monkeypatch, window
):
    """The build a page's digest was made of is gone when the page is rendered, and a newer one (with a
    deal more) is loaded instead: the page shows the newer rows under their own digest, never under the
    digest of rows it does not show."""
    draw_url = reverse("standings:draw", args=[event.tournament.pk])
    match = running_match(event, deals=1)
    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False):
        before = client.get(draw_url).content.decode()
        old = draw_poll_token(before, draw_url)
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})  # inside the window: no rebuild due
        assert client.get(draw_url).content.decode() == before
        monkeypatch.setattr(public_cache, "build_memo", LocalMemo(8))  # another worker …
        monkeypatch.setattr(public_cache, "local_memo", LocalMemo(8))
        evict(":page:", ":build:", ":rows:")  # … with the digests shared, the build and the page evicted
        after = client.get(draw_url).content.decode()
        new = draw_poll_token(after, draw_url)
        assert new != old and after != before  # the newer build's rows, under their own digest
        assert not [key for key in cached_keys(old) if ":page:" in key]
        monkeypatch.setattr(public_cache, "build_memo", LocalMemo(8))
        monkeypatch.setattr(public_cache, "local_memo", LocalMemo(8))
        evict(":page:", "draw-pages")
        assert client.get(draw_url).content.decode() == after  # as a worker with nothing cached renders it


def test_a_standings_page_whose_build_was_evicted_is_built_afresh_once_for_all(client, event, monkeypatch, builds):
    page_url = reverse("standings:stage_standings", args=[event.tournament.pk, event.first.stage_id])
    running_match(event)
    before = standings_shown(client, page_url)
    assert len(builds) == 1
    monkeypatch.setattr(public_cache, "build_memo", LocalMemo(8))
    monkeypatch.setattr(public_cache, "local_memo", LocalMemo(8))
    evict(":page:", ":build:", ":standings-page:")
    assert standings_shown(client, page_url) == before
    assert len(builds) == 2
    monkeypatch.setattr(public_cache, "build_memo", LocalMemo(8))  # another worker
    monkeypatch.setattr(public_cache, "local_memo", LocalMemo(8))
    evict(":page:")
    assert standings_shown(client, page_url + "?page=1") == before
    assert len(builds) == 2  # the build made after the eviction was shared


def test_a_rebuild_leaves_the_standings_pages_whose_lines_did_not_move_and_their_polls_as_they_were(
    client, event, monkeypatch, window
):
    """Each standings page is keyed on the digest of the lines it shows (and of what every page shows beside
    them), not on the build: a finished match that moves some lines leaves every other page's bytes and
    poll token as they were, and the polls of those pages answer 204; a page whose lines moved gets a new
    token and its poll from the old one answers the page as it stands."""
    monkeypatch.setattr(views, "STANDINGS_PAGE_SIZE", 2)  # 8 pairs: 4 pages
    tournament_id, stage_id = event.tournament.pk, event.first.stage_id
    base = reverse("standings:stage_standings", args=[tournament_id, stage_id])
    urls = [f"{base}?page={number}" for number in range(1, 5)]
    matches = list(event.second.matches.exclude(ew_pair=None).order_by("table__number"))
    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False) as clock:
        play_out(matches[0])  # round 2's first result: every page now says "Results up to round 2"
        clock.shift(window)
        before = [client.get(url).content.decode() for url in urls]
        old_lines = cached_reads.standings_build_get(tournament_id=tournament_id, stage_id=stage_id)[1].lines
        play_out(matches[1])  # its pairs' lines and those between move; the last page's do not
        clock.shift(window)
        after = [client.get(url).content.decode() for url in urls]
        new_lines = cached_reads.standings_build_get(tournament_id=tournament_id, stage_id=stage_id)[1].lines
        assert new_lines != old_lines  # the rebuild counted the result
        moved = [old_lines[at : at + 2] != new_lines[at : at + 2] for at in range(0, 8, 2)]
        assert moved == [True, True, True, False]
        for page_moved, old, new in zip(moved, before, after, strict=True):
            old_poll, new_poll = standings_poll(old), standings_poll(new)
            answer = client.get(old_poll, headers={"HX-Request": "true"})
            if page_moved:
                assert new_poll != old_poll and new != old
                assert answer.status_code == 200 and standings_poll(answer.content.decode()) == new_poll
            else:
                assert (new, new_poll) == (old, old_poll)  # the same bytes, the same token
                assert answer.status_code == 204


def standings_poll(page: str) -> str:
    """The address a standings page's live part polls (with its ``v=``)."""
    return page.split('class="live" hx-get="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
