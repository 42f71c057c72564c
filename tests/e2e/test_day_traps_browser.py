"""The organiser's one-tap traps, each on its page in a real Chromium at a phone's size, in Chinese
and in English: a stage fed by another offers the advance (its count filled), not a draw; the event's
days survive a save; calling time asks first and a called round reopens with more minutes; the door's
undo asks first and is refused for a pair already drawn; referees carry over to the next round by
table, the plan fills only the empty tables, and the picker lists only the event's referees.

Every page visited fits the screen and speaks the page's language (tests/e2e/language.py).
Screenshots in ``test-output/screenshots/traps-*.png``."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tests.e2e.day_events import boss_of, played, swiss_then_knockout
from tests.e2e.language import LANGUAGES, Checked
from tests.e2e.language import foreign_words as foreign
from tests.e2e.test_event_life_browser import signed_in_as
from tests.factories import TournamentFactory
from tests.tournament.draw.conftest import make_field
from tournament.draw.referee_assignments import round_tables_assign
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.matches import clock
from tournament.matches.models import RefereeAssignment, Round
from tournament.matches.referees import referee_create
from tournament.registration.models import PairStatus
from tournament.registration.services import pair_check_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_eager")]

NAME_LINES = """(labels) => labels.map((label) => { const range = document.createRange();
    range.selectNodeContents(label.lastChild);
    return new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top))).size; })"""
"""How many lines each label's text (the referee's name after the tick box) takes."""


def answer(page, accept: bool) -> list[str]:
    """The next dialog (a ``data-confirm`` question) answered; its message lands in the list."""
    asked: list[str] = []

    def reply(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", reply)
    return asked


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_fed_stage_offers_the_advance_with_its_count_instead_of_a_draw(page, live_server, language):
    day = swiss_then_knockout()
    tid, knockout = day.tournament.pk, day.knockout
    signed_in_as(page, day.boss, live_server, language)
    seen = Checked(page, language, "traps-fed")
    stage_url = reverse("draw:stage", args=[tid, knockout.pk])
    draw_form = f"form[action$='/stages/{knockout.pk}/draw/']"

    seen.visit(stage_url, "waiting")
    advance = page.locator("#advance-first")
    assert advance.is_visible() and page.locator(draw_form).count() == 0  # no draw of the whole field
    assert page.locator("#advance-count").input_value() == "4"  # the Swiss stage's count
    assert seen.zh("晋级", "advance") in advance.inner_text()
    advance.locator("button[type=submit]").click()
    page.wait_for_load_state()
    knockout.refresh_from_db()
    assert len(knockout.settings.entrants) == 4
    seen.visit(stage_url, "advanced")
    assert page.locator("#advance-first").count() == 0
    page.locator(f"{draw_form} button[type=submit]").click()
    page.wait_for_load_state()
    round_ = Round.objects.get(stage=knockout)
    assert round_.entries.count() == 4  # the four advanced, not the six of the field
    seen.check("drawn")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_event_days_survive_a_save(page, live_server, language):
    tournament = TournamentFactory(
        starts_on=datetime.date(2026, 12, 3), ends_on=datetime.date(2026, 12, 4), venue="活动中心"
    )
    boss = boss_of(tournament)
    signed_in_as(page, boss, live_server, language)
    seen = Checked(page, language, "traps-dates")
    url = reverse("matches:event", args=[tournament.pk])
    seen.visit(url, "event")
    days = page.locator("input[name=starts_on]"), page.locator("input[name=ends_on]")
    assert [day.input_value() for day in days] == ["2026-12-03", "2026-12-04"]  # the picker shows them
    page.fill("input[name=venue]", "三楼会议室")
    page.get_by_role("button", name=seen.zh("保存", "Save"), exact=True).click()
    page.wait_for_load_state()
    tournament.refresh_from_db()
    assert tournament.venue == "三楼会议室"
    assert (tournament.starts_on, tournament.ends_on) == (datetime.date(2026, 12, 3), datetime.date(2026, 12, 4))
    seen.visit(url, "saved")
    assert [day.input_value() for day in days] == ["2026-12-03", "2026-12-04"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_calling_time_asks_first_and_a_called_round_reopens(page, live_server, language):
    tournament = make_field(4)
    boss = boss_of(tournament)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    round_ = round_publish(round_=round_draw(stage=stage, seed=1))
    clock.round_start(round_id=round_.pk)
    signed_in_as(page, boss, live_server, language)
    seen = Checked(page, language, "traps-clock")
    url = reverse("matches:round_clock", args=[tournament.pk, round_.pk])
    seen.visit(url, "running")

    call = page.locator(".clock-controls button[value=call]")
    page.fill("#round-reason", seen.zh("场馆关门", "venue closing"))
    asked = answer(page, accept=False)
    call.click()
    page.wait_for_timeout(300)
    assert asked and seen.zh("叫停", "Call time") in asked[0]
    assert not foreign(asked[0], language)
    round_.refresh_from_db()
    assert round_.time_called_at is None  # dismissed: nothing called
    answer(page, accept=True)
    with page.expect_navigation():
        call.click()
    round_.refresh_from_db()
    assert round_.time_called_at is not None
    seen.check("called")

    # the called round offers the way back: more minutes, a reason, asked first
    page.fill("#reopen-reason", seen.zh("误触叫停", "called by mistake"))
    page.fill("#reopen-minutes", "15")
    asked = answer(page, accept=True)
    with page.expect_navigation():
        page.locator(".clock-controls button[value=reopen]").click()
    assert asked and not foreign(asked[0], language)
    round_.refresh_from_db()
    assert round_.time_called_at is None and round_.ends_at is not None
    assert round_.matches.filter(time_called_at__isnull=False).count() == 0  # every table plays on
    assert page.locator(".clock-controls button[value=call]").is_visible()  # the controls are back
    seen.check("reopened")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_doors_undo_asks_first_and_is_refused_for_a_drawn_pair(page, live_server, language):
    tournament = make_field(5)
    boss = boss_of(tournament)
    pairs = list(tournament.pairs.order_by("number"))
    for pair in pairs[:4]:
        pair_check_in(pair=pair)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    round_publish(round_=round_draw(stage=stage, seed=1))  # the four checked in are drawn
    late, drawn = pairs[4], pairs[0]
    pair_check_in(pair=late)  # arrived after the draw: not drawn
    signed_in_as(page, boss, live_server, language)
    seen = Checked(page, language, "traps-door")
    seen.visit(reverse("registration:checkin", args=[tournament.pk]), "door")

    undo = page.locator(f"#pair-{late.pk} button[data-confirm]")
    asked = answer(page, accept=False)
    undo.click()
    page.wait_for_timeout(300)
    assert asked and not foreign(asked[0], language)
    late.refresh_from_db()
    assert late.status == PairStatus.CHECKED_IN  # dismissed: still in
    answer(page, accept=True)
    undo.click()
    page.locator(f"#pair-{late.pk}.door-registered").wait_for()
    late.refresh_from_db()
    assert late.status == PairStatus.REGISTERED

    answer(page, accept=True)
    page.locator(f"#pair-{drawn.pk} button[data-confirm]").click()
    refusal = page.locator(f"#pair-{drawn.pk} .error")
    refusal.wait_for()
    assert seen.zh("退赛", "withdraw") in refusal.inner_text()  # says what to do instead
    drawn.refresh_from_db()
    assert drawn.status == PairStatus.CHECKED_IN  # refused: the drawn pair stays in
    seen.check("refused")


@pytest.mark.parametrize("language", LANGUAGES)
def test_referees_carry_over_by_table_and_the_plan_fills_only_the_empty_tables(page, live_server, language):
    tournament = make_field(8)  # four tables
    boss = boss_of(tournament)
    first_ref, second_ref = (referee_create(tournament=tournament, name=name).user for name in ("裁判甲", "裁判乙"))
    referee_create(tournament=make_field(2), name="外场裁判")  # another event's
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    first = round_publish(round_=round_draw(stage=stage, seed=1))
    round_tables_assign(round_=first, referee=first_ref, first=1, last=2, user=boss)
    played(first)
    signed_in_as(page, boss, live_server, language)
    seen = Checked(page, language, "traps-referees")

    seen.visit(reverse("draw:stage", args=[tournament.pk, stage.pk]), "stage")
    page.locator(f"form[action$='/stages/{stage.pk}/draw/'] button[type=submit]").click()
    page.wait_for_load_state()
    second = Round.objects.get(stage=stage, number=2)

    def plan() -> dict[int, int]:
        return dict(RefereeAssignment.objects.filter(round=second).values_list("table__number", "referee_id"))

    assert plan() == {1: first_ref.pk, 2: first_ref.pk}  # carried over by table to the new round
    seen.visit(reverse("draw:referees", args=[tournament.pk, second.pk]), "round")
    picker = page.locator("#tables-by-hand select[name=hand-referee] option").all_inner_texts()
    assert "裁判甲" in picker and "裁判乙" in picker and "外场裁判" not in picker  # the event's own
    rows = page.locator("#referee-plan .list tbody tr").all_inner_texts()
    assert len(rows) == 2 and not any("外场裁判" in row for row in rows)
    lines = page.locator("#referee-plan .list tbody label.check").evaluate_all(NAME_LINES)
    assert lines == [1, 1], lines  # a name never breaks inside, on a phone either
    page.locator("#referee-plan input[name=tables_per_referee]").fill("2")
    page.locator("#referee-plan button[type=submit]").click()
    page.wait_for_load_state()
    assert plan()[1] == plan()[2] == first_ref.pk  # kept: the plan filled only the empty tables
    assert plan()[3] == plan()[4] == second_ref.pk  # the empty tables filled
    seen.check("planned")
