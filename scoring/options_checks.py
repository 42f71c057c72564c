"""Rule options, checked: each option's JSON value parsed (``OPTION_PARSERS``, used by
:meth:`scoring.options.RuleOptions.with_overrides`) and the whole set validated on construction
(:func:`options_validate`), so a combination that cannot work is refused with a clear
``bad_input`` error (docs/rules.md §10 for the options one game has and another has not).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.errors import ScoringError, bad_input
from scoring.options import (
    _DEFAULTS,
    _FIXED,
    _PLACE_KEYS,
    DEFAULT_UPGRADES,
    DOUDIZHU_DEALS,
    DOUDIZHU_OPTIONS,
    GUANDAN_ONLY_OPTIONS,
    TIE_BREAKERS,
    APass,
    AReset,
    AtTimeUp,
    ByeResult,
    CapScope,
    CardsLeftWinner,
    DealScoring,
    Game,
    LandlordBy,
    LandlordRotation,
    LateArrivalBand,
    LatePenalty,
    MatchFormat,
    MatchPoints,
    PointPenalties,
    Reseat,
    RuleOptions,
    SmallPoints,
    TimeUpTie,
    TributeVariant,
    WildReading,
    _enum,
)

__all__ = ["OPTION_PARSERS", "options_validate", "other_games_options_refuse"]


def other_games_options_refuse(game: Game, overrides: Mapping[str, Any]) -> None:
    """Name the first option given that the game in force does not have (docs/rules.md §10)."""
    other = GUANDAN_ONLY_OPTIONS if game is Game.DOUDIZHU else DOUDIZHU_OPTIONS
    for name in overrides:
        if name in other:
            raise _other_games_option(game, name)


def _other_games_option(game: Game, name: str) -> ScoringError:
    if game is Game.DOUDIZHU:
        return bad_input(
            f"Option {name!r} is a Guandan/Tractor option; Dou Dizhu does not have it (docs/rules.md §10).",
            f"选项 {name!r} 是掼蛋/拖拉机的规则，斗地主没有这一项（规则第 10 节）。",
        )
    return bad_input(
        f"Option {name!r} is a Dou Dizhu option; {_GAME_EN[game]} does not have it (docs/rules.md §10).",
        f"选项 {name!r} 是斗地主的规则，{_GAME_ZH[game]}没有这一项（规则第 10 节）。",
    )


_GAME_EN = {Game.GUANDAN: "Guandan", Game.TRACTOR: "Tractor", Game.DOUDIZHU: "Dou Dizhu"}
_GAME_ZH = {Game.GUANDAN: "掼蛋", Game.TRACTOR: "拖拉机", Game.DOUDIZHU: "斗地主"}


def _int(value: object, name: str, *, minimum: int | None = None, nullable: bool = False) -> Any:
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        what = "a whole number or null" if nullable else "a whole number"
        raise bad_input(
            f"Option {name!r} must be {what}; got {value!r}.",
            f"选项 {name!r} 必须是整数{'或 null' if nullable else ''}；收到 {value!r}。",
        )
    if minimum is not None and value < minimum:
        raise bad_input(
            f"Option {name!r} must be at least {minimum}; got {value}.",
            f"选项 {name!r} 不能小于 {minimum}；收到 {value}。",
        )
    return value


def _parse_place_table(
    current: tuple[int, int, int], value: object, name: str, *, minimum: int
) -> tuple[int, int, int]:
    """A 1-2 / 1-3 / 1-4 table (``points_table``, ``upgrades``): ``{"1-2": 3, "1-3": 2, "1-4": 1}`` (keys
    not given keep ``current``) or ``[3, 2, 1]``."""
    if isinstance(value, list | tuple) and len(value) == 3:
        items = {key: item for key, item in zip(_PLACE_KEYS, value, strict=True)}
    elif isinstance(value, Mapping) and set(value) <= set(_PLACE_KEYS):
        items = {**dict(zip(_PLACE_KEYS, current, strict=True)), **value}
    else:
        raise bad_input(
            f'Option {name!r} must look like {{"1-2": 3, "1-3": 2, "1-4": 1}} (or [3, 2, 1]).',
            f'选项 {name} 的格式应为 {{"1-2": 3, "1-3": 2, "1-4": 1}}（或 [3, 2, 1]）。',
        )
    p2, p3, p4 = (_int(items[key], f"{name} {key}", minimum=minimum) for key in _PLACE_KEYS)
    return (p2, p3, p4)


def _parse_points_table(current: RuleOptions, value: object) -> tuple[int, int, int]:
    return _parse_place_table(current.points_table, value, "points_table", minimum=0)


def _parse_upgrades(current: RuleOptions, value: object) -> tuple[int, int, int]:
    """docs/rules.md §1: only 上游's side goes up, so every finish gains at least one level."""
    return _parse_place_table(current.upgrades, value, "upgrades", minimum=1)


