"""The room's wifi flapping, in real Chromium: two phones at one table (North and East)
enter deals while each goes offline and online every few seconds. Afterwards the database holds
exactly what each phone says became of its deals: 0 lost (nothing left waiting, every deal either
recorded once or refused with a reason), 0 doubled (one entry per idempotency key, one per number).
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import new_phone, wait_until
from tests.tournament.matches.test_player_entry import players_match
from tournament.matches import player_entry as pe
from tournament.matches.models import DealClaim
from tournament.matches.table_links import table_token

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_eager")]

DEALS_PER_PHONE = 6
# +1 for the side finishing first (partner third): the match never ends within the test
ORDERS = {"N": ["N", "E", "S"], "E": ["E", "N", "W"]}


class Phone:
    def __init__(self, browser, live_server, *, seat: str, code: str, url: str, period: float) -> None:
        self.page = new_phone(browser, live_server, timeout=8_000)
        self.context = self.page.context
        self.seat, self.period, self.offline, self.flipped = seat, period, False, time.monotonic()
        self.flips = 0  # offline and online every period seconds, the test tapping on through it
        self.entered_offline = 0
        self.page.goto(url)
        self.page.locator("#id_code").fill(code)
        self.page.locator("#identify button[type=submit]").click()
        self.page.locator("#entry").wait_for()
        self.page.evaluate("navigator.serviceWorker.ready.then(() => true)")

    def flap(self) -> None:
        if time.monotonic() - self.flipped >= self.period:
            self.offline = not self.offline
            self.context.set_offline(self.offline)
            self.flipped = time.monotonic()
            self.flips += 1

    def reload(self) -> None:
        try:
            self.page.reload()
        except PlaywrightError:  # already navigating
            self.page.wait_for_load_state()

    def queued(self) -> int:
        for _attempt in range(20):
            try:
                return int(self.page.evaluate("window.dealQueue.all().then(items => items.length)"))
            except PlaywrightError:  # the page reloading after a send
                self.page.wait_for_timeout(200)
        raise AssertionError("the page never settled")

    def enter_one(self) -> None:
        """Tap a deal and save it; a reload (after a send) in the middle starts the deal again."""
        before = self.queued()
        seats = ORDERS[self.seat]
        for _attempt in range(12):
            try:
                self.flap()
                self.page.locator('#entry[data-taps=""]').wait_for()
                for index, seat in enumerate(seats, 1):
                    self.page.locator(f"#entry a.seat-{seat}").click()
                    self.page.locator(f'#entry[data-taps="{"".join(seats[:index])}"]').wait_for()
                offline = self.offline
                self.page.locator("#entry form[method=post] button[type=submit]").click()
                wait_until(self.page, f"window.dealQueue.all().then(items => items.length > {before})", timeout=8_000)
                self.entered_offline += offline
                return
            except PlaywrightError:
                if self.queued() > before:
                    return
                # a deal left half-tapped (a reload after a send came in between): start it again
                self.page.wait_for_timeout(300)
                self.reload()
        raise AssertionError(f"{self.seat} could not enter a deal")

    def settle(self) -> list[dict]:
        """Online for good: wait until nothing waits, and read what the phone shows."""
        self.context.set_offline(False)
        self.page.wait_for_timeout(300)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                self.page.evaluate("window.dealQueue.flush()")
                items = self.page.evaluate("window.dealQueue.all()")
                if all(item["state"] != "waiting" for item in items):
                    return items
            except PlaywrightError:
                pass
            self.page.wait_for_timeout(500)
        raise AssertionError(f"{self.seat}: deals still waiting")


def test_two_phones_entering_through_a_flapping_network_lose_nothing_and_double_nothing(browser, live_server):
    match = players_match()
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    url = f"/table/{table_token(round_=match.round, table_id=match.table_id)}/"
    north = Phone(browser, live_server, seat="N", code=seats["N"].player.employee_number, url=url, period=1.0)
    east = Phone(browser, live_server, seat="E", code=seats["E"].player.employee_number, url=url, period=0.8)
    try:
        for _round in range(DEALS_PER_PHONE):
            north.enter_one()
            east.enter_one()
        shown = {"N": north.settle(), "E": east.settle()}
        # the network did flap, and deals were entered while it was down
        assert north.flips >= 3 and east.flips >= 2
        assert north.entered_offline + east.entered_offline >= 2
    finally:
        north.context.close()
        east.context.close()

    claims = {claim.idempotency_key: claim for claim in DealClaim.objects.filter(match=match)}
    entered = [item for items in shown.values() for item in items]
    assert len(entered) == 2 * DEALS_PER_PHONE  # every deal tapped is on its phone: 0 lost on the phone
    for seat, items in shown.items():
        for item in items:
            claim = claims.get(item["key"])
            if item["state"] in ("accepted", "already"):
                # recorded, once, as the deal the phone says, with what that phone entered
                assert claim is not None and claim.number == item["number"], item
                assert claim.entered_by == seats[seat].player and claim.outcome == {"order": ORDERS[seat]}
            else:
                assert item["state"] == "refused" and item["message"], item
                assert claim is None, item
    recorded = {item["key"] for item in entered if item["state"] in ("accepted", "already")}
    assert set(claims) == recorded  # nothing the phones do not know of
    states = [item["state"] for item in entered]
    print("flapping: deals entered", len(entered), {s: states.count(s) for s in set(states)})
    numbers = sorted(claim.number for claim in claims.values())
    assert numbers == list(range(1, len(numbers) + 1))  # one entry per deal, none doubled, no gap
