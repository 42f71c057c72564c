"""One match page for every game; the game's entry (``tournament.games``) decides the form."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import english_client, referee, table_match
from tournament.games import GUANDAN, TRACTOR
from tournament.matches.models import Deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def ref():
    return referee()


def _client(ref):
    client = english_client()
    client.force_login(ref)
    return client


@pytest.mark.parametrize(("profile", "entry"), [("timed-40", GUANDAN), ("tractor-3deck", TRACTOR)])
def test_a_deal_that_does_not_validate_is_refused_with_the_games_message(ref, profile, entry):
    match = table_match(profile=profile, referee_user=ref)
    client = _client(ref)
    response = client.post(reverse("matches:deal_create", args=[match.pk]), {entry.bound_by: "N", "version": 0})
    assert response.status_code == 400
    assert response.context["game"] is entry
    assert str(entry.invalid_entry) in response.content.decode()
    assert not Deal.objects.exists()


def test_a_guandan_page_has_the_taps_and_the_card_rulings_a_tractor_page_neither(ref):
    guandan, tractor = (table_match(profile=p, referee_user=ref) for p in ("timed-40", "tractor-3deck"))
    client = _client(ref)
    body = client.get(reverse("matches:match", args=[guandan.pk])).content.decode()
    assert "seat-grid" in body and f'{reverse("matches:card_dispute")}?match={guandan.pk}' in body
    assert "A fails" in body
    body = client.get(reverse("matches:match", args=[tractor.pk])).content.decode()
    assert "seat-grid" not in body and f'{reverse("matches:card_dispute")}?match={tractor.pk}' not in body
    assert "A fails" not in body
    assert 'name="defender_points"' in body
