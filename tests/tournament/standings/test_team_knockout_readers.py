"""Every reader of a knockout's state asks the one function that knows who the stage is drawn between
(``stage_bracket_state_get``): a knockout of teams (docs/rules.md §11) answers with its teams — whether
a correction touches decided placings, whether the organiser's stage page offers a draw, and where find
my table says a player of a team that went out stands."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PairFactory, TournamentFactory, organiser
from tests.tournament.team_play import NS_WINS, play, x_wins
from tournament.draw.selectors import stage_decided
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.draw.team_knockout import team_match_extra_deal_record
from tournament.matches.models import Round, TeamMatch
from tournament.matches.team_matches import team_match_sign_off
from tournament.registration.teams import team_create
from tournament.standings.public import tournament_overview_get
from tournament.standings.seating import NotSeated, player_find
from tournament.standings.selectors import stage_bracket_state_get
from tournament.standings.signals import placings_decided

pytestmark = pytest.mark.django_db


def _knockout(on_commit, third_place=True):
    """Four teams of two pairs in a knockout of teams (with a third-place match), round 1 signed off
    (every team X wins) and round 2 published."""
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(8)]
    for n in range(4):
        team_create(tournament=event, name=f"部门{n + 1}", pairs=pairs[2 * n : 2 * n + 2])
    stage = stage_create(
        tournament=event, name="团体淘汰", format="knockout", options={"team_match": True, "third_place": third_place}
    )
    first = round_publish(round_=round_draw(stage=stage, seed=5))
    with on_commit(execute=True):
        for row in TeamMatch.objects.filter(round=first).order_by("bracket_slot"):
            x_wins(row)
    second = round_publish(round_=Round.objects.get(stage=stage, number=2))
    return event, stage, first, second


def test_the_knockouts_state_is_the_teams_and_decides_the_placings_and_the_stage_page(
    client, django_capture_on_commit_callbacks
):
    event, stage, first, second = _knockout(django_capture_on_commit_callbacks)
    teams = set(event.teams.values_list("pk", flat=True))
    state = stage_bracket_state_get(stage=stage)
    assert {int(team) for team in state.still_in} == {row.team_x_id for row in first.team_matches.all()}
    assert {int(team) for team in state.out_in} | {int(team) for team in state.still_in} == teams
    final, third = TeamMatch.objects.filter(round=second).order_by("bracket_slot")
    x_wins(third)
    play(final.table_a, NS_WINS)  # one table each: the final waits for its tie-break deal
    play(final.table_b, NS_WINS)
    team_match_sign_off(team_match=final)
    assert not placings_decided(match=final.table_a) and not stage_decided(stage=stage)
    team_match_extra_deal_record(team_match=final, side="EW")
    assert int(stage_bracket_state_get(stage=stage).champion) == final.team_y_id
    # a correction of any table of the stage now touches decided placings
    assert placings_decided(match=final.table_b) and placings_decided(match=first.team_matches.first().table_a)
    assert stage_decided(stage=stage)  # nothing left to draw: the organiser's page offers no draw
    boss = organiser(username="boss")
    event.organisers.add(boss)
    client.force_login(boss)
    page = client.get(reverse("draw:stage", args=[event.pk, stage.pk]))
    assert page.context["decided"] is True


def test_find_my_table_says_a_player_of_a_team_out_in_round_1_went_out_there(
    client, django_capture_on_commit_callbacks
):
    event, stage, first, _second = _knockout(django_capture_on_commit_callbacks, third_place=False)
    beaten = first.team_matches.order_by("bracket_slot").first().team_y  # team Y lost both tables
    for member in beaten.members.select_related("pair"):  # every pair of the team, a substitute's too
        player = member.pair.members.select_related("player").first().player
        rounds = tournament_overview_get(tournament_id=event.pk).current_rounds
        (answer,) = player_find(tournament_id=event.pk, rounds=rounds, query=player.employee_number)
        assert isinstance(answer, NotSeated) and (answer.eliminated_in, answer.stage_name) == (1, stage.name)
    client.cookies["django_language"] = "en"
    url = reverse("standings:find", args=[event.pk])
    html = client.get(url, {"q": player.employee_number}, headers={"HX-Request": "true"}).content.decode()
    assert f"Eliminated in round 1 of {stage.name}" in html
