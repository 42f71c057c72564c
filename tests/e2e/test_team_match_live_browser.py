"""A team match live in Chromium (团体对抗, docs/rules.md §11): its public page, reached from the draw's
team match heading, shows a deal entered at table a without a reload (phone and laptop, Chinese and
English); on a phone, a referee enters table a and a player at table b enters through the table's link
(its opponent confirms), and both tables show on the organiser's team match page."""

from __future__ import annotations

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS, new_phone, signed_in
from tests.e2e.test_event_life_browser import SIZES, fits_the_screen, signed_in_as
from tests.e2e.test_players_browser import enter, identify, tap
from tests.factories import organiser, referee
from tests.tournament.draw.test_team_match_draw import NS_WINS, _event
from tests.tournament.standings.test_team_match_page import _published
from tournament.draw.services import round_draw, round_publish
from tournament.matches import player_entry as pe
from tournament.matches.models import Deal, MatchStatus, RefereeAssignment, TeamMatch
from tournament.matches.services import deal_record
from tournament.matches.table_links import table_token
from tournament.registration.models import EntryMode

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_eager")]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_team_match_page_shows_a_deal_at_table_a_without_a_reload(page, screenshot, live_server, size, language):
    page.set_viewport_size(SIZES[size])
    page.set_default_timeout(15_000)
    event, _stage, round_, (first, _second) = _published()
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    zh = language == "zh-hans"
    tag = f"{size}-{'zh' if zh else 'en'}"

    page.goto(f"/t/{event.pk}/draw/{round_.pk}/")
    with page.expect_navigation():
        page.locator(f"#team-match-{first.pk} a").first.click()
    assert page.url.endswith(f"/t/{event.pk}/team-matches/{first.pk}/")
    title = (
        f"第 1 场团体对抗：{first.team_x.name} 对 {first.team_y.name}"
        if zh
        else (f"Team match 1: {first.team_x.name} v {first.team_y.name}")
    )
    expect(page.locator("#page-title")).to_have_text(title)
    expect(page.locator("#table-a")).to_contain_text("a 桌" if zh else "Table a")
    expect(page.locator("#table-b")).to_contain_text("b 桌" if zh else "Table b")
    expect(page.locator(".team-match-result")).to_contain_text("进行中" if zh else "Playing")
    assert page.locator("#table-a [data-deal]").count() == 0
    page.evaluate("window.__notReloaded = true")

    deal_record(match_id=first.table_a_id, outcome={"order": ["N", "S"]})  # what the referee's entry does
    page.locator('#table-a [data-deal="1"]').wait_for(state="attached", timeout=10_000)  # within one poll
    assert page.evaluate("window.__notReloaded") is True
    expect(page.locator('#table-a .pub-big[data-side="NS"]')).to_have_text("7")  # timed-40: +5, a 1-2
    assert page.locator("#table-b [data-deal]").count() == 0
    assert fits_the_screen(page)
    screenshot(f"team-match-live-{tag}")
    page.locator("#table-a details summary").click()
    screenshot(f"team-match-live-deals-{tag}")


def test_a_referee_at_table_a_and_a_player_at_table_b_show_on_the_organisers_team_match_page(browser, live_server):
    event, stage, _teams = _event()
    event.entry_mode = EntryMode.PLAYERS_OPPONENTS_CONFIRM
    event.save()
    round_ = round_publish(round_=round_draw(stage=stage, seed=7))
    row = TeamMatch.objects.select_related("table_a__table", "table_b__table").filter(round=round_).first()
    ref = referee(first_name="王裁判")
    RefereeAssignment.objects.create(round=round_, table=row.table_a.table, referee=ref)
    boss = organiser(username="boss")
    event.organisers.add(boss)
    phones = [new_phone(browser, live_server, timeout=15_000) for _ in range(4)]
    umpire, north, east, office = phones
    try:
        # The referee, on a phone, enters the whole of table a: N/S go up past A (timed-40, 4 deals).
        signed_in(umpire, ref, live_server)
        umpire.goto(f"/referee/matches/{row.table_a_id}/")
        for order in NS_WINS[:-1]:
            enter(umpire, *order)
        tap(umpire, *NS_WINS[-1])  # the last deal ends the match: the page shows its result, no entry
        with umpire.expect_navigation():
            umpire.locator("#entry form[method=post] button[type=submit]").click()
        assert [d.outcome["order"] for d in Deal.objects.filter(match=row.table_a).order_by("number")] == [
            list(order) for order in NS_WINS
        ]

        # Table b: North enters through the table's link, East confirms on their own phone.
        url = f"/table/{table_token(round_=round_, table_id=row.table_b.table_id)}/"
        seats = {seat.seat: seat for seat in pe.table_players(match=row.table_b)}
        identify(north, url, seats["N"].player.employee_number)
        enter(north, "N", "S")
        identify(east, url, pe.seat_pin(player_id=seats["E"].player.pk))
        with east.expect_navigation():
            east.locator('.claim[data-claim="1"] form button[type=submit]').click()
        assert Deal.objects.get(match=row.table_b).outcome == {"order": ["N", "S"]}

        row.table_a.refresh_from_db()
        row.table_b.refresh_from_db()
        assert (row.table_a.status, row.table_b.status) == (MatchStatus.FINISHED, MatchStatus.RUNNING)
        signed_in_as(office, boss, live_server, "zh-hans")
        office.goto(f"/t/{event.pk}/manage/rounds/{round_.pk}/team-matches/")
        section = office.locator(f"#team-match-{row.pk}")
        a_row, b_row = section.locator("tbody tr").nth(0), section.locator("tbody tr").nth(1)
        expect(a_row).to_contain_text("已结束，待裁判确认")  # finished, awaiting sign-off
        expect(b_row).to_contain_text("进行中")  # running
        expect(section).to_contain_text("1–0")  # table a won by team X (N/S at table a), table b still playing
        assert fits_the_screen(office)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        office.screenshot(path=str(SCREENSHOTS / "team-match-referee-and-players-phone.png"), full_page=True)
    finally:
        for phone in phones:
            phone.context.close()
