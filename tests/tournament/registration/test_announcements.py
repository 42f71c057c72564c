"""Announcements (docs/rules.md §12): posted, edited and withdrawn by the organiser (audited), shown
newest first on the event's page, the big screen and the players' table page, and in an Atom feed."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from tests.factories import TournamentFactory, english_client, organiser, table_match
from tournament.errors import UserError
from tournament.matches.table_links import table_token
from tournament.registration.announcements import (
    announcement_edit,
    announcement_post,
    announcement_withdraw,
    announcements_shown,
)
from tournament.registration.lifecycle import EventArchived
from tournament.registration.models import Announcement, TournamentStatus

pytestmark = pytest.mark.django_db
ATOM = "{http://www.w3.org/2005/Atom}"


def _three(tournament, user):
    start = timezone.now()
    rows = []
    for minutes, text in ((0, "第一轮抽签已公布"), (5, "午饭后 13:30 开始第二轮"), (10, "决赛在三楼")):
        with time_machine.travel(start + timedelta(minutes=minutes), tick=False):
            rows.append(announcement_post(tournament=tournament, text=text, user=user))
    return rows


def test_notices_are_shown_newest_first_and_a_withdrawn_one_is_gone_but_kept():
    user = organiser()
    tournament = TournamentFactory()
    first, second, third = _three(tournament, user)
    assert [row.pk for row in announcements_shown(tournament_id=tournament.pk)] == [third.pk, second.pk, first.pk]
    announcement_withdraw(tournament=tournament, announcement_id=second.pk, user=user)
    assert [row.pk for row in announcements_shown(tournament_id=tournament.pk)] == [third.pk, first.pk]
    second.refresh_from_db()
    assert second.withdrawn_at is not None  # kept, not deleted
    history = list(second.history.order_by("history_id"))
    assert [h.history_change_reason for h in history] == ["posted", "withdrawn"]
    assert all(h.history_user == user for h in history)


def test_an_edit_is_audited_with_the_text_before():
    user = organiser()
    tournament = TournamentFactory()
    row = announcement_post(tournament=tournament, text="第二轮 13:00", user=user)
    announcement_edit(tournament=tournament, announcement_id=row.pk, text="第二轮改到 13:30", user=user)
    row.refresh_from_db()
    assert row.text == "第二轮改到 13:30" and row.edited_at is not None
    texts = [h.text for h in row.history.order_by("history_id")]
    assert texts == ["第二轮 13:00", "第二轮改到 13:30"]


@pytest.mark.parametrize("text", ["", "   ", "x" * 501, "a\u202eb"])
def test_bad_text_is_refused_and_nothing_changes(text):
    tournament = TournamentFactory()
    with pytest.raises(UserError):
        announcement_post(tournament=tournament, text=text)
    assert not Announcement.objects.exists()
    row = announcement_post(tournament=tournament, text="正常")
    with pytest.raises(UserError):
        announcement_edit(tournament=tournament, announcement_id=row.pk, text=text)
    row.refresh_from_db()
    assert row.text == "正常" and row.edited_at is None


def test_a_withdrawn_notice_is_not_edited_and_another_events_notice_is_not_found():
    tournament, other = TournamentFactory(), TournamentFactory()
    row = announcement_post(tournament=tournament, text="通知")
    with pytest.raises(UserError) as missing:
        announcement_withdraw(tournament=other, announcement_id=row.pk)
    assert missing.value.code == "no_such_announcement"
    announcement_withdraw(tournament=tournament, announcement_id=row.pk)
    with pytest.raises(UserError) as refused:
        announcement_edit(tournament=tournament, announcement_id=row.pk, text="改")
    assert refused.value.code == "announcement_withdrawn"


def test_an_archived_event_takes_no_notice():
    tournament = TournamentFactory(status=TournamentStatus.ARCHIVED)
    with pytest.raises(EventArchived):
        announcement_post(tournament=tournament, text="通知")
    assert not Announcement.objects.exists()


def test_the_atom_feed_parses_back_newest_first_without_the_withdrawn():
    tournament = TournamentFactory()
    first, second, third = _three(tournament, None)
    announcement_withdraw(tournament=tournament, announcement_id=first.pk)
    response = english_client().get(reverse("registration:announcement_feed", args=[tournament.pk]))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/atom+xml")
    feed = ET.fromstring(response.content)
    assert feed.tag == f"{ATOM}feed" and tournament.name in feed.findtext(f"{ATOM}title")
    entries = feed.findall(f"{ATOM}entry")
    assert [entry.findtext(f"{ATOM}summary") for entry in entries] == [third.text, second.text]
    assert all(entry.findtext(f"{ATOM}id") and entry.findtext(f"{ATOM}updated") for entry in entries)


def test_a_drafts_feed_is_not_public():
    tournament = TournamentFactory(status=TournamentStatus.DRAFT)
    response = english_client().get(reverse("registration:announcement_feed", args=[tournament.pk]))
    assert response.status_code == 404


def test_the_pages_show_the_notices():
    match = table_match()
    tournament = match.round.stage.tournament
    tournament.status = TournamentStatus.RUNNING
    tournament.save()
    announcement_post(tournament=tournament, text="请各组在周五前上报结果")
    client = english_client()
    for url in (
        reverse("standings:tournament", args=[tournament.pk]),
        reverse("standings:screen", args=[tournament.pk]),
        reverse("matches:table", args=[table_token(round_=match.round, table_id=match.table_id)]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "请各组在周五前上报结果" in response.content.decode(), url


def test_the_organisers_page_posts_edits_and_withdraws():
    user = organiser()
    tournament = TournamentFactory()
    tournament.organisers.add(user)
    client = english_client()
    client.force_login(user)
    url = reverse("registration:announcements", args=[tournament.pk])
    assert client.post(url, {"text": "通知一"}).status_code == 302
    row = Announcement.objects.get()
    response = client.post(url, {"text": "  "})
    assert response.status_code == 200 and Announcement.objects.count() == 1
    edit = reverse("registration:announcement_edit", args=[tournament.pk, row.pk])
    assert client.post(edit, {"text": "通知一（改）"}).status_code == 302
    withdraw = reverse("registration:announcement_withdraw", args=[tournament.pk, row.pk])
    assert client.post(withdraw).status_code == 302
    row.refresh_from_db()
    assert row.text == "通知一（改）" and row.withdrawn_at is not None
    page = client.get(url).content.decode()
    assert "通知一（改）" in page and "Withdrawn" in page


def test_another_organisers_event_is_not_found():
    tournament = TournamentFactory()
    client = english_client()
    client.force_login(organiser())
    assert client.get(reverse("registration:announcements", args=[tournament.pk])).status_code == 404
