"""A streaming .xlsx writer: openpyxl's write-only workbook with a fast row serialiser and safe cells.

Why not plain ``WriteOnlyWorksheet.append``: it builds a ``Cell`` and an XML element per value, which on
the machines this project is built for costs 10–15 µs a cell; the workbook of a 5,000-pair open has
about four million cells (≤ 30 s). So openpyxl still does everything but the cells — the
package, styles, sheet names, frozen header rows, column widths, auto-filter, page setup, page breaks,
print titles — and each :class:`StreamedSheet` writes its ``<sheetData>`` rows itself (about 1 µs a
cell) to a temporary file: at close, openpyxl serialises the sheet with an empty ``<sheetData>`` and the
streamed rows are spliced in. Memory stays flat whatever the number of rows. (Measured: 300,000
rows of 20 cells in ~6 s against ~55 s through ``append``.) This leans on openpyxl's worksheet and
package writers (``WorksheetWriter``, ``ExcelWriter``, a sheet's ``_writer``), which is why
requirements.txt pins openpyxl to 3.1.x; the tests read every file back, so a change there shows.

Safe cells (formula injection): every text is written as an inline string (``t="inlineStr"``), never
as a formula, so ``=HYPERLINK("http://x","y")`` stays the text a player typed. Text starting with
``= + - @``, a tab or a carriage return also gets Excel's *quotePrefix* style, so editing such a cell
in Excel does not turn it into a formula either. Characters XML cannot carry (control characters) are
removed and text is cut to Excel's 32,767-character cell limit, so odd data never breaks the file.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta, tzinfo
from decimal import Decimal
from io import BytesIO
from types import MappingProxyType
from typing import IO, Any, NamedTuple
from zipfile import ZIP_DEFLATED, ZipFile

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.packaging.relationship import RelationshipList
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.utils.exceptions import WorkbookAlreadySaved
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.writer.excel import ExcelWriter

from tournament.columns import Column, Language, styles, titles, widths

EXCEL_CELL_MAX = 32767
SHEET_TITLE_MAX = 31
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
"""Text starting with one of these would be read as a formula (or a DDE call) if typed into Excel."""

# XML 1.0 cannot carry C0 controls other than tab, LF and CR, nor U+FFFE/U+FFFF; C1 controls are
# legal XML but are never meant in a name and upset Excel, so they go too.
_UNWANTED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff\ud800-\udfff]")
_FORBIDDEN_IN_TITLE = re.compile(r"[\[\]:*?/\\\x00-\x1f]")
_EXCEL_EPOCH = datetime(1899, 12, 30)
_EXCEL_EPOCH_DATE = _EXCEL_EPOCH.date()
_DAY = timedelta(days=1)
_TEXT_CACHE_MAX = 20000
_FLUSH_ROWS = 2000
A4 = "9"  # the page setup's paper size code


def _thin() -> Side:
    return Side(style="thin", color="808080")


# Named cell styles: the attributes each sets on a write-only cell, which openpyxl turns into a style
# id of the workbook (shared by every sheet).
_GRID = Border(left=_thin(), right=_thin(), top=_thin(), bottom=_thin())
_HEADER_FILL = PatternFill("solid", fgColor="EDEDED")
STYLES: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        "header": {
            "font": Font(bold=True),
            "fill": _HEADER_FILL,
            "alignment": Alignment(vertical="center", wrap_text=True),
            "border": Border(bottom=_thin()),
        },
        "datetime": {"number_format": "yyyy-mm-dd hh:mm"},
        "date": {"number_format": "yyyy-mm-dd"},
        "decimal1": {"number_format": "0.0", "alignment": Alignment(horizontal="center")},
        # A number is centred in its column: right-aligned it runs into the left-aligned text of the
        # next column ("12张伟 / 李娜") on screen and on paper.
        "number": {"alignment": Alignment(horizontal="center")},
        "quoted": {"quotePrefix": True},
        "title": {"font": Font(bold=True, size=14)},
        "label": {"font": Font(bold=True)},
        "note": {"font": Font(size=9)},
        "grid": {"border": _GRID, "alignment": Alignment(horizontal="center", vertical="center")},
        "grid_header": {
            "font": Font(bold=True),
            "fill": _HEADER_FILL,
            "border": _GRID,
            "alignment": Alignment(horizontal="center", vertical="center", wrap_text=True),
        },
    }
)


class Styled(NamedTuple):
    """A value with one of :data:`STYLES` (headers, score-sheet grids); plain values need no wrapper."""

    value: Any
    style: str


def clean_cell_text(value: str) -> str:
    """``value`` without the characters an .xlsx cannot hold, cut to Excel's cell limit."""
    if _UNWANTED.search(value):
        value = _UNWANTED.sub("", value)
    if len(value) > EXCEL_CELL_MAX:
        value = value[:EXCEL_CELL_MAX]
    return value


