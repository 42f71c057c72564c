"""A round's draw sheet and paper score sheets: .xlsx read back, and the print pages."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from scoring.profiles import options_for
from tests.tournament.exports.conftest import INJECTION_NAMES, read_book, read_cells, sheet_xml
from tournament.exports import headers as h
from tournament.exports.round_sheets import (
    GRID_ROWS_LEVEL_GAME,
    round_draw_build,
    score_sheet_columns,
    score_sheet_rows,
    score_sheets_build,
)
from tournament.exports.xlsx import clean_cell_text
from tournament.games.doudizhu import DOUDIZHU_SCORE_SHEET
from tournament.games.guandan import SCORE_SHEET_LEVELS, SCORE_SHEET_POINTS
from tournament.games.tractor import SCORE_SHEET_TRACTOR
from tournament.matches.models import Match
from tournament.registration.models import Player
from tournament.rules import rules_for_stage

pytestmark = pytest.mark.django_db


def built(builder, **kwargs) -> bytes:
    out = io.BytesIO()
    builder(target=out, **kwargs)
    return out.getvalue()


def test_round_draw_sheet_lists_every_table_with_seats(event):
    round_ = event.rounds[0]
    data = built(round_draw_build, round=round_)
    (title, rows), *_ = read_book(data).items()
    assert title == "预赛第1轮对阵"
    assert rows[0] == tuple(h.titles(h.DRAW, "zh"))
    matches = list(Match.objects.filter(round=round_).order_by("table__number"))
    assert len(rows) - 1 == len(matches)
    first = rows[1]
    match = next(m for m in matches if m.table and m.table.number == 1)
    players = [member.player.name for member in match.ns_pair.members.order_by("slot")]
    assert first[:5] == (1, "A区", match.ns_pair.number, *players)
    assert rows[-1][0] is None and rows[-1][10] == "轮空"
    assert all("<f>" not in xml for xml in sheet_xml(data))
    sheet = load_workbook(io.BytesIO(data)).worksheets[0]
    assert sheet.page_setup.orientation == "landscape" and sheet.freeze_panes == "A2"
    english = read_book(built(round_draw_build, round=round_, language="en"))
    assert list(english) == ["预赛 R1 draw"] and english["预赛 R1 draw"][-1][10] == "Bye"


def test_score_sheets_one_page_per_table_with_an_empty_grid(event):
    round_ = event.rounds[0]
    data = built(score_sheets_build, round=round_)
    book = load_workbook(io.BytesIO(data))
    sheet = book.worksheets[0]
    assert sheet.title == "记分表"
    tables = Match.objects.filter(round=round_, ew_pair__isnull=False).count()
    assert tables == 4
    assert len(sheet.row_breaks.brk) == tables  # one printed page per table
    assert int(sheet.page_setup.paperSize) == 9 and sheet.page_setup.fitToWidth == 1  # A4, one page wide
    rows = [row for row in sheet.iter_rows(values_only=True)]
    titles = tuple(h.titles(SCORE_SHEET_LEVELS, "zh"))
    header_rows = [index for index, row in enumerate(rows) if row[: len(titles)] == titles]
    assert len(header_rows) == tables
    for index in header_rows:
        grid = rows[index + 1 : index + 1 + GRID_ROWS_LEVEL_GAME]
        assert [row[0] for row in grid] == list(range(1, GRID_ROWS_LEVEL_GAME + 1))
        assert all(value is None for row in grid for value in row[1 : len(titles)])
    text = [value for row in rows for value in row if isinstance(value, str)]
    assert "北: " + INJECTION_NAMES[0] in text  # seats named, formula-like text kept as text
    assert any(value.startswith("限时 40 分钟") for value in text)
    cells = read_cells(data, "记分表")
    assert all(cell.data_type != "f" for row in cells for cell in row)


def test_score_sheet_grid_follows_the_match_format(event):
    stage = event.stage
    stage.rule_profile = "points-6"
    stage.rules = options_for(profile="points-6").to_stored()
    stage.save()
    options = rules_for_stage(stage)
    assert score_sheet_columns(stage=stage, options=options) == SCORE_SHEET_POINTS
    assert score_sheet_rows(options) == 8  # 6 deals and room for tiebreak deals
    data = built(score_sheets_build, round=event.rounds[0], language="en")
    rows = read_book(data)["Score sheets"]
    assert tuple(h.titles(SCORE_SHEET_POINTS, "en")) in [row[:8] for row in rows]


def test_print_pages_one_section_per_table_escaped_names(client, event):
    Player.objects.filter(name="刘洋").update(name="<script>alert(1)</script>")
    client.force_login(event.boss)
    round_ = event.rounds[0]
    url = reverse("exports:score_sheets", args=[event.tournament.pk, round_.pk])
    html = client.get(url).content.decode()
    assert html.count('<section class="score-sheet">') == 4
    assert html.count("<tr><td>1</td>") == 4 and "<tr><td>24</td>" in html
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html
    batch = client.get(url, {"from": 2, "to": 3}).content.decode()
    assert batch.count('<section class="score-sheet">') == 2
    draw = client.get(reverse("exports:round_draw", args=[event.tournament.pk, round_.pk])).content.decode()
    assert clean_cell_text("王芳😀🀄") in draw and draw.count("<tr>") == 6  # header + 5 tables (one bye)


def test_print_pages_offer_the_xlsx_downloads(client, event):
    client.force_login(event.boss)
    round_ = event.rounds[1]
    for name in ("exports:round_draw", "exports:score_sheets"):
        response = client.get(reverse(name, args=[event.tournament.pk, round_.pk]), {"format": "xlsx"})
        assert response.status_code == 200
        assert response["Content-Type"].startswith("application/vnd.openxmlformats")
        assert "attachment" in response["Content-Disposition"]
        assert read_book(b"".join(response.streaming_content))


def _char_width(char: str) -> float:
    return 2 if ord(char) > 0x2E80 else 1.5 if char in "mwMW" else 1


@pytest.mark.parametrize(
    "columns",
    [SCORE_SHEET_LEVELS, SCORE_SHEET_POINTS, SCORE_SHEET_TRACTOR, DOUDIZHU_SCORE_SHEET],
    ids=["levels", "points", "tractor", "doudizhu"],
)
def test_every_score_sheet_title_word_fits_its_column(columns):
    """Printed (LibreOffice), a grid title wraps between words but a word longer than its column
    was cut in two ("Landlor-d"); the label column holds "Signatures" / "签名"."""
    from tournament.exports.xlsx import LABEL_WIDTH, score_sheet_widths

    widths = score_sheet_widths(columns)
    for column, width in zip(columns, widths, strict=True):
        for language in ("en", "zh"):
            title = h.titles((column,), language)[0]
            # a CJK character takes about two of Excel's character widths, a bold m or w one and a half;
            # and the cell's padding one more
            longest = max(sum(_char_width(char) for char in word) for word in title.split())
            assert longest + 1 <= width, (column.key, language, title, width)
    assert widths[0] >= LABEL_WIDTH >= len(h.word("signature", "en"))


def test_score_sheets_grid_titles_have_room_for_two_lines(event):
    from tournament.exports.xlsx import ROW_HEIGHT_GRID_HEADER

    data = built(score_sheets_build, round=event.rounds[0], language="en")
    sheet = load_workbook(io.BytesIO(data)).worksheets[0]
    titles = tuple(h.titles(SCORE_SHEET_LEVELS, "en"))
    header_rows = [
        row[0].row for row in sheet.iter_rows() if tuple(cell.value for cell in row[: len(titles)]) == titles
    ]
    assert header_rows and all(sheet.row_dimensions[row].height == ROW_HEIGHT_GRID_HEADER for row in header_rows)
