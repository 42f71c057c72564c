"""The calendar feeds (docs/rules.md §12.2): per event and per pair, parsed back with ``icalendar``."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse
from icalendar import Calendar

from tests.factories import english_client
from tests.tournament.matches.test_deadlines import FRIDAY, MONDAY, knockout_of_eight, played
from tournament.matches.deadlines import match_deadline_extend, round_open_self_scheduled
from tournament.matches.models import Round
from tournament.registration.models import TournamentStatus

pytestmark = pytest.mark.django_db
SHANGHAI = ZoneInfo("Asia/Shanghai")


def events(response) -> list:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(response.content)
    assert calendar["version"] == "2.0"
    return list(calendar.walk("VEVENT"))


def test_the_event_and_a_pairs_calendar_hold_the_deadlines_and_sessions():
    tournament, _stage, round_ = knockout_of_eight()
    tournament.status = TournamentStatus.RUNNING
    tournament.venue = "三楼活动室"
    tournament.save()
    with time_machine.travel(MONDAY, tick=False):
        round_open_self_scheduled(round_id=round_.pk, deadline=FRIDAY)
        first, second = played(round_)[:2]
        sunday = FRIDAY + timedelta(days=2)
        match_deadline_extend(match_id=second.pk, deadline=sunday, reason="出差")
    # the later rounds are played together on one day: a session planned (a draft is not published)
    session = datetime(2026, 3, 14, 9, 30, tzinfo=SHANGHAI)
    Round.objects.create(stage=round_.stage, number=2, status="published", scheduled_at=session, time_cap_minutes=90)
    Round.objects.create(stage=round_.stage, number=3, status="draft", scheduled_at=session + timedelta(hours=3))
    client = english_client()

    found = events(client.get(reverse("standings:calendar", args=[tournament.pk])))
    by_uid = {str(event["uid"]): event for event in found}
    assert len(by_uid) == 2  # round 1's deadline and round 2's session; the draft is not published
    deadline = by_uid[f"t{tournament.pk}-round-{round_.pk}-deadline@guandan"]
    assert deadline.decoded("dtstart") == FRIDAY
    assert deadline.decoded("dtstart").tzinfo.key == "Asia/Shanghai"
    assert str(deadline["location"]) == "三楼活动室"
    assert deadline.walk("VALARM")[0].decoded("trigger") == timedelta(days=-1)
    sessions = [event for uid, event in by_uid.items() if uid.endswith("-session@guandan")]
    assert [(event.decoded("dtstart"), event.decoded("dtend")) for event in sessions] == [
        (session, session + timedelta(minutes=90))
    ]

    # the pair of match 2 sees its own, extended deadline and its opponents; match 1's pair the round's
    for match, expected in ((first, FRIDAY), (second, sunday)):
        url = reverse("standings:pair_calendar", args=[tournament.pk, match.ns_pair_id])
        found = events(client.get(url))
        deadlines = [event for event in found if str(event["uid"]).endswith("-deadline@guandan")]
        assert [event.decoded("dtstart") for event in deadlines] == [expected]
        assert match.ew_pair.name in str(deadlines[0]["description"])
    # the same feed read twice keeps its entries' identities (a phone updates, never doubles them)
    again = events(client.get(reverse("standings:calendar", args=[tournament.pk])))
    assert {str(event["uid"]) for event in again} == set(by_uid)


def test_a_drafts_calendar_and_another_events_pair_are_not_found():
    tournament, _stage, round_ = knockout_of_eight()
    tournament.status = TournamentStatus.DRAFT
    tournament.save()
    client = english_client()
    assert client.get(reverse("standings:calendar", args=[tournament.pk])).status_code == 404
    other, _stage, _other_round = knockout_of_eight()
    other.status = TournamentStatus.RUNNING
    other.save()
    pair = played(round_)[0].ns_pair_id
    assert client.get(reverse("standings:pair_calendar", args=[other.pk, pair])).status_code == 404
    assert client.get(reverse("standings:calendar", args=[other.pk])).status_code == 200
