"""The organiser's tournament workbook: one .xlsx with every list management asks for.

Sheets, in order: registration (参赛名单, first, so the roster importer reads it back), each round's
draw, match results, the deal log, the standings of each stage with every tie-break column (and,
after its rows, a line for each correction flag of the stage), the correction flags (更正标记, when
a correction flagged a stage's advancement or a round's draw), adjustments, and the
award list. Everything comes from the stored snapshots the rules core wrote
(docs/design.md: nothing downstream works a rule out again); the big tables are streamed from the
database in chunks and written row by row, so memory does not grow with the event.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import IO, Any

from django.db.models import F
from django.utils import timezone

from scoring.options import Game
from scoring.snapshot import SidePair
from scoring.standings import METRICS
from tournament.exports import headers as h
from tournament.exports.deal_log import guandan_deals_write, level_text, tractor_deals_write
from tournament.exports.headers import Language
from tournament.exports.prizes import prize_stage, prize_tiers_award
from tournament.exports.round_sheets import round_draw_sheet_write
from tournament.exports.selectors import MatchPlace, PairCard, match_places, pair_cards, tournament_stages
from tournament.exports.workbook_doudizhu import doudizhu_deals_write, doudizhu_standings_write
from tournament.exports.workbook_flags import flags_sheet_write, stage_flag_notes_write
from tournament.exports.xlsx import Book, StreamedSheet
from tournament.games import DOUDIZHU, GUANDAN, TRACTOR, entrants_of, game_kind
from tournament.matches.correction_selectors import StageFlag, stage_flags_get
from tournament.matches.models import Adjustment, Deal, Match, Round
from tournament.matches.snapshot_reads import (
    adjustment_effects_get,
    deals_played_count,
    snapshot_from_values,
    snapshot_lookups,
)
from tournament.matches.stage_options import DrawOptions, draw_options_lookup
from tournament.people import person_name_expression
from tournament.registration.models import PairMember, PairStatus, Tournament
from tournament.standings.selectors import StageStandings, stage_ranking_get
from tournament.standings.team_ranking import TeamMatchTable, team_match_table_get
from tournament.standings.teams import StageTeamTotal, stage_team_total_get

ProgressReport = Callable[[int], None]

DEAL_LOGS: dict[Game, Callable[[Book, Any], None]] = {
    GUANDAN.game: guandan_deals_write,
    TRACTOR.game: tractor_deals_write,
    DOUDIZHU.game: doudizhu_deals_write,
}
"""Each game's deal-log sheet writer (``(book, context)``), by the registry's game: the workbook's
one table of what differs by game (the sheet's columns are the game's deal)."""
"""Called with the percentage done (0–99) each time it grows."""

CHUNK = 5000


@dataclass
class _Progress:
    """Counts written rows against an estimate and reports whole percentages, at most 100 times."""

    total: int
    report: ProgressReport | None
    done: int = 0
    _next: int = 0
    _percent: int = field(default=-1)

    def advance(self, rows: int = 1) -> None:
        self.done += rows
        if self.done >= self._next:
            self._emit()

    def _emit(self) -> None:
        total = max(self.total, 1)
        percent = min(99, self.done * 100 // total)
        if percent > self._percent:
            self._percent = percent
            if self.report is not None:
                self.report(percent)
        self._next = (percent + 1) * total // 100 + 1


@dataclass
class _Context:
    tournament: Tournament
    language: Language
    pairs: dict[int, PairCard]
    places: dict[int, MatchPlace]
    progress: _Progress

    def word(self, key: str | None) -> str | None:
        return h.word(key, self.language) if key else None


def _sheet(book: Book, context: _Context, title: str, columns: tuple[h.Column, ...]) -> StreamedSheet:
    return book.columns_sheet(title, columns, context.language)


def _columns(context: _Context, sheet: str) -> tuple[h.Column, ...]:
    """The sheet's columns for the event's entrant kind (``headers.SHEETS_OF_KIND``)."""
    return h.SHEETS_OF_KIND[entrants_of(context.tournament).key][sheet]


def _row(columns: tuple[h.Column, ...], values: dict[str, Any]) -> list[Any]:
    """A row in ``columns`` from the values by column key (a key the kind has no column for is left out)."""
    return [values.get(column.key) for column in columns]


def _registration(book: Book, context: _Context) -> None:
    """One row per player, in the roster importer's columns (partners name each other; an individual
    has no partner column)."""
    columns = _columns(context, "registration")
    sheet = _sheet(book, context, h.sheet_name("registration", context.language), columns)
    for pair in context.pairs.values():
        players = pair.players
        for index, player in enumerate(players):
            partner = "、".join(
                other.employee_number for other in players[:index] + players[index + 1 :] if other.employee_number
            )
            values = {
                "name": player.name,
                "employee_number": player.employee_number or None,
                "department": player.department or None,
                "partner": partner or None,
                "phone": player.phone or None,
                "pair": pair.number,
                "player": pair.number,
                "seed": pair.seed,
                "status": context.word(pair.status),
            }
            sheet.append(_row(columns, values))
            context.progress.advance()


def _draws(book: Book, context: _Context, rounds: list[Round]) -> None:
    for round_ in rounds:
        round_draw_sheet_write(
            book=book, round=round_, language=context.language, cards=context.pairs, progress=context.progress.advance
        )


def _minutes(started: datetime | None, finished: datetime | None) -> float | None:
    if started is None or finished is None:
        return None
    return round((finished - started).total_seconds() / 60, 1)


_TOTAL_COLUMNS = {
    "levels": ("ns_level", "ew_level"),
    "points": ("ns_points", "ew_points"),
    "games": ("ns_games", "ew_games"),
}


def results_columns(game: str) -> tuple[h.Column, ...]:
    """The results sheet's columns for the event's game: its per-side totals only (``match_totals``)."""
    totals = game_kind(game).match_totals
    dropped = {key for total, keys in _TOTAL_COLUMNS.items() if total not in totals for key in keys}
    return tuple(column for column in h.RESULTS if column.key not in dropped)


def _results(book: Book, context: _Context) -> None:
    """The matches of two sides (N/S against E/W): an event of pairs' (:data:`RESULTS`)."""
    columns = results_columns(context.tournament.game)
    keep = [index for index, column in enumerate(h.RESULTS) if column in columns]
    sheet = _sheet(book, context, h.sheet_name("results", context.language), columns)
    matches = (
        Match.objects.filter(round__stage__tournament=context.tournament, ns_pair__isnull=False)
        .annotate(deals_played=deals_played_count())
        .order_by("round__stage__order", "round__number", F("table__number").asc(nulls_last=True), "id")
        .values_list(
            "id",
            "round__stage__name",
            "table__number",
            "ns_pair_id",
            "ew_pair_id",
            "status",
            "winner",
            "result_reason",
            # the snapshot's per-side values only (its deals are most of it), read by the rules core
            *snapshot_lookups("levels", "points", "games"),
            "deals_played",
            "started_at",
            "finished_at",
            "round_id",
        )
    )
    pairs = context.pairs
    word = context.word
    # A walkover against a withdrawn pair is a forfeit win over that pair (docs/rules.md §5), not a bye.
    walkovers = {
        round_id: DrawOptions.walkovers_of(value)
        for round_id, value in Round.objects.filter(stage__tournament=context.tournament)
        .values_list("id", draw_options_lookup("walkovers"))
        .iterator()
        if isinstance(value, dict)
    }
    for (
        match_id,
        stage,
        table,
        ns,
        ew,
        status,
        winner,
        reason,
        levels,
        points,
        games,
        deals,
        started,
        finished,
        round_id,
    ) in matches.iterator(chunk_size=CHUNK):
        absent = walkovers.get(round_id, {}).get(ns) if ew is None else None
        bye = ew is None and absent is None
        snapshot = snapshot_from_values(("levels", "points", "games"), (levels, points, games))
        if winner:
            winner_name: str | None = pairs[ns if winner == "NS" else ew].name
        else:
            winner_name = word("draw") if reason == "draw" else None
        if absent is not None:
            winner_name = pairs[ns].name
        row = [
            match_id,
            stage,
            context.places[match_id].round_label,  # a knockout round by its name
            table,
            pairs[ns].number,
            pairs[ns].name,
            pairs[ew].number if ew is not None else (pairs[absent].number if absent is not None else None),
            pairs[ew].name if ew is not None else (pairs[absent].name if absent is not None else None),
            word(status),
            *(level_text(level) for level in _sides(snapshot.levels)),
            *_sides(snapshot.points),
            *_sides(snapshot.games),
            winner_name,
            word("bye") if bye else word("forfeit") if absent is not None else word(reason),
            deals or None,  # none played: an empty cell
            started,
            finished,
            _minutes(started, finished),
        ]
        sheet.append([row[index] for index in keep])
        context.progress.advance()


