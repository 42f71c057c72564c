"""The organiser's pages of a big event: the pair list, the round page and the round's
referees come in pages, and what a page costs does not grow with the pairs."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from tests.factories import english_client, organiser
from tests.tournament.standings.events import swiss_event

pytestmark = pytest.mark.django_db


def _pages(event) -> dict[str, str]:
    t = event.tournament.pk
    return {
        "pairs": reverse("registration:pairs", args=[t]),
        "round": reverse("draw:round", args=[t, event.second.pk]),
        "referees": reverse("draw:referees", args=[t, event.second.pk]),
        "clock": reverse("matches:round_clock", args=[t, event.second.pk]),
    }


def _counting(log: list[str]):
    def wrapper(execute, sql, *args):
        log.append(sql)
        return execute(sql, *args)

    return wrapper


def _costs(pairs: int, name: str) -> dict[str, int]:
    event = swiss_event(pairs=pairs, name=name)
    boss = organiser(username=f"boss{pairs}")
    event.tournament.organisers.add(boss)
    client = english_client()
    client.force_login(boss)
    costs = {}
    for page, url in _pages(event).items():
        client.get(url)  # the session, the caches
        # counted at the cursor: the test client's request_started clears CaptureQueriesContext's log
        queries: list[str] = []
        with connection.execute_wrapper(_counting(queries)):
            assert client.get(url).status_code == 200
        assert queries  # a page that reads nothing would make the comparison empty
        costs[page] = len(queries)
    return costs


def test_the_organiser_pages_cost_the_same_for_8_or_40_pairs():
    assert _costs(40, "大赛") == _costs(8, "小赛")


def test_the_pair_list_is_paged_and_searched(client):
    from tournament.registration.selectors import PAIR_PAGE_SIZE

    event = swiss_event(pairs=8)
    boss = organiser(username="boss")
    event.tournament.organisers.add(boss)
    client = english_client()
    client.force_login(boss)
    url = reverse("registration:pairs", args=[event.tournament.pk])
    html = client.get(url).content.decode()
    assert "8 pairs" in html and "Page 1 of" not in html  # one page: no pager
    assert PAIR_PAGE_SIZE == 100
    wanted, other = (pair.members.order_by("slot").first().player for pair in event.pairs[3:5])
    html = client.get(url, {"q": wanted.employee_number}).content.decode()
    assert "1 pair" in html and wanted.name in html and other.name not in html
    assert "No pair matches." in client.get(url, {"q": "nobody-like-this"}).content.decode()
