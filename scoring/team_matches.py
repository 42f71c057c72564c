"""Team matches (团体对抗): two teams of two pairs at two tables (docs/rules.md §11).

- **Seating** (:func:`team_match_seat`): each team names its pair 1 and pair 2 for the round (a
  :class:`LineUp`; by default its first two members in registration order). Team X against team Y
  plays at two tables: **table a**, X1 N/S against Y1 E/W; **table b**, Y2 N/S against X2 E/W — so each
  team sits N/S at one table and E/W at the other. A pair that is absent forfeits its table: a team
  with one pair present plays that pair's table and forfeits the other; with none present it forfeits
  both, which forfeits the team match.
- **The result** (:func:`team_match_decide`): each table is an ordinary match (docs/rules.md §2, §3)
  recorded as a :class:`~scoring.standings.MatchRecord`; a table's **small points** are those of
  docs/rules.md §5 (:func:`table_small_points`; points formats: the difference of the points), a walkover
  counting ``forfeit_margin``. Option ``team_decider``: ``tables`` — more tables won wins, equal tables
  are decided by the sum of small points, still equal is a draw; ``total`` — the sum of small points
  alone. A team match is finished when both tables are. In a knockout a drawn team match is decided by
  one tie-break deal at table a (at table b when table a was a walkover), whose winner's team wins
  (``team_knockout_decider: table_a_extra_deal``); until it is recorded the team match
  ``needs_extra_deal``. A bye counts as two tables of ``bye_result`` (§5), a team match win by default.
  A team that did not come to its team match (``walkover``: it withdrew) forfeits both tables: a forfeit
  win for the other team and a loss for it, counted as played, never as a bye.
- **Team standings** (:func:`team_standings_rank`, Swiss and round robin): team match points
  (``team_match_points``, default 2/1/0) → tables won → small points summed → head-to-head (team match
  points among the teams still tied) → Buchholz (opponents' team match points) → lots (seeded; without
  a seed a full tie shares its rank).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from scoring.errors import bad_input
from scoring.levels import PASSED_A_VALUE
from scoring.options import ByeResult, RuleOptions, SmallPoints, Stage
from scoring.seats import PerSide, Side
from scoring.standings import MatchRecord
from scoring.team_options import TeamDecider, TeamOptions
from scoring.teams import Team

__all__ = [
    "TEAM_TIE_BREAKERS",
    "LineUp",
    "Outcome",
    "Table",
    "TableOutcome",
    "TableSeating",
    "TeamMatchReason",
    "TeamMatchRecord",
    "TeamMatchResult",
    "TeamMatchSeating",
    "TeamMatchStatus",
    "TeamStandingRow",
    "TeamStandings",
    "table_small_points",
    "team_match_decide",
    "team_match_seat",
    "team_results_decide",
    "team_standings_rank",
]


class Table(str, Enum):
    """The two tables of a team match (docs/rules.md §11)."""

    A = "a"
    """X1 N/S against Y1 E/W."""
    B = "b"
    """Y2 N/S against X2 E/W."""


# -- seating ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LineUp:
    """A team's line-up for a round: which of its pairs is pair 1 and which pair 2 (docs/rules.md §11)."""

    team: str
    first: str
    second: str

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise bad_input(
                f"The line-up of team {self.team!r} names {self.first!r} as both pair 1 and pair 2.",
                f"团体 {self.team!r} 的出场名单把 {self.first!r} 同时列为第 1 对和第 2 对。",
            )

    @classmethod
    def default(cls, team: Team) -> LineUp:
        """The default line-up: the team's first two members in registration order."""
        if len(team.members) < 2:
            raise bad_input(
                f"Team {team.name!r} has fewer than two pairs and cannot line up for a team match.",
                f"团体 {team.name!r} 不足两对，无法参加团体对抗。",
            )
        return cls(team.name, team.members[0], team.members[1])

    def check(self, team: Team) -> LineUp:
        """This line-up, refused if it names a pair that is not a member of ``team`` (its own team)."""
        if team.name != self.team:
            raise bad_input(
                f"The line-up is team {self.team!r}'s, not team {team.name!r}'s.",
                f"该出场名单属于团体 {self.team!r}，不属于团体 {team.name!r}。",
            )
        for pair in (self.first, self.second):
            if pair not in team.members:
                raise bad_input(
                    f"The line-up of team {self.team!r} names {pair!r}, who is not one of its pairs.",
                    f"团体 {self.team!r} 的出场名单中的 {pair!r} 不是该团体的成员。",
                )
        return self

    def __repr__(self) -> str:
        return f"LineUp({self.team!r}: 1 {self.first}, 2 {self.second})"


