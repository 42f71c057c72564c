"""A stage's team total (集体比赛, docs/rules.md §11): one answer, asked by every reader.

:func:`stage_team_total_get` is the one selector: the public team standings, the organiser's stage
page, the API and the workbook all ask it. Nothing is ranked here: the rules core's
:func:`scoring.teams.team_total_rank` ranks the teams from the stage's **one** ranking
(:func:`tournament.standings.selectors.stage_ranking_get`), read as each entrant kind reads it
(:data:`TEAM_MEMBERS`: a pair's match points and small points, or a Dou Dizhu player's points and
deals won). The teams are the event's teams of at least two members; a team still being made (fewer)
is not ranked and is named in ``unranked``. Lots are the stage's recorded ones (without a seed a full
tie shares its rank, as for pairs).

The public pages rank no pairs for it: a stage's standings build carries its ranking as the team total
reads it (:func:`stage_team_read`, made from the build's own ranking) and the team total is derived
from that and the event's teams (:func:`team_total_of`), once per build.
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
from tournament.standings.public_types import PickledByFields
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
    """One member of a team as its line shows it (:attr:`TeamLine.members`, made from the line's plain
    :data:`TeamMemberRow`)."""

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


TeamMemberRow = tuple[int, int, str, int | None, int | None, int | None, bool, bool, bool]
"""A member of a team as its line keeps it: :class:`TeamMemberLine`'s fields in order, as a plain tuple.
A city's thousand teams of five are 5,000 of them a build: as tuples they are made, pickled, unpickled
and digested (:func:`tournament.standings.public.page_digest`) in C, not one frozen object each."""


@dataclass(frozen=True, slots=True)
class TeamLine(PickledByFields):
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
    member_rows: tuple[TeamMemberRow, ...]
    """The team's members in position order, as plain rows (the public page's rows read them)."""
    provisional: bool = False
    """A counted member's result awaits sign-off (待确认)."""

    @property
    def members(self) -> tuple[TeamMemberLine, ...]:
        """The team's members in position order, named (the API, the workbook, the organiser's page)."""
        return tuple(TeamMemberLine(*row) for row in self.member_rows)


@dataclass(frozen=True, slots=True)
class StageTeamTotal:
    """A stage's team total: the lines in ranking order (the rules core's answer, each team named)."""

    stage_id: int
    stage_name: str
    team_count: int | None
    entrants: str
    """The key of the entrant kind whose rows are summed (:data:`TEAM_MEMBERS`)."""
    lines: tuple[TeamLine, ...]
    unranked: tuple[str, ...]
    """Teams of fewer than two members, not ranked."""

    def line_of(self, team_id: int) -> TeamLine | None:
        return next((line for line in self.lines if line.team_id == team_id), None)

    @property
    def words(self) -> TeamTotalWords:
        """What its columns and its order are called (in the page's language: the words are lazy)."""
        return TEAM_MEMBERS[self.entrants].words


@dataclass(frozen=True, slots=True)
class StageTeamRead(PickledByFields):
    """A stage's ranking as its team total reads it, with what else the total needs of the stage: all
    the team total asks of a ranking, so a standings build carries it and the team total is derived
    from the build's own ranking (:func:`team_total_of`), never from a second one."""

    stage_id: int
    stage_name: str
    entrants: str
    """The key of the entrant kind whose rows are read (:data:`TEAM_MEMBERS`)."""
    team_count: int | None
    lots_seed: int | None
    members: tuple[tuple[str, int, int, int], ...]
    """Each row of the ranking as the rules core's :class:`scoring.teams.MemberStanding` (member, place,
    points, small points), as plain tuples: a 5,000-pair build pickles them as fast as it can."""
    provisional: frozenset[str]
    """Members whose counted results include one awaiting sign-off (待确认)."""


def stage_team_read(*, stage: Stage, standings: StageStandings) -> StageTeamRead | None:
    """The stage's ranking ``standings`` as its team total reads it; None when the stage ranks no
    teams beside its entrants (``team_total`` off)."""
    settings = stage.settings
    if not settings.team_total:
        return None
    entrants = stage.tournament.entrants.key
    read = TEAM_MEMBERS[entrants].members(standings)
    return StageTeamRead(
        stage_id=stage.pk,
        stage_name=stage.name,
        entrants=entrants,
        team_count=settings.team_count,
        lots_seed=stage_lots_seed(stage=stage),
        members=tuple((row.member, row.place, row.points, row.small_points) for row in read),
        provisional=standings.provisional,
    )


