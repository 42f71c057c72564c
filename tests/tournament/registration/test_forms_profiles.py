"""The create form offers the profiles of the games this site runs events of."""

import pytest

from tournament.registration.forms import profile_choices
from tournament.registration.models import Game


def test_the_form_offers_the_profiles_of_the_games_with_events():
    from scoring.profiles import PROFILES

    names = [name for name, _label in profile_choices()]
    assert "timed-40" in names and "tractor-3deck" in names
    assert all(PROFILES[name].game.value in Game.values for name in names)
    assert "doudizhu" in names  # Dou Dizhu's pages exist (issue 20): its profile is offered


@pytest.mark.django_db
def test_an_organiser_creates_a_dou_dizhu_event_with_the_form(client):
    from django.urls import reverse

    from tests.factories import organiser
    from tournament.registration.models import Tournament

    client.force_login(organiser(username="maker"))
    url = reverse("registration:tournament_create")
    assert "斗地主" in client.get(url).content.decode()
    mismatch = client.post(url, {"name": "错配", "game": "doudizhu", "rule_profile": "timed-40"})
    assert mismatch.status_code == 200 and not Tournament.objects.filter(name="错配").exists()
    answer = client.post(url, {"name": "斗地主个人赛", "game": "doudizhu", "rule_profile": "doudizhu"})
    assert answer.status_code == 302
    assert Tournament.objects.get(name="斗地主个人赛").entry.individual
