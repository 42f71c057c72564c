"""The entry page shows the table conduct text (docs/rules.md §7) the table sheet prints: the rules core's
one text for the stage's profile, in the page's language only (a page speaks one language)."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from scoring.conduct import table_conduct
from tests.factories import english_client, referee, table_match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("profile", ["timed-40", "tractor-3deck"])
def test_the_entry_page_shows_the_profiles_conduct(client, profile):
    ref = referee(username="ref")
    match = table_match(profile=profile, referee_user=ref)
    client.force_login(ref)
    html = unescape(client.get(reverse("matches:match", args=[match.pk])).content.decode())
    conduct = table_conduct(profile)
    assert '<details class="card conduct">' in html
    assert "牌桌规范" in html and "Table conduct" not in html
    for line in conduct.lines:
        assert line.zh in html and line.en not in html
    english = english_client()
    english.force_login(ref)
    page = unescape(english.get(reverse("matches:match", args=[match.pk])).content.decode())
    assert "Table conduct" in page and "牌桌规范" not in page
    for line in conduct.lines:
        assert line.en in page and line.zh not in page


def test_a_tapped_seat_swaps_the_entry_alone_so_the_conduct_stays_one(client):
    """Each tap answers ``?panel=entry`` swapped over ``#entry``: the entry alone. With the conduct in
    it, every tap added one more 牌桌规范 below the entry (three after the two taps of a deal)."""
    ref = referee(username="ref")
    match = table_match(profile="timed-40", referee_user=ref)
    client.force_login(ref)
    url = reverse("matches:match", args=[match.pk])
    panel = client.get(url, {"order": "N", "panel": "entry"}, headers={"HX-Request": "true"}).content.decode()
    assert panel.lstrip().startswith('<section id="entry"') and "conduct" not in panel
    assert client.get(url).content.decode().count('<details class="card conduct">') == 1
