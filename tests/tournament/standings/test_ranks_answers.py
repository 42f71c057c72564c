"""A pair's ranks poll answered by the worker before Django (``tournament.standings.ranks_answers``):
after a standings build, every pair's poll is answered from the worker's shell of the event's ranks
polls and its ranks index of the build — the 204 of a line that did not move, the new part of one
that did — with Django's very bytes and headers; anything the worker cannot tell reaches Django.

Through the real WSGI application (Django's handler, the kept responses in front). Django's own
answer is asked of Django's handler alone, after the worker's (it serves the same build: no rebuild
is due by then); whether a request reached Django is counted at Django's handler itself."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournament.standings.events import play_out, swiss_event
from tests.tournament.standings.test_find_answers import ask
from tests.tournament.standings.test_live_standings import cache_calls_counted
from tests.tournament.standings.test_public_responses import Counted
from tournament.registration.services import PlayerData, pair_update
from tournament.standings import public_cache as cached_reads
from tournament.standings import ranks_answers
from tournament.standings.public_responses import PublicResponses

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("connections_kept")]

HTMX = {"HTTP_HX_REQUEST": "true"}
LANGUAGES = [pytest.param({}, id="zh"), pytest.param({"cookies": "django_language=en"}, id="en")]


@pytest.fixture(autouse=True)
def rebuilt_at_once(settings):
    """A result is in the next build at once (no wait between two rebuilds)."""
    settings.PUBLIC_REBUILD_SECONDS = 0


@pytest.fixture
def django_app() -> Counted:
    return Counted()


@pytest.fixture
def app(django_app: Counted) -> PublicResponses:
    return PublicResponses(django_app)


def polls_of(app: PublicResponses, event: Any, **asked: Any) -> dict[int, str]:
    """Each pair's ranks poll, as its page (asked of ``app``) links it."""
    polls = {}
    for pair in event.pairs:
        page = ask(app, reverse("standings:pair", args=(event.tournament.pk, pair.pk)), **asked)[2].decode()
        polls[pair.pk] = re.search(r'hx-get="([^"]*/ranks/\?v=[^"]+)"', page).group(1)
    return polls


def djangos(url: str, **asked: Any) -> tuple[str, list[tuple[str, str]], bytes]:
    """Django's own answer (its handler alone: nothing kept in front)."""
    return ask(Counted(), url, **asked)


def next_poll(answer: tuple[str, list[tuple[str, str]], bytes], url: str) -> str:
    """The poll a phone makes next after ``answer`` to its poll of ``url``."""
    if answer[0].startswith("204"):
        return url
    return re.search(r'hx-get="([^"]+)"', answer[2].decode()).group(1)


def answered_as_django(app, django_app, polls: dict[int, str], asked: dict) -> tuple[int, int, dict[int, str]]:
    """Every pair's poll asked of ``app`` is Django's answer, status, headers in order and bytes; the
    number of 204s and of new parts, and each pair's next poll."""
    unchanged = moved = 0
    following = {}
    for pair_id, url in polls.items():
        answer = ask(app, url, **HTMX, **asked)
        assert answer == djangos(url, **HTMX, **asked), pair_id
        unchanged += answer[0].startswith("204")
        moved += answer[0].startswith("200")
        following[pair_id] = next_poll(answer, url)
    assert unchanged + moved == len(polls)
    return unchanged, moved, following


def learnt(app, django_app, event, asked: dict, *, kept: bool | None = True) -> dict[int, str]:
    """The worker's shell of the event's ranks polls, with a new part and a 204 each answered by Django
    once (after the round's first result every line moves; after its second, some), and a third
    result in, not built yet (``kept`` False: no shell is kept; None: not asked). Each pair's next poll."""
    first, second, _third, fourth = event.second.matches.exclude(ew_pair=None).order_by("table__number")[:4]
    polls = polls_of(app, event, **asked)
    for match in (first, second):
        play_out(match, winner="EW" if match == second else "NS")
        _unchanged, _moved, polls = answered_as_django(app, django_app, polls, asked)
    shells = [(shell.unchanged is not None, shell.moved is not None) for shell in app.ranks._entries.values()]
    assert kept is None or shells == [(True, True)] * kept
    play_out(fourth)
    return polls


