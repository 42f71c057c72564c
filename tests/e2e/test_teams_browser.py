"""Teams in real Chromium (docs/rules.md §11): the organiser makes one team per department in one
click, a refused assignment is shown and changes nothing, the door shows a team together; phone and
laptop, Chinese and English. Screenshots in test-output/screenshots/teams-*."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SCREENSHOTS, signed_in
from tests.factories import DepartmentFactory, PairFactory, PlayerFactory, TournamentFactory, organiser
from tournament.registration.models import PairMember, Team, TeamMember

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"teams-{name}.png"), full_page=True)


def company_event():
    event = TournamentFactory(name="公司掼蛋团体赛")
    for name in ("销售部", "研发部", "财务部"):
        department = DepartmentFactory(tournament=event, name=name)
        for _ in range(3):
            pair = PairFactory(tournament=event, with_players=False)
            for slot in (1, 2):
                PairMember.objects.create(
                    pair=pair, player=PlayerFactory(tournament=event, department=department), slot=slot
                )
    return event


def test_teams_from_departments_and_a_refusal_on_the_page(open_page, live_server):
    event = company_event()
    boss = organiser(username="boss")
    event.organisers.add(boss)
    page = open_page(PHONE, "zh-hans")
    signed_in(page, boss, live_server)
    page.goto(f"/t/{event.pk}/manage/teams/")
    page.get_by_role("button", name="按部门一键建队").click()
    page.locator(".team-card").first.wait_for()
    assert page.locator(".team-card").count() == 3
    first = TeamMember.objects.filter(team__name="销售部").first().pair
    research = Team.objects.get(name="研发部")
    # the card's form that adds a member (beside it, the seed's)
    form = page.locator(f"#team-{research.pk} form.inline-form", has=page.locator("input[name=number]"))
    form.locator("input[name=number]").fill(str(first.number))
    form.locator("button[type=submit]").click()
    page.locator(".messages, [role=alert], .error, .message").first.wait_for()
    assert "已在团体" in page.content()
    assert TeamMember.objects.get(pair=first).team.name == "销售部"
    assert fits(page)
    shot(page, "organiser-zh-phone")
    for language, size, name in (
        ("en", PHONE, "organiser-en-phone"),
        ("zh-hans", LAPTOP, "organiser-zh-laptop"),
        ("en", LAPTOP, "organiser-en-laptop"),
    ):
        other = open_page(size, language)
        signed_in(other, boss, live_server)
        other.goto(f"/t/{event.pk}/manage/teams/")
        assert fits(other)
        shot(other, name)
    door = open_page(PHONE, "zh-hans")
    signed_in(door, boss, live_server)
    door.goto(f"/t/{event.pk}/manage/check-in/?team={research.pk}")
    assert door.locator(".door-row").count() == 3
    assert fits(door)
    shot(door, "door-zh-phone")
    door = open_page(LAPTOP, "en")
    signed_in(door, boss, live_server)
    door.goto(f"/t/{event.pk}/manage/check-in/")
    shot(door, "door-en-laptop")


def test_team_standings_public_big_screen_and_the_organisers_stage(open_page, live_server):
    from tests.tournament.standings.test_team_total import _event
    from tournament.draw.stages import stage_teams_set

    event, stage, _a, _b = _event()
    stage_teams_set(stage=stage, team_total=True, team_count=2)
    url = f"/t/{event.pk}/teams/{stage.pk}/"
    for language, size, name in (
        ("zh-hans", PHONE, "public-zh-phone"),
        ("en", PHONE, "public-en-phone"),
        ("zh-hans", LAPTOP, "public-zh-laptop"),
        ("en", LAPTOP, "public-en-laptop"),
    ):
        page = open_page(size, language)
        page.goto(url)
        page.locator("table.team-standings").wait_for()
        page.locator("details.team-detail summary").first.click()
        assert fits(page)
        shot(page, name)
    screen = open_page(LAPTOP, "zh-hans")
    screen.goto(url + "?screen=1")
    screen.locator("table.team-standings").wait_for()
    shot(screen, "screen-zh")
    boss = organiser(username="boss")
    event.organisers.add(boss)
    for language, size in (("zh-hans", PHONE), ("en", LAPTOP)):
        own = open_page(size, language)
        signed_in(own, boss, live_server)
        own.goto(f"/t/{event.pk}/manage/stages/{stage.pk}/#teams")
        own.locator("#teams table").wait_for()
        own.locator("#teams").screenshot(path=str(SCREENSHOTS / f"teams-stage-{language}-{size['width']}.png"))
