"""What one client can add to the kept public responses is bounded: the key holds the parameters
a page reads, not the raw query string (300 requests with ``?utm=$i`` added 300 responses and
14 MB to Redis), and a client adds at most ``PUBLIC_RESPONSE_NEW_PER_CLIENT`` new ones per window —
whatever ``X-Forwarded-For`` it writes. Through the real WSGI application, as the kept responses'
own tests."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.factories import MatchFactory, PairFactory, RoundFactory, StageFactory, TournamentFactory
from tests.tournament.standings.events import swiss_event
from tests.tournament.standings.test_public_responses import WINDOW, Counted, Visitor
from tournament.draw.stages import stage_teams_set
from tournament.matches.models import RoundStatus
from tournament.registration.teams import team_create
from tournament.standings.public_responses import PAGE_PARAMETER_MAX, PublicResponses, poll_page, query_read

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("connections_kept")]



class Seen(Counted):
    """Django's handler, noting the query strings it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.queries: list[str] = []

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.queries.append(environ.get("QUERY_STRING", ""))
        return super().__call__(environ, start_response)


@pytest.fixture
def django_app() -> Seen:
    return Seen()


@pytest.fixture
def app(django_app: Seen, settings) -> PublicResponses:
    settings.PUBLIC_REBUILD_SECONDS = WINDOW
    return PublicResponses(django_app)


@pytest.fixture
def event():
    return swiss_event()


def test_the_query_as_a_page_reads_it():
    assert query_read("utm=1&page=2&q=%E5%BC%A0&page=3&fbclid=x") == "page=3&q=%E5%BC%A0"
    assert query_read("") == "" and query_read("utm_source=a") == ""
    assert query_read("q=" + "x" * (PAGE_PARAMETER_MAX + 1)) is None


@pytest.mark.parametrize(
    "sent",
    [
        "q=%E5%BC%A0",
        "q=a%3Dv%3D1&page=2",
        "q=v%3D&interval=12&rows=10&screen=1",
        "q=&page=",
        "q=%FF%FE&page=2",  # not UTF-8: read with replacement characters
        "q=x+y&v=abc",
        "v=&page=3",
        "page=2&v=t1&q=%E7%8E%8B+%E5%B0%8F",
    ],
)
def test_a_polls_page_is_its_query_without_v_however_it_was_sent(sent):
    """The page a poll belongs to (its key without ``v``) is the query read, parsed and written again
    without ``v``, whether or not ``v`` was there (a query without one is taken as it is)."""
    key = ("host", "http", None, "", "/t/1/standings/1/", query_read(sent), "zh-hans", True)
    page, token = poll_page(key)
    values = parse_qsl(key[5], keep_blank_values=True)
    assert page[5] == urlencode([(name, value) for name, value in values if name != "v"])
    assert token == next((value for name, value in values if name == "v"), None)
    assert page == (*key[:5], page[5], "zh-hans")


def test_tracking_parameters_are_one_kept_response_and_django_never_reads_them(app, django_app, event):
    standings = reverse("standings:stage_standings", args=[event.tournament.pk, event.first.stage_id])
    visitor = Visitor(app)
    answers = [visitor.get(f"{standings}?utm={n}&page=1", REMOTE_ADDR=f"10.1.{n}.1") for n in range(40)]
    assert {status for status, _headers, _body in answers} == {"200 OK"}
    assert len({body for _status, _headers, body in answers}) == 1
    assert django_app.calls == 1 and django_app.queries == ["page=1"]


