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
