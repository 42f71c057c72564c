"""The door: every pair listed, those to come first, counts, paging, one query a page."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import PairFactory, TournamentFactory, organiser
from tournament.draw.services import round_draw
from tournament.draw.stages import stage_create
from tournament.errors import UserError
from tournament.registration import services
from tournament.registration.models import PairStatus
from tournament.registration.selectors import checkin_page

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(client):
    boss = organiser(username="boss")
    client.force_login(boss)
    tournament = TournamentFactory()
    tournament.organisers.add(boss)
    return tournament


def test_pairs_still_to_come_are_listed_first_with_the_counts(event):
    pairs = [PairFactory(tournament=event) for _ in range(5)]
    services.pair_check_in(pair=pairs[0])
    services.pair_withdraw(pair=pairs[1])
    page = checkin_page(tournament=event)
    assert [pair.pk for pair in page.pairs] == [pairs[2].pk, pairs[3].pk, pairs[4].pk, pairs[0].pk, pairs[1].pk]
    assert page.counts == {"expected": 4, "checked_in": 1, "withdrawn": 1, "to_come": 3}


def test_search_by_name_employee_number_or_pair_number(event):
    pairs = [PairFactory(tournament=event) for _ in range(3)]
    player = pairs[1].members.get(slot=2).player
    assert [p.pk for p in checkin_page(tournament=event, query=player.name).pairs] == [pairs[1].pk]
    assert [p.pk for p in checkin_page(tournament=event, query=player.employee_number).pairs] == [pairs[1].pk]
    assert pairs[2].pk in [p.pk for p in checkin_page(tournament=event, query=f"#{pairs[2].number}").pairs]
    assert checkin_page(tournament=event, query="没有这个人").pairs == []


def test_pages_hold_at_most_a_page_and_cost_the_same_queries_whatever_the_field(event, client):
    for _ in range(7):
        PairFactory(tournament=event)
    small = checkin_page(tournament=event, per_page=3)
    assert len(small.pairs) == 3 and small.has_next
    last = checkin_page(tournament=event, per_page=3, page=3)
    assert len(last.pairs) == 1 and not last.has_next
    with CaptureQueriesContext(connection) as few:
        checkin_page(tournament=event, per_page=3, page=2)
    for _ in range(60):
        PairFactory(tournament=event)
    with CaptureQueriesContext(connection) as many:
        page = checkin_page(tournament=event, page=1)
        [(pair.name, pair.first_number, pair.get_status_display()) for pair in page.pairs]
    assert len(page.pairs) == 50
    assert len(many) == len(few) == 2  # the page (one query) and the counts


def test_the_page_lists_everyone_without_a_search_and_the_tap_updates_the_counts(event, client):
    pairs = [PairFactory(tournament=event) for _ in range(3)]
    url = reverse("registration:checkin", args=[event.pk])
    html = client.get(url).content.decode()
    assert all(f"#{pair.number}" in html for pair in pairs)
    assert "0</strong> / 3" in html
    response = client.post(reverse("registration:checkin_toggle", args=[event.pk, pairs[0].pk]), HTTP_HX_REQUEST="true")
    row = response.content.decode()
    assert 'hx-swap-oob="true"' in row and "1</strong> / 3" in row
    pairs[0].refresh_from_db()
    assert pairs[0].status == PairStatus.CHECKED_IN
    assert "page=2" not in html  # three pairs: one page
    assert client.get(url, {"page": "x"}).status_code == 200


def test_a_mistaken_check_in_is_undone_until_the_pair_is_drawn(event, client):
    pairs = [PairFactory(tournament=event) for _ in range(4)]
    for pair in pairs:
        services.pair_check_in(pair=pair)
    toggle = reverse("registration:checkin_toggle", args=[event.pk, pairs[0].pk])
    # Before any draw the door's undo puts the pair back to "not arrived"; the button asks first.
    assert "data-confirm" in client.get(reverse("registration:checkin", args=[event.pk])).content.decode()
    client.post(toggle, {"undo": "1"})
    pairs[0].refresh_from_db()
    assert pairs[0].status == PairStatus.REGISTERED
    services.pair_check_in(pair=pairs[0])

    round_draw(stage=stage_create(tournament=event, name="预赛", format="swiss"), seed=1)
    with pytest.raises(UserError) as refused:
        services.pair_check_in(pair=pairs[1], checked_in=False)
    assert refused.value.code == "in_draw"
    row = client.post(toggle, {"undo": "1"}, HTTP_HX_REQUEST="true").content.decode()
    assert "请改为退赛" in row and 'role="alert"' in row
    pairs[0].refresh_from_db()
    assert pairs[0].status == PairStatus.CHECKED_IN
