"""The public side of team matches in Chromium, phone and laptop, Chinese and English: the draw shows
team against team with both tables, find my table names the player's team match and table, the
team standings (phone and big screen) and the organiser's stage page rank the teams (team matches, and a
team total); nothing wider than the screen, not even a table that would scroll inside it."""

from __future__ import annotations

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.e2e.test_event_life_browser import SIZES, fits_the_screen, signed_in_as
from tests.factories import organiser
from tests.tournament.standings.test_team_match_public import _played

pytestmark = pytest.mark.django_db(transaction=True)


def nothing_scrolls_sideways(page) -> bool:
    """The page fits the screen, and so does every table region in it (a phone reads the team tables
    whole: their tie-break columns fold under the team's name rather than scroll)."""
    return fits_the_screen(page) and page.evaluate(
        "[...document.querySelectorAll('.scroll-x')].every(region => region.scrollWidth <= region.clientWidth)"
    )


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_public_draw_find_and_team_standings_of_a_team_match_stage(page, screenshot, live_server, size, language):
    page.set_viewport_size(SIZES[size])
    event, stage, round_, first, second = _played()
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    zh = language == "zh-hans"
    tag = f"{size}-{'zh' if zh else 'en'}"

    page.goto(f"/t/{event.pk}/draw/{round_.pk}/")
    header = page.locator(f"#team-match-{first.pk}")
    expect(header).to_contain_text(first.team_x.name)
    expect(header).to_contain_text(first.team_y.name)
    expect(page.locator(f"#match-{first.table_a_id}")).to_contain_text("a 桌" if zh else "table a")
    expect(page.locator(f"#match-{first.table_b_id}")).to_contain_text("b 桌" if zh else "table b")
    expect(page.locator(f"#team-match-{second.pk}")).to_contain_text(
        f"{second.team_x.name} 胜" if zh else f"{second.team_x.name} wins"
    )
    assert nothing_scrolls_sideways(page)
    screenshot(f"team-draw-{tag}")

    pair = first.table_b.ew_pair
    player = pair.members.select_related("player").first().player
    page.goto(f"/t/{event.pk}/find/")
    page.locator("#find-q").fill(player.name)
    found = page.locator(".found-seat").first
    named = (
        f"第 1 场团体对抗：{first.team_x.name} 对 {first.team_y.name} · b 桌"
        if zh
        else f"Team match 1: {first.team_x.name} v {first.team_y.name} · table b"
    )
    expect(found).to_contain_text(named)
    expect(found).to_contain_text(f"{first.table_b.table.number}")
    assert fits_the_screen(page)
    screenshot(f"team-find-{tag}")

    page.goto(f"/t/{event.pk}/teams/{stage.pk}/")
    expect(page.locator("table.team-match-standings tbody tr").first).to_contain_text(second.team_x.name)
    expect(page.locator("table.team-match-results")).to_be_visible()
    assert nothing_scrolls_sideways(page)
    # on a phone the tables won, small points and opponents' points are read under the team's name
    narrow = page.locator("table.team-match-standings tbody tr").first.locator(".team-narrow")
    expect(narrow).to_be_visible() if size == "phone" else expect(narrow).to_be_hidden()
    screenshot(f"team-standings-{tag}")
    page.goto(f"/t/{event.pk}/teams/{stage.pk}/?screen=1")
    expect(page.locator("table.team-match-standings")).to_be_visible()
    assert nothing_scrolls_sideways(page)
    screenshot(f"team-standings-screen-{tag}")

    boss = organiser(username="boss")
    event.organisers.add(boss)
    signed_in_as(page, boss, live_server, language)
    page.goto(f"/t/{event.pk}/manage/stages/{stage.pk}/")
    expect(page.locator("#teams table.team-match-standings")).to_be_visible()
    assert nothing_scrolls_sideways(page)
    screenshot(f"team-stage-{tag}")


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_team_total_fits_the_screen_public_big_screen_and_the_organisers_stage(
    page, screenshot, live_server, size, language
):
    from tests.tournament.standings.test_team_total import _event
    from tournament.draw.stages import stage_teams_set

    page.set_viewport_size(SIZES[size])
    event, stage, _a, _b = _event()
    stage_teams_set(stage=stage, team_total=True, team_count=2)
    tag = f"{size}-{'zh' if language == 'zh-hans' else 'en'}"
    boss = organiser(username="boss")
    event.organisers.add(boss)
    signed_in_as(page, boss, live_server, language)
    for name, url in (
        ("public", f"/t/{event.pk}/teams/{stage.pk}/"),
        ("screen", f"/t/{event.pk}/teams/{stage.pk}/?screen=1"),
        ("stage", f"/t/{event.pk}/manage/stages/{stage.pk}/"),
    ):
        page.goto(url)
        expect(page.locator("table.team-standings")).to_be_visible()
        assert nothing_scrolls_sideways(page), name
        screenshot(f"team-total-{name}-{tag}")
    # the organiser's table: on a phone the small points, best place and counted members fold under the name
    narrow = page.locator("#teams table.team-standings tbody tr").first.locator(".team-narrow")
    expect(narrow).to_be_visible() if size == "phone" else expect(narrow).to_be_hidden()
    expect(narrow).to_contain_text("最佳名次" if language == "zh-hans" else "Best place")
