"""The public pages' whole responses, kept by each worker and served before Django while what they
were built from is unchanged (``tournament.standings.public_responses``).

Through the real WSGI application: Django's handler with the kept responses in front. Whether a
request reached Django is counted at Django's handler itself."""

from __future__ import annotations

import pickle
import re
from typing import Any

import pytest
import time_machine
from django.conf import settings
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.test import RequestFactory
from django.urls import reverse

from tests.tournament.standings.events import pairs_register, play_out, swiss_event
from tournament.matches.models import MatchStatus
from tournament.matches.services import deal_record
from tournament.standings import cache as public_cache
from tournament.standings.public_cache import standings_key
from tournament.standings.public_responses import Kept, PollAnswer, PublicResponses
from tournament.standings.response_reads import Coalesced, Reads

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("connections_kept")]

WINDOW = 3.0


class Counted:
    """Django's WSGI handler, counting the requests that reach it."""

    def __init__(self) -> None:
        self.handler = WSGIHandler()
        self.calls = 0

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.calls += 1
        return self.handler(environ, start_response)


class Visitor:
    """A phone asking the WSGI application (host 127.0.0.1 is allowed in the tests' settings)."""

    def __init__(self, application: PublicResponses, *, cookies: str = "django_language=en") -> None:
        self.application, self.cookies = application, cookies

    def get(self, path: str, **headers: str) -> tuple[str, dict[str, str], bytes]:
        environ = RequestFactory().get(path, HTTP_HOST=headers.pop("host", "testserver"), **headers).environ
        if self.cookies:
            environ["HTTP_COOKIE"] = self.cookies
        answer: dict[str, Any] = {}

        def start_response(status: str, response_headers: list[tuple[str, str]], exc_info: Any = None) -> None:
            answer["status"], answer["headers"] = status, dict(response_headers)

        result = self.application(environ, start_response)
        try:
            body = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        return answer["status"], answer["headers"], body



@pytest.fixture
def django_app() -> Counted:
    return Counted()


@pytest.fixture
def app(django_app: Counted, settings) -> PublicResponses:
    settings.PUBLIC_REBUILD_SECONDS = WINDOW
    return PublicResponses(django_app)


@pytest.fixture
def event():
    return swiss_event()


def running_match(event, *, deals=3):
    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    match = play_out(match, deals=deals)
    assert match.status == MatchStatus.RUNNING
    return match


def watched_match(event):
    """The last table's match (``running_match`` plays the first's), one deal in."""
    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").last()
    if not match.deals.exists():
        match = play_out(match, deals=1)
    return match


def urls(event) -> dict[str, str]:
    tournament_id = event.tournament.pk
    return {
        "standings": reverse("standings:stage_standings", args=[tournament_id, event.first.stage_id]),
        "find": reverse("standings:find", args=[tournament_id]) + "?q=20001",
        "draw": reverse("standings:draw", args=[tournament_id]),
        "match": reverse("standings:match", args=[tournament_id, watched_match(event).pk]),
    }


def test_a_page_asked_again_is_served_whole_without_reaching_django(app, django_app, event):
    visitor = Visitor(app)
    pages = urls(event)
    first = {name: visitor.get(url) for name, url in pages.items()}
    assert django_app.calls == len(pages)
    again = {name: visitor.get(url) for name, url in pages.items()}
    assert django_app.calls == len(pages)  # every one served from the worker's memory
    assert again == first
    assert all(status == "200 OK" for status, _headers, _body in first.values())
    assert b"Standings" in first["standings"][2] and "王一甲".encode() in first["find"][2]


