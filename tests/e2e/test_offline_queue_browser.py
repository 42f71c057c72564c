"""Entry that survives the network, in real Chromium: deals entered offline are kept on
the phone (IndexedDB) through a reload and sent in order when the connection returns — each once;
a deal someone else entered meanwhile makes a plain refusal on the phone, never a double."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import PHONE, SCREENSHOTS, log_in, new_phone, signed_in, wait_until
from tests.e2e.language import foreign_words
from tests.factories import referee, table_match
from tests.tournament.matches.test_player_entry import players_match
from tournament.matches import player_entry as pe
from tournament.matches.models import ClaimStatus, Deal, DealClaim, Match, RefereeAssignment
from tournament.matches.services import deal_record
from tournament.matches.table_links import table_token

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_eager")]

NOTHING_WAITING = "window.dealQueue && window.dealQueue.all().then(i => i.every(x => x.state !== 'waiting'))"


def ready_offline(page) -> None:
    """The service worker controls the page and holds a copy of it: a reload offline will open."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    wait_until(
        page, "caches.open('entry-pages-v1').then(c => c.match(location.origin + location.pathname)).then(r => !!r)"
    )


def tap_and_save(page, *seats: str) -> None:
    """Offline: the taps are kept by the page's script, the deal goes into the queue."""
    for index, seat in enumerate(seats, 1):
        page.locator(f"#entry a.seat-{seat}").click()
        page.locator(f'#entry[data-taps="{"".join(seats[:index])}"]').wait_for()
    waiting = page.evaluate("window.dealQueue.all().then(items => items.filter(i => i.state === 'waiting').length)")
    page.locator("#entry form.offline-entry button[type=submit]").click()
    wait_until(
        page, f"window.dealQueue.all().then(items => items.filter(i => i.state === 'waiting').length === {waiting + 1})"
    )


def results(page) -> list[str]:
    return page.locator("#queue-results li[data-result]").evaluate_all("items => items.map(li => li.dataset.result)")


def outcomes(match: Match) -> list[list[str]]:
    return [deal.outcome["order"] for deal in Deal.objects.filter(match=match).order_by("number")]


def test_three_deals_entered_offline_survive_a_reload_and_are_recorded_once_in_order(browser, live_server):
    ref = referee()
    match = table_match(referee_user=ref)
    page = new_phone(browser, live_server, timeout=15_000)
    try:
        signed_in(page, ref, live_server)
        page.goto(f"/referee/matches/{match.pk}/")
        ready_offline(page)
        page.context.set_offline(True)
        tap_and_save(page, "N", "S")
        tap_and_save(page, "E", "W")
        tap_and_save(page, "N", "E", "S")
        page.locator("#queue-status", has_text="3 副牌等待发送").wait_for()
        page.reload()  # offline: the service worker's copy, the queue still in IndexedDB
        page.locator("#queue-status").wait_for()
        assert "3 副牌等待发送" in page.locator("#queue-status").inner_text()
        assert page.locator("[data-waiting]").count() == 3
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "offline-queue-zh-phone.png"), full_page=True)
        assert not Deal.objects.filter(match=match).exists()
        with page.expect_navigation():  # sent, the page shows the match as the server now has it
            page.context.set_offline(False)
        wait_until(page, "window.dealQueue && window.dealQueue.all().then(i => i.every(x => x.state !== 'waiting'))")
        page.locator("#queue-results li[data-result]").nth(2).wait_for()
        assert results(page) == ["accepted", "accepted", "accepted"]
        page.screenshot(path=str(SCREENSHOTS / "offline-queue-sent-zh-phone.png"), full_page=True)
        assert outcomes(match) == [["N", "S"], ["E", "W"], ["N", "E", "S"]]
        # the queue sent each once: a second flush sends nothing more
        page.evaluate("window.dealQueue.flush()")
        assert Deal.objects.filter(match=match).count() == 3
        # The answers are read, then go: a minute later nothing piles up above the scoreboard.
        page.evaluate("(() => { const real = Date.now; Date.now = () => real() + 61000; })()")
        page.evaluate("window.dealQueue.render()")
        assert results(page) == []
    finally:
        page.context.close()