@pytest.mark.parametrize("asked", LANGUAGES)
def test_after_a_build_every_pairs_poll_is_djangos_answer_without_django(app, django_app, asked):
    event = swiss_event(pairs=12)
    polls = learnt(app, django_app, event, asked)
    third = event.second.matches.exclude(ew_pair=None).order_by("table__number")[2]
    play_out(third, loser_first=1)
    calls = django_app.calls
    unchanged, moved, polls = answered_as_django(app, django_app, polls, asked)
    assert unchanged and moved  # both kinds of answer, each the worker's own
    assert django_app.calls == calls + 1  # the first poll after the results: Django rebuilds the standings
    calls = django_app.calls
    unchanged, moved, _polls = answered_as_django(app, django_app, polls, asked)
    assert (unchanged, moved) == (len(polls), 0) and django_app.calls == calls


def test_a_rebuild_that_moves_a_pairs_line_changes_its_answer(app, django_app):
    event = swiss_event(pairs=8)
    polls = learnt(app, django_app, event, {})
    _unchanged, _moved, polls = answered_as_django(app, django_app, polls, {})
    match = event.second.matches.exclude(ew_pair=None).order_by("table__number")[2]
    pair_id = match.ns_pair_id
    before = ask(app, polls[pair_id], **HTMX)
    assert before[0].startswith("204")
    play_out(match, winner="EW")
    ask(app, polls[event.pairs[-1].pk], **HTMX)  # the first poll after the result rebuilds (Django)
    calls = django_app.calls
    after = ask(app, polls[pair_id], **HTMX)
    assert django_app.calls == calls and after[0] == "200 OK" and b"0-0-2" in after[2]
    assert after == djangos(polls[pair_id], **HTMX)
    again = ask(app, next_poll(after, polls[pair_id]), **HTMX)  # the new version's poll: the 204
    assert again[0].startswith("204") and django_app.calls == calls
    other_phone = ask(app, polls[pair_id], **HTMX)  # the pair's other phone, at the old version
    assert other_phone == after and django_app.calls == calls


def test_a_poll_answered_here_costs_one_round_trip_and_writes_nothing(app, django_app, monkeypatch):
    event = swiss_event(pairs=8)
    polls = learnt(app, django_app, event, {})
    ask(app, polls[event.pairs[0].pk], **HTMX)  # Django rebuilds
    reached = django_app.calls
    calls = cache_calls_counted(monkeypatch, ("get", "get_many", "set", "set_many", "add", "incr", "delete"))
    for pair in event.pairs[1:]:
        ask(app, polls[pair.pk], **HTMX)
        assert calls == ["get_many"], pair.pk
        calls.clear()
    assert django_app.calls == reached


def test_a_build_whose_index_this_worker_has_not_read_reaches_django(app, django_app):
    event = swiss_event(pairs=8)
    polls = learnt(app, django_app, event, {})
    ask(app, polls[event.pairs[0].pk], **HTMX)  # Django rebuilds
    cached_reads.ranks_memo._entries.clear()  # as a worker that did not build it
    calls = django_app.calls
    url = polls[event.pairs[1].pk]
    assert ask(app, url, **HTMX) == djangos(url, **HTMX)
    assert django_app.calls == calls + 1  # Django reads the index into the worker's memory
    answered_as_django(app, django_app, {pair.pk: polls[pair.pk] for pair in event.pairs[2:]}, {})
    assert django_app.calls == calls + 1


def test_a_rebuild_due_that_nobody_makes_reaches_django(app, django_app, builds):
    event = swiss_event(pairs=8)
    polls = learnt(app, django_app, event, {})
    made = len(builds)
    ask(app, polls[event.pairs[0].pk], **HTMX)
    assert len(builds) == made + 1  # Django took the lock and rebuilt, as it would have without the worker


