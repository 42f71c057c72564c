"""The streaming .xlsx writer: types, safe cells, valid sheet names, layout, no leftovers."""

from __future__ import annotations

import io
import os
import tempfile
from datetime import UTC, date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from tests.tournament.exports.conftest import INJECTION_NAMES, read_book, read_cells, sheet_xml
from tournament.exports.xlsx import EXCEL_CELL_MAX, SHEET_TITLE_MAX, Book, Styled, clean_cell_text, sheet_title

SHANGHAI = ZoneInfo("Asia/Shanghai")


def one_sheet(rows, **sheet_options) -> bytes:
    out = io.BytesIO()
    with Book(time_zone=SHANGHAI) as book:
        sheet = book.sheet("数据", **sheet_options)
        for row in rows:
            sheet.append(row)
        book.save(out)
    return out.getvalue()


def test_numbers_are_numbers_and_times_are_local():
    aware = datetime(2024, 5, 1, 0, 30, 15, 999999, tzinfo=UTC)
    row = [7, 2.5, Decimal("3.25"), True, False, date(2024, 5, 1), aware, datetime(2024, 5, 1, 9, 0), "7", None, 10**12]
    data = one_sheet([row])
    (values,) = read_book(data)["数据"]
    assert values == (
        7,
        2.5,
        3.25,
        True,
        False,
        datetime(2024, 5, 1),
        datetime(2024, 5, 1, 8, 30, 15),  # Asia/Shanghai, whole seconds
        datetime(2024, 5, 1, 9, 0),
        "7",
        None,
        10**12,
    )
    kinds = [cell.data_type for cell in read_cells(data, "数据")[0]]
    assert kinds[:5] == ["n", "n", "n", "b", "b"]
    assert kinds[8] == "s"  # text that looks like a number stays text (employee numbers keep their zeros)


@pytest.mark.parametrize("text", [*INJECTION_NAMES, "=1+1", "\tTab", "\rCR", "=cmd|' /C calc'!A0", "-", "+", "@", "="])
def test_text_that_looks_like_a_formula_is_stored_as_plain_text(text):
    data = one_sheet([[text, "plain"]])
    (cell, _plain), *_ = read_cells(data, "数据")
    assert cell.value == text
    assert cell.data_type == "s"
    assert all("<f>" not in xml and "<f " not in xml for xml in sheet_xml(data))
    full = load_workbook(io.BytesIO(data))
    assert full["数据"]["A1"].quotePrefix is True  # editing the cell in Excel keeps it text too
    assert not full["数据"]["B1"].quotePrefix


def test_control_characters_are_removed_emoji_and_cjk_kept():
    data = one_sheet([["a\x00b\x07c\x1bd\x7f😀\u200d🀄 掼蛋\ufffe", "<&>\"'", " padded "]])
    assert read_book(data)["数据"] == [("abcd😀\u200d🀄 掼蛋", "<&>\"'", " padded ")]


def test_text_is_cut_to_the_excel_cell_limit():
    data = one_sheet([["长" * (EXCEL_CELL_MAX + 5000)]])
    (row,) = read_book(data)["数据"]
    assert row[0] == "长" * EXCEL_CELL_MAX


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.text(), st.integers(-(10**15), 10**15), st.booleans(), st.none()), max_size=8))
def test_any_row_reads_back_as_written(row):
    data = one_sheet([row])
    expected = tuple(clean_cell_text(value) if isinstance(value, str) else value for value in row)
    read = read_book(data)["数据"]
    read_row = read[0] if read else ()
    # Trailing empty cells are not cells: compare up to the last written value.
    width = max((index + 1 for index, value in enumerate(expected) if value not in (None, "")), default=0)
    normalised = tuple(None if value == "" else value for value in expected[:width])
    assert tuple(None if value == "" else value for value in read_row[:width]) == normalised


@pytest.mark.parametrize(
    ("wanted", "taken", "expected"),
    [
        ("预赛第1轮对阵", [], "预赛第1轮对阵"),
        ("A/B: [1]*?\\", [], "A_B_ _1____"),
        ("x" * 40, [], "x" * 31),
        ("Results", ["results"], "Results (2)"),
        ("Results", ["results", "Results (2)"], "Results (3)"),
        ("History", [], "History (2)"),
        ("'quoted'", [], "quoted"),
        ("", [], "Sheet"),
        ("\x07", [], "Sheet"),
    ],
)
def test_sheet_titles_are_made_valid(wanted, taken, expected):
    assert sheet_title(wanted, taken=taken) == expected


@settings(max_examples=200, deadline=None)
@given(st.text(), st.lists(st.text(max_size=31), max_size=5))
def test_any_sheet_title_is_valid_and_new(wanted, taken):
    title = sheet_title(wanted, taken=taken)
    assert 1 <= len(title) <= SHEET_TITLE_MAX
    assert not set(title) & set("[]:*?/\\")
    assert not title.startswith("'") and not title.endswith("'")
    assert title.casefold() not in {name.casefold() for name in taken} | {"history"}
    assert clean_cell_text(title) == title


def test_header_row_is_frozen_filtered_styled_and_repeated_when_printed():
    data = one_sheet([[1, "a"], [2, "b"]], header=["编号", "名称"], widths=[8, 20], styles=[None, None])
    book = load_workbook(io.BytesIO(data))
    sheet = book["数据"]
    assert sheet.freeze_panes == "A2"
    assert sheet.auto_filter.ref == "A1:B3"
    assert sheet.column_dimensions["A"].width == 8 and sheet.column_dimensions["B"].width == 20
    assert sheet["A1"].font.b is True
    assert sheet.print_title_rows == "$1:$1"
    assert [row for row in sheet.iter_rows(values_only=True)] == [("编号", "名称"), (1, "a"), (2, "b")]


def test_styles_row_heights_and_empty_styled_cells():
    out = io.BytesIO()
    with Book(time_zone=SHANGHAI) as book:
        sheet = book.sheet("grid")
        sheet.append([Styled(1, "grid"), Styled(None, "grid")], height=24)
        book.save(out)
    sheet = load_workbook(io.BytesIO(out.getvalue()))["grid"]
    assert sheet.row_dimensions[1].height == 24
    assert sheet["B1"].border.left.style == "thin" and sheet["B1"].value is None


def _leftovers() -> set[str]:
    return {name for name in os.listdir(tempfile.gettempdir()) if name.startswith("guandan-")}


@pytest.fixture
def own_tempdir(tmp_path, monkeypatch):
    """A temporary directory of this test's own: other tests running beside it make files too."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


def test_a_failed_build_leaves_no_temporary_files(own_tempdir):
    before = _leftovers()
    with pytest.raises(RuntimeError), Book(time_zone=SHANGHAI) as book:
        sheet = book.sheet("x", header=["a"])
        sheet.append(["row"])
        book.sheet("y").append([1])
        raise RuntimeError("the database went away")
    assert _leftovers() == before


def test_a_saved_book_leaves_no_temporary_files(own_tempdir):
    before = _leftovers()
    one_sheet([["a"]] * 10, header=["h"])
    assert _leftovers() == before
