"""A team's seed (docs/rules.md §4, §11): set and cleared by the organiser through one service (audited),
held by the database (a positive whole number, unique in the event), and every bad value refused with a
clear message and nothing changed — from the service and from the teams page."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse

from tests.factories import PairFactory, TournamentFactory, organiser
from tournament.errors import UserError
from tournament.registration.models import Team
from tournament.registration.teams import TEAM_SEED_MAX, team_create, team_seed_set

pytestmark = pytest.mark.django_db


def _teams(event, count=2):
    pairs = [PairFactory(tournament=event) for _ in range(2 * count)]
    return [team_create(tournament=event, name=f"队{n + 1}", pairs=pairs[2 * n : 2 * n + 2]) for n in range(count)]


def _seeds(event):
    return dict(Team.objects.filter(tournament=event).values_list("name", "seed"))


def test_a_seed_is_set_cleared_and_audited():
    event = TournamentFactory()
    first, second = _teams(event)
    boss = organiser(username="seeder")
    team_seed_set(team=first, seed=2, user=boss)
    team_seed_set(team=second, seed=1, user=boss)
    assert _seeds(event) == {"队1": 2, "队2": 1}
    team_seed_set(team=first, seed=None, user=boss)
    team_seed_set(team=second, seed=2, user=boss)  # a seed given up is free again
    assert _seeds(event) == {"队1": None, "队2": 2}
    history = list(Team.history.filter(id=first.pk).order_by("history_id").values_list("seed", "history_user_id"))
    assert history[-2:] == [(2, boss.pk), (None, boss.pk)]


@pytest.mark.parametrize("seed", [0, -1, TEAM_SEED_MAX + 1, True, "1", 1.5])
def test_a_seed_that_is_not_a_whole_number_from_one_is_refused_and_nothing_changes(seed):
    event = TournamentFactory()
    (team, _other) = _teams(event)
    team_seed_set(team=team, seed=3)
    with pytest.raises(UserError) as refused:
        team_seed_set(team=team, seed=seed)
    assert refused.value.code == "bad_input" and "seed" in (refused.value.fields or {})
    assert "whole number from 1" in refused.value.message
    assert Team.objects.get(pk=team.pk).seed == 3


def test_a_seed_another_team_holds_is_refused_by_name_and_nothing_changes():
    event = TournamentFactory()
    first, second = _teams(event)
    team_seed_set(team=first, seed=1)
    with pytest.raises(UserError) as refused:
        team_seed_set(team=second, seed=1)
    assert (refused.value.code, refused.value.status) == ("team_seed_taken", 409)
    assert "队1" in refused.value.message
    assert _seeds(event) == {"队1": 1, "队2": None}
    team_seed_set(team=first, seed=1)  # its own seed again: nothing to refuse
    other_event = TournamentFactory()
    (elsewhere, _) = _teams(other_event)
    team_seed_set(team=elsewhere, seed=1)  # seeds are unique per event only
    assert Team.objects.get(pk=elsewhere.pk).seed == 1


def test_the_database_holds_a_positive_seed_unique_in_the_event():
    event = TournamentFactory()
    first, second = _teams(event)
    Team.objects.filter(pk=first.pk).update(seed=4)
    with pytest.raises(IntegrityError), transaction.atomic():
        Team.objects.filter(pk=second.pk).update(seed=4)
    with pytest.raises(IntegrityError), transaction.atomic():
        Team.objects.filter(pk=second.pk).update(seed=0)
    Team.objects.filter(pk=second.pk).update(seed=None)  # many teams without a seed
    Team.objects.filter(pk=first.pk).update(seed=None)
    assert _seeds(event) == {"队1": None, "队2": None}


@pytest.fixture
def boss_client(client):
    boss = organiser(username="boss")
    client.force_login(boss)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client, boss


def test_the_teams_page_sets_a_seed_and_shows_a_refusal_without_changing_anything(boss_client):
    client, boss = boss_client
    event = TournamentFactory()
    event.organisers.add(boss)
    first, second = _teams(event)
    url = reverse("registration:team_seed_set", args=[event.pk, first.pk])
    response = client.post(url, {"seed": "1"}, follow=True)
    page = response.content.decode()
    assert "队1 is seed 1." in page and 'class="badge team-seed">Seed 1<' in page
    assert f'id="seed-{first.pk}"' in page and 'value="1"' in page
    for bad, words in (("0", "greater than or equal to 1"), ("x", "Enter a whole number"), ("1", "already 队1")):
        other = reverse("registration:team_seed_set", args=[event.pk, second.pk])
        page = client.post(other, {"seed": bad}, follow=True).content.decode()
        assert words in page
    assert _seeds(event) == {"队1": 1, "队2": None}
    page = client.post(url, {"seed": ""}, follow=True).content.decode()
    assert "队1 has no seed." in page
    assert _seeds(event) == {"队1": None, "队2": None}
    stranger = reverse("registration:team_seed_set", args=[TournamentFactory().pk, first.pk])
    assert client.post(stranger, {"seed": "2"}).status_code in (403, 404)
    assert _seeds(event) == {"队1": None, "队2": None}
