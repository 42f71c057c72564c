"""A team that withdraws mid-bracket (every member withdrawn, docs/rules.md §4, §5, §11) loses the team
match it has not played by walkover, as a withdrawn pair does: the draft drawn before it withdrew is stale
and refused, the round drawn again gives its opponent a walkover, and every reader — the stage's ranking
and the placings page, the public bracket, the team prizes, the pairs' standings of its opponent's tables
— reads the same bracket."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PairFactory, TournamentFactory
from tests.tournament.team_play import x_wins
from tournament.draw.services import round_delete, round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.errors import UserError
from tournament.exports.prizes import TierData, team_prize_tiers_set, team_prizes_award
from tournament.matches.models import Round, RoundStatus, TeamMatch
from tournament.registration.services import pair_withdraw
from tournament.registration.teams import team_create, teams_withdrawn
from tournament.standings.public import bracket_get
from tournament.standings.selectors import stage_decided_get, stage_match_records, stage_ranking_get

pytestmark = pytest.mark.django_db


def test_a_finalist_that_withdraws_loses_the_final_by_walkover_on_every_reader(
    client, django_capture_on_commit_callbacks
):
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(8)]
    for n in range(4):
        team_create(tournament=event, name=f"部门{n + 1}", pairs=pairs[2 * n : 2 * n + 2])
    stage = stage_create(
        tournament=event, name="团体淘汰", format="knockout", options={"team_match": True, "third_place": True}
    )
    first = round_publish(round_=round_draw(stage=stage, seed=5))
    semis = list(TeamMatch.objects.filter(round=first).order_by("bracket_slot"))
    with django_capture_on_commit_callbacks(execute=True):
        for row in semis:
            x_wins(row)
    draft = Round.objects.get(stage=stage, number=2)  # drawn by itself: the final and the third-place match
    assert draft.status == RoundStatus.DRAFT
    gone, present = semis[0].team_x, semis[1].team_x
    members = [member.pair for member in gone.members.all()]
    pair_withdraw(pair=members[0])
    assert gone.pk not in teams_withdrawn(tournament_id=event.pk)  # one pair still plays: not withdrawn
    pair_withdraw(pair=members[1])
    assert gone.pk in teams_withdrawn(tournament_id=event.pk)

    with pytest.raises(UserError) as refused:  # the draft names a team that withdrew since
        round_publish(round_=draft)
    assert refused.value.code == "stale_bracket_round"
    round_delete(round_=draft)
    final_round = round_publish(round_=round_draw(stage=stage))
    walkover, third = TeamMatch.objects.filter(round=final_round).order_by("bracket_slot")
    assert (walkover.team_x_id, walkover.team_y_id, walkover.table_a_id) == (present.pk, None, None)
    assert {third.team_x_id, third.team_y_id} == {semis[0].team_y_id, semis[1].team_y_id}
    # the walkover names teams: the pairs' standings never read it as a pair's forfeit win
    assert final_round.draw_settings.walkovers == {}
    assert all(record.forfeit is None for record in stage_match_records(stage=stage))
    with django_capture_on_commit_callbacks(execute=True):
        x_wins(third)

    assert stage_decided_get(stage=stage)
    ranking = stage_ranking_get(stage=stage)
    assert [int(row.entrant) for row in ranking.standings.rows] == [
        present.pk,
        gone.pk,
        third.team_x_id,
        third.team_y_id,
    ]
    client.cookies["django_language"] = "en"
    page = client.get(reverse("exports:stage_placings", args=[event.pk, stage.pk])).content.decode()
    assert f"Champion: <strong>{present.name}</strong>" in page
    bracket = bracket_get(tournament_id=event.pk, stage_id=stage.pk)
    assert bracket.champion is not None and bracket.champion.name == present.name
    assert bracket.rounds[1].matches[0].ns.name == present.name and bracket.rounds[1].matches[0].ew is None
    team_prize_tiers_set(tournament=event, tiers=[TierData("冠军队", 1)])
    assert [(a.tier, a.line.name) for a in team_prizes_award(tournament=event).awards] == [("冠军队", present.name)]
