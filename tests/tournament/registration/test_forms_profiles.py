"""The create form offers the profiles of the games this site runs events of."""

from tournament.registration.forms import profile_choices
from tournament.registration.models import Game


def test_the_form_offers_no_profile_of_a_game_without_events():
    from scoring.profiles import PROFILES

    names = [name for name, _label in profile_choices()]
    assert "timed-40" in names and "tractor-3deck" in names
    assert all(PROFILES[name].game.value in Game.values for name in names)
    assert "doudizhu" not in names


def test_the_create_form_offers_only_the_chosen_games_profiles_by_their_titles(db):
    """Issue 17: a Tractor event is offered Tractor's profiles, named by their titles, not "(timed-40)"."""
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
