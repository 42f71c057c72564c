"""A knockout of teams' ranking (团体淘汰赛, docs/rules.md §11) is the teams' bracket's placings, one answer
for every reader: the stage's ranking, the placings page, the organiser's stage page, the public team
standings and the API, the workbook's standings sheet and the prizes (the team prizes down it; the pairs'
prizes never read a team as a pair)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PairFactory, TournamentFactory, organiser
from tests.tournament.team_play import NS_WINS, play, x_wins, y_wins
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.draw.team_knockout import team_match_extra_deal_record
from tournament.exports.prizes import (
    TierData,
    prize_tiers_award,
    prize_tiers_set,
    team_prize_tiers_set,
    team_prizes_award,
)
from tournament.matches.models import Round, TeamMatch
from tournament.matches.team_matches import team_match_sign_off
from tournament.registration.teams import team_create
from tournament.standings.selectors import stage_bracket_get, stage_ranking_get
from tournament.standings.team_matches import stage_team_matches_get
from tournament.standings.team_ranking import team_match_table_get

pytestmark = pytest.mark.django_db


def _decided_knockout(on_commit):
    """Four teams of two pairs (the pairs made first: a pair's id is never a team's) in a knockout with a
    third-place match, played so that the team standings by team match points and the placings differ:
    semi-final 2 is level on tables and won by X on its tie-break deal; its loser then wins the
    third-place match 2–0 (2 team match points, 3 tables) while the runner-up loses the final 0–2 (2 team
    match points, at most 2 tables). Returns the event, the stage and the team ids as placed."""
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(8)]
    for n in range(4):
        team_create(tournament=event, name=f"部门{n + 1}", pairs=pairs[2 * n : 2 * n + 2])
    stage = stage_create(
        tournament=event, name="团体淘汰", format="knockout", options={"team_match": True, "third_place": True}
    )
    first = round_publish(round_=round_draw(stage=stage, seed=5))
    semi_a, semi_b = TeamMatch.objects.filter(round=first).order_by("bracket_slot")
    with on_commit(execute=True):  # a signed-off team match moves the bracket on once committed
        x_wins(semi_a)
        play(semi_b.table_a, NS_WINS)  # one table each by the same margin: a tie-break deal
        play(semi_b.table_b, NS_WINS)
        team_match_sign_off(team_match=semi_b)
    team_match_extra_deal_record(team_match=semi_b, side="NS")  # X1 wins it: team X goes through
    final_round = Round.objects.get(stage=stage, number=2)
    round_publish(round_=final_round)
    final, third = TeamMatch.objects.filter(round=final_round).order_by("bracket_slot")
    y_wins(final)
    (y_wins if third.team_y_id == semi_b.team_y_id else x_wins)(third)  # semi-final 2's loser wins it
    placed = [final.team_y_id, final.team_x_id, semi_b.team_y_id, semi_a.team_y_id]
    by_points = [int(row.team) for row in stage_team_matches_get(stage=stage).standings.rows]
    assert placed != by_points  # the test means something: the placings are not the points' order
    return event, stage, placed


def test_the_stage_ranking_of_a_team_knockout_is_its_teams_bracket_placings(django_capture_on_commit_callbacks):
    _event, stage, placed = _decided_knockout(django_capture_on_commit_callbacks)
    ranking = stage_ranking_get(stage=stage)
    assert ranking.teams is not None and ranking.pairs == {} and ranking.rows_with_pairs() == []
    assert [(row.rank, int(row.entrant)) for row in ranking.standings.rows] == list(enumerate(placed, 1))
    assert ranking.bracket is not None and int(ranking.bracket.champion) == placed[0]
    bracket = stage_bracket_get(stage=stage)
    assert bracket.placings == ranking.standings  # the bracket's placings and the stage's ranking: one answer
    champion_row = ranking.standings.rows[0]
    assert (champion_row.played, champion_row.wins, champion_row.losses) == (2, 2, 0)  # its team match record


def test_every_reader_places_the_teams_as_the_bracket_does(client, django_capture_on_commit_callbacks):
    event, stage, placed = _decided_knockout(django_capture_on_commit_callbacks)
    names = dict(event.teams.values_list("pk", "name"))
    in_order = [names[pk] for pk in placed]
    table = team_match_table_get(stage=stage)  # the organiser's stage page, the public team standings
    assert [(line.rank, line.name) for line in table.lines] == list(enumerate(in_order, 1))
    rows = client.get(f"/api/public/tournaments/{event.pk}/stages/{stage.pk}/team-matches/").json()["results"]
    assert [(row["rank"], row["name"]) for row in rows] == list(enumerate(in_order, 1))
    client.cookies["django_language"] = "en"
    page = client.get(reverse("standings:stage_team_standings", args=[event.pk, stage.pk])).content.decode()
    assert [page.index(name) for name in in_order] == sorted(page.index(name) for name in in_order)
    page = client.get(reverse("exports:stage_placings", args=[event.pk, stage.pk])).content.decode()
    assert f"Champion: <strong>{in_order[0]}</strong>" in page
    assert [page.index(f"<span>{name}</span>") for name in in_order] == sorted(
        page.index(f"<span>{name}</span>") for name in in_order
    )
    boss = organiser(username="boss")  # the organiser's stage page: its team match standings, placed
    event.organisers.add(boss)
    client.force_login(boss)
    page = client.get(reverse("draw:stage", args=[event.pk, stage.pk])).content.decode()
    teams_part = page[page.index('id="teams-title"') :]
    assert [teams_part.index(name) for name in in_order] == sorted(teams_part.index(name) for name in in_order)


def test_the_workbook_reads_the_team_knockouts_ranking_back_with_openpyxl(django_capture_on_commit_callbacks):
    from tests.tournament.exports.conftest import build, read_book

    event, stage, placed = _decided_knockout(django_capture_on_commit_callbacks)
    names = dict(event.teams.values_list("pk", "name"))
    book = read_book(build(tournament=event, language="en"))
    rows = book[f"{stage.name} standings"]
    assert rows[0][:3] == ("Rank", "Shared", "Team")
    assert [(row[0], row[2]) for row in rows[1:]] == [(rank, names[pk]) for rank, pk in enumerate(placed, 1)]
    assert f"{stage.name} team standings" not in book  # the stage's standings are the teams': one sheet
    assert f"{stage.name} team matches" in book
    pair_names = set(event.pairs.values_list("name", flat=True))
    assert not pair_names & {row[2] for row in rows[1:]}


def test_the_prizes_of_a_team_knockout_award_teams_and_never_read_a_team_as_a_pair(
    django_capture_on_commit_callbacks,
):
    event, _stage, placed = _decided_knockout(django_capture_on_commit_callbacks)
    names = dict(event.teams.values_list("pk", "name"))
    team_prize_tiers_set(tournament=event, tiers=[TierData("冠军队", 1), TierData("优胜队", 1)])
    awards = team_prizes_award(tournament=event)
    assert [(a.tier, a.line.rank, a.line.name) for a in awards.awards] == [
        ("冠军队", 1, names[placed[0]]),
        ("优胜队", 2, names[placed[1]]),
    ]
    prize_tiers_set(tournament=event, tiers=[TierData("一等奖", 2)])
    pairs_awards = prize_tiers_award(tournament=event)
    # the stage ranks teams, and no stage before it ranks pairs: no pair is placed, the tier is said unawarded
    assert pairs_awards.problem is None and pairs_awards.awards == ()
    assert pairs_awards.unawarded == (("一等奖", 2),)
