"""One answer to "what is this round, this table, called?" (docs/design.md, one answer to each question): a
knockout's rounds by their names and its third-place match as the third-place match, not the final, on
every reader — the score sheets (page and .xlsx), the draw sheets (the organiser's, the printed page and
the .xlsx), the workbook, the public draw — in Chinese and in English, all from ``labels.round_name``."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from tests.factories import english_client, organiser
from tests.tournament.draw.conftest import make_field, win
from tests.tournament.exports.conftest import build, read_book
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.exports.round_sheets import round_draw_build, score_sheets_build
from tournament.matches.services import match_sign_off

pytestmark = pytest.mark.django_db

NAMES = {
    "zh": {"semi": "半决赛", "final": "决赛", "third": "三四名决赛"},
    "en": {"semi": "Semi-finals", "final": "Final", "third": "Third-place match"},
}


@pytest.fixture
def knockout(django_capture_on_commit_callbacks):
    """Four pairs, a fixed bracket with a third-place match: the semi-finals signed off, the final round drawn."""
    boss = organiser(username="boss")
    tournament = make_field(4, seeds=True)
    tournament.organisers.add(boss)
    stage = stage_create(
        tournament=tournament,
        name="淘汰赛",
        format="knockout",
        options={"bracket": "fixed", "seeding": "seeds", "third_place": True},
    )
    semis = round_publish(round_=round_draw(stage=stage, seed=1))
    for match in semis.matches.order_by("table__number"):
        win(match, "NS")
        with django_capture_on_commit_callbacks(execute=True):
            match_sign_off(match_id=match.pk)
    final_round = round_publish(round_=stage.rounds.get(number=2))
    final = final_round.matches.get(bracket_slot=1)
    third = final_round.matches.get(bracket_slot=2)
    assert (final.table.number, third.table.number) == (1, 2)
    return boss, tournament, semis, final_round


def _xlsx_rows(write) -> list[tuple]:
    out = io.BytesIO()
    write(out)
    book = load_workbook(io.BytesIO(out.getvalue()), read_only=True)
    return [row for sheet in book.worksheets for row in sheet.iter_rows(values_only=True)]


def _client(boss, language):
    client = english_client() if language == "en" else Client()
    client.force_login(boss)
    return client


@pytest.mark.parametrize("language", ["zh", "en"])
def test_every_reader_names_the_final_and_the_third_place_match(knockout, language):
    boss, tournament, _semis, final_round = knockout
    names = NAMES[language]
    client = _client(boss, language)
    # the score sheets: a page a table, table 2 is the third-place match
    page = client.get(reverse("exports:score_sheets", args=[tournament.pk, final_round.pk])).content.decode()
    headings = [part.split("</h2>")[0] for part in page.split("<h2>")[1:]]
    assert [heading.rsplit(" · ", 1)[-1] for heading in headings] == [names["final"], names["third"]]
    rows = _xlsx_rows(lambda out: score_sheets_build(round=final_round, target=out, language=language))
    titles = [row[0] for row in rows if row and isinstance(row[0], str) and tournament.name in row[0]]
    assert [title.split(" · ")[1] for title in titles] == [f"淘汰赛 {names['final']}", f"淘汰赛 {names['third']}"]
    # the draw sheets: the organiser's, the printed page, the .xlsx
    for url in (
        reverse("draw:sheet", args=[tournament.pk, final_round.pk]),
        reverse("exports:round_draw", args=[tournament.pk, final_round.pk]),
    ):
        body = client.get(url).content.decode()
        assert names["third"] in body and names["final"] in body
    rows = _xlsx_rows(lambda out: round_draw_build(round=final_round, target=out, language=language))
    assert [row[-1] for row in rows[1:]] == [None, names["third"]]
    # the workbook: the round column names the knockout's rounds
    book = read_book(build(tournament=tournament, language=language))
    results = next(
        rows
        for rows in book.values()
        if rows and rows[0][:3] in (("比赛编号", "阶段", "轮次"), ("Match no.", "Stage", "Round"))
    )
    assert sorted(str(row[2]) for row in results[1:]) == sorted(
        [names["semi"], names["semi"], names["final"], names["third"]]
    )
    # the public draw: the rounds' list and the third-place table
    public = english_client() if language == "en" else Client()
    draw = public.get(reverse("standings:draw_round", args=[tournament.pk, final_round.pk])).content.decode()
    tabs = next(part for part in draw.split('<nav class="tabs"')[1:] if "/draw/" in part.split("</nav>")[0])
    tabs = tabs.split("</nav>")[0]
    assert names["semi"] in tabs and names["final"] in tabs
    assert names["third"] in draw.split('class="list draw"')[1]
