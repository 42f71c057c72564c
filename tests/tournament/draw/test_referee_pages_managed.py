"""The organiser's referee pages: organiser only, field errors, the one-time link end to end."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import organiser, referee
from tests.tournament.draw.conftest import make_field
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.matches.models import ChiefReferee, Referee, RefereeAssignment
from tournament.matches.referees import referee_create, referee_link_issue, referee_link_redeem

pytestmark = pytest.mark.django_db


def english() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def client():
    return english()


@pytest.fixture
def boss(client):
    user = organiser()
    client.force_login(user)
    return user


@pytest.fixture
def event(boss):
    tournament = make_field(8)
    tournament.organisers.add(boss)
    return tournament


def m(name, *args):
    return reverse(f"matches:{name}", args=args)


def published_round(event):
    return round_publish(round_=round_draw(stage=stage_create(tournament=event, name="预赛", format="swiss"), seed=1))


def test_the_referee_pages_are_404_for_another_organiser_and_need_a_login(client, boss):
    other = make_field(4)
    stranger = referee_create(tournament=other, name="外人")
    pages = [m("referees", other.pk), m("referee", other.pk, stranger.pk)]
    for page in pages:
        assert client.get(page).status_code == 404
    for action in ("referee_link_reset", "referee_active", "referee_chief"):
        assert client.post(m(action, other.pk, stranger.pk), {"active": "0", "chief": "1"}).status_code == 404
    stranger.refresh_from_db()
    assert stranger.active and not ChiefReferee.objects.exists() and not stranger.sign_in_links.exists()
    assert english().get(m("referees", other.pk)).status_code == 302  # to the login page


def test_a_referee_added_gets_a_link_shown_once_that_signs_in_once(client, event):
    response = client.post(m("referees", event.pk), {"name": "王裁判", "phone": "13800000001"})
    referee = Referee.objects.get(tournament=event)
    assert response.status_code == 302 and response.url == m("referee", event.pk, referee.pk)
    page = client.get(response.url).content.decode()
    link = re.search(r'href="(http://testserver/referee/sign-in/[^"]+/)" data-sign-in-link', page).group(1)
    assert '<svg width="' in page and 'class="qr"' in page  # the QR code, inline
    assert "data-sign-in-link" not in client.get(response.url).content.decode()  # shown only once
    phone = english()
    confirm = phone.get(link)
    assert confirm.status_code == 200 and "王裁判" in confirm.content.decode()  # opening it spends nothing
    assert phone.post(link).url == m("referee_home")
    assert phone.get(m("referee_home")).status_code == 200
    again = english().post(link)
    assert again.status_code == 400 and "already been used" in again.content.decode()


def test_bad_referee_input_shows_field_errors(client, event):
    client.post(m("referees", event.pk), {"name": "李", "employee_number": "E7"})
    response = client.post(m("referees", event.pk), {"name": "张", "employee_number": "E7"})
    assert response.status_code == 400
    assert "already has a referee with that employee number" in response.content.decode()
    assert client.post(m("referees", event.pk), {"name": ""}).status_code == 400
    assert Referee.objects.count() == 1


def test_reset_deactivate_and_chief_from_the_page(client, event):
    referee = referee_create(tournament=event, name="赵")
    client.post(m("referee_link_reset", event.pk, referee.pk))
    assert referee.sign_in_links.filter(revoked_at=None, used_at=None).count() == 1
    client.post(m("referee_chief", event.pk, referee.pk), {"chief": "1"})
    assert ChiefReferee.objects.filter(tournament=event, user=referee.user).exists()
    assert "Chief referee" in client.get(m("referees", event.pk)).content.decode()
    client.post(m("referee_active", event.pk, referee.pk), {"active": "0"})
    referee.refresh_from_db()
    assert not referee.active and not referee.sign_in_links.filter(revoked_at=None, used_at=None).exists()


def test_tables_by_hand_and_who_has_which_tables_on_the_round_page(client, event):
    round_ = published_round(event)  # 4 tables
    one, two = referee_create(tournament=event, name="甲"), referee_create(tournament=event, name="乙")
    url = reverse("draw:referees", args=[event.pk, round_.pk])
    by_range = {"action": "hand", "hand-referee": one.user_id, "hand-first": 1, "hand-last": 3}
    assert client.post(url, by_range).status_code == 302
    assert client.post(url, {"action": "hand", "hand-referee": two.user_id, "hand-first": 3}).status_code == 302
    plan = dict(RefereeAssignment.objects.filter(round=round_).values_list("table__number", "referee_id"))
    assert plan == {1: one.user_id, 2: one.user_id, 3: two.user_id}
    listing = client.get(m("referees", event.pk)).content.decode()
    # 甲 has two tables in the rounds being played
    assert re.search(r">甲</a></td>\s*<td>[^<]*</td>\s*<td>[^<]*</td>\s*<td>2</td>", listing)
    page = client.get(url).content.decode()
    assert re.search(r"<td>甲</td><td>1–2</td><td>2</td>", page)
    assert re.search(r"<td>乙</td><td>3</td><td>1</td>", page)
    bad = client.post(url, {"action": "hand", "hand-referee": one.user_id, "hand-first": 9})
    assert bad.status_code == 400 and "No table of this round is in that range." in bad.content.decode()
    neither = client.post(url, {"action": "hand", "hand-referee": one.user_id})
    assert "Give either a range of tables or an area." in neither.content.decode()
    unchosen = client.post(url, {"action": "hand", "hand-referee": "", "hand-first": 1})
    assert unchosen.status_code == 400 and "This field is required." in unchosen.content.decode()
    assert client.post(url, {"action": "hand", "hand-referee": 0, "hand-first": 3}).status_code == 302  # nobody
    assert 3 not in dict(RefereeAssignment.objects.filter(round=round_).values_list("table__number", "referee_id"))
    other_event_referee = referee_create(tournament=make_field(4), name="外人")
    foreign = client.post(url, {"action": "hand", "hand-referee": other_event_referee.user_id, "hand-first": 4})
    assert foreign.status_code == 400 and 4 not in dict(
        RefereeAssignment.objects.filter(round=round_).values_list("table__number", "referee_id")
    )


def test_the_referee_home_groups_tables_by_event_and_round(event):
    round_ = published_round(event)
    account = referee()  # a developer-made account (no event of its own) may work in two events
    second_event = make_field(4)
    second_round = published_round(second_event)
    RefereeAssignment.objects.create(round=round_, table=round_.matches.get(table__number=2).table, referee=account)
    RefereeAssignment.objects.create(
        round=second_round, table=second_round.matches.get(table__number=1).table, referee=account
    )
    phone = english()
    phone.force_login(account)
    page = phone.get(m("referee_home")).content.decode()
    sections = re.findall(r'<section class="round-tables" data-round="(\d+)">', page)
    assert sections == [str(round_.pk), str(second_round.pk)]
    assert event.name in page and second_event.name in page and "Round 1" in page
    match = round_.matches.get(table__number=2)
    assert match.ns_pair.name in page and match.ew_pair.name in page


def test_new_links_for_everyone_not_signed_in_yet_on_one_sheet_each_shown_once(client, event):
    first, second = referee_create(tournament=event, name="一号"), referee_create(tournament=event, name="二号")
    working = referee_create(tournament=event, name="在岗")
    off = referee_create(tournament=event, name="停用")
    client.post(m("referee_active", event.pk, off.pk), {"active": "0"})
    signed_in = referee_link_redeem(token=referee_link_issue(referee=working).token)
    unused = referee_link_issue(referee=first)  # made, never used: replaced on the sheet
    phone = english()
    phone.force_login(signed_in)
    response = client.post(m("referee_links_reset_all", event.pk))
    assert response.url == m("referee_links", event.pk)
    sheet = client.get(response.url).content.decode()
    links = re.findall(r'href="(http://testserver/referee/sign-in/[^"]+/)" data-sign-in-link', sheet)
    assert len(links) == 2 and "一号" in sheet and "二号" in sheet
    assert "在岗" not in sheet and "停用" not in sheet
    assert "data-sign-in-link" not in client.get(response.url).content.decode()  # shown once
    assert phone.get(m("referee_home")).status_code == 200  # the referee at work stays signed in
    assert english().post(reverse("matches:referee_sign_in", args=[unused.token])).status_code == 400
    for link in links:
        assert english().post(link).status_code == 302
    assert {first.user_id, second.user_id, working.user_id} == set(
        Referee.objects.filter(sign_in_links__used_at__isnull=False).values_list("user_id", flat=True)
    )
