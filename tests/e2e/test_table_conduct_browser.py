"""The table conduct (docs/rules.md §7 "Table conduct") in Chromium, on a phone (390×844) and a laptop
(1280×800), in Chinese and in English: the referee's entry page shows the profile's one text from the
rules core in the page's language (seed 002 五(2)b 25秒 and the 30 s near the end, 五(5) 7张; seed 003 3.3)
10张 and its first-lead draw; seed 001 九(五) 10秒; seed 004's three-player texts at a Dou Dizhu table),
and the printed score sheet prints it Chinese first with its English — every page fits the screen and
reads in its own language."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.conduct import table_conduct
from tests.e2e.conftest import signed_in
from tests.e2e.language import LANGUAGES, Checked
from tests.factories import organiser, referee, table_match
from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


def see_conduct(open_page, live_server, *, profile: str, language: str, match, ref, boss) -> None:
    """The referee's entry page and the organiser's printed score sheet of ``match``, at both sizes."""
    conduct = table_conduct(profile)
    tag = "zh" if language == "zh-hans" else "en"
    for size, viewport in SIZES.items():
        page = open_page(viewport, language)
        checked = Checked(page, language, f"conduct-{profile}-{size}")
        signed_in(page, ref, live_server)
        page.goto(reverse("matches:match", args=[match.pk]))
        box = page.locator("details.conduct")
        box.locator("summary").click()
        for line in conduct.lines:
            text = line.zh if tag == "zh" else line.en
            assert box.get_by_text(text, exact=True).is_visible(), text
        box.scroll_into_view_if_needed()
        checked.check("entry")

        sheet = open_page(viewport, language)
        checked = Checked(sheet, language, f"conduct-{profile}-{size}")
        signed_in(sheet, boss, live_server)
        tournament = match.round.stage.tournament
        checked.visit(reverse("exports:score_sheets", args=[tournament.pk, match.round.pk]), "sheet")
        printed = sheet.locator("section.sheet-conduct").first
        first = printed.locator("li").first
        assert first.locator("[lang=zh-Hans]").inner_text() == conduct.lines[0].zh  # Chinese first
        assert first.locator("[lang=en]").inner_text() == conduct.lines[0].en


@pytest.mark.parametrize("profile", ["timed-40", "timed-90", "tractor-3deck"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_entry_page_and_the_score_sheet_show_the_profiles_conduct(open_page, live_server, profile, language):
    boss = organiser(username="boss")
    ref = referee(username="ref")
    match = table_match(profile=profile, referee_user=ref, organiser_user=boss)
    see_conduct(open_page, live_server, profile=profile, language=language, match=match, ref=ref, boss=boss)


@pytest.mark.usefixtures("celery_eager")
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_dou_dizhu_table_shows_its_conduct(open_page, live_server, language):
    """Seed 004's three-player texts: bidding counter-clockwise, no signals (取消比赛资格)."""
    boss = organiser(username="boss")
    ref = referee(username="ref")
    _tournament, stage = doudizhu_event(players=6, boss=boss)
    match = drawn_round(stage, referee_user=ref, user=boss).matches.order_by("table__number").first()
    see_conduct(open_page, live_server, profile="doudizhu", language=language, match=match, ref=ref, boss=boss)
