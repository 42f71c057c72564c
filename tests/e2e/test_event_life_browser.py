"""The event's life, the door and find-my-table answers in a real Chromium, at a phone's
and a desktop's size, in Chinese and English: each page fits the screen, and the door's tap checks
a pair in without a reload. Screenshots in ``test-output/screenshots/event-*.png``."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from tests.factories import organiser
from tests.tournament.standings.events import pairs_register, swiss_event
from tournament.registration.models import PairStatus

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


def signed_in_as(page, user, live_server, language: str) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies(
        [
            {"name": cookie.key, "value": cookie.value, "url": live_server.url},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url},
        ]
    )


def fits_the_screen(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_event_pages_door_and_find_answers(page, screenshot, live_server, size, language):
    page.set_viewport_size(SIZES[size])
    boss = organiser(username="boss")
    event = swiss_event(pairs=8, name="第一届公开赛")
    event.tournament.organisers.add(boss)
    late = pairs_register(event.tournament, 3, start=40)
    signed_in_as(page, boss, live_server, language)
    tag = f"{size}-{'zh' if language == 'zh-hans' else 'en'}"

    page.goto("/")
    assert page.locator(".status-group h2").first.is_visible()
    assert fits_the_screen(page)
    screenshot(f"event-home-{tag}")

    page.goto(f"/t/{event.tournament.pk}/manage/event/")
    assert page.locator(".life-now").is_visible()
    assert page.locator(".warning-box").first.is_visible()  # the rules are locked: rounds are drawn
    assert page.locator("select[name=rule_profile]").is_disabled()
    assert fits_the_screen(page)
    screenshot(f"event-edit-{tag}")

    page.goto(f"/t/{event.tournament.pk}/manage/check-in/")
    row = page.locator(f"#pair-{late[0].pk}")
    assert page.locator(".door-row").first.get_attribute("id") == f"pair-{event.pairs[0].pk}"  # to come first
    assert fits_the_screen(page)
    screenshot(f"event-checkin-{tag}")
    page.locator("#q").fill(late[0].members.get(slot=2).player.name)
    expect(page.locator(".door-row")).to_have_count(1)  # the search answered
    row.locator("button").click()
    page.locator(f"#pair-{late[0].pk}.door-checked_in").wait_for()
    assert page.locator("#checkin-counts strong").inner_text() == "1"  # the counts follow the tap
    late[0].refresh_from_db()
    assert late[0].status == PairStatus.CHECKED_IN
    screenshot(f"event-checkin-search-{tag}", full_page=False)

    for query, name in ((late[1].members.get(slot=2).player.name, "registered"), ("队友01", "seated")):
        page.goto(f"/t/{event.tournament.pk}/find/?q={query}")
        page.locator(".found").wait_for()
        assert fits_the_screen(page)
        screenshot(f"event-find-{name}-{tag}", full_page=False)
