"""Team options: the stage options that make a stage a team event (docs/rules.md §11).

A stage's rule options (:class:`scoring.options.RuleOptions`) say how a table plays and how pairs are
ranked; whether the stage *also* ranks teams, or is played *between* teams, is a choice about the stage
itself, given with its other stage options (a round robin's groups, a bracket's seeding). These are:

- ``team_total`` (集体比赛, ``false`` by default): beside the stage's ranking of pairs (Dou Dizhu: of
  players) a ranking of teams that sums their members' results (:func:`scoring.teams.team_total_rank`);
- ``team_count``: ``"all"`` (the default) or a number k: only the best k members of a team count;
- ``team_match`` (团体对抗, ``false`` by default): the stage's entrants are teams of two pairs, each team
  match played at two tables (:mod:`scoring.team_matches`);
- ``team_decider``: ``"tables"`` (the default: more tables won, then the sum of small points) or
  ``"total"`` (the sum of small points alone);
- ``team_match_points``: what a team match win, draw and loss score in team standings (default
  ``{"win": 2, "draw": 1, "loss": 0}``);
- ``team_knockout_decider``: how a drawn team match of a knockout is decided; one way so far,
  ``"table_a_extra_deal"``.

:meth:`TeamOptions.from_json` reads them (other stage options are left to their owner) and refuses bad
values and combinations with a ``bad_input`` :class:`~scoring.errors.ScoringError` naming the option, in
English and Chinese; :meth:`TeamOptions.check_stage` refuses what a stage of a given kind and game cannot
do (a team match of Dou Dizhu, whose entrants are individuals at three-seat tables).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeVar

from scoring.errors import bad_input
from scoring.options import Game, MatchPoints, RuleOptions, Stage

__all__ = [
    "TEAM_OPTIONS",
    "TeamDecider",
    "TeamKnockoutDecider",
    "TeamOptions",
    "team_option_misplaced",
]


class TeamDecider(str, Enum):
    """How a team match's two tables decide it (docs/rules.md §11)."""

    TABLES = "tables"
    """The team that won more tables wins; equal tables: the sum of the two tables' small points (points
    formats: the points); still equal, a draw (the default)."""
    TOTAL = "total"
    """The sum of the two tables' small points (points formats: the points) alone; equal, a draw."""


class TeamKnockoutDecider(str, Enum):
    """How a knockout team match that the decider leaves drawn is settled (docs/rules.md §11)."""

    TABLE_A_EXTRA_DEAL = "table_a_extra_deal"
    """One tie-break deal at table a (docs/rules.md §2, §3); its winner's team wins (the default)."""


TEAM_OPTIONS: tuple[str, ...] = (
    "team_total",
    "team_count",
    "team_match",
    "team_decider",
    "team_match_points",
    "team_knockout_decider",
)
"""The team options by name, as a stage's options and the command line spell them."""

_TOTAL_ONLY = ("team_count",)
_MATCH_ONLY = ("team_decider", "team_match_points", "team_knockout_decider")

