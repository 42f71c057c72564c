"""A Dou Dizhu table's entry page shows the profile's table conduct (docs/rules.md §7)."""

from __future__ import annotations

from django.urls import reverse

from scoring.conduct import table_conduct


def test_the_table_entry_page_shows_the_conduct(client, ref, table):
    client.force_login(ref)
    html = client.get(reverse("matches:match", args=[table.pk])).content.decode()
    for line in table_conduct("doudizhu").lines:
        assert line.zh in html
