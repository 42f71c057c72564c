"""The event's settings page (``matches.event_views``): its form edits the event and shows the rules'
lock; the event's days and time zone survive a save in either language (a date input holds an ISO date,
whatever the page's language writes dates as elsewhere); the delete page asks for the name."""

from __future__ import annotations

import datetime
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.factories import RoundFactory, StageFactory, TournamentFactory, organiser
from tournament.matches.models import RoundStatus
from tournament.registration.forms import COMMON_TIME_ZONES
from tournament.registration.lifecycle import time_zone_names
from tournament.registration.models import Tournament, TournamentStatus

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


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_event_settings_set_the_time_zone(client, language):
    boss = organiser(username="boss")
    client.force_login(boss)
    tournament = TournamentFactory()
    tournament.organisers.add(boss)
    client.get(f"/language/{language}/")
    url = reverse("matches:event", args=[tournament.pk])

    reader = _FormReader()
    reader.feed(client.get(url).content.decode())
    assert reader.values["time_zone"] == "Asia/Shanghai"  # the event's, selected

    response = client.post(url, {**reader.values, "time_zone": "Europe/Berlin"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.time_zone == "Europe/Berlin"
    assert tournament.history.first().history_change_reason == "event edited"


@pytest.mark.parametrize(("language", "message"), [("zh-hans", "选择一个有效的选项"), ("en", "Select a valid choice")])
@pytest.mark.parametrize("zone", ["Mars/Olympus", "", "../etc/passwd", "asia/shanghai"])
def test_a_time_zone_not_in_the_list_is_a_field_error_and_changes_nothing(client, language, message, zone):
    boss = organiser(username="boss")
    client.force_login(boss)
    tournament = TournamentFactory(venue="一楼")
    tournament.organisers.add(boss)
    client.get(f"/language/{language}/")
    url = reverse("matches:event", args=[tournament.pk])
    reader = _FormReader()
    reader.feed(client.get(url).content.decode())

    response = client.post(url, {**reader.values, "venue": "三楼", "time_zone": zone})
    tournament.refresh_from_db()
    if zone == "":  # not sent: unchanged, the rest saved
        assert response.status_code == 302
        assert (tournament.time_zone, tournament.venue) == ("Asia/Shanghai", "三楼")
        return
    assert response.status_code == 200
    assert response.context["form"].errors["time_zone"]
    assert message in response.content.decode()
    assert (tournament.time_zone, tournament.venue) == ("Asia/Shanghai", "一楼")


@pytest.mark.parametrize(
    ("language", "groups"), [("zh-hans", ["常用时区", "全部时区"]), ("en", ["Common time zones", "Every time zone"])]
)
@pytest.mark.parametrize("zone", ["Asia/Shanghai", "Europe/Paris"])
def test_the_time_zone_select_offers_the_common_zones_first(client, language, groups, zone):
    """China's zone first, then the zones nearby and abroad, then every zone; the event's selected
    once (in the common group when it is one), the page's language on the groups, English on the
    zones' names; a locked (archived) event's select is disabled like the rest of the form."""
    boss = organiser(username="boss")
    client.force_login(boss)
    tournament = TournamentFactory(time_zone=zone)
    tournament.organisers.add(boss)
    client.get(f"/language/{language}/")
    url = reverse("matches:event", args=[tournament.pk])
    page = client.get(url).content.decode()
    select = re.search(r'<select name="time_zone"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None
    labels = re.findall(r'<optgroup label="([^"]+)">', select.group(1))
    assert labels == groups
    common, every = select.group(1).split("</optgroup>")[:2]
    values = re.findall(r'<option value="([^"]+)" lang="en"', common)
    assert values[:4] == ["Asia/Shanghai", "Asia/Hong_Kong", "Asia/Taipei", "Asia/Macau"]
    assert len(re.findall(r'<option value="[^"]+" lang="en"', every)) == len(time_zone_names())
    chosen = re.findall(r'<option value="([^"]+)" lang="en" selected>', select.group(1))
    assert chosen == [zone]
    assert (f'value="{zone}" lang="en" selected' in common) == (zone in COMMON_TIME_ZONES)
    reader = _FormReader()
    reader.feed(page)
    assert reader.values["time_zone"] == zone

    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.ARCHIVED)
    archived = client.get(url).content.decode()
    assert re.search(r'<select name="time_zone"[^>]* disabled', archived)


def test_pages_edit_the_event_and_show_the_lock(client):
    boss = organiser(username="boss")
    client.force_login(boss)
    tournament = TournamentFactory()
    tournament.organisers.add(boss)
    url = reverse("matches:event", kwargs={"tournament_id": tournament.pk})
    response = client.post(
        url, {"name": "春季赛", "venue": "", "rule_profile": "timed-40", "time_cap_minutes": "45", "time_up_tie": ""}
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.name == "春季赛" and tournament.rule_overrides == {"time_cap_minutes": 45}
    RoundFactory(stage=StageFactory(tournament=tournament), status=RoundStatus.DRAFT)
    page = client.get(url).content.decode()
    assert "规则已锁定" in page
    client.post(url, {"name": "春季赛", "rule_profile": "timed-40", "time_cap_minutes": "90"})
    assert Tournament.objects.get(pk=tournament.pk).rule_overrides == {"time_cap_minutes": 45}


def test_delete_page_asks_for_the_name(client):
    boss = organiser(username="boss")
    client.force_login(boss)
    tournament = TournamentFactory(name="测试赛")
    tournament.organisers.add(boss)
    url = reverse("matches:event_delete", kwargs={"tournament_id": tournament.pk})
    assert client.post(url, {"name": "别的"}).status_code == 400
    assert Tournament.objects.filter(pk=tournament.pk).exists()
    assert client.post(url, {"name": "测试赛"}).status_code == 302
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
