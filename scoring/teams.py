"""Teams and the team total (集体比赛): a team ranking from the stage's one ranking (docs/rules.md §11).

A **team** (:class:`Team`) is a named group of an event's pairs (Dou Dizhu: players): by default one
per department, or named by the organiser. A pair belongs to at most one team and a team has at least
two members (:func:`teams_check`).

The **team total** (option ``team_total``) ranks teams beside an ordinary stage. It reads the stage's
one ranking — :func:`members_of_standings` for pairs (:func:`scoring.stage_ranking.rank_stage`, or a
knockout's placings), :func:`members_of_players` for Dou Dizhu players — never the results a second
time, and (:func:`team_total_rank`):

- sums each team's counted members' **match points** (docs/rules.md §5; Dou Dizhu: points, §10);
  ``team_count`` None counts every member, k the best k (most points, then the better place); a team
  with fewer than k members in the stage counts what it has and is shown as ``short``;
- breaks ties by the counted members' **small points** (points formats: deal points; Dou Dizhu: deals
  won) → the **best counted member's place** in the stage → **lots** (seeded, the lot recorded in the
  row; without a seed a full tie shares its rank, as in docs/rules.md §5).

A withdrawn member keeps the results it had (the stage's ranking keeps them); a member who is not in
the stage (it did not advance into it) counts nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from scoring.errors import bad_input
from scoring.options import RuleOptions
from scoring.standings import Standings, tiers_by_rank

if TYPE_CHECKING:
    from scoring.doudizhu_standings import PlayerStandings

__all__ = [
    "MemberStanding",
    "Team",
    "TeamTotal",
    "TeamTotalRow",
    "assign_team_tiers",
    "members_of_players",
    "members_of_standings",
    "team_total_rank",
    "teams_check",
]


@dataclass(frozen=True, slots=True)
class Team:
    """A team: its name and its members (pair ids; Dou Dizhu: player ids) in registration order, which
    is also the default line-up of a team match (docs/rules.md §11). Substitutes are members too."""

    name: str
    members: tuple[str, ...]

    def __repr__(self) -> str:
        return f"Team({self.name!r}: {', '.join(self.members)})"


def teams_check(teams: Iterable[Team]) -> tuple[Team, ...]:
    """The teams, refused with a ``bad_input`` error if a name is used twice, a team has fewer than two
    members, or a member is in two teams (or twice in one) — docs/rules.md §11."""
    out = tuple(teams)
    names: set[str] = set()
    owner: dict[str, str] = {}
    for team in out:
        if not team.name:
            raise bad_input("A team needs a name.", "团体需要名称。")
        if team.name in names:
            raise bad_input(f"Two teams are named {team.name!r}.", f"有两个团体都叫 {team.name!r}。")
        names.add(team.name)
        if len(team.members) < 2:
            raise bad_input(
                f"Team {team.name!r} has {len(team.members)} member(s); a team has at least 2.",
                f"团体 {team.name!r} 只有 {len(team.members)} 名成员；团体至少需要 2 名。",
            )
        for member in team.members:
            if member in owner:
                where = "twice in that team" if owner[member] == team.name else f"in team {owner[member]!r} too"
                where_zh = "在该团体中重复" if owner[member] == team.name else f"也在团体 {owner[member]!r} 中"
                raise bad_input(
                    f"{member!r} of team {team.name!r} is {where}; a member belongs to one team.",
                    f"团体 {team.name!r} 的成员 {member!r} {where_zh}；每名成员只能属于一个团体。",
                )
            owner[member] = team.name
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class MemberStanding:
    """What the team total reads of one member's row in the stage's ranking."""

    member: str
    place: int
    """The member's place in the stage (1 = first; shared places are equal)."""
    points: int
    """What is summed: match points (docs/rules.md §5); Dou Dizhu: points (§10)."""
    small_points: int
    """The first tie-break: small points (§5); points formats: deal points; Dou Dizhu: deals won."""

    def __repr__(self) -> str:
        return f"MemberStanding({self.member!r} #{self.place}, {self.points} pts, small {self.small_points})"


def members_of_standings(standings: Standings, *, options: RuleOptions) -> tuple[MemberStanding, ...]:
    """The pairs of a stage's ranking (:meth:`scoring.stage_ranking.StageRanking.standings`, whose rank
    is the stage place; or a knockout's placings) as the team total reads them. In a points format
    (``fixed_deals_points``, where every deal is at 2 and small points say nothing) the tie-break is the
    deal points."""
    points_format = options.is_points_format
    return tuple(
        MemberStanding(
            member=row.entrant,
            place=row.rank,
            points=row.match_points,
            small_points=row.deal_points if points_format else row.small_points,
        )
        for row in standings.rows
    )


