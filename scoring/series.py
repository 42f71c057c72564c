"""A series of events (系列赛 / 年度积分, docs/rules.md §12.3) and a rating across it (§12.4).

Pure values in, pure values out: the Django side feeds each finished event's final placings of players
(keyed by the roster's employee number) and the series' confirmed matches; this module says what the
points table means, ranks the series and rates the players.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from openskill.models import PlackettLuce

from scoring.errors import ErrorCode, ScoringError

POINTS_MAX = 10_000
"""A place's points are at most this (a table is a few numbers a person types)."""


@dataclass(frozen=True, slots=True)
class PointsTable:
    """Series points by final placing: ``by_place[0]`` for 1st, ``by_place[1]`` for 2nd, …; every finisher
    placed after the table receives ``others`` (docs/rules.md §12.3)."""

    by_place: tuple[int, ...]
    others: int = 0

    def __post_init__(self) -> None:
        points_table_check(self.by_place, self.others)

    def points(self, place: int) -> int:
        """The points for final place ``place`` (1 = first)."""
        if place < 1:
            raise ScoringError(ErrorCode.BAD_INPUT, f"place {place} is not a place", message_zh=f"名次 {place} 无效")
        return self.by_place[place - 1] if place <= len(self.by_place) else self.others

    def to_json(self) -> dict[str, object]:
        return {"places": {str(place): points for place, points in enumerate(self.by_place, 1)}, "others": self.others}

    @classmethod
    def from_json(cls, data: object) -> PointsTable:
        """A table as stored or sent: ``{"places": {"1": 10, "2": 8, …}, "others": 1}``; places must run 1, 2, 3, …
        without a gap. Raises :class:`ScoringError` for anything else."""
        if not isinstance(data, Mapping):
            raise ScoringError(
                ErrorCode.BAD_INPUT, "a points table is an object with places and others", message_zh="积分表格式不对"
            )
        places = data.get("places", {})
        if not isinstance(places, Mapping):
            raise ScoringError(
                ErrorCode.BAD_INPUT, "places is an object of place → points", message_zh="积分表格式不对"
            )
        numbered: dict[int, object] = {}
        for key, value in places.items():
            try:
                numbered[int(str(key))] = value
            except ValueError as error:
                raise ScoringError(
                    ErrorCode.BAD_INPUT, f"place {key!r} is not a whole number", message_zh=f"名次 {key!r} 不是整数"
                ) from error
        expected = list(range(1, len(numbered) + 1))
        if sorted(numbered) != expected:
            missing = sorted(set(expected) - set(numbered)) or [max(numbered, default=0)]
            raise ScoringError(
                ErrorCode.BAD_INPUT,
                f"the places must run 1, 2, 3, … without a gap (see place {missing[0]})",
                message_zh=f"名次必须从 1 开始连续，不能有空缺（见第 {missing[0]} 名）",
            )
        return cls(tuple(_points(numbered[place]) for place in expected), _points(data.get("others", 0)))