def test_a_deal_a_referee_entered_meanwhile_is_a_plain_refusal_on_the_players_phone(browser, live_server):
    ref = referee()
    match = players_match(referee_user=ref)
    north = {seat.seat: seat for seat in pe.table_players(match=match)}["N"]
    page = new_phone(browser, live_server, timeout=15_000)
    try:
        url = f"/table/{table_token(round_=match.round, table_id=match.table_id)}/"
        page.goto(url)
        page.locator("#id_code").fill(north.player.employee_number)
        page.locator("#identify button[type=submit]").click()
        page.locator("#entry").wait_for()
        ready_offline(page)
        page.context.set_offline(True)
        tap_and_save(page, "N", "S")
        tap_and_save(page, "E", "W")
        page.reload()
        page.locator("[data-waiting]").nth(1).wait_for()
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]}, user=ref)  # the referee enters deal 1
        with page.expect_navigation():  # sent, the page shows the match as the server now has it
            page.context.set_offline(False)
        wait_until(page, "window.dealQueue && window.dealQueue.all().then(i => i.every(x => x.state !== 'waiting'))")
        page.locator("#queue-results li[data-result]").nth(1).wait_for()
        assert results(page) == ["refused", "accepted"]
        refused = page.locator('#queue-results li[data-result="refused"]').inner_text()
        assert "第 1 副" in refused and "已有人录入" in refused
        page.screenshot(path=str(SCREENSHOTS / "offline-refused-zh-phone.png"), full_page=True)
        # one deal 1 (the referee's), and the phone's second deal waits as deal 2: nothing doubled
        assert outcomes(match) == [["N", "S"]]
        claims = list(DealClaim.objects.filter(match=match).values_list("number", "status", "outcome"))
        assert claims == [(2, ClaimStatus.PENDING, {"order": ["E", "W"]})]
    finally:
        page.context.close()


def test_a_double_tap_on_confirm_records_one_deal(browser, live_server):
    ref = referee()
    match = table_match(referee_user=ref)
    page = new_phone(browser, live_server, timeout=15_000)
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        signed_in(page, ref, live_server)
        page.goto(f"/referee/matches/{match.pk}/")
        for index, seat in enumerate("NS", 1):
            page.locator(f"#entry a.seat-{seat}").click()
            page.locator(f'#entry[data-taps="{"NS"[:index]}"]').wait_for()
        with page.expect_navigation():
            page.locator("#entry form[method=post] button[type=submit]").dblclick()
        page.locator("#queue-results li[data-result]").first.wait_for()
        page.reload()
        # the reloaded page lists the phone's results again from its store, after it has loaded
        page.locator("#queue-results li[data-result]").first.wait_for()
        assert Deal.objects.filter(match=match).count() == 1
        assert results(page) == ["accepted"]
        # no Content-Security-Policy complaint about the worker, the manifest or the scripts
        assert not [text for text in errors if "Content Security Policy" in text], errors
    finally:
        page.context.close()


def test_a_deal_begun_offline_and_finished_online_is_recorded_once(browser, live_server):
    ref = referee()
    match = table_match(referee_user=ref)
    page = new_phone(browser, live_server, timeout=15_000)
    try:
        signed_in(page, ref, live_server)
        page.goto(f"/referee/matches/{match.pk}/")
        ready_offline(page)
        page.context.set_offline(True)
        page.locator("#entry a.seat-E").click()
        page.locator('#entry[data-taps="E"]').wait_for()
        page.context.set_offline(False)  # the network returns between two taps
        page.locator("#entry a.seat-W").click()
        page.locator('#entry[data-taps="EW"]').wait_for()
        with page.expect_navigation():
            page.locator("#entry form.offline-entry button[type=submit]").click()
        page.locator("#queue-results li[data-result]").first.wait_for()
        assert results(page) == ["accepted"]
        assert outcomes(match) == [["E", "W"]]
    finally:
        page.context.close()


