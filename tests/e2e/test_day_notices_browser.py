"""What the day's phones show, in a real Chromium at a phone's size, in Chinese and in English: the
referee's "deal received" answers do not pile up above the scoreboard (one after several deals
entered one by one); a player who said who they are is told their name and seat in words; names stay
whole in the public draw's table on a phone; the home page counts a Dou Dizhu event in players.

Every page visited fits the screen and speaks the page's language (tests/e2e/language.py).
Screenshots in ``test-output/screenshots/notices-*.png``."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.e2e.language import LANGUAGES, Checked
from tests.e2e.test_event_life_browser import signed_in_as
from tests.e2e.test_players_browser import identify
from tests.factories import PairFactory, TournamentFactory, referee, table_match
from tests.tournament.draw.conftest import make_field
from tests.tournament.games.doudizhu_event import doudizhu_event
from tests.tournament.matches.test_player_entry import players_match
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.matches import player_entry as pe
from tournament.matches.table_links import table_token
from tournament.registration.models import Pair, TournamentStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_eager")]

NAME_LINES = """(cells) => cells.map((cell) => {
    const walker = document.createTreeWalker(cell.querySelector('a'), NodeFilter.SHOW_TEXT);
    let text = ''; const tops = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let index = 0; index < node.length; index++) {
            const range = document.createRange(); range.setStart(node, index); range.setEnd(node, index + 1);
            const rects = range.getClientRects(); tops.push(rects.length ? Math.round(rects[0].top) : null);
        }
        text += node.textContent;
    }
    let start = 0;
    return text.split(' / ').map((part) => {
        const begin = text.indexOf(part, start); start = begin + part.length;
        const lines = new Set(tops.slice(begin, start).filter((top, i) => part[i] !== ' ' && top !== null));
        return [part, lines.size]; }); })"""
"""For each cell of the draw, each player's name (the pair's name is theirs, joined by " / ") and how
many lines of the screen it takes."""

NAMES = [
    ("欧阳明月", "司马相如"),
    ("Alexander Konstantinopoulos", "Wang Xiaoming"),
    ("诸葛孔明", "Christopher Montgomery"),
    ("上官婉儿", "端木赐"),
    ("Maximilian Oyelaran-Fitzgerald", "李华"),
    ("张三", "Li Si"),
]
"""Players' names as a company's roster has them: Chinese, pinyin, foreign, long and short."""


def as_public(page, live_server, language: str) -> None:
    """Signed out, in ``language``."""
    from django.conf import settings

    page.context.clear_cookies()
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])


@pytest.mark.parametrize("language", LANGUAGES)
def test_received_answers_do_not_pile_up_above_the_scoreboard(page, live_server, language):
    ref = referee(first_name="王裁判")
    match = table_match(referee_user=ref)
    signed_in_as(page, ref, live_server, language)
    seen = Checked(page, language, "notices-received")
    seen.visit(reverse("matches:match", args=[match.pk]), "entry")
    received = page.locator("#queue-results li[data-result=accepted]")
    for number, seats in enumerate((("N", "S"), ("E", "W"), ("N", "E", "S")), 1):
        for index, seat in enumerate(seats, 1):
            page.locator(f"#entry a.seat-{seat}").click()
            page.locator(f'#entry[data-taps="{"".join(seats[:index])}"]').wait_for()
        with page.expect_navigation():  # sent through the queue; the page reloads with the deal
            page.locator("#entry form[method=post] button[type=submit]").click()
        page.locator(f"#queue-results li[data-result=accepted]:has-text('{number}')").wait_for()
        assert match.deals.count() == number
        # one answer, the last deal's: not one more line above the scoreboard for every deal
        assert received.all_inner_texts() == [seen.zh(f"第 {number} 副：已接收", f"Deal {number}: accepted")]
    seen.check("after-three")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_player_is_told_their_name_and_seat(page, live_server, language):
    match = players_match()
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    north = seats["N"].player
    north.name = "张三"
    north.save(update_fields=["name"])
    as_public(page, live_server, language)  # a player's phone: nobody signed in
    seen = Checked(page, language, "notices-player")
    url = reverse("matches:table", args=[table_token(round_=match.round, table_id=match.table_id)])
    seen.visit(url, "before")
    identify(page, url, north.employee_number)
    seen.check("identified")
    told = page.locator("main .identity p").first.inner_text()
    assert told == seen.zh("您是 张三，坐北（南北）。", "You are 张三, North (N/S)."), told


@pytest.mark.parametrize("language", LANGUAGES)
def test_names_stay_whole_in_the_phones_public_draw(page, live_server, language):
    tournament = TournamentFactory(rule_profile="timed-40", status=TournamentStatus.RUNNING)
    for first, second in NAMES:
        pair = PairFactory(tournament=tournament)
        Pair.objects.filter(pk=pair.pk).update(name=f"{first} / {second}")  # the players' names, as kept
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    round_ = round_publish(round_=round_draw(stage=stage, seed=1))
    as_public(page, live_server, language)
    seen = Checked(page, language, "notices-draw")
    seen.visit(reverse("standings:draw_round", args=[tournament.pk, round_.pk]), "names")
    cells = page.locator("main table.draw tbody td:has(a[href*='/pairs/'])")
    lines = [line for cell in cells.evaluate_all(NAME_LINES) for line in cell]
    assert len(lines) == 2 * len(NAMES), lines
    assert all(count == 1 for _name, count in lines), lines  # each player's name on one line


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_page_counts_a_dou_dizhu_event_in_players(page, live_server, language):
    tournament, _stage = doudizhu_event(players=9)
    tournament.status = TournamentStatus.REGISTRATION
    tournament.save(update_fields=["status"])
    guandan = make_field(4)
    guandan.status = TournamentStatus.REGISTRATION
    guandan.save(update_fields=["status"])
    as_public(page, live_server, language)
    seen = Checked(page, language, "notices-home")
    seen.visit("/", "home")
    cards = {name: page.locator("main li.card", has_text=name).inner_text() for name in (tournament.name, guandan.name)}
    assert seen.zh("9 位选手", "9 players") in cards[tournament.name], cards
    assert seen.zh("对", "pair") not in cards[tournament.name], cards
    assert seen.zh("4 对", "4 pairs") in cards[guandan.name], cards
