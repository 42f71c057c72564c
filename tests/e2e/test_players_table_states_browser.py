"""Players at the table, part two, in real Chromium — several phones (browser contexts) at one
table, offline and online, with a referee at the same time:

- wrong codes lock the phone that typed them and the PIN being guessed, never the other phones of
  the room (they share one address) nor the table; the referee lifts the limit from their page;
- after the page's 15-second refresh the state and the count of entries awaiting confirmation are
  current; a submitted dispute closes its form; an entry behind a dispute says why it waits; once
  the match ends the players read the result as the referee does;
- offline, the entry's heading follows the deals waiting on the phone and the waiting deals read
  their finishing order in the page's language; a phone whose entry lost to the other side's entry
  of the same deal is told to check and confirm that entry, and keeps its own with the reason.
"""

from __future__ import annotations

import time

import pytest
from django.test import Client
from django.urls import reverse

from tests.e2e.conftest import SCREENSHOTS, new_phone, signed_in
from tests.e2e.test_players_browser import enter, fits, identify, shot
from tests.factories import english_client, organiser, referee, round_match
from tests.tournament.matches.test_player_entry import players_match
from tests.tournament.matches.test_time_due import finished
from tournament.matches import player_entry as pe
from tournament.matches import table_codes
from tournament.matches.models import ClaimStatus, Deal, DealClaim, Match
from tournament.matches.table_links import table_codes_of, table_token

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_eager")]

LAPTOP = {"width": 1280, "height": 800}


def poll(read, *, tries: int = 150):
    """``read()`` until it is true (a tenth of a second apart); what it last returned. (The site's CSP
    forbids the string evaluation ``wait_for_function`` needs: the page is asked from Python.)"""
    value = read()
    for _attempt in range(tries):
        if value:
            return value
        time.sleep(0.1)
        value = read()
    return value


def english(page, url: str) -> None:
    page.goto(reverse("language_choose", args=["en"]) + f"?next={url}")


def state(page) -> tuple[str, str, str]:
    badge = page.locator("#table-state")
    return badge.get_attribute("data-state"), badge.get_attribute("data-claims-pending"), badge.inner_text()


def waiting(page) -> int:
    return page.evaluate("window.dealQueue.all().then(items => items.filter(i => i.state === 'waiting').length)")


def ready_offline(page) -> None:
    """The service worker holds a copy of the page: a reload offline will open it."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    assert poll(
        lambda: page.evaluate(
            "caches.open('entry-pages-v1').then(c => c.match(location.origin + location.pathname)).then(r => !!r)"
        )
    )


def save_offline(page, *seats: str) -> None:
    """Offline: the taps are kept by the page's script, the deal goes into the queue."""
    for index, seat in enumerate(seats, 1):
        page.locator(f"#entry a.seat-{seat}").click()
        page.locator(f'#entry[data-taps="{"".join(seats[:index])}"]').wait_for()
    before = waiting(page)
    page.locator("#entry form.offline-entry button[type=submit]").click()
    assert poll(lambda: waiting(page) == before + 1)


def identify_as(page, url: str, seat: str, code: str) -> None:
    """Name the seat, then type the code (the PIN compared is that seat's)."""
    page.goto(url)
    page.locator(f'#identify input[name=seat][value="{seat}"]').check()
    page.locator("#id_code").fill(code)
    with page.expect_navigation():
        page.locator("#identify button[type=submit]").click()


