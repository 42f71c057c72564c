"""The correction flags and the clearing of a started next match in a real Chromium:
the organiser's stage and round pages with the choices, the public standings' notice, the
corrected semi-final's page that offers to clear the started final, and the clearing page — in
Chinese and English, on a phone (390×844) and a desktop (1280×800). Nothing is cut off sideways,
the Chinese pages carry no English of these parts; screenshots in
``test-output/screenshots/flags-*.png`` for a person to look at."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import PHONE, SCREENSHOTS, signed_in
from tests.factories import organiser
from tests.tournament.draw.conftest import confirm, make_field, win
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_advance, stage_create
from tournament.matches.models import AdvancementFlag, AdvancementFlagKind, Match
from tournament.matches.services import deal_record, deal_undo, match_sign_off, match_unlock

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
LANGUAGES = {"zh": "zh-hans", "en": "en"}


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"flags-{name}.png"), full_page=True)


def fits(page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def flip(match: Match) -> None:
    match.refresh_from_db()
    loser = "EW" if match.winner == "NS" else "NS"
    while match.deals.exists():
        deal_undo(match_id=match.pk, reason="录错了")
    win(match, loser)
    match_sign_off(match_id=match.pk)


def swiss_knockout_corrected():
    """Swiss of three rounds, a knockout advanced and drawn, round-1 corrections until the
    advancement changes (later rounds are flagged on the way)."""
    tournament = make_field(8)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss", advance_count=4)
    for number in (1, 2, 3):
        round_ = round_publish(round_=round_draw(stage=stage, seed=number))
        for k, match in enumerate(round_.matches.filter(ew_pair__isnull=False).order_by("id")):
            confirm(match, "NS" if k % 2 else "EW")
    boss = organiser()
    tournament.organisers.add(boss)
    final = stage_create(tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed"})
    stage_advance(stage=stage, next_stage=final, user=boss)
    round_publish(round_=round_draw(stage=final, seed=1))
    for match in Match.objects.filter(round__stage=stage, round__number=1, ew_pair__isnull=False).order_by("id"):
        match_unlock(match_id=match.pk, reason="记分有误", user=boss, dependents_seen=True)
        flip(match)
        if AdvancementFlag.objects.filter(stage=final, status="open").exists():
            break
    return tournament, stage, final, boss


def look(open_page, live_server, user, path: str, name: str, selector: str, *, zh_text: str, en_text: str):
    for language, code in LANGUAGES.items():
        for size_name, size in SIZES.items():
            page = open_page(size, code)
            signed_in(page, user, live_server)
            page.goto(path)
            section = page.locator(selector).first
            assert section.is_visible(), f"{name}: {selector} not shown ({language}, {size_name})"
            text = section.inner_text()
            assert (zh_text if language == "zh" else en_text) in text, (name, language, text)
            assert fits(page), f"{name} is wider than the {size_name} screen ({language})"
            shot(page, f"{name}-{size_name}-{language}")


def test_the_flags_on_the_organiser_pages_and_the_public_standings(open_page, live_server):
    tournament, stage, final, boss = swiss_knockout_corrected()
    assert AdvancementFlag.objects.filter(stage=stage, kind=AdvancementFlagKind.ROUND, status="open").exists()
    second = stage.rounds.get(number=2)
    t = tournament.pk
    look(
        open_page, live_server, boss, f"/t/{t}/manage/stages/{stage.pk}/", "swiss-stage", ".round-flag",
        zh_text="按更正前的排名抽签", en_text="was drawn from changed standings",
    )  # fmt: skip
    look(
        open_page, live_server, boss, f"/t/{t}/manage/rounds/{second.pk}/", "round", ".round-flag",
        zh_text="名次变动", en_text="Places changed",
    )  # fmt: skip
    look(
        open_page, live_server, boss, f"/t/{t}/manage/stages/{final.pk}/", "knockout-stage", ".advancement-flag",
        zh_text="晋级名单已变更", en_text="Advancement changed",
    )  # fmt: skip
    look(
        open_page, live_server, boss, f"/t/{t}/standings/{stage.pk}/", "public-standings", ".rounds-changed",
        zh_text="由组织者决定是否重新抽签", en_text="The organiser decides",
    )  # fmt: skip


def test_the_refused_semi_final_offers_to_clear_the_started_final(open_page, live_server):
    tournament = make_field(4, seeds=True)
    boss = organiser()
    tournament.organisers.add(boss)
    stage = stage_create(
        tournament=tournament, name="淘汰赛", format="knockout",
        options={"bracket": "fixed", "seeding": "seeds", "third_place": True},
    )  # fmt: skip
    semis = round_publish(round_=round_draw(stage=stage, seed=1))
    for match in semis.matches.order_by("table__number"):
        win(match)
        match_sign_off(match_id=match.pk)
    final_round = round_publish(round_=stage.rounds.get(number=2))
    final = final_round.matches.get(table__number=1)
    deal_record(match_id=final.pk, outcome={"order": ["N", "S"]})
    semi = semis.matches.order_by("table__number").first()
    match_unlock(match_id=semi.pk, reason="记分有误", dependents_seen=True)
    while semi.deals.exists():
        deal_undo(match_id=semi.pk, reason="录错了")
    win(semi, "EW")
    look(
        open_page, live_server, boss, f"/referee/matches/{semi.pk}/", "semi", ".started-successors",
        zh_text="清空那场比赛", en_text="Clear that match",
    )  # fmt: skip
    look(
        open_page, live_server, boss, f"/referee/matches/{final.pk}/clear/", "clear", "main",
        zh_text="将删除 1 副牌局", en_text="1 deal is deleted",
    )  # fmt: skip
    look(
        open_page, live_server, boss, f"/referee/matches/{final.pk}/", "final", ".clear-this",
        zh_text="清空比赛", en_text="Clear the match",
    )  # fmt: skip
    # and the clearing itself, through the page, on a phone in Chinese
    page = open_page(PHONE, "zh-hans")
    signed_in(page, boss, live_server)
    page.goto(f"/referee/matches/{final.pk}/clear/")
    page.fill("textarea[name=reason], input[name=reason]", "半决赛更正，决赛重赛")
    page.get_by_role("button", name="清空比赛").click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/referee/matches/{semi.pk}/")
    assert "比赛已清空" in page.inner_text("body")
    shot(page, "cleared-phone-zh")
    assert not Match.objects.get(pk=final.pk).deals.exists()