def _sides(pair: SidePair | None) -> tuple[int | None, int | None]:
    return (pair.NS, pair.EW) if pair is not None else (None, None)


def _no_results(book: Book, context: _Context) -> None:
    """Three-seat tables have no sides: their results are the game's own sheet (:data:`DEAL_LOGS`)."""


RESULTS: dict[str, Callable[[Book, _Context], None]] = {"pairs": _results, "players": _no_results}
"""The results sheet of each entrant kind (``tournament.games.entrants``), by its key."""


def _deals(book: Book, context: _Context) -> None:
    """The deal log, in the columns of the event's game (``tournament.games``)."""
    DEAL_LOGS[Game(context.tournament.game)](book, context)


def _standings_columns(tie_breakers: tuple[str, ...]) -> tuple[h.Column, ...]:
    """The fixed columns, then the stage's tie-breakers in its order, then the other metrics (wins
    are already a fixed column), then the group, the place in the stage and withdrawal."""
    metrics = [name for name in tie_breakers if name != "wins"]
    metrics += [name for name in METRICS if name not in metrics and name != "wins"]
    return h.STANDINGS_FIXED + tuple(h.metric_column(name) for name in metrics) + h.STANDINGS_STAGE


def _standings(book: Book, context: _Context, standings: StageStandings, flags: tuple[StageFlag, ...] = ()) -> None:
    """The stage's one ranking (as the public page): a grouped round robin group by group, ranks
    within the group; the stage place is the prizes' order."""
    if standings.players is not None:  # a points stage of three-seat tables: its own columns (Dou Dizhu)
        stage_flag_notes_write(doudizhu_standings_write(book, context, standings), flags, context.language)
        return
    columns = _standings_columns(standings.standings.tie_breakers)
    metric_columns = columns[len(h.STANDINGS_FIXED) : len(columns) - len(h.STANDINGS_STAGE)]
    title = h.sheet_name("standings", context.language, stage=standings.stage.name)
    sheet = _sheet(book, context, title, columns)
    if standings.ranking is not None:
        lines = [(item.row, item.group, item.place, item.withdrawn) for item in standings.ranking.rows]
    else:  # a knockout: its placings
        withdrawn = {pk for pk, pair in standings.pairs.items() if pair.status == PairStatus.WITHDRAWN}
        lines = [(row, None, row.rank, int(row.entrant) in withdrawn) for row in standings.standings.rows]
    for row, group, place, gone in lines:
        pair = context.pairs[int(row.entrant)]
        sheet.append(
            [
                row.rank,
                row.shared,
                pair.number,
                pair.name,
                pair.departments or None,
                row.played,
                row.wins,
                row.draws,
                row.losses,
                row.byes,
                *(getattr(row, column.key) for column in metric_columns),  # a metric: the row attribute of its name
                group,
                place,
                gone,
                row.entrant in standings.provisional,
            ]
        )
        context.progress.advance()
    stage_flag_notes_write(sheet, flags, context.language)