def test_a_seating_change_reaches_django_then_the_new_shell_answers(app, django_app):
    event = swiss_event(pairs=8)
    polls = learnt(app, django_app, event, {})
    answered_as_django(app, django_app, polls, {})
    pair = event.pairs[0]
    pair_update(
        pair=pair,
        first=PlayerData(name="王新名", employee_number="20001"),
        second=PlayerData(name="队友01", employee_number="20002"),
        seed=None,
    )
    calls = django_app.calls
    answered_as_django(app, django_app, polls, {})
    assert calls < django_app.calls <= calls + 3  # the new build, and the new shell's two answers


UNUSUAL = [
    pytest.param("{url}&page=2", HTMX, id="a-parameter-the-part-does-not-read"),
    pytest.param("{url}", {}, id="no-htmx"),
    pytest.param("{path}?v=", HTMX, id="an-empty-version"),
]


@pytest.mark.parametrize(("shape", "headers"), UNUSUAL)
def test_an_unusual_poll_reaches_django(app, django_app, shape, headers):
    event = swiss_event(pairs=8)
    polls = learnt(app, django_app, event, {})
    ask(app, polls[event.pairs[0].pk], **HTMX)  # Django rebuilds
    url = polls[event.pairs[1].pk]
    asked = shape.format(url=url, path=url.split("?")[0])
    calls = django_app.calls
    answer = ask(app, asked, **headers)
    assert answer == djangos(asked, **headers)
    assert django_app.calls == calls + (asked != f"{url.split('?')[0]}?v=")


def test_with_the_cache_down_django_answers(app, django_app, monkeypatch):
    event = swiss_event(pairs=8)
    polls = learnt(app, django_app, event, {})
    ask(app, polls[event.pairs[0].pk], **HTMX)  # Django rebuilds
    url = polls[event.pairs[1].pk]
    expected = djangos(url, **HTMX)

    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(cache, "get_many", down)
    calls = django_app.calls
    answer = ask(app, url, **HTMX)
    assert django_app.calls == calls + 1 and (answer[0], answer[2]) == (expected[0], expected[2])


def test_a_shell_that_does_not_give_djangos_bytes_is_not_kept(app, django_app, monkeypatch):
    real = ranks_answers.ranks_answer

    def spoilt(*args: Any, **kwargs: Any) -> Any:
        answered = real(*args, **kwargs)
        return answered if answered is None or answered[0] is None else (answered[0], answered[1] + b" ")

    monkeypatch.setattr(ranks_answers, "ranks_answer", spoilt)
    event = swiss_event(pairs=8)
    polls = learnt(app, django_app, event, {}, kept=None)
    assert all(shell.moved is None for shell in app.ranks._entries.values())  # the new part's check failed
    calls = django_app.calls
    _unchanged, moved, _polls = answered_as_django(app, django_app, polls, {})
    assert moved and django_app.calls >= calls + moved


def test_a_path_exempt_from_the_https_redirect_keeps_no_shell(app, django_app, settings):
    settings.SECURE_REDIRECT_EXEMPT = [r"^t/1/pairs/1/"]  # one pair's address answered apart
    event = swiss_event(pairs=8)
    polls = learnt(app, django_app, event, {}, kept=False)
    calls = django_app.calls
    answered_as_django(app, django_app, polls, {})
    assert django_app.calls == calls + len(polls)


def test_each_worker_keeps_its_own_shell(app, django_app):
    event = swiss_event(pairs=8)
    polls = learnt(app, django_app, event, {})
    other_django = Counted()
    other = PublicResponses(other_django)
    ask(app, polls[event.pairs[0].pk], **HTMX)  # Django rebuilds
    url = polls[event.pairs[1].pk]
    assert ask(other, url, **HTMX) == ask(app, url, **HTMX)
    assert other_django.calls == 1  # nothing of the first worker's is shared
