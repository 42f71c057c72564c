"""A three-seat round's draw sheet and paper score sheets (Dou Dizhu, docs/rules.md §10), as .xlsx.

``round_sheets.PRINT_PAGES`` hands over here for the players' entrant kind: each table has its
players at E, S and W (the draw's own seats, ``MatchSeat``), byes are listed after the tables, and a score
sheet has a grid with the game's columns (landlord, bid, bombs, spring, winner, points per seat).
"""

from __future__ import annotations

import os
from typing import IO, Any

from django.utils import timezone
from openpyxl.worksheet.pagebreak import Break

from tournament.exports import headers as h
from tournament.exports.conduct import conduct_rows
from tournament.exports.headers import Column, Language
from tournament.exports.selectors import PairCard
from tournament.exports.xlsx import (
    ROW_HEIGHT_GRID,
    ROW_HEIGHT_GRID_HEADER,
    Book,
    StreamedSheet,
    Styled,
    list_page_setup,
    score_sheet_widths,
)
from tournament.matches.models import Round
from tournament.matches.table_selectors import round_seating
from tournament.rules import rules_for_stage

SEATS = ("E", "S", "W")

DRAW = (
    h.TABLE_NUMBER,
    h.AREA,
    *(
        column
        for seat, zh, en in (("E", "东", "East"), ("S", "南", "South"), ("W", "西", "West"))
        for column in (
            Column(f"{seat}_no", f"{zh}家编号", f"{seat} no.", 7),
            Column(f"{seat}_name", f"{zh}家", f"{seat} ({en})", 14),
            Column(f"{seat}_department", f"{zh}家部门", f"{seat} department", 14),
        )
    ),
    h.NOTE,
)


def _department(card: PairCard | None) -> str | None:
    return (card.departments or None) if card else None


def three_seat_draw_sheet_write(
    *, book: Book, round: Round, language: Language, cards: dict[int, PairCard], progress: Any = None
) -> StreamedSheet:
    """The round's draw as one sheet: a row per table (E, S, W), then a row per bye."""
    title = h.sheet_name("draw", language, stage=round.stage.name, round=round.number)
    sheet = book.sheet(title, header=h.titles(DRAW, language), widths=h.widths(DRAW), styles=h.styles(DRAW))
    _landscape(sheet)
    seating = round_seating(round_=round)
    for table in seating.tables:
        cells: list[Any] = [table.number, table.match.table.area if table.match.table else None]
        for _seat, pair in table.seats:
            card = cards.get(pair.pk)
            cells += [pair.number, pair.name, _department(card)]
        sheet.append([*cells, None])
        if progress is not None:
            progress()
    for pair in seating.byes:
        sheet.append(
            [
                None,
                None,
                pair.number,
                pair.name,
                _department(cards.get(pair.pk)),
                *([None] * 6),
                h.word("bye", language),
            ]
        )
    return sheet


def _landscape(sheet: StreamedSheet) -> None:
    sheet.page_setup.paperSize = "9"
    sheet.page_setup.orientation = "landscape"
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0
    sheet.sheet_properties.pageSetUpPr.fitToPage = True


def three_seat_score_sheets_build(
    *, round: Round, target: str | os.PathLike[str] | IO[bytes], language: Language, columns: tuple[Column, ...]
) -> None:
    """Paper score sheets: a page per table with its three players by seat and a grid for every deal."""
    stage = round.stage
    options = rules_for_stage(stage)
    word = h.word
    width = len(columns)
    with Book(time_zone=timezone.get_default_timezone()) as book:
        sheet = book.sheet(h.sheet_name("score_sheets", language), widths=score_sheet_widths(columns))
        list_page_setup(sheet, landscape=False)
        heading = f"{stage.tournament.name} · {stage.name} {word('round', language, round=round.number)}"
        cap = options.time_cap_minutes or round.time_cap_minutes
        conduct = conduct_rows(stage=stage, language=language, width=sum(score_sheet_widths(columns)))
        for table in round_seating(round_=round).tables:
            sheet.append([Styled(f"{heading} · {word('score_sheet', language)}", "title")])
            sheet.append(
                [
                    Styled(word("table", language), "label"),
                    table.number,
                    table.match.table.area if table.match.table else None,
                    word("time_cap", language, minutes=cap) if cap else None,
                ]
            )
            for seat, pair in table.seats:
                sheet.append([Styled(seat, "label"), pair.number, pair.name])
            sheet.append([])
            sheet.append(
                [Styled(title, "grid_header") for title in h.titles(columns, language)], height=ROW_HEIGHT_GRID_HEADER
            )
            for deal in range(1, (options.deals or 3) + 1):
                sheet.append(
                    [Styled(deal, "grid"), *(Styled(None, "grid") for _ in range(width - 1))], height=ROW_HEIGHT_GRID
                )
            sheet.append([])
            sheet.append(
                [
                    Styled(word("signature", language), "label"),
                    *(f"{seat}:" for seat in SEATS),
                    None,
                    None,
                    None,
                    f"{word('referee', language)}:",
                ]
            )
            sheet.append([])
            for row in conduct:  # the table and the referee read the same rules (docs/rules.md §7)
                sheet.append(row)
            sheet.row_breaks.append(Break(id=sheet.row_count))
        book.save(target)