def _parse_match_points(current: RuleOptions, value: object) -> MatchPoints:
    if not isinstance(value, Mapping) or not set(value) <= {"win", "draw", "loss"}:
        raise bad_input(
            'Option \'match_points\' must look like {"win": 2, "draw": 1, "loss": 0}.',
            '选项 match_points 的格式应为 {"win": 2, "draw": 1, "loss": 0}。',
        )
    merged = {**current.match_points.to_json(), **value}
    return MatchPoints(**{key: _int(merged[key], f"match_points {key}") for key in ("win", "draw", "loss")})


def _parse_tie_breakers(current: RuleOptions, value: object) -> tuple[str, ...]:
    del current
    if not isinstance(value, list | tuple) or not all(isinstance(item, str) for item in value):
        raise bad_input(
            "Option 'tie_breakers' must be a list of tie-breaker names.",
            "选项 tie_breakers 必须是破同分规则名称的列表。",
        )
    return tuple(value)


def _parse_late_arrival(current: RuleOptions, value: object) -> tuple[LateArrivalBand, ...]:
    del current
    if not isinstance(value, list | tuple):
        raise bad_input(
            "Option 'late_arrival' must be a list of bands like "
            '{"up_to_minutes": 5, "penalty": "warning", "amount": 0}.',
            '选项 late_arrival 必须是列表，每项形如 {"up_to_minutes": 5, "penalty": "warning", "amount": 0}。',
        )
    bands = []
    for item in value:
        if not isinstance(item, Mapping) or not {"up_to_minutes", "penalty"} <= set(item) <= {
            "up_to_minutes",
            "penalty",
            "amount",
        }:
            raise bad_input(
                "Each late_arrival band needs 'up_to_minutes' (a number or null) and 'penalty' "
                "(and may have 'amount').",
                "每个迟到档次需要 up_to_minutes（数字或 null）和 penalty（可选 amount）。",
            )
        bands.append(
            LateArrivalBand(
                _int(item["up_to_minutes"], "late_arrival up_to_minutes", minimum=0, nullable=True),
                _enum(LatePenalty, item["penalty"], "late_arrival penalty"),
                _int(item.get("amount", 0), "late_arrival amount", minimum=0),
            )
        )
    return tuple(bands)