def _team_standings(book: Book, context: _Context, total: StageTeamTotal | None) -> None:
    """A stage's team total (docs/rules.md §11), from the same ranking as the stage's sheet: one row a
    team, its counted members named "#3 (2)" (number, place in the stage)."""
    if total is None:
        return
    title = h.sheet_name("team_standings", context.language, stage=total.stage_name)
    words = total.words  # the pages' words for what is summed: match points, or a Dou Dizhu player's points
    sheet = _sheet(book, context, title, h.team_standings_columns(points=words.points, second=words.second))
    for line in total.lines:
        counted = "、".join(f"#{m.number} ({m.place})" for m in line.members if m.counted)
        sheet.append(
            [
                line.rank,
                line.shared,
                line.number,
                line.name,
                line.points,
                line.small_points,
                line.best_place,
                line.lots,
                line.counted,
                line.short,
                line.provisional,
                counted or None,
            ]
        )
        context.progress.advance()


def _team_match_lines(sheet: StreamedSheet, table: TeamMatchTable) -> None:
    for line in table.lines:
        sheet.append(
            [
                line.rank,
                line.shared,
                line.name,
                line.played,
                line.wins,
                line.draws,
                line.losses,
                line.byes,
                line.match_points,
                line.tables_won,
                line.small_points,
                line.head_to_head,
                line.buchholz,
                line.lots,
            ]
        )


