"""The event's days survive a save in either language: a date input holds an ISO date, whatever the
page's language writes dates as elsewhere."""

from __future__ import annotations

import datetime
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, organiser

pytestmark = pytest.mark.django_db


class _FormReader(HTMLParser):
    """What a browser would send back for the page's event form as it stands (inputs and selects)."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        name = found.get("name")
        if tag == "input" and name and found.get("type") not in {"submit", "checkbox"}:
            self.values[name] = found.get("value") or ""
        elif tag == "input" and name and found.get("type") == "checkbox" and "checked" in found:
            self.values[name] = found.get("value") or "on"
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in found:
            self.values[self._select] = found.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_saving_the_event_settings_keeps_its_days(client, language):
    boss = organiser(username="boss")
    client.force_login(boss)
    tournament = TournamentFactory(starts_on=datetime.date(2026, 12, 3), ends_on=datetime.date(2026, 12, 4))
    tournament.organisers.add(boss)
    client.get(f"/language/{language}/")
    url = reverse("matches:event", args=[tournament.pk])

    reader = _FormReader()
    reader.feed(client.get(url).content.decode())
    assert reader.values["starts_on"] == "2026-12-03"
    assert reader.values["ends_on"] == "2026-12-04"

    response = client.post(url, {**reader.values, "venue": "三楼会议室"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.venue == "三楼会议室"
    assert (tournament.starts_on, tournament.ends_on) == (datetime.date(2026, 12, 3), datetime.date(2026, 12, 4))
