"""The table conduct text (docs/rules.md §7) on every paper score sheet — printed page and .xlsx — from
the rules core's one text for the stage's profile."""

from __future__ import annotations

import io
from html import unescape

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from scoring.conduct import table_conduct
from tournament.exports.conduct import _pieces
from tournament.exports.round_sheets import score_sheets_build
from tournament.matches.models import Match
from tournament.rules import stage_profile_name

pytestmark = pytest.mark.django_db


def test_every_score_sheet_prints_the_profiles_conduct(client, event):
    round_ = event.rounds[0]
    conduct = table_conduct(stage_profile_name(round_.stage))
    assert conduct.lines
    client.force_login(event.boss)
    html = unescape(client.get(reverse("exports:score_sheets", args=[event.tournament.pk, round_.pk])).content.decode())
    tables = Match.objects.filter(round=round_, ew_pair__isnull=False).count()
    assert html.count('<section class="sheet-conduct">') == tables
    assert html.count(conduct.lines[0].zh) == tables and conduct.lines[0].en in html
    assert html.index(conduct.lines[0].zh) < html.index(conduct.lines[0].en)  # Chinese first


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_xlsx_score_sheets_print_it_in_their_language(event, language):
    round_ = event.rounds[0]
    conduct = table_conduct(stage_profile_name(round_.stage))
    out = io.BytesIO()
    score_sheets_build(round=round_, target=out, language=language)
    sheet = load_workbook(io.BytesIO(out.getvalue())).worksheets[0]
    text = "".join(value for row in sheet.iter_rows(values_only=True) for value in row if isinstance(value, str))
    title = conduct.title_zh if language == "zh" else conduct.title_en
    tables = Match.objects.filter(round=round_, ew_pair__isnull=False).count()
    assert text.count(title) == tables
    first = conduct.lines[0].zh if language == "zh" else conduct.lines[0].en
    assert first.replace(" ", "") in text.replace(" ", "")


def test_a_long_rule_is_cut_to_the_sheet_width():
    pieces = _pieces("1. " + "出牌" * 40, 30)
    assert all(sum(2 if "\u4e00" <= c <= "\u9fff" else 1 for c in piece) <= 30 for piece in pieces)
    assert "".join(pieces) == "1. " + "出牌" * 40
    english = "1. Each play within 10 seconds; no stalling at all"
    words = _pieces(english, 20)
    assert all(len(piece) <= 20 for piece in words) and " ".join(words) == english