def needs_quote_prefix(value: str) -> bool:
    return value.startswith(FORMULA_PREFIXES)


def sheet_title(wanted: str, *, taken: Iterable[str]) -> str:
    """A valid, unused Excel sheet name made from ``wanted``.

    Excel refuses names longer than 31 characters, with ``[ ] : * ? / \\``, empty, starting or ending
    with an apostrophe, or equal (ignoring case) to another sheet's name or to the reserved "History".
    """
    title = _FORBIDDEN_IN_TITLE.sub("_", clean_cell_text(wanted)).strip().strip("'").strip()
    title = title or "Sheet"
    used = {name.casefold() for name in taken} | {"history"}
    candidate = title[:SHEET_TITLE_MAX].rstrip("'")
    number = 2
    while candidate.casefold() in used:
        suffix = f" ({number})"
        candidate = title[: SHEET_TITLE_MAX - len(suffix)].rstrip("'") + suffix
        number += 1
    return candidate


LINE_HEIGHT = 15.0
"""Points a line of the header's type takes."""


def text_width(text: str) -> float:
    """``text``'s width in Excel's character units, about: a CJK character takes two."""
    return sum(2 if ord(char) >= 0x2E80 else 1 for char in text)


def header_widths(header: Sequence[str], widths: Sequence[float]) -> list[float]:
    """``widths``, each at least as wide as its title's longest word in bold (and the cell's padding):
    a title wraps between words, never inside one ("Withd-rawn" in print); the widths are
    the Chinese titles', and English words are longer."""
    return [
        max(widths[index] if index < len(widths) else 0, max(text_width(word) for word in title.split() or [""]) + 2)
        for index, title in enumerate(header)
    ]


def header_height(header: Sequence[str], widths: Sequence[float]) -> float | None:
    """The header row's height in points for its titles wrapped in their columns (up to three
    lines), or None for one line. Set by hand because nothing measures a streamed sheet's rows: a
    wrapped title ("Awaiting sign-off") was cut to its first line in print."""
    lines = 1
    for index, title in enumerate(header):
        width = widths[index] if index < len(widths) else 8.43  # Excel's default column width
        lines = max(lines, min(3, math.ceil(text_width(title) / max(width - 1, 1))))
    return LINE_HEIGHT * lines + 3 if lines > 1 else None


def _escape(text: str) -> str:
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if "\r" in text:  # a bare CR would be read back as LF (XML end-of-line handling)
        text = text.replace("\r", "&#13;")
    return text


class _SheetFile:
    """What openpyxl's package writer needs of a closed write-only sheet: its XML file and relations."""

    def __init__(self, path: str) -> None:
        self.out = path
        self._rels = RelationshipList()

    def cleanup(self) -> None:
        if os.path.exists(self.out):
            os.remove(self.out)


