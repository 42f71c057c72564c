"""The organiser's page of a self-scheduled round and the players' reminders (docs/rules.md §12.1)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from tests.factories import english_client, organiser
from tests.tournament.matches.test_deadlines import FRIDAY, MONDAY, celery_eager, knockout_of_eight, played, win
from tournament.matches import tasks
from tournament.matches.deadlines import round_open_self_scheduled
from tournament.matches.models import Round
from tournament.matches.services import match_sign_off
from tournament.matches.table_links import table_token
from tournament.registration.models import TournamentStatus
from tournament.standings.public import bracket_get

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("celery_eager")]
__all__ = ["celery_eager"]  # the deadline tests' fixture: their tasks run in this process


@pytest.fixture
def event():
    tournament, _stage, round_ = knockout_of_eight()
    tournament.status = TournamentStatus.RUNNING
    tournament.save()
    user = organiser()
    tournament.organisers.add(user)
    client = english_client()
    client.force_login(user)
    return tournament, round_, client


def test_the_organiser_opens_a_round_extends_a_match_and_reads_the_board(event):
    tournament, round_, client = event
    url = reverse("matches:round_deadline", args=[tournament.pk, round_.pk])
    with time_machine.travel(MONDAY, tick=False):
        # a deadline in the past: a clear error, nothing changed
        response = client.post(url, {"action": "open", "deadline": "2026-03-01T18:00"})
        assert response.status_code == 400 and "must be in the future" in response.content.decode()
        round_.refresh_from_db()
        assert round_.deadline is None and round_.started_at is None
        assert client.post(url, {"action": "open", "deadline": "2026-03-06T18:00"}).status_code == 302
        round_.refresh_from_db()
        assert round_.deadline == FRIDAY  # typed in the event's time zone (Asia/Shanghai)
        match = played(round_)[0]
        response = client.post(
            url, {"action": "extend", "match": match.pk, "deadline": "2026-03-08T18:00", "reason": "出差"}
        )
        assert response.status_code == 302
        page = client.get(url).content.decode()
        assert "Not played yet" in page and "4 days left" in page and "(extended)" in page
        assert match.ns_pair.name in page
    with time_machine.travel(FRIDAY + timedelta(hours=1), tick=False):
        response = client.post(url, {"action": "extend", "deadline": "2026-03-10T18:00", "reason": "晚了"})
        assert response.status_code == 400 and "has passed" in response.content.decode()
        round_.refresh_from_db()
        assert round_.deadline == FRIDAY


def test_another_organisers_round_is_not_found(event):
    tournament, round_, _client = event
    other = english_client()
    other.force_login(organiser())
    assert other.get(reverse("matches:round_deadline", args=[tournament.pk, round_.pk])).status_code == 404


def test_the_players_see_the_deadline_on_their_table_and_the_events_page(event):
    tournament, round_, client = event
    url = reverse("matches:round_deadline", args=[tournament.pk, round_.pk])
    with time_machine.travel(MONDAY, tick=False):
        client.post(url, {"action": "open", "deadline": "2026-03-06T18:00"})
        match = played(round_)[0]
        public = english_client()
        table = public.get(
            reverse(
                "matches:table", args=[table_token(round_=Round.objects.get(pk=round_.pk), table_id=match.table_id)]
            )
        )
        assert "Play and report this match by 2026-03-06 18:00 (Asia/Shanghai) (4 days left)" in table.content.decode()
        home = public.get(reverse("standings:tournament", args=[tournament.pk])).content.decode()
        # the round by its name, as its pages give it
        assert "· Quarter-finals: play and report your match by 2026-03-06 18:00" in home and "4 days left" in home
    with time_machine.travel(FRIDAY + timedelta(minutes=1), tick=False):
        home = english_client().get(reverse("standings:tournament", args=[tournament.pk])).content.decode()
        assert "play and report your match by" not in home


def test_the_public_bracket_shows_the_byes_that_double_forfeits_give(event):
    tournament, round_, _client = event
    with time_machine.travel(MONDAY, tick=False):
        round_open_self_scheduled(round_id=round_.pk, deadline=FRIDAY)
    first, second, _third, _fourth = played(round_)
    with time_machine.travel(MONDAY + timedelta(days=1), tick=False):
        for match, side in ((first, "NS"), (second, "EW")):
            win(match, side)
            match_sign_off(match_id=match.pk)
    with time_machine.travel(FRIDAY + timedelta(minutes=1), tick=False):
        assert tasks.deadline_sweep.delay().get() == {"forfeited": 2}
    bracket = bracket_get(tournament_id=tournament.pk, stage_id=round_.stage_id)
    assert bracket is not None
    semis = bracket.rounds[1].matches
    # each winner would have met a pair of a match lost by both: a bye, not a place still to be decided
    assert [(box.is_bye, box.ew) for box in semis] == [(True, None), (True, None)]
    assert {box.ns.pair_id for box in semis if box.ns} == {first.ns_pair_id, second.ew_pair_id}
    page = (
        english_client().get(reverse("standings:stage_bracket", args=[tournament.pk, round_.stage_id])).content.decode()
    )
    assert page.count(">Bye<") == 2 and page.count("both pairs forfeit") == 2
