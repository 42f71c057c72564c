"""Registration pages: roles, field errors, one-tap check-in, Chinese first."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse

from tests.factories import PairFactory, TournamentFactory, UserFactory, organiser, referee
from tournament.registration.models import Pair, PairStatus, Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss(client):
    user = organiser(username="boss")
    client.force_login(user)
    return user


@pytest.fixture
def event(boss):
    tournament = TournamentFactory()
    tournament.organisers.add(boss)
    return tournament


def test_home_page_is_chinese_by_default_with_an_english_switch(client):
    TournamentFactory(name="联鑫钢铁掼蛋争霸赛")
    # Chinese first, even for a browser that prefers English: only the switch changes it.
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="zh-hans">' in html
    assert "联鑫钢铁掼蛋争霸赛" in html
    assert "登录" in html and "English" in html
    switch = re.search(r'<a href="([^"]+)" lang="en">English</a>', html).group(1)
    assert switch == "/language/en/?next=/"
    switched = client.get(switch)
    assert switched.status_code == 302 and switched["Location"] == "/"
    english = client.get("/").content.decode()
    assert '<html lang="en">' in english and "Log in" in english and "中文" in english


def test_the_language_switch_returns_to_the_page_and_only_to_this_site(client):
    tournament = TournamentFactory()
    page = client.get(f"/t/{tournament.pk}/find/", {"q": "王 五&x"}).content.decode()
    switch = re.search(r'<a href="([^"]+)" lang="en">English</a>', page).group(1)
    assert switch == f"/language/en/?next=/t/{tournament.pk}/find/%3Fq%3D%25E7%258E%258B%2B%25E4%25BA%2594%2526x"
    assert client.get(switch)["Location"] == f"/t/{tournament.pk}/find/?q=%E7%8E%8B+%E4%BA%94%26x"
    assert client.get("/language/zh-hans/", {"next": "https://evil.example/"})["Location"] == "/"
    assert client.get("/language/fr/").status_code == 404
    assert client.post("/language/en/").status_code == 405


def test_login_page_logs_an_organiser_in(client):
    organiser(username="org", password="s3cret-pass-123")
    response = client.post(reverse("login"), {"username": "org", "password": "s3cret-pass-123"})
    assert response.status_code == 302
    assert client.get("/").context["user"].username == "org"


def test_organiser_creates_a_tournament_with_a_rule_profile(client, boss):
    response = client.post(
        reverse("registration:tournament_create"),
        {"name": "公司掼蛋赛", "game": "guandan", "rule_profile": "timed-90"},
    )
    tournament = Tournament.objects.get(name="公司掼蛋赛")
    assert response.status_code == 302
    assert tournament.rule_profile == "timed-90"
    assert list(tournament.organisers.all()) == [boss]


def test_an_unknown_rule_profile_is_a_field_error(client, boss):
    response = client.post(
        reverse("registration:tournament_create"), {"name": "x", "game": "guandan", "rule_profile": "nope"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["rule_profile"]
    assert not Tournament.objects.exists()


def test_public_and_referees_cannot_create_tournaments(client):
    assert client.get(reverse("registration:tournament_create")).status_code == 302  # to login
    client.force_login(referee())
    assert client.get(reverse("registration:tournament_create")).status_code == 403


def test_organiser_pages_of_another_organisers_tournament_are_404(client, boss):
    other = TournamentFactory()
    for name in ("pairs", "checkin", "departments", "roster_import"):
        assert client.get(reverse(f"registration:{name}", args=[other.pk])).status_code == 404
    client.logout()
    assert client.get(reverse("registration:pairs", args=[other.pk])).status_code == 302


def test_register_a_pair_and_see_field_errors(client, event):
    url = reverse("registration:pairs", args=[event.pk])
    data = {
        "first_name": "张伟",
        "first_employee_number": "1001",
        "first_department": "财务部",
        "second_name": "李娜",
        "second_employee_number": "1002",
        "second_department": "财务部",
    }
    assert client.post(url, data).status_code == 302
    pair = Pair.objects.get(tournament=event)
    assert pair.name == "张伟 / 李娜"
    assert pair.members.count() == 2
    again = client.post(url, {**data, "first_employee_number": "1002", "second_employee_number": "1003"})
    assert again.status_code == 200
    assert again.context["form"].errors["first_employee_number"] == ["工号 1002 已经报名。"]
    assert Pair.objects.filter(tournament=event).count() == 1


def test_edit_and_withdraw_a_pair(client, event):
    pair = PairFactory(tournament=event)
    url = reverse("registration:pair_edit", args=[event.pk, pair.pk])
    assert client.get(url).status_code == 200
    data = {
        "first_name": "新名字",
        "first_employee_number": "A1",
        "second_name": "另一个",
        "second_employee_number": "A2",
        "seed": 3,
    }
    assert client.post(url, data).status_code == 302
    pair.refresh_from_db()
    assert (pair.name, pair.seed) == ("新名字 / 另一个", 3)
    client.post(reverse("registration:pair_withdraw", args=[event.pk, pair.pk]))
    pair.refresh_from_db()
    assert pair.status == PairStatus.WITHDRAWN
    assert pair.history.count() >= 3  # created, edited, withdrawn: every change audited


def test_check_in_by_name_or_employee_number_with_one_tap(client, event):
    pair = PairFactory(tournament=event)
    player = pair.members.first().player
    page = client.get(reverse("registration:checkin", args=[event.pk]), {"q": player.employee_number[:4]})
    assert pair in list(page.context["pairs"])
    by_name = client.get(
        reverse("registration:checkin", args=[event.pk]), {"q": player.name}, HTTP_HX_REQUEST="true"
    )
    assert by_name.templates[0].name == "registration/_checkin_results.html"
    response = client.post(
        reverse("registration:checkin_toggle", args=[event.pk, pair.pk]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    pair.refresh_from_db()
    assert pair.status == PairStatus.CHECKED_IN and pair.checked_in_at is not None
    client.post(reverse("registration:checkin_toggle", args=[event.pk, pair.pk]), {"undo": "1"})
    pair.refresh_from_db()
    assert pair.status == PairStatus.REGISTERED


def test_roster_import_page_lists_bad_rows_and_imports_good_files(client, event):
    from tests.tournament.registration.test_roster_import import GOOD, workbook

    url = reverse("registration:roster_import", args=[event.pk])
    bad = workbook([["", "1001", "", "1002", ""], ["李娜", "1002", "", "1001", ""]])
    bad.name = "roster.xlsx"
    response = client.post(url, {"file": bad})
    assert response.status_code == 200
    html = response.content.decode()
    assert "第 2 行：" in html and "姓名必填。" in html  # the report is in Chinese first
    assert not Player.objects.filter(tournament=event).exists()
    good = workbook(GOOD)
    good.name = "roster.xlsx"
    assert client.post(url, {"file": good}).status_code == 302
    assert Pair.objects.filter(tournament=event).count() == 2


def test_roster_template_download_is_a_workbook(client):
    from openpyxl import load_workbook

    response = client.get(reverse("registration:roster_template"))
    sheet = load_workbook(io.BytesIO(response.content)).active
    assert [cell.value for cell in sheet[1]] == ["姓名", "工号", "部门", "搭档工号", "手机"]


def test_audit_rows_record_who_and_from_where(client, event, boss):
    pair = PairFactory(tournament=event)
    client.post(reverse("registration:checkin_toggle", args=[event.pk, pair.pk]), REMOTE_ADDR="10.1.2.3")
    latest = pair.history.first()
    assert latest.history_user == boss
    assert latest.history_ip_address == "10.1.2.3"
    assert latest.status == PairStatus.CHECKED_IN
    assert latest.prev_record.status == PairStatus.REGISTERED


def test_admin_lists_every_model(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    for model in (
        "registration/tournament",
        "registration/player",
        "registration/pair",
        "registration/department",
        "registration/pairmember",
        "matches/stage",
        "matches/round",
        "matches/table",
        "matches/match",
        "matches/deal",
        "matches/adjustment",
        "matches/refereeassignment",
        "matches/roundentry",
    ):
        assert client.get(f"/admin/{model}/").status_code == 200, model


def test_the_rule_profile_must_be_of_the_tournaments_game(client, boss):
    url = reverse("registration:tournament_create")
    response = client.post(url, {"name": "拖拉机赛", "game": "tractor", "rule_profile": "timed-40"})
    assert response.context["form"].errors["rule_profile"]
    assert client.post(url, {"name": "拖拉机赛", "game": "tractor", "rule_profile": "tractor-3deck"}).status_code == 302
    assert Tournament.objects.get(name="拖拉机赛").game == "tractor"
