"""The reading side of team matches (团体对抗, docs/rules.md §11): the organiser's round and stage
pages, the public draw (team against team, both tables), the public team standings (phone, big
screen, its slides), find my table inside a team match, the public API, the workbook and the team
prizes — every one the answer of the one selector (``stage_team_matches_get``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import organiser
from tests.tournament.draw.test_team_match_draw import EW_WINS, NS_WINS, _event, _play
from tournament.draw.services import round_draw, round_publish
from tournament.exports.prizes import TierData, team_prize_stage, team_prize_tiers_set, team_prizes_award
from tournament.matches.models import TeamMatch
from tournament.standings.team_matches import stage_team_matches_get
from tournament.standings.team_ranking import stage_team_ranking_get, team_match_table_get

pytestmark = pytest.mark.django_db


def _played():
    """Four teams, round 1 published: team match 1 drawn one table each, team match 2 won 2–0 by X."""
    event, stage, _teams = _event()
    round_ = round_draw(stage=stage, seed=7)
    round_publish(round_=round_)
    first, second = (
        TeamMatch.objects.filter(round=round_)
        .order_by("number")
        .select_related("team_x", "team_y", "table_a__table", "table_b__table")
    )
    _play(first.table_a, NS_WINS)
    _play(first.table_b, NS_WINS)
    _play(second.table_a, NS_WINS)
    _play(second.table_b, EW_WINS)
    return event, stage, round_, first, second


def _english(client):
    client.cookies["django_language"] = "en"


def test_the_team_ranking_is_the_one_selectors_and_none_without_teams():
    _, stage, _round, _first, second = _played()
    played = stage_team_matches_get(stage=stage)
    table = team_match_table_get(stage=stage)
    assert [(line.team_id, line.rank, line.match_points, line.tables_won) for line in table.lines] == [
        (int(row.team), row.rank, row.match_points, row.tables_won) for row in played.standings.rows
    ]
    assert table.lines[0].name == second.team_x.name and table.lines[0].match_points == 2
    ranking = stage_team_ranking_get(stage=stage)
    assert ranking.team_match and (ranking.lines[0].name, ranking.lines[0].points) == (second.team_x.name, 2)
    assert [r.winner for r in table.of_round(1)] == ["", second.team_x.name]


def test_the_organisers_round_page_links_the_team_matches_and_the_stage_page_ranks_the_teams(client):
    event, stage, round_, _first, second = _played()
    boss = organiser(username="boss")
    event.organisers.add(boss)
    client.force_login(boss)
    _english(client)
    page = client.get(reverse("draw:round", args=[event.pk, round_.pk])).content.decode()
    assert reverse("draw:round_team_matches", args=[event.pk, round_.pk]) in page
    page = client.get(reverse("draw:stage", args=[event.pk, stage.pk])).content.decode()
    assert "Team match standings" in page and "Rank teams beside this stage" not in page
    assert page.index(second.team_x.name) < page.index(second.team_y.name)
    client.cookies["django_language"] = "zh-hans"
    assert "团体对抗排名" in client.get(reverse("draw:stage", args=[event.pk, stage.pk])).content.decode()


def test_the_public_draw_shows_team_against_team_with_both_tables(client):
    event, _stage, round_, first, second = _played()
    _english(client)
    page = client.get(reverse("standings:draw_round", args=[event.pk, round_.pk])).content.decode()
    for row in (first, second):
        header = page.index(f'id="team-match-{row.pk}"')
        a, b = page.index(f'id="match-{row.table_a_id}"'), page.index(f'id="match-{row.table_b_id}"')
        assert header < a < b
        assert row.team_x.name in page[header:a] and row.team_y.name in page[header:a]
    assert "table a" in page and "table b" in page
    assert f"{second.team_x.name} wins" in page and "Drawn" in page
    client.cookies["django_language"] = "zh-hans"
    page = client.get(reverse("standings:draw_round", args=[event.pk, round_.pk])).content.decode()
    assert "团体对抗 1" in page and "a 桌" in page and "b 桌" in page


def test_the_public_team_standings_of_a_team_match_stage_phone_big_screen_and_slides(client):
    event, stage, _round, first, second = _played()
    url = reverse("standings:stage_team_standings", args=[event.pk, stage.pk])
    client.cookies["django_language"] = "zh-hans"
    assert client.get(reverse("standings:team_standings", args=[event.pk])).url == url
    page = client.get(url).content.decode()
    assert "团体场分" in page and page.index(second.team_x.name) < page.index(second.team_y.name)
    assert "team-match-results" in page  # each team match's result, under the standings
    big = client.get(url, {"screen": "1"}).content.decode()
    assert second.team_x.name in big and "team-match-results" not in big
    screen = client.get(reverse("standings:screen", args=[event.pk])).content.decode()
    assert "team-match-standings" in screen and first.team_x.name in screen
    _english(client)
    assert "Team match points" in client.get(url).content.decode()


def test_find_my_table_names_the_team_match_and_the_pairs_table(client):
    event, _stage, _round, first, _second = _played()
    pair = first.table_b.ew_pair  # team X's pair 2 sits E/W at table b
    player = pair.members.select_related("player").first().player
    _english(client)
    page = client.get(reverse("standings:find", args=[event.pk]), {"q": player.name}).content.decode()
    assert f"Team match 1: {first.team_x.name} v {first.team_y.name} · table b" in page
    assert f"Table {first.table_b.table.number}" in page
    client.cookies["django_language"] = "zh-hans"
    page = client.get(reverse("standings:find", args=[event.pk]), {"q": player.name}).content.decode()
    assert f"第 1 场团体对抗：{first.team_x.name} 对 {first.team_y.name} · b 桌" in page


def test_the_public_api_gives_the_team_match_standings(client):
    event, stage, _round, _first, second = _played()
    url = f"/api/public/tournaments/{event.pk}/stages/{stage.pk}/team-matches/"
    rows = client.get(url).json()["results"]
    table = team_match_table_get(stage=stage)
    assert [(r["name"], r["rank"], r["match_points"], r["tables_won"], r["small_points"]) for r in rows] == [
        (line.name, line.rank, line.match_points, line.tables_won, line.small_points) for line in table.lines
    ]
    assert rows[0]["name"] == second.team_x.name
    assert client.get(f"/api/public/tournaments/{event.pk}/stages/{stage.pk}/teams/").status_code == 404
    assert "TeamMatchStandingOut" in client.get("/api/schema/").content.decode()


def test_the_workbook_has_the_team_match_standings_and_results_read_back_with_openpyxl():
    from tests.tournament.exports.conftest import build, read_book

    event, stage, _round, first, second = _played()
    book = read_book(build(tournament=event))
    rows = book[f"{stage.name}团体对抗排名"]
    assert rows[0][:3] == ("名次", "并列", "团体")
    assert (rows[0][8], rows[0][12]) == ("团体场分", "对手分")  # the words of the pages' team standings
    table = team_match_table_get(stage=stage)
    assert [(row[0], row[2], row[8], row[9], row[10]) for row in rows[1:]] == [
        (line.rank, line.name, line.match_points, line.tables_won, line.small_points) for line in table.lines
    ]
    results = book[f"{stage.name}团体对抗成绩"]
    assert results[1][:8] == (1, 1, first.team_x.name, first.team_y.name, first.table_a_id, first.table_b_id, 1, 1)
    assert results[1][11] is None and results[1][12] == "平局"  # one table each, 13:13 small points: drawn
    assert results[2][6:8] == (2, 0) and results[2][11] == second.team_x.name and results[2][12] == "胜桌数"
    english = read_book(build(tournament=event, language="en"))
    assert english[f"{stage.name} team matches"][0][2] == "Team X"
    # the draw sheet's note names each table's team match (the departments beside the pairs are not teams)
    x, y = first.team_x.name, first.team_y.name
    draw = {row[0]: row[-1] for row in english[f"{stage.name} R1 draw"][1:]}
    assert draw[first.table_a.table.number] == f"Team match 1 · table a: {x} v {y}"
    assert {row[0]: row[-1] for row in book[f"{stage.name}第1轮对阵"][1:]}[first.table_b.table.number] == (
        f"团体对抗 1 · b 桌：{x} 对 {y}"
    )
    assert english[f"{stage.name} team standings"][0][12] == "Opponents' team match points"


def test_team_prizes_follow_the_team_match_standings():
    event, stage, _round, _first, second = _played()
    team_prize_tiers_set(tournament=event, tiers=[TierData("冠军", 1)])
    assert team_prize_stage(tournament=event) == stage
    awards = team_prizes_award(tournament=event)
    assert awards.problem is None
    assert [(a.tier, a.line.rank, a.line.name, a.line.points) for a in awards.awards] == [
        ("冠军", 1, second.team_x.name, 2)
    ]


def test_the_big_screens_round_slide_names_each_tables_team_and_letter(client):
    event, _stage, _round, first, _second = _played()
    _english(client)
    page = client.get(reverse("standings:screen", args=[event.pk])).content.decode()
    slide = page[page.index('data-slide="1"') : page.index('data-slide="2"')]
    row = slide[slide.index(f"<th scope=\"row\">{first.table_a.table.number} ") :]
    row = row[: row.index("</tr>")]
    assert "table a" in row and first.team_x.name in row and first.team_y.name in row  # X N/S, Y E/W at table a
    assert row.index(first.team_x.name) < row.index(first.team_y.name)


def test_the_events_page_leads_to_the_team_standings(client):
    event, _stage, _round, _first, _second = _played()
    _english(client)
    page = client.get(reverse("standings:tournament", args=[event.pk])).content.decode()
    actions = page[page.index('<div class="actions">') :]
    actions = actions[: actions.index("</div>")]
    assert f'href="{reverse("standings:team_standings", args=[event.pk])}">Team standings</a>' in actions


def test_a_team_match_won_on_small_points_says_so(client):
    from tests.tournament.draw.test_team_match_draw import EW_WINS as EW

    event, stage, _teams = _event()
    round_ = round_draw(stage=stage, seed=7)
    round_publish(round_=round_)
    row = TeamMatch.objects.filter(round=round_).order_by("number").select_related("team_x").first()
    _play(row.table_a, NS_WINS)  # X wins table a by passing A against 2
    _play(row.table_b, (EW[0], *NS_WINS))  # Y (N/S at table b) passes A too, against a higher level: by less
    line = next(line for line in stage_team_matches_get(stage=stage).of_round(1) if line.id == row.pk)
    assert line.result.tables_won == (1, 1) and line.result.reason.value == "small_points"
    assert line.result.winner == str(row.team_x_id)
    _english(client)
    page = client.get(reverse("standings:stage_team_standings", args=[event.pk, stage.pk])).content.decode()
    assert f"{row.team_x.name} wins" in page and "(tables level: on small points)" in page
    # each table of the team match is a link named by its letter (a tap target, not a lone letter)
    for letter, table in (("a", row.table_a_id), ("b", row.table_b_id)):
        assert f'<a href="{reverse("standings:match", args=[event.pk, table])}">table {letter}</a>' in page
    # the public draw's line of the team match and the team match's own page say it too
    draw = client.get(reverse("standings:draw", args=[event.pk])).content.decode()
    assert f"{row.team_x.name} wins</span> (tables level: on small points)" in draw
    match_page = client.get(reverse("standings:team_match", args=[event.pk, row.pk])).content.decode()
    assert f'{row.team_x.name} wins</strong> <span class="muted small">(tables level: on small points)' in match_page
    # in Chinese the full-width bracket follows the words with no space of its own
    client.cookies["django_language"] = "zh-hans"
    aside = "（胜桌数相同，按小分）"
    page = client.get(reverse("standings:stage_team_standings", args=[event.pk, stage.pk])).content.decode()
    assert f'{row.team_x.name} 胜<span class="muted small">{aside}' in page
    draw = client.get(reverse("standings:draw", args=[event.pk])).content.decode()
    assert f"{row.team_x.name} 胜</span>{aside}" in draw
    match_page = client.get(reverse("standings:team_match", args=[event.pk, row.pk])).content.decode()
    assert f'{row.team_x.name} 胜</strong><span class="muted small">{aside}' in match_page


def test_the_referees_tables_name_their_team_match_and_letter(client):
    """A referee's card of a table in a team match names it as the table's page does (its teams and
    letter): the two tables of one team match were two unrelated cards."""
    from tests.factories import referee
    from tournament.matches.models import RefereeAssignment

    _, _stage, round_, first, _second = _played()
    ref = referee(first_name="王裁判")
    for table in (first.table_a.table, first.table_b.table):
        RefereeAssignment.objects.create(round=round_, table=table, referee=ref)
    client.force_login(ref)
    _english(client)
    page = client.get(reverse("matches:referee_home")).content.decode()
    x, y = first.team_x.name, first.team_y.name
    assert f"Team match 1: {x} v {y} · table a" in page and f"Team match 1: {x} v {y} · table b" in page


def test_the_table_cards_of_a_team_round_name_each_tables_team_match(client):
    _, _stage, round_, first, _second = _played()
    boss = organiser(username="boss")
    round_.stage.tournament.organisers.add(boss)
    client.force_login(boss)
    _english(client)
    page = client.get(reverse("matches:table_cards", args=[round_.stage.tournament_id, round_.pk])).content.decode()
    x, y = first.team_x.name, first.team_y.name
    assert f"Team match 1: {x} v {y} · table a" in page and f"Team match 1: {x} v {y} · table b" in page
