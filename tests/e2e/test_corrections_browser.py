"""The unlock page in a real Chromium: before a round-1 Swiss match is reopened, the
organiser sees what depends on it — the later round, the knockout advanced from it — and must tick
that they read it; the reopened match says its clock stays stopped. Phone size (390×844), Chinese
and English; screenshots in ``test-output/screenshots/corrections-*.png`` for a person to look at."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import cache

from tests.e2e.conftest import PHONE, SCREENSHOTS
from tests.factories import organiser
from tests.tournament.draw.conftest import confirm, make_field
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_advance, stage_create
from tournament.matches.models import Match, MatchStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "corrections-browser-pass-1"


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def swiss_then_knockout():
    tournament = make_field(8)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss", advance_count=4)
    for number in (1, 2):
        round_ = round_publish(round_=round_draw(stage=stage, seed=number))
        for match in round_.matches.filter(ew_pair__isnull=False):
            confirm(match)
    boss = organiser(username="boss")
    boss.set_password(PASSWORD)
    boss.save()
    tournament.organisers.add(boss)
    final = stage_create(tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed"})
    stage_advance(stage=stage, next_stage=final, user=boss)
    round_publish(round_=round_draw(stage=final, seed=1))
    return Match.objects.filter(round__stage=stage, round__number=1, ew_pair__isnull=False).first()


def open_page(browser, live_server, language):
    context = browser.new_context(viewport=PHONE, locale="zh-CN", base_url=live_server.url)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "domain": host, "path": "/"}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto("/accounts/login/")
    page.fill("input[name=username]", "boss")
    page.fill("input[name=password]", PASSWORD)
    page.locator("form [type=submit]").last.click()
    page.wait_for_load_state()
    return context, page


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"corrections-{name}.png"), full_page=True)


def fits(page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_the_unlock_page_shows_what_depends_on_the_match_before_reopening_it(browser, live_server):
    match = swiss_then_knockout()
    context, page = open_page(browser, live_server, "en")
    page.goto(f"/referee/matches/{match.pk}/unlock/")
    dependents = page.locator(".dependents")
    assert "Round 2 was drawn from these standings" in dependents.inner_text()
    assert "淘汰赛: its pairs were advanced from these standings and it has been drawn" in dependents.inner_text()
    assert fits(page) and page.get_by_role("button", name="Unlock").is_visible()
    shot(page, "unlock-phone-en")
    context.close()

    context, page = open_page(browser, live_server, "zh-hans")
    page.goto(f"/referee/matches/{match.pk}/unlock/")
    text = page.locator(".dependents").inner_text()
    assert "依赖此结果的内容" in text and "第 2 轮由此排名抽签" in text and "晋级" in text
    assert fits(page)
    page.fill("input[name=reason]", "记分有误")
    page.locator("form button[type=submit]").last.click()  # the acknowledgement is not ticked
    page.wait_for_load_state()
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    shot(page, "unlock-refused-phone-zh")
    page.check("input[name=dependents_seen]")
    page.fill("input[name=reason]", "记分有误")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_load_state()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.reopened_at is not None
    assert "已重开更正" in page.locator(".clock").inner_text()
    assert fits(page)
    shot(page, "reopened-phone-zh")
    context.close()
