"""A round's draw sheet and its paper score sheets, as .xlsx and for the print pages.

Paper score sheets are the fallback when the network fails: one per table with the pairs, who sits
where and an empty grid to write each deal's finishing order and levels. Seats follow one rule
everywhere: slot 1 of the N/S pair sits North, slot 2 South; slot 1 of the E/W pair East, slot 2 West.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from django.db.models import F
from django.utils import timezone
from openpyxl.worksheet.pagebreak import Break

from scoring.options import MatchFormat, RuleOptions
from tournament.exports import headers as h
from tournament.exports.conduct import conduct_rows
from tournament.exports.headers import Language
from tournament.exports.selectors import PairCard, PlayerCard, pair_cards
from tournament.exports.three_seat_sheets import three_seat_draw_sheet_write, three_seat_score_sheets_build
from tournament.exports.xlsx import (
    ROW_HEIGHT_GRID,
    ROW_HEIGHT_GRID_HEADER,
    Book,
    StreamedSheet,
    Styled,
    list_page_setup,
    score_sheet_widths,
)
from tournament.games import entrants_of, game_of
from tournament.matches.models import Match, Round, Stage, TeamMatch
from tournament.matches.selectors import round_knockout_pairs
from tournament.rules import rules_for_stage
from tournament.standings.selectors import stage_third_place_matches

CHUNK = 5000

GRID_ROWS_LEVEL_GAME = 24
"""Deals a level game's sheet has room for: a 40–90 minute game rarely needs more (seeds 002, 003)."""


@dataclass(frozen=True, slots=True)
class TableSheet:
    """One table of a round: its match, the pairs and the four seats."""

    match_id: int
    table: int | None
    area: str
    ns: PairCard
    ew: PairCard | None
    walkover: bool = False
    """No opponent because it withdrew (不战而胜): a forfeit win, not a bye."""
    third_place: bool = False
    """A knockout's third-place match (三四名决赛), played in the final's round."""

    @property
    def is_bye(self) -> bool:
        return self.ew is None

    @property
    def north(self) -> PlayerCard | None:
        return self.ns.player(0)

    @property
    def south(self) -> PlayerCard | None:
        return self.ns.player(1)

    @property
    def east(self) -> PlayerCard | None:
        return self.ew.player(0) if self.ew else None

    @property
    def west(self) -> PlayerCard | None:
        return self.ew.player(1) if self.ew else None

    @property
    def seats(self) -> tuple[tuple[str, PlayerCard | None], ...]:
        """(seat, player) for N, S, E, W."""
        return (("N", self.north), ("S", self.south), ("E", self.east), ("W", self.west))


def round_table_rows(*, round: Round) -> Iterator[tuple[int, int | None, str, int, int | None]]:
    """The round's matches in table order, byes last: (match id, table, area, N/S pair, E/W pair)."""
    return (
        Match.objects.filter(round=round)
        .order_by(F("table__number").asc(nulls_last=True), "id")
        .values_list("id", "table__number", "table__area", "ns_pair_id", "ew_pair_id")
        .iterator(chunk_size=CHUNK)
    )


def round_tables(
    *,
    round: Round,
    cards: dict[int, PairCard] | None = None,
    first_table: int | None = None,
    last_table: int | None = None,
) -> Iterator[TableSheet]:
    """The round's tables (optionally only tables ``first_table``..``last_table``, for printing in
    batches)."""
    if cards is None:
        cards = pair_cards(tournament_id=round.stage.tournament_id)
    walkovers = round.draw_settings.walkovers
    third = stage_third_place_matches(stage=round.stage) if round_knockout_pairs(round_=round) else frozenset()
    for match_id, table, area, ns, ew in round_table_rows(round=round):
        if first_table is not None and (table is None or table < first_table):
            continue
        if last_table is not None and (table is None or table > last_table):
            continue
        walkover = ew is None and ns in walkovers
        ew_card = cards[ew] if ew is not None else None
        yield TableSheet(match_id, table, area or "", cards[ns], ew_card, walkover, match_id in third)


def draw_row(sheet: TableSheet, language: Language) -> list[Any]:
    """A row of a draw sheet (columns ``headers.DRAW``)."""
    north, south, east, west = (player for _seat, player in sheet.seats)
    ew = sheet.ew
    return [
        sheet.table,
        sheet.area or None,
        sheet.ns.number,
        north.name if north else None,
        south.name if south else None,
        sheet.ns.departments or None,
        ew.number if ew else None,
        east.name if east else None,
        west.name if west else None,
        (ew.departments or None) if ew else None,
        None if ew else h.word("walkover" if sheet.walkover else "bye", language),
    ]