def test_wrong_codes_lock_the_phone_and_the_pin_guessed_never_the_room_and_the_referee_lifts_it(browser, live_server):
    ref = referee(username="ref", first_name="王裁判")
    boss = organiser(username="boss")
    match = players_match(referee_user=ref, organiser_user=boss)
    url = f"/table/{table_token(round_=match.round, table_id=match.table_id)}/"
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    typo, partner, east, west = (new_phone(browser, live_server) for _ in range(4))
    desk = new_phone(browser, live_server)
    try:
        # one phone mistypes (not a PIN's shape: an employee number) until it is paused
        typo.goto(url)
        for n in range(table_codes.DEVICE_FREE + 2):  # the free ones, one past them, then paused
            typo.locator("#id_code").fill(f"E9{n:04d}X")
            with typo.expect_navigation():
                typo.locator("#identify button[type=submit]").click()
        assert "这部手机输错号码次数过多" in typo.locator("p.alert").inner_text()
        shot(typo, "players-codes-phone-paused-zh-phone")
        # the other phones of the room (the same address) are not held up
        identify(partner, url, seats["S"].player.employee_number)
        assert partner.locator("#entry").is_visible()

        # someone guesses East's PIN from new "phones" (no cookie, a new address each time)
        east_pin = pe.seat_pin(player_id=seats["E"].player.pk)
        for n in range(table_codes.TARGET_FREE + 1):
            guess = f"{(int(east_pin) + 1 + n) % 10**6:06d}"
            english_client().post(f"{url}me/", {"code": guess, "seat": "E"}, HTTP_X_FORWARDED_FOR=f"10.1.{n}.1")
        # East's right PIN waits (and says whose PIN, for how long); West's PIN and every number work
        identify_as(east, url, "E", east_pin)
        refusal = east.locator("p.alert").inner_text()
        assert seats["E"].player.name in refusal and "PIN 输错次数过多" in refusal
        assert not east.locator("#entry").count()
        shot(east, "players-codes-pin-paused-zh-phone")
        identify_as(west, url, "W", pe.seat_pin(player_id=seats["W"].player.pk))
        assert west.locator("#entry").is_visible()

        # the referee, at the same time, sees whose PIN is being guessed and lifts the limit
        signed_in(desk, ref, live_server)
        desk.goto(f"/referee/matches/{match.pk}/")
        codes = desk.locator("#table-codes")
        assert codes.locator('[data-seat="E"]').is_visible() and not codes.locator('[data-seat="W"]').count()
        assert fits(desk)
        shot(desk, "referee-codes-zh-phone")
        with desk.expect_navigation():
            codes.get_by_role("button", name="解除限制").click()
        assert not desk.locator("#table-codes").count()
        identify_as(east, url, "E", east_pin)
        assert east.locator("#entry").is_visible()
        # the lift is in the match's history: who, and whose PIN
        office = Client()
        office.force_login(boss)
        audit = office.get(reverse("matches:audit", args=[match.pk])).content.decode()
        assert "已解除输错限制" in audit and seats["E"].player.name in audit
    finally:
        for page in (typo, partner, east, west, desk):
            page.context.close()


def test_the_players_page_stays_current_through_confirmation_dispute_and_the_end(browser, live_server):
    ref = referee(username="ref", first_name="王裁判")
    match = players_match(referee_user=ref)
    round_match(round_=match.round)  # another table plays on: the round stays open
    url = f"/table/{table_token(round_=match.round, table_id=match.table_id)}/"
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    north, east, desk = (new_phone(browser, live_server, timeout=15_000) for _ in range(3))
    try:
        north.clock.install()  # the 15-second refresh, run on demand
        identify(north, url, seats["N"].player.employee_number)
        enter(north, "N", "S")
        assert state(north)[1] == "1" and north.locator("[data-pending]").is_visible()
        identify(east, url, pe.seat_pin(player_id=seats["E"].player.pk))
        with east.expect_navigation():
            east.locator('.claim[data-claim="1"] form button[type=submit]').click()
        assert Deal.objects.filter(match=match).count() == 1
        signed_in(desk, ref, live_server)
        desk.goto(f"/referee/matches/{match.pk}/")
        # North's page has not reloaded: its refresh brings the state the referee's page shows
        north.clock.run_for(16_000)
        assert poll(lambda: state(north)[1] == "0")
        assert state(north) == state(desk)
        assert not north.locator("[data-pending]").count() and not north.locator("#claims").count()

        # deal 2 disputed by East: the form closes once sent
        enter(north, "N", "E", "S")
        east.reload()
        east.locator('.claim[data-claim="2"] a.button').click()
        east.wait_for_url("**/dispute/")
        enter(east, "E", "W")
        assert not east.url.endswith("/dispute/") and not east.locator(".dispute-intro").count()
        assert DealClaim.objects.get(match=match, number=2).status == ClaimStatus.DISPUTED
        # deal 3 entered behind it: East's page says why it cannot be confirmed yet
        enter(north, "N", "S")
        east.reload()
        third = east.locator('.claim[data-claim="3"]')
        assert "第 2 副有争议" in third.locator('[data-waits-for="2"]').inner_text()
        assert not third.locator("form").count()
        shot(east, "players-waits-for-dispute-zh-phone")
        desk.reload()
        north.clock.run_for(16_000)
        assert poll(lambda: state(north)[0] == "disputed")
        assert state(north)[:2] == state(desk)[:2] == ("disputed", "1")  # deal 3 awaits confirmation

        # the referee settles deal 2, East confirms deal 3, the referee plays the match out
        desk.locator("input[name=choice][value=entered]").check()
        desk.locator("input[name=reason][id^=settle-reason]").fill("东家认可")
        with desk.expect_navigation():
            desk.locator("#claims form:has(input[name=choice]) button[type=submit]").click()
        east.reload()
        with east.expect_navigation():
            east.locator('.claim[data-claim="3"] form button[type=submit]').click()
        assert Deal.objects.filter(match=match).count() == 3
        finished(Match.objects.get(pk=match.pk))
        desk.reload()
        north.clock.run_for(16_000)
        assert poll(lambda: north.locator("p.result").count())
        assert north.locator("p.result").inner_text() == desk.locator("p.result").inner_text()
        assert "南北 获胜" in north.locator("p.result").inner_text()
        assert state(north) == state(desk)
        shot(north, "players-result-zh-phone")
    finally:
        for page in (north, east, desk):
            page.context.close()


