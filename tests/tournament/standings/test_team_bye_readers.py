"""A bye team match (docs/rules.md §11: two tables of the bye result, §5's ``bye_result`` with
``bye_margin``; in a knockout the team simply goes through) read the same on every reader: the team
standings (organiser's stage page, public team standings, API), the public draw, the workbook, the
team prizes and the pairs' standings of the two pairs the team sent."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PairFactory, TournamentFactory
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.exports.prizes import TierData, team_prize_tiers_set, team_prizes_award
from tournament.matches.models import Round, TeamLineUp, TeamMatch
from tournament.matches.services import deal_record
from tournament.matches.team_matches import team_match_sign_off
from tournament.registration.teams import team_create
from tournament.standings.public import bracket_get, standings_get
from tournament.standings.team_ranking import team_match_table_get

pytestmark = pytest.mark.django_db

NS_WINS = (("N", "S"), ("N", "S"), ("N", "S"), ("N", "E", "S"))  # N/S passes A
EW_WINS = (("E", "W"), ("E", "W"), ("E", "W"), ("E", "N", "W"))


def _play(match, orders):
    for order in orders:
        deal_record(match_id=match.pk, outcome={"order": list(order)})


def _event(format: str, rules: dict, teams: int = 3):
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(2 * teams)]
    for n in range(teams):
        team_create(tournament=event, name=f"部门{n + 1}", pairs=pairs[2 * n : 2 * n + 2])
    stage = stage_create(
        tournament=event, name="团体赛", format=format, options={"team_match": True}, rule_overrides=rules
    )
    return event, stage


@pytest.mark.parametrize(
    ("result", "margin", "points", "tables", "small"),
    [("win", 3, 2, 2, 6), ("draw", 3, 1, 0, 0), ("loss", 2, 0, 0, -4)],
)
def test_a_bye_in_a_team_swiss_counts_as_two_tables_of_the_bye_result_on_every_reader(
    client, result, margin, points, tables, small
):
    from tests.tournament.exports.conftest import build, read_book

    event, stage = _event("swiss", {"bye_result": result, "bye_margin": margin})
    round_ = round_publish(round_=round_draw(stage=stage, seed=4))
    bye = TeamMatch.objects.select_related("team_x").get(round=round_, team_y__isnull=True)
    played = TeamMatch.objects.get(round=round_, team_y__isnull=False)
    _play(played.table_a, NS_WINS)
    _play(played.table_b, EW_WINS)
    team_match_sign_off(team_match=played)
    name = bye.team_x.name

    line = team_match_table_get(stage=stage).line_of(bye.team_x_id)  # the organiser's stage page reads it
    assert (line.played, line.byes, line.match_points, line.tables_won, line.small_points) == (
        0,
        1,
        points,
        tables,
        small,
    )
    (row,) = [
        row
        for row in client.get(f"/api/public/tournaments/{event.pk}/stages/{stage.pk}/team-matches/").json()["results"]
        if row["team_id"] == bye.team_x_id
    ]
    assert (row["byes"], row["match_points"], row["tables_won"], row["small_points"]) == (1, points, tables, small)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("standings:stage_team_standings", args=[event.pk, stage.pk])).content.decode()
    assert name in page
    # the bye is said in words (a bare "+1" beside won-drawn-lost read as one more team match won)
    assert "(1 bye)" in page and "+1" not in page
    # the public draw heads the bye with its team, and lists the team's two pairs, each named with its team
    line_up = TeamLineUp.objects.select_related("first", "second").get(round=round_, team=bye.team_x)
    draw = client.get(reverse("standings:draw_round", args=[event.pk, round_.pk])).content.decode()
    heading = draw[draw.index(f'id="team-match-{bye.pk}"') :]
    heading = heading[: heading.index("</tr>")]
    assert name in heading and '<span class="badge">Bye</span>' in heading and "Tables won" not in heading
    for pair in (line_up.first, line_up.second):
        start = draw.rindex("<tr", 0, draw.index(f"#{pair.number}</span>"))
        row = draw[start : draw.index("</tr>", start)]
        assert '<span class="muted">Bye</span>' in row and f'<span class="small team-name">{name}</span>' in row
        assert "table a" not in row and "table b" not in row

    book = read_book(build(tournament=event, language="en"))
    (sheet_row,) = [r for r in book[f"{stage.name} team matches"][1:] if r[2] == name]
    assert sheet_row[3] == "Bye" and (sheet_row[6], sheet_row[7], sheet_row[8], sheet_row[9]) == (
        tables,
        None,
        small,
        None,
    )
    (standing,) = [r for r in book[f"{stage.name} team standings"][1:] if r[2] == name]
    assert (standing[7], standing[8], standing[9], standing[10]) == (1, points, tables, small)

    team_prize_tiers_set(tournament=event, tiers=[TierData("团体奖", 3)])
    awarded = {a.line.name: (a.line.rank, a.line.points) for a in team_prizes_award(tournament=event).awards}
    assert awarded[name] == (line.rank, points)

    # the team's two pairs (its line-up) each have a bye of the same result in the pairs' standings
    lines = {line.pair_id: line for line in standings_get(tournament_id=event.pk, stage_id=stage.pk).lines}
    for pair_id in (line_up.first_id, line_up.second_id):
        assert (lines[pair_id].played, lines[pair_id].byes) == (0, 1)


def test_a_bye_in_a_knockout_of_teams_goes_through_whatever_the_bye_result(client, django_capture_on_commit_callbacks):
    event, stage = _event("knockout", {"bye_result": "loss", "bye_margin": 2})
    first = round_publish(round_=round_draw(stage=stage, seed=2))
    bye = TeamMatch.objects.select_related("team_x").get(round=first, team_y__isnull=True)
    played = TeamMatch.objects.get(round=first, team_y__isnull=False)
    line = team_match_table_get(stage=stage).line_of(bye.team_x_id)
    assert (line.byes, line.tables_won) == (1, 2)  # in a knockout a bye is won, whatever bye_result says
    with django_capture_on_commit_callbacks(execute=True):
        _play(played.table_a, NS_WINS)
        _play(played.table_b, EW_WINS)
        team_match_sign_off(team_match=played)
    final = TeamMatch.objects.get(round=Round.objects.get(stage=stage, number=2))
    assert {final.team_x_id, final.team_y_id} == {bye.team_x_id, played.team_x_id}
    bracket = bracket_get(tournament_id=event.pk, stage_id=stage.pk)
    (box,) = [box for box in bracket.rounds[0].matches if box.is_bye]
    assert box.ns.name == bye.team_x.name and box.winner == "NS" and box.confirmed
    client.cookies["django_language"] = "en"
    page = client.get(reverse("standings:stage_bracket", args=[event.pk, stage.pk])).content.decode()
    assert bye.team_x.name in page