E = TypeVar("E", bound=Enum)


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamOptions:
    """A stage's team options (docs/rules.md §11); the defaults make an ordinary stage of pairs.

    Validated on construction: ``team_total`` and ``team_match`` exclude each other, and an option of
    one of them is refused unless that one is chosen (as ``deals`` is refused outside the fixed-deal
    formats), so a setting that would do nothing never goes unnoticed.
    """

    team_total: bool = False
    team_count: int | None = None
    """The best k members count; None: all of them."""
    team_match: bool = False
    team_decider: TeamDecider = TeamDecider.TABLES
    team_match_points: MatchPoints = field(default_factory=MatchPoints)
    team_knockout_decider: TeamKnockoutDecider = TeamKnockoutDecider.TABLE_A_EXTRA_DEAL

    def __post_init__(self) -> None:
        if self.team_total and self.team_match:
            raise bad_input(
                "A stage is either ranked by team totals (team_total) or played between teams (team_match), "
                "not both: a team match stage already ranks teams.",
                "一个阶段要么按团体总分排名（team_total），要么是团体对抗（team_match），不能两者都选：团体对抗本身就给团体排名。",
            )
        if self.team_count is not None and self.team_count < 1:
            raise bad_input(
                f"Option 'team_count' must be \"all\" or a number of members, 1 or more; got {self.team_count}.",
                f'选项 team_count 必须是 "all" 或计分人数（至少 1）；收到 {self.team_count}。',
            )
        if not self.team_total:
            for name in _TOTAL_ONLY:
                if getattr(self, name) != _DEFAULTS[name]:
                    raise bad_input(
                        f"Option {name!r} only applies with team_total (a team ranking by members' results).",
                        f"选项 {name} 只适用于团体总分（team_total）。",
                    )
        if not self.team_match:
            for name in _MATCH_ONLY:
                if getattr(self, name) != _DEFAULTS[name]:
                    raise bad_input(
                        f"Option {name!r} only applies with team_match (teams of two pairs at two tables).",
                        f"选项 {name} 只适用于团体对抗（team_match）。",
                    )
        mp = self.team_match_points
        if not mp.win >= mp.draw >= mp.loss:
            raise bad_input(
                "Team match points must satisfy win ≥ draw ≥ loss.", "团体对抗的场分必须满足 胜 ≥ 平 ≥ 负。"
            )

    @property
    def is_team_event(self) -> bool:
        """Whether the stage ranks teams at all (a team total or team matches)."""
        return self.team_total or self.team_match

    def check_stage(self, *, stage: Stage | str, rules: RuleOptions) -> None:
        """Refuse what a stage of this kind and game cannot do (docs/rules.md §11): team matches are
        played by pairs at four-seat tables, so not in Dou Dizhu nor in its points stages; a team total
        works beside any stage of any game."""
        kind = _enum(Stage, stage, "stage")
        if self.team_match and (rules.game is Game.DOUDIZHU or kind is Stage.POINTS):
            raise bad_input(
                "Team matches are played by pairs at four-seat tables; Dou Dizhu players can only be ranked "
                "by team totals (team_total).",
                "团体对抗由搭档在四人桌进行；斗地主只能按团体总分（team_total）给团体排名。",
            )

    def to_json(self) -> dict[str, Any]:
        """Every team option by name; :meth:`from_json` reads it back to equal options."""
        return {
            "team_total": self.team_total,
            "team_count": "all" if self.team_count is None else self.team_count,
            "team_match": self.team_match,
            "team_decider": self.team_decider.value,
            "team_match_points": self.team_match_points.to_json(),
            "team_knockout_decider": self.team_knockout_decider.value,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, others: bool = False) -> TeamOptions:
        """Team options from their JSON form (names as in :data:`TEAM_OPTIONS`; missing ones take their
        defaults). ``others``: the mapping is a whole stage's options, whose other keys belong to the
        stage's owner and are left alone; otherwise an unknown name is refused."""
        if not isinstance(data, Mapping):
            raise bad_input(
                "Team options must be a JSON object of option names to values.",
                "团体选项必须是“选项名: 值”的 JSON 对象。",
            )
        if not others:
            unknown = sorted(name for name in data if name not in TEAM_OPTIONS)
            if unknown:
                known = ", ".join(TEAM_OPTIONS)
                raise bad_input(
                    f"Unknown team option {unknown[0]!r}; the team options are: {known}.",
                    f"没有团体选项 {unknown[0]!r}；可用选项：{known}。",
                )
        values: dict[str, Any] = {}
        for name in TEAM_OPTIONS:
            if name in data:
                values[name] = _PARSERS[name](data[name])
        return cls(**values)


def team_option_misplaced(name: str) -> None:
    """Refuse a team option given among the rule options (``rules``) with a message that says where it
    belongs; other names pass (:meth:`scoring.options.RuleOptions.with_overrides` asks this before
    calling a name unknown)."""
    if name in TEAM_OPTIONS:
        raise bad_input(
            f"{name!r} is a team option of the stage (docs/rules.md §11), not a rule option: give it with the "
            "stage's options.",
            f"{name} 是阶段的团体选项（规则第 11 节），不是规则选项：请在阶段选项中设置。",
        )


def _bool(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise bad_input(
            f"Option {name!r} must be true or false; got {value!r}.",
            f"选项 {name} 必须是 true 或 false；收到 {value!r}。",
        )
    return value


def _whole(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad_input(
            f"Option {name!r} must be a whole number; got {value!r}.", f"选项 {name} 必须是整数；收到 {value!r}。"
        )
    return value


def _count(value: object) -> int | None:
    if value == "all" or value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad_input(
            f"Option 'team_count' must be \"all\" or a number of members; got {value!r}.",
            f'选项 team_count 必须是 "all" 或计分人数；收到 {value!r}。',
        )
    return value


def _match_points(value: object) -> MatchPoints:
    if not isinstance(value, Mapping) or not set(value) <= {"win", "draw", "loss"}:
        raise bad_input(
            'Option \'team_match_points\' must look like {"win": 2, "draw": 1, "loss": 0}.',
            '选项 team_match_points 的格式应为 {"win": 2, "draw": 1, "loss": 0}。',
        )
    merged = {**MatchPoints().to_json(), **value}
    win, draw, loss = (_whole(merged[key], f"team_match_points {key}") for key in ("win", "draw", "loss"))
    return MatchPoints(win=win, draw=draw, loss=loss)


def _enum(kind: type[E], value: object, name: str) -> E:
    if isinstance(value, kind):
        return value
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(str(member.value) for member in kind)
        raise bad_input(
            f"Option {name!r} must be one of {choices}; got {value!r}.",
            f"选项 {name} 必须是以下之一：{choices}；收到 {value!r}。",
        ) from None


_PARSERS: dict[str, Any] = {
    "team_total": lambda value: _bool(value, "team_total"),
    "team_count": _count,
    "team_match": lambda value: _bool(value, "team_match"),
    "team_decider": lambda value: _enum(TeamDecider, value, "team_decider"),
    "team_match_points": _match_points,
    "team_knockout_decider": lambda value: _enum(TeamKnockoutDecider, value, "team_knockout_decider"),
}

_DEFAULTS: dict[str, Any] = {
    "team_count": None,
    "team_decider": TeamDecider.TABLES,
    "team_match_points": MatchPoints(),
    "team_knockout_decider": TeamKnockoutDecider.TABLE_A_EXTRA_DEAL,
}

assert tuple(_PARSERS) == TEAM_OPTIONS, "every team option has a parser"