def test_offline_the_heading_follows_the_queue_in_the_pages_language_and_a_lost_entry_says_confirm(
    browser, live_server
):
    match = players_match()
    url = f"/table/{table_token(round_=match.round, table_id=match.table_id)}/"
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    north, east = new_phone(browser, live_server, timeout=15_000), new_phone(browser, live_server, timeout=15_000)
    try:
        english(north, url)
        identify(north, url, seats["N"].player.employee_number)
        ready_offline(north)
        heading = north.locator("#entry [data-deal-heading]")
        assert heading.inner_text() == "Deal 1"
        north.context.set_offline(True)
        save_offline(north, "N", "S")
        assert heading.inner_text() == "Deal 2"
        save_offline(north, "E", "W")
        assert heading.inner_text() == "Deal 3"
        assert north.locator("[data-next-deal]").is_hidden()  # the server's "Next: deal 1" steps aside
        labels = north.locator("[data-waiting]").all_inner_texts()
        assert labels == ["Finishing order: North › South", "Finishing order: East › West"]
        north.reload()  # the phone's copy of the page, the queue kept
        assert poll(lambda: north.locator("[data-waiting]").count() == 2)
        assert north.locator("#entry [data-deal-heading]").inner_text() == "Deal 3"
        shot(north, "players-offline-queue-en-phone")

        # East, online, enters deal 1 first
        identify(east, url, seats["E"].player.employee_number)
        enter(east, "E", "W")
        with north.expect_navigation():  # back online: sent; the page shows the match as it now stands
            north.context.set_offline(False)
        assert poll(lambda: waiting(north) == 0)
        refused = north.locator('#queue-results li[data-result="refused"]')
        refused.wait_for()
        text = refused.inner_text()
        assert "Deal 1" in text and "confirm it" in text and "enter the next" not in text
        shot(north, "players-lost-entry-en-phone")
        # nothing lost, nothing doubled: East's deal 1 and North's deal 2 wait; North's deal 1 stays on
        # the phone with the reason, to compare with East's entry
        claims = list(DealClaim.objects.filter(match=match).order_by("number").values_list("number", "entered_by"))
        assert claims == [(1, seats["E"].player.pk), (2, seats["N"].player.pk)]
        assert "Finishing order: North › South" in text

        # East's phone in Chinese, offline: the heading and the labels in Chinese too
        ready_offline(east)
        east.context.set_offline(True)
        deal = int(east.locator("#entry [data-deal-heading]").get_attribute("data-deal-heading"))
        save_offline(east, "E", "W")
        assert east.locator("#entry [data-deal-heading]").inner_text() == f"第 {deal + 1} 副"
        assert east.locator("[data-waiting]").all_inner_texts() == ["名次：东 › 西"]
        shot(east, "players-offline-queue-zh-phone")
        # the phone stays offline until it is closed: back online, its queue would send the deal while
        # the test's database is being emptied (a request racing the flush deadlocks it)
    finally:
        north.context.close()
        east.context.close()


