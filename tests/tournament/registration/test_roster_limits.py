"""Roster import limits: a hand-made or damaged workbook is refused with the importer's
own error — never a 500 — and reading one is bounded in size, rows, memory and time. The bad files
are built here, small: a zip of a few XML parts."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, organiser
from tests.tournament.registration.test_roster_import import GOOD, errors_of, workbook
from tournament.registration.models import Player
from tournament.registration.roster import roster_import

pytestmark = pytest.mark.django_db

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"


def xlsx(rows_xml: str, shared_strings: str | None = None) -> io.BytesIO:
    """A minimal workbook around ``rows_xml`` (the ``<sheetData>`` content), written by hand."""
    types = (
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        + (
            '<Override PartName="/xl/sharedStrings.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
            if shared_strings is not None
            else ""
        )
        + "</Types>"
    )
    parts = {
        "[Content_Types].xml": types,
        "_rels/.rels": f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{RELS}/officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{MAIN}" xmlns:r="{RELS}"><sheets>'
        '<sheet name="参赛名单" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{PKG}">'
        f'<Relationship Id="rId1" Type="{RELS}/worksheet" Target="worksheets/sheet1.xml"/>'
        + (
            f'<Relationship Id="rId2" Type="{RELS}/sharedStrings" Target="sharedStrings.xml"/>'
            if shared_strings is not None
            else ""
        )
        + "</Relationships>",
        "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{MAIN}"><sheetData>{rows_xml}</sheetData></worksheet>',
    }
    if shared_strings is not None:
        parts["xl/sharedStrings.xml"] = shared_strings
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
    buffer.seek(0)
    return buffer


def row(number: int, *values: str) -> str:
    cells = "".join(
        f'<c r="{column}{number}" t="inlineStr"><is><t>{value}</t></is></c>'
        for column, value in zip("ABCDE", values, strict=False)
    )
    return f'<row r="{number}">{cells}</row>'


HEADER_ROW = row(1, "姓名", "工号", "部门", "搭档工号")
PAIR_ROWS = row(2, "张伟", "1001", "财务部", "1002") + row(3, "李娜", "1002", "财务部", "1001")


def test_the_hand_made_workbook_imports_when_it_is_good():
    """The helper builds a real workbook (so the refusals below are about what they change)."""
    result = roster_import(tournament=TournamentFactory(), file=xlsx(HEADER_ROW + PAIR_ROWS))
    assert (result.players, result.pairs) == (2, 1)


@pytest.mark.parametrize("rows_before", [0, 3000])
def test_sheet_xml_with_control_characters_is_the_importers_error(rows_before):
    """XML 1.0 forbids most control characters: the parser's error was a 500 (raised on opening the
    workbook, or while its rows are read when the character comes late in the sheet)."""
    filler = "".join(row(n, f"p{n}", str(n), "", str(n ^ 1)) for n in range(4, 4 + rows_before))
    bad = row(4 + rows_before, "王\x01强", "9001", "", "9002")
    errors = errors_of(xlsx(HEADER_ROW + PAIR_ROWS + filler + bad))
    assert errors == [(None, "The workbook is damaged: its sheet cannot be read.")]


def test_sheet_xml_that_is_not_xml_is_the_importers_error():
    errors = errors_of(xlsx(HEADER_ROW + "<row r='2'><c r='A2'"))
    assert errors == [(None, "The workbook is damaged: its sheet cannot be read.")]


def test_the_row_cap_counts_blank_rows_too(settings):
    """Blank rows were skipped before the cap was counted: a million of them held a worker 60 s."""
    settings.ROSTER_IMPORT_MAX_ROWS = 50
    blank = "".join(f'<row r="{n}"><c r="A{n}"/></row>' for n in range(4, 200))
    errors = errors_of(xlsx(HEADER_ROW + PAIR_ROWS + blank))
    assert errors == [(52, "Too many rows (at most 50).")]
    settings.ROSTER_IMPORT_MAX_ROWS = 2
    assert roster_import(tournament=TournamentFactory(), file=xlsx(HEADER_ROW + PAIR_ROWS)).pairs == 1


def test_an_upload_over_the_size_limit_is_refused_before_it_is_read(settings):
    file = workbook(GOOD)
    settings.ROSTER_IMPORT_MAX_BYTES = len(file.getvalue()) - 1
    assert errors_of(file) == [(None, "The file is too large (at most 0.0 MB).")]
    settings.ROSTER_IMPORT_MAX_BYTES = len(file.getvalue())
    file.seek(0)
    assert roster_import(tournament=TournamentFactory(), file=file).pairs == 2


def test_a_huge_shared_string_is_refused_by_its_unpacked_size(settings):
    """One 64 MiB shared string took 18.7 s to parse; the zip's table of contents says how large
    each part is unpacked, so it is refused before any XML is read (here: 2 MiB against 1 MiB)."""
    settings.ROSTER_IMPORT_MAX_UNPACKED_BYTES = 2**20
    shared = f'<sst xmlns="{MAIN}" count="1" uniqueCount="1"><si><t>{"王" * (2**20)}</t></si></sst>'
    big = row(1, "姓名", "工号", "部门", "搭档工号") + '<row r="2"><c r="A2" t="s"><v>0</v></c></row>'
    file = xlsx(big, shared_strings=shared)
    assert len(file.getvalue()) < 100_000  # small on disk, large in memory
    assert errors_of(file) == [(None, "The workbook holds too much data (at most 1.0 MB unpacked).")]


def test_reading_is_bounded_in_time(settings):
    """The bound is a setting (a deadline checked at every row); 0 s refuses at the first row."""
    settings.ROSTER_IMPORT_MAX_SECONDS = 0
    errors = errors_of(xlsx(HEADER_ROW + PAIR_ROWS))
    assert errors == [(2, "The workbook takes too long to read; save it again in Excel or split it.")]


def test_a_sheet_claiming_every_column_is_read_only_as_far_as_the_roster_goes():
    far = '<row r="4"><c r="XFD4" t="inlineStr"><is><t>x</t></is></c></row>'
    sheet = (
        f'<worksheet xmlns="{MAIN}"><dimension ref="A1:XFD4"/><sheetData>{HEADER_ROW}{PAIR_ROWS}{far}'
        "</sheetData></worksheet>"
    )
    file = xlsx("")
    rebuilt = io.BytesIO()
    with zipfile.ZipFile(file) as source, zipfile.ZipFile(rebuilt, "w", zipfile.ZIP_DEFLATED) as target:
        for name in source.namelist():
            target.writestr(name, sheet if name == "xl/worksheets/sheet1.xml" else source.read(name))
    rebuilt.seek(0)
    assert roster_import(tournament=TournamentFactory(), file=rebuilt).pairs == 1


def test_the_import_page_shows_a_damaged_file_as_an_error_not_a_500(client):
    boss = organiser(username="boss")
    client.force_login(boss)
    event = TournamentFactory()
    event.organisers.add(boss)
    file = xlsx(HEADER_ROW + row(2, "\x02"))
    file.name = "roster.xlsx"
    response = client.post(reverse("registration:roster_import", args=[event.pk]), {"file": file})
    assert response.status_code == 200
    assert response.context["errors"] and not Player.objects.filter(tournament=event).exists()
