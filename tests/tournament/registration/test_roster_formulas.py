"""The roster importer refuses a formula however it is dressed: behind a space, a tab or an
invisible mark (`` =HYPERLINK(…)``, ``\\t+SUM(1)`` were stored as the formulas' text), and with
Excel's other formula signs; a phone "+86 …" or a signed number stays a plain value."""

from __future__ import annotations

import pytest

from tests.factories import TournamentFactory
from tests.tournament.registration.test_roster_import import errors_of, workbook
from tournament.registration.models import Player
from tournament.registration.roster import roster_import

pytestmark = pytest.mark.django_db

FORMULA = "A cell holds a formula; type plain values."


@pytest.mark.parametrize(
    "cell",
    [
        '=HYPERLINK("http://x","y")',
        ' =HYPERLINK("http://x","y")',
        "\t+SUM(1)",
        "\u200b=1+1",
        "\n@SUM(A1)",
        "+SUM(1)",
        "-1+2",
        "@cmd",
    ],
)
def test_a_formula_behind_white_space_is_refused(cell):
    for column in (0, 2):  # the name, the department
        row = ["张伟", "1001", "", "1002", ""]
        row[column] = cell
        assert (2, FORMULA) in errors_of(workbook([row, ["李娜", "1002", "", "1001", ""]]))


def test_a_phone_with_its_country_code_is_a_plain_value():
    event = TournamentFactory()
    rows = [["张伟", "1001", "", "1002", "+86 138-0000-0001"], ["李娜", "1002", "", "1001", " -"]]
    roster_import(tournament=event, file=workbook(rows))
    assert Player.objects.get(employee_number="1001").phone == "+86 138-0000-0001"