@pytest.mark.parametrize(
    ("size", "language", "name"),
    [
        ({"width": 390, "height": 844}, "zh-hans", "zh-phone"),
        ({"width": 390, "height": 844}, "en", "en-phone"),
        (LAPTOP, "zh-hans", "zh-laptop"),
        (LAPTOP, "en", "en-laptop"),
    ],
)
def test_the_changed_pages_fit_in_both_languages(browser, live_server, size, language, name):
    """The table page (who are you, a dispute, an entry waiting behind it), the referee's page (whose
    PIN is guessed) and the progress board (the same state), at a phone's and a laptop's size."""
    ref = referee(username="ref")
    boss = organiser(username="boss")
    match = players_match(referee_user=ref, organiser_user=boss)
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    north, east = seats["N"].player.pk, seats["E"].player.pk
    one = pe.deal_claim_enter(
        match_id=match.pk, outcome={"order": ["N", "S"]}, player_id=north, number=1, idempotency_key="a"
    ).claim
    pe.deal_claim_dispute(match_id=match.pk, claim_id=one.pk, player_id=east, counter_outcome={"order": ["E", "W"]})
    pe.deal_claim_enter(
        match_id=match.pk, outcome={"order": ["N", "E", "S"]}, player_id=north, number=2, idempotency_key="b"
    )
    west_pin = pe.seat_pin(player_id=seats["W"].player.pk)
    for n in range(table_codes.TARGET_FREE + 1):
        english_client().post(
            reverse("matches:table_identify", args=[table_token(round_=match.round, table_id=match.table_id)]),
            {"code": f"{(int(west_pin) + 1 + n) % 10**6:06d}", "seat": "W"},
        )
    url = f"/table/{table_token(round_=match.round, table_id=match.table_id)}/"
    page = new_phone(browser, live_server, size=size)
    try:
        if language == "en":
            english(page, url)
        page.goto(url)
        assert fits(page) and page.locator("#identify .seat-choice input[type=radio]").count() == 4
        assert state(page)[0] == "disputed"
        shot(page, f"players-table-states-{name}")
        signed_in(page, ref, live_server)
        page.goto(f"/referee/matches/{match.pk}/")
        assert fits(page) and page.locator('#table-codes [data-seat="W"]').is_visible()
        assert state(page)[0] == "disputed"
        shot(page, f"referee-table-states-{name}")
        signed_in(page, boss, live_server)
        tournament_id = match.round.stage.tournament_id
        page.goto(reverse("matches:table_cards", args=[tournament_id, match.round_id]))
        code = page.locator("[data-table-code]").first.get_attribute("data-table-code")
        assert len(code) == 6 and fits(page)
        page.screenshot(path=str(SCREENSHOTS / f"table-cards-code-{name}.png"), full_page=True)
        page.goto(reverse("matches:progress_board", args=[tournament_id, match.round_id]))
        assert page.locator('.board-row [data-state="disputed"][data-claims-pending="1"]').count() == 1
        assert fits(page)
        page.screenshot(path=str(SCREENSHOTS / f"board-table-states-{name}.png"), full_page=True)
    finally:
        page.context.close()


def test_a_phone_that_cannot_scan_types_the_table_number_and_code(browser, live_server):
    match = players_match()
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    code = table_codes_of(round_=match.round)[match.table_id]
    for size, language, name in (
        ({"width": 390, "height": 844}, "zh-hans", "zh-phone"),
        (LAPTOP, "en", "en-laptop"),
    ):
        page = new_phone(browser, live_server, size=size)
        try:
            if language == "en":
                english(page, "/table/")
            page.goto("/table/")
            page.locator("#id_table").fill(str(match.table.number))
            page.locator("#id_table_code").fill("000000" if code != "000000" else "111111")
            with page.expect_navigation():
                page.locator("#table-find button[type=submit]").click()
            assert page.locator("p.alert").is_visible() and fits(page)
            shot(page, f"table-find-refused-{name}")
            page.locator("#id_table_code").fill(code)
            with page.expect_navigation():
                page.locator("#table-find button[type=submit]").click()
            assert page.url.endswith(f"/table/{table_token(round_=match.round, table_id=match.table_id)}/")
            page.locator('#identify input[name=seat][value="N"]').check()
            page.locator("#id_code").fill(seats["N"].player.employee_number)
            with page.expect_navigation():
                page.locator("#identify button[type=submit]").click()
            assert page.locator("#entry").is_visible()
        finally:
            page.context.close()
