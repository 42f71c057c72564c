"""The organiser's day in words and states, each on its page in a real Chromium at a phone's size, in
Chinese and in English: a finished event closes registration and an archived one offers no change;
knockout rounds are named (semi-final, final, third-place match) everywhere; prizes go on after the
knockout's placings; what a pair left out, a late arrival, a correction and a finished round are told;
seats, people and draw methods in words, never codes or logins; a Guandan stage form offers Guandan.

Every page visited fits the screen and speaks the page's language (tests/e2e/language.py).
Screenshots in ``test-output/screenshots/words-*.png``."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.e2e.day_events import boss_of, finished_day
from tests.e2e.language import LANGUAGES, Checked
from tests.e2e.test_archived_browser import VISIBLE_WRITES
from tests.e2e.test_event_life_browser import signed_in_as
from tests.factories import referee
from tests.tournament.draw.conftest import make_field, win
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.exports.prizes import TierData, prize_tiers_set
from tournament.matches.models import RefereeAssignment
from tournament.matches.services import adjustment_record, deal_record, match_sign_off
from tournament.matches.table_links import table_token

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_eager")]

SEAT_LETTER = re.compile(r"(?<![A-Za-z])[NESW](?![A-Za-z])")


def as_public(page, live_server, language: str) -> None:
    """Signed out: the public's (or a player's) view, in ``language``."""
    from django.conf import settings

    page.context.clear_cookies()
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_finished_event_closes_registration_and_an_archived_one_offers_no_change(page, live_server, language):
    day = finished_day()
    tid = day.tournament.pk
    assert day.tournament.status == "finished"
    signed_in_as(page, day.boss, live_server, language)
    seen = Checked(page, language, "words-closed")
    seen.visit(reverse("registration:pairs", args=[tid]), "pairs-finished")
    assert page.locator("main form input[name=first_name]").count() == 0  # no pair added to a finished event
    seen.visit(reverse("matches:event", args=[tid]), "event-finished")
    page.get_by_role("button", name=seen.zh("归档", "Archive"), exact=True).click()
    page.wait_for_load_state()
    day.tournament.refresh_from_db()
    assert day.tournament.status == "archived"
    for name, url in {
        "pairs": reverse("registration:pairs", args=[tid]),
        "checkin": reverse("registration:checkin", args=[tid]),
        "stage": reverse("draw:stage", args=[tid, day.knockout.pk]),
        "prizes": reverse("exports:prizes", args=[tid]),
    }.items():
        seen.visit(url, f"archived-{name}")
        assert page.locator(".read-only-note").is_visible(), name  # says why nothing is offered
        assert page.evaluate(VISIBLE_WRITES) == [], name
    seen.visit(reverse("matches:event", args=[tid]), "archived-event")
    assert page.evaluate(VISIBLE_WRITES) == [seen.zh("取消归档", "Unarchive")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_knockout_rounds_are_named_on_every_page(page, live_server, language):
    day = finished_day()
    tid = day.tournament.pk
    finals = day.knockout.rounds.get(number=2)  # the final and the third-place match, side by side
    signed_in_as(page, day.boss, live_server, language)
    seen = Checked(page, language, "words-rounds")
    semi_name, final_name, third_name = (
        seen.zh("半决赛", "Semi-finals"),
        seen.zh("决赛", "Final"),
        seen.zh("三四名决赛", "Third-place match"),
    )

    seen.visit(reverse("draw:stage", args=[tid, day.knockout.pk]), "stage")
    assert page.locator("main table.list tbody td:first-child").all_inner_texts() == [semi_name, final_name]
    seen.visit(reverse("draw:round", args=[tid, finals.pk]), "round")
    assert final_name in page.locator("main h1").inner_text()
    seen.visit(reverse("exports:score_sheets", args=[tid, finals.pk]), "score-sheets")
    headings = [line for line in page.locator("main").inner_text().splitlines() if day.knockout.name in line]
    assert [line.rsplit(" · ", 1)[-1] for line in headings] == [final_name, third_name], headings  # not two finals
    as_public(page, live_server, language)
    seen.visit(reverse("standings:draw_round", args=[tid, finals.pk]), "public-draw")
    tabs = page.locator("main").inner_text()
    assert semi_name in tabs and final_name in tabs and third_name in tabs
    knockout_tabs = [line for line in tabs.splitlines() if line.startswith(f"{day.knockout.name} · ")]
    assert knockout_tabs == [f"{day.knockout.name} · {semi_name}", f"{day.knockout.name} · {final_name}"], tabs


@pytest.mark.parametrize("language", LANGUAGES)
def test_prizes_go_on_after_the_knockouts_placings(page, live_server, language):
    day = finished_day()
    tid = day.tournament.pk
    prize_tiers_set(
        tournament=day.tournament,
        tiers=[TierData("一等奖", 1), TierData("二等奖", 1), TierData("三等奖", 2), TierData("鼓励奖", 10)],
    )
    signed_in_as(page, day.boss, live_server, language)
    seen = Checked(page, language, "words-prizes")
    seen.visit(reverse("exports:prizes", args=[tid]), "prizes")
    awards = page.locator("main table.list").last.locator("tbody tr").all_inner_texts()
    assert len(awards) == 6 and sum("鼓励奖" in row for row in awards) == 2, awards  # the Swiss's two after the 4
    assert seen.zh("8 个名额未授出", "8 not awarded") in page.locator("main").inner_text()  # said, not dropped
    seen.visit(reverse("exports:stage_placings", args=[tid, day.knockout.pk]), "placings")
    assert page.locator("main").inner_text().count("鼓励奖") == 2


@pytest.mark.parametrize("language", LANGUAGES)
def test_what_pairs_referees_and_organisers_are_told(page, live_server, language):
    day = finished_day()
    tid = day.tournament.pk
    signed_in_as(page, day.boss, live_server, language)
    seen = Checked(page, language, "words-told")
    seen.visit(reverse("standings:tournament", args=[tid]), "event")
    assert page.locator(f"main a[href$='/t/{tid}/placings/']").count() >= 1  # the final placings, linked
    last_swiss = day.swiss.rounds.order_by("number").last()
    seen.visit(reverse("matches:round_no_shows", args=[tid, last_swiss.pk]), "no-shows-finished")
    assert seen.zh("分钟", "minutes") not in page.locator("main").inner_text()  # not "running for 33 minutes"
    advanced = set(day.knockout.settings.entrants)
    left_out = day.tournament.pairs.exclude(pk__in=[int(pair) for pair in advanced]).order_by("number").first()
    seen.visit(reverse("standings:find", args=[tid]) + f"?q=%23{left_out.number}", "find-left-out")
    told = page.locator("main").inner_text()
    assert seen.zh("晋级", "advance") in told, told  # told it did not advance, not "not in this round"

    # a late arrival and a correction, at a table of another event's round under way
    tournament = make_field(4)
    signed_in_as(page, boss_of(tournament), live_server, language)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    match = round_publish(round_=round_draw(stage=stage, seed=1)).matches.order_by("table__number").first()
    adjustment_record(match_id=match.pk, pair_id=match.ns_pair_id, kind="late_arrival", reason="迟到", minutes_late=12)
    seen.visit(reverse("matches:adjustments", args=[match.pk]), "late-arrival", typed=["迟到"])
    assert seen.zh("对方升 2 级", "opponents up 2 levels") in page.locator("main").inner_text()
    for order in (["N", "S"], ["N", "S"], ["E", "W"]):
        deal_record(match_id=match.pk, outcome={"order": order})
    seen.visit(reverse("matches:deal_edit", args=[match.pk, 1]) + "?order=EW", "correction-preview")
    assert seen.zh("其后仍有效的 2 副", "2 later deals") in page.locator("main").inner_text()


@pytest.mark.parametrize("language", LANGUAGES)
def test_seats_people_and_draw_methods_in_words(page, live_server, language):
    tournament = make_field(4)
    boss = boss_of(tournament)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    round_ = round_publish(round_=round_draw(stage=stage, seed=1))
    signed, running = round_.matches.order_by("table__number")
    ref = referee(username="referee-9-0a1b2c3d4e", first_name="王裁判")
    RefereeAssignment.objects.create(round=round_, table=signed.table, referee=ref)
    win(signed)
    match_sign_off(match_id=signed.pk, user=ref)
    deal_record(match_id=running.pk, outcome={"order": ["N", "E", "S"]})
    signed_in_as(page, boss, live_server, language)
    seen = Checked(page, language, "words-named")

    seen.visit(reverse("matches:table_cards", args=[tournament.pk, round_.pk]), "table-cards")
    cards = page.locator(".table-card").all_inner_texts()
    assert cards and all(seen.zh("北", "North") in card for card in cards), cards  # seats by name
    if language == "zh-hans":  # no seat letter on a Chinese card (English says N/S for the side)
        assert not any(SEAT_LETTER.search(card) for card in cards), cards
    seen.visit(reverse("matches:match", args=[signed.pk]), "signed-off")
    assert "王裁判" in page.locator("main").inner_text()  # the person, not "referee-9-…"
    seen.visit(reverse("draw:round", args=[tournament.pk, round_.pk]), "round")
    assert seen.zh("瑞士", "Swiss") in page.locator("main").inner_text()  # the method in words
    seen.visit(reverse("draw:stages", args=[tournament.pk]), "stage-form")
    offered = " ".join(page.locator("main form select option").all_inner_texts())
    assert not re.search("Tractor|拖拉机|Dou Dizhu|斗地主|积分赛|Points", offered), offered
    as_public(page, live_server, language)  # a player at the table, on their phone
    seen.visit(reverse("matches:table", args=[table_token(round_=round_, table_id=running.table_id)]), "player")
    if language == "zh-hans":
        assert not SEAT_LETTER.search(page.locator("main").inner_text())
