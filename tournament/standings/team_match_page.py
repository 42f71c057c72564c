"""The public page of one team match (团体对抗, docs/rules.md §11): both its tables live, and the team
match's result as it stands.

Each table is an ordinary match, shown as its public match page shows it (:func:`match_history_get`);
the result is the one selector's (:func:`stage_team_matches_get`: counted tables only, so a table still
playing shows its levels but adds nothing to the result yet). The page is keyed on the common version
and the two tables' own versions: a deal at either table moves it, a deal at any other table leaves it
(and its poll's 204) as it is. Which two tables a team match has is read once per seating version (a
draw or a line-up moves it, never a result).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from scoring.team_matches import TeamMatchReason, TeamMatchStatus
from tournament.matches.models import TeamMatch
from tournament.registration.models import TournamentStatus
from tournament.standings.cache import own_key, public_cached
from tournament.standings.public import match_history_get
from tournament.standings.public_types import PUBLIC_ROUND_STATUSES, MatchPage
from tournament.standings.team_matches import stage_team_matches_get


@dataclass(frozen=True, slots=True)
class TeamMatchPage:
    """A team match with its two tables and its result (picklable: the page caches it)."""

    id: int
    number: int
    stage_name: str
    round_id: int
    round_number: int
    x: str
    y: str
    """Empty: a bye."""
    tables_won: tuple[int, int]
    small_points: tuple[int, int]
    winner: str
    """The winning team's name; empty while playing, for a draw or a double forfeit."""
    finished: bool
    table_a: MatchPage | None
    table_b: MatchPage | None
    walkover_over: str = ""
    """A walkover: the withdrawn team X was due to meet (a forfeit win, not a bye, docs/rules.md §11)."""
    on_small_points: bool = False
    """Won with the tables level, on both tables' small points (the stage's decider): the page says so."""
    tie_break_due: bool = False
    """A knockout team match left level by its two tables: a tie-break deal at table a decides it."""
    on_tie_break: bool = False
    """Won on that tie-break deal: the page says so (the tables read level)."""

    @property
    def tables(self) -> tuple[tuple[str, MatchPage], ...]:
        """The tables with their letters (table a: X at N/S; table b: Y at N/S), those that exist."""
        pairs = (("a", self.table_a), ("b", self.table_b))
        return tuple((letter, table) for letter, table in pairs if table is not None)


def _public_team_matches(tournament_id: int) -> QuerySet[TeamMatch]:
    """The event's team matches in published rounds (none for a draft event: not public)."""
    return TeamMatch.objects.filter(
        round__stage__tournament_id=tournament_id, round__status__in=PUBLIC_ROUND_STATUSES
    ).exclude(round__stage__tournament__status=TournamentStatus.DRAFT)


def team_match_tables_get(*, tournament_id: int, team_match_id: int) -> tuple[int | None, int | None] | None:
    """The match ids of a public team match's tables a and b; None for no such team match (unknown,
    another event's, or in a round not published)."""
    row = _public_team_matches(tournament_id).filter(pk=team_match_id).values_list("table_a_id", "table_b_id").first()
    return (row[0], row[1]) if row is not None else None


def team_match_page_get(*, tournament_id: int, team_match_id: int) -> TeamMatchPage | None:
    """A public team match: its teams, its two tables as the public match page shows them and its
    result from :func:`stage_team_matches_get` (docs/rules.md §11); None if not public."""
    row = _public_team_matches(tournament_id).filter(pk=team_match_id).select_related("round__stage").first()
    if row is None:
        return None
    played = stage_team_matches_get(stage=row.round.stage)
    line = next(line for line in played.matches if line.id == row.pk)
    result, names = line.result, played.names

    def table(match_id: int | None) -> MatchPage | None:
        return match_history_get(tournament_id=tournament_id, match_id=match_id) if match_id is not None else None

    return TeamMatchPage(
        id=row.pk,
        number=row.number,
        stage_name=row.round.stage.name,
        round_id=row.round_id,
        round_number=row.round.number,
        x=names.get(line.x, ""),
        y=names.get(line.y, "") if line.y is not None else "",
        tables_won=result.tables_won,
        small_points=result.small_points,
        winner=names.get(int(result.winner), "") if result.winner else "",
        finished=result.finished,
        table_a=table(line.table_a),
        table_b=table(line.table_b),
        walkover_over=names.get(line.walkover_over, "") if line.walkover_over is not None else "",
        on_small_points=result.reason == TeamMatchReason.SMALL_POINTS,
        tie_break_due=result.status is TeamMatchStatus.NEEDS_EXTRA_DEAL,
        on_tie_break=result.reason == TeamMatchReason.EXTRA_DEAL,
    )


def team_match_token(*, common: int, owns: dict[str, int], keys: list[str]) -> str:
    """What a team match's page is keyed on: the common version and its tables' own versions."""
    return f"c{common}" + "".join(f".m{owns[key]}" for key in keys)


def team_match_keys(*, tournament_id: int, tables: tuple[int | None, int | None]) -> list[str]:
    """The own-version keys of a team match's tables (:func:`own_key`)."""
    return [own_key(tournament_id=tournament_id, kind="match", pk=pk) for pk in tables if pk is not None]


def team_match_tables_cached(
    *, tournament_id: int, team_match_id: int, seating_version: int
) -> tuple[int | None, int | None] | None:
    """:func:`team_match_tables_get` at the seating version (moved by a draw, never by a result)."""
    return public_cached(
        tournament_id=tournament_id,
        key=f"team-match-tables:{team_match_id}",
        build=lambda: team_match_tables_get(tournament_id=tournament_id, team_match_id=team_match_id),
        version=f"s{seating_version}",
    )


def team_match_page_cached(*, tournament_id: int, team_match_id: int, token: str) -> TeamMatchPage | None:
    """:func:`team_match_page_get` keyed on ``token`` (:func:`team_match_token`)."""
    return public_cached(
        tournament_id=tournament_id,
        key=f"team-match:{team_match_id}",
        build=lambda: team_match_page_get(tournament_id=tournament_id, team_match_id=team_match_id),
        version=token,
    )