def test_a_tractor_deal_is_entered_offline_through_its_own_form(browser, live_server):
    """The queue knows no game: Tractor's fields (tournament.games) go into it as they are."""
    ref = referee()
    match = table_match(profile="tractor-3deck", referee_user=ref)
    page = new_phone(browser, live_server, timeout=15_000)
    try:
        signed_in(page, ref, live_server)
        page.goto(f"/referee/matches/{match.pk}/")
        ready_offline(page)
        page.context.set_offline(True)
        page.locator("#entry select[name=declarer]").select_option("NS")
        page.locator("#entry input[name=defender_points]").fill("40")
        page.locator("#entry form[method=get] button[type=submit]").click()  # "Preview": none offline
        save = page.locator("#entry form.offline-entry button[type=submit]")
        save.wait_for()
        assert not page.evaluate("window.dealQueue.all()")  # nothing queued before "Save"
        save.click()
        page.locator("#queue-status", has_text="1 副牌等待发送").wait_for()
        with page.expect_navigation():
            page.context.set_offline(False)
        wait_until(page, NOTHING_WAITING)
        assert Deal.objects.get(match=match).outcome["defender_points"] == 40
    finally:
        page.context.close()


def settled_results(page, count: int) -> list[str]:
    """What the phone lists once the queue has sent everything and the page has reloaded to show it
    (the reload may come while the list is read: then it is read again from the reloaded page)."""
    for _attempt in range(5):
        try:
            wait_until(page, NOTHING_WAITING)
            page.locator("#queue-results li[data-result]").nth(count - 1).wait_for()
            return results(page)
        except PlaywrightError as error:
            if "context was destroyed" not in str(error):
                raise
            page.wait_for_load_state()
    raise AssertionError("the page kept reloading")


def queued_while_signed_in_elsewhere(page, post_url: str) -> None:
    """The page's deals are held back (its posts fail as with no network) while another tab of the same
    phone changes the session; then the queue may send again."""
    page.route(f"**{post_url}", lambda route: route.abort())


DESKTOP = {"width": 1280, "height": 800}
SIGNED_OUT = {  # the page's language, the screen, and what it is told in that language
    "zh-hans": ("zh-CN", PHONE, ("您已退出登录", "仍保存在本机"), "重新登录"),
    "en": ("en-US", DESKTOP, ("you are signed out", "stay on this phone"), "Sign in again"),
}


@pytest.mark.parametrize("language", SIGNED_OUT)
def test_deals_kept_while_signed_out_are_sent_once_after_signing_in_again(browser, live_server, language):
    locale, size, told, sign_in = SIGNED_OUT[language]
    ref = referee(username="queue-ref")  # the factory's password: correct-horse-battery
    match = table_match(referee_user=ref)
    page = new_phone(browser, live_server, size=size, locale=locale, timeout=15_000)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "domain": host, "path": "/"}])
    try:
        log_in(page, "queue-ref", "correct-horse-battery")
        page.goto(f"/referee/matches/{match.pk}/")
        ready_offline(page)
        page.context.set_offline(True)
        tap_and_save(page, "N", "S")
        tap_and_save(page, "E", "W")
        post_url = f"/referee/matches/{match.pk}/deals/"
        queued_while_signed_in_elsewhere(page, post_url)
        page.context.set_offline(False)
        other = page.context.new_page()  # the referee signs out in another tab
        other.goto("/referee/")
        other.locator("form[action='/accounts/logout/'] button").click()
        other.wait_for_load_state()
        other.close()
        page.unroute(f"**{post_url}")
        page.evaluate("window.dealQueue.flush()")
        # the login page came back, not an answer: the deals wait and the phone says why
        blocked = page.locator('#queue-blocked[data-blocked="signed-out"]')
        blocked.wait_for()
        # in the page's language, and only in it: what happened, that the deals are kept, what to do
        assert all(words in blocked.inner_text() for words in told), blocked.inner_text()
        assert not foreign_words(blocked.inner_text(), language)
        assert page.locator("[data-waiting]").count() == 2
        assert not Deal.objects.filter(match=match).exists()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for seen in (PHONE, DESKTOP):  # the note fits a phone and a laptop
            page.set_viewport_size(seen)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), seen
            shot = f"offline-queue-signed-out-{language}-{seen['width']}x{seen['height']}.png"
            page.screenshot(path=str(SCREENSHOTS / shot), full_page=True)
        page.set_viewport_size(size)
        blocked.get_by_role("link", name=sign_in).click()
        page.fill("input[name=username]", "queue-ref")
        page.fill("input[name=password]", "correct-horse-battery")
        page.locator("form [type=submit]").last.click()
        page.wait_for_url(f"**/referee/matches/{match.pk}/**")  # back to the match, the queue sends
        assert settled_results(page, 2) == ["accepted", "accepted"]
        assert page.locator("#queue-blocked").is_hidden()
        page.evaluate("window.dealQueue.flush()")
        assert outcomes(match) == [["N", "S"], ["E", "W"]]  # each once
    finally:
        page.context.close()


