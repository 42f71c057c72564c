"""A stage's team total (集体比赛, docs/rules.md §11): one answer, asked by every reader.

:func:`stage_team_total_get` is the one selector: the public team standings, the organiser's stage
page, the API and the workbook all ask it. Nothing is ranked here: the rules core's
:func:`scoring.teams.team_total_rank` ranks the teams from the stage's **one** ranking
(:func:`tournament.standings.selectors.stage_ranking_get`), read as each entrant kind reads it
(:data:`TEAM_MEMBERS`: a pair's match points and small points, or a Dou Dizhu player's points and
deals won). The teams are the event's teams of at least two members; a team still being made (fewer)
is not ranked and is named in ``unranked``. Lots are the stage's recorded ones (without a seed a full
tie shares its rank, as for pairs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from scoring.teams import MemberStanding, Team, TeamTotal, members_of_players, members_of_standings, team_total_rank
from tournament.matches.models import Stage
from tournament.registration.models import PairStatus, TeamMember
from tournament.registration.models import Team as TeamRow
from tournament.registration.teams import TEAM_MIN_MEMBERS
from tournament.rules import rules_for_stage
from tournament.standings.selectors import StageStandings, stage_lots_seed, stage_ranking_get

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def _pair_members(standings: StageStandings) -> tuple[MemberStanding, ...]:
    return members_of_standings(standings.standings, options=rules_for_stage(standings.stage))


def _player_members(standings: StageStandings) -> tuple[MemberStanding, ...]:
    if standings.players is None:  # a points stage always has its players' ranking
        return ()
    return members_of_players(standings.players.players)


@dataclass(frozen=True, slots=True)
class TeamTotalWords:
    """What a team total's pages call what its members' rows sum: the pages print these, never ask
    which entrant kind the members are."""

    points: StrOrPromise
    """The first column: a pair's match points, a Dou Dizhu player's points."""
    second: StrOrPromise
    """The second column: small points, deals won."""
    ranked_by: StrOrPromise
    """The order of the ranking, in one sentence."""


@dataclass(frozen=True, slots=True)
class TeamReading:
    """How the team total reads one entrant kind's rows of the stage's ranking, and names them."""

    members: Callable[[StageStandings], tuple[MemberStanding, ...]]
    players: bool
    """What is summed is points and deals won (Dou Dizhu), not match points and small points (as the
    rules core's team total takes it)."""
    words: TeamTotalWords


PAIR_TEAM_WORDS = TeamTotalWords(
    points=_("Match points"),
    second=_("Small points"),
    ranked_by=_("Ranked by: match points › small points › best member's place › lots."),
)
"""The words of a team of pairs (a team total, and a team match stage's ranking for its prizes)."""

TEAM_MEMBERS: dict[str, TeamReading] = {
    "pairs": TeamReading(members=_pair_members, players=False, words=PAIR_TEAM_WORDS),
    "players": TeamReading(
        members=_player_members,
        players=True,
        words=TeamTotalWords(
            points=_("Points"),
            second=_("Deals won"),
            ranked_by=_("Ranked by: points › deals won › best member's place › lots."),
        ),
    ),
}
"""How the team total reads each entrant kind's rows of the stage's ranking, by its key."""


@dataclass(frozen=True, slots=True)
class TeamMemberLine:
    """One member of a team as its line shows it."""

    pair_id: int
    number: int
    name: str
    place: int | None
    """The member's place in the stage (None: not in the stage)."""
    points: int | None
    small_points: int | None
    counted: bool
    substitute: bool
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class TeamLine:
    """A team's line in the team total (picklable: the public pages cache it)."""

    rank: int
    shared: bool
    team_id: int
    number: int
    name: str
    points: int
    small_points: int
    best_place: int | None
    lots: int | None
    short: bool
    counted: int
    members: tuple[TeamMemberLine, ...]
    provisional: bool = False
    """A counted member's result awaits sign-off (待确认)."""


@dataclass(frozen=True, slots=True)
class StageTeamTotal:
    """A stage's team total: the lines in ranking order, how they were made, and the rules core's
    answer itself (``total``: its JSON is the API's and the command line's)."""

    stage_id: int
    stage_name: str
    team_count: int | None
    entrants: str
    """The key of the entrant kind whose rows are summed (:data:`TEAM_MEMBERS`)."""
    lines: tuple[TeamLine, ...]
    unranked: tuple[str, ...]
    """Teams of fewer than two members, not ranked."""
    total: TeamTotal

    def line_of(self, team_id: int) -> TeamLine | None:
        return next((line for line in self.lines if line.team_id == team_id), None)

    @property
    def words(self) -> TeamTotalWords:
        """What its columns and its order are called (in the page's language: the words are lazy)."""
        return TEAM_MEMBERS[self.entrants].words


def stage_team_total_get(*, stage: Stage, standings: StageStandings | None = None) -> StageTeamTotal | None:
    """The stage's team total (docs/rules.md §11), or None when the stage does not rank teams
    (``team_total`` off). ``standings``: the stage's ranking when the caller has it (the same answer
    :func:`stage_ranking_get` gives)."""
    settings = stage.settings
    if not settings.team_total:
        return None
    standings = stage_ranking_get(stage=stage) if standings is None else standings
    rows = _team_rows(tournament_id=stage.tournament_id)
    ranked = [row for row in rows if len(row.members) >= TEAM_MIN_MEMBERS]
    entrants = stage.tournament.entrants.key
    reading = TEAM_MEMBERS[entrants]
    read = reading.members(standings)
    total = _rank(ranked, read, settings.team_count, stage_lots_seed(stage=stage), players=reading.players)
    by_id = {str(row.pk): row for row in ranked}
    stage_rows = {member.member: member for member in read}
    lines = []
    for line in total.rows:
        team = by_id[line.team]
        counted = {member.member for member in line.counted}
        member_lines = tuple(_member_line(member, stage_rows, counted) for member in team.members)
        lines.append(
            TeamLine(
                rank=line.rank,
                shared=line.shared,
                team_id=team.pk,
                number=team.number,
                name=team.name,
                points=line.points,
                small_points=line.small_points,
                best_place=line.best_place,
                lots=line.lots,
                short=line.short,
                counted=len(line.counted),
                members=member_lines,
                provisional=bool(counted & standings.provisional),
            )
        )
    return StageTeamTotal(
        stage_id=stage.pk,
        stage_name=stage.name,
        team_count=settings.team_count,
        entrants=entrants,
        lines=tuple(lines),
        unranked=tuple(row.name for row in rows if len(row.members) < TEAM_MIN_MEMBERS),
        total=total,
    )


@dataclass(frozen=True, slots=True)
class _MemberRow:
    pair_id: int
    number: int
    name: str
    substitute: bool
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class _TeamRow:
    pk: int
    number: int
    name: str
    members: list[_MemberRow]


def _team_rows(*, tournament_id: int) -> list[_TeamRow]:
    """The event's teams in number order, each with its members in position order, read as plain rows:
    a city's thousand teams of five are two queries, not eleven thousand model objects."""
    teams = {
        pk: _TeamRow(pk=pk, number=number, name=name, members=[])
        for pk, number, name in TeamRow.objects.filter(tournament_id=tournament_id)
        .order_by("number", "pk")
        .values_list("pk", "number", "name")
    }
    members = (
        TeamMember.objects.filter(team__tournament_id=tournament_id)
        .order_by("position", "pk")
        .values_list("team_id", "pair_id", "pair__number", "pair__name", "substitute", "pair__status")
    )
    for team_id, pair_id, number, name, substitute, status in members:
        teams[team_id].members.append(
            _MemberRow(
                pair_id=pair_id,
                number=number,
                name=name,
                substitute=substitute,
                withdrawn=status == PairStatus.WITHDRAWN,
            )
        )
    return list(teams.values())


def _rank(
    teams: list[_TeamRow], read: tuple[MemberStanding, ...], team_count: int | None, seed: int | None, *, players: bool
) -> TeamTotal:
    """The rules core's team total, the teams named by their ids (stable under a rename: the lots
    drawn for a tie do not move when a team is renamed)."""
    return team_total_rank(
        teams=[Team(name=str(row.pk), members=tuple(str(m.pair_id) for m in row.members)) for row in teams],
        members=read,
        team_count=team_count,
        lots_seed=seed,
        players=players,
    )


def _member_line(member: _MemberRow, stage_rows: dict[str, MemberStanding], counted: set[str]) -> TeamMemberLine:
    row = stage_rows.get(str(member.pair_id))
    return TeamMemberLine(
        pair_id=member.pair_id,
        number=member.number,
        name=member.name,
        place=row.place if row is not None else None,
        points=row.points if row is not None else None,
        small_points=row.small_points if row is not None else None,
        counted=str(member.pair_id) in counted,
        substitute=member.substitute,
        withdrawn=member.withdrawn,
    )
