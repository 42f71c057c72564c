"""A season in Chromium (docs/rules.md §12): three events in a series, one of them a knockout whose first
round the organiser opens with a deadline on the round's page. One match is extended on the page before the
deadline; two are not reported by it and are lost by both when the deadline task runs (the clock moved on
with time-machine, as the deadline tests do); the board, the players' reminder, the double forfeits and the
byes they give, the series page with its rating, and the event's .ics and Atom feeds parsed back.

What is not the point (the other two events' play, the series' set-up) goes through the services."""

from __future__ import annotations

import uuid
import xml.etree.ElementTree as ET
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from icalendar import Calendar

from tests.e2e.conftest import PHONE, signed_in
from tests.e2e.language import LANGUAGES, Checked
from tests.factories import TournamentFactory, organiser
from tests.tournament.exports.test_series import LI, WANG, ZHANG, ZHAO, event
from tournament.celery import app
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.exports.series import series_create, series_event_add, series_ratings_rebuild
from tournament.matches import player_entry as pe
from tournament.matches import tasks
from tournament.matches.models import MatchStatus, Round
from tournament.matches.services import deal_record, match_sign_off
from tournament.matches.table_links import table_token
from tournament.registration.models import EntryMode, Pair, PairMember, Player, TournamentStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHANGHAI = ZoneInfo("Asia/Shanghai")
ATOM = "{http://www.w3.org/2005/Atom}"
ZONE = ["Asia/Shanghai"]
"""The event's time zone, set by its organiser, is shown by its IANA name in either language."""


@pytest.fixture(autouse=True)
def celery_eager():
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


def self_scheduled_knockout():
    """Eight pairs (four of the series' known players among them), its first round drawn and published."""
    tournament = TournamentFactory(
        name="午间联赛", rule_profile="timed-40", entry_mode=EntryMode.PLAYERS_OPPONENTS_CONFIRM
    )
    people = [WANG, LI, ZHANG, ZHAO, *[(f"队员{n}", f"30{n:02d}") for n in range(12)]]
    for number in range(1, 9):
        players = people[2 * number - 2 : 2 * number]
        pair = Pair.objects.create(
            tournament=tournament, number=number, seed=number, name="、".join(p[0] for p in players)
        )
        for slot, (name, employee) in enumerate(players, 1):
            player = Player.objects.create(tournament=tournament, name=name, employee_number=employee)
            PairMember.objects.create(pair=pair, player=player, slot=slot)
    stage = stage_create(
        tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed", "seeding": "seeds"}
    )
    round_ = round_publish(round_=round_draw(stage=stage, seed=8))
    tournament.status = TournamentStatus.RUNNING
    tournament.save()
    return tournament, round_


def win(match, side: str = "NS"):
    order = ["N", "S"] if side == "NS" else ["E", "W"]
    match.refresh_from_db()
    while match.status not in (MatchStatus.FINISHED, MatchStatus.CONFIRMED):
        deal_record(match_id=match.pk, outcome={"order": order})
        match.refresh_from_db()
    match_sign_off(match_id=match.pk)