def round_draw_sheet_write(
    *, book: Book, round: Round, language: Language, cards: dict[int, PairCard], progress: Any = None
) -> StreamedSheet:
    """The round's draw as one sheet of ``book`` (shared by the workbook and the round's own file)."""
    write = PRINT_PAGES[entrants_of(round.stage.tournament).key].draw_sheet
    return write(book=book, round=round, language=language, cards=cards, progress=progress)


def _sides_draw_sheet_write(
    *, book: Book, round: Round, language: Language, cards: dict[int, PairCard], progress: Any = None
) -> StreamedSheet:
    """A round of two sides: one row per table, N/S and E/W with their departments, byes."""
    pairs = round_knockout_pairs(round_=round)
    if pairs:  # a knockout round by its name: 决赛, 半决赛 …
        name = h.round_title(number=round.number, knockout_pairs=pairs, language=language)
        title = h.sheet_name("draw_knockout", language, stage=round.stage.name, round=name)
    else:
        title = h.sheet_name("draw", language, stage=round.stage.name, round=round.number)
    sheet = book.sheet(title, header=h.titles(h.DRAW, language), widths=h.widths(h.DRAW), styles=h.styles(h.DRAW))
    list_page_setup(sheet, landscape=True)
    team_notes = _team_table_notes(round=round, language=language)
    for table in round_tables(round=round, cards=cards):
        row = draw_row(table, language)
        if table.third_place:  # played beside the final: the note names it (三四名决赛)
            row[-1] = h.round_title(number=round.number, knockout_pairs=pairs, language=language, third_place=True)
        if table.match_id in team_notes:
            row[-1] = team_notes[table.match_id]
        sheet.append(row)
        if progress is not None:
            progress()
    return sheet


def _team_table_notes(*, round: Round, language: Language) -> dict[int, str]:
    """A round of team matches: each table's team match, letter and teams, for its draw row's note (the
    departments beside the pairs are not the teams: a substitute plays for a team not its department)."""
    if round.stage.settings.team_match is None:
        return {}
    notes: dict[int, str] = {}
    rows = TeamMatch.objects.filter(round=round, team_y__isnull=False).values_list(
        "number", "table_a_id", "table_b_id", "team_x__name", "team_y__name"
    )
    for number, table_a, table_b, x, y in rows:
        for letter, match_id in (("a", table_a), ("b", table_b)):
            if match_id is not None:
                notes[match_id] = h.word("team_table", language, number=number, letter=letter, x=x, y=y)
    return notes


def round_draw_build(
    *, round: Round, target: str | os.PathLike[str] | IO[bytes], language: Language = h.DEFAULT_LANGUAGE
) -> None:
    """The round's draw sheet (.xlsx): one row per table, ready to print or post on the wall."""
    cards = pair_cards(tournament_id=round.stage.tournament_id)
    with Book(time_zone=timezone.get_default_timezone()) as book:
        round_draw_sheet_write(book=book, round=round, language=language, cards=cards)
        book.save(target)


def score_sheet_columns(*, stage: Stage, options: RuleOptions) -> tuple[h.Column, ...]:
    """The score sheet's grid columns: the stage's event's game's (``tournament.games``), for its rules' format."""
    return game_of(stage.tournament).score_sheet_columns(options)


def score_sheet_rows(options: RuleOptions) -> int:
    """Grid rows: the fixed deals and room for two tiebreak deals, else a game's worth."""
    if options.format in (MatchFormat.FIXED_DEALS_POINTS, MatchFormat.FIXED_DEALS_LEVELS) and options.deals:
        return options.deals + 2
    if options.format is MatchFormat.BEST_OF and options.games:
        return min(GRID_ROWS_LEVEL_GAME * 2, 12 * options.games)
    return GRID_ROWS_LEVEL_GAME


def score_sheets_build(
    *,
    round: Round,
    target: str | os.PathLike[str] | IO[bytes],
    language: Language = h.DEFAULT_LANGUAGE,
    progress: Any = None,
) -> None:
    """Paper score sheets (.xlsx): one printed page per table (byes have none), each with the
    pairs, the seats and an empty grid for every deal."""
    build = PRINT_PAGES[entrants_of(round.stage.tournament).key].score_sheets
    build(round=round, target=target, language=language, progress=progress)


