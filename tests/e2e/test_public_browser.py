"""What players see, in a real browser on a phone-sized screen."""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from playwright.sync_api import expect

from tests.tournament.standings.events import knockout_event, swiss_event
from tournament.matches.models import Match
from tournament.matches.services import deal_record
from tournament.registration.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_find_my_table_as_you_type(page, screenshot):
    event = swiss_event()
    player = Player.objects.get(tournament=event.tournament, employee_number="20005")  # 张三甲
    match = Match.objects.select_related("table").get(round=event.second, entries__pair=player.membership.pair)
    page.goto(f"/t/{event.tournament.pk}/find/")
    page.locator("#find-q").fill("三甲")  # htmx asks as the player types
    seat = page.locator(".found-seat").first
    seat.wait_for()
    assert "张三甲" in seat.inner_text()
    assert str(match.table.number) in seat.locator(".seat-where").inner_text()
    assert "三甲" in unquote(page.url)  # the address can be shared or bookmarked
    screenshot("find-my-table")


def test_a_deal_entered_shows_on_the_match_page_without_reload(page, screenshot):
    event = swiss_event()
    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    page.goto(f"/t/{event.tournament.pk}/matches/{match.pk}/")
    page.evaluate("window.__notReloaded = true")
    assert page.locator("[data-deal]").count() == 0
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})  # what the referee's entry does
    page.locator('[data-deal="1"]').wait_for(timeout=10_000)  # the bound: 10 seconds
    assert page.evaluate("window.__notReloaded") is True
    assert page.locator('[data-side="NS"]').inner_text() == "7"  # timed-40: +5 a 1-2 (seed 002)
    screenshot("match-live-update")


def test_the_bracket_shows_byes_and_scrolls_sideways(page, screenshot):
    tournament, _rounds = knockout_event()
    page.goto(f"/t/{tournament.pk}/bracket/")
    page.locator(".bracket").wait_for()
    assert page.locator(".bracket-round").count() == 3
    byes = page.locator(".bracket-match.bye")
    assert byes.count() == 2 and byes.first.is_visible()
    assert page.locator(".bracket-match.live-match").count() == 1
    scroller = page.locator(".bracket-scroll")
    assert scroller.evaluate("el => el.scrollWidth > el.clientWidth")  # the tree is wider than a phone
    screenshot("bracket")
    scroller.evaluate("el => el.scrollTo(el.scrollWidth, 0)")
    screenshot("bracket-scrolled", full_page=False)


def test_big_screen_mode_advances(page, screenshot):
    event = swiss_event()
    page.goto(f"/t/{event.tournament.pk}/screen/?interval=1&rows=4")
    screen = page.locator("[data-screen]")
    screen.wait_for()
    assert page.locator(".slide:visible").count() == 1
    first = screen.get_attribute("data-current")
    screenshot("big-screen-phone")
    # the page's CSP forbids evaluating strings (wait_for_function's predicate): Playwright's expect
    expect(page.locator("[data-screen]")).not_to_have_attribute("data-current", first, timeout=5000)
    assert page.locator(".slide:visible").count() == 1
    page.set_viewport_size({"width": 1920, "height": 1080})
    screenshot("big-screen-projector", full_page=False)


# Each player's name in a draw cell (a span of its own): the number of line boxes it takes.
NAME_LINES = """() => Array.from(document.querySelectorAll('table.draw td a[href*="/pairs/"]')).flatMap((link) => {
    const names = link.querySelectorAll('span');
    return Array.from(names.length ? names : [link]).map((name) => [
        name.textContent, new Set(Array.from(name.getClientRects()).map((r) => Math.round(r.top))).size,
    ]);
})"""


def test_the_phones_draw_never_breaks_a_name(page, screenshot):
    event = swiss_event(name="第一届职工掼蛋公开赛")
    page.goto(f"/t/{event.tournament.pk}/draw/")
    lines = page.evaluate(NAME_LINES)
    assert lines and all(count == 1 for _name, count in lines), [item for item in lines if item[1] != 1]
    screenshot("draw-names-phone")
