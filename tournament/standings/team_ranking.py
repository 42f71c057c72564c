"""A stage's team ranking, whichever way the stage ranks teams (docs/rules.md §11).

Two ways exist: a team total beside the pairs' ranking (:func:`tournament.standings.teams.stage_team_total_get`)
and team matches, where the teams are the stage's entrants
(:func:`tournament.standings.team_matches.stage_team_matches_get`). Nothing is ranked here: this module
reads those two selectors into the values the public pages, the API, the workbook and the prizes show.
:func:`team_match_table_get` is the team match standings as every reader shows them;
:func:`stage_team_ranking_get` is "the stage's team ranking" the prizes ask, one answer for both ways.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scoring.team_matches import TeamMatchResult
from tournament.matches.models import Stage, StageFormat
from tournament.standings.selectors import stage_ranking_get
from tournament.standings.team_matches import StageTeamMatches, stage_team_matches_get
from tournament.standings.teams import PAIR_TEAM_WORDS, TeamTotalWords, stage_team_total_get


@dataclass(frozen=True, slots=True)
class TeamMatchStandingLine:
    """A team's line in a team match stage's standings (picklable: the public pages cache it)."""

    rank: int
    shared: bool
    team_id: int
    name: str
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    match_points: int
    tables_won: int
    small_points: int
    buchholz: int
    head_to_head: int | None
    lots: int | None


@dataclass(frozen=True, slots=True)
class TeamMatchResultLine:
    """One team match's result as the pages and the workbook show it (names, not ids)."""

    round: int
    number: int
    x: str
    y: str
    """Empty: a bye."""
    status: str
    winner: str
    """The winning team's name; empty while playing, for a draw or a double forfeit."""
    reason: str
    tables_won: tuple[int, int]
    small_points: tuple[int, int]
    table_a: int | None
    table_b: int | None

    @property
    def finished(self) -> bool:
        return self.status == "finished"


@dataclass(frozen=True, slots=True)
class TeamMatchTable:
    """A team match stage's team standings and every team match's result, in order."""

    stage_id: int
    stage_name: str
    lines: tuple[TeamMatchStandingLine, ...]
    results: tuple[TeamMatchResultLine, ...]
    team_match: bool = True
    """Told apart from a team total (:class:`tournament.standings.teams.StageTeamTotal`) by the pages."""
    knockout: bool = False
    """A knockout of teams: the lines are its bracket's placings (how far each team went), not an order of
    team match points; the pages say so."""

    def line_of(self, team_id: int) -> TeamMatchStandingLine | None:
        return next((line for line in self.lines if line.team_id == team_id), None)

    def of_round(self, number: int) -> tuple[TeamMatchResultLine, ...]:
        return tuple(line for line in self.results if line.round == number)


def _result_line(
    result: TeamMatchResult, *, number: int, a: int | None, b: int | None, names: dict[int, str]
) -> TeamMatchResultLine:
    def name(team: str | None) -> str:
        return names.get(int(team), "") if team else ""

    return TeamMatchResultLine(
        round=result.round,
        number=number,
        x=name(result.x),
        y=name(result.y),
        status=result.status.value,
        winner=name(result.winner),
        reason=result.reason.value if result.reason is not None else "",
        tables_won=result.tables_won,
        small_points=result.small_points,
        table_a=a,
        table_b=b,
    )


def team_match_table_of(played: StageTeamMatches, *, stage_name: str) -> TeamMatchTable:
    """The standings and results of :func:`stage_team_matches_get`'s answer, named."""
    names = played.names
    lines = tuple(
        TeamMatchStandingLine(
            rank=row.rank,
            shared=row.shared,
            team_id=int(row.team),
            name=names.get(int(row.team), ""),
            played=row.played,
            wins=row.wins,
            draws=row.draws,
            losses=row.losses,
            byes=row.byes,
            match_points=row.match_points,
            tables_won=row.tables_won,
            small_points=row.small_points,
            buchholz=row.buchholz,
            head_to_head=row.head_to_head,
            lots=row.lots,
        )
        for row in played.standings.rows
    )
    results = tuple(
        _result_line(line.result, number=line.number, a=line.table_a, b=line.table_b, names=names)
        for line in played.matches
    )
    return TeamMatchTable(stage_id=played.stage_id, stage_name=stage_name, lines=lines, results=results)


def team_match_table_get(*, stage: Stage) -> TeamMatchTable | None:
    """A team match stage's standings and results (docs/rules.md §11), from the one selector
    :func:`stage_team_matches_get`; None for a stage that does not play team matches. A knockout of
    teams lists its teams in the stage's ranking (:func:`tournament.standings.selectors.stage_ranking_get`:
    its bracket's placings, how far each went), each with its team match record."""
    if stage.settings.team_match is None:
        return None
    table = team_match_table_of(stage_team_matches_get(stage=stage), stage_name=stage.name)
    if stage.format != StageFormat.KNOCKOUT:
        return table
    by_team = {line.team_id: line for line in table.lines}
    placed = tuple(
        replace(by_team[int(row.entrant)], rank=row.rank, shared=row.shared, lots=row.lots)
        for row in stage_ranking_get(stage=stage).standings.rows
    )
    return replace(table, lines=placed, knockout=True)


@dataclass(frozen=True, slots=True)
class TeamRankLine:
    """A team's place in the stage's team ranking: what a prize list shows."""

    rank: int
    shared: bool
    team_id: int
    name: str
    points: int
    """A team total's points (match points, or a Dou Dizhu team's points); a team match's team match points."""


@dataclass(frozen=True, slots=True)
class TeamRanking:
    """The stage's team ranking, best first, however the stage ranks teams."""

    stage_id: int
    lines: tuple[TeamRankLine, ...]
    words: TeamTotalWords = PAIR_TEAM_WORDS
    """What its points are called (``words.points``): a team total's words, a team of pairs' for team
    matches."""
    team_match: bool = False

    @property
    def ranked(self) -> list[tuple[str, int]]:
        """(team id, rank) best first, as the rules core's prize tiers read a ranking."""
        return [(str(line.team_id), line.rank) for line in self.lines]


def stage_team_ranking_get(*, stage: Stage) -> TeamRanking | None:
    """The stage's team ranking (docs/rules.md §11): from its team matches when it plays them (a knockout
    of teams: the stage's ranking, its bracket's placings, :func:`team_match_table_get`), else from its
    team total; None when the stage ranks no teams."""
    table = team_match_table_get(stage=stage)
    if table is not None:
        lines = tuple(
            TeamRankLine(line.rank, line.shared, line.team_id, line.name, line.match_points) for line in table.lines
        )
        return TeamRanking(stage_id=stage.pk, lines=lines, team_match=True)
    total = stage_team_total_get(stage=stage)
    if total is None:
        return None
    lines = tuple(TeamRankLine(line.rank, line.shared, line.team_id, line.name, line.points) for line in total.lines)
    return TeamRanking(stage_id=stage.pk, lines=lines, words=total.words)
