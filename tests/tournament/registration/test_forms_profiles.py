"""The create form offers the profiles of the games this site runs events of."""

import pytest

from tournament.games import PLAYERS
from tournament.registration.forms import profile_choices
from tournament.registration.models import Game


def test_the_form_offers_the_profiles_of_the_games_with_events():
    from scoring.profiles import PROFILES

    names = [name for name, _label in profile_choices()]
    assert "timed-40" in names and "tractor-3deck" in names
    assert all(PROFILES[name].game.value in Game.values for name in names)
    assert "doudizhu" in names  # Dou Dizhu's pages exist: its profile is offered


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
    assert Tournament.objects.get(name="斗地主个人赛").entrants is PLAYERS


def test_the_create_form_offers_only_the_chosen_games_profiles_by_their_titles(db):
    """A Tractor event is offered Tractor's profiles, named by their titles, not "(timed-40)"."""
    from django.test import Client
    from django.urls import reverse

    from scoring.profiles import PROFILES
    from tests.factories import organiser
    from tournament.labels import profile_title
    from tournament.registration.models import Tournament

    client = Client()
    client.force_login(organiser(username="boss"))
    page = client.get(reverse("registration:tournament_create") + "?game=tractor")
    choices = page.context["form"].fields["rule_profile"].choices
    assert choices and all(PROFILES[name].game.value == "tractor" for name, _label in choices)
    assert all(label == profile_title(name) and name not in label for name, label in choices)
    assert page.context["form"]["rule_profile"].value() == "tractor-3deck"
    body = page.content.decode()
    assert "(timed-40)" not in body and 'aria-current="page">' in body
    refused = client.post(
        reverse("registration:tournament_create"), {"name": "拖拉机赛", "game": "tractor", "rule_profile": "timed-40"}
    )
    assert refused.status_code == 200 and "rule_profile" in refused.context["form"].errors
    assert not Tournament.objects.exists()
    created = client.post(
        reverse("registration:tournament_create"),
        {"name": "拖拉机赛", "game": "tractor", "rule_profile": "tractor-3deck"},
    )
    assert created.status_code == 302 and Tournament.objects.get().game == "tractor"


def test_the_profiles_are_offered_by_their_titles_not_their_code_names():
    from django.utils import translation

    for language in ("zh-hans", "en"):
        with translation.override(language):
            for name, label in profile_choices():
                assert name not in label  # "timed-40" is the program's word, not the organiser's
                assert label.strip()