def test_deals_kept_when_a_new_sign_in_rotated_the_csrf_token_are_sent_after_a_reload(browser, live_server):
    ref = referee(username="queue-ref2")
    match = table_match(referee_user=ref)
    page = new_phone(browser, live_server, timeout=15_000)
    try:
        log_in(page, "queue-ref2", "correct-horse-battery")
        page.goto(f"/referee/matches/{match.pk}/")
        ready_offline(page)
        page.context.set_offline(True)
        tap_and_save(page, "N", "S")
        post_url = f"/referee/matches/{match.pk}/deals/"
        queued_while_signed_in_elsewhere(page, post_url)
        page.context.set_offline(False)
        other = page.context.new_page()  # signing in again (another tab) gives the phone a new CSRF token
        log_in(other, "queue-ref2", "correct-horse-battery")
        other.close()
        page.unroute(f"**{post_url}")
        page.evaluate("window.dealQueue.flush()")
        blocked = page.locator('#queue-blocked[data-blocked="stale"]')
        blocked.wait_for()
        assert "刷新页面" in blocked.inner_text()
        assert page.locator("[data-waiting]").count() == 1
        assert not Deal.objects.filter(match=match).exists()
        blocked.get_by_role("link", name="刷新页面").click()
        assert settled_results(page, 1) == ["accepted"]
        assert outcomes(match) == [["N", "S"]]
    finally:
        page.context.close()


def test_a_players_deals_wait_while_the_phone_must_say_who_they_are_again(browser, live_server):
    match = players_match()
    north = {seat.seat: seat for seat in pe.table_players(match=match)}["N"]
    page = new_phone(browser, live_server, timeout=15_000)
    try:
        url = f"/table/{table_token(round_=match.round, table_id=match.table_id)}/"
        page.goto(url)
        page.locator("#id_code").fill(north.player.employee_number)
        page.locator("#identify button[type=submit]").click()
        page.locator("#entry").wait_for()
        ready_offline(page)
        page.context.set_offline(True)
        tap_and_save(page, "N", "S")
        Session.objects.all().delete()  # the phone's session ends (expired, or cleared)
        page.context.set_offline(False)
        page.evaluate("window.dealQueue.flush()")
        blocked = page.locator('#queue-blocked[data-blocked="identify"]')
        blocked.wait_for()
        assert page.locator("[data-waiting]").count() == 1
        assert not DealClaim.objects.filter(match=match).exists()
        blocked.get_by_role("link", name="刷新页面").click()
        page.locator("#id_code").fill(north.player.employee_number)
        with page.expect_navigation():
            page.locator("#identify button[type=submit]").click()
        assert settled_results(page, 1) == ["accepted"]
        claims = list(DealClaim.objects.filter(match=match).values_list("number", "outcome"))
        assert claims == [(1, {"order": ["N", "S"]})]
    finally:
        page.context.close()


def tractor_offline(page, declarer: str, points: int) -> None:
    """A Tractor deal entered offline: its fields, "Preview" (none offline), then "Save (offline)"."""
    waiting = page.evaluate("window.dealQueue.all().then(items => items.filter(i => i.state === 'waiting').length)")
    page.locator("#entry select[name=declarer]").select_option(declarer)
    page.locator("#entry input[name=defender_points]").fill(str(points))
    page.locator("#entry form[method=get] button[type=submit]").click()
    page.locator("#entry form.offline-entry button[type=submit]").click()
    wait_until(
        page, f"window.dealQueue.all().then(items => items.filter(i => i.state === 'waiting').length === {waiting + 1})"
    )


