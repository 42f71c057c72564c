"""A stage plays its tournament's game; ``stage_create`` refuses rules of another game."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.options import Game
from scoring.profiles import options_for
from tests.factories import TournamentFactory, english_client, organiser
from tournament.draw.stages import stage_create
from tournament.errors import UserError
from tournament.games.shown_rules import stage_rules_lines
from tournament.matches.models import Stage
from tournament.rules import RuleLine, rules_for_stage

pytestmark = pytest.mark.django_db


def test_a_tractor_profile_is_refused_in_a_guandan_tournament():
    tournament = TournamentFactory(game="guandan", rule_profile="timed-40")
    with pytest.raises(UserError) as caught:
        stage_create(tournament=tournament, name="预赛", format="swiss", rule_profile="tractor-3deck")
    assert list(caught.value.fields) == ["rule_profile"]
    assert not Stage.objects.filter(tournament=tournament).exists()


def test_an_override_of_the_game_is_refused_on_the_overrides():
    tournament = TournamentFactory(game="tractor", rule_profile="tractor-3deck")
    with pytest.raises(UserError) as caught:
        stage_create(
            tournament=tournament, name="预赛", format="swiss", rule_overrides={"game": "guandan", "a_failure_limit": 3}
        )
    assert list(caught.value.fields) == ["rule_overrides"]
    assert not Stage.objects.filter(tournament=tournament).exists()


def test_a_profile_of_the_tournaments_game_is_accepted():
    tournament = TournamentFactory(game="tractor", rule_profile="tractor-3deck")
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    assert rules_for_stage(stage).game is Game.TRACTOR
    guandan = TournamentFactory(game="guandan", rule_profile="timed-40")
    assert rules_for_stage(stage_create(tournament=guandan, name="决赛", format="knockout")).game is Game.GUANDAN


@pytest.mark.parametrize(("game", "profile"), [("tractor", "tractor-3deck"), ("doudizhu", "doudizhu")])
def test_the_game_is_stored_once_on_the_tournament_and_the_stage_rules_are_read_with_it(game: str, profile: str):
    """ "Which game" has one stored answer, ``Tournament.game``: a stage's stored rules do not hold it
    (a Tractor or Dou Dizhu stage is not read back as Guandan's, the old default), and the rules a page
    shows still start with the event's game."""
    tournament = TournamentFactory(game=game, rule_profile=profile)
    stage = stage_create(tournament=tournament, name="预赛", format="points" if game == "doudizhu" else "swiss")
    stored = Stage.objects.select_related("tournament").get(pk=stage.pk)
    assert "game" not in stored.rules
    assert rules_for_stage(stored) == options_for(profile=profile)
    assert stage_rules_lines(stored)[0] == RuleLine(name="game", value=game, changed=False)


def test_the_stage_form_shows_the_refusal_on_the_profile_field():
    boss = organiser()
    tournament = TournamentFactory(game="guandan", rule_profile="timed-40")
    tournament.organisers.add(boss)
    client = english_client()
    client.force_login(boss)
    response = client.post(
        reverse("draw:stages", args=[tournament.pk]),
        {"name": "Preliminaries", "format": "swiss", "department_rounds": 0, "rule_profile": "tractor-3deck"},
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    # Another game's profile is not offered, and a posted one is refused on its field.
    assert "rule_profile" in errors and "tractor-3deck" in errors["rule_profile"][0]
    assert 'value="tractor-3deck"' not in response.content.decode()
    assert not Stage.objects.filter(tournament=tournament).exists()
