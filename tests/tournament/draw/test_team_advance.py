"""Teams advance from one stage into a knockout of teams (docs/rules.md §11): the top k teams of the stage's
team ranking (a Swiss of teams' team standings, a team total, a knockout of teams' placings), seeded by
it, withdrawn teams skipped, a full tie at the cut decided by the stage's lots; the knockout is drawn
between them only, and every reader says so — the organiser's stage page (the bracket's seeds by team
name), the public bracket, find my table (a player of a team left out did not advance), the recheck
after a correction. Bad input is refused and changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PairFactory, TournamentFactory, organiser
from tests.tournament.team_play import NS_WINS, play, x_wins
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_advance, stage_advancing_now, stage_create
from tournament.errors import UserError
from tournament.matches.models import Match, MatchStatus, TeamMatch
from tournament.matches.services import match_sign_off
from tournament.registration.services import pair_withdraw
from tournament.registration.teams import team_create
from tournament.standings.public import bracket_get, tournament_overview_get
from tournament.standings.seating import NotSeated, player_find
from tournament.standings.team_ranking import stage_team_ranking_get

pytestmark = pytest.mark.django_db


def _teams(event, count):
    pairs = [PairFactory(tournament=event) for _ in range(2 * count)]
    return [team_create(tournament=event, name=f"部门{n + 1}", pairs=pairs[2 * n : 2 * n + 2]) for n in range(count)]


def _team_swiss_played(teams=6):
    """A Swiss of team matches, one round signed off (each team X wins), and a knockout of teams after it."""
    event = TournamentFactory()
    _teams(event, teams)
    swiss = stage_create(tournament=event, name="团体瑞士", format="swiss", options={"team_match": True})
    first = round_publish(round_=round_draw(stage=swiss, seed=3))
    for row in TeamMatch.objects.filter(round=first):
        x_wins(row)
    knockout = stage_create(tournament=event, name="团体淘汰", format="knockout", options={"team_match": True})
    return event, swiss, knockout


def test_the_top_teams_of_a_team_swiss_advance_seeded_by_its_team_standings_and_every_reader_says_so(client):
    event, swiss, knockout = _team_swiss_played()
    # three winners level, three losers level: the cut at 4 is a full tie, decided by the stage's lots
    assert swiss.settings.lots_seed is None
    stage_advance(stage=swiss, next_stage=knockout, count=4, user=None)
    swiss.refresh_from_db()
    knockout.refresh_from_db()
    assert swiss.settings.lots_seed is not None  # recorded with the Swiss: its pages read the same lots
    ranked = [line.team_id for line in stage_team_ranking_get(stage=swiss).lines]
    assert list(knockout.settings.entrants) == ranked[:4]  # seeded by the team standings, seed 1 the best
    assert stage_advancing_now(next_stage=knockout) == ranked[:4]  # the recheck after a correction agrees
    names = dict(event.teams.values_list("pk", "name"))

    first = round_publish(round_=round_draw(stage=knockout, seed=7))
    drawn = {frozenset((row.team_x_id, row.team_y_id)) for row in TeamMatch.objects.filter(round=first)}
    assert drawn == {frozenset((ranked[0], ranked[3])), frozenset((ranked[1], ranked[2]))}  # 1 v 4, 2 v 3
    boss = organiser(username="boss")
    event.organisers.add(boss)
    client.force_login(boss)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("draw:stage", args=[event.pk, knockout.pk])).content.decode()
    seeds = page[page.index("Bracket seeds") :]
    seeds = seeds[: seeds.index("</ol>")]
    assert [seeds.index(names[pk]) for pk in ranked[:4]] == sorted(seeds.index(names[pk]) for pk in ranked[:4])
    assert not any(name in seeds for name in event.pairs.values_list("name", flat=True))  # no pair read as a team
    bracket = bracket_get(tournament_id=event.pk, stage_id=knockout.pk)
    assert {box.ns.name for box in bracket.rounds[0].matches} | {box.ew.name for box in bracket.rounds[0].matches} == {
        names[pk] for pk in ranked[:4]
    }
    left_out = event.teams.get(pk=ranked[4])
    player = left_out.members.first().pair.members.select_related("player").first().player
    rounds = tournament_overview_get(tournament_id=event.pk).current_rounds
    (answer,) = player_find(tournament_id=event.pk, rounds=rounds, query=player.employee_number)
    assert isinstance(answer, NotSeated) and answer.not_advanced_into == knockout.name
    html = client.get(
        reverse("standings:find", args=[event.pk]), {"q": player.employee_number}, headers={"HX-Request": "true"}
    ).content.decode()
    assert f"Did not advance to {knockout.name}" in html


def test_the_teams_of_a_team_total_advance_into_a_knockout_of_teams():
    event = TournamentFactory()
    teams = _teams(event, 4)
    swiss = stage_create(tournament=event, name="瑞士", format="swiss", options={"team_total": True})
    first = round_publish(round_=round_draw(stage=swiss, seed=11))
    for match in first.matches.exclude(ew_pair=None):
        play(match, NS_WINS)
        match_sign_off(match_id=match.pk)
    knockout = stage_create(tournament=event, name="决赛", format="knockout", options={"team_match": True})
    stage_advance(stage=swiss, next_stage=knockout, count=2, user=None)
    knockout.refresh_from_db()
    swiss.refresh_from_db()
    ranked = [line.team_id for line in stage_team_ranking_get(stage=swiss).lines]
    assert list(knockout.settings.entrants) == ranked[:2] and set(ranked) == {team.pk for team in teams}
    final = round_publish(round_=round_draw(stage=knockout, seed=1))
    (row,) = TeamMatch.objects.filter(round=final)
    assert {row.team_x_id, row.team_y_id} == set(ranked[:2])


def test_a_withdrawn_team_does_not_advance_and_bad_input_changes_nothing():
    event, swiss, knockout = _team_swiss_played()
    ranked = [line.team_id for line in stage_team_ranking_get(stage=swiss).lines]
    gone = event.teams.get(pk=ranked[0])
    for member in gone.members.select_related("pair"):
        pair_withdraw(pair=member.pair)
    for kwargs, field in (
        ({"count": 6}, "count"),  # six teams, one withdrawn: at most five advance
        ({"count": 1}, "count"),
        ({"count": 4, "overrides": [(ranked[1], ranked[0])], "reason": "换队"}, None),  # a withdrawn team
        ({"count": 4, "overrides": [(ranked[5], ranked[1])], "reason": "换队"}, None),  # not among them
    ):
        with pytest.raises(UserError) as refused:
            stage_advance(stage=swiss, next_stage=knockout, user=None, **kwargs)
        assert field is None or field in refused.value.fields
    knockout.refresh_from_db()
    assert not knockout.settings.entrants and knockout.settings.advancement is None
    stage_advance(stage=swiss, next_stage=knockout, count=5, user=None)
    knockout.refresh_from_db()
    assert gone.pk not in knockout.settings.entrants and len(knockout.settings.entrants) == 5


def test_the_pairs_of_a_knockout_of_teams_do_not_advance_one_by_one():
    event = TournamentFactory()
    _teams(event, 2)
    knockout = stage_create(tournament=event, name="团体决赛", format="knockout", options={"team_match": True})
    final = round_publish(round_=round_draw(stage=knockout, seed=2))
    x_wins(TeamMatch.objects.get(round=final))
    pairs_stage = stage_create(tournament=event, name="对抗赛", format="swiss")
    with pytest.raises(UserError) as refused:
        stage_advance(stage=knockout, next_stage=pairs_stage, count=2, user=None)
    assert refused.value.code == "teams_ranked" and knockout.name in refused.value.message
    pairs_stage.refresh_from_db()
    assert not pairs_stage.settings.entrants


def test_teams_do_not_advance_from_a_stage_that_ranks_no_teams():
    event = TournamentFactory()
    _teams(event, 2)
    swiss = stage_create(tournament=event, name="瑞士", format="swiss")
    first = round_publish(round_=round_draw(stage=swiss, seed=1))
    for match in first.matches.exclude(ew_pair=None):
        play(match, NS_WINS)
        match_sign_off(match_id=match.pk)
    assert not Match.objects.filter(round__stage=swiss, status=MatchStatus.FINISHED).exists()
    knockout = stage_create(tournament=event, name="淘汰", format="knockout", options={"team_match": True})
    with pytest.raises(UserError) as refused:
        stage_advance(stage=swiss, next_stage=knockout, count=2, user=None)
    assert refused.value.code == "no_team_ranking" and swiss.name in refused.value.message
    knockout.refresh_from_db()
    assert not knockout.settings.entrants
