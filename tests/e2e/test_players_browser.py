"""Players at the table, in real Chromium: two browser contexts are the two sides of a
table. North enters, East confirms on their own phone; a disputed deal is settled by the referee;
the table's code is refused on another table, after revocation and after the round."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.e2e.conftest import PHONE, SCREENSHOTS, new_phone, signed_in
from tests.factories import referee, round_match
from tests.tournament.matches.test_player_entry import players_match
from tests.tournament.matches.test_table_links import forged
from tournament.matches import player_entry as pe
from tournament.matches.models import ClaimStatus, Deal, DealClaim, RoundStatus
from tournament.matches.table_links import table_link_revoke, table_token

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_eager")]

LAPTOP = {"width": 1366, "height": 800}


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def identify(page, url: str, code: str) -> None:
    page.goto(url)
    page.locator("#id_code").fill(code)
    page.locator("#identify button[type=submit]").click()
    page.locator("#entry").wait_for()


def tap(page, *seats: str) -> None:
    """Tap seats one by one, each answered (by the server online, by the queue's script offline)."""
    for index, seat in enumerate(seats, 1):
        page.locator(f"#entry a.seat-{seat}").click()
        page.locator(f'#entry[data-taps="{"".join(seats[:index])}"]').wait_for()


def enter(page, *seats: str) -> None:
    """Tap the seats and confirm: the deal goes through the offline queue; the page reloads."""
    tap(page, *seats)
    button = page.locator("#entry form[method=post] button[type=submit]")
    with page.expect_navigation():
        button.click()
    page.locator("#entry").wait_for()


def test_north_enters_east_confirms_a_dispute_is_settled_by_the_referee(browser, live_server):
    ref = referee(first_name="王裁判")
    match = players_match(referee_user=ref)
    url = f"/table/{table_token(round_=match.round, table_id=match.table_id)}/"
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    north, east = new_phone(browser, live_server), new_phone(browser, live_server)
    try:
        identify(north, url, seats["N"].player.employee_number)
        assert fits(north)
        shot(north, "players-entry-zh-phone")
        enter(north, "N", "S")
        claim = DealClaim.objects.get(match=match)
        assert claim.status == ClaimStatus.PENDING and not Deal.objects.filter(match=match).exists()
        assert north.locator('.claim[data-claim="1"]').is_visible()
        shot(north, "players-awaiting-zh-phone")

        # East, on their own phone, with the PIN from the seat card
        identify(east, url, pe.seat_pin(player_id=seats["E"].player.pk))
        assert east.locator('.claim[data-claim="1"]').is_visible()
        shot(east, "players-confirm-zh-phone")
        with east.expect_navigation():
            east.locator('.claim[data-claim="1"] form button[type=submit]').click()
        assert Deal.objects.get(match=match).outcome == {"order": ["N", "S"]}

        # deal 2: North enters N E S, East says E W
        north.reload()
        enter(north, "N", "E", "S")
        east.reload()
        east.locator('.claim[data-claim="2"] a.button').click()
        east.wait_for_url("**/dispute/")
        enter(east, "E", "W")
        claim = DealClaim.objects.get(match=match, number=2)
        assert claim.status == ClaimStatus.DISPUTED and claim.counter_outcome == {"order": ["E", "W"]}
        shot(east, "players-disputed-zh-phone")
        # a double tap on the confirm buttons did not double anything
        assert Deal.objects.filter(match=match).count() == 1

        # the referee sees it at once on their home, with both versions, and settles it
        desk = new_phone(browser, live_server)
        try:
            signed_in(desk, ref, live_server)
            desk.goto("/referee/")
            dispute = desk.locator(f'#disputes [data-dispute="{claim.pk}"]')
            # both versions, in the page's language (北 › 东 › 南 on a Chinese page, not N E S)
            assert "北 › 东 › 南" in dispute.inner_text() and "东 › 西" in dispute.inner_text()
            shot(desk, "referee-home-dispute-zh-phone")
            dispute.locator("a").click()
            desk.locator("input[name=choice][value=counter]").check()
            # the settle form's reason, not the undo form's (undo asks for a reason too)
            desk.locator("input[name=reason][id^=settle-reason]").fill("双方确认东西双上")
            assert fits(desk)
            shot(desk, "referee-settle-zh-phone")
            with desk.expect_navigation():
                desk.locator("#claims form button[type=submit]").click()
        finally:
            desk.context.close()
        claim.refresh_from_db()
        assert claim.status == ClaimStatus.SETTLED and claim.settled_by == ref
        assert [d.outcome for d in Deal.objects.filter(match=match).order_by("number")] == [
            {"order": ["N", "S"]},
            {"order": ["E", "W"]},
        ]
        reasons = [row.history_change_reason for row in claim.history.order_by("history_date")]
        assert reasons[0].startswith("entered by") and reasons[1].startswith("disputed by")
        assert reasons[2].startswith("settled (counter)")
    finally:
        north.context.close()
        east.context.close()


def test_an_opponents_employee_number_does_not_confirm_their_pin_does(browser, live_server):
    """North's own phone: East's employee number in "以对方身份确认" is refused (colleagues know it), and
    the phone said to be East's by that number still asks for the PIN; East's PIN confirms."""
    match = players_match()
    url = f"/table/{table_token(round_=match.round, table_id=match.table_id)}/"
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    north = new_phone(browser, live_server)
    try:
        identify(north, url, seats["N"].player.employee_number)
        enter(north, "N", "S")
        claim = north.locator('.claim[data-claim="1"]')
        claim.locator("input[name=code]").fill(seats["E"].player.employee_number)
        with north.expect_navigation():
            claim.get_by_role("button", name="以对方身份确认").click()
        assert "PIN" in north.locator("p.alert").inner_text()
        assert not Deal.objects.filter(match=match).exists()
        shot(north, "players-confirm-refused-zh-phone")
        # handed to "East" by East's employee number: the phone asks for East's PIN, not one tap
        with north.expect_navigation():
            north.locator("form[action$='/leave/'] button").click()
        identify(north, url, seats["E"].player.employee_number)
        claim = north.locator('.claim[data-claim="1"]')
        claim.locator("input[name=code]").fill(pe.seat_pin(player_id=seats["E"].player.pk))
        with north.expect_navigation():
            claim.locator("button[type=submit]").first.click()
        assert Deal.objects.get(match=match).outcome == {"order": ["N", "S"]}
        assert DealClaim.objects.get(match=match).answered_by == seats["E"].player
    finally:
        north.context.close()


def test_the_table_code_is_refused_on_another_table_after_revocation_and_after_the_round(browser, live_server):
    match = players_match()
    other = round_match(round_=match.round)
    token = table_token(round_=match.round, table_id=match.table_id)
    page = new_phone(browser, live_server)
    try:
        page.goto(f"/table/{token}/")
        assert str(match.table.number) in page.locator("h1").inner_text()
        # this table's code edited to open the other table: refused
        response = page.goto(f"/table/{forged(token, round_id=match.round_id, table_id=other.table_id)}/")
        assert response.status == 403 and "无效" in page.content()
        table_link_revoke(round_=match.round, table_id=match.table_id)
        response = page.goto(f"/table/{token}/")
        assert response.status == 403 and "收回" in page.content()
        fresh = table_token(round_=match.round, table_id=match.table_id)
        assert page.goto(f"/table/{fresh}/").status == 200
        type(match.round).objects.filter(pk=match.round_id).update(status=RoundStatus.FINISHED)
        response = page.goto(f"/table/{fresh}/")
        assert response.status == 403
        shot(page, "table-code-round-over-zh-phone")
    finally:
        page.context.close()


@pytest.mark.parametrize(
    ("size", "locale", "name"),
    [(PHONE, "en-US", "en-phone"), (LAPTOP, "zh-CN", "zh-laptop"), (LAPTOP, "en-US", "en-laptop")],
)
def test_the_table_page_fits_in_both_languages(browser, live_server, size, locale, name):
    match = players_match()
    token = table_token(round_=match.round, table_id=match.table_id)
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    page = new_phone(browser, live_server, size=size, locale=locale)
    try:
        if locale.startswith("en"):
            page.goto(reverse("language_choose", args=["en"]) + f"?next=/table/{token}/")
        identify(page, f"/table/{token}/", seats["S"].player.employee_number)
        enter(page, "S", "N")
        assert fits(page)
        assert page.locator("html").get_attribute("lang") == ("en" if locale.startswith("en") else "zh-hans")
        shot(page, f"players-table-{name}")
    finally:
        page.context.close()