def _team_placings(book: Book, context: _Context, table: TeamMatchTable, flags: tuple[StageFlag, ...]) -> None:
    """A knockout of teams' standings sheet (docs/rules.md §11): the stage's ranking, its teams placed by
    how far they went (as the placings page and the team prizes), each with its team match record."""
    title = h.sheet_name("standings", context.language, stage=table.stage_name)
    sheet = _sheet(book, context, title, h.TEAM_MATCH_STANDINGS)
    _team_match_lines(sheet, table)
    stage_flag_notes_write(sheet, flags, context.language)


def _team_matches(book: Book, context: _Context, table: TeamMatchTable | None, *, standings_sheet: bool = True) -> None:
    """A team match stage's team standings and every team match's result, round by round (docs/rules.md
    §11): the one selector's answer, as the team standings page shows it. ``standings_sheet=False``: the
    team standings are the stage's standings sheet already (a knockout of teams)."""
    if table is None:
        return
    if standings_sheet:
        title = h.sheet_name("team_match_standings", context.language, stage=table.stage_name)
        _team_match_lines(_sheet(book, context, title, h.TEAM_MATCH_STANDINGS), table)
    title = h.sheet_name("team_match_results", context.language, stage=table.stage_name)
    sheet = _sheet(book, context, title, h.TEAM_MATCH_RESULTS)
    for result in table.results:
        bye = not result.y
        sheet.append(
            [
                result.round,
                result.number,
                result.x,
                result.y or h.word("bye", context.language),
                result.table_a,
                result.table_b,
                result.tables_won[0],
                None if bye else result.tables_won[1],
                result.small_points[0],
                None if bye else result.small_points[1],
                h.word(f"team_match:{result.status}", context.language),
                result.winner or None,
                h.word(f"team_reason:{result.reason}", context.language) if result.reason else None,
            ]
        )


def _adjustments(book: Book, context: _Context) -> None:
    """Every adjustment with what the rules core made of it: a Tractor pair 12 minutes late loses 30
    points in the first deal (扣分 30), 17 minutes late its first deal (首局判负, the opponents up 1) —
    the figures of the late-arrival table in force, as the match's snapshot applied them, not the
    row's own (a late arrival's row holds only its minutes)."""
    columns = _columns(context, "adjustments")
    sheet = _sheet(book, context, h.sheet_name("adjustments", context.language), columns)
    effects = adjustment_effects_get(tournament_id=context.tournament.pk)
    adjustments = (
        Adjustment.objects.filter(tournament=context.tournament)
        .order_by("created_at", "id")
        .annotate(author=person_name_expression("created_by"))
        .values_list(
            "id",
            "created_at",
            "match_id",
            "pair_id",
            "kind",
            "levels",
            "points",
            "minutes_late",
            "reason",
            "author",
        )
    )
    levels: int | None  # the row's, or what the rules core made of it
    points: int | None
    for pk, created_at, match_id, pair_id, kind, levels, points, minutes, reason, user in adjustments.iterator(
        chunk_size=CHUNK
    ):
        place = context.places.get(match_id) if match_id is not None else None
        pair = context.pairs.get(pair_id)
        effect = effects.get(pk)
        levels_after = effect.levels_after if effect is not None and effect.levels_after else (None, None)
        if effect is not None and effect.effect in ("opponents_upgrade", "first_deal_forfeited"):
            levels, points = effect.amount, None
        elif effect is not None and effect.effect in ("points_deducted", "next_deal_points"):
            levels, points = None, effect.amount
        elif effect is not None or kind == "warning":
            levels = points = None
        values = {
            "created_at": created_at,
            "match": match_id,
            "stage": place.stage if place else None,
            "round": place.round_label if place else None,
            "table": place.table if place else None,
            "pair": pair.number if pair else None,
            "player": pair.number if pair else None,
            "pair_name": pair.name if pair else None,
            "player_name": pair.name if pair else None,
            "kind": context.word(kind),
            "effect": context.word(f"effect_{effect.effect}") if effect is not None else None,
            "levels": levels,
            "points": points,
            "minutes_late": minutes,
            "reason": reason,
            "created_by": user,
            "ns_after": level_text(levels_after[0]),
            "ew_after": level_text(levels_after[1]),
        }
        sheet.append(_row(columns, values))
        context.progress.advance()


