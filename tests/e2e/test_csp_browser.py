"""The Content-Security-Policy in a real browser: the main public, referee and
organiser pages load, their scripts run (htmx swaps, confirms, the countdowns) and Chromium
reports no violation of the policy."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import log_in
from tests.factories import organiser, referee
from tests.tournament.standings.events import swiss_event
from tournament.matches.models import Deal, RefereeAssignment
from tournament.registration.models import Pair, PairStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "csp-browser-pass-1"
WATCH = """
window.__cspViolations = [];
window.print = function () { window.__printed = true; };  // no print dialog in a test
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


@pytest.fixture
def watched(page):
    """The page, recording every CSP violation (its event and the console's report)."""
    console: list[str] = []
    page.add_init_script(WATCH)
    page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    page.console_errors = console
    page.dialogs = dialogs
    return page


def violations(page) -> list[str]:
    seen = list(page.evaluate("window.__cspViolations || []"))
    return seen + [text for text in page.console_errors if "Content Security Policy" in text]



def test_public_pages_run_under_the_policy(watched):
    event = swiss_event()
    tid = event.tournament.pk
    match = event.first.matches.exclude(ew_pair=None).first()
    for path in (f"/t/{tid}/", f"/t/{tid}/draw/", f"/t/{tid}/standings/", f"/t/{tid}/matches/{match.pk}/",
                 f"/t/{tid}/screen/?interval=1", f"/t/{tid}/bracket/"):
        watched.goto(path)
        watched.wait_for_load_state("networkidle")
        assert violations(watched) == [], path
    watched.goto(f"/t/{tid}/find/")
    watched.locator("#find-q").fill("三甲")  # an htmx request as the player types
    watched.locator(".found-seat").first.wait_for()
    assert violations(watched) == []


def test_referee_pages_run_under_the_policy(watched):
    event = swiss_event()
    user = referee(username="csp-ref")
    user.set_password(PASSWORD)
    user.save()
    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    RefereeAssignment.objects.create(round=event.second, table=match.table, referee=user)
    log_in(watched, "csp-ref", PASSWORD)
    watched.goto("/referee/")
    assert violations(watched) == []
    watched.goto(f"/referee/matches/{match.pk}/")
    watched.evaluate("window.__notReloaded = true")
    for index, seat in enumerate(("N", "S")):  # taps swap the entry through htmx
        watched.locator(f"a.seat-{seat}").click()
        watched.locator(".taps li").nth(index).wait_for()
    assert watched.evaluate("window.__notReloaded") is True  # htmx swapped, no page load
    # the phone's queue sends the deal and the page loads again; its answer is listed once stored (waiting
    # for the network to go quiet alone raced the server on a loaded machine)
    with watched.expect_navigation():
        watched.locator(f"form[action$='/matches/{match.pk}/deals/'] [type=submit]").first.click()
    watched.locator("#queue-results li[data-result]").first.wait_for()
    watched.wait_for_load_state("networkidle")
    assert Deal.objects.filter(match=match).count() == 1
    assert violations(watched) == []
    watched.goto("/referee/cards/")
    watched.wait_for_load_state("networkidle")
    assert violations(watched) == []


def test_organiser_pages_run_under_the_policy(watched):
    event = swiss_event()
    user = organiser(username="csp-boss")
    user.set_password(PASSWORD)
    user.save()
    event.tournament.organisers.add(user)
    tid, rid = event.tournament.pk, event.second.pk
    log_in(watched, "csp-boss", PASSWORD)
    for path in (f"/t/{tid}/", f"/t/{tid}/manage/pairs/", f"/t/{tid}/manage/check-in/", f"/t/{tid}/manage/stages/",
                 f"/t/{tid}/manage/rounds/{rid}/", f"/t/{tid}/manage/rounds/{rid}/sheet/",
                 f"/t/{tid}/manage/exports/", f"/t/{tid}/manage/rounds/{rid}/clock/"):
        response = watched.goto(path)
        assert response is not None and response.status == 200, path
        watched.wait_for_load_state("networkidle")
        assert violations(watched) == [], path
    watched.goto(f"/t/{tid}/manage/rounds/{rid}/sheet/")
    watched.locator("button[onclick]").first.click()  # the print handler, allowed by its hash
    assert watched.evaluate("window.__printed === true")
    assert violations(watched) == []
    watched.goto(f"/t/{tid}/manage/pairs/")
    watched.locator("button[data-confirm]").first.click()  # site.js asks before the form is sent
    watched.wait_for_load_state("networkidle")
    assert len(watched.dialogs) == 1
    assert Pair.objects.filter(tournament=event.tournament, status=PairStatus.WITHDRAWN).count() == 1
    assert violations(watched) == []
