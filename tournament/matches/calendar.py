"""The event's calendar (docs/rules.md §12.2): its rounds, deadlines and scheduled sessions as iCalendar
(RFC 5545, written by the ``icalendar`` library), per event and per pair, for the players' phone calendars.

What is published: every published round — a round under way with its clock (from its start to its
cap), a session planned for a date and time (``Round.scheduled_at``), a self-scheduled round's deadline
(with a reminder the day before) — and, in a pair's calendar, only the rounds it plays, its opponents and
its match's own deadline if the organiser extended it. Times are in the event's time zone (with its
``VTIMEZONE``); each entry keeps one ``UID`` however often the feed is read, so a calendar updates it
rather than adding it again.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Alarm, Calendar, Event

from tournament.labels import round_name
from tournament.matches.deadlines import event_local, match_deadline
from tournament.matches.models import Match, Round, RoundStatus
from tournament.matches.selectors import round_knockout_pairs
from tournament.registration.models import Pair, Tournament

SESSION_MINUTES = 120
"""A planned session's length when its round has no time cap (a calendar entry needs an end)."""


def _calendar(tournament: Tournament, name: str) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", "-//Guandan tournament manager//calendar//ZH")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", tournament.time_zone)
    return calendar


def _event(uid: str, summary: str, start: datetime, *, tournament: Tournament, end: datetime | None = None) -> Event:
    event = Event()
    event.add("uid", f"{uid}@guandan")
    event.add("dtstamp", timezone.now())
    event.add("summary", summary)
    event.add("dtstart", event_local(start, tournament))
    if end is not None and end > start:
        event.add("dtend", event_local(end, tournament))
    if tournament.venue:
        event.add("location", tournament.venue)
    return event


def round_title(round_: Round) -> str:
    """A round as every page names it: its stage, then 决赛 … or 第 N 轮 (``labels.round_name``)."""
    return (
        f"{round_.stage.name} · {round_name(number=round_.number, knockout_pairs=round_knockout_pairs(round_=round_))}"
    )


def _round_events(
    round_: Round, tournament: Tournament, *, prefix: str, deadline: datetime | None, note: str = ""
) -> list[Event]:
    title = f"{tournament.name} · {round_title(round_)}"
    events = []
    if round_.scheduled_at is not None:
        minutes = round_.time_cap_minutes or SESSION_MINUTES
        event = _event(
            f"{prefix}-round-{round_.pk}-session",
            title,
            round_.scheduled_at,
            tournament=tournament,
            end=round_.scheduled_at + timedelta(minutes=minutes),
        )
        if note:
            event.add("description", note)
        events.append(event)
    elif round_.started_at is not None and round_.deadline is None:
        event = _event(
            f"{prefix}-round-{round_.pk}-play", title, round_.started_at, tournament=tournament, end=round_.ends_at
        )
        if note:
            event.add("description", note)
        events.append(event)
    if deadline is not None:
        event = _event(
            f"{prefix}-round-{round_.pk}-deadline",
            _("Deadline: %(round)s") % {"round": title},
            deadline,
            tournament=tournament,
        )
        text = _("Play and report your match by this time; a match not reported is lost by both.")
        event.add("description", f"{note}\n{text}" if note else text)
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", event["summary"])
        alarm.add("trigger", timedelta(days=-1))
        event.add_component(alarm)
        events.append(event)
    return events


def event_calendar(*, tournament: Tournament) -> Calendar:
    """Every published round of the event: sessions, rounds under way, deadlines."""
    calendar = _calendar(tournament, tournament.name)
    rounds = (
        Round.objects.filter(stage__tournament=tournament)
        .exclude(status=RoundStatus.DRAFT)
        .select_related("stage")
        .order_by("stage__order", "number")
    )
    for round_ in rounds:
        for event in _round_events(round_, tournament, prefix=f"t{tournament.pk}", deadline=round_.deadline):
            calendar.add_component(event)
    calendar.add_missing_timezones()
    return calendar


def pair_calendar(*, pair: Pair) -> Calendar:
    """The rounds ``pair`` plays (published), with its opponents and its match's own deadline."""
    tournament = pair.tournament
    calendar = _calendar(tournament, f"{tournament.name} · {pair.name}")
    matches = (
        Match.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair) | Q(seats__pair=pair))
        .exclude(round__status=RoundStatus.DRAFT)
        .select_related("round__stage__tournament", "ns_pair", "ew_pair", "table")
        .distinct()
        .order_by("round__stage__order", "round__number")
    )
    for match in matches:
        if match.is_bye:
            note = _("Bye")
        elif match.ns_pair_id is not None:
            other = match.ew_pair if match.ns_pair_id == pair.pk else match.ns_pair
            note = _("Opponents: %(pair)s") % {"pair": other.name if other else "—"}
        else:
            note = ""
        if match.table is not None:
            table = _("Table %(number)s") % {"number": match.table.number}
            note = f"{note} · {table}" if note else table
        prefix = f"t{tournament.pk}-p{pair.pk}"
        for event in _round_events(match.round, tournament, prefix=prefix, deadline=match_deadline(match), note=note):
            calendar.add_component(event)
    calendar.add_missing_timezones()
    return calendar