def said(language: str, text: str) -> str:
    with translation.override(language):
        return gettext(text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_season_with_a_self_scheduled_round_in_the_browser(open_page, live_server, language):
    first = event(
        [(WANG, LI), (ZHANG, ("甲", "4001")), (ZHAO, ("乙", "4002")), (("丙", "4003"), ("丁", "4004"))],
        winners=["NS", "NS", "NS"],
    )
    second = event(
        [(WANG, ZHANG), (LI, ("戊", "4005")), (ZHAO, ("己", "4006")), (("庚", "4007"), ("辛", "4008"))],
        winners=["NS", "EW", "NS"],
    )
    tournament, round_ = self_scheduled_knockout()
    series = series_create(name="2026 年度积分")
    for member in (first, second, tournament):
        series_event_add(series=series, tournament=member)
    boss = organiser(username="boss")
    tournament.organisers.add(boss)
    page = open_page(PHONE, language)
    signed_in(page, boss, live_server)
    checked = Checked(page, language, "season")
    reason = "一位选手出差"

    # the organiser opens the round with a deadline three days on, typed in the event's time zone
    deadline_local = (timezone.now().astimezone(SHANGHAI) + timedelta(days=3)).replace(
        hour=18, minute=0, second=0, microsecond=0
    )
    deadline = deadline_local.astimezone(ZoneInfo("UTC"))
    board_url = reverse("matches:round_deadline", args=[tournament.pk, round_.pk])
    checked.visit(board_url, "open", typed=ZONE)
    page.locator("form:has(input[name=action][value=open]) input[name=deadline]").fill(
        deadline_local.strftime("%Y-%m-%dT%H:%M")
    )
    page.locator("form:has(input[name=action][value=open]) button[type=submit]").click()
    page.wait_for_load_state()
    round_.refresh_from_db()
    assert round_.deadline == deadline and round_.status == "running"

    first_m, second_m, third_m, fourth_m = list(round_.matches.filter(ew_pair__isnull=False).order_by("table__number"))
    win(first_m, "NS")  # played and confirmed
    seats = {seat.seat: seat for seat in pe.table_players(match=third_m)}
    pe.deal_claim_enter(  # reported by a player, the opponents never confirm
        match_id=third_m.pk,
        outcome={"order": ["N", "S"]},
        player_id=seats["N"].player.pk,
        number=1,
        idempotency_key=uuid.uuid4().hex,
    )
    # the fourth is not played at all; the second gets two more days, on the page, with a reason
    page.goto(board_url)
    row = page.locator(f"#match-{second_m.pk}")
    row.locator("summary").click()
    row.locator("input[name=deadline]").fill((deadline_local + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"))
    row.locator("input[name=reason]").fill(reason)
    row.locator("button[type=submit]").click()
    page.wait_for_load_state()
    second_m.refresh_from_db()
    assert second_m.deadline == deadline + timedelta(days=2)
    assert second_m.history.first().history_change_reason == reason

    # the board: one confirmed, one reported, two not yet, one of them extended, three days left
    checked.check("board", typed=[reason, *ZONE])
    for match, state in ((first_m, "confirmed"), (second_m, "not_yet"), (third_m, "reported"), (fourth_m, "not_yet")):
        assert page.locator(f"#match-{match.pk} .board-{state}").count() == 1, state
    assert said(language, "extended") in page.locator(f"#match-{second_m.pk}").inner_text()
    assert said(language, "Both pairs") in page.locator(f"#match-{fourth_m.pk}").inner_text()

    # an announcement, posted on the organiser's page
    page.goto(reverse("registration:announcements", args=[tournament.pk]))
    page.locator("textarea[name=text]").fill("第一轮请在截止前自行约赛并上报结果")
    page.locator("form.card button[type=submit]").click()
    page.wait_for_load_state()

    # the players of the unplayed match read the reminder on their table's page, and the announcement
    table_url = reverse("matches:table", args=[table_token(round_=round_, table_id=fourth_m.table_id)])
    players = open_page(PHONE, language)
    players_check = Checked(players, language, "season-players")
    players_check.visit(table_url, "table", typed=["第一轮请在截止前自行约赛并上报结果", *ZONE])
    reminder = players.locator(".deadline-reminder")
    assert deadline_local.strftime("%Y-%m-%d 18:00") in reminder.inner_text()
    assert "第一轮请在截止前自行约赛并上报结果" in players.locator("main").inner_text()

    # the feeds: the event's calendar has the round's deadline, a pair's too; the Atom feed the notice
    ics = Calendar.from_ical(players.request.get(reverse("standings:calendar", args=[tournament.pk])).body())
    starts = [item.decoded("dtstart") for item in ics.walk("VEVENT")]
    assert deadline in starts
    pair_ics = Calendar.from_ical(
        players.request.get(reverse("standings:pair_calendar", args=[tournament.pk, fourth_m.ns_pair_id])).body()
    )
    assert deadline in [item.decoded("dtstart") for item in pair_ics.walk("VEVENT")]
    feed = ET.fromstring(players.request.get(reverse("registration:announcement_feed", args=[tournament.pk])).body())
    assert feed.tag == f"{ATOM}feed"
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == 1 and "自行约赛" in ET.tostring(entries[0], encoding="unicode")

    # the deadline passes: the task records the double forfeits of the two unreported matches
    with time_machine.travel(deadline + timedelta(seconds=30), tick=True):
        assert tasks.round_deadline_task.delay(round_.pk).get()["forfeited"] == 2
        for match in (third_m, fourth_m):
            match.refresh_from_db()
            assert match.status == MatchStatus.CONFIRMED and match.winner == ""
        second_m.refresh_from_db()
        assert second_m.status != MatchStatus.CONFIRMED  # extended: it waits
        win(second_m, "EW")  # played within its extension
        checked.visit(board_url, "board-passed", typed=[reason, *ZONE])
        assert page.locator(".board-forfeited").count() == 2
        assert page.locator(".board-confirmed").count() == 2

        # the public bracket: both pairs forfeit twice, the winners of the first two go on with a bye
        public = open_page(PHONE, language)
        public_check = Checked(public, language, "season-public")
        public_check.visit(reverse("standings:bracket", args=[tournament.pk]), "bracket", typed=ZONE)
        assert public.locator(".forfeit", has_text=said(language, "both pairs forfeit")).count() == 2
        assert public.locator(".bracket-match.bye").count() == 2
        assert round_.stage.rounds.filter(status="draft").count() == 1  # the final, drawn

    # the series page: the ranking of the finished events and the rating (μ − 3σ) across all three
    series_ratings_rebuild(series=series)
    public_check.visit(
        reverse("exports:series", args=[series.pk]), "series", typed=[series.name, "openskill", "Plackett–Luce"]
    )
    text = public.locator("main").inner_text()
    assert "μ − 3σ" in text  # the rating, labelled as one
    assert "李强" in text and "王芳" in text
    assert Round.objects.get(pk=round_.pk).status == "finished"