def test_one_client_adds_at_most_its_share_of_new_responses(app, django_app, event, settings):
    settings.PUBLIC_RESPONSE_NEW_PER_CLIENT = 3
    standings = reverse("standings:stage_standings", args=[event.tournament.pk, event.first.stage_id])
    visitor = Visitor(app)
    pages = [f"{standings}?page={n}" for n in range(1, 6)]  # each a response of its own (the key holds the page asked)
    for n, url in enumerate(pages):  # five new pages, each with a new forged address
        visitor.get(url, REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR=f"10.2.{n}.1")
    built = django_app.calls
    for url in pages:  # asked again: the first three were kept, the last two were not
        visitor.get(url, REMOTE_ADDR="198.51.100.7")
    assert built == 5 and django_app.calls == 5 + 2
    # another client still adds its own
    other = f"{standings}?page=9"
    visitor.get(other, REMOTE_ADDR="198.51.100.8")
    visitor.get(other, REMOTE_ADDR="198.51.100.8")
    assert django_app.calls == 5 + 2 + 1
    # and a page already kept, rebuilt in place, costs nobody anything: the first client's kept
    # pages are still served
    visitor.get(pages[0], REMOTE_ADDR="198.51.100.7")
    assert django_app.calls == 5 + 2 + 1


def test_the_big_screen_of_the_team_standings_is_a_parameter_of_its_own(app, django_app):
    """``?screen=1`` is read by the team standings (the big screen's layout: large type, no
    navigation): it is kept under its own key and handed to Django, not dropped as ``?utm=`` is —
    an anonymous visitor's projector gets the big screen, not the phones' page."""
    event = TournamentFactory()
    stage = StageFactory(tournament=event)
    round_ = RoundFactory(stage=stage, number=1, status=RoundStatus.PUBLISHED)
    pairs = [PairFactory(tournament=event) for _ in range(4)]
    MatchFactory(round=round_, ns_pair=pairs[0], ew_pair=pairs[1])
    MatchFactory(round=round_, ns_pair=pairs[2], ew_pair=pairs[3])
    team_create(tournament=event, name="销售部", pairs=pairs[::2])
    team_create(tournament=event, name="研发部", pairs=pairs[1::2])
    stage_teams_set(stage=stage, team_total=True)
    url = reverse("standings:stage_team_standings", args=[event.pk, stage.pk])
    visitor = Visitor(app)
    phone, screen = visitor.get(url), visitor.get(f"{url}?screen=1&utm=1")
    assert phone[0] == screen[0] == "200 OK"
    assert b'class="screen"' in screen[2] and b'class="screen"' not in phone[2]
    assert django_app.queries == ["", "screen=1"]
    assert visitor.get(f"{url}?screen=1") == screen and visitor.get(url) == phone  # each kept apart
    assert django_app.calls == 2


@pytest.mark.redis
def test_on_redis_a_new_response_is_counted_and_shared_in_one_round_trip(app, django_app, event, monkeypatch, settings):
    settings.PUBLIC_RESPONSE_NEW_PER_CLIENT = 1
    standings = reverse("standings:stage_standings", args=[event.tournament.pk, event.first.stage_id])
    visitor = Visitor(app)
    visitor.get(f"{standings}?page=1", REMOTE_ADDR="198.51.100.7")  # the frame and the build kept
    client = cache.client  # the kept connection's client: the script goes with the writes it sends
    scripts: list[list[str]] = []
    exchange = client.exchange

    def counted(commands: Any) -> Any:
        scripts.append([command[0] for command in commands])
        return exchange(commands)

    def refused(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("counted apart")

    monkeypatch.setattr(client, "exchange", counted)
    monkeypatch.setattr(cache, "incr", refused)
    visitor.get(f"{standings}?page=2", REMOTE_ADDR="198.51.100.8")  # new, within its share: shared
    visitor.get(f"{standings}?page=3", REMOTE_ADDR="198.51.100.8")  # past its share: served, not shared
    # Each new response: the script counting the client, once, in one round trip (an exchange).
    counts = [sent for sent in scripts if "EVAL" in sent]
    assert len(counts) == 2 and all(sent.count("EVAL") == 1 for sent in counts)
    built = django_app.calls
    other = Visitor(PublicResponses(django_app))  # another worker
    other.get(f"{standings}?page=2", REMOTE_ADDR="198.51.100.9")
    assert django_app.calls == built
    other.get(f"{standings}?page=3", REMOTE_ADDR="198.51.100.9")
    assert django_app.calls == built + 1
