"""A stage's team total (docs/rules.md §11): one selector over the stage's one ranking, read by the
organiser's stage page and the public team standings (phone and big screen)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.teams import Team, members_of_standings, team_total_rank
from tests.factories import MatchFactory, PairFactory, RoundFactory, StageFactory, TournamentFactory, organiser
from tests.tournament.test_standings_selectors import enter
from tournament.draw.stages import stage_teams_set
from tournament.matches.models import RoundStatus
from tournament.registration.teams import team_create, team_member_add
from tournament.rules import rules_for_stage
from tournament.standings.selectors import stage_ranking_get
from tournament.standings.teams import stage_team_total_get

pytestmark = pytest.mark.django_db

WIN = ("NS", "NS", "NS", "NES")  # timed-40: N/S passes A, 2 match points, 13 small points


def _event():
    """Round 1: A1 beats B1, A2 beats B2, B3 beats A3 (each by passing A)."""
    event = TournamentFactory()
    stage = StageFactory(tournament=event)
    round_ = RoundFactory(stage=stage, number=1, status=RoundStatus.PUBLISHED)
    a1, b1, a2, b2, b3, a3 = (PairFactory(tournament=event) for _ in range(6))
    for ns, ew in ((a1, b1), (a2, b2), (b3, a3)):
        enter(MatchFactory(round=round_, ns_pair=ns, ew_pair=ew), *WIN)
    team_a = team_create(tournament=event, name="销售部", pairs=[a1, a2, a3])
    team_b = team_create(tournament=event, name="研发部", pairs=[b1, b2, b3])
    return event, stage, team_a, team_b


def test_no_team_total_unless_the_stage_ranks_teams():
    _, stage, _a, _b = _event()
    assert stage_team_total_get(stage=stage) is None


def test_every_member_counts_and_the_answer_is_the_rules_cores_from_the_one_ranking():
    _, stage, team_a, team_b = _event()
    stage_teams_set(stage=stage, team_total=True)
    total = stage_team_total_get(stage=stage)
    assert [(line.name, line.rank, line.points, line.counted) for line in total.lines] == [
        ("销售部", 1, 4, 3),
        ("研发部", 2, 2, 3),
    ]
    assert total.lines[0].small_points == 13 + 13 - 13
    # the same as the rules core asked directly with the stage's ranking
    standings = stage_ranking_get(stage=stage)
    direct = team_total_rank(
        teams=[Team(name=str(t.pk), members=tuple(str(m.pair_id) for m in t.members.all())) for t in (team_a, team_b)],
        members=members_of_standings(standings.standings, options=rules_for_stage(stage)),
    )
    assert [(line.team_id, line.rank, line.points, line.small_points, line.counted) for line in total.lines] == [
        (int(row.team), row.rank, row.points, row.small_points, len(row.counted)) for row in direct.rows
    ]


def test_best_k_ties_on_points_and_small_points_and_shares_the_best_place():
    _, stage, _a, _b = _event()
    stage_teams_set(stage=stage, team_total=True, team_count=1)
    total = stage_team_total_get(stage=stage)
    # each team's best member won (2 points, 13 small points) and the three winners share place 1
    assert [(line.rank, line.shared, line.points, line.best_place) for line in total.lines] == [
        (1, True, 2, 1),
        (1, True, 2, 1),
    ]


def test_a_team_still_being_made_is_named_not_ranked():
    event, stage, _a, _b = _event()
    stage_teams_set(stage=stage, team_total=True)
    lone = team_create(tournament=event, name="财务部")
    team_member_add(team=lone, pair=PairFactory(tournament=event))
    total = stage_team_total_get(stage=stage)
    assert total.unranked == ("财务部",) and len(total.lines) == 2


def test_the_public_team_standings_on_a_phone_and_the_big_screen(client):
    event, stage, _a, _b = _event()
    url = reverse("standings:stage_team_standings", args=[event.pk, stage.pk])
    assert client.get(url).status_code == 404  # the stage does not rank teams
    stage_teams_set(stage=stage, team_total=True)
    page = client.get(url).content.decode()
    assert page.index("销售部") < page.index("研发部")
    assert client.get(reverse("standings:team_standings", args=[event.pk])).url == url
    assert "销售部" in client.get(url, {"screen": "1"}).content.decode()
    screen = client.get(reverse("standings:screen", args=[event.pk])).content.decode()
    assert "研发部" in screen


def test_the_public_team_standings_come_in_pages_as_the_pairs_do(client, monkeypatch):
    """A city's thousand teams are not one phone page: pages of the pairs' size (here 1), the big
    screen's pages keeping the big screen."""
    monkeypatch.setattr("tournament.standings.views.STANDINGS_PAGE_SIZE", 1)
    event, stage, _a, _b = _event()
    stage_teams_set(stage=stage, team_total=True)
    url = reverse("standings:stage_team_standings", args=[event.pk, stage.pk])
    first, second = (client.get(url, {"page": n}).content.decode() for n in (1, 2))
    assert "销售部" in first and "研发部" not in first and 'rel="next"' in first
    assert "研发部" in second and "销售部" not in second and 'rel="prev"' in second
    screen = client.get(url, {"screen": "1"}).content.decode()
    assert "?screen=1&amp;page=2" in screen and "研发部" not in screen


