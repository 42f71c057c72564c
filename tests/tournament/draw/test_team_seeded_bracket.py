"""A knockout of teams seeded by the organiser's team seeds (docs/rules.md §4, §11): the teams' seeds reach
the one bracket engine through the entrant, as pairs' seeds do — seed 1 and seed 2 meet only in the final,
the byes go to the top seeds, the unseeded fill in by lot — and a stage the teams advanced into is seeded
by that advancement instead."""

from __future__ import annotations

import pytest

from tests.factories import PairFactory, TournamentFactory
from tournament.draw.services import round_draw
from tournament.draw.stages import stage_create
from tournament.draw.team_matches import team_entrants
from tournament.matches.models import Stage, TeamMatch
from tournament.registration.teams import team_create, team_seed_set

pytestmark = pytest.mark.django_db


def _event(count: int, options: dict | None = None):
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(2 * count)]
    teams = [team_create(tournament=event, name=f"队{n + 1}", pairs=pairs[2 * n : 2 * n + 2]) for n in range(count)]
    stage = stage_create(
        tournament=event, name="团体淘汰", format="knockout", options={"team_match": True, **(options or {})}
    )
    return event, teams, stage


def _first_round(stage: Stage, seed: int) -> set[frozenset[int | None]]:
    round_ = round_draw(stage=stage, seed=seed)
    return {frozenset((row.team_x_id, row.team_y_id)) for row in TeamMatch.objects.filter(round=round_)}


@pytest.mark.parametrize("lots", [1, 2, 3, 4])
def test_the_top_two_team_seeds_meet_only_in_the_final_whatever_the_lots(lots):
    _, teams, stage = _event(4)
    team_seed_set(team=teams[3], seed=1)
    team_seed_set(team=teams[2], seed=2)
    assert {e.id: e.seed for e in team_entrants(stage=stage)} == {
        teams[0].pk: None,
        teams[1].pk: None,
        teams[2].pk: 2,
        teams[3].pk: 1,
    }
    matches = _first_round(stage, lots)
    assert frozenset((teams[3].pk, teams[2].pk)) not in matches
    stage.refresh_from_db()
    assert stage.settings.bracket_record["seeds"][:2] == [teams[3].pk, teams[2].pk]


def test_the_bye_goes_to_the_top_team_seed():
    _, teams, stage = _event(3)
    team_seed_set(team=teams[2], seed=1)
    for lots in (1, 2, 3):
        stage.refresh_from_db()
        matches = _first_round(stage, lots)
        assert frozenset((teams[2].pk, None)) in matches
        TeamMatch.objects.filter(round__stage=stage).delete()
        stage.rounds.all().delete()
        stage.options = stage.settings.with_values(bracket_record=None).to_stored()
        stage.save(update_fields=["options"])


def test_a_bracket_drawn_at_random_ignores_the_team_seeds():
    _, teams, stage = _event(4, {"seeding": "random"})
    team_seed_set(team=teams[3], seed=1)
    team_seed_set(team=teams[2], seed=2)
    met = set()
    for lots in range(1, 12):
        stage.refresh_from_db()
        met |= _first_round(stage, lots)
        stage.rounds.all().delete()
        stage.options = stage.settings.with_values(bracket_record=None).to_stored()
        stage.save(update_fields=["options"])
    assert frozenset((teams[3].pk, teams[2].pk)) in met  # at random the top two seeds may meet at once


def test_teams_advanced_into_a_stage_are_seeded_by_the_advancement_not_by_their_own_seeds():
    _, teams, stage = _event(4)
    team_seed_set(team=teams[0], seed=1)
    order = [teams[3].pk, teams[1].pk, teams[2].pk, teams[0].pk]
    stage.options = stage.settings.with_values(entrants=tuple(order)).to_stored()
    stage.save(update_fields=["options"])
    seeds = {e.id: (e.seed, e.rank) for e in team_entrants(stage=stage)}
    assert seeds == {pk: (number, number) for number, pk in enumerate(order, start=1)}
