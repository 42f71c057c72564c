"""Integers past a column's range and numbers that are not numbers: a field error or a
400, never a 500, and nothing written; every integer column has a check constraint of its range."""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import PairFactory, TournamentFactory, english_client, organiser, referee, table_match
from tournament.bounds import INT_MAX, column_range
from tournament.matches.models import Match, Table
from tournament.registration.models import Pair

pytestmark = pytest.mark.django_db

PAST = [2**31, 10**20]


def _integer_fields():
    for model in apps.get_models():
        if not model.__module__.startswith("tournament.") or model.__name__.startswith("Historical"):
            continue
        for field in model._meta.concrete_fields:
            if isinstance(field, models.IntegerField) and not field.primary_key and not field.is_relation:
                yield model, field


INTEGER_FIELDS = list(_integer_fields())


def test_every_integer_field_is_found():
    names = {f"{model.__name__}.{field.name}" for model, field in INTEGER_FIELDS}
    assert {"Pair.seed", "Table.number", "Match.version", "Adjustment.points"} <= names


@pytest.mark.parametrize(("model", "field"), INTEGER_FIELDS, ids=[f"{m.__name__}.{f.name}" for m, f in INTEGER_FIELDS])
def test_every_integer_column_has_a_check_constraint_of_its_range(model, field):
    """The database refuses what PostgreSQL's column type would (SQLite would store 64 bits)."""
    low, high = column_range(model, field.name)
    name = f"{_prefix(model)}_{field.name}_in_range"
    (check,) = [c for c in model._meta.constraints if c.name == name]
    instance = model()
    setattr(instance, field.name, high)
    check.validate(model, instance)
    if high >= 2**63 - 1:
        return  # a 64-bit column: no database (nor SQLite's driver) takes more, the type refuses it
    setattr(instance, field.name, high + 1)
    with pytest.raises(ValidationError):
        check.validate(model, instance)
    setattr(instance, field.name, low - 1)
    with pytest.raises(ValidationError):
        check.validate(model, instance)


def _prefix(model):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", model.__name__).lower()


@pytest.fixture
def boss():
    return organiser(username="boss")


@pytest.fixture
def event(boss):
    tournament = TournamentFactory()
    tournament.organisers.add(boss)
    return tournament


@pytest.mark.parametrize("seed", PAST)
def test_a_pair_seed_past_the_column_is_a_field_error_and_nothing_is_written(boss, event, seed):
    client = english_client()
    client.force_login(boss)
    data = {"first_name": "张伟", "second_name": "李娜", "seed": str(seed)}
    response = client.post(reverse("registration:pairs", args=[event.pk]), data)
    assert response.status_code == 200
    assert "seed" in response.context["form"].errors
    assert not Pair.objects.exists()


@pytest.mark.parametrize("seed", [*PAST, "³"])
def test_a_pair_edit_with_a_seed_past_the_column_changes_nothing(boss, event, seed):
    pair = PairFactory(tournament=event, seed=3)
    client = english_client()
    client.force_login(boss)
    url = reverse("registration:pair_edit", args=[event.pk, pair.pk])
    response = client.post(url, {"first_name": "张伟", "second_name": "李娜", "seed": str(seed)})
    assert response.status_code in (200, 400)
    assert Pair.objects.get(pk=pair.pk).seed == 3


@pytest.mark.parametrize("last", [INT_MAX + 1, 10**20])
def test_tables_numbered_past_the_column_are_a_field_error(boss, event, last):
    client = english_client()
    client.force_login(boss)
    response = client.post(reverse("draw:tables", args=[event.pk]), {"first": INT_MAX - 1, "last": last, "area": "A"})
    assert response.status_code in (200, 400)
    assert not Table.objects.filter(tournament=event).exists()


def test_the_last_table_number_the_column_holds_is_accepted(boss, event):
    client = english_client()
    client.force_login(boss)
    client.post(reverse("draw:tables", args=[event.pk]), {"first": INT_MAX, "last": INT_MAX, "area": "A"})
    assert list(Table.objects.filter(tournament=event).values_list("number", flat=True)) == [INT_MAX]


@pytest.mark.parametrize("round_param", ["³", "٣", "1_0", " 1", "-1", "abc", str(10**20)])
def test_the_round_query_parameter_must_be_a_number_in_range(round_param):
    boss = organiser(username="chief")
    match = table_match(organiser_user=boss)
    client = APIClient()
    client.force_authenticate(boss)
    response = client.get(reverse("api:my_tables"), {"round": round_param})
    assert response.status_code == 400
    assert response.data["error"]["code"] == "bad_input" and "round" in response.data["error"]["message"]
    good = client.get(reverse("api:my_tables"), {"round": str(match.round_id)})
    assert good.status_code == 200 and [row["id"] for row in good.data["results"]] == [match.pk]


@pytest.mark.parametrize("level", ["³", "٣", "²"])
def test_a_card_level_that_is_a_unicode_digit_is_bad_level(level):
    client = APIClient()
    client.force_authenticate(referee(username="ref"))
    response = client.post(reverse("api:cards_classify"), {"cards": "AS", "level": level}, format="json")
    assert response.status_code == 400
    assert response.data["error"]["code"] == "bad_level"


@pytest.mark.parametrize("version", [2**31, 10**20])
def test_an_expected_version_past_the_column_is_bad_input(version):
    ref = referee(username="ref")
    match = table_match(referee_user=ref)
    client = APIClient()
    client.force_authenticate(ref)
    body = {"order": ["N", "S"], "expected_version": version}
    response = client.post(reverse("api:deals", args=[match.pk]), body, format="json")
    assert response.status_code == 400 and response.data["error"]["code"] == "bad_input"
    assert Match.objects.get(pk=match.pk).version == 0


@pytest.mark.parametrize("match_id", [2**31, 2**63, 10**20])
def test_a_match_id_past_any_column_is_404(match_id):
    client = APIClient()
    client.force_authenticate(referee(username="ref"))
    assert client.get(f"/api/matches/{match_id}/").status_code == 404