def test_a_deal_that_finishes_nothing_keeps_the_standings_and_find_but_not_the_match(app, django_app, event):
    visitor = Visitor(app)
    pages = urls(event)
    before = {name: visitor.get(url) for name, url in pages.items()}
    calls = django_app.calls
    entry = deal_record(match_id=watched_match(event).pk, outcome={"order": ["N", "S"]})
    assert entry.match.status == MatchStatus.RUNNING
    assert visitor.get(pages["standings"]) == before["standings"]
    assert visitor.get(pages["find"]) == before["find"]
    assert django_app.calls == calls  # neither reached Django: nothing they show moved
    match_page = visitor.get(pages["match"])
    assert django_app.calls == calls + 1  # the match page shows every deal: built again
    assert match_page != before["match"]


def test_the_finishing_deal_shows_on_the_kept_standings_within_the_window(app, django_app, event):
    visitor = Visitor(app)
    page = urls(event)["standings"]
    match = running_match(event)
    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False) as clock:
        before = visitor.get(page)
        calls = django_app.calls
        clock.shift(1)
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})  # the match is won
        assert visitor.get(page) == before  # the last complete build, inside the window: kept
        assert django_app.calls == calls
        clock.shift(WINDOW - 1)  # a rebuild is due: the request reaches Django, which rebuilds
        after = visitor.get(page)
        assert django_app.calls == calls + 1
        assert b"Results up to round 2" in after[2] and b"Results up to round 2" not in before[2]
        assert visitor.get(page) == after  # kept again, under the new build
        clock.shift(10 * WINDOW)
        assert visitor.get(page) == after  # nothing counted changed: kept however long it has been
        assert django_app.calls == calls + 1


def test_while_another_worker_rebuilds_the_kept_page_holds(app, django_app, event):
    """Django would serve the last complete build while somebody holds the rebuild's lock: so does
    the kept page, without reaching Django; once the lock is gone the next request rebuilds."""
    page = urls(event)["standings"]
    match = running_match(event)
    lock = public_cache._rebuild_lock_key(event.tournament.pk, standings_key(event.first.stage_id))
    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False) as clock:
        before = Visitor(app).get(page)
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
        clock.shift(WINDOW)
        assert cache.add(lock, 1)  # another worker is rebuilding
        calls = django_app.calls
        assert Visitor(app).get(page) == before
        assert django_app.calls == calls
        cache.delete(lock)
        after = Visitor(app).get(page)
        assert django_app.calls == calls + 1
        assert b"Results up to round 2" in after[2]


def test_a_page_one_worker_built_is_served_by_the_others(app, django_app, event):
    other_django = Counted()
    other = PublicResponses(other_django)
    pages = urls(event)
    del pages["find"]  # each worker's own (below)
    built = {name: Visitor(app).get(url) for name, url in pages.items()}
    shared = {name: Visitor(other).get(url) for name, url in pages.items()}
    assert shared == built
    assert other_django.calls == 0  # from the shared cache, then from the other worker's memory
    assert {name: Visitor(other).get(url) for name, url in pages.items()} == built
    assert other_django.calls == 0


def test_find_my_table_is_kept_by_the_worker_that_answered_it_alone(app, django_app, event, monkeypatch):
    """Find my table is answered from each worker's own seat index, and a name is asked again
    rarely: its answer is kept by the worker (asked again, served from memory) but never written to
    the shared cache nor looked for there (the round trips cost more than the answer)."""
    other_django = Counted()
    other = PublicResponses(other_django)
    find = urls(event)["find"]
    written: list[str] = []
    set_many = cache.set_many
    monkeypatch.setattr(cache, "set_many", lambda entries, **kw: (written.extend(entries), set_many(entries, **kw)))
    answer = Visitor(app).get(find)
    assert Visitor(app).get(find) == answer and django_app.calls == 1
    assert Visitor(other).get(find) == answer and other_django.calls == 1  # built again by the other
    assert not any(":response:" in key for key in written)
    looked_up: list[str] = []
    get = cache.get
    monkeypatch.setattr(cache, "get", lambda key, *a, **kw: (looked_up.append(key), get(key, *a, **kw))[1])
    Visitor(app).get(find.replace("20001", "20003"))  # a new question to a worker that knows the page
    assert not any(":response:" in key for key in looked_up)
    assert django_app.calls == 1  # answered from the worker's own index (tournament.standings.find_answers)


