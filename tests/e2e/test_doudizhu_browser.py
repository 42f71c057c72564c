"""Dou Dizhu in a real browser (Chromium, phone 390×844): a referee enters a Dou Dizhu table's deals on the
phone — landlord seat, bid, the bombs stepper, spring, who won — sees the preview and confirms; then the
public standings after a cut show who went on and who was eliminated."""

from __future__ import annotations

import pytest

from tests.e2e.test_referees_browser import fits_the_screen, signed_in_as
from tests.factories import referee
from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round, play_round
from tournament.matches.models import MatchStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_eager")]


def test_a_referee_enters_a_dou_dizhu_table_on_a_phone(page, live_server, screenshot):
    ref = referee(username="ddz-ref")
    _tournament, stage = doudizhu_event(players=9)
    round_ = drawn_round(stage, referee_user=ref)
    match = round_.matches.order_by("table__number").first()
    signed_in_as(page, ref, live_server)
    page.goto(f"/referee/matches/{match.pk}/")
    assert page.get_by_role("heading", name="第 1 局（共 3 局）").is_visible()
    assert fits_the_screen(page)
    # deal 1: E is landlord at 3, two bombs by the stepper (one too many, then one back), E wins
    page.locator("label.choice", has_text="东").first.click()  # seats by name on a Chinese page
    page.locator("input[name=bid][value='3']").check()
    plus = page.get_by_role("button", name="炸弹加一")
    plus.click()
    plus.click()
    plus.click()
    page.get_by_role("button", name="炸弹减一").click()
    assert page.locator("#id_bombs").input_value() == "2"
    page.locator("input[name=winner][value=landlord]").check()
    screenshot("doudizhu-referee-entry-phone")
    page.get_by_role("button", name="预览").click()
    preview = page.locator(".preview")
    preview.wait_for()
    assert "地主 E 获胜" in preview.inner_text() and "×12" in preview.inner_text()
    assert "+24" in preview.inner_text() and "-12" in preview.inner_text()
    assert fits_the_screen(page)
    screenshot("doudizhu-referee-preview-phone")
    page.get_by_role("button", name="确认").click()
    page.get_by_role("heading", name="第 2 局（共 3 局）").wait_for()
    # deals 2 and 3: farmers win against S, then a spring for W
    for landlord, winner, spring in (("S", "farmers", False), ("W", "landlord", True)):
        page.locator(f"input[name=landlord][value={landlord}]").check()
        page.locator(f"input[name=winner][value={winner}]").check()
        if spring:
            page.locator("#id_spring").check()
        page.get_by_role("button", name="预览").click()
        page.locator(".preview").wait_for()
        page.get_by_role("button", name="确认").click()
        page.wait_for_load_state("networkidle")
    page.get_by_role("button", name="确认结果").wait_for()
    screenshot("doudizhu-referee-done-phone")
    page.get_by_role("button", name="确认结果").click()
    page.get_by_role("button", name="确认结果").wait_for(state="detached")
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    # deal 1: bid 3 × 2² = 12: E +24, S −12, W −12; deal 2: S (bid 1) loses: S −2, E +1, W +1;
    # deal 3: W (bid 1) wins with a spring (×2): W +4, E −2, S −2
    assert match.table_snapshot.points == (23, -16, -7)
    assert match.deals.count() == 3


def test_the_public_standings_after_a_cut_on_a_phone(page, screenshot):
    tournament, stage = doudizhu_event(players=12, options={"rounds": 3, "cuts": [{"after_round": 1, "keep": 6}]})
    play_round(drawn_round(stage, seed=21))
    page.goto(f"/t/{tournament.pk}/standings/{stage.pk}/")
    table = page.locator("table.standings")
    table.wait_for()
    assert page.get_by_text("第 1 轮后：前 6 名晋级，6 人被淘汰。").is_visible()
    assert page.locator("tr.cut-row").inner_text().strip() == "第 1 轮后被淘汰"
    assert page.locator("tbody tr.eliminated").count() == 6
    assert page.locator("tbody tr:not(.eliminated):not(.cut-row)").count() == 6
    assert fits_the_screen(page)
    screenshot("doudizhu-standings-cut-phone")
    page.get_by_role("link", name="English").click()  # the language switch, back to the same page
    page.locator("table.standings").wait_for()
    assert page.locator("tr.cut-row").inner_text().strip() == "Eliminated after round 1"
    assert fits_the_screen(page)
    screenshot("doudizhu-standings-cut-phone-en")
