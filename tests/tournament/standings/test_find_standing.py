"""Find my table tells players without a seat where they stand: registered but not
checked in, withdrawn, eliminated in round N, checked in but not drawn — and a bye — each
distinct from "no such name"."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournament.standings.events import knockout_event, pairs_register, play_out, swiss_event
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_advance, stage_create
from tournament.matches.models import Match, MatchStatus
from tournament.matches.services import match_sign_off
from tournament.registration.services import pair_check_in, pair_withdraw
from tournament.standings.cache import public_version_get
from tournament.standings.public import tournament_overview_get
from tournament.standings.public_types import SeatFound
from tournament.standings.seating import NotSeated, player_find

pytestmark = pytest.mark.django_db


def ask(tournament_id, query):
    return player_find(
        tournament_id=tournament_id,
        rounds=tournament_overview_get(tournament_id=tournament_id).current_rounds,
        query=query,
    )


def page(client, tournament_id, query):
    url = reverse("standings:find", args=[tournament_id])
    return client.get(url, {"q": query}, headers={"HX-Request": "true"}).content.decode()


def test_late_registrations_are_told_to_check_in_then_that_they_are_not_drawn(client):
    event = swiss_event(pairs=8)
    late, gone = pairs_register(event.tournament, 2, start=40)
    name = late.members.get(slot=2).player.name
    (answer,) = ask(event.tournament.pk, name)
    assert isinstance(answer, NotSeated) and answer.state == "registered" and answer.pair_id == late.pk
    assert "not checked in" in page(client, event.tournament.pk, name)
    pair_check_in(pair=late)
    assert "not in the current round" in page(client, event.tournament.pk, name)
    pair_withdraw(pair=gone)
    assert "Withdrawn" in page(client, event.tournament.pk, gone.members.get(slot=2).player.name)
    nobody = page(client, event.tournament.pk, "无此人")
    assert "Nobody registered in this event matches" in nobody and "not checked in" not in nobody


def test_a_seated_player_costs_no_extra_query_and_an_unseated_one_one():
    event = swiss_event(pairs=8)
    (late,) = pairs_register(event.tournament, 1, start=40)
    seated = event.pairs[0].members.get(slot=2).player.name
    rounds = tournament_overview_get(tournament_id=event.tournament.pk).current_rounds
    version = public_version_get(tournament_id=event.tournament.pk, scope="seating")
    found = dict(tournament_id=event.tournament.pk, rounds=rounds, version=version)
    player_find(**found, query=seated)  # builds the index
    with CaptureQueriesContext(connection) as queries:
        (seat,) = player_find(**found, query=seated)
    assert isinstance(seat, SeatFound)
    assert len(queries) == 0
    late_name = late.members.get(slot=2).player.name
    with CaptureQueriesContext(connection) as queries:
        (answer,) = player_find(**found, query=late_name)
    assert isinstance(answer, NotSeated)
    assert len(queries) == 1  # the pairs' statuses, by primary key


def test_a_bye_says_so():
    event = swiss_event(pairs=7)
    bye = event.second.matches.get(ew_pair=None)
    (seat,) = ask(event.tournament.pk, bye.ns_pair.members.get(slot=2).player.name)
    assert isinstance(seat, SeatFound) and seat.table is None


def test_knockout_losers_are_eliminated_in_their_round(client):
    tournament, rounds = knockout_event(pairs=5)
    first_loss = next(
        match for match in rounds[0].matches.exclude(ew_pair=None) if match.status == MatchStatus.CONFIRMED
    )
    loser = first_loss.ew_pair if first_loss.winner == "NS" else first_loss.ns_pair
    name = loser.members.get(slot=2).player.name
    (answer,) = ask(tournament.pk, name)
    assert isinstance(answer, NotSeated) and answer.eliminated_in == 1
    assert "Eliminated in round 1" in page(client, tournament.pk, name)


def test_before_the_draw_a_registered_player_is_told_to_check_in(client):
    from tournament.registration.services import tournament_create

    tournament = tournament_create(name="未开始", rule_profile="timed-40")
    (pair,) = pairs_register(tournament, 1)
    html = page(client, tournament.pk, pair.members.get(slot=1).player.name)
    assert "not published yet" in html and "not checked in" in html


def test_a_pair_left_out_at_the_cut_is_told_it_did_not_advance(client):
    event = swiss_event(pairs=8)
    for match in event.second.matches.exclude(ew_pair=None):
        play_out(match)
    for match in Match.objects.filter(round__stage=event.second.stage, status=MatchStatus.FINISHED):
        match_sign_off(match_id=match.pk)  # the Swiss is over: its rounds are no longer current
    knockout = stage_create(tournament=event.tournament, name="淘汰赛", format="knockout")
    stage_advance(stage=event.second.stage, next_stage=knockout, count=4, user=None)
    knockout.refresh_from_db()
    round_publish(round_=round_draw(stage=knockout, seed=1))
    left_out = next(pair for pair in event.pairs if pair.pk not in knockout.settings.entrants)
    name = left_out.members.get(slot=2).player.name
    (answer,) = ask(event.tournament.pk, name)
    assert isinstance(answer, NotSeated) and answer.not_advanced_into == "淘汰赛"
    html = page(client, event.tournament.pk, name)
    assert "Did not advance to 淘汰赛" in html and "not in the current round" not in html


def test_the_event_page_links_its_final_placings(client):
    tournament, _rounds = knockout_event(pairs=5)
    html = client.get(reverse("standings:tournament", args=[tournament.pk])).content.decode()
    assert reverse("exports:placings", args=[tournament.pk]) in html


def test_a_team_pair_left_out_of_its_line_up_is_told_so(client):
    """A team round seats two pairs of each team (its line-up): a third pair of the team, checked in or
    not, is told its team plays without it this round, not to check in or that it was not drawn."""
    from tournament.registration.models import PairStatus
    from tournament.registration.services import tournament_create
    from tournament.registration.teams import team_create, team_substitute_add

    tournament = tournament_create(name="团体赛", rule_profile="timed-40", organiser=None)
    pairs = pairs_register(tournament, 5)
    for pair in pairs:
        pair_check_in(pair=pair)
    sales = team_create(tournament=tournament, name="销售部", pairs=pairs[:2])
    team_create(tournament=tournament, name="研发部", pairs=pairs[2:4])
    team_substitute_add(team=sales, pair=pairs[4])
    stage = stage_create(tournament=tournament, name="团体瑞士", format="swiss", options={"team_match": True})
    round_publish(round_=round_draw(stage=stage, seed=1))
    substitute = pairs[4].members.get(slot=2).player.name
    (answer,) = ask(tournament.pk, substitute)
    assert isinstance(answer, NotSeated) and answer.team_without == "销售部"
    assert "Not in 销售部&#x27;s line-up this round" in page(client, tournament.pk, substitute)
    pairs[4].refresh_from_db()
    assert pairs[4].status == PairStatus.CHECKED_IN
    seated = pairs[0].members.get(slot=2).player.name
    assert isinstance(ask(tournament.pk, seated)[0], SeatFound)


def test_a_pair_whose_team_has_the_bye_is_told_its_team_has_it(client):
    """A team round of three teams gives one a bye: its pairs are told their team (named) has the bye
    this round, not only that they have one."""
    from tournament.matches.models import TeamMatch
    from tournament.registration.services import tournament_create
    from tournament.registration.teams import team_create

    tournament = tournament_create(name="团体赛", rule_profile="timed-40", organiser=None)
    pairs = pairs_register(tournament, 6)
    for pair in pairs:
        pair_check_in(pair=pair)
    teams = [team_create(tournament=tournament, name=f"<i>部</i>{n}", pairs=pairs[2 * n : 2 * n + 2]) for n in range(3)]
    stage = stage_create(tournament=tournament, name="团体瑞士", format="swiss", options={"team_match": True})
    round_ = round_draw(stage=stage, seed=1)
    round_publish(round_=round_)
    resting = next(team for team in teams if team.pk == TeamMatch.objects.get(round=round_, team_y=None).team_x_id)
    player = resting.members.first().pair.members.get(slot=2).player.name
    (answer,) = ask(tournament.pk, player)
    assert isinstance(answer, SeatFound) and answer.table is None and answer.team_bye == resting.name
    escaped = resting.name.replace("<", "&lt;").replace(">", "&gt;")
    assert f"Your team {escaped} has a bye this round" in page(client, tournament.pk, player)
    client.cookies["django_language"] = "zh-hans"
    assert f"你所在的团体 {escaped} 本轮轮空" in page(client, tournament.pk, player)
    playing = next(team for team in teams if team != resting).members.first().pair.members.get(slot=2).player.name
    (seated,) = ask(tournament.pk, playing)
    assert isinstance(seated, SeatFound) and seated.table is not None and seated.team_bye == ""


def test_a_pair_given_a_walkover_is_told_so_not_that_it_has_a_bye(client):
    """A round robin goes on after a pair withdrew: its opponent of the round has no table, and find
    tells it the opponents withdrew (a forfeit win), not that it has a bye."""
    from tests.tournament.draw.conftest import make_field, win

    tournament = make_field(6)
    stage = stage_create(tournament=tournament, name="小组赛", format="round_robin")
    first = round_publish(round_=round_draw(stage=stage, seed=1))
    for match in first.matches.all():
        win(match)
    pair_withdraw(pair=first.matches.first().ew_pair)
    second = round_publish(round_=round_draw(stage=stage, seed=2))
    given = second.matches.get(ew_pair__isnull=True).ns_pair
    player = given.members.get(slot=2).player.name
    (answer,) = ask(tournament.pk, player)
    assert isinstance(answer, SeatFound) and answer.table is None and answer.walkover
    assert "Walkover this round: your opponents withdrew" in page(client, tournament.pk, player)
    client.cookies["django_language"] = "zh-hans"
    assert "本轮不战而胜：对手已退赛" in page(client, tournament.pk, player)
    seated = second.matches.filter(ew_pair__isnull=False).first().ns_pair.members.get(slot=2).player.name
    (other,) = ask(tournament.pk, seated)
    assert isinstance(other, SeatFound) and not other.walkover
