"""A draft is its organisers', not public: the public API's list leaves it out, and the event page,
every public page (a pair's too) and every public API endpoint answer 404 for it — the home page
already hid it. Once the organiser opens registration, it shows."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import organiser
from tests.tournament.standings.events import swiss_event
from tournament.registration.models import TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft():
    event = swiss_event(pairs=4)
    event.tournament.status = TournamentStatus.DRAFT
    event.tournament.save()  # a save: the public pages' versions move, as an organiser's change would
    return event


def _pages(event) -> list[str]:
    t, pair, match = event.tournament.pk, event.pairs[0].pk, event.first.matches.first().pk
    return [
        reverse("standings:tournament", args=[t]),
        reverse("standings:pair", args=[t, pair]),
        reverse("standings:match", args=[t, match]),
        reverse("standings:draw", args=[t]),
        reverse("standings:standings", args=[t]),
        reverse("standings:find", args=[t]) + "?q=队友",
    ]


def _api(event) -> list[str]:
    t, pair, match = event.tournament.pk, event.pairs[0].pk, event.first.matches.first().pk
    return [
        reverse("api:public:tournament", args=[t]),
        reverse("api:public:pair", args=[t, pair]),
        reverse("api:public:pair_matches", args=[t, pair]),
        reverse("api:public:match", args=[t, match]),
        reverse("api:public:rounds", args=[t]),
        reverse("api:public:draw", args=[t, event.first.pk]),
    ]


def test_a_draft_is_404_on_every_public_page_and_endpoint(client, draft):
    listed = APIClient().get(reverse("api:public:tournaments")).json()
    assert draft.tournament.pk not in [row["id"] for row in listed["results"]]
    for url in _pages(draft):
        assert client.get(url).status_code == 404, url
    for url in _api(draft):
        assert APIClient().get(url).status_code == 404, url


def test_its_organisers_still_open_the_event_page_and_others_do_not_see_it_listed(client, draft):
    boss = organiser(username="boss")
    draft.tournament.organisers.add(boss)
    client.force_login(boss)
    assert client.get(reverse("standings:tournament", args=[draft.tournament.pk])).status_code == 200
    assert draft.tournament.name in client.get("/").content.decode()
    other = organiser(username="other")
    client.force_login(other)
    assert client.get(reverse("standings:tournament", args=[draft.tournament.pk])).status_code == 404
    assert draft.tournament.name not in client.get("/").content.decode()


def test_once_registration_opens_it_is_public(client, draft):
    draft.tournament.status = TournamentStatus.REGISTRATION
    draft.tournament.save()
    for url in _pages(draft):
        assert client.get(url).status_code in (200, 302), url  # the standings redirect to the stage
    for url in _api(draft):
        assert APIClient().get(url).status_code == 200, url
