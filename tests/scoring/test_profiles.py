"""Rule options and the named profiles (docs/rules.md; seeds 000–004): each profile's choices, overrides,
and option combinations that are refused with a clear sentence."""

from __future__ import annotations

import pytest

from scoring.errors import ErrorCode, ScoringError
from scoring.options import (
    APass,
    AtTimeUp,
    Game,
    LateArrivalBand,
    LatePenalty,
    MatchFormat,
    MatchPoints,
    RuleOptions,
    SmallPoints,
    TimeUpTie,
    TributeVariant,
)
from scoring.profiles import PROFILE_INFO, PROFILES, options_for, profiles_json


def test_profile_names() -> None:
    assert list(PROFILES) == ["classic", "timed-40", "timed-90", "points-6", "tractor-3deck", "doudizhu"]
    assert set(PROFILE_INFO) == set(PROFILES)


def test_classic_is_seed_000() -> None:
    """Seed 000: untimed, A must be passed with 上游 and partner not last, no reset (keep playing A),
    first_to_reach if time is called; its own tribute text."""
    options = PROFILES["classic"]
    assert options.format is MatchFormat.LEVEL_GAME and options.time_cap_minutes is None
    assert options.a_failure_limit is None and options.a_pass is APass.TOP_AND_PARTNER_NOT_LAST
    assert options.time_up_tie is TimeUpTie.FIRST_TO_REACH
    assert options.tribute_variant is TributeVariant.SEED_000


def test_timed_40_is_seed_002() -> None:
    """Seed 002 §6: 40 minutes; 三次打A不过降至2; equal levels at time: 先到本级的队伍获胜."""
    options = PROFILES["timed-40"]
    assert (options.time_cap_minutes, options.a_failure_limit, options.time_up_tie) == (
        40,
        3,
        TimeUpTie.FIRST_TO_REACH,
    )


def test_timed_90_is_seed_003() -> None:
    """Seed 003 §3.7: 1 hour 30 minutes, three chances at A, equal levels → 加赛一牌."""
    options = PROFILES["timed-90"]
    assert (options.time_cap_minutes, options.a_failure_limit, options.time_up_tie) == (
        90,
        3,
        TimeUpTie.EXTRA_DEAL,
    )


def test_points_6_is_seed_004() -> None:
    """Seed 004: 6局积分制，每局比赛都打2，1-3积分规则; a tie → one extra deal."""
    options = PROFILES["points-6"]
    assert (options.format, options.deals, options.points_table) == (
        MatchFormat.FIXED_DEALS_POINTS,
        6,
        (3, 2, 1),
    )
    assert options.time_up_tie is TimeUpTie.EXTRA_DEAL and "deal_points" in options.tie_breakers


def test_tractor_3deck_is_seed_001() -> None:
    """Seed 001 §2–3: Tractor; the last 10 minutes → one more deal; late arrival −20/−30/forfeits."""
    options = PROFILES["tractor-3deck"]
    assert options.game is Game.TRACTOR and options.at_time_up is AtTimeUp.ONE_MORE_DEAL
    assert options.late_arrival_bands == (
        LateArrivalBand(5, LatePenalty.WARNING),
        LateArrivalBand(10, LatePenalty.POINT_DEDUCTION, 20),
        LateArrivalBand(15, LatePenalty.POINT_DEDUCTION, 30),
        LateArrivalBand(20, LatePenalty.FORFEIT_FIRST_DEAL, 1),
        LateArrivalBand(None, LatePenalty.FORFEIT_MATCH),
    )


def test_defaults_follow_rules_md() -> None:
    """docs/rules.md: a_pass top_and_partner_not_last, at_time_up finish_current_deal, match points 2/1/0,
    docs/rules.md §5's tie-break order."""
    options = RuleOptions()
    assert options.at_time_up is AtTimeUp.FINISH_CURRENT_DEAL
    assert options.match_points == MatchPoints(2, 1, 0)
    assert options.tie_breakers == (
        "match_points",
        "small_points",
        "levels_sum",
        "head_to_head",
        "buchholz",
        "wins",
        "lots",
    )
    assert options.small_points is SmallPoints.LEVEL_DIFFERENCE


@pytest.mark.parametrize("name", list(PROFILES))
def test_options_round_trip_through_json(name: str) -> None:
    options = PROFILES[name]
    assert RuleOptions.from_json(options.to_json()) == options
    assert options_for(profile=name) is options


