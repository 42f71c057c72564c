"""The organiser's team match page and the prizes page's team prizes in Chromium, phone and laptop,
Chinese and English: both tables of each team match, the line-ups, the team prizes; nothing wider than
the screen."""

from __future__ import annotations

import pytest

from tests.e2e.test_event_life_browser import SIZES, fits_the_screen, signed_in_as
from tests.factories import PairFactory, TournamentFactory, organiser
from tournament.draw.services import round_draw
from tournament.draw.stages import stage_create
from tournament.registration.teams import team_create

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_team_match_and_team_prize_pages(page, screenshot, live_server, size, language):
    page.set_viewport_size(SIZES[size])
    event = TournamentFactory(name="公司团体赛")
    for name in ("销售部", "研发部", "财务部", "市场部"):
        team_create(tournament=event, name=name, pairs=[PairFactory(tournament=event) for _ in range(2)])
    stage = stage_create(tournament=event, name="团体瑞士移位", format="swiss", options={"team_match": True})
    round_ = round_draw(stage=stage, seed=4)
    boss = organiser(username="boss")
    event.organisers.add(boss)
    signed_in_as(page, boss, live_server, language)
    page.goto(f"/t/{event.pk}/manage/rounds/{round_.pk}/team-matches/")
    assert page.locator("section.team-match").count() == 2
    assert page.locator("form.line-up").count() == 4
    assert fits_the_screen(page)
    screenshot(f"team-matches-{size}-{language}")
    page.goto(f"/t/{event.pk}/manage/prizes/")
    assert page.locator("#team-prizes").count() == 1
    screenshot(f"team-prizes-{size}-{language}")
