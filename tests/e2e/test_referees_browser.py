"""Referees managed in the app, in a real browser on a phone (390×844) and a laptop
(1280×800): the organiser makes two referees and gives them tables by hand; a referee signs in
with the one-time link and sees their tables grouped under the event and the round."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from tests.e2e.conftest import SCREENSHOTS
from tests.factories import organiser
from tests.tournament.draw.conftest import make_field
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.matches.models import Match, RefereeAssignment

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_eager")]


def signed_in_as(page, user, live_server) -> None:
    """The organiser's session, made by Django's test client, handed to the browser."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


def fits_the_screen(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def add_referee(page, tournament_id: int, name: str, *, phone: str = "", employee_number: str = "") -> str:
    page.goto(f"/t/{tournament_id}/manage/referees/")
    page.locator("#referee-add input[name=name]").fill(name)
    if phone:
        page.locator("#referee-add input[name=phone]").fill(phone)
    if employee_number:
        page.locator("#referee-add input[name=employee_number]").fill(employee_number)
    page.locator("#referee-add button[type=submit]").click()
    link = page.locator("[data-sign-in-link]")
    link.wait_for()
    assert page.locator("#sign-in-link svg.qr").is_visible()  # the QR code to scan
    return link.get_attribute("href")


SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_organiser_makes_two_referees_assigns_tables_and_a_referee_signs_in(
    page, browser, live_server, screenshot, size
):
    page.set_viewport_size(SIZES[size])
    boss = organiser()
    tournament = make_field(8)  # 4 tables
    tournament.organisers.add(boss)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    round_ = round_publish(round_=round_draw(stage=stage, seed=1))
    signed_in_as(page, boss, live_server)

    wang_link = add_referee(page, tournament.pk, "王裁判", phone="13800000001")
    assert fits_the_screen(page)
    screenshot(f"referee-link-qr-{size}")
    add_referee(page, tournament.pk, "李裁判", employee_number="E1001")
    page.goto(f"/t/{tournament.pk}/manage/referees/")
    assert page.locator(".referee-list tbody tr").count() == 2
    screenshot(f"referee-list-{size}")

    page.goto(f"/t/{tournament.pk}/manage/rounds/{round_.pk}/referees/")
    form = page.locator("#tables-by-hand")
    form.locator("select[name=hand-referee]").select_option(label="王裁判")
    form.locator("input[name=hand-first]").fill("1")
    form.locator("input[name=hand-last]").fill("2")
    form.locator("button[type=submit]").click()
    page.locator(".referee-loads").wait_for()
    form = page.locator("#tables-by-hand")
    form.locator("select[name=hand-referee]").select_option(label="李裁判")
    form.locator("input[name=hand-first]").fill("3")
    form.locator("input[name=hand-last]").fill("4")
    form.locator("button[type=submit]").click()
    page.locator(".referee-loads tbody tr").nth(1).wait_for()
    loads = page.locator(".referee-loads tbody").inner_text()
    assert "王裁判\t1–2\t2" in loads and "李裁判\t3–4\t2" in loads
    assert fits_the_screen(page)
    screenshot(f"round-referees-{size}")
    plan = dict(RefereeAssignment.objects.filter(round=round_).values_list("table__number", "referee__first_name"))
    assert plan == {1: "王裁判", 2: "王裁判", 3: "李裁判", 4: "李裁判"}

    # The referee's own phone: a fresh browser, nobody signed in.
    phone = browser.new_context(viewport=SIZES[size], locale="zh-CN").new_page()
    try:
        phone.goto(wang_link)
        phone.get_by_role("button", name="登录").click()
        phone.wait_for_url(f"{live_server.url}/referee/")
        section = phone.locator(f'section.round-tables[data-round="{round_.pk}"]')
        section.wait_for()
        heading = section.locator(".round-heading").inner_text()
        assert tournament.name in heading and "预赛" in heading and "第 1 轮" in heading
        assert [int(n) for n in section.locator("[data-table]").evaluate_all(
            "cards => cards.map(card => card.dataset.table)"
        )] == [1, 2]
        first = Match.objects.select_related("ns_pair", "ew_pair").get(round=round_, table__number=1)
        assert first.ns_pair.name in section.inner_text() and first.ew_pair.name in section.inner_text()
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        phone.screenshot(path=str(SCREENSHOTS / f"referee-home-{size}.png"), full_page=True)
        phone.goto(wang_link)  # the link was used: it does not sign in twice
        assert "已被使用" in phone.locator(".alert").inner_text()
    finally:
        phone.context.close()
