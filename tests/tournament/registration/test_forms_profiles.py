"""The create form offers the profiles of the games this site runs events of."""

from tournament.registration.forms import profile_choices
from tournament.registration.models import Game


def test_the_form_offers_no_profile_of_a_game_without_events():
    from scoring.profiles import PROFILES

    names = [name for name, _label in profile_choices()]
    assert "timed-40" in names and "tractor-3deck" in names
    assert all(PROFILES[name].game.value in Game.values for name in names)
    assert "doudizhu" not in names


def test_the_profiles_are_offered_by_their_titles_not_their_code_names():
    from django.utils import translation

    for language in ("zh-hans", "en"):
        with translation.override(language):
            for name, label in profile_choices():
                assert name not in label  # "timed-40" is the program's word, not the organiser's
                assert label.strip()