@dataclass(frozen=True, slots=True)
class TableSeating:
    """One table of a team match: the pair at N/S, the pair at E/W, their teams, and the sides whose
    pair is absent (each such side forfeits the table; both: a double forfeit)."""

    table: Table
    ns: str
    ew: str
    ns_team: str
    ew_team: str
    absent: tuple[Side, ...] = ()

    @property
    def played(self) -> bool:
        return not self.absent

    @property
    def forfeit(self) -> Side | None:
        """The side that forfeits the table when exactly one pair is absent."""
        return self.absent[0] if len(self.absent) == 1 else None

    @property
    def double_forfeit(self) -> bool:
        return len(self.absent) == 2

    def team_of(self, side: Side) -> str:
        return self.ns_team if side is Side.NS else self.ew_team

    def __repr__(self) -> str:
        gone = "".join(f", {side.code} absent" for side in self.absent)
        return (
            f"TableSeating({self.table.value}: {self.ns} ({self.ns_team}) N/S v {self.ew} ({self.ew_team}) E/W{gone})"
        )


@dataclass(frozen=True, slots=True)
class TeamMatchSeating:
    """Both tables of team X against team Y (docs/rules.md §11)."""

    x: LineUp
    y: LineUp
    a: TableSeating
    b: TableSeating

    @property
    def tables(self) -> tuple[TableSeating, TableSeating]:
        return (self.a, self.b)

    def table_of(self, pair: str) -> TableSeating:
        """The table ``pair`` plays at (find-my-table inside a team match)."""
        for table in self.tables:
            if pair in (table.ns, table.ew):
                return table
        raise bad_input(f"{pair!r} does not play in this team match.", f"{pair!r} 不在这场团体对抗中。")

    def __repr__(self) -> str:
        return f"TeamMatchSeating({self.x.team!r} v {self.y.team!r}: {self.a!r}, {self.b!r})"


def team_match_seat(*, x: LineUp, y: LineUp, absent: Collection[str] = ()) -> TeamMatchSeating:
    """Seat team X (drawn first) against team Y: table a X1 N/S v Y1 E/W, table b Y2 N/S v X2 E/W
    (docs/rules.md §11). ``absent``: pairs not present, whose tables are forfeited by them."""
    if x.team == y.team:
        raise bad_input(f"Team {x.team!r} cannot play itself.", f"团体 {x.team!r} 不能与自己比赛。")
    pairs = (x.first, x.second, y.first, y.second)
    if len(set(pairs)) < 4:
        raise bad_input(
            f"Teams {x.team!r} and {y.team!r} name the same pair in their line-ups.",
            f"团体 {x.team!r} 和 {y.team!r} 的出场名单中有同一对选手。",
        )
    gone = set(absent)

    def seat(table: Table, ns: str, ns_team: str, ew: str, ew_team: str) -> TableSeating:
        missing = tuple(side for side, pair in ((Side.NS, ns), (Side.EW, ew)) if pair in gone)
        return TableSeating(table, ns, ew, ns_team, ew_team, missing)

    return TeamMatchSeating(
        x=x,
        y=y,
        a=seat(Table.A, x.first, x.team, y.first, y.team),
        b=seat(Table.B, y.second, y.team, x.second, x.team),
    )


# -- one team match -----------------------------------------------------------------------------------


