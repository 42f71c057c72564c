"""A stage stores the rules in force when it is created, keeps them, and its pages show them."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from scoring.profiles import options_for
from tests.factories import TournamentFactory, english_client, organiser
from tournament.draw.stages import stage_create
from tournament.games.shown_rules import stage_rules_lines
from tournament.matches.models import Stage
from tournament.rules import rules_for_stage

pytestmark = pytest.mark.django_db


def test_a_stage_stores_its_profile_with_the_tournaments_and_its_own_overrides():
    tournament = TournamentFactory(rule_profile="timed-90", rule_overrides={"time_cap_minutes": 60})
    stage = stage_create(
        tournament=tournament, name="决赛", format="knockout", rule_overrides={"format": "best_of", "games": 3}
    )
    expected = options_for(profile="timed-90", overrides={"time_cap_minutes": 60, "format": "best_of", "games": 3})
    assert stage.rules == expected.to_stored()
    assert rules_for_stage(Stage.objects.get(pk=stage.pk)) == expected


def test_the_stored_rules_are_the_ones_in_force_whatever_the_chosen_profile_says_later():
    tournament = TournamentFactory(rule_profile="timed-40")
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    tournament.rule_profile = "classic"  # what the organiser chose is not read again
    tournament.rule_overrides = {"time_cap_minutes": 90}
    tournament.save()
    stage = Stage.objects.select_related("tournament").get(pk=stage.pk)
    rules = rules_for_stage(stage)
    assert (rules.time_cap_minutes, rules.upgrades) == (40, (5, 3, 1))


def test_a_stage_without_stored_rules_is_refused_by_the_database():
    tournament = TournamentFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Stage.objects.create(tournament=tournament, name="x", format="swiss", order=9)


def test_the_lines_shown_mark_what_differs_from_the_profile():
    tournament = TournamentFactory(rule_profile="timed-90")
    stage = stage_create(tournament=tournament, name="预赛", format="swiss", rule_overrides={"time_cap_minutes": 60})
    lines = {line.name: line for line in stage_rules_lines(stage)}
    assert lines["time_cap_minutes"].value == 60 and lines["time_cap_minutes"].changed
    assert lines["a_pass"].value == "side_not_last" and not lines["a_pass"].changed
    assert "points_table" not in lines  # a level game has no points table
    # a stage that kept an older definition of its profile shows the difference too
    stage.rules = {**stage.rules, "a_pass": "top_and_partner_not_last"}
    lines = {line.name: line for line in stage_rules_lines(stage)}
    assert lines["a_pass"].changed


def test_the_organisers_stage_page_and_the_public_pages_show_the_rules_by_title():
    boss = organiser(username="boss")
    tournament = TournamentFactory(rule_profile="timed-40")
    tournament.organisers.add(boss)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss", rule_overrides={"time_cap_minutes": 45})
    client = english_client()
    client.force_login(boss)
    html = client.get(reverse("draw:stage", args=[tournament.pk, stage.pk])).content.decode()
    assert "40-minute cap" in html and "Seed 002" in html and "timed-40" not in html
    assert "45 minutes" in html and "changed from the profile" in html
    assert "+5 / +3 / +1" in html
    public = english_client().get(reverse("standings:stage_standings", args=[tournament.pk, stage.pk]))
    assert "Seed 002" in public.content.decode() and "45 minutes" in public.content.decode()
    home = client.get(reverse("standings:tournament", args=[tournament.pk]))
    assert home.status_code == 200 and "Seed 002" in home.content.decode()