def test_a_build_another_worker_made_is_served_at_once(app, django_app, event):
    """Two workers: what one rebuilds, the other's kept page no longer holds; it serves the new one."""
    other_django = Counted()
    other = PublicResponses(other_django)
    page = urls(event)["standings"]
    match = running_match(event)
    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False) as clock:
        mine = Visitor(app).get(page)
        assert Visitor(other).get(page) == mine
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
        clock.shift(WINDOW)
        rebuilt = Visitor(other).get(page)  # a rebuild is due: the other worker's request makes it
        assert other_django.calls == 1
        assert b"Results up to round 2" in rebuilt[2] and b"Results up to round 2" not in mine[2]
        calls = django_app.calls
        assert Visitor(app).get(page) == rebuilt  # this worker's copy no longer holds; the shared one does
        assert django_app.calls == calls


def test_each_language_is_kept_apart(app, django_app, event):
    page = urls(event)["standings"]
    english = Visitor(app).get(page)
    chinese = Visitor(app, cookies="").get(page)
    odd = Visitor(app, cookies="django_language=xx").get(page)  # not a language: Chinese, as the middleware reads it
    assert django_app.calls == 2
    assert b"Standings" in english[2] and "排名".encode() in chinese[2]
    assert odd == chinese
    assert english[1]["Content-Language"] == "en" and chinese[1]["Content-Language"] == "zh-hans"


def test_a_poll_is_kept_apart_from_the_page(app, django_app, event):
    page = urls(event)["standings"]
    whole = Visitor(app).get(page)
    fragment = Visitor(app).get(page, HTTP_HX_REQUEST="true")
    assert django_app.calls == 2
    assert b"<html" in whole[2] and b"<html" not in fragment[2]
    assert Visitor(app).get(page, HTTP_HX_REQUEST="true") == fragment
    assert django_app.calls == 2


def test_signed_in_visitors_and_pending_messages_always_reach_django(app, django_app, event):
    page = urls(event)["standings"]
    for cookies in (f"{settings.SESSION_COOKIE_NAME}=abc", "messages=xyz"):
        visitor = Visitor(app, cookies=cookies)
        calls = django_app.calls
        visitor.get(page)
        visitor.get(page)
        assert django_app.calls == calls + 2


def test_only_gets_of_public_pages_that_succeed_are_kept(app, django_app, event):
    visitor = Visitor(app)
    tournament_id = event.tournament.pk
    for path in (f"/t/{tournament_id}/standings/999999/", "/t/999999/find/?q=1", "/accounts/login/"):
        calls = django_app.calls
        first = visitor.get(path)
        assert visitor.get(path)[0] == first[0]
        assert django_app.calls == calls + 2, path
    assert visitor.get(f"/t/{tournament_id}/standings/999999/")[0].startswith("404")


def test_a_host_django_refuses_is_never_served_a_kept_page(app, django_app, event):
    page = urls(event)["standings"]
    assert Visitor(app).get(page)[0] == "200 OK"
    status, _headers, _body = Visitor(app).get(page, host="evil.example")
    assert status.startswith("400")


def test_an_answer_read_beyond_the_versions_is_not_kept(app, django_app, event):
    """A player without a seat: the pair's registration status is read as it is now (check-in
    does not move a version), so that answer always reaches Django."""
    visitor = Visitor(app)
    late = pairs_register(event.tournament, 1, start=8)[0]  # registered after the round was drawn
    number = late.members.order_by("player__employee_number").first().player.employee_number
    find = reverse("standings:find", args=[event.tournament.pk]) + f"?q={number}"
    calls = django_app.calls
    status, _headers, body = visitor.get(find)
    assert status == "200 OK" and b"Registered, not checked in yet" in body
    visitor.get(find)
    assert django_app.calls == calls + 2


