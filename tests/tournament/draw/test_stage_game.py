"""A stage plays its tournament's game; ``stage_create`` refuses rules of another game."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, english_client, organiser
from tournament.draw.stages import stage_create
from tournament.errors import UserError
from tournament.matches.models import Stage

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
    assert stage.rules["game"] == "tractor"
    guandan = TournamentFactory(game="guandan", rule_profile="timed-40")
    assert stage_create(tournament=guandan, name="决赛", format="knockout", rule_profile="classic").rules["game"] == (
        "guandan"
    )


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
