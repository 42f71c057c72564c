"""Accessibility stays clean: axe-core finds no serious or critical violation on the main
public, referee and organiser pages, in Chinese and in English, at a phone's size.

One event serves the whole sweep (building it is the slow part); each page is opened once per
language and checked as it loads.
"""

from __future__ import annotations

import pytest

from tests.e2e.axe import blocking_violations
from tests.e2e.conftest import PHONE, log_in
from tests.e2e.pages_event import PASSWORD, PagesEvent, pages_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def public_pages(e: PagesEvent) -> list[str]:
    t = e.tournament_id
    return [
        "/",
        f"/t/{t}/",
        f"/t/{t}/draw/",
        f"/t/{t}/draw/{e.first_round_id}/",
        f"/t/{t}/standings/",
        f"/t/{t}/find/?q=%E4%B8%89%E7%94%B2",
        f"/t/{t}/pairs/{e.running.ns_pair_id}/",
        f"/t/{t}/pairs/{e.forfeited.ew_pair_id}/",
        f"/t/{t}/matches/{e.running.pk}/",
        f"/t/{t}/matches/{e.forfeited.pk}/",
        f"/t/{t}/screen/",
        f"/t/{e.knockout_id}/bracket/",
        f"/t/{e.knockout_id}/placings/",
        "/t/999999/",  # the site's 404 page (the default one was axe's one finding before)
        "/accounts/login/",
    ]


def referee_pages(e: PagesEvent) -> list[str]:
    m = e.running.pk
    return [
        "/referee/",
        f"/referee/matches/{m}/",
        f"/referee/matches/{m}/?order=NE",
        f"/referee/matches/{m}/?order=NEW",
        f"/referee/matches/{e.finished.pk}/",  # a finished round's table, read-only
        f"/referee/matches/{m}/deals/1/edit/",
        f"/referee/matches/{m}/deals/1/delete/",
        "/referee/cards/",
    ]


def organiser_pages(e: PagesEvent) -> list[str]:
    t, r, m = e.tournament_id, e.second_round_id, e.running.pk
    return [
        "/t/new/",
        f"/t/{t}/manage/event/",
        f"/t/{t}/manage/pairs/",
        f"/t/{t}/manage/check-in/",
        f"/t/{t}/manage/import/",
        f"/t/{t}/manage/departments/",
        f"/t/{t}/manage/tables/",
        f"/t/{t}/manage/stages/",
        f"/t/{t}/manage/rounds/{r}/",
        f"/t/{t}/manage/rounds/{r}/sheet/",
        f"/t/{t}/manage/rounds/{r}/clock/",
        f"/t/{t}/manage/rounds/{r}/board/",
        f"/t/{t}/manage/rounds/{r}/referees/",
        f"/t/{t}/manage/rounds/{r}/no-shows/",
        f"/t/{t}/manage/referees/",
        f"/t/{t}/manage/exports/",
        f"/t/{t}/manage/prizes/",
        f"/referee/matches/{m}/audit/",
        f"/referee/matches/{m}/adjustments/",
    ]


def sweep(page, paths: list[str], language: str) -> dict[str, list[str]]:
    found = {}
    for path in paths:
        response = page.goto(path)
        assert response is not None and response.status == (404 if path.startswith("/t/999999/") else 200), path
        bad = blocking_violations(page)
        if bad:
            found[f"{language} {path}"] = bad
    return found


def test_the_main_pages_have_no_serious_or_critical_axe_violation(open_page):
    event = pages_event()
    found: dict[str, list[str]] = {}
    public, ref, boss = (open_page(PHONE, "zh-hans", bypass_csp=True) for _ in range(3))
    log_in(ref, "pages-ref", PASSWORD)
    log_in(boss, "pages-boss", PASSWORD)
    for language in ("zh-hans", "en"):
        for page in (public, ref, boss):  # the header's language switch (a cookie) for each
            page.goto(f"/language/{language}/?next=/")
        found |= sweep(public, public_pages(event), language)
        found |= sweep(ref, referee_pages(event), language)
        found |= sweep(boss, organiser_pages(event), language)
    assert found == {}


def test_the_check_sees_a_violation(open_page):
    """The sweep could fail: a form field without a label is a critical violation to axe."""
    page = open_page(bypass_csp=True)
    page.set_content('<!doctype html><html lang="en"><title>t</title><main><input type="text"></main></html>')
    assert any(found.startswith("label (critical)") for found in blocking_violations(page))