def _awards(book: Book, context: _Context, final: StageStandings | None) -> None:
    columns = _columns(context, "awards")
    sheet = _sheet(book, context, h.sheet_name("awards", context.language), columns)
    award_list = prize_tiers_award(tournament=context.tournament, cards=context.pairs, standings=final)
    if award_list.problem is not None:
        problem = award_list.problem
        sheet.append([problem.message_zh if context.language == "zh" else problem.message])
        return
    if not award_list.tiers:
        sheet.append([h.word("no_tiers", context.language)])
        return
    for award in award_list.awards:
        first, second = award.pair.player(0), award.pair.player(1)
        values = {
            "tier": award.tier,
            "rank": award.rank,
            "pair": award.pair.number,
            "player": award.pair.number,
            "player1": first.name if first else None,
            "department1": (first.department or None) if first else None,
            "player2": second.name if second else None,
            "department2": (second.department or None) if second else None,
        }
        sheet.append(_row(columns, values))
        context.progress.advance()
    for tier, places in award_list.unawarded:  # said, never silently dropped
        sheet.append([h.word("unawarded", context.language, tier=tier, places=places)])


def _estimate(tournament: Tournament) -> int:
    """Rows the workbook will have besides the standings, for the progress bar (counts, no rows read)."""
    matches = Match.objects.filter(round__stage__tournament=tournament).count()
    return (
        PairMember.objects.filter(pair__tournament=tournament).count()
        + 2 * matches  # the draw sheets and the results
        + Deal.objects.filter(match__round__stage__tournament=tournament).count()
        + Adjustment.objects.filter(tournament=tournament).count()
    )


def workbook_build(
    *,
    tournament: Tournament,
    target: str | os.PathLike[str] | IO[bytes],
    language: Language = h.DEFAULT_LANGUAGE,
    progress: ProgressReport | None = None,
) -> None:
    """Write the tournament workbook to ``target`` (a path or a binary file), headers in ``language``.

    ``progress`` is called with the percentage done as rows are written (for the export page's bar).
    """
    stages = tournament_stages(tournament_id=tournament.pk)
    rounds = list(
        Round.objects.filter(stage__tournament=tournament).select_related("stage").order_by("stage__order", "number")
    )
    context = _Context(
        tournament=tournament,
        language=language,
        pairs=pair_cards(tournament_id=tournament.pk),
        places=match_places(tournament_id=tournament.pk, language=language),
        progress=_Progress(total=_estimate(tournament), report=progress),
    )
    # Each stage ranks at most every pair; the award list is short enough to leave out.
    context.progress.total += len(context.pairs) * len(stages)
    prize_stage_ = prize_stage(tournament=tournament)
    final: StageStandings | None = None
    yes_no = (h.word("yes", language), h.word("no", language))
    with Book(time_zone=timezone.get_default_timezone(), yes_no=yes_no) as book:
        _registration(book, context)
        _draws(book, context, rounds)
        RESULTS[entrants_of(tournament).key](book, context)
        _deals(book, context)
        flags: list[tuple[str, StageFlag]] = []
        for stage in stages:
            is_final = prize_stage_ is not None and stage.pk == prize_stage_.pk
            standings = stage_ranking_get(stage=stage)  # with the stage's lots: the prizes' too
            stage_flags = stage_flags_get(stage=stage)  # the one reader the pages and the API use
            table = team_match_table_get(stage=stage)
            if standings.teams is not None and table is not None:  # a knockout of teams ranks its teams
                _team_placings(book, context, table, stage_flags)
            else:
                _standings(book, context, standings, stage_flags)
            _team_standings(book, context, stage_team_total_get(stage=stage, standings=standings))
            _team_matches(book, context, table, standings_sheet=standings.teams is None)
            flags += [(stage.name, flag) for flag in stage_flags]
            if is_final:
                final = standings
        flags_sheet_write(book, language, flags)
        _adjustments(book, context)
        _awards(book, context, final)
        book.save(target)