class StreamedSheet(WriteOnlyWorksheet):
    """A write-only worksheet whose :meth:`append` serialises the row straight to XML.

    ``yes_no``: the words a ``bool`` is written as (是/否); without them a boolean cell (which
    spreadsheet programs show as TRUE/FALSE or 1/0, never in the sheet's language).

    Set the sheet's layout (frozen panes, widths, page setup, breaks) before closing; rows are
    written in order and never kept in memory. Values: ``str`` (always text), ``int``/``float``/
    ``Decimal`` (numbers), ``bool``, ``datetime`` (aware ones shown in ``time_zone``), ``date``,
    ``None`` (an empty cell) and :class:`Styled`; anything else is written as its text.
    """

    def __init__(
        self,
        parent: Workbook,
        title: str,
        *,
        time_zone: tzinfo,
        auto_filter: bool = False,
        yes_no: tuple[str, str] | None = None,
    ) -> None:
        super().__init__(parent, title)
        self._time_zone = time_zone
        self._yes_no = yes_no
        self._auto_filter = auto_filter
        self._styles: dict[str, str] = {}
        self._column_styles: list[str] = []
        self._letters: list[str] = []
        self._text_cache: dict[str, tuple[bool, str]] = {}
        self._buffer: list[str] = []
        self._buffered_rows = 0
        self._rows = 0
        self._columns = 0
        self._done = False
        handle, self._rows_path = tempfile.mkstemp(prefix="guandan-rows-", suffix=".xml")
        self._rows_file: IO[str] | None = open(handle, "w", encoding="utf-8", newline="")  # noqa: SIM115

    # -- layout ---------------------------------------------------------------------------------

    def style_attribute(self, name: str) -> str:
        """`` s="n"`` for the named style (registered in the workbook on first use)."""
        found = self._styles.get(name)
        if found is None:
            cell = WriteOnlyCell(self)
            for attribute, value in STYLES[name].items():
                setattr(cell, attribute, value)
            found = self._styles[name] = f' s="{cell.style_id}"'
        return found

    def set_columns(self, *, widths: Sequence[float], styles: Sequence[str | None] = ()) -> None:
        """Column widths (in characters) and, optionally, a style per column (e.g. date-times)."""
        for index, width in enumerate(widths, 1):
            self.column_dimensions[get_column_letter(index)].width = width
        self._column_styles = [self.style_attribute(name) if name else "" for name in styles]
        self._number_style = self.style_attribute("number")

    @property
    def row_count(self) -> int:
        return self._rows

    # -- rows -----------------------------------------------------------------------------------

    def append(self, values: Sequence[Any], *, height: float | None = None) -> None:
        """Write the next row; ``height`` in points (e.g. room to write by hand on a score sheet)."""
        if self._done:
            raise WorkbookAlreadySaved("The sheet has been saved.")
        self._rows += 1
        number = str(self._rows)
        letters = self._letters
        if len(values) > len(letters):
            letters.extend(get_column_letter(index) for index in range(len(letters) + 1, len(values) + 1))
            self._columns = max(self._columns, len(values))
        column_styles = self._column_styles
        styled_columns = len(column_styles)
        number_style = self._number_style
        yes_no = self._yes_no
        parts = [f'<row r="{number}" ht="{height}" customHeight="1">' if height else f'<row r="{number}">']
        add = parts.append
        for index, value in enumerate(values):
            if value is None:
                continue
            style = column_styles[index] if index < styled_columns else ""
            kind = type(value)
            if kind is Styled:
                style = self.style_attribute(value.style)
                value = value.value
                if value is None:
                    add(f'<c r="{letters[index]}{number}"{style}/>')
                    continue
                kind = type(value)
            if kind is str:
                quoted, body = self._text(value)
                if quoted:
                    style = self.style_attribute("quoted")
                add(f'<c r="{letters[index]}{number}"{style} t="inlineStr">{body}</c>')
            elif kind is int:
                add(f'<c r="{letters[index]}{number}"{style or number_style}><v>{value}</v></c>')
            elif kind is bool and yes_no is not None:
                quoted, body = self._text(yes_no[0] if value else yes_no[1])
                add(f'<c r="{letters[index]}{number}"{style} t="inlineStr">{body}</c>')
            elif kind is bool:
                add(f'<c r="{letters[index]}{number}"{style} t="b"><v>{1 if value else 0}</v></c>')
            else:
                add(self._other(f"{letters[index]}{number}", value, style))
        add("</row>")
        self._buffer.append("".join(parts))
        self._buffered_rows += 1
        if self._buffered_rows >= _FLUSH_ROWS:
            self._flush()

    def _text(self, value: str) -> tuple[bool, str]:
        cache = self._text_cache
        found = cache.get(value)
        if found is None:
            text = clean_cell_text(value)
            space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() else ""
            found = (needs_quote_prefix(text), f"<is><t{space}>{_escape(text)}</t></is>")
            if len(cache) >= _TEXT_CACHE_MAX:
                cache.clear()
            cache[value] = found
        return found

    def _other(self, ref: str, value: Any, style: str) -> str:
        if isinstance(value, bool):
            return f'<c r="{ref}"{style} t="b"><v>{int(value)}</v></c>'
        if isinstance(value, float) and math.isfinite(value):
            return f'<c r="{ref}"{style or self._number_style}><v>{value!r}</v></c>'
        if isinstance(value, int) or (isinstance(value, Decimal) and value.is_finite()):
            number = int(value) if isinstance(value, int) else value
            return f'<c r="{ref}"{style or self._number_style}><v>{number}</v></c>'
        if isinstance(value, datetime):
            if value.tzinfo is not None:
                value = value.astimezone(self._time_zone)
            value = value.replace(tzinfo=None, microsecond=0)  # whole seconds: no float noise in Excel
            serial = (value - _EXCEL_EPOCH) / _DAY
            return f'<c r="{ref}"{style or self.style_attribute("datetime")}><v>{serial!r}</v></c>'
        if isinstance(value, date):
            serial_days = (value - _EXCEL_EPOCH_DATE).days
            return f'<c r="{ref}"{style or self.style_attribute("date")}><v>{serial_days}</v></c>'
        quoted, body = self._text(value if isinstance(value, str) else str(value))
        if quoted:
            style = self.style_attribute("quoted")
        return f'<c r="{ref}"{style} t="inlineStr">{body}</c>'

    def _flush(self) -> None:
        if self._buffer and self._rows_file is not None:
            self._rows_file.write("".join(self._buffer))
        self._buffer.clear()
        self._buffered_rows = 0

    # -- closing --------------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._done

    def calculate_dimension(self) -> str:
        """The used range, written at the top of the sheet (read-only readers size the sheet by it)."""
        if not self._rows or not self._columns:
            return "A1"
        return f"A1:{get_column_letter(self._columns)}{self._rows}"

    def close(self) -> None:
        if self._done:
            raise WorkbookAlreadySaved("The sheet has been saved.")
        self._flush()
        assert self._rows_file is not None
        self._rows_file.close()
        self._rows_file = None
        if self._auto_filter and self._rows > 1:
            self.auto_filter.ref = self.calculate_dimension()
        head, tail = self._frame()
        handle, path = tempfile.mkstemp(prefix="guandan-sheet-", suffix=".xml")
        with open(handle, "wb") as out:
            out.write(head)
            out.write(b"<sheetData>")
            with open(self._rows_path, "rb") as rows:
                shutil.copyfileobj(rows, out, 1 << 20)
            out.write(b"</sheetData>")
            out.write(tail)
        os.remove(self._rows_path)
        self._writer = _SheetFile(path)
        self._done = True

    def discard(self) -> None:
        """Remove the temporary files of a sheet that will not be saved (e.g. the build failed)."""
        if self._rows_file is not None:
            self._rows_file.close()
            self._rows_file = None
        for path in (self._rows_path, getattr(self._writer, "out", None)):
            if isinstance(path, str) and os.path.exists(path):
                os.remove(path)
        self._done = True

    def _frame(self) -> tuple[bytes, bytes]:
        """openpyxl's serialisation of this sheet without rows, cut where the rows belong."""
        writer = WorksheetWriter(self, out=BytesIO())
        writer.write_top()
        xf = writer.xf.send(True)
        with xf.element("sheetData"):
            pass
        writer.xf.send(None)
        writer.write_tail()
        writer.close()
        xml = writer.out.getvalue()
        matches = list(re.finditer(rb"<sheetData\s*/>|<sheetData>\s*</sheetData>", xml))
        if len(matches) != 1:
            raise RuntimeError("openpyxl's sheet XML has no single empty <sheetData>")  # a bug, not a user error
        return xml[: matches[0].start()], xml[matches[0].end() :]