OPTION_PARSERS: dict[str, Any] = {
    "game": lambda current, value: _enum(Game, value, "game"),
    "format": lambda current, value: _enum(MatchFormat, value, "format"),
    "deals": lambda current, value: _int(value, "deals", minimum=1, nullable=True),
    "games": lambda current, value: _int(value, "games", minimum=1, nullable=True),
    "upgrades": _parse_upgrades,
    "a_pass": lambda current, value: _enum(APass, value, "a_pass"),
    "a_failure_limit": lambda current, value: _int(value, "a_failure_limit", minimum=1, nullable=True),
    "a_reset": lambda current, value: _enum(AReset, value, "a_reset"),
    "time_cap_minutes": lambda current, value: _int(value, "time_cap_minutes", minimum=1, nullable=True),
    "at_time_up": lambda current, value: _enum(AtTimeUp, value, "at_time_up"),
    "time_up_tie": lambda current, value: _enum(TimeUpTie, value, "time_up_tie"),
    "cap_scope": lambda current, value: _enum(CapScope, value, "cap_scope"),
    "points_table": _parse_points_table,
    "tribute_variant": lambda current, value: _enum(TributeVariant, value, "tribute_variant"),
    "wild_reading": lambda current, value: _enum(WildReading, value, "wild_reading"),
    "match_points": _parse_match_points,
    "tie_breakers": _parse_tie_breakers,
    "small_points": lambda current, value: _enum(SmallPoints, value, "small_points"),
    "bye_result": lambda current, value: _enum(ByeResult, value, "bye_result"),
    "bye_margin": lambda current, value: _int(value, "bye_margin", minimum=0),
    "forfeit_margin": lambda current, value: _int(value, "forfeit_margin", minimum=0),
    "late_arrival": _parse_late_arrival,
    "deal_scoring": lambda current, value: _enum(DealScoring, value, "deal_scoring"),
    "multiple_cap": lambda current, value: _int(value, "multiple_cap", minimum=1, nullable=True),
    "base": lambda current, value: _int(value, "base", minimum=1),
    "landlord_by": lambda current, value: _enum(LandlordBy, value, "landlord_by"),
    "landlord_rotation": lambda current, value: _enum(LandlordRotation, value, "landlord_rotation"),
    "cards_left_winner": lambda current, value: _enum(CardsLeftWinner, value, "cards_left_winner"),
    "point_penalties": lambda current, value: _enum(PointPenalties, value, "point_penalties"),
    "reseat": lambda current, value: _enum(Reseat, value, "reseat"),
    "bye_points": lambda current, value: _int(value, "bye_points", minimum=0),
    "forfeit_points": lambda current, value: _int(value, "forfeit_points", nullable=True),
    "late_forfeit_minutes": lambda current, value: _int(value, "late_forfeit_minutes", minimum=0),
}


def options_validate(options: RuleOptions) -> None:
    """Refuse combinations that cannot work, each with a sentence an organiser understands."""
    if options.game is Game.DOUDIZHU:
        _validate_doudizhu(options)
        return
    for name in DOUDIZHU_OPTIONS:
        if getattr(options, name) != _DEFAULTS[name]:
            raise _other_games_option(options.game, name)
    fmt = options.format
    if fmt in _FIXED:
        if options.deals is None:
            raise bad_input(
                f"Format {fmt.value} needs 'deals' (how many regular deals, e.g. 6).",
                f"赛制 {fmt.value} 需要设置 deals（常规副数，例如 6）。",
            )
    elif options.deals is not None:
        raise bad_input(
            f"'deals' only applies to fixed_deals_points and fixed_deals_levels, not {fmt.value}.",
            f"deals 只适用于 fixed_deals_points 和 fixed_deals_levels，不适用于 {fmt.value}。",
        )
    if fmt is MatchFormat.BEST_OF:
        if options.games is None or options.games % 2 == 0:
            raise bad_input(
                "Format best_of needs an odd number of 'games' (e.g. 3 for best of three).",
                "best_of 赛制需要奇数局数 games（例如三局两胜为 3）。",
            )
    elif options.games is not None:
        raise bad_input(
            f"'games' only applies to best_of, not {fmt.value}.",
            f"games 只适用于 best_of，不适用于 {fmt.value}。",
        )
    if options.game is Game.TRACTOR:
        if fmt is not MatchFormat.LEVEL_GAME:
            raise bad_input(
                "Tractor is played as a level game only (seed 001); set format to level_game.",
                "拖拉机只按升级赛制进行（规则 001），请把 format 设为 level_game。",
            )
        if options.a_failure_limit is not None:
            raise bad_input(
                "a_failure_limit (the triple-A reset) is a Guandan rule; Tractor has none (seed 001).",
                "a_failure_limit（三次打A不过降级）是掼蛋规则，拖拉机没有（规则 001）。",
            )
        if options.upgrades != DEFAULT_UPGRADES:
            raise bad_input(
                "upgrades (by the partner's place) is a Guandan rule; Tractor levels follow the "
                "defenders' points (seed 001 §4).",
                "upgrades（按同伴名次升级）是掼蛋规则；拖拉机按防家得分升降级（规则 001 第四条）。",
            )
    if (
        options.cap_scope is CapScope.GAME
        and fmt is MatchFormat.BEST_OF
        and options.time_up_tie is TimeUpTie.DRAW
    ):
        raise bad_input(
            "With a cap per game (cap_scope game) time decides each game, and a game of a best_of cannot be "
            "drawn; choose another time_up_tie.",
            "每局单独限时（cap_scope: game）时，时间到决定该局胜负，三局两胜中的一局不能判平；请另选 time_up_tie。",
        )
    if options.is_points_format and options.upgrades != DEFAULT_UPGRADES:
        raise bad_input(
            "fixed_deals_points plays every deal at 2, so 'upgrades' does not apply; set points_table instead.",
            "fixed_deals_points 每副都打 2，不适用 upgrades；请设置 points_table。",
        )
    for name in options.tie_breakers:
        if name not in TIE_BREAKERS:
            raise bad_input(
                f"Unknown tie-breaker {name!r}; the tie-breakers are: {', '.join(TIE_BREAKERS)}.",
                f"没有破同分规则 {name!r}；可用：{', '.join(TIE_BREAKERS)}。",
            )
    if len(set(options.tie_breakers)) != len(options.tie_breakers):
        raise bad_input("A tie-breaker is listed twice.", "破同分规则重复。")
    mp = options.match_points
    if not mp.win >= mp.draw >= mp.loss:
        raise bad_input(
            "Match points must satisfy win ≥ draw ≥ loss.",
            "场分必须满足 胜 ≥ 平 ≥ 负。",
        )
    _validate_late_arrival(options)


