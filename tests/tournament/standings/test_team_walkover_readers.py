"""A knockout of teams' walkover (a finalist whose every pair withdrew, docs/rules.md §4, §5, §11) is a
forfeit win for the team that came and a loss for the one that withdrew — never a bye — on every reader:
the team standings (organiser's stage page, public page, API), the team match results, the public draw,
the team match page and the public bracket. The knockout's team standings say they rank by how far each
team went, not by team match points."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.team_matches import TeamMatchReason
from tests.factories import PairFactory, TournamentFactory, organiser
from tests.tournament.team_play import x_wins
from tournament.draw.services import round_delete, round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.matches.models import Round, TeamMatch
from tournament.registration.services import pair_withdraw
from tournament.registration.teams import team_create
from tournament.standings.public import bracket_get, tournament_overview_get
from tournament.standings.public_types import SeatFound
from tournament.standings.seating import player_find
from tournament.standings.team_matches import stage_team_matches_get
from tournament.standings.team_ranking import team_match_table_get

pytestmark = pytest.mark.django_db

KNOCKOUT_WORDS = "Ranked by how far each team went in the knockout"
SWISS_WORDS = "Ranked by: team match points"


@pytest.fixture
def walkover(django_capture_on_commit_callbacks):
    """Four teams in a knockout with a third-place match; the semi-finals signed off, then one finalist's
    pairs all withdraw and the final is drawn again: a walkover for the other finalist."""
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(8)]
    for n in range(4):
        team_create(tournament=event, name=f"部门{n + 1}", pairs=pairs[2 * n : 2 * n + 2])
    stage = stage_create(
        tournament=event, name="团体淘汰", format="knockout", options={"team_match": True, "third_place": True}
    )
    semis = list(TeamMatch.objects.filter(round=round_publish(round_=round_draw(stage=stage, seed=5))))
    with django_capture_on_commit_callbacks(execute=True):
        for row in semis:
            x_wins(row)
    semis.sort(key=lambda row: row.bracket_slot)
    gone, present = semis[0].team_x, semis[1].team_x
    for member in gone.members.all():
        pair_withdraw(pair=member.pair)
    round_delete(round_=Round.objects.get(stage=stage, number=2))  # the draft drawn before the withdrawal
    final_round = round_publish(round_=round_draw(stage=stage))
    return event, stage, final_round, gone, present


def test_the_walkover_is_a_forfeit_win_not_a_bye_in_the_team_standings(client, walkover):
    event, stage, final_round, gone, present = walkover
    assert final_round.draw_settings.team_walkovers == {present.pk: gone.pk}
    assert final_round.draw_settings.walkovers == {}  # the pairs' standings never read it
    (line,) = [line for line in stage_team_matches_get(stage=stage).matches if line.walkover_over is not None]
    assert (line.x, line.y, line.walkover_over, line.table_a) == (present.pk, None, gone.pk, None)
    assert (line.result.winner, line.result.reason, line.result.y) == (
        str(present.pk),
        TeamMatchReason.FORFEIT,
        str(gone.pk),
    )
    table = team_match_table_get(stage=stage)
    won, lost = table.line_of(present.pk), table.line_of(gone.pk)
    assert (won.played, won.wins, won.byes, won.tables_won) == (2, 2, 0, 4)
    assert (lost.played, lost.wins, lost.losses, lost.byes) == (2, 1, 1, 0)
    (result,) = [r for r in table.results if r.round == 2 and r.x == present.name]
    assert (result.y, result.winner, result.reason, result.tables_won) == (gone.name, present.name, "forfeit", (2, 0))
    rows = client.get(f"/api/public/tournaments/{event.pk}/stages/{stage.pk}/team-matches/").json()["results"]
    (api,) = [row for row in rows if row["team_id"] == present.pk]
    assert (api["byes"], api["played"], api["wins"]) == (0, 2, 2)


def test_the_walkover_is_named_on_the_draw_the_team_match_page_and_the_bracket(client, walkover):
    event, stage, final_round, gone, present = walkover
    client.cookies["django_language"] = "en"
    draw = client.get(reverse("standings:draw_round", args=[event.pk, final_round.pk])).content.decode()
    row = TeamMatch.objects.get(round=final_round, team_x=present, team_y__isnull=True)
    heading = draw[draw.index(f'id="team-match-{row.pk}"') :]
    heading = heading[: heading.index("</tr>")]
    assert present.name in heading and "Walkover" in heading and f"{gone.name} · withdrawn" in heading
    assert "Bye" not in heading
    page = client.get(reverse("standings:team_match", args=[event.pk, row.pk])).content.decode()
    title = page[page.index('id="page-title"') :]
    assert "Walkover" in title[: title.index("</h1>")] and gone.name in title[: title.index("</h1>")]
    bracket = bracket_get(tournament_id=event.pk, stage_id=stage.pk)
    final = bracket.rounds[1].matches[0]
    assert (final.ns.name, final.walkover_over, final.reason) == (present.name, gone.name, "")
    page = client.get(reverse("standings:bracket", args=[event.pk]), follow=True).content.decode()
    assert f"{gone.name} · withdrawn" in page and '<span class="tag small walkover">Walkover</span>' in page
    standings = client.get(reverse("standings:stage_team_standings", args=[event.pk, stage.pk])).content.decode()
    results = standings[standings.index("team-match-results") :]
    walked = results[results.index(f"{present.name} v {gone.name}") :]
    assert '<span class="badge">Walkover</span>' in walked[: walked.index("</tr>")]


def test_a_knockout_of_teams_says_it_ranks_by_how_far_each_team_went(client, walkover):
    event, stage, final_round, gone, present = walkover
    client.cookies["django_language"] = "en"
    public = client.get(reverse("standings:stage_team_standings", args=[event.pk, stage.pk])).content.decode()
    assert KNOCKOUT_WORDS in public and SWISS_WORDS not in public
    boss = organiser(username="boss")
    event.organisers.add(boss)
    client.force_login(boss)
    organisers = client.get(reverse("draw:stage", args=[event.pk, stage.pk])).content.decode()
    assert KNOCKOUT_WORDS in organisers and SWISS_WORDS not in organisers
    round_page = client.get(reverse("draw:round_team_matches", args=[event.pk, final_round.pk])).content.decode()
    assert f"{present.name} · Walkover" in round_page and f"({gone.name} · withdrawn)" in round_page
    client.cookies["django_language"] = "zh-hans"
    public = client.get(reverse("standings:stage_team_standings", args=[event.pk, stage.pk])).content.decode()
    assert "按淘汰赛中走到的轮次排名" in public


def test_a_swiss_of_teams_still_ranks_by_team_match_points(client):
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(4)]
    for n in range(2):
        team_create(tournament=event, name=f"部门{n + 1}", pairs=pairs[2 * n : 2 * n + 2])
    stage = stage_create(tournament=event, name="团体瑞士", format="swiss", options={"team_match": True})
    round_publish(round_=round_draw(stage=stage, seed=1))
    client.cookies["django_language"] = "en"
    public = client.get(reverse("standings:stage_team_standings", args=[event.pk, stage.pk])).content.decode()
    assert SWISS_WORDS in public and KNOCKOUT_WORDS not in public


def test_find_my_table_tells_the_team_that_came_it_goes_on_by_walkover(client, walkover):
    """Find my table reads the walkover too: the pairs of the team that came have no table, and are told
    their team (named) wins the round by walkover, not that it has a bye."""
    event, _stage, _final_round, _gone, present = walkover
    player = present.members.first().pair.members.get(slot=2).player.name
    rounds = tournament_overview_get(tournament_id=event.pk).current_rounds
    (answer,) = player_find(tournament_id=event.pk, rounds=rounds, query=player)
    assert isinstance(answer, SeatFound) and answer.walkover and answer.team_bye == present.name
    url = reverse("standings:find", args=[event.pk])
    page = client.get(url, {"q": player}, headers={"HX-Request": "true"}).content.decode()
    assert f"Your team {present.name} wins this round by walkover" in page
    client.cookies["django_language"] = "zh-hans"
    page = client.get(url, {"q": player}, headers={"HX-Request": "true"}).content.decode()
    assert f"你所在的团体 {present.name} 本轮不战而胜" in page
