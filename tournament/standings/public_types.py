"""The public pages' values: small immutable dataclasses (picklable, so they cache in Redis as
they are), built by :mod:`tournament.standings.public` and cached by
:mod:`tournament.standings.public_cache`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from datetime import datetime
from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

from scoring.snapshot import DealSnapshot
from tournament import labels
from tournament.htmx import HtmxHttpRequest
from tournament.locale import BothLanguages
from tournament.matches.models import MatchStatus, RoundStatus, StageFormat
from tournament.registration.models import TournamentStatus
from tournament.rules import RuleLine

if TYPE_CHECKING:
    from tournament.standings.teams import StageTeamRead

PUBLIC_ROUND_STATUSES = (
    RoundStatus.PUBLISHED,
    RoundStatus.RUNNING,
    RoundStatus.TIME_CALLED,
    RoundStatus.FINISHED,
)
OPEN_ROUND_STATUSES = (RoundStatus.PUBLISHED, RoundStatus.RUNNING, RoundStatus.TIME_CALLED)
FIND_LIMIT = 20
"""Find-my-table answers at most this many seats (a one-character surname matches many)."""
QUERY_MAX = 40

NO_TITLE = BothLanguages(en="", zh="")

_FIELD_VALUES: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


class PickledByFields:
    """A frozen dataclass with slots pickled as a call of its class with its fields' values, in order.
    Otherwise it is pickled through Python-level state functions that list its fields for each
    object; the builds of a 5,000-pair event (its standings' lines, its draw's rows and their sides)
    are pickled by the worker that builds them and unpickled by every other, a few times faster so."""

    __slots__ = ()

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        cls = type(self)
        values = _FIELD_VALUES.get(cls)
        if values is None:
            # of two fields or more: attrgetter then gives their values as a tuple
            values = _FIELD_VALUES[cls] = attrgetter(*[field.name for field in fields(cast(Any, self))])
        return cls, values(self)


class PublicHttpRequest(HtmxHttpRequest):
    """A public page's request, with the tournament's cache versions read once for it (the page's
    first step, ``views._overview``, notes them)."""

    public_version: int
    standings_version: int
    seating_version: int
    common_version: int
    own_version: int
    """The own version of the pair or match the page shows (``cache.own_key``), where it has one."""
    own_made: bool
    """Whether this request created the own version (its first view since the version was lost or never
    made): nothing is filed under it yet."""
    standings_markers: dict[str, Any]
    """The markers of the standings builds a pair's ranks are read from, read with the versions
    (``cache.public_versions_get``'s ``markers``), by build key; a build not among them is read apart."""


# -- values ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StageInfo:
    id: int
    name: str
    format: str
    order: int
    profile: str = ""
    """The profile the stage was created from (shown by its title)."""
    rules: tuple[RuleLine, ...] = ()
    """The options in force, as stored with the stage."""
    rules_title: BothLanguages = NO_TITLE
    """The rules in force summarised (``games.shown_rules.stage_rules_title``), the rules' heading, in
    both languages: the overview is cached once for every visitor, whatever their language."""
    advancement_changed: bool = False
    """A corrected result of the stage it was advanced from changes who advances, and the organiser
    has not decided yet (``tournament.draw.advancement_flags``)."""
    rounds_changed: tuple[int, ...] = ()
    """Rounds of this stage drawn from standings a correction of an earlier round changed, the
    organiser not having decided yet (``tournament.draw.round_flags``)."""
    team_total: bool = False
    """The stage ranks teams beside its entrants (docs/rules.md §11): it has a team standings page."""
    team_match: bool = False
    """The stage is played between teams (docs/rules.md §11): its team standings are its team matches'."""

    @property
    def is_knockout(self) -> bool:
        return self.format == StageFormat.KNOCKOUT


@dataclass(frozen=True, slots=True)
class RoundInfo:
    id: int
    stage_id: int
    stage_name: str
    stage_format: str
    number: int
    status: str
    published_at: datetime | None
    started_at: datetime | None
    ends_at: datetime | None
    time_called_at: datetime | None
    paused_at: datetime | None = None
    """The organiser paused the round's clock (shown as 已暂停; ``ends_at`` moves on when resumed)."""
    knockout_pairs: int | None = None
    """The pairs still in at a knockout round (``round_knockout_pairs``), for its name."""
    stage_entrants: tuple[int, ...] = ()
    """The pairs advanced into the round's stage from an earlier one (none: the stage took the field)."""
    team_match: bool = False
    """The round is played between teams (docs/rules.md §11): its tables are team matches' tables."""

    @property
    def name(self) -> str:
        """决赛, 半决赛 … for a knockout round, else 第 N 轮, in the reader's language (``labels``)."""
        return labels.round_name(number=self.number, knockout_pairs=self.knockout_pairs)

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_ROUND_STATUSES


@dataclass(frozen=True, slots=True)
class RoundProgress:
    tables: int
    finished: int
    running: int


@dataclass(frozen=True, slots=True)
class TournamentOverview:
    """The tournament home's public part: stages, published rounds, the round being played."""

    id: int
    name: str
    game: str
    status: str
    venue: str
    starts_on: Any
    stages: tuple[StageInfo, ...]
    rounds: tuple[RoundInfo, ...]
    """Published rounds, stage by stage, in order."""
    current_rounds: tuple[RoundInfo, ...]
    """Each stage's newest published round if it is not finished (usually one), newest stage
    first; else the last published round."""
    progress: RoundProgress | None
    """Results of the first current round."""

    @property
    def current_round(self) -> RoundInfo | None:
        return self.current_rounds[0] if self.current_rounds else None

    def stage(self, stage_id: int) -> StageInfo | None:
        return next((stage for stage in self.stages if stage.id == stage_id), None)

    def round(self, round_id: int) -> RoundInfo | None:
        return next((round_ for round_ in self.rounds if round_.id == round_id), None)

    def rounds_of(self, stage_id: int) -> tuple[RoundInfo, ...]:
        return tuple(round_ for round_ in self.rounds if round_.stage_id == stage_id)

    @property
    def ranked_stages(self) -> tuple[StageInfo, ...]:
        """Stages with a standings table (Swiss, round robin)."""
        return tuple(stage for stage in self.stages if not stage.is_knockout)

    @property
    def team_stages(self) -> tuple[StageInfo, ...]:
        """Stages that rank teams (a team total or team matches, docs/rules.md §11)."""
        return tuple(stage for stage in self.stages if stage.team_total or stage.team_match)

    @property
    def knockout_stages(self) -> tuple[StageInfo, ...]:
        return tuple(stage for stage in self.stages if stage.is_knockout)

    @property
    def has_placings(self) -> bool:
        """Whether the final placings page has a stage to place by: a knockout, or (no knockout) a points
        stage of a finished event (Dou Dizhu)."""
        if self.knockout_stages:
            return True
        finished = self.status in (TournamentStatus.FINISHED, TournamentStatus.ARCHIVED)
        return finished and any(stage.format == StageFormat.POINTS for stage in self.stages)


@dataclass(frozen=True, slots=True)
class PublicSide(PickledByFields):
    """One pair at a table as shown: its id (for links), name and number in the event ("#12", issue
    17); ``None`` for a bye's empty side."""

    pair_id: int | None
    name: str
    number: int | None = None


@dataclass(frozen=True, slots=True)
class TeamTable(PickledByFields):
    """The team match a table is one of (docs/rules.md §11: table a seats team X at N/S, table b team Y),
    with the team match's result as the rules core decides it."""

    id: int
    number: int
    """The team match's place in the round."""
    table: str
    """``a`` or ``b``; empty for a bye's (or a walkover's) pairs."""
    x: str
    y: str
    tables_won: tuple[int, int]
    small_points: tuple[int, int]
    winner: str
    """The winning team's name; empty while the team match is played, or drawn."""
    finished: bool
    opens: bool = False
    """The first row of the team match (its table a, or a bye's first pair): the team match's heading."""
    walkover_over: str = ""
    """A walkover: the withdrawn team X was due to meet (a forfeit win, not a bye)."""
    on_small_points: bool = False
    """Won with the tables level, on both tables' small points (the stage's decider): the line says so."""

    @property
    def bye(self) -> bool:
        """A bye or a walkover: no tables; the rows are team X's two pairs (its line-up), each on its own."""
        return self.table == ""

    @property
    def ns_team(self) -> str:
        return self.y if self.table == "b" else self.x

    @property
    def ew_team(self) -> str:
        return self.x if self.table == "b" else self.y


@dataclass(frozen=True, slots=True)
class DrawRow(PickledByFields):
    match_id: int
    table: int | None
    area: str
    ns: PublicSide
    ew: PublicSide
    status: str
    winner: str
    levels: tuple[int, int] | None
    points: tuple[int, int] | None
    bracket_slot: int | None
    walkover_over: str = ""
    """A walkover: the withdrawn pair this one was due to meet (a forfeit win, not a bye)."""
    time_up: tuple[str, str] | None = None
    """Once time is called: what the table does next (English, Chinese), from the rules core."""
    reason: str = ""
    """Why the winner won (the rules core's ``Reason``): a forfeit reads as one, not as its levels."""
    third_place: bool = False
    """A knockout's third-place match, played beside the final (named 三四名决赛, not the final)."""
    team: TeamTable | None = None
    """A team round's table: its team match (None: a round of pairs)."""

    @property
    def is_bye(self) -> bool:
        return self.ew.pair_id is None


@dataclass(frozen=True, slots=True)
class TeamSeat:
    """The team match a found seat's table is one of (docs/rules.md §11)."""

    number: int
    table: str
    """``a`` or ``b``; empty for a bye's (or a walkover's) pairs."""
    x: str
    y: str
    id: int = 0
    """The team match's id (its public page)."""


@dataclass(frozen=True, slots=True)
class SeatFound:
    """A find-my-table answer: where a player (or their pair) sits in a current round."""

    player_name: str
    pair_id: int
    pair_name: str
    round_id: int
    round_number: int
    stage_name: str
    match_id: int
    table: int | None
    area: str
    side: str
    opponent: PublicSide
    pair_number: int | None = None
    """The pair's number in the event ("#12")."""
    round_knockout_pairs: int | None = None
    """The pairs still in at a knockout round, for the round's name (``labels.round_name``)."""
    team_match: TeamSeat | None = None
    """A team round: the team match the pair's table is one of."""
    team_bye: str = ""
    """A team round's bye (no table): the pair's team, the one with the bye."""
    walkover: bool = False
    """No table because the opponent (in a team round, the team's) withdrew: a forfeit win, not a bye."""


@dataclass(frozen=True, slots=True)
class Column:
    """A tie-break column of a stage, titled by the rules core's metric registry."""

    name: str
    title: str
    title_zh: str


@dataclass(frozen=True, slots=True)
class StandingLine(PickledByFields):
    rank: int
    shared: bool
    pair_id: int
    pair_name: str
    pair_number: int
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    values: tuple[int | None, ...]
    """The stage's tie-break values, in the order of ``StageTable.columns``."""
    previous_rank: int | None
    """Rank before the latest round with results (None: no earlier round)."""
    group: int | None = None
    """A round robin played in groups: the pair's group (1, 2, …); ``rank`` is then within it."""
    withdrawn: bool = False
    """The pair withdrew (退赛): listed after the active pairs of its group, it does not advance."""
    provisional: bool = False
    """A result counted for the pair awaits sign-off (待确认; the event's policy)."""

    @property
    def movement(self) -> int | None:
        """Places gained (> 0) or lost (< 0) since the previous round."""
        return None if self.previous_rank is None else self.previous_rank - self.rank


@dataclass(frozen=True, slots=True)
class StageTable:
    stage: StageInfo
    columns: tuple[Column, ...]
    lines: tuple[StandingLine, ...]
    latest_round: int | None
    """The latest round with a counted result; movement is measured against the one before."""
    teams: StageTeamRead | None = None
    """The stage ranks teams beside its pairs (``team_total``): this ranking as the team total reads it
    (the team standings are derived from it, :func:`tournament.standings.teams.team_total_of`)."""

    def line_of(self, pair_id: int) -> StandingLine | None:
        return next((line for line in self.lines if line.pair_id == pair_id), None)

    @property
    def no_earlier_round(self) -> bool:
        """Only the first round has results: no line moved, the page says so once (not per line)."""
        return self.latest_round is not None and self.latest_round <= 1

    @property
    def grouped(self) -> bool:
        return any(line.group is not None for line in self.lines)


@dataclass(frozen=True, slots=True)
class MatchPage:
    id: int
    tournament_id: int
    stage_id: int
    stage_name: str
    stage_format: str
    round_id: int
    round_number: int
    table: int | None
    area: str
    ns: PublicSide
    ew: PublicSide
    status: str
    winner: str
    reason: str
    levels: tuple[int, int] | None
    a_failures: tuple[int, int] | None
    points: tuple[int, int] | None
    games: tuple[int, int] | None
    next_level: int | None
    next_sets_level: str | None
    deals: tuple[DealSnapshot, ...]
    """The rules core's records of the deals (``Match.snapshot.deals``), shown in the words of
    ``game`` (``tournament.games``: ``GameKind.deal_texts``, in ``public_tags.deal_rows``)."""
    adjustments: tuple[Mapping[str, Any], ...]
    started_at: datetime | None
    clock_ends_at: datetime | None
    bracket_slot: int | None
    paused_at: datetime | None = None
    time_up: tuple[str, str] | None = None
    """Once time is called: what the table does next (English, Chinese), from the rules core."""
    round_knockout_pairs: int | None = None
    """The pairs still in at a knockout round (``round_knockout_pairs``), for the round's name."""
    game: str = "guandan"
    """The game the match is played under (its event's, ``Tournament.game``): the key of its registry entry."""
    walkover_over: str = ""
    """A walkover (不战而胜): the withdrawn pair this one was due to meet (a forfeit win, not a bye)."""

    @property
    def is_bye(self) -> bool:
        return self.ew.pair_id is None

    @property
    def round_name(self) -> str:
        """决赛, 半决赛 … for a knockout round, else 第 N 轮 (``labels.round_name``)."""
        return labels.round_name(number=self.round_number, knockout_pairs=self.round_knockout_pairs)

    def side_of(self, pair_id: int) -> str:
        return "NS" if pair_id == self.ns.pair_id else "EW"


@dataclass(frozen=True, slots=True)
class PairView:
    id: int
    number: int
    """The pair's number in the event (1…N), as the draw and the sheets show it."""
    tournament_id: int
    name: str
    status: str
    players: tuple[tuple[str, str], ...]
    """(name, department) — nothing private (no employee number, no phone)."""
    ranks: tuple[tuple[StageInfo, StandingLine], ...]
    matches: tuple[MatchPage, ...]


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """A box of the bracket: a drawn match, or a place still to be drawn (``match_id`` None)."""

    match_id: int | None
    position: int
    table: int | None
    ns: PublicSide | None
    ew: PublicSide | None
    is_bye: bool
    status: str
    winner: str
    levels: tuple[int, int] | None
    points: tuple[int, int] | None
    third_place: bool = False
    next_sets_level: str | None = None
    """While the match runs: the side whose level the next deal is played at (Tractor: the declarer)."""
    confirmed: bool = False
    """The result is signed off (a bye always is): only then does its winner go on. An entered
    winner not yet confirmed is shown as awaiting sign-off (待确认)."""
    reason: str = ""
    """Why the winner won: a forfeit reads as one (弃权), not as its levels."""
    walkover_over: str = ""
    """A walkover (不战而胜): the withdrawn pair this one was due to meet (a forfeit win, not a bye)."""

    @property
    def awaiting_sign_off(self) -> bool:
        return not self.confirmed and self.winner in ("NS", "EW")

    @property
    def is_placeholder(self) -> bool:
        return self.match_id is None

    @property
    def is_live(self) -> bool:
        return self.status == MatchStatus.RUNNING


@dataclass(frozen=True, slots=True)
class BracketRound:
    number: int
    matches: tuple[BracketMatch, ...]
    drawn: bool
    remaining: int
    """Pairs still in when this round starts: 2 is the final, 4 the semi-finals, …"""


@dataclass(frozen=True, slots=True)
class Bracket:
    stage: StageInfo
    rounds: tuple[BracketRound, ...]
    third_place: BracketMatch | None
    champion: PublicSide | None
    byes: int = 0