def _seats_score_sheets_build(
    *, round: Round, target: str | os.PathLike[str] | IO[bytes], language: Language, progress: Any = None
) -> None:
    """Three players by seat and a deal grid a table (Dou Dizhu)."""
    columns = score_sheet_columns(stage=round.stage, options=rules_for_stage(round.stage))
    three_seat_score_sheets_build(round=round, target=target, language=language, columns=columns)


def _sides_score_sheets_build(
    *, round: Round, target: str | os.PathLike[str] | IO[bytes], language: Language, progress: Any = None
) -> None:
    """A page a table of two sides: the pairs, the seats, the grid and the table's conduct."""
    stage = round.stage
    tournament = stage.tournament
    options = rules_for_stage(stage)
    columns = score_sheet_columns(stage=stage, options=options)
    grid_rows = score_sheet_rows(options)
    width = len(columns)
    word = h.word
    conduct = conduct_rows(stage=stage, language=language, width=sum(score_sheet_widths(columns)))
    with Book(time_zone=timezone.get_default_timezone()) as book:
        sheet = book.sheet(h.sheet_name("score_sheets", language), widths=score_sheet_widths(columns))
        list_page_setup(sheet, landscape=False)
        pairs = round_knockout_pairs(round_=round)  # a knockout round (and its third-place match) by its name
        cap = options.time_cap_minutes or round.time_cap_minutes
        for table in round_tables(round=round):
            if table.is_bye:
                continue
            third = table.third_place
            name = (
                h.round_title(number=round.number, knockout_pairs=pairs, language=language, third_place=third)
                if pairs
                else word("round", language, round=round.number)
            )
            heading = f"{tournament.name} · {stage.name} {name}"
            sheet.append([Styled(f"{heading} · {word('score_sheet', language)}", "title")])
            sheet.append(
                [
                    Styled(word("table", language), "label"),
                    table.table,
                    table.area or None,
                    word("time_cap", language, minutes=cap) if cap else None,
                ]
            )
            players = dict(table.seats)
            for side, pair, seats in (("NS", table.ns, ("N", "S")), ("EW", table.ew, ("E", "W"))):
                assert pair is not None
                first, second = (
                    f"{word(seat, language)}: {player.name}" if (player := players[seat]) else None for seat in seats
                )
                # Each name has an empty cell to its right to run into: the grid's columns are narrow.
                sheet.append(
                    [
                        Styled(word(side, language), "label"),
                        pair.number,
                        first,
                        None,
                        second,
                        None,
                        pair.departments or None,
                    ]
                )
            sheet.append([])
            sheet.append(
                [Styled(title, "grid_header") for title in h.titles(columns, language)], height=ROW_HEIGHT_GRID_HEADER
            )
            for deal in range(1, grid_rows + 1):
                sheet.append(
                    [Styled(deal, "grid"), *(Styled(None, "grid") for _ in range(width - 1))], height=ROW_HEIGHT_GRID
                )
            sheet.append([])
            sheet.append(
                [
                    Styled(word("result", language), "label"),
                    f"{word('winner', language)}:",
                    None,
                    None,
                    f"{word('final_levels', language)}:",
                ]
            )
            sheet.append(
                [
                    Styled(word("signature", language), "label"),
                    f"{word('NS', language)}:",
                    None,
                    None,
                    f"{word('EW', language)}:",
                    None,
                    None,
                    f"{word('referee', language)}:",
                ]
            )
            sheet.append([])
            for row in conduct:  # the table and the referee read the same rules (docs/rules.md §7)
                sheet.append(row)
            sheet.row_breaks.append(Break(id=sheet.row_count))
            if progress is not None:
                progress()
        book.save(target)


@dataclass(frozen=True, slots=True)
class PrintPages:
    """A round's printed sheets for an event of one entrant kind: its draw sheet and its score sheets."""

    draw_sheet: Callable[..., StreamedSheet]
    score_sheets: Callable[..., None]


PRINT_PAGES: dict[str, PrintPages] = {
    "pairs": PrintPages(draw_sheet=_sides_draw_sheet_write, score_sheets=_sides_score_sheets_build),
    "players": PrintPages(draw_sheet=three_seat_draw_sheet_write, score_sheets=_seats_score_sheets_build),
}
"""A round's printed sheets of each entrant kind (``tournament.games.entrants``), by its key: two sides,
or seats E/S/W with the byes after (``three_seat_sheets``)."""
