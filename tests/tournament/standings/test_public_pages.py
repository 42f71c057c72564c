"""The public pages: no login, what players see, scoped to the tournament, live by polling."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import strip_tags

from tests.tournament.standings.events import play_out, swiss_event
from tournament.draw.services import round_draw
from tournament.matches.clock import round_start
from tournament.matches.models import Match, MatchStatus
from tournament.matches.services import deal_record
from tournament.registration.models import Player
from tournament.standings.cache import own_key, own_versions_get
from tournament.standings.public import tournament_overview_get
from tournament.standings.seating import table_find

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return swiss_event()


def url(name, *args):
    return reverse(f"standings:{name}", args=args)


def test_tournament_home_shows_the_current_round_its_time_left_and_links(client, event):
    round_start(round_id=event.second.pk)
    page = client.get(reverse("standings:tournament", args=[event.tournament.pk])).content.decode()
    assert "预赛 · Round 2" in page
    assert "data-countdown=" in page  # the time left ticks in the browser
    for name in ("find", "draw", "screen"):
        assert url(name, event.tournament.pk) in page
    assert url("stage_standings", event.tournament.pk, event.first.stage_id) in page


def test_the_draw_lists_each_table_with_both_pairs_and_the_area(client, event):
    table = event.second.matches.exclude(table=None).select_related("table").first().table
    table.area = "A区"
    table.save()
    page = strip_tags(client.get(url("draw", event.tournament.pk)).content.decode())  # names are spans
    assert "Round 2" in page
    for match in event.second.matches.select_related("ns_pair", "ew_pair"):
        assert match.ns_pair.name in page and match.ew_pair.name in page
    assert "A区" in page
    # earlier rounds are one tap away; their results show
    page = client.get(url("draw_round", event.tournament.pk, event.first.pk)).content.decode()
    assert 'class="winner"' in page


def test_a_draft_round_is_not_public(client, event):
    for match in event.second.matches.exclude(ew_pair=None):
        play_out(match)
    draft = round_draw(stage=event.second.stage, seed=9)
    assert client.get(url("draw_round", event.tournament.pk, draft.pk)).status_code == 404
    draft_match = draft.matches.first()
    assert client.get(url("match", event.tournament.pk, draft_match.pk)).status_code == 404
    assert client.get(url("draw", event.tournament.pk)).context["overview"].current_round.id == event.second.pk


def test_find_my_table_by_part_of_a_name_or_a_whole_employee_number(client, event):
    player = Player.objects.get(tournament=event.tournament, employee_number="20005")  # 张三甲
    match = Match.objects.get(round=event.second, entries__pair=player.membership.pair)
    side = match.entries.get(pair=player.membership.pair).side
    seat = {"NS": "N/S", "EW": "E/W"}[side]
    for query in ("三甲", "20005", " 张三 "):
        page = client.get(url("find", event.tournament.pk), {"q": query}).content.decode()
        assert "张三甲" in page
        assert re.search(rf"Table {match.table.number}</span>\s*<span class=\"pub-big\">{seat}", page), query
    # a part of an employee number finds nobody (no listing the roster by number)
    assert "张三甲" not in client.get(url("find", event.tournament.pk), {"q": "2000"}).content.decode()
    # only the current round's seat, never an earlier one
    assert client.get(url("find", event.tournament.pk), {"q": "20005"}).content.decode().count("Table ") == 1


def test_find_my_table_is_one_query(event):
    rounds = tournament_overview_get(tournament_id=event.tournament.pk).current_rounds
    with CaptureQueriesContext(connection) as queries:
        found = table_find(tournament_id=event.tournament.pk, rounds=rounds, query="队友")
    assert len(queries) == 1
    assert len(found) == 8 * 2 // 2 and {seat.round_id for seat in found} == {event.second.pk}


def test_find_answers_from_the_cache_without_touching_the_database(client, event):
    client.get(url("find", event.tournament.pk), {"q": "王"})
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url("find", event.tournament.pk), {"q": "王"})
    assert response.status_code == 200 and "王一甲" in response.content.decode()
    assert len(queries) == 0


def test_find_fragment_for_htmx_and_a_friendly_answer_for_nobody(client, event):
    response = client.get(url("find", event.tournament.pk), {"q": "无此人"}, headers={"HX-Request": "true"})
    body = response.content.decode()
    assert "<html" not in body and "Nobody registered in this event matches" in body


def test_standings_show_every_tie_break_column_and_the_movement(client, event):
    for index, match in enumerate(event.second.matches.exclude(ew_pair=None).order_by("table__number")):
        play_out(match, winner="EW" if index % 2 == 0 else "NS")
    response = client.get(url("standings", event.tournament.pk), follow=True)
    page = response.content.decode()
    for title in ("Match points", "Small points", "Levels reached", "Head-to-head", "Opponents&#x27; match points"):
        assert title in page
    assert "Results up to round 2" in page
    assert 'class="move up"' in page and 'class="move down"' in page
    page = Client().get(response.redirect_chain[-1][0]).content.decode()  # no choice made: Chinese
    assert "场分" in page and "小分" in page and "对手分" in page


def test_the_pair_page_has_its_matches_and_each_deal(client, event):
    match = event.first.matches.exclude(ew_pair=None).select_related("ns_pair").first()
    page = client.get(url("pair", event.tournament.pk, match.ns_pair_id)).content.decode()
    assert match.ns_pair.name in page
    assert "炼钢厂" in page or "财务部" in page
    assert "20001" not in page  # employee numbers stay private
    assert page.count('class="deal"') >= match.deals.count()
    assert url("match", event.tournament.pk, match.pk) in page


def test_the_match_page_shows_live_levels_and_polls_its_own_url(client, event):
    match = event.second.matches.exclude(ew_pair=None).first()
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    response = client.get(url("match", event.tournament.pk, match.pk))
    page = response.content.decode()
    assert 'data-deal="1"' in page and 'data-side="NS">7<' in page  # +5 a 1-2 (seed 002)
    key = own_key(tournament_id=event.tournament.pk, kind="match", pk=match.pk)
    versions = own_versions_get(tournament_id=event.tournament.pk, keys=[key])
    version = f"c{versions['common']}.m{versions[key]}"
    assert f'hx-get="{url("match", event.tournament.pk, match.pk)}?v={version}"' in page
    assert 'hx-trigger="every 5s"' in page
    # a poll while nothing changed: 204, htmx keeps the page
    polled = client.get(url("match", event.tournament.pk, match.pk), {"v": version}, headers={"HX-Request": "true"})
    assert polled.status_code == 204
    deal_record(match_id=match.pk, outcome={"order": ["E", "W"]})
    polled = client.get(url("match", event.tournament.pk, match.pk), {"v": version}, headers={"HX-Request": "true"})
    assert polled.status_code == 200 and 'data-deal="2"' in polled.content.decode()


def test_the_big_screen_has_slides_for_the_round_and_the_standings(client, event):
    page = client.get(url("screen", event.tournament.pk), {"interval": 3, "rows": 4}).content.decode()
    assert 'data-interval="3"' in page
    assert page.count('class="slide"') >= 3  # the round's tables in pages of 4, then the standings
    assert "Standings" in page


def test_pages_are_scoped_to_their_tournament(client, event):
    other = swiss_event(pairs=4, name="另一场")
    match = other.first.matches.first()
    assert client.get(url("match", event.tournament.pk, match.pk)).status_code == 404
    assert client.get(url("pair", event.tournament.pk, other.pairs[0].pk)).status_code == 404
    assert client.get(url("stage_standings", event.tournament.pk, other.first.stage_id)).status_code == 404
    assert client.get(url("draw_round", event.tournament.pk, other.first.pk)).status_code == 404
    assert client.get(url("draw", 999_999)).status_code == 404


def test_pages_are_chinese_first_and_labelled(client, event):
    page = Client().get(url("find", event.tournament.pk)).content.decode()
    assert '<html lang="zh-hans">' in page
    assert '<label for="find-q">' in page and 'role="search"' in page
    page = client.get(url("draw", event.tournament.pk)).content.decode()
    assert '<th scope="col">' in page and 'aria-current="page"' in page


def test_a_bye_shows_on_the_draw(client):
    event = swiss_event(pairs=5)
    bye = event.second.matches.get(ew_pair=None)
    assert bye.status == MatchStatus.FINISHED
    page = strip_tags(client.get(url("draw", event.tournament.pk)).content.decode())  # names are spans
    assert "Bye" in page and bye.ns_pair.name in page


def test_find_treats_wildcards_as_text(event):
    rounds = tournament_overview_get(tournament_id=event.tournament.pk).current_rounds
    for query in ("%", "_", "\\", "%%"):
        assert table_find(tournament_id=event.tournament.pk, rounds=rounds, query=query) == ()
    assert len(table_find(tournament_id=event.tournament.pk, rounds=rounds, query="甲")) == 8


def test_a_round_robin_in_groups_is_ranked_group_by_group(client):
    from tests.tournament.standings.events import pairs_register
    from tournament.draw.services import round_draw, round_publish
    from tournament.draw.stages import stage_create
    from tournament.registration.services import tournament_create
    from tournament.standings.public import standings_get

    tournament = tournament_create(name="分组循环赛", rule_profile="timed-40")
    pairs_register(tournament, 8)
    stage = stage_create(tournament=tournament, name="小组赛", format="round_robin", options={"groups": 2})
    first = round_publish(round_=round_draw(stage=stage, seed=5))
    for match in first.matches.exclude(ew_pair=None):
        play_out(match)
    table = standings_get(tournament_id=tournament.pk, stage_id=stage.pk)
    assert table.grouped and [line.group for line in table.lines] == [1] * 4 + [2] * 4
    assert next(line.rank for line in table.lines if line.group == 2) == 1
    page = client.get(url("stage_standings", tournament.pk, stage.pk)).content.decode()
    assert "Group 1" in page and "Group 2" in page


def test_the_overview_counts_the_current_rounds_tables_by_state(event):
    matches = list(event.second.matches.exclude(ew_pair=None).order_by("table__number"))
    play_out(matches[0])
    deal_record(match_id=matches[1].pk, outcome={"order": ["N", "S"]})
    progress = tournament_overview_get(tournament_id=event.tournament.pk).progress
    assert (progress.tables, progress.finished, progress.running) == (len(matches), 1, 1)


def test_the_rules_heading_is_in_the_visitors_language_whoever_built_the_cached_overview(event):
    """The overview is built once and cached for every visitor: a Chinese visitor building it first
    must not leave its rules heading in Chinese for an English one (nor the other way round)."""
    from django.conf import settings

    home = reverse("standings:tournament", args=[event.tournament.pk])
    chinese = strip_tags(Client().get(home).content.decode())
    english_client = Client()
    english_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = strip_tags(english_client.get(home).content.decode())
    assert "40分钟限时" in chinese and "40-minute" not in chinese
    assert "40-minute" in english and "40分钟限时" not in english