def _points(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError(
            ErrorCode.BAD_INPUT, f"points must be whole numbers, not {value!r}", message_zh="积分必须是整数"
        )
    return value


def points_table_check(by_place: Sequence[int], others: int) -> None:
    """Refuse a table with negative points, points above :data:`POINTS_MAX`, no place at all, or a worse
    place earning more than a better one (docs/rules.md §12.3)."""
    if not by_place:
        raise ScoringError(
            ErrorCode.BAD_INPUT,
            "the table needs points for 1st place at least",
            message_zh="积分表至少要有第 1 名的积分",
        )
    for points in (*by_place, others):
        if isinstance(points, bool) or not isinstance(points, int):
            raise ScoringError(
                ErrorCode.BAD_INPUT, f"points must be whole numbers, not {points!r}", message_zh="积分必须是整数"
            )
        if points < 0:
            raise ScoringError(
                ErrorCode.BAD_INPUT, "series points are never negative", message_zh="系列赛积分不能为负数"
            )
        if points > POINTS_MAX:
            raise ScoringError(
                ErrorCode.BAD_INPUT, f"at most {POINTS_MAX} points a place", message_zh=f"每个名次最多 {POINTS_MAX} 分"
            )
    ordered = [*by_place, others]
    for place, (better, worse) in enumerate(pairwise(ordered), 2):
        if worse > better:
            raise ScoringError(
                ErrorCode.BAD_INPUT,
                f"place {place} would earn more than place {place - 1}",
                message_zh=f"第 {place} 名的积分不能高于第 {place - 1} 名",
            )


@dataclass(frozen=True, slots=True)
class EventPlacing:
    """One player's final place in one event of the series."""

    event: str
    player: str
    """The player's key across events: their employee number (docs/rules.md §12.3)."""
    place: int


@dataclass(frozen=True, slots=True)
class SeriesRow:
    rank: int
    player: str
    points: int
    firsts: int
    events: int
    by_event: Mapping[str, int] = field(default_factory=dict)
    lots: bool = False
    """Placed by lots: level with a neighbour on points, 1st places and events played."""


def series_ranking(*, placings: Iterable[EventPlacing], table: PointsTable, lots_seed: int = 0) -> list[SeriesRow]:
    """The series ranking (docs/rules.md §12.3): each player's points summed over the events; ties by more 1st
    places, then more events played, then lots (``lots_seed``: the same seed, the same order). A player placed
    twice in one event is refused."""
    by_place, others = table.by_place, table.others
    by_event: dict[str, dict[str, int]] = defaultdict(dict)
    firsts: dict[str, int] = defaultdict(int)
    for placing in placings:
        earned_by = by_event[placing.player]
        if placing.event in earned_by:
            raise ScoringError(
                ErrorCode.BAD_INPUT,
                f"{placing.player} is placed twice in event {placing.event}",
                message_zh=f"{placing.player} 在同一赛事中出现两次",
            )
        place = placing.place
        if place < 1:
            table.points(place)  # refuses it
        earned_by[placing.event] = by_place[place - 1] if place <= len(by_place) else others
        if place == 1:
            firsts[placing.player] += 1
    lots = random.Random(lots_seed)
    level = {
        player: (-sum(earned.values()), -firsts[player], -len(earned)) for player, earned in sorted(by_event.items())
    }
    draw = {player: lots.random() for player in level}
    order = sorted(level, key=lambda player: (level[player], draw[player]))
    rows: list[SeriesRow] = []
    last = len(order) - 1
    for index, player in enumerate(order):
        mine = level[player]
        tied = (index > 0 and level[order[index - 1]] == mine) or (index < last and level[order[index + 1]] == mine)
        rows.append(
            SeriesRow(
                rank=index + 1,
                player=player,
                points=-mine[0],
                firsts=-mine[1],
                events=-mine[2],
                by_event=by_event[player],
                lots=tied,
            )
        )
    return rows


# -- the rating ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A confirmed match between two teams of players (a pair each in Guandan): ``first`` won, or drew when
    ``drawn`` (docs/rules.md §12.4)."""

    first: tuple[str, ...]
    second: tuple[str, ...]
    drawn: bool = False


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating: μ and σ of the Weng–Lin Plackett–Luce model; shown as μ − 3σ (``shown``)."""

    mu: float
    sigma: float
    matches: int

    @property
    def shown(self) -> float:
        return self.mu - 3 * self.sigma


def ratings_rebuild(matches: Iterable[RatedMatch]) -> dict[str, Rating]:
    """Every player's rating from scratch, the matches applied in the order given (the order their results
    were confirmed); the same matches in the same order give the same numbers."""
    model = PlackettLuce()
    current: dict[str, object] = {}
    played: dict[str, int] = defaultdict(int)
    for match in matches:
        if not match.first or not match.second or set(match.first) & set(match.second):
            raise ScoringError(
                ErrorCode.BAD_INPUT,
                "a rated match is two teams of different players",
                message_zh="计分比赛必须是两队不同的选手",
            )
        teams = [
            [current.get(player) or model.rating(name=player) for player in team]
            for team in (match.first, match.second)
        ]
        rated = model.rate(teams, ranks=[1, 1] if match.drawn else [1, 2])  # type: ignore[arg-type]
        for team, players in zip(rated, (match.first, match.second), strict=True):
            for player, rating in zip(players, team, strict=True):
                current[player] = rating
                played[player] += 1
    return {
        player: Rating(mu=rating.mu, sigma=rating.sigma, matches=played[player])  # type: ignore[attr-defined]
        for player, rating in current.items()
    }
