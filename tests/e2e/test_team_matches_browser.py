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


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_drawn_knockout_team_matchs_tie_break_deal_is_recorded_on_its_page(
    page, screenshot, live_server, size, language
):
    from tournament.draw.services import round_publish
    from tournament.matches.models import TeamMatch
    from tournament.matches.services import deal_record
    from tournament.matches.team_matches import team_match_sign_off

    page.set_viewport_size(SIZES[size])
    event = TournamentFactory(name="公司团体赛")
    for name in ("销售部", "研发部"):
        team_create(tournament=event, name=name, pairs=[PairFactory(tournament=event) for _ in range(2)])
    stage = stage_create(tournament=event, name="团体决赛", format="knockout", options={"team_match": True})
    round_ = round_draw(stage=stage, seed=4)
    round_publish(round_=round_)
    row = TeamMatch.objects.get(round=round_)
    for table in (row.table_a, row.table_b):  # N/S wins both tables by the same margin: level
        for order in (("N", "S"), ("N", "S"), ("N", "S"), ("N", "E", "S")):
            deal_record(match_id=table.pk, outcome={"order": list(order)})
    team_match_sign_off(team_match=row)
    boss = organiser(username="boss")
    event.organisers.add(boss)
    signed_in_as(page, boss, live_server, language)
    page.goto(f"/t/{event.pk}/manage/rounds/{round_.pk}/team-matches/")
    form = page.locator("form.extra-deal")
    assert form.count() == 1
    assert fits_the_screen(page)
    screenshot(f"team-match-tie-break-{size}-{language}")
    form.locator("input[name=side][value=EW]").check()
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator("form.extra-deal").count() == 0
    row.refresh_from_db()
    assert row.extra_deal == "EW"
    screenshot(f"team-match-tie-break-decided-{size}-{language}")
