"""Roster import: all-or-nothing with a per-row report (issue 2)."""

from __future__ import annotations

import io

import pytest
from openpyxl import Workbook

from tests.factories import PlayerFactory, TournamentFactory
from tournament.registration.models import Department, Pair, PairMember, Player
from tournament.registration.roster import RosterImportError, roster_import, roster_template

pytestmark = pytest.mark.django_db

HEADER = ["姓名", "工号", "部门", "搭档工号", "手机"]


def workbook(rows, header=HEADER) -> io.BytesIO:
    book = Workbook()
    sheet = book.active
    if header:
        sheet.append(header)
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    buffer.seek(0)
    return buffer


GOOD = [
    ["张伟", "1001", "财务部", "1002", "13800000001"],
    ["李娜", "1002", "财务部", "1001", ""],
    ["王强", "2001", "销售部", "2002", ""],
    ["赵敏", 2002, "销售部", "", None],  # partner left empty on one row; number typed as a number
]


def snapshot():
    return (
        Player.objects.count(),
        Pair.objects.count(),
        PairMember.objects.count(),
        Department.objects.count(),
    )


def test_a_good_roster_creates_players_pairs_and_departments():
    tournament = TournamentFactory()
    result = roster_import(tournament=tournament, file=workbook(GOOD))
    assert (result.players, result.pairs) == (4, 2)
    assert sorted(result.departments) == ["财务部", "销售部"]
    pairs = {pair.name for pair in Pair.objects.filter(tournament=tournament)}
    assert pairs == {"张伟 / 李娜", "王强 / 赵敏"}
    assert Player.objects.get(employee_number="2002").department.name == "销售部"
    assert Player.history.count() == 4  # every imported row is audited


def test_english_headers_are_accepted():
    tournament = TournamentFactory()
    header = ["Name", "Employee number", "Department", "Partner employee number", "Phone"]
    assert roster_import(tournament=tournament, file=workbook(GOOD, header=header)).pairs == 2


def test_the_downloadable_template_imports_as_it_is():
    tournament = TournamentFactory()
    result = roster_import(tournament=tournament, file=io.BytesIO(roster_template()))
    assert (result.players, result.pairs) == (2, 1)


def errors_of(file, tournament=None):
    tournament = tournament or TournamentFactory()
    before = snapshot()
    with pytest.raises(RosterImportError) as caught:
        roster_import(tournament=tournament, file=file)
    assert snapshot() == before, "a refused import must write nothing"
    return [(error.row, error.message) for error in caught.value.errors]


def test_missing_name():
    rows = [["", "1001", "", "1002", ""], ["李娜", "1002", "", "1001", ""]]
    assert errors_of(workbook(rows)) == [(2, "Name is required.")]


def test_duplicate_employee_number_in_the_file():
    rows = [*GOOD, ["孙悟空", "1001", "", "1002", ""]]
    errors = errors_of(workbook(rows))
    assert (2, "Employee number 1001 appears more than once.") in errors
    assert (6, "Employee number 1001 appears more than once.") in errors


def test_employee_number_already_registered():
    tournament = TournamentFactory()
    PlayerFactory(tournament=tournament, employee_number="1001")
    errors = errors_of(workbook(GOOD), tournament)
    assert errors == [(2, "Employee number 1001 is already registered.")]


def test_partner_not_in_the_file():
    rows = [["张伟", "1001", "", "9999", ""], ["李娜", "1002", "", "1001", ""]]
    errors = errors_of(workbook(rows))
    assert (2, "Partner 9999 is not in the file.") in errors


def test_a_player_in_two_pairs():
    rows = [
        ["张伟", "1001", "", "1002", ""],
        ["李娜", "1002", "", "1003", ""],
        ["王强", "1003", "", "1002", ""],
    ]
    errors = errors_of(workbook(rows))
    assert any(row == 2 and "only one pair" in message for row, message in errors)


def test_a_player_named_by_two_partners():
    rows = [["张伟", "1001", "", "1003", ""], ["李娜", "1002", "", "1003", ""], ["王强", "1003", "", "", ""]]
    errors = errors_of(workbook(rows))
    assert any(row == 4 and "several rows (2, 3)" in message for row, message in errors)


def test_a_pair_of_one():
    rows = [*GOOD, ["孤独", "3001", "", "", ""], ["自己", "3002", "", "3002", ""]]
    errors = errors_of(workbook(rows))
    assert [row for row, _ in errors] == [6, 7]
    assert all("pair of one" in message for _, message in errors)


def test_over_long_text():
    rows = [["张" * 61, "1001", "", "1002", ""], ["李娜", "1002", "部" * 81, "1001", ""]]
    errors = errors_of(workbook(rows))
    assert errors == [
        (2, "Name is longer than 60 characters."),
        (3, "Department is longer than 80 characters."),
    ]


def test_a_formula_cell():
    rows = [['=HYPERLINK("http://x","y")', "1001", "", "1002", ""], ["李娜", "1002", "", "1001", ""]]
    errors = errors_of(workbook(rows))
    assert (2, "A cell holds a formula; type plain values.") in errors


def test_a_file_that_is_not_a_workbook():
    assert errors_of(io.BytesIO(b"name,number\nA,1\n")) == [
        (None, "The file is not an Excel workbook (.xlsx).")
    ]


def test_an_empty_sheet():
    assert errors_of(workbook([], header=None)) == [(None, "The sheet is empty.")]
    assert errors_of(workbook([])) == [(None, "The sheet has no players.")]


def test_missing_required_columns():
    assert errors_of(workbook(GOOD, header=["姓名", "部门"])) == [(1, "Missing column(s): 工号, 搭档工号.")]


def test_every_bad_row_is_reported_at_once():
    rows = [["", "1001", "", "1002", ""], ["李娜", "1002", "", "1001", ""], ["王强", "2001", "", "", ""]]
    assert [row for row, _ in errors_of(workbook(rows))] == [2, 4]


def test_control_characters_are_removed_and_emoji_kept():
    rows = [["张\u200b伟\t", " 1001 ", "财务部\n", "1002", ""], ["李娜🀄", "1002", "", "1001", ""]]
    roster_import(tournament=TournamentFactory(), file=workbook(rows))
    assert Player.objects.get(employee_number="1001").name == "张伟"
    assert Player.objects.get(employee_number="1002").name == "李娜🀄"
