"""Find my table from each worker's index of the current seats, and the pages' layout served once
per version: the two things that keep "find my table" fast when a draw is published."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournament.standings.events import swiss_event
from tournament.draw.edits import table_areas_set
from tournament.matches.models import Match
from tournament.matches.services import deal_record
from tournament.registration.models import Player
from tournament.registration.services import PlayerData, pair_update, tournament_create
from tournament.standings import seating
from tournament.standings.cache import LocalMemo, public_version_get
from tournament.standings.public import tournament_overview_get
from tournament.standings.public_types import RoundInfo, SeatFound
from tournament.standings.seating import SeatIndex, table_find

pytestmark = pytest.mark.django_db


ROUND = RoundInfo(
    id=1,
    stage_id=1,
    stage_name="预赛",
    stage_format="swiss",
    number=1,
    status="running",
    published_at=None,
    started_at=None,
    ends_at=None,
    time_called_at=None,
)


def index_of(*players: tuple[str, str]) -> SeatIndex:
    """Each player (name, employee number) at a table of their own, N/S against pair 99."""
    rows = [
        (n, name, number, n, ROUND.id, n, n, "", "NS", n, f"{name} / x", 99, "对手", n + 10, n + 10, 99)  # pair n + 10
        for n, (name, number) in enumerate(players, start=1)
    ]
    return SeatIndex(rows, [ROUND])


def names(found: tuple[SeatFound, ...]) -> list[str]:
    return [seat.player_name for seat in found]


def test_the_index_finds_part_of_a_name_in_any_case_and_only_whole_employee_numbers():
    index = index_of(("王小明", "20001"), ("Wang Wei", "20002"), ("李王", "E300"), ("张三", "20003"))
    assert names(index.find("王")) == ["李王", "王小明"]  # by name
    assert names(index.find("wang")) == names(index.find(" WANG ")) == ["Wang Wei"]
    assert names(index.find("20002")) == ["Wang Wei"]
    assert index.find("2000") == ()  # no listing the roster by a part of a number
    assert names(index.find("#12")) == names(index.find("# 12")) == ["Wang Wei"]  # pair 12 of the event
    assert index.find("#2") == () and index.find("12") == ()  # a bare number is an employee number
    assert names(index.find("E300")) == ["李王"]  # a number with letters, whole
    (seat,) = index.find("张三")
    assert (seat.table, seat.side, seat.pair_name, seat.round_number) == (4, "NS", "张三 / x", 1)
    assert (seat.opponent.pair_id, seat.opponent.name) == (99, "对手")
    assert index.find("明\n张") == index.find("") == ()  # never across two names


def test_the_index_answers_the_first_seats_in_name_order_up_to_the_limit():
    index = index_of(*((f"王{n:02d}", str(n)) for n in range(30)), ("王者", "99"))
    found = index.find("王", limit=5)
    assert names(found) == ["王00", "王01", "王02", "王03", "王04"]
    # an employee number counts as much as a name: "7" is 王07's number and part of nobody's name
    assert names(index.find("7", limit=5)) == ["王07"]
    assert len(index.find("王")) == 20


def test_the_seats_come_from_the_database_in_the_index_order_so_its_sort_only_checks_it(monkeypatch):
    event = swiss_event()
    # names a locale's collation orders otherwise than Python (by pinyin, case and accents apart)
    players = Player.objects.filter(tournament=event.tournament).order_by("pk")[: len(NAMES_BY_CODE_POINT)]
    for player, name in zip(players, NAMES_BY_CODE_POINT, strict=True):
        Player.objects.filter(pk=player.pk).update(name=name)
    given: list[list[tuple[object, ...]]] = []

    class Recorded(SeatIndex):
        def __init__(self, rows, *args, **kwargs):  # type: ignore[no-untyped-def]
            given.append(list(rows))
            super().__init__(given[-1], *args, **kwargs)

    monkeypatch.setattr(seating, "SeatIndex", Recorded)
    rounds = tournament_overview_get(tournament_id=event.tournament.pk).current_rounds
    seating.seat_index_build(rounds=rounds, tournament_id=event.tournament.pk)
    assert given[0] == sorted(given[0], key=seating._BY_NAME)
    assert {row[1] for row in given[0]} >= set(NAMES_BY_CODE_POINT)


NAMES_BY_CODE_POINT = ["Zoe", "wang", "Wang", "Émile", "éclair", "阿", "啊", "张", "安", "王"]


def test_find_keeps_its_index_through_deals_and_rebuilds_when_a_seat_changes():
    event = swiss_event()
    rounds = tournament_overview_get(tournament_id=event.tournament.pk).current_rounds
    with CaptureQueriesContext(connection) as queries:
        assert table_find(tournament_id=event.tournament.pk, rounds=rounds, query="张三甲")
    assert len(queries) == 1  # the index: one query for every seat

    seating = public_version_get(tournament_id=event.tournament.pk, scope="seating")
    public = public_version_get(tournament_id=event.tournament.pk)
    match = Match.objects.filter(round=event.second).exclude(ew_pair=None).first()
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    assert public_version_get(tournament_id=event.tournament.pk) > public  # the pages change
    assert public_version_get(tournament_id=event.tournament.pk, scope="seating") == seating  # the seats do not
    with CaptureQueriesContext(connection) as queries:
        table_find(tournament_id=event.tournament.pk, rounds=rounds, query="张三甲")
    assert len(queries) == 0

    player = Player.objects.get(tournament=event.tournament, employee_number="20005")
    pair = player.membership.pair
    first, second = (member.player for member in pair.members.order_by("slot"))
    pair_update(
        pair=pair,
        first=PlayerData(name="张三乙", employee_number=first.employee_number),
        second=PlayerData(name=second.name, employee_number=second.employee_number),
        seed=pair.seed,
    )
    assert table_find(tournament_id=event.tournament.pk, rounds=rounds, query="张三甲") == ()
    found = table_find(tournament_id=event.tournament.pk, rounds=rounds, query="张三乙")
    assert names(found) == ["张三乙"] and found[0].pair_name.startswith("张三乙")

    table_areas_set(tournament=event.tournament, first=1, last=50, area="B区")
    assert table_find(tournament_id=event.tournament.pk, rounds=rounds, query="20005")[0].area == "B区"


def test_a_worker_keeps_the_newest_values_it_used():
    memo = LocalMemo(2)
    memo.put("a", 1)
    memo.put("b", 2)
    assert memo.get("a") == 1  # a is now the newest
    memo.put("c", 3)
    assert memo.get("b") is None and memo.get("a") == 1 and memo.get("c") == 3


# -- the layout of public pages, rendered once per version -----------------------------------------


def test_an_anonymous_visitor_gets_the_same_page_as_a_rendered_one_without_any_cookie():
    event = swiss_event()
    path = reverse("standings:find", args=[event.tournament.pk])
    visitor = Client()
    first = visitor.get(path, {"q": "张三甲"})
    assert "public/find.html" in [t.name for t in first.templates]  # the layout, rendered once
    again = visitor.get(path, {"q": "20005"})
    assert "public/find.html" not in [t.name for t in again.templates]  # then only its holes filled
    assert not again.cookies  # nothing per visitor: any cache in front may keep the page …
    assert "Cookie" in again["Vary"] and "Accept-Language" not in again["Vary"]  # … per language cookie
    assert again["Content-Language"] == "zh-hans"
    # A visitor with pending messages gets the page rendered as usual: the same HTML.
    rendered = Client()
    rendered.cookies["messages"] = ""
    usual = rendered.get(path, {"q": "20005"})
    assert "public/find.html" in [t.name for t in usual.templates]
    assert again.content.decode() == usual.content.decode()
    page = again.content.decode()
    assert 'value="20005"' in page and "张三甲" in page
    player = Player.objects.get(tournament=event.tournament, employee_number="20005")
    match = Match.objects.get(round=event.second, entries__pair=player.membership.pair)
    opponent = match.ew_pair if match.ns_pair == player.membership.pair else match.ns_pair
    assert f'href="{reverse("standings:match", args=[event.tournament.pk, match.pk])}"' in page
    opponent_link = reverse("standings:pair", args=[event.tournament.pk, opponent.pk])
    assert f'href="{opponent_link}">#{opponent.number} {opponent.name}<' in page  # by the event's pair number
    assert f'href="/language/en/?next={path}%3Fq%3D20005"' in page


def test_what_a_visitor_typed_is_escaped_where_the_layout_shows_it():
    event = swiss_event()
    path = reverse("standings:find", args=[event.tournament.pk])
    Client().get(path)
    page = Client().get(path, {"q": '"><script>x</script>'}).content.decode()
    assert "<script>x</script>" not in page
    assert 'value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"' in page
    assert "\x00" not in page


def test_a_signed_in_user_gets_their_own_header_not_the_shared_layout(django_user_model):
    event = swiss_event()
    user = django_user_model.objects.create_user(username="裁判长", password="x")
    client = Client()
    client.force_login(user)
    path = reverse("standings:draw", args=[event.tournament.pk])
    Client().get(path)  # an anonymous visitor caches the layout
    page = client.get(path).content.decode()
    assert "裁判长" in page and 'hx-headers=\'{"X-CSRFToken"' in page
    anonymous = Client().get(path).content.decode()
    assert "裁判长" not in anonymous and "X-CSRFToken" not in anonymous
    assert re.search(r'<a href="/accounts/login/">', anonymous)
    assert settings.SESSION_COOKIE_NAME in client.cookies


def test_a_long_list_is_cut_with_a_hint_and_before_any_draw_the_page_says_so():
    event = swiss_event(pairs=24)
    path = reverse("standings:find", args=[event.tournament.pk])
    english = Client()
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = english.get(path, {"q": "队友"}).content.decode()
    assert page.count('class="card found-seat"') == 20
    assert "Only the first 20 are shown: type more of the name." in page
    assert "Only the first" not in english.get(path, {"q": "队友01"}).content.decode()

    empty = tournament_create(name="尚未抽签", rule_profile="timed-40")
    page = english.get(reverse("standings:find", args=[empty.pk]), {"q": "王"}).content.decode()
    assert "The draw of the first round is not published yet." in page
    assert "The draw of the first round" not in english.get(reverse("standings:find", args=[empty.pk])).content.decode()


def test_the_public_pages_stay_up_when_the_cache_is_down(monkeypatch):
    from django.core.cache import cache

    event = swiss_event()

    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    for name in ("get", "get_many", "add", "set", "set_many", "delete", "incr"):
        monkeypatch.setattr(cache, name, down)
    visitor = Client()
    page = visitor.get(reverse("standings:find", args=[event.tournament.pk]), {"q": "张三甲"})
    assert page.status_code == 200 and "张三甲" in page.content.decode()
    assert visitor.get(reverse("standings:draw", args=[event.tournament.pk])).status_code == 200