def test_a_deal_refused_for_a_real_reason_stays_editable_and_holds_the_deals_after_it(browser, live_server):
    """Deal 2 names the wrong declarer (the rotation says N/S): refused with that reason, kept on the
    phone with "Edit" and "Discard", and deal 3 waits behind it (sent, it would be refused as "already
    entered"). Edited, deal 2 takes its place and deal 3 follows: three deals, once each."""
    ref = referee()
    match = table_match(profile="tractor-3deck", referee_user=ref)
    page = new_phone(browser, live_server, timeout=15_000)
    try:
        signed_in(page, ref, live_server)
        page.goto(f"/referee/matches/{match.pk}/")
        ready_offline(page)
        page.context.set_offline(True)
        tractor_offline(page, "NS", 40)
        tractor_offline(page, "EW", 40)  # wrong: N/S declare again after the defenders' 40
        tractor_offline(page, "", 40)  # the rotation's declarer
        with page.expect_navigation():
            page.context.set_offline(False)
        refused = page.locator('#queue-results li[data-result="refused"]')
        refused.wait_for()
        assert "已有人录入" not in refused.inner_text()  # the real reason, not "already entered"
        assert page.locator("[data-waiting][data-held]").count() == 1
        assert "第 2 副之后的牌局等待" in page.locator("#queue-status").inner_text()
        assert Deal.objects.filter(match=match).count() == 1
        page.screenshot(path=str(SCREENSHOTS / "offline-refused-held-zh-phone.png"), full_page=True)
        # it stays through a reload and a "Clear" (which forgets only what was recorded)
        page.reload()
        page.locator('#queue-results li[data-result="refused"]').wait_for()
        page.locator("[data-queue-clear]").click()
        wait_until(page, "document.querySelectorAll('#queue-results li[data-result=accepted]').length === 0")
        assert page.locator('#queue-results li[data-result="refused"]').count() == 1
        # "Edit": the deal in the entry, as it was entered; the declarer put right, it is confirmed
        with page.expect_navigation():
            page.locator("[data-queue-edit]").click()
        assert page.locator("#entry input[name=defender_points]").input_value() == "40"
        assert page.locator("#entry select[name=declarer]").input_value() == "EW"
        page.locator("#entry select[name=declarer]").select_option("NS")
        with page.expect_navigation():
            page.locator("#entry form[method=get] button[type=submit]").click()
        page.locator("#entry form[method=post] button[type=submit]").click()
        assert settled_results(page, 2) == ["accepted", "accepted"]
        assert page.locator('#queue-results li[data-result="refused"]').count() == 0
        assert [d.outcome.get("declarer") for d in Deal.objects.filter(match=match).order_by("number")] == [
            "NS",
            "NS",
            None,
        ]
    finally:
        page.context.close()


def test_deals_kept_when_the_table_is_no_longer_the_referees_say_so_and_go_once_it_is_again(browser, live_server):
    ref = referee()
    match = table_match(referee_user=ref)
    page = new_phone(browser, live_server, timeout=15_000)
    try:
        signed_in(page, ref, live_server)
        page.goto(f"/referee/matches/{match.pk}/")
        ready_offline(page)
        page.context.set_offline(True)
        tap_and_save(page, "N", "S")
        assignment = RefereeAssignment.objects.get(referee=ref, round=match.round)
        table_id = assignment.table_id
        assignment.delete()  # the organiser moved the referee to another table meanwhile
        page.context.set_offline(False)
        page.evaluate("window.dealQueue.flush()")
        blocked = page.locator('#queue-blocked[data-blocked="gone"]')
        blocked.wait_for()  # the 404 page is a reason to say, not "no answer" to retry in silence
        assert "无法访问这场比赛" in blocked.inner_text()
        assert page.locator("[data-waiting]").count() == 1
        RefereeAssignment.objects.create(referee=ref, round=match.round, table_id=table_id)
        blocked.get_by_role("link", name="刷新页面").click()
        assert settled_results(page, 1) == ["accepted"]
        assert outcomes(match) == [["N", "S"]]
    finally:
        page.context.close()