def test_with_the_cache_down_every_page_is_built_afresh(app, django_app, event, monkeypatch):
    page = urls(event)["find"]
    kept = Visitor(app).get(page)
    calls = django_app.calls

    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(cache, "get_many", down)
    assert Visitor(app).get(page)[2] == kept[2]  # the same answer, built by Django
    assert Visitor(app).get(page)[2] == kept[2]
    assert django_app.calls == calls + 2


def test_off_when_the_setting_says_zero(django_app, event, settings):
    settings.PUBLIC_RESPONSE_CACHE_MB = 0
    app = PublicResponses(django_app)
    page = urls(event)["standings"]
    calls = django_app.calls
    Visitor(app).get(page)
    Visitor(app).get(page)
    assert django_app.calls == calls + 2


def test_a_kept_response_holds_only_while_its_values_are_unchanged():
    reads = Reads()
    reads.exact = {"seating": 5}
    reads.coalesced = {"marker": Coalesced("marker", (7, 100.0), "standings", 7, 103.0, "lock")}
    held = {"seating": 5, "marker": (7, 100.0), "standings": 9}
    assert reads.hold(held, now=102.9)  # behind its version, but no rebuild is due yet
    assert not reads.hold(held, now=103.0)  # due: the request must reach Django
    assert reads.hold({**held, "lock": 1}, now=103.0)  # … unless somebody is rebuilding: Django serves this build
    assert reads.hold({**held, "standings": 7}, now=500.0)  # up to date: holds however long
    assert not reads.hold({**held, "seating": 6}, now=102.0)
    assert not reads.hold({**held, "marker": (9, 103.5)}, now=102.0)  # another worker rebuilt
    assert not reads.hold({"marker": (7, 100.0), "standings": 7}, now=102.0)  # the version evicted


def test_a_kept_response_and_a_polls_answer_read_back_from_the_shared_cache_hold_as_they_held():
    """Shared through the cache, each is pickled as its fields' plain values: what another worker reads
    back holds exactly when the one kept here does; what only the request that built it needed (the
    values it read, its poll notes) does not travel."""
    reads = Reads()
    reads.read = {"seating": 5, "version": 3}
    reads.exact = {"seating": 5}
    reads.coalesced = {"marker": Coalesced("marker", (7, 100.0), "standings", 7, 103.0, "lock")}
    reads.polls = {None: ("t1", Reads())}
    kept = Kept("200 OK", (("Content-Length", "4"),), b"page", reads, ("lock", "marker", "seating", "standings"))
    answer = PollAnswer("t1", reads, ("seating",), (("Content-Length", "0"),))
    held = {"seating": 5, "marker": (7, 100.0), "standings": 9}
    cases = [(held, 102.9), (held, 103.0), ({**held, "lock": 1}, 103.0), ({**held, "seating": 6}, 102.0)]
    for value in (kept, answer):
        again = pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
        assert type(again) is type(value)
        assert [again.reads.hold(found, now) for found, now in cases] == [True, False, True, False]
        assert (again.reads.exact, again.reads.coalesced) == (reads.exact, reads.coalesced)
        assert again.reads.read == {} and again.reads.polls == {}
        assert [getattr(again, name) for name in type(value).__dataclass_fields__ if name != "reads"] == [
            getattr(value, name) for name in type(value).__dataclass_fields__ if name != "reads"
        ]


@pytest.fixture
def static_app(django_app: Counted, settings) -> PublicResponses:
    """As production runs: whitenoise's files fixed while the worker runs (collected, not refreshed)."""
    settings.WHITENOISE_AUTOREFRESH = False
    return PublicResponses(django_app)


