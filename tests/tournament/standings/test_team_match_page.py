"""The public page of one team match (团体对抗, docs/rules.md §11): both tables live, the result from the
one selector, linked from the public draw's team match heading and from find my table; its poll moves
with a deal at either of its tables and holds (204) through a deal at any other table."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournament.draw.test_team_match_draw import NS_WINS, _event, _play
from tests.tournament.standings.test_pair_versions import poll, poll_url
from tests.tournament.standings.test_team_match_public import _played
from tournament.draw.services import round_draw, round_publish
from tournament.matches.models import TeamMatch
from tournament.matches.services import deal_record
from tournament.standings.team_matches import stage_team_matches_get

pytestmark = pytest.mark.django_db


def _url(event, row) -> str:
    return reverse("standings:team_match", args=(event.pk, row.pk))


def _published():
    """Four teams, round 1 published, nothing played yet."""
    event, stage, _teams = _event()
    round_ = round_draw(stage=stage, seed=7)
    round_publish(round_=round_)
    rows = TeamMatch.objects.filter(round=round_).order_by("number").select_related("team_x", "team_y")
    return event, stage, round_, list(rows)


def test_the_page_shows_both_tables_and_the_selectors_result_in_both_languages(client):
    event, stage, _round, first, second = _played()
    client.cookies["django_language"] = "en"
    page = client.get(_url(event, second)).content.decode()
    assert f"Team match 2: {second.team_x.name} v {second.team_y.name}" in page
    a, b = page.index('id="table-a"'), page.index('id="table-b"')
    assert a < b
    assert f'data-match="{second.table_a_id}"' in page[a:b] and f'data-match="{second.table_b_id}"' in page[b:]
    line = next(line for line in stage_team_matches_get(stage=stage).matches if line.id == second.pk)
    assert line.result.tables_won == (2, 0)
    assert "Tables won 2–0" in page and f"{second.team_x.name} wins" in page
    assert reverse("standings:match", args=(event.pk, second.table_b_id)) in page
    assert "Drawn" in client.get(_url(event, first)).content.decode()
    client.cookies["django_language"] = "zh-hans"
    page = client.get(_url(event, second)).content.decode()
    assert f"第 2 场团体对抗：{second.team_x.name} 对 {second.team_y.name}" in page
    assert "a 桌" in page and "b 桌" in page and f"{second.team_x.name} 胜" in page


def test_the_draw_heading_and_find_my_table_link_the_team_match_page(client):
    event, _stage, round_, first, _second = _played()
    client.cookies["django_language"] = "en"
    draw = client.get(reverse("standings:draw_round", args=[event.pk, round_.pk])).content.decode()
    header = draw.index(f'id="team-match-{first.pk}"')
    assert f'href="{_url(event, first)}"' in draw[header : draw.index(f'id="match-{first.table_a_id}"')]
    player = first.table_b.ew_pair.members.select_related("player").first().player
    found = client.get(reverse("standings:find", args=[event.pk]), {"q": player.name}).content.decode()
    assert f'href="{_url(event, first)}"' in found


def test_a_deal_at_either_table_moves_the_page_and_a_deal_elsewhere_leaves_its_poll_alone(client):
    event, _stage, _round, (first, second) = _published()
    url = _url(event, first)
    polled = poll_url(client.get(url).content.decode(), url)
    assert poll(client, polled).status_code == 204
    deal_record(match_id=second.table_a_id, outcome={"order": ["N", "S"]})
    assert poll(client, polled).status_code == 204  # another team match's table
    deal_record(match_id=first.table_a_id, outcome={"order": ["N", "S"]})
    answer = poll(client, polled)
    assert answer.status_code == 200 and 'data-side="NS"' in answer.content.decode()
    polled = poll_url(answer.content.decode(), url)
    _play(first.table_b, NS_WINS)  # table b finishes: the result counts it
    answer = poll(client, polled)
    assert answer.status_code == 200
    client.cookies["django_language"] = "en"
    assert "Tables won 0–1" in client.get(url).content.decode()  # table b: Y at N/S won


def test_a_team_match_not_public_is_not_found(client):
    event, stage, _teams = _event()
    round_ = round_draw(stage=stage, seed=7)  # drawn, not published
    row = TeamMatch.objects.filter(round=round_).first()
    assert client.get(_url(event, row)).status_code == 404
    assert client.get(reverse("standings:team_match", args=(event.pk, 999_999))).status_code == 404
    round_publish(round_=round_)
    assert client.get(_url(event, row)).status_code == 200
    other, _stage, _round, _rows = _published()
    assert client.get(reverse("standings:team_match", args=(other.pk, row.pk))).status_code == 404


@pytest.mark.parametrize(
    ("language", "named"),
    [
        ("zh-hans", "第 1 场团体对抗：{x} 对 {y} · b 桌"),
        ("en", "Team match 1: {x} v {y} · table b"),
    ],
)
def test_a_tables_own_pages_name_its_team_match_the_players_and_the_referees(client, language, named):
    from tests.factories import organiser
    from tournament.matches.table_links import table_tokens

    event, _stage, round_, rows = _published()
    row = rows[0]
    words = named.format(x=row.team_x.name, y=row.team_y.name)
    client.cookies["django_language"] = language
    token = table_tokens(round_=round_)[row.table_b.table_id]
    player = client.get(reverse("matches:table", args=[token])).content.decode()
    assert words in player and f'href="{_url(event, row)}"' in player
    organisers = reverse("draw:round_team_matches", args=[event.pk, round_.pk])
    assert organisers not in player  # the organiser's page
    boss = organiser(username="boss")
    event.organisers.add(boss)
    client.force_login(boss)
    referee = client.get(reverse("matches:match", args=[row.table_b_id])).content.decode()
    assert words in referee and f"{organisers}#team-match-{row.pk}" in referee


def test_a_table_of_pairs_names_no_team_match(client):
    from tests.factories import MatchFactory
    from tournament.matches.selectors import match_team_match

    match = MatchFactory()
    assert match_team_match(match=match) is None