def stage_team_total_get(*, stage: Stage, standings: StageStandings | None = None) -> StageTeamTotal | None:
    """The stage's team total (docs/rules.md §11), or None when the stage does not rank teams
    (``team_total`` off). ``standings``: the stage's ranking when the caller has it (the same answer
    :func:`stage_ranking_get` gives)."""
    if not stage.settings.team_total:
        return None
    standings = stage_ranking_get(stage=stage) if standings is None else standings
    read = stage_team_read(stage=stage, standings=standings)
    assert read is not None  # the stage ranks teams
    return team_total_of(read=read, rosters=team_rosters_get(tournament_id=stage.tournament_id))


_NOT_IN_STAGE: tuple[None, None, None] = (None, None, None)
"""A member's place, points and small points when it is not in the stage (it did not advance into it)."""


def team_total_of(*, read: StageTeamRead, rosters: tuple[TeamRoster, ...]) -> StageTeamTotal:
    """The team total of a stage whose ranking reads as ``read``, of the event's teams ``rosters``
    (:func:`team_rosters_get`): the rules core ranks them."""
    ranked = [roster for roster in rosters if len(roster.members) >= TEAM_MIN_MEMBERS]
    members = tuple(
        MemberStanding(member=member, place=place, points=points, small_points=small)
        for member, place, points, small in read.members
    )
    total = _rank(ranked, members, read.team_count, read.lots_seed, players=TEAM_MEMBERS[read.entrants].players)
    by_id = {str(roster.pk): roster for roster in ranked}
    standing = {member: (place, points, small) for member, place, points, small in read.members}
    lines = []
    for line in total.rows:
        team = by_id[line.team]
        counted = {member.member for member in line.counted}
        member_rows = []
        for key, pair_id, number, name, substitute, withdrawn in team.members:
            place, points, small = standing.get(key, _NOT_IN_STAGE)
            member_rows.append((pair_id, number, name, place, points, small, key in counted, substitute, withdrawn))
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
                member_rows=tuple(member_rows),
                provisional=bool(counted & read.provisional),
            )
        )
    return StageTeamTotal(
        stage_id=read.stage_id,
        stage_name=read.stage_name,
        team_count=read.team_count,
        entrants=read.entrants,
        lines=tuple(lines),
        unranked=tuple(roster.name for roster in rosters if len(roster.members) < TEAM_MIN_MEMBERS),
    )


RosterMember = tuple[str, int, int, str, bool, bool]
"""A member of a team as the team total names it, a plain tuple: the member as the rules core names it
(its pair id as text), its pair id, number and name, whether it is a substitute, whether it withdrew.
The event's 5,000 members are unpickled by every worker that derives a team total: as tuples, in C."""


@dataclass(frozen=True, slots=True)
class TeamRoster(PickledByFields):
    """A team of the event and its members in position order (picklable: the public pages cache the
    event's teams, :func:`team_rosters_get`, under the seating version every team change moves)."""

    pk: int
    number: int
    name: str
    members: tuple[RosterMember, ...]


def team_rosters_get(*, tournament_id: int) -> tuple[TeamRoster, ...]:
    """The event's teams in number order, each with its members in position order, read as plain rows:
    a city's thousand teams of five are two queries, not eleven thousand model objects."""
    teams = {
        pk: (number, name)
        for pk, number, name in TeamRow.objects.filter(tournament_id=tournament_id)
        .order_by("number", "pk")
        .values_list("pk", "number", "name")
    }
    members: dict[int, list[RosterMember]] = {pk: [] for pk in teams}
    rows = (
        TeamMember.objects.filter(team__tournament_id=tournament_id)
        .order_by("position", "pk")
        .values_list("team_id", "pair_id", "pair__number", "pair__name", "substitute", "pair__status")
    )
    for team_id, pair_id, number, name, substitute, status in rows:
        members[team_id].append((str(pair_id), pair_id, number, name, substitute, status == PairStatus.WITHDRAWN))
    return tuple(
        TeamRoster(pk=pk, number=number, name=name, members=tuple(members[pk])) for pk, (number, name) in teams.items()
    )


def _rank(
    teams: list[TeamRoster],
    read: tuple[MemberStanding, ...],
    team_count: int | None,
    seed: int | None,
    *,
    players: bool,
) -> TeamTotal:
    """The rules core's team total, the teams named by their ids (stable under a rename: the lots
    drawn for a tie do not move when a team is renamed)."""
    return team_total_rank(
        teams=[Team(name=str(row.pk), members=tuple([member[0] for member in row.members])) for row in teams],
        members=read,
        team_count=team_count,
        lots_seed=seed,
        players=players,
    )