def test_any_option_can_be_overridden() -> None:
    options = options_for(
        profile="timed-40",
        overrides={
            "time_cap_minutes": 45,
            "a_failure_limit": None,
            "time_up_tie": "extra_deal",
            "match_points": {"win": 3},
            "points_table": {"1-4": 0},
            "tie_breakers": ["match_points", "wins", "lots"],
            "small_points": "split_13",
            "bye_result": "draw",
            "bye_margin": 2,
            "forfeit_margin": 6,
            "tribute_variant": "national_2017",
            "late_arrival": [
                {"up_to_minutes": 10, "penalty": "warning"},
                {"up_to_minutes": None, "penalty": "forfeit_match"},
            ],
        },
    )
    assert options.time_cap_minutes == 45 and options.a_failure_limit is None
    assert options.match_points == MatchPoints(3, 1, 0) and options.points_table == (3, 2, 0)
    assert options.late_arrival_band(30).penalty is LatePenalty.FORFEIT_MATCH
    assert options.late_arrival_band(10).penalty is LatePenalty.WARNING
    assert PROFILES["timed-40"].time_cap_minutes == 40  # profiles are never modified


def test_changing_the_format_clears_what_belonged_to_the_old_one() -> None:
    options = options_for(profile="points-6", overrides={"format": "level_game"})
    assert options.deals is None and options.late_arrival is None
    assert options.late_arrival_band(8).penalty is LatePenalty.LEVEL_PENALTY
    best_of = options_for(profile="classic", overrides={"format": "best_of", "games": 3})
    assert best_of.games_to_win == 2


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"colour": "red"}, "Unknown rule option 'colour'"),
        ({"a_pass": "sometimes"}, "must be one of top_and_partner_not_last, side_not_last, one_two_only"),
        ({"time_cap_minutes": 0}, "at least 1"),
        ({"time_cap_minutes": "40"}, "whole number"),
        ({"a_failure_limit": True}, "whole number"),
        ({"format": "best_of"}, "odd number of 'games'"),
        ({"format": "best_of", "games": 2}, "odd number of 'games'"),
        ({"games": 3}, "'games' only applies to best_of"),
        ({"deals": 6}, "'deals' only applies to fixed_deals"),
        ({"format": "fixed_deals_points"}, "needs 'deals'"),
        ({"tie_breakers": ["match_points", "coin"]}, "Unknown tie-breaker 'coin'"),
        ({"tie_breakers": ["wins", "wins"]}, "listed twice"),
        ({"tie_breakers": "wins"}, "list of tie-breaker names"),
        ({"match_points": {"win": 0, "draw": 1}}, "win ≥ draw ≥ loss"),
        ({"match_points": [2, 1, 0]}, "match_points"),
        ({"points_table": [3, 2]}, "points_table"),
        ({"points_table": {"1-2": -1}}, "at least 0"),
        (
            {
                "late_arrival": [
                    {"up_to_minutes": None, "penalty": "warning"},
                    {"up_to_minutes": 5, "penalty": "warning"},
                ]
            },
            "Only the last",
        ),
        (
            {
                "late_arrival": [
                    {"up_to_minutes": 9, "penalty": "warning"},
                    {"up_to_minutes": 5, "penalty": "warning"},
                ]
            },
            "increasing order",
        ),
        (
            {"late_arrival": [{"up_to_minutes": 9, "penalty": "point_deduction", "amount": 20}]},
            "point deduction",
        ),
        ({"late_arrival": [{"up_to": 9}]}, "up_to_minutes"),
        ({"late_arrival": "strict"}, "list of bands"),
        ({"game": "tractor", "format": "best_of", "games": 3}, "Tractor is played as a level game only"),
        ({"game": "tractor"}, "a_failure_limit"),
    ],
)
def test_bad_overrides_are_refused_with_a_clear_sentence(overrides: dict, words: str) -> None:
    with pytest.raises(ScoringError) as caught:
        options_for(profile="timed-40", overrides=overrides)
    assert caught.value.code is ErrorCode.BAD_INPUT
    assert words in caught.value.message and caught.value.message_zh


def test_a_level_penalty_band_is_refused_in_a_points_format() -> None:
    with pytest.raises(ScoringError, match="cannot apply in fixed_deals_points"):
        options_for(
            profile="points-6",
            overrides={"late_arrival": [{"up_to_minutes": None, "penalty": "level_penalty", "amount": 1}]},
        )


def test_unknown_profile() -> None:
    with pytest.raises(ScoringError) as caught:
        options_for(profile="timed-60")
    assert caught.value.code is ErrorCode.UNKNOWN_PROFILE
    assert "classic, timed-40, timed-90, points-6, tractor-3deck" in caught.value.message
    with pytest.raises(ScoringError):
        options_for(profile=None)  # type: ignore[arg-type]
    with pytest.raises(ScoringError, match="JSON object"):
        options_for(profile="classic", overrides=["a_pass"])  # type: ignore[arg-type]


def test_profiles_json_lists_every_option_of_every_profile() -> None:
    out = profiles_json()["profiles"]
    assert list(out) == list(PROFILES)
    assert out["timed-90"]["seed"] == "003" and out["timed-90"]["title_zh"]
    assert set(out["classic"]["options"]) == set(RuleOptions().to_json())
    assert out["points-6"]["options"]["points_table"] == {"1-2": 3, "1-3": 2, "1-4": 1}