def members_of_players(standings: PlayerStandings) -> tuple[MemberStanding, ...]:
    """Dou Dizhu's players (:func:`scoring.doudizhu_standings.rank_players`) as the team total reads
    them: points, then deals won (docs/rules.md §10, §11)."""
    return tuple(
        MemberStanding(member=row.player, place=row.rank, points=row.points, small_points=row.deals_won)
        for row in standings.rows
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamTotalRow:
    """One team's line in the team total."""

    rank: int
    team: str
    shared: bool
    """The rank is shared with another team (a full tie, no lots drawn)."""
    points: int
    small_points: int
    best_place: int | None
    """The best place of a counted member in the stage (None: no member counted)."""
    lots: int | None
    """The lot drawn for this team, where one was needed."""
    counted: tuple[MemberStanding, ...]
    """The members whose results count, best first."""
    members: int
    """How many members the team has (counted or not)."""
    short: bool
    """Fewer members counted than ``team_count`` asks for."""

    def __repr__(self) -> str:
        shared = "=" if self.shared else ""
        short = ", short" if self.short else ""
        counted = " ".join(member.member for member in self.counted)
        return (
            f"TeamTotalRow({shared}{self.rank} {self.team!r}: {self.points} pts, small {self.small_points}, "
            f"best #{self.best_place}, counted {counted or '-'}{short})"
        )

    def to_json(self, *, players: bool = False) -> dict[str, Any]:
        points, small = ("points", "deals_won") if players else ("match_points", "small_points")
        return {
            "rank": self.rank,
            "team": self.team,
            "shared": self.shared,
            points: self.points,
            small: self.small_points,
            "best_place": self.best_place,
            "lots": self.lots,
            "counted": [
                {"member": member.member, "place": member.place, points: member.points, small: member.small_points}
                for member in self.counted
            ],
            "members": self.members,
            "short": self.short,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamTotal:
    """The team total of a stage: its rows in ranking order, and how they were made."""

    rows: tuple[TeamTotalRow, ...]
    team_count: int | None
    """The best k members counted (None: all)."""
    lots_seed: int | None
    players: bool = False
    """The members are Dou Dizhu players: the JSON names ``points`` and ``deals_won``."""

    def row(self, team: str) -> TeamTotalRow:
        for row in self.rows:
            if row.team == team:
                return row
        raise bad_input(f"There is no team {team!r} in this ranking.", f"此排名中没有团体 {team!r}。")

    def to_json(self) -> dict[str, Any]:
        return {
            "team_count": "all" if self.team_count is None else self.team_count,
            "lots_seed": self.lots_seed,
            "rows": [row.to_json(players=self.players) for row in self.rows],
        }


def _members_by_id(members: Iterable[MemberStanding]) -> dict[str, MemberStanding]:
    out: dict[str, MemberStanding] = {}
    for member in members:
        if member.member in out:
            raise bad_input(
                f"{member.member!r} has two rows in the stage's ranking.", f"{member.member!r} 在本阶段排名中出现两次。"
            )
        out[member.member] = member
    return out


def team_total_rank(
    *,
    teams: Sequence[Team],
    members: Iterable[MemberStanding],
    team_count: int | None = None,
    lots_seed: int | None = None,
    players: bool = False,
) -> TeamTotal:
    """Rank ``teams`` by their members' results in the stage (docs/rules.md §11; see the module
    docstring): points summed → small points summed → the best counted member's place → lots.

    ``members``: every row of the stage's ranking (:func:`members_of_standings`,
    :func:`members_of_players`); ``team_count``: the best k members count (None: all). The order of
    ``teams`` and of ``members`` does not matter.
    """
    if team_count is not None and team_count < 1:
        raise bad_input("team_count must be 1 or more (or all).", "team_count 至少为 1（或 all）。")
    checked = teams_check(teams)
    by_id = _members_by_id(members)
    lots: dict[str, int] | None = None
    if lots_seed is not None:
        drawn = sorted(team.name for team in checked)
        random.Random(lots_seed).shuffle(drawn)
        lots = {name: number for number, name in enumerate(drawn, 1)}

    # Each member's order within its team (most points, then the better place, more small points, the
    # id) as a tuple compared in C, made once: a city's thousand teams of five sort without a key call.
    keyed = {member: (-row.points, row.place, -row.small_points, member, row) for member, row in by_id.items()}
    unplaced = len(by_id) + 1
    entries: list[tuple[tuple[int, int, int], str, Team, tuple[MemberStanding, ...]]] = []
    for team in checked:
        present = sorted([keyed[member] for member in team.members if member in keyed])
        if team_count is not None:
            del present[team_count:]
        # the sums negated, as the key sorts them (most points first); one loop, no generator per sum
        points = small_points = 0
        best = present[0][1] if present else unplaced
        for entry in present:
            points += entry[0]
            small_points += entry[2]
            if entry[1] < best:
                best = entry[1]
        entries.append(((points, small_points, best), team.name, team, tuple([entry[4] for entry in present])))
    entries.sort(key=itemgetter(0, 1))

    rows: list[TeamTotalRow] = []
    start = 0
    while start < len(entries):
        end = start + 1
        while end < len(entries) and entries[end][0] == entries[start][0]:
            end += 1
        group = entries[start:end]
        tied = len(group) > 1
        if tied and lots is not None:
            drawn_lots = lots
            group.sort(key=lambda entry: drawn_lots[entry[1]])
        shared = tied and lots is None
        for offset, ((points, small_points, best), name, team, counted) in enumerate(group):
            rows.append(
                TeamTotalRow(
                    rank=start + 1 if shared else start + offset + 1,
                    team=name,
                    shared=shared,
                    points=-points,
                    small_points=-small_points,
                    best_place=best if counted else None,
                    lots=lots[name] if tied and lots is not None else None,
                    counted=counted,
                    members=len(team.members),
                    short=team_count is not None and len(counted) < team_count,
                )
            )
        start = end
    return TeamTotal(rows=tuple(rows), team_count=team_count, lots_seed=lots_seed, players=players)


def assign_team_tiers(*, total: TeamTotal, tiers: Sequence[tuple[str, int]]) -> dict[str, str]:
    """Team prize tiers (团体奖, docs/rules.md §4 and §11) from the team total: ``tiers`` are (name,
    number of teams), best first; team → tier name. A shared rank across a tier boundary cannot be
    split fairly: a ``bad_input`` error asking for the stage's lots to be drawn."""
    return tiers_by_rank(ranked=[(row.team, row.rank) for row in total.rows], tiers=tiers)
