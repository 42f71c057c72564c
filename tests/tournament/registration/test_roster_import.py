"""Roster import: all-or-nothing with a per-row report."""

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


def test_one_file_with_every_kind_of_bad_row_lists_each_problem_once_with_its_row():
    """A formula row no longer hides the other rows' checks (an employee number already
    registered was missed), and its partner is not told it is "not in the file"."""
    tournament = TournamentFactory()
    PlayerFactory(tournament=tournament, employee_number="9001")
    rows = [
        ['=HYPERLINK("http://x","y")', "1001", "", "1002", ""],  # 2: a formula (its name cell)
        ["李娜", "1002", "", "1001", ""],  # 3: fine: its partner's row is refused, not missing
        ["", "2001", "", "2002", ""],  # 4: no name
        ["王强", "2002", "部" * 81, "2001", ""],  # 5: department too long
        ["老王", "9001", "", "3002", ""],  # 6: already registered
        ["小李", "3002", "", "9001", ""],  # 7: fine (partner of row 6)
        ["重复甲", "4001", "", "4002", ""],  # 8: 4001 twice
        ["重复乙", "4001", "", "4002", ""],  # 9: 4001 twice; 4002 claimed by two rows
        ["被争", "4002", "", "", ""],  # 10: named as partner in rows 8 and 9
        ["无号", "", "", "", ""],  # 11: no employee number
        ["自己", "5001", "", "5001", ""],  # 12: own partner
        ["找不到", "6001", "", "6999", ""],  # 13: partner not in the file
        ["孤独", "7001", "", "", ""],  # 14: no partner
        ["第三者", "8001", "", "1001", ""],  # 15: 1001 is paired with 1002
    ]
    errors = errors_of(workbook(rows), tournament=tournament)
    assert errors == [
        (2, "A cell holds a formula; type plain values."),
        (4, "Name is required."),
        (5, "Department is longer than 80 characters."),
        (6, "Employee number 9001 is already registered."),
        (8, "Employee number 4001 appears more than once."),
        (9, "Employee number 4001 appears more than once."),
        (10, "Named as partner in several rows (8, 9); a player can be in only one pair."),
        (11, "Employee number is required."),
        (12, "A player cannot be their own partner (a pair of one)."),
        (13, "Partner 6999 is not in the file."),
        (14, "No partner: a pair needs two players (a pair of one)."),
        (15, "Partner 1001 is paired with 1002 in row 2; a player can be in only one pair."),
    ]