# -- paper score sheets ---------------------------------------------------------------------------

ROW_HEIGHT_GRID = 24  # points: room to write by hand
ROW_HEIGHT_GRID_HEADER = 30  # points: a grid title of two lines ("Level played") shows whole
LABEL_WIDTH = 11
"""The first column's width at least (characters): it holds the grid's deal numbers and the sheet's
labels ("Signatures", "签名"), which a narrower column cut short in print."""


def score_sheet_widths(columns: Sequence[Column]) -> list[float]:
    """A paper score sheet's column widths: the columns', the first one wide enough for the labels."""
    widths_ = list(widths(columns))
    widths_[0] = max(widths_[0], LABEL_WIDTH)
    return widths_


def list_page_setup(sheet: StreamedSheet, *, landscape: bool) -> None:
    """A4, fitted to one page wide and as many pages long as it takes."""
    sheet.page_setup.paperSize = A4
    sheet.page_setup.orientation = "landscape" if landscape else "portrait"
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0
    sheet.sheet_properties.pageSetUpPr.fitToPage = True


class Book:
    """A write-only workbook of :class:`StreamedSheet` s. Use as a context manager: a failed build
    leaves no temporary files behind."""

    def __init__(self, *, time_zone: tzinfo, yes_no: tuple[str, str] | None = None) -> None:
        self.workbook = Workbook(write_only=True)
        self.time_zone = time_zone
        self.yes_no = yes_no
        self._sheets: list[StreamedSheet] = []
        self._saved = False

    def __enter__(self) -> Book:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._saved:
            for sheet in self._sheets:
                sheet.discard()

    def columns_sheet(self, title: str, columns: tuple[Column, ...], language: Language) -> StreamedSheet:
        """A new sheet of ``columns`` (``tournament.columns``): their titles in ``language`` as the
        header, their widths and styles."""
        return self.sheet(title, header=titles(columns, language), widths=widths(columns), styles=styles(columns))

    def sheet(
        self,
        title: str,
        *,
        header: Sequence[str] = (),
        widths: Sequence[float] = (),
        styles: Sequence[str | None] = (),
        auto_filter: bool | None = None,
    ) -> StreamedSheet:
        """A new sheet named from ``title`` (made valid and unique). With a ``header``, the header row
        is written, frozen, filtered and repeated on every printed page, and the sheet prints as a
        list should: A4 landscape, fitted to the page's width (long lists run on over pages, never
        split into strips of columns); a sheet of its own layout sets its page setup after this."""
        name = sheet_title(title, taken=[sheet.title for sheet in self._sheets])
        sheet = StreamedSheet(
            self.workbook,
            name,
            time_zone=self.time_zone,
            auto_filter=bool(header) if auto_filter is None else auto_filter,
            yes_no=self.yes_no,
        )
        self.workbook._add_sheet(sheet)  # create_sheet() would make a plain WriteOnlyWorksheet
        self._sheets.append(sheet)
        if header:
            widths = header_widths(header, widths)
        sheet.set_columns(widths=widths, styles=styles)
        if header:
            sheet.freeze_panes = "A2"
            sheet.print_title_rows = "1:1"
            list_page_setup(sheet, landscape=True)
            sheet.append([Styled(title, "header") for title in header], height=header_height(header, widths))
        return sheet

    def save(self, target: str | os.PathLike[str] | IO[bytes]) -> None:
        """Package the workbook (what ``Workbook.save`` does, at a faster compression level: the
        sheet XML is so repetitive that level 1 costs a few per cent of size and saves seconds)."""
        with ZipFile(target, "w", ZIP_DEFLATED, allowZip64=True, compresslevel=1) as archive:
            self.workbook.properties.modified = datetime.now(UTC).replace(tzinfo=None)
            ExcelWriter(self.workbook, archive).save()
        self._saved = True
