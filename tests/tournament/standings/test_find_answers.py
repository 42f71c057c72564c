"""Find my table answered by the worker before Django (``tournament.standings.find_answers``): for a
plain visitor's new name, the worker fills the layout of the page's first answer with its seat
index's answer, and gives Django's very bytes and headers; anything it cannot tell reaches Django.

Through the real WSGI application (Django's handler, the kept responses in front). Django's answer
to a probe is that of a worker that has answered nothing yet (its first find reaches Django), and
whether a request reached Django is counted at Django's handler itself."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import RequestFactory
from django.urls import reverse

from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round
from tests.tournament.standings.events import pairs_register, swiss_event
from tests.tournament.standings.test_live_standings import cache_calls_counted
from tests.tournament.standings.test_public_responses import Counted
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.matches.models import TeamMatch
from tournament.registration.models import Player
from tournament.registration.services import PlayerData, pair_check_in, pair_update, pair_withdraw, tournament_create
from tournament.registration.teams import team_create
from tournament.standings import find_answers
from tournament.standings.public_responses import PublicResponses

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("connections_kept")]

Answer = tuple[str, list[tuple[str, str]], bytes]


def ask(application: Any, path: str, *, cookies: str = "", **headers: str) -> Answer:
    """``application``'s answer to a GET of ``path``: status, headers in order, body."""
    environ = RequestFactory().get("/", HTTP_HOST="testserver", **headers).environ
    environ["PATH_INFO"], _mark, environ["QUERY_STRING"] = path.partition("?")
    if cookies:
        environ["HTTP_COOKIE"] = cookies
    answer: dict[str, Any] = {}

    def start_response(status: str, response_headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        answer["status"], answer["headers"] = status, list(response_headers)

    result = application(environ, start_response)
    try:
        body = b"".join(result)
    finally:
        if hasattr(result, "close"):
            result.close()
    return answer["status"], answer["headers"], body


def djangos(path: str, **asked: Any) -> Answer:
    """Django's answer: a worker that has answered nothing yet passes the request to Django."""
    handler = Counted()
    answer = ask(PublicResponses(handler), path, **asked)
    assert handler.calls == 1
    return answer


@pytest.fixture
def django_app() -> Counted:
    return Counted()


@pytest.fixture
def app(django_app: Counted) -> PublicResponses:
    return PublicResponses(django_app)


def find_url(tournament_id: int, query: str | None) -> str:
    path = reverse("standings:find", args=[tournament_id])
    return path if query is None else f"{path}?q={quote(query)}"


def names(tournament_id: int) -> list[str]:
    return sorted(Player.objects.filter(tournament_id=tournament_id).values_list("name", flat=True))


def probes(tournament_id: int) -> list[str | None]:
    """What players type: whole names, parts of them, typos, numbers, nobody, nothing, odd but plain text."""
    everyone = names(tournament_id)
    numbers = list(Player.objects.filter(tournament_id=tournament_id).values_list("employee_number", flat=True))
    return [
        *everyone,
        *{name[:1] for name in everyone},
        *{name[1:3] for name in everyone},
        *(f"{name[:-1]}乙" for name in everyone[:3]),  # mistyped
        *numbers[:3],
        numbers[0][:-1],  # part of an employee number finds nobody
        "#1",
        "# 2",
        "#99",
        "无此人",
        "WANG",
        "  王  一甲 ",
        "<b>\"&'",
        "a+b%c",
        "x" * 40,
        "",
        None,
    ]


VARIANTS = [
    pytest.param({}, id="zh"),
    pytest.param({"cookies": "django_language=en"}, id="en"),
    pytest.param({"cookies": "django_language=xx"}, id="not-a-language"),
    pytest.param({"HTTP_ACCEPT_LANGUAGE": "en"}, id="browser-en"),
    pytest.param({"HTTP_HX_REQUEST": "true"}, id="zh-htmx"),
    pytest.param({"cookies": "django_language=en", "HTTP_HX_REQUEST": "true"}, id="en-htmx"),
]


def unseated(body: bytes) -> bool:
    """Whether an answer tells where a player without a seat stands (read from the database: Django's)."""
    return b'class="card found-seat found-' in body


def answered_as_django(app: PublicResponses, django_app: Counted, tournament_id: int, asked: dict) -> int:
    """Every probe asked of ``app`` (a worker whose find layout is kept) is Django's answer, byte for
    byte, headers in order; Django is reached only for an answer about a player without a seat.
    How many probes the worker answered alone."""
    alone = 0
    for query in probes(tournament_id):
        url = find_url(tournament_id, query)
        calls = django_app.calls
        answer = ask(app, url, **asked)
        expected = djangos(url, **asked)
        assert answer == expected, query
        assert answer[0] == "200 OK"
        assert django_app.calls == calls + unseated(expected[2]), query
        alone += not unseated(expected[2])
    return alone


@pytest.mark.parametrize("asked", VARIANTS)
def test_a_new_name_is_djangos_answer_without_django(app, django_app, asked):
    event = swiss_event(pairs=7)  # round 2 gives a pair a bye
    tournament_id = event.tournament.pk
    first = ask(app, find_url(tournament_id, "20001"), **asked)
    assert django_app.calls == 1 and first == djangos(find_url(tournament_id, "20001"), **asked)
    alone = answered_as_django(app, django_app, tournament_id, asked)
    assert alone >= 40 and django_app.calls == 1
    bye = event.second.matches.get(ew_pair=None).ns_pair.members.get(slot=2).player.name
    answer = ask(app, find_url(tournament_id, bye + " "), **asked)  # asked apart: not kept yet
    assert django_app.calls == 1 and answer == djangos(find_url(tournament_id, bye + " "), **asked)
    assert b"Bye this round" in answer[2] or "本轮轮空".encode() in answer[2]


def test_the_answers_headers_are_djangos_own(app, django_app):
    event = swiss_event(pairs=4)
    tournament_id = event.tournament.pk
    ask(app, find_url(tournament_id, "20001"))
    status, headers, body = ask(app, find_url(tournament_id, "王"))
    assert django_app.calls == 1
    named = dict(headers)
    assert named["Content-Length"] == str(len(body)) and named["Content-Language"] == "zh-hans"
    assert "default-src 'self'" in named["Content-Security-Policy"]
    assert named["X-Frame-Options"] == "DENY" and "HX-Request" in named["Vary"] and "Cookie" in named["Vary"]
    assert (status, headers, body) == djangos(find_url(tournament_id, "王"))


def test_a_team_events_players_and_a_teams_bye(app, django_app):
    tournament = tournament_create(name="团体赛", rule_profile="timed-40", organiser=None)
    pairs = pairs_register(tournament, 6)
    for pair in pairs:
        pair_check_in(pair=pair)
    teams = [team_create(tournament=tournament, name=f"<i>部</i>{n}", pairs=pairs[2 * n : 2 * n + 2]) for n in range(3)]
    stage = stage_create(tournament=tournament, name="团体瑞士", format="swiss", options={"team_match": True})
    round_ = round_publish(round_=round_draw(stage=stage, seed=1))
    ask(app, find_url(tournament.pk, "20001"), cookies="django_language=en")
    assert answered_as_django(app, django_app, tournament.pk, {"cookies": "django_language=en"}) >= 30
    resting = next(team for team in teams if team.pk == TeamMatch.objects.get(round=round_, team_y=None).team_x_id)
    player = resting.members.first().pair.members.get(slot=2).player.name
    url = find_url(tournament.pk, f" {player}")
    calls = django_app.calls
    answer = ask(app, url, cookies="django_language=en")
    assert django_app.calls == calls and answer == djangos(url, cookies="django_language=en")
    assert b"Your team &lt;i&gt;" in answer[2] and b"Team match" not in answer[2]
    assert b"Team match 1" in ask(app, find_url(tournament.pk, "队友"), cookies="django_language=en")[2]


def test_a_walkover_and_a_withdrawn_player(app, django_app):
    from tests.tournament.draw.conftest import make_field, win

    tournament = make_field(6)
    stage = stage_create(tournament=tournament, name="小组赛", format="round_robin")
    first = round_publish(round_=round_draw(stage=stage, seed=1))
    for match in first.matches.all():
        win(match)
    gone = first.matches.first().ew_pair
    pair_withdraw(pair=gone)
    second = round_publish(round_=round_draw(stage=stage, seed=2))
    ask(app, find_url(tournament.pk, "#1"))
    answered_as_django(app, django_app, tournament.pk, {})
    given = second.matches.get(ew_pair__isnull=True).ns_pair.members.get(slot=2).player.name
    url = find_url(tournament.pk, given + "  ")
    calls = django_app.calls
    answer = ask(app, url)
    assert django_app.calls == calls and answer == djangos(url)
    assert "本轮不战而胜".encode() in answer[2]
    withdrawn = gone.members.get(slot=2).player.name
    assert unseated(ask(app, find_url(tournament.pk, withdrawn + " "))[2])
    assert django_app.calls == calls + 1  # where a player without a seat stands: read by Django


def test_a_seating_change_reaches_django_once_then_the_new_layout_answers(app, django_app):
    event = swiss_event(pairs=6)
    tournament_id = event.tournament.pk
    ask(app, find_url(tournament_id, "20001"))
    before = ask(app, find_url(tournament_id, "王"))
    assert django_app.calls == 1
    pair = event.pairs[0]
    pair_update(
        pair=pair,
        first=PlayerData(name="王新名", employee_number="20001"),
        second=PlayerData(name="队友01", employee_number="20002"),
        seed=None,
    )
    after = ask(app, find_url(tournament_id, "王新"))  # the seating version moved: Django, the new index
    assert django_app.calls == 2 and "王新名".encode() in after[2]
    assert after == djangos(find_url(tournament_id, "王新"))
    again = ask(app, find_url(tournament_id, "王"))
    assert django_app.calls == 2 and again != before and "王新名".encode() in again[2]
    assert again == djangos(find_url(tournament_id, "王"))


def test_another_workers_seating_change_is_seen_at_once(app, django_app):
    """The version is read afresh on every find: a bump by anybody reaches Django here next."""
    from tournament.standings.cache import public_version_bump

    event = swiss_event(pairs=4)
    ask(app, find_url(event.tournament.pk, "20001"))
    public_version_bump(tournament_id=event.tournament.pk)
    ask(app, find_url(event.tournament.pk, "王"))
    assert django_app.calls == 2
    ask(app, find_url(event.tournament.pk, "李"))
    assert django_app.calls == 2


UNUSUAL = [
    pytest.param("q=%E7%8E%8B&page=2", id="a-parameter-find-does-not-read"),
    pytest.param("q=%E7%8E%8B&v=1", id="a-poll-token"),
    pytest.param("q=" + "x" * 41, id="longer-than-a-query"),
    pytest.param("q=%E7%8E%8B%09", id="a-tab"),
    pytest.param("q=%E7%8E%8B%E3%80%80%E4%B8%80", id="an-ideographic-space"),
    pytest.param("q=%FF%E7%8E%8B", id="no-utf-8"),
    pytest.param("q=%00", id="a-nul"),
]


@pytest.mark.parametrize("query", UNUSUAL)
def test_an_unusual_query_reaches_django(app, django_app, query):
    event = swiss_event(pairs=4)
    path = reverse("standings:find", args=[event.tournament.pk])
    ask(app, find_url(event.tournament.pk, "20001"))
    answer = ask(app, f"{path}?{query}")
    assert django_app.calls == 2
    assert answer == djangos(f"{path}?{query}")


def test_a_parameter_no_public_page_reads_is_dropped_and_the_find_answered(app, django_app):
    event = swiss_event(pairs=4)
    path = reverse("standings:find", args=[event.tournament.pk])
    ask(app, find_url(event.tournament.pk, "20001"))
    answer = ask(app, f"{path}?utm=1&q=%E7%8E%8B")
    assert django_app.calls == 1 and answer == djangos(f"{path}?q=%E7%8E%8B")


@pytest.mark.parametrize("cookies", [f"{settings.SESSION_COOKIE_NAME}=abc", "messages=xyz"])
def test_signed_in_visitors_and_pending_messages_reach_django(app, django_app, cookies):
    event = swiss_event(pairs=4)
    ask(app, find_url(event.tournament.pk, "20001"))
    for query in ("王", "李", "张"):
        ask(app, find_url(event.tournament.pk, query), cookies=cookies)
    assert django_app.calls == 4


def test_a_signed_in_organiser_is_answered_by_django(django_app, app, client):
    from tests.factories import organiser

    event = swiss_event(pairs=4)
    client.force_login(organiser(username="boss"))
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    ask(app, find_url(event.tournament.pk, "20001"))
    answer = ask(app, find_url(event.tournament.pk, "王"), cookies=f"{settings.SESSION_COOKIE_NAME}={session}")
    assert django_app.calls == 2 and b"boss" in answer[2]


def test_with_the_cache_down_django_answers(app, django_app, monkeypatch):
    event = swiss_event(pairs=4)
    ask(app, find_url(event.tournament.pk, "20001"))
    expected = djangos(find_url(event.tournament.pk, "王"))

    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(cache, "get_many", down)
    assert ask(app, find_url(event.tournament.pk, "王"))[2] == expected[2]
    assert django_app.calls == 2


def test_a_layout_that_does_not_give_djangos_bytes_is_not_kept(app, django_app, monkeypatch):
    """Kept only if filling it for the request Django just answered gives Django's answer."""
    event = swiss_event(pairs=4)
    real = find_answers.find_results_html
    monkeypatch.setattr(find_answers, "find_results_html", lambda **kw: real(**kw) + " ")
    for query in ("20001", "王", "李"):
        ask(app, find_url(event.tournament.pk, query))
    assert django_app.calls == 3


def test_each_worker_keeps_its_own_layout(django_app, app):
    event = swiss_event(pairs=4)
    other_django = Counted()
    other = PublicResponses(other_django)
    ask(app, find_url(event.tournament.pk, "20001"))
    ask(other, find_url(event.tournament.pk, "王"))
    assert other_django.calls == 1  # nothing of the first worker's is shared
    assert ask(other, find_url(event.tournament.pk, "李")) == ask(app, find_url(event.tournament.pk, "李"))
    assert (django_app.calls, other_django.calls) == (1, 1)


def test_a_dou_dizhu_event_is_answered_by_django(app, django_app):
    tournament, stage = doudizhu_event(players=9)
    drawn_round(stage)
    for query in ("选手1", "选手2", "选手3"):
        ask(app, find_url(tournament.pk, query))
    assert django_app.calls == 3


def test_a_new_name_costs_one_round_trip_to_the_cache_and_writes_nothing(app, django_app, monkeypatch):
    """The seating version is read afresh, once, as for any kept response; nothing is shared."""
    event = swiss_event(pairs=4)
    ask(app, find_url(event.tournament.pk, "20001"))
    calls = cache_calls_counted(monkeypatch, ("get", "get_many", "set", "set_many", "add", "incr", "delete"))
    answer = ask(app, find_url(event.tournament.pk, "王"))
    assert django_app.calls == 1 and calls == ["get_many"]
    assert "王一甲".encode() in answer[2]


def test_a_find_answered_here_keeps_its_page_out_of_the_shared_cache(app, django_app, monkeypatch):
    """The page's answers are this worker's alone, whoever answered them: once the worker forgot which
    pages those are (its bounded note emptied), its next answer says so again, and later names are
    not looked for in the shared cache."""
    event = swiss_event(pairs=4)
    ask(app, find_url(event.tournament.pk, "20001"))
    app.local_paths.clear()
    ask(app, find_url(event.tournament.pk, "王"))
    looked_up: list[str] = []
    get = cache.get
    monkeypatch.setattr(cache, "get", lambda key, *a, **kw: (looked_up.append(key), get(key, *a, **kw))[1])
    ask(app, find_url(event.tournament.pk, "李"))
    assert django_app.calls == 1 and not any(":response:" in key for key in looked_up)