def test_a_static_file_asked_again_is_served_without_reaching_django(static_app, django_app):
    visitor = Visitor(static_app)
    first = visitor.get("/static/css/site.css")
    assert first[0] == "200 OK" and first[2] == (settings.BASE_DIR / "static/css/site.css").read_bytes()
    assert first[1]["X-Content-Type-Options"] == "nosniff"  # Django's middleware's headers, kept with it
    assert visitor.get("/static/css/site.css") == first
    assert Visitor(static_app, cookies="").get("/static/css/site.css") == first  # cookies change nothing
    assert django_app.calls == 1
    compressed = visitor.get("/static/css/site.css", HTTP_ACCEPT_ENCODING="gzip")
    assert django_app.calls == 2 and visitor.get("/static/css/site.css", HTTP_ACCEPT_ENCODING="gzip") == compressed


def test_what_whitenoise_answers_otherwise_reaches_django_each_time(static_app, django_app):
    visitor = Visitor(static_app)
    etag = visitor.get("/static/css/site.css")[1]["ETag"]
    calls = django_app.calls
    for path, headers in (
        ("/static/css/site.css", {"HTTP_IF_NONE_MATCH": etag}),
        ("/static/css/site.css", {"HTTP_RANGE": "bytes=0-9"}),
        ("/static/css/nothing-here.css", {}),
    ):
        first = visitor.get(path, **headers)
        assert visitor.get(path, **headers)[0] == first[0]
        assert not first[0].startswith("200"), path
    assert django_app.calls == calls + 6


def test_static_files_that_may_change_are_never_kept(app, django_app, settings):
    assert settings.WHITENOISE_AUTOREFRESH  # development: whitenoise reads the files afresh
    visitor = Visitor(app)
    assert visitor.get("/static/css/site.css")[0] == "200 OK"
    visitor.get("/static/css/site.css")
    assert django_app.calls == 2


def polls_of(page: bytes) -> list[str]:
    """The poll addresses of a page's live parts (``hx-get``, with the ``v=`` it shows)."""
    return [url.replace("&amp;", "&") for url in re.findall(r'hx-get="([^"]+)"', page.decode())]


def live_pages(event) -> dict[str, str]:
    """A page of each live kind, the pair's (with its ranks) and the match's at the watched table."""
    match = watched_match(event)
    tournament_id = event.tournament.pk
    return {
        "standings": reverse("standings:stage_standings", args=[tournament_id, event.first.stage_id]),
        "draw": reverse("standings:draw", args=[tournament_id]),
        "match": reverse("standings:match", args=[tournament_id, match.pk]),
        "pair": reverse("standings:pair", args=[tournament_id, match.ns_pair_id]),
    }


def test_a_poll_of_a_page_that_has_not_moved_never_reaches_django(app, django_app, event):
    """The first poll of every live part of every kind of page is answered from what Django noted
    when it built the page: the very 204 Django would give, headers and all."""
    visitor = Visitor(app)
    polls = [poll for url in live_pages(event).values() for poll in polls_of(visitor.get(url)[2])]
    assert len(polls) == 5  # the pair's page polls its matches and its ranks apart
    calls = django_app.calls
    answers = [visitor.get(poll, HTTP_HX_REQUEST="true") for poll in polls]
    assert django_app.calls == calls
    assert answers == [Visitor(django_app.handler).get(poll, HTTP_HX_REQUEST="true") for poll in polls]
    assert {status for status, _headers, _body in answers} == {"204 No Content"}
    assert [visitor.get(poll, HTTP_HX_REQUEST="true") for poll in polls] == answers
    assert django_app.calls == calls


def test_a_deal_moves_the_polls_of_its_own_pages_only(app, django_app, event):
    visitor = Visitor(app)
    match = watched_match(event)
    other = event.second.matches.exclude(ew_pair=None).exclude(pk=match.pk).first()
    mine = visitor.get(reverse("standings:pair", args=[event.tournament.pk, match.ew_pair_id]))[2]
    theirs = visitor.get(reverse("standings:pair", args=[event.tournament.pk, other.ns_pair_id]))[2]
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    calls = django_app.calls
    assert visitor.get(polls_of(theirs)[0], HTTP_HX_REQUEST="true")[0] == "204 No Content"
    assert django_app.calls == calls  # another table's deal: that pair's poll holds
    moved = visitor.get(polls_of(mine)[0], HTTP_HX_REQUEST="true")
    assert moved[0] == "200 OK" and django_app.calls == calls + 1  # its own pair's: Django builds it
    assert visitor.get(polls_of(moved[2])[0], HTTP_HX_REQUEST="true")[0] == "204 No Content"
    assert django_app.calls == calls + 1  # and the poll from the new version is answered at once


