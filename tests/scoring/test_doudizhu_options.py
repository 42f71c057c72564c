"""Dou Dizhu's rule options and the ``doudizhu`` profile (docs/rules.md §10): defaults, validation, the refusal
of the other games' options (and of Dou Dizhu's in them), and the JSON round trip."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.errors import ErrorCode, ScoringError
from scoring.options import (
    DOUDIZHU_OPTIONS,
    GUANDAN_ONLY_OPTIONS,
    DealScoring,
    Game,
    LandlordBy,
    Reseat,
    RuleOptions,
)
from scoring.profiles import PROFILE_INFO, PROFILES, options_for, profiles_json

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_the_doudizhu_profile_and_its_defaults() -> None:
    options = PROFILES["doudizhu"]
    assert options.game is Game.DOUDIZHU and options.deals == 3
    assert (options.deal_scoring, options.landlord_by, options.reseat) == (
        DealScoring.STAKE,
        LandlordBy.BID,
        Reseat.LOT,
    )
    assert (options.multiple_cap, options.base, options.bye_points, options.late_forfeit_minutes) == (None, 1, 0, 10)
    assert options.forfeit_points_in_force == -6 and options.time_cap_minutes is None


def test_the_profile_names_its_rulebooks_and_is_listed() -> None:
    info = PROFILE_INFO["doudizhu"]
    assert info.seed == "004" and "掼蛋比赛赛制及规则" in info.title and "中国二打一扑克竞赛规则" in info.title
    assert "《中国二打一扑克竞赛规则》" in info.title_zh and "《掼蛋比赛赛制及规则》" in info.title_zh
    listed = profiles_json()["profiles"]["doudizhu"]
    assert listed["options"] == {
        "game": "doudizhu",
        "deals": 3,
        "time_cap_minutes": None,
        "deal_scoring": "stake",
        "multiple_cap": None,
        "base": 1,
        "landlord_by": "bid",
        "landlord_rotation": "counter_clockwise",
        "cards_left_winner": "player",
        "point_penalties": "deduct",
        "reseat": "lot",
        "bye_points": 0,
        "forfeit_points": -6,
        "late_forfeit_minutes": 10,
    }


def test_forfeit_points_follow_base_unless_set() -> None:
    assert options_for(profile="doudizhu", overrides={"base": 5}).forfeit_points_in_force == -30
    options = options_for(profile="doudizhu", overrides={"base": 5, "forfeit_points": -10})
    assert options.forfeit_points_in_force == -10
    assert options.with_overrides({"base": 1}).forfeit_points_in_force == -10


@pytest.mark.parametrize("name", GUANDAN_ONLY_OPTIONS)
def test_guandan_and_tractor_options_are_refused_in_dou_dizhu(name: str) -> None:
    value = RuleOptions().to_json()[name]
    with pytest.raises(ScoringError) as caught:
        options_for(profile="doudizhu", overrides={name: value})
    assert caught.value.code is ErrorCode.BAD_INPUT
    assert name in caught.value.message and "Dou Dizhu" in caught.value.message and caught.value.message_zh


@pytest.mark.parametrize("profile", ["classic", "points-6", "tractor-3deck"])
@pytest.mark.parametrize("name", DOUDIZHU_OPTIONS)
def test_dou_dizhu_options_are_refused_in_guandan_and_tractor(profile: str, name: str) -> None:
    value = PROFILES["doudizhu"].to_json()[name]
    with pytest.raises(ScoringError) as caught:
        options_for(profile=profile, overrides={name: value})
    assert caught.value.code is ErrorCode.BAD_INPUT
    assert f"{name!r} is a Dou Dizhu option" in caught.value.message and "斗地主" in caught.value.message_zh


def test_a_dou_dizhu_value_on_guandan_options_is_refused_on_construction() -> None:
    with pytest.raises(ScoringError, match="'base' is a Dou Dizhu option"):
        RuleOptions(base=2)
    with pytest.raises(ScoringError, match="'a_failure_limit' is a Guandan/Tractor option"):
        RuleOptions(game=Game.DOUDIZHU, deals=3, a_failure_limit=3)


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"deals": 13}, "1 to 12 deals"),
        ({"deals": 0}, "at least 1"),
        ({"deals": None}, "1 to 12 deals"),
        ({"deal_scoring": "points"}, "must be one of stake, cards_left"),
        ({"landlord_by": "auction"}, "must be one of bid, lot"),
        ({"reseat": "swiss"}, "must be one of lot, score"),
        ({"multiple_cap": 0}, "at least 1"),
        ({"base": 0}, "at least 1"),
        ({"base": "2"}, "whole number"),
        ({"bye_points": -1}, "at least 0"),
        ({"late_forfeit_minutes": -5}, "at least 0"),
        ({"forfeit_points": 1}, "cannot score more than a bye"),
        ({"forfeit_points": 2.5}, "whole number"),
    ],
)
def test_bad_dou_dizhu_values_are_refused(overrides: dict[str, Any], words: str) -> None:
    with pytest.raises(ScoringError) as caught:
        options_for(profile="doudizhu", overrides=overrides)
    assert caught.value.code is ErrorCode.BAD_INPUT and words in caught.value.message and caught.value.message_zh


def test_switching_the_game_resets_the_old_games_options() -> None:
    """A stored Dou Dizhu to_json names only its own options, so applied to any profile it gives the same
    options; and back to Guandan, Dou Dizhu's options go back to their defaults."""
    ddz = options_for(profile="doudizhu", overrides={"deals": 5, "base": 2})
    for profile in PROFILES:
        assert options_for(profile=profile, overrides=ddz.to_json()) == ddz
    # the time cap is shared by every game and stays; timed-40's Guandan options go
    switched = options_for(profile="timed-40", overrides={"game": "doudizhu"})
    assert switched == PROFILES["doudizhu"].with_overrides({"time_cap_minutes": 40})
    assert ddz.with_overrides({"game": "guandan"}) == RuleOptions()
    assert ddz.with_overrides({"game": "guandan", "format": "fixed_deals_points", "deals": 6}).deals == 6


@FAST
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "deals": st.integers(min_value=1, max_value=12),
            "time_cap_minutes": st.none() | st.integers(1, 120),
            "deal_scoring": st.sampled_from(["stake", "cards_left"]),
            "multiple_cap": st.none() | st.integers(1, 512),
            "base": st.integers(1, 10),
            "landlord_by": st.sampled_from(["bid", "lot"]),
            "reseat": st.sampled_from(["lot", "score"]),
            "bye_points": st.integers(0, 10),
            "forfeit_points": st.none() | st.integers(-60, 0),
            "late_forfeit_minutes": st.integers(0, 30),
        },
    )
)
def test_every_dou_dizhu_option_round_trips(overrides: dict[str, Any]) -> None:
    options = options_for(profile="doudizhu", overrides=overrides)
    data = options.to_json()
    assert RuleOptions.from_json(data) == options
    assert RuleOptions.from_json(json.loads(json.dumps(data))) == options
    assert set(data) == {"game", "deals", "time_cap_minutes", *DOUDIZHU_OPTIONS}
    assert options_for(profile="classic", overrides=data) == options
