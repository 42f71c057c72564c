"""A knockout of teams (团体淘汰赛, docs/rules.md §11) read as the stage's bracket: the public bracket,
the final placings and the team prizes read the teams' bracket (team names, its champion), not a
bracket of the pairs at its tables."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PairFactory, TournamentFactory
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.draw.team_knockout import team_match_extra_deal_record
from tournament.exports.prizes import TierData, team_prize_tiers_set, team_prizes_award
from tournament.matches.models import Round, TeamMatch
from tournament.matches.services import deal_record
from tournament.matches.team_matches import team_match_sign_off
from tournament.registration.teams import team_create
from tournament.standings.public import bracket_get
from tournament.standings.selectors import stage_bracket_get

pytestmark = pytest.mark.django_db

NS_WINS = (("N", "S"), ("N", "S"), ("N", "S"), ("N", "E", "S"))  # N/S passes A
EW_WINS = (("E", "W"), ("E", "W"), ("E", "W"), ("E", "N", "W"))


def _play(match, orders):
    for order in orders:
        deal_record(match_id=match.pk, outcome={"order": list(order)})


def _x_wins(row):
    _play(row.table_a, NS_WINS)
    _play(row.table_b, EW_WINS)  # X sits E/W at table b
    team_match_sign_off(team_match=row)


def _event(on_commit, third_place: bool = True):
    event = TournamentFactory()
    teams = [
        team_create(tournament=event, name=f"部门{n + 1}", pairs=[PairFactory(tournament=event) for _ in range(2)])
        for n in range(4)
    ]
    stage = stage_create(
        tournament=event, name="团体淘汰", format="knockout", options={"team_match": True, "third_place": third_place}
    )
    first = round_publish(round_=round_draw(stage=stage, seed=5))
    with on_commit(execute=True):  # a signed-off team match moves the bracket on once committed
        for row in TeamMatch.objects.filter(round=first).order_by("bracket_slot"):
            _x_wins(row)
    return event, stage, {team.pk: team.name for team in teams}


def _finish(stage):
    final_round = Round.objects.get(stage=stage, number=2)
    round_publish(round_=final_round)
    final, third = TeamMatch.objects.filter(round=final_round).order_by("bracket_slot")
    _x_wins(third)
    _play(final.table_a, NS_WINS)  # one table each by the same margin: the final waits for its tie-break deal
    _play(final.table_b, NS_WINS)
    team_match_sign_off(team_match=final)
    return final, third


def test_the_stage_bracket_of_a_team_knockout_is_the_teams_bracket_with_its_placings(
    django_capture_on_commit_callbacks,
):
    _, stage, names = _event(django_capture_on_commit_callbacks)
    bracket = stage_bracket_get(stage=stage)
    assert bracket is not None and bracket.kind == "teams"
    assert {int(team) for team in bracket.state.still_in} <= set(names)  # teams, not the pairs at the tables
    assert not bracket.decided and bracket.champion == ""
    final, third = _finish(stage)
    assert not stage_bracket_get(stage=stage).decided  # the drawn final waits for its tie-break deal
    team_match_extra_deal_record(team_match=final, side="EW")  # Y1 (E/W at table a) wins it: team Y
    bracket = stage_bracket_get(stage=stage)
    assert bracket.decided and bracket.champion == names[final.team_y_id]
    places = [(row.rank, int(row.entrant)) for row in bracket.placings.rows]
    assert places == [(1, final.team_y_id), (2, final.team_x_id), (3, third.team_x_id), (4, third.team_y_id)]


def test_the_public_bracket_shows_team_matches_between_team_names_and_the_champion(
    client, django_capture_on_commit_callbacks
):
    event, stage, names = _event(django_capture_on_commit_callbacks)
    url = reverse("standings:stage_bracket", args=[event.pk, stage.pk])
    page = client.get(url).content.decode()
    for name in names.values():
        assert name in page
    bracket = bracket_get(tournament_id=event.pk, stage_id=stage.pk)
    assert bracket is not None and bracket.champion is None
    first = bracket.rounds[0]
    assert [box.ns.name for box in first.matches] == [
        names[row.team_x_id]
        for row in TeamMatch.objects.filter(round__number=1, round__stage=stage).order_by("bracket_slot")
    ]
    assert all(box.confirmed and box.winner == "NS" for box in first.matches)  # both tables signed off
    final_box = bracket.rounds[1].matches[0]
    assert final_box.is_placeholder and {final_box.ns.name, final_box.ew.name} <= set(names.values())

    final, third = _finish(stage)
    team_match_extra_deal_record(team_match=final, side="NS")  # X1 (N/S at table a) wins it: team X
    client.cookies["django_language"] = "zh-hans"
    page = client.get(url, headers={"Accept-Language": "zh-hans"}).content.decode()
    champion_line = page[page.index('class="champion"') :].split("</p>", 1)[0]
    assert "冠军" in champion_line and f"<strong>{names[final.team_x_id]}</strong>" in champion_line
    bracket = bracket_get(tournament_id=event.pk, stage_id=stage.pk)
    assert bracket.champion.name == names[final.team_x_id]
    assert bracket.third_place is not None and bracket.third_place.ns.name == names[third.team_x_id]


def test_the_placings_page_and_the_team_prizes_read_the_teams_bracket(client, django_capture_on_commit_callbacks):
    event, stage, names = _event(django_capture_on_commit_callbacks)
    team_prize_tiers_set(tournament=event, tiers=[TierData("冠军队", 1), TierData("优胜队", 2)])
    url = reverse("exports:stage_placings", args=[event.pk, stage.pk])
    assert "The knockout is not decided yet" in client.get(url).content.decode()
    final, third = _finish(stage)
    team_match_extra_deal_record(team_match=final, side="EW")
    page = client.get(url).content.decode()
    champion, runner_up = names[final.team_y_id], names[final.team_x_id]
    assert f"Champion: <strong>{champion}</strong>" in page
    order = [names[pk] for pk in (final.team_y_id, final.team_x_id, third.team_x_id, third.team_y_id)]
    assert [page.index(f"<span>{name}</span>") for name in order] == sorted(
        page.index(f"<span>{name}</span>") for name in order
    )
    assert "冠军队" in page and "优胜队" in page
    awards = team_prizes_award(tournament=event)
    assert awards.stage is not None and awards.stage.pk == stage.pk
    assert [(award.tier, award.line.rank, award.line.name) for award in awards.awards] == [
        ("冠军队", 1, champion),
        ("优胜队", 2, runner_up),
        ("优胜队", 3, names[third.team_x_id]),
    ]