def test_polls_from_any_earlier_token_share_one_answer(app, django_app, event):
    """A page that moved answers every phone still at an earlier token with its live part as it
    stands: the same bytes whatever token was asked from, so Django builds it once for them all, and
    the other workers take it from the shared cache."""
    visitor = Visitor(app)
    match = watched_match(event)
    page = live_pages(event)["match"]
    oldest = polls_of(visitor.get(page)[2])[0]
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    older = polls_of(visitor.get(page)[2])[0]
    deal_record(match_id=match.pk, outcome={"order": ["E", "W"]})
    calls = django_app.calls
    answer = visitor.get(oldest, HTTP_HX_REQUEST="true")
    assert answer[0] == "200 OK" and django_app.calls == calls + 1
    assert visitor.get(older, HTTP_HX_REQUEST="true") == answer  # another earlier token: the same answer, kept
    other_django = Counted()
    assert Visitor(PublicResponses(other_django)).get(older, HTTP_HX_REQUEST="true") == answer
    assert django_app.calls == calls + 1 and other_django.calls == 0
    assert Visitor(django_app.handler).get(older, HTTP_HX_REQUEST="true") == answer  # what Django answers
    assert visitor.get(polls_of(answer[2])[0], HTTP_HX_REQUEST="true")[0] == "204 No Content"


def test_a_standings_poll_holds_until_a_rebuild_is_due(app, django_app, event):
    visitor = Visitor(app)
    page = urls(event)["standings"]
    match = running_match(event)
    with time_machine.travel("2026-05-01 09:00:00 +0000", tick=False) as clock:
        poll = polls_of(visitor.get(page)[2])[0]
        calls = django_app.calls
        clock.shift(1)
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})  # the match is won
        assert visitor.get(poll, HTTP_HX_REQUEST="true")[0] == "204 No Content"
        assert django_app.calls == calls  # the last complete build, inside the window
        clock.shift(WINDOW - 1)
        status, _headers, body = visitor.get(poll, HTTP_HX_REQUEST="true")
        assert status == "200 OK" and django_app.calls == calls + 1  # due: Django rebuilds it
        assert b"Results up to round 2" in body


def test_a_poll_one_worker_noted_is_answered_by_the_others(app, django_app, event):
    other_django = Counted()
    other = PublicResponses(other_django)
    polls = polls_of(Visitor(app).get(live_pages(event)["pair"])[2])
    assert [Visitor(other).get(poll, HTTP_HX_REQUEST="true")[0] for poll in polls] == ["204 No Content"] * 2
    assert other_django.calls == 0


def test_a_poll_reaches_django_when_it_is_no_plain_visitors_or_the_cache_is_down(app, django_app, event, monkeypatch):
    poll = polls_of(Visitor(app).get(live_pages(event)["match"])[2])[0]
    calls = django_app.calls
    assert Visitor(app, cookies=f"{settings.SESSION_COOKIE_NAME}=abc").get(poll, HTTP_HX_REQUEST="true")[0] == (
        "204 No Content"
    )
    assert Visitor(app).get(poll, HTTP_HX_REQUEST="true", host="evil.example")[0].startswith("400")
    assert django_app.calls == calls + 2

    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(cache, "get_many", down)
    Visitor(app).get(poll, HTTP_HX_REQUEST="true")  # Django's answer: every version afresh, a new page
    assert django_app.calls == calls + 3
