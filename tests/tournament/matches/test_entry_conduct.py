"""The entry page shows the table conduct text (docs/rules.md §7) the table sheet prints: the rules core's
one text for the stage's profile, Chinese first."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from scoring.conduct import table_conduct
from tests.factories import referee, table_match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("profile", ["timed-40", "tractor-3deck"])
def test_the_entry_page_shows_the_profiles_conduct(client, profile):
    ref = referee(username="ref")
    match = table_match(profile=profile, referee_user=ref)
    client.force_login(ref)
    html = unescape(client.get(reverse("matches:match", args=[match.pk])).content.decode())
    conduct = table_conduct(profile)
    assert '<details class="card conduct">' in html
    for line in conduct.lines:
        assert line.zh in html and line.en in html
    assert html.index(conduct.lines[0].zh) < html.index(conduct.lines[0].en)
