"""An archived event's organiser pages in a real Chromium, in Chinese and English: every page says
the event is read-only and offers no change (no write button visible); the event's page offers only
"Unarchive". Screenshots in ``test-output/screenshots/archived-*.png``."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.e2e.test_event_life_browser import signed_in_as
from tests.factories import organiser
from tests.tournament.standings.events import swiss_event
from tournament.registration import lifecycle

pytestmark = pytest.mark.django_db(transaction=True)

VISIBLE_WRITES = """() => Array.from(document.querySelectorAll('main form[method="post"] button, main a.write-link'))
    .filter((element) => element.offsetParent !== null).map((element) => element.textContent.trim())"""


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_an_archived_event_offers_no_change(page, screenshot, live_server, language):
    boss = organiser(username="boss")
    event = swiss_event(pairs=6)
    tournament = event.tournament
    tournament.organisers.add(boss)
    lifecycle.tournament_archive(tournament=tournament)
    signed_in_as(page, boss, live_server, language)
    match = event.second.matches.exclude(ew_pair=None).first()
    pages = {
        "pairs": reverse("registration:pairs", args=[tournament.pk]),
        "checkin": reverse("registration:checkin", args=[tournament.pk]),
        "stages": reverse("draw:stages", args=[tournament.pk]),
        "stage": reverse("draw:stage", args=[tournament.pk, event.second.stage_id]),
        "round": reverse("draw:round", args=[tournament.pk, event.second.pk]),
        "clock": reverse("matches:round_clock", args=[tournament.pk, event.second.pk]),
        "prizes": reverse("exports:prizes", args=[tournament.pk]),
    }
    tag = "zh" if language == "zh-hans" else "en"
    for name, url in pages.items():
        page.goto(url)
        assert page.locator(".read-only-note").is_visible(), name
        assert page.evaluate(VISIBLE_WRITES) == [], name
        screenshot(f"archived-{name}-{tag}")

    page.goto(reverse("matches:match", args=[match.pk]))
    assert page.locator(".notice.read-only").is_visible()
    assert page.evaluate(VISIBLE_WRITES) == []
    screenshot(f"archived-match-{tag}")

    page.goto(reverse("matches:event", args=[tournament.pk]))
    assert page.evaluate(VISIBLE_WRITES) == ["取消归档" if language == "zh-hans" else "Unarchive"]