def _validate_late_arrival(options: RuleOptions) -> None:
    previous = -1
    bands = options.late_arrival_bands
    for index, band in enumerate(bands):
        last = index == len(bands) - 1
        if band.up_to_minutes is None and not last:
            raise bad_input(
                "Only the last late_arrival band may be open-ended (up_to_minutes null).",
                "只有最后一个迟到档次可以不设上限（up_to_minutes 为 null）。",
            )
        if band.up_to_minutes is not None:
            if band.up_to_minutes <= previous:
                raise bad_input(
                    "late_arrival bands must be in increasing order of up_to_minutes.",
                    "迟到档次必须按 up_to_minutes 从小到大排列。",
                )
            previous = band.up_to_minutes
        points_game = options.is_points_format or options.game is Game.TRACTOR
        if band.penalty is LatePenalty.POINT_DEDUCTION and not points_game:
            raise bad_input(
                "A late-arrival point deduction needs a points format or Tractor; use level_penalty in a level game.",
                "迟到扣分只适用于积分赛制或拖拉机；升级赛制请用 level_penalty。",
            )
        if band.penalty is LatePenalty.LEVEL_PENALTY and options.is_points_format:
            raise bad_input(
                "A late-arrival level penalty cannot apply in fixed_deals_points (every deal is at 2); "
                "use point_deduction.",
                "fixed_deals_points 每副都打 2，不能罚级；请用 point_deduction。",
            )


def _validate_doudizhu(options: RuleOptions) -> None:
    """docs/rules.md §10: 1 to 12 deals (seed 004: usually 3, 5 or 7); a forfeit scores no more than a bye; no
    option of the other games."""
    for name in GUANDAN_ONLY_OPTIONS:
        if getattr(options, name) != _DEFAULTS[name]:
            raise _other_games_option(options.game, name)
    if options.deals not in DOUDIZHU_DEALS:
        raise bad_input(
            f"A Dou Dizhu table plays 1 to 12 deals (seed 004: usually 3, 5 or 7); 'deals' is "
            f"{options.deals!r}.",
            f"斗地主每桌打 1 到 12 局（规则 004：通常为 3、5 或 7 局）；deals 为 {options.deals!r}。",
        )
    if options.forfeit_points_in_force > options.bye_points:
        raise bad_input(
            f"A forfeit cannot score more than a bye: forfeit_points {options.forfeit_points_in_force} is "
            f"above bye_points {options.bye_points}.",
            f"弃权得分不能高于轮空得分：forfeit_points 为 {options.forfeit_points_in_force}，"
            f"bye_points 为 {options.bye_points}。",
        )