class TeamMatchStatus(str, Enum):
    IN_PROGRESS = "in_progress"
    """A table has no result yet."""
    FINISHED = "finished"
    NEEDS_EXTRA_DEAL = "needs_extra_deal"
    """A knockout team match left drawn: the tie-break deal is to be played (docs/rules.md §11)."""


class TeamMatchReason(str, Enum):
    """Why the team match ended as it did."""

    TABLES = "tables"
    """More tables won (``team_decider: tables``)."""
    SMALL_POINTS = "small_points"
    """Equal tables, decided by the sum of small points (``team_decider: tables``)."""
    TOTAL = "total"
    """The sum of small points (``team_decider: total``)."""
    EXTRA_DEAL = "extra_deal"
    """A drawn knockout team match decided by the tie-break deal."""
    DRAW = "draw"
    FORFEIT = "forfeit"
    """A team forfeited both tables (no pair present, or it did not come at all: a walkover); both teams: a
    double forfeit."""
    BYE = "bye"


class Outcome(str, Enum):
    """A team's result in a team match, as team standings count it."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamMatchRecord:
    """A team match as recorded: team X (drawn first: N/S at table a) against team Y (N/S at table b).

    ``a`` and ``b`` are the two tables' results (None: not finished), each with its own pairs at N/S and
    E/W; ``y`` None is a bye for X. ``extra_deal``: in a knockout, the side (of the deciding table) that
    won the tie-break deal of a drawn team match. ``walkover``: the team (X or Y) that did not come to a
    team match it was drawn into (it withdrew, docs/rules.md §4, §5): no table is played, and it forfeits
    both — a forfeit win for the other team, never a bye.
    """

    round: int
    x: str
    y: str | None
    a: MatchRecord | None = None
    b: MatchRecord | None = None
    extra_deal: Side | None = None
    walkover: str | None = None

    @property
    def bye(self) -> bool:
        return self.y is None


@dataclass(frozen=True, slots=True, kw_only=True)
class TableOutcome:
    """What one finished table gives the team match, per team as ``(X, Y)``."""

    table: Table
    winner: str | None
    """The team whose pair won the table (None: drawn, or a double forfeit)."""
    small_points: PerSide
    """``(X's, Y's)`` small points at this table (docs/rules.md §5; points formats: the points' difference)."""
    forfeited: tuple[str, ...] = ()
    """The teams whose pair forfeited this table."""

    def __repr__(self) -> str:
        gone = f", forfeited by {', '.join(self.forfeited)}" if self.forfeited else ""
        return f"TableOutcome({self.table.value}: won by {self.winner}, small {self.small_points}{gone})"

    def to_json(self, x: str, y: str) -> dict[str, Any]:
        return {
            "table": self.table.value,
            "winner": self.winner,
            "small_points": {x: self.small_points[0], y: self.small_points[1]},
            "forfeited": list(self.forfeited),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamMatchResult:
    """A team match decided (docs/rules.md §11). Per-team pairs are ``(X, Y)``."""

    round: int
    x: str
    y: str | None
    status: TeamMatchStatus
    winner: str | None
    reason: TeamMatchReason | None
    tables_won: PerSide
    small_points: PerSide
    tables: tuple[TableOutcome | None, TableOutcome | None]
    deciding_table: Table | None = None
    """Where the knockout tie-break deal is (or was) played; None when none is needed."""
    double_forfeit: bool = False
    bye_outcome: Outcome | None = None
    """A bye: what it counts as for X (``bye_result``)."""

    @property
    def finished(self) -> bool:
        return self.status is TeamMatchStatus.FINISHED

    def outcome_of(self, team: str) -> Outcome:
        """``team``'s result: a win, a draw or a loss (a double forfeit is a loss for both)."""
        if team not in (self.x, self.y):
            raise bad_input(f"Team {team!r} did not play this team match.", f"团体 {team!r} 没有参加这场团体对抗。")
        if self.bye_outcome is not None:
            return self.bye_outcome
        if self.winner is None:
            return Outcome.LOSS if self.double_forfeit else Outcome.DRAW
        return Outcome.WIN if self.winner == team else Outcome.LOSS

    def __repr__(self) -> str:
        against = f" v {self.y!r}" if self.y is not None else " (bye)"
        won = f", won by {self.winner!r}" if self.winner is not None else ""
        reason = f" ({self.reason.value})" if self.reason is not None else ""
        return (
            f"TeamMatchResult(round {self.round} {self.x!r}{against}: {self.status.value}{won}{reason}, "
            f"tables {self.tables_won[0]}-{self.tables_won[1]}, small {self.small_points[0]}:{self.small_points[1]})"
        )

    def to_json(self) -> dict[str, Any]:
        x, y = self.x, self.y
        per_team: Callable[[PerSide], dict[str, int]] = (
            (lambda pair: {x: pair[0], y: pair[1]}) if y is not None else (lambda pair: {x: pair[0]})
        )
        return {
            "round": self.round,
            "teams": [x, y],
            "status": self.status.value,
            "winner": self.winner,
            "reason": self.reason.value if self.reason is not None else None,
            "tables_won": per_team(self.tables_won),
            "small_points": per_team(self.small_points),
            "tables": {
                table.value: (outcome.to_json(x, y) if outcome is not None and y is not None else None)
                for table, outcome in zip(Table, self.tables, strict=True)
            },
            "deciding_table": self.deciding_table.value if self.deciding_table is not None else None,
        }


def table_small_points(record: MatchRecord, options: RuleOptions) -> PerSide:
    """A finished table's small points ``(NS, EW)`` as the team match counts them (docs/rules.md §5,
    §11): own level minus the opponents' with a passed A as 15 (``split_13``: 13 ± that difference);
    in a points format the difference of the points instead; a walkover ±``forfeit_margin``, a double
    forfeit −``forfeit_margin`` each. A bye is not a table."""
    base = 13 if options.small_points is SmallPoints.SPLIT_13 else 0
    margin = options.forfeit_margin
    if record.double_forfeit:
        return (base - margin, base - margin)
    if record.forfeit is not None:
        difference = margin if record.forfeit is Side.EW else -margin
    elif options.is_points_format:
        if record.points is None:
            raise bad_input(
                f"A table of round {record.round} in a points format needs its points.",
                f"第 {record.round} 轮积分赛制的牌桌需要填写得分。",
            )
        difference = record.points[0] - record.points[1]
    else:
        ns_level, ew_level = record.levels
        if record.passed_a and record.winner is Side.NS:
            ns_level = PASSED_A_VALUE
        elif record.passed_a and record.winner is Side.EW:
            ew_level = PASSED_A_VALUE
        difference = ns_level - ew_level
    return (base + difference, base - difference)


def _table_outcome(table: Table, record: MatchRecord, options: RuleOptions, x: str, y: str) -> TableOutcome:
    """Table a seats X at N/S, table b seats Y at N/S."""
    ns_team, ew_team = (x, y) if table is Table.A else (y, x)
    ns_small, ew_small = table_small_points(record, options)
    if record.double_forfeit:
        winner_side: Side | None = None
        forfeited: tuple[str, ...] = (x, y)
    elif record.forfeit is not None:
        winner_side = record.forfeit.other
        forfeited = (ns_team if record.forfeit is Side.NS else ew_team,)
    else:
        winner_side = record.winner
        forfeited = ()
    winner = None if winner_side is None else (ns_team if winner_side is Side.NS else ew_team)
    small = (ns_small, ew_small) if table is Table.A else (ew_small, ns_small)
    return TableOutcome(table=table, winner=winner, small_points=small, forfeited=forfeited)


def _bye_result(record: TeamMatchRecord, options: RuleOptions, knockout: bool) -> TeamMatchResult:
    """A bye counts as two tables of ``bye_result`` with ``bye_margin`` small points each (§5, §11); in a
    knockout the team simply goes on."""
    if record.a is not None or record.b is not None or record.extra_deal is not None:
        raise bad_input(
            f"Round {record.round}: team {record.x!r} has a bye, which has no tables.",
            f"第 {record.round} 轮：团体 {record.x!r} 轮空，没有牌桌成绩。",
        )
    base = 13 if options.small_points is SmallPoints.SPLIT_13 else 0
    result = ByeResult.WIN if knockout else options.bye_result
    per_table = {ByeResult.WIN: options.bye_margin, ByeResult.DRAW: 0, ByeResult.LOSS: -options.bye_margin}[result]
    outcome = Outcome(result.value)
    return TeamMatchResult(
        round=record.round,
        x=record.x,
        y=None,
        status=TeamMatchStatus.FINISHED,
        winner=record.x if outcome is Outcome.WIN else None,
        reason=TeamMatchReason.BYE,
        tables_won=(2 if outcome is Outcome.WIN else 0, 0),
        small_points=(2 * (base + per_table), 0),
        tables=(None, None),
        bye_outcome=outcome,
    )


def _walkover_result(record: TeamMatchRecord, options: RuleOptions) -> TeamMatchResult:
    """A team that did not come forfeits both tables (docs/rules.md §5, §11): the other team wins the team
    match by forfeit, two tables to none, each table ``forfeit_margin`` small points for it and against
    the team that did not come; a played team match for both, not a bye."""
    x, y, absent = record.x, record.y, record.walkover
    if y is None or absent not in (x, y):
        raise bad_input(
            f"Round {record.round}: a walkover names the team of the team match that did not come, got {absent!r}.",
            f"第 {record.round} 轮：不战而胜须写明本场未到的团体，收到 {absent!r}。",
        )
    if record.a is not None or record.b is not None or record.extra_deal is not None:
        raise bad_input(
            f"Round {record.round}: team {absent!r} did not come, so no table and no tie-break deal was played.",
            f"第 {record.round} 轮：团体 {absent!r} 未到，没有牌桌成绩，也没有加赛。",
        )
    base = 13 if options.small_points is SmallPoints.SPLIT_13 else 0
    margin = options.forfeit_margin
    present = y if absent == x else x
    per_table: PerSide = (base - margin, base + margin) if absent == x else (base + margin, base - margin)
    tables = tuple(
        TableOutcome(table=table, winner=present, small_points=per_table, forfeited=(absent,)) for table in Table
    )
    return TeamMatchResult(
        round=record.round,
        x=x,
        y=y,
        status=TeamMatchStatus.FINISHED,
        winner=present,
        reason=TeamMatchReason.FORFEIT,
        tables_won=(0, 2) if absent == x else (2, 0),
        small_points=(2 * per_table[0], 2 * per_table[1]),
        tables=(tables[0], tables[1]),
    )


def _stage(value: Stage | str) -> Stage:
    try:
        return Stage(value)
    except ValueError:
        choices = ", ".join(stage.value for stage in Stage)
        raise bad_input(
            f"'stage' must be one of {choices}; got {value!r}.", f"stage 必须是以下之一：{choices}；收到 {value!r}。"
        ) from None


def team_match_decide(
    record: TeamMatchRecord,
    *,
    options: RuleOptions,
    team_options: TeamOptions,
    stage: Stage | str = Stage.SWISS,
) -> TeamMatchResult:
    """Decide a team match from its two tables (docs/rules.md §11; see the module docstring).

    ``options`` are the stage's rule options (small points, forfeit and bye scoring); ``stage`` says
    whether a draw is possible (not in a knockout). Bad input — a team playing itself, a tie-break deal
    where none is due, a bye with tables — is a ``bad_input`` error.
    """
    knockout = _stage(stage) is Stage.KNOCKOUT
    if record.walkover is not None:
        return _walkover_result(record, options)
    if record.y is None:
        return _bye_result(record, options, knockout)
    x, y = record.x, record.y
    where = f"Round {record.round}, {x!r} v {y!r}"
    where_zh = f"第 {record.round} 轮 {x!r} 对 {y!r}"
    if x == y:
        raise bad_input(f"{where}: a team cannot play itself.", f"{where_zh}：团体不能与自己比赛。")
    outcomes = (
        _table_outcome(Table.A, record.a, options, x, y) if record.a is not None else None,
        _table_outcome(Table.B, record.b, options, x, y) if record.b is not None else None,
    )
    tables_won = tuple(sum(1 for o in outcomes if o is not None and o.winner == team) for team in (x, y))
    small = tuple(sum(o.small_points[index] for o in outcomes if o is not None) for index in (0, 1))
    won: PerSide = (tables_won[0], tables_won[1])
    summed: PerSide = (small[0], small[1])

    def result(
        status: TeamMatchStatus,
        winner: str | None = None,
        reason: TeamMatchReason | None = None,
        *,
        deciding: Table | None = None,
        double: bool = False,
    ) -> TeamMatchResult:
        return TeamMatchResult(
            round=record.round,
            x=x,
            y=y,
            status=status,
            winner=winner,
            reason=reason,
            tables_won=won,
            small_points=summed,
            tables=outcomes,
            deciding_table=deciding,
            double_forfeit=double,
        )

    def refuse_extra_deal(why: str, why_zh: str) -> None:
        if record.extra_deal is not None:
            raise bad_input(
                f"{where}: a tie-break deal is recorded, but {why}.", f"{where_zh}：录入了加赛，但{why_zh}。"
            )

    table_a, table_b = outcomes
    if table_a is None or table_b is None:
        refuse_extra_deal("a table is still playing", "仍有牌桌未结束")
        return result(TeamMatchStatus.IN_PROGRESS)

    gave_up = [team for team in (x, y) if team in table_a.forfeited and team in table_b.forfeited]
    if gave_up:
        refuse_extra_deal("the team match was forfeited", "该场团体对抗已弃权")
        if len(gave_up) == 2:
            return result(TeamMatchStatus.FINISHED, None, TeamMatchReason.FORFEIT, double=True)
        return result(TeamMatchStatus.FINISHED, y if gave_up[0] == x else x, TeamMatchReason.FORFEIT)

    def leader(values: PerSide) -> str | None:
        return x if values[0] > values[1] else y if values[1] > values[0] else None

    if team_options.team_decider is TeamDecider.TABLES:
        winner, reason = leader(won), TeamMatchReason.TABLES
        if winner is None:
            winner, reason = leader(summed), TeamMatchReason.SMALL_POINTS
    else:
        winner, reason = leader(summed), TeamMatchReason.TOTAL
    if winner is not None:
        refuse_extra_deal("the team match is not drawn", "该场团体对抗并非平局")
        return result(TeamMatchStatus.FINISHED, winner, reason)
    if not knockout:
        refuse_extra_deal("only a knockout team match plays one", "只有淘汰赛的团体对抗才加赛")
        return result(TeamMatchStatus.FINISHED, None, TeamMatchReason.DRAW)
    # A knockout has no drawn team match: one tie-break deal at table a decides (docs/rules.md §2, §3, §11);
    # at table b if nobody played at table a.
    deciding = Table.B if table_a.forfeited and not table_b.forfeited else Table.A
    if record.extra_deal is None:
        return result(TeamMatchStatus.NEEDS_EXTRA_DEAL, deciding=deciding)
    ns_team = x if deciding is Table.A else y
    winner = ns_team if record.extra_deal is Side.NS else (y if ns_team == x else x)
    return result(TeamMatchStatus.FINISHED, winner, TeamMatchReason.EXTRA_DEAL, deciding=deciding)


# -- team standings -----------------------------------------------------------------------------------

TEAM_TIE_BREAKERS: tuple[str, ...] = ("match_points", "tables_won", "small_points", "head_to_head", "buchholz", "lots")
"""Team standings' order (docs/rules.md §11): team match points → tables won → small points → head-to-head
→ Buchholz → lots."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamStandingRow:
    rank: int
    team: str
    shared: bool
    """The rank is shared with another team (a full tie, no lots drawn)."""
    played: int
    """Team matches against a team (forfeits included; byes are in ``byes``)."""
    wins: int
    draws: int
    losses: int
    byes: int
    match_points: int
    """Team match points (``team_match_points``)."""
    tables_won: int
    small_points: int
    buchholz: int
    head_to_head: int | None
    """Team match points against the teams still tied with it; None where not needed, or where it met
    none of them (a 0 would read as lost meetings)."""
    lots: int | None

    def __repr__(self) -> str:
        shared = "=" if self.shared else ""
        return (
            f"TeamStandingRow({shared}{self.rank} {self.team!r}: {self.match_points} mp, {self.tables_won} tables, "
            f"small {self.small_points}, buchholz {self.buchholz})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "team": self.team,
            "shared": self.shared,
            "played": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "match_points": self.match_points,
            "tables_won": self.tables_won,
            "small_points": self.small_points,
            "buchholz": self.buchholz,
            "head_to_head": self.head_to_head,
            "lots": self.lots,
        }


@dataclass(frozen=True, slots=True)
class TeamStandings:
    rows: tuple[TeamStandingRow, ...]
    lots_seed: int | None

    def row(self, team: str) -> TeamStandingRow:
        for row in self.rows:
            if row.team == team:
                return row
        raise bad_input(f"There is no team {team!r} in these standings.", f"此排名中没有团体 {team!r}。")

    def to_json(self) -> dict[str, Any]:
        return {
            "tie_breakers": list(TEAM_TIE_BREAKERS),
            "lots_seed": self.lots_seed,
            "rows": [row.to_json() for row in self.rows],
        }


class _Tally:
    __slots__ = (
        "buchholz",
        "byes",
        "draws",
        "losses",
        "match_points",
        "meetings",
        "opponents",
        "played",
        "small_points",
        "tables_won",
        "wins",
    )

    def __init__(self) -> None:
        self.played = self.wins = self.draws = self.losses = self.byes = 0
        self.match_points = self.tables_won = self.small_points = self.buchholz = 0
        self.opponents: list[str] = []
        self.meetings: list[tuple[str, int]] = []


def _tallies(
    teams: Iterable[str] | None, results: Sequence[TeamMatchResult], team_options: TeamOptions
) -> dict[str, _Tally]:
    tallies: dict[str, _Tally] = {}
    closed = teams is not None
    for team in teams or ():
        if team in tallies:
            raise bad_input(f"Team {team!r} is listed twice.", f"团体 {team!r} 重复。")
        tallies[team] = _Tally()
    seen: set[tuple[int, str]] = set()

    def tally(team: str, round_number: int) -> _Tally:
        if (round_number, team) in seen:
            raise bad_input(
                f"Team {team!r} has two team matches in round {round_number}.",
                f"团体 {team!r} 在第 {round_number} 轮有两场团体对抗。",
            )
        seen.add((round_number, team))
        found = tallies.get(team)
        if found is None:
            if closed:
                raise bad_input(
                    f"Team {team!r} in round {round_number} is not one of the stage's teams.",
                    f"第 {round_number} 轮的团体 {team!r} 不在本阶段的团体名单中。",
                )
            found = tallies[team] = _Tally()
        return found

    points = team_options.team_match_points
    worth = {Outcome.WIN: points.win, Outcome.DRAW: points.draw, Outcome.LOSS: points.loss}
    for result in results:
        if not result.finished:
            continue  # a team match counts once both tables (and any tie-break deal) are done
        sides = [(result.x, 0)] if result.y is None else [(result.x, 0), (result.y, 1)]
        for team, index in sides:
            t = tally(team, result.round)
            outcome = result.outcome_of(team)
            earned = worth[outcome]
            t.match_points += earned
            t.tables_won += result.tables_won[index]
            t.small_points += result.small_points[index]
            if outcome is Outcome.WIN:
                t.wins += 1
            elif outcome is Outcome.DRAW:
                t.draws += 1
            else:
                t.losses += 1
            if result.y is None:
                t.byes += 1
                continue
            opponent = result.y if index == 0 else result.x
            t.played += 1
            t.opponents.append(opponent)
            t.meetings.append((opponent, earned))
    for t in tallies.values():
        t.buchholz = sum(tallies[opponent].match_points for opponent in t.opponents)
    return tallies


def _runs(group: list[str], value: Callable[[str], Any]) -> list[list[str]]:
    """``group`` ordered by ``value``, highest first, cut into runs of equal value."""
    ordered = sorted(group, key=value, reverse=True)
    runs: list[list[str]] = []
    for team in ordered:
        if runs and value(runs[-1][0]) == value(team):
            runs[-1].append(team)
        else:
            runs.append([team])
    return runs


def team_standings_rank(
    *,
    teams: Sequence[str] | None = None,
    results: Sequence[TeamMatchResult],
    team_options: TeamOptions,
    lots_seed: int | None = None,
) -> TeamStandings:
    """Rank teams of a Swiss or round-robin team match stage (docs/rules.md §11): team match points →
    tables won → small points summed → head-to-head → Buchholz → lots.

    ``results`` come from :func:`team_match_decide`; only finished team matches count. ``teams``: every
    team of the stage (those without a result are ranked too, and a result naming another is refused);
    None takes the teams of the results. With ``lots_seed`` full ties are broken by lots drawn from it
    (reproducible; the lot is in the row), without it they share a rank.
    """
    tallies = _tallies(teams, results, team_options)
    names = sorted(tallies)
    lots: dict[str, int] | None = None
    if lots_seed is not None:
        drawn = list(names)
        random.Random(lots_seed).shuffle(drawn)
        lots = {team: number for number, team in enumerate(drawn, 1)}
    head_to_head: dict[str, int] = {}
    lots_used: dict[str, int] = {}

    def composite(team: str) -> tuple[int, int, int]:
        t = tallies[team]
        return (t.match_points, t.tables_won, t.small_points)

    groups = _runs(names, composite) if names else []
    refined: list[list[str]] = []
    for group in groups:
        if len(group) == 1:
            refined.append(group)
            continue
        members = set(group)
        scores = {
            team: sum(earned for opponent, earned in tallies[team].meetings if opponent in members) for team in group
        }
        for team in group:
            if any(opponent in members for opponent, _ in tallies[team].meetings):
                head_to_head[team] = scores[team]
        for run in _runs(group, scores.__getitem__):
            refined.extend(_runs(run, lambda team: tallies[team].buchholz) if len(run) > 1 else [run])
    groups = refined
    if lots is not None:
        drawn_lots = lots
        final: list[list[str]] = []
        for group in groups:
            if len(group) > 1:
                lots_used.update({team: drawn_lots[team] for team in group})
                final.extend([team] for team in sorted(group, key=drawn_lots.__getitem__))
            else:
                final.append(group)
        groups = final

    rows: list[TeamStandingRow] = []
    position = 1
    for group in groups:
        shared = len(group) > 1
        for team in group:
            t = tallies[team]
            rows.append(
                TeamStandingRow(
                    rank=position,
                    team=team,
                    shared=shared,
                    played=t.played,
                    wins=t.wins,
                    draws=t.draws,
                    losses=t.losses,
                    byes=t.byes,
                    match_points=t.match_points,
                    tables_won=t.tables_won,
                    small_points=t.small_points,
                    buchholz=t.buchholz,
                    head_to_head=head_to_head.get(team),
                    lots=lots_used.get(team),
                )
            )
        position += len(group)
    return TeamStandings(rows=tuple(rows), lots_seed=lots_seed)


def team_results_decide(
    records: Iterable[TeamMatchRecord],
    *,
    options: RuleOptions,
    team_options: TeamOptions,
    stage: Stage | str = Stage.SWISS,
) -> tuple[TeamMatchResult, ...]:
    """Every team match of ``records`` decided (:func:`team_match_decide`)."""
    return tuple(
        team_match_decide(record, options=options, team_options=team_options, stage=stage) for record in records
    )