def test_a_team_change_reaches_the_public_page_at_once(client):
    event, stage, _a, _b = _event()
    stage_teams_set(stage=stage, team_total=True)
    url = reverse("standings:stage_team_standings", args=[event.pk, stage.pk])
    client.get(url)
    team_create(tournament=event, name="新队", pairs=[PairFactory(tournament=event) for _ in range(2)])
    assert "新队" in client.get(url).content.decode()


def test_the_organiser_sets_the_team_total_on_the_stage_page(client):
    event, stage, _a, _b = _event()
    boss = organiser(username="boss")
    event.organisers.add(boss)
    client.force_login(boss)
    client.post(reverse("draw:stage_teams", args=[event.pk, stage.pk]), {"team_total": "1", "team_count": "2"})
    stage.refresh_from_db()
    assert stage.settings.team_total and stage.settings.team_count == 2
    page = client.get(reverse("draw:stage", args=[event.pk, stage.pk])).content.decode()
    assert "销售部" in page
    response = client.post(
        reverse("draw:stage_teams", args=[event.pk, stage.pk]), {"team_total": "1", "team_count": "0"}, follow=True
    )
    stage.refresh_from_db()
    assert stage.settings.team_count == 2 and response.status_code == 200


def test_the_public_api_gives_the_same_team_standings_and_documents_them(client):
    event, stage, _a, _b = _event()
    url = f"/api/public/tournaments/{event.pk}/stages/{stage.pk}/teams/"
    assert client.get(url).status_code == 404  # the stage does not rank teams
    stage_teams_set(stage=stage, team_total=True, team_count=2)
    body = client.get(url).json()
    rows = body["results"]
    assert [(row["name"], row["rank"], row["points"], row["counted"]) for row in rows] == [
        ("销售部", 1, 4, 2),
        ("研发部", 2, 2, 2),
    ]
    assert sum(member["counted"] for member in rows[0]["members"]) == 2
    schema = client.get("/api/schema/").content.decode()
    assert "/stages/{stage_id}/teams/" in schema and "TeamStandingOut" in schema


def test_the_workbook_has_the_team_standings_sheet_read_back_with_openpyxl():
    from tests.tournament.exports.conftest import build, read_book

    event, stage, _a, _b = _event()
    assert not any("团体" in title for title in read_book(build(tournament=event)))
    stage_teams_set(stage=stage, team_total=True, team_count=2)
    book = read_book(build(tournament=event))
    rows = book[f"{stage.name}团体排名"]
    assert rows[0][:6] == ("名次", "并列", "队号", "团体", "场分", "小分")  # the team standings page's words
    total = stage_team_total_get(stage=stage)
    assert [row[:6] for row in rows[1:]] == [
        (line.rank, "否", line.number, line.name, line.points, line.small_points) for line in total.lines
    ]
    assert rows[1][8] == 2 and rows[1][11].count("#") == 2
    english = read_book(build(tournament=event, language="en"))
    assert english[f"{stage.name} teams"][0][3:6] == ("Team", "Match points", "Small points")
