"""The public pages and the big screen follow the organiser's clock (issue 15): a paused round
reads 已暂停 / "Paused", and once time is called each table says what happens next."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournament.public.events import swiss_event
from tournament.matches.clock import round_call_now, round_pause, round_start
from tournament.matches.services import deal_record

pytestmark = pytest.mark.django_db


def test_the_big_screen_shows_a_paused_round_then_each_tables_time_up(client):
    event = swiss_event()
    round_start(round_id=event.second.pk)
    screen = reverse("standings:screen", args=[event.tournament.pk])
    assert "Paused" not in client.get(screen).content.decode()
    round_pause(round_id=event.second.pk, reason="fire alarm")
    assert "Paused" in client.get(screen).content.decode()
    assert "已暂停" in Client().get(screen).content.decode()

    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    deal_record(match_id=match.pk, outcome={"order": ["N", "E", "S"]})
    round_call_now(round_id=event.second.pk, reason="the hall closes")
    page = client.get(screen).content.decode()
    assert "Deal 2 is the last deal" in page  # the table with one deal played
    assert "Deal 1 is the last deal" in page  # the others
    detail = reverse("standings:match", args=[event.tournament.pk, match.pk])
    assert "第 2 副为最后一副" in Client().get(detail).content.decode()
