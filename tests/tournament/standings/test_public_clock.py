"""The public pages and the big screen follow the organiser's clock: a paused round
reads 已暂停 / "Paused", and once time is called each table says what happens next."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournament.standings.events import swiss_event
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


def test_a_paused_rounds_badge_reads_paused_not_running_on_every_page(client):
    """One badge (``matches.selectors.round_state``): a paused round read 进行中 with 已暂停 beside it."""
    from tests.factories import english_client, organiser

    event = swiss_event()
    round_start(round_id=event.second.pk)
    round_pause(round_id=event.second.pk, reason="fire alarm")
    tournament_id = event.tournament.pk
    boss = organiser(username="boss-badge")
    event.tournament.organisers.add(boss)
    staff = english_client()
    staff.force_login(boss)
    public = [reverse(name, args=[tournament_id]) for name in ("standings:draw", "standings:screen")]
    staff_pages = [
        reverse("matches:round_clock", args=[tournament_id, event.second.pk]),
        reverse("draw:round", args=[tournament_id, event.second.pk]),
    ]
    for browser, pages in ((Client(), public), (staff, staff_pages)):
        for page in pages:
            html = browser.get(page).content.decode()
            first_badge = html[html.index('<span class="badge') :].split(">", 1)[0]
            assert first_badge == '<span class="badge paused"', page  # the round's, before any table's
    chinese = Client().get(reverse("standings:draw", args=[tournament_id])).content.decode()
    assert '<span class="badge paused">已暂停</span>' in chinese and chinese.count("已暂停") == 1


def test_the_round_page_names_its_draw_method_in_words_with_the_recorded_version_as_its_tooltip():
    from tests.factories import english_client, organiser
    from tournament import labels

    event = swiss_event()
    boss = organiser(username="boss-method")
    event.tournament.organisers.add(boss)
    page = reverse("draw:round", args=[event.tournament.pk, event.second.pk])
    code = event.second.draw_algorithm
    assert code.startswith("swiss.")
    staff = english_client()
    staff.force_login(boss)
    assert f'<span title="{code}">Swiss pairing</span>' in staff.get(page).content.decode()
    chinese = Client()
    chinese.force_login(boss)
    shown = chinese.get(page).content.decode()
    assert f'<span title="{code}">瑞士制配对</span>' in shown  # the version is the tooltip, not the text
    assert f"（{code}）" not in shown
    assert labels.draw_algorithm("") == "—" and labels.draw_algorithm("someday.v9") == "someday.v9"
