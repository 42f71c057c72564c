"""The team options of a stage (docs/rules.md §11): read from JSON, bad values and combinations refused
with a code and a sentence in English and Chinese, a team option given among the rule options refused
with a message that says where it belongs."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.errors import ErrorCode, ScoringError
from scoring.options import MatchPoints, RuleOptions, Stage
from scoring.profiles import PROFILES, options_for
from scoring.team_options import TEAM_OPTIONS, TeamDecider, TeamKnockoutDecider, TeamOptions


def test_the_defaults_make_an_ordinary_stage() -> None:
    options = TeamOptions()
    assert not options.is_team_event
    assert options.to_json() == {
        "team_total": False,
        "team_count": "all",
        "team_match": False,
        "team_decider": "tables",
        "team_match_points": {"win": 2, "draw": 1, "loss": 0},
        "team_knockout_decider": "table_a_extra_deal",
    }
    assert tuple(options.to_json()) == TEAM_OPTIONS


@pytest.mark.parametrize(
    "data",
    [
        {"team_total": True},
        {"team_total": True, "team_count": 3},
        {"team_total": True, "team_count": "all"},
        {"team_match": True},
        {"team_match": True, "team_decider": "total", "team_match_points": {"win": 3}},
    ],
)
def test_json_round_trips(data: dict[str, Any]) -> None:
    options = TeamOptions.from_json(data)
    assert options.is_team_event
    assert TeamOptions.from_json(options.to_json()) == options


def test_values_are_read() -> None:
    options = TeamOptions.from_json({"team_match": True, "team_decider": "total", "team_match_points": {"win": 3}})
    assert options.team_decider is TeamDecider.TOTAL
    assert options.team_match_points == MatchPoints(win=3, draw=1, loss=0)
    assert options.team_knockout_decider is TeamKnockoutDecider.TABLE_A_EXTRA_DEAL
    assert TeamOptions.from_json({"team_total": True, "team_count": 4}).team_count == 4


def test_a_whole_stage_options_object_is_read_leaving_other_options_alone() -> None:
    stage_options = {"department_rounds": 2, "bracket": "fixed", "team_total": True, "team_count": 2}
    assert TeamOptions.from_json(stage_options, others=True) == TeamOptions(team_total=True, team_count=2)
    with pytest.raises(ScoringError, match="Unknown team option 'bracket'"):
        TeamOptions.from_json(stage_options)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"team_total": "yes"}, "'team_total' must be true or false"),
        ({"team_match": 1}, "'team_match' must be true or false"),
        ({"team_total": True, "team_count": "some"}, "'team_count' must be \"all\" or a number"),
        ({"team_total": True, "team_count": True}, "'team_count' must be \"all\" or a number"),
        ({"team_total": True, "team_count": 0}, "1 or more"),
        ({"team_total": True, "team_count": -2}, "1 or more"),
        ({"team_match": True, "team_decider": "coin"}, "'team_decider' must be one of tables, total"),
        ({"team_match": True, "team_knockout_decider": "lots"}, "must be one of table_a_extra_deal"),
        ({"team_match": True, "team_match_points": [2, 1, 0]}, "must look like"),
        ({"team_match": True, "team_match_points": {"win": 2, "tie": 1}}, "must look like"),
        ({"team_match": True, "team_match_points": {"win": "2"}}, "must be a whole number"),
        ({"team_match": True, "team_match_points": {"win": 0, "draw": 1}}, "win ≥ draw ≥ loss"),
        ({"team_total": True, "team_match": True}, "not both"),
        ({"team_count": 2}, "only applies with team_total"),
        ({"team_match": False, "team_decider": "total"}, "only applies with team_match"),
        ({"team_total": True, "team_match_points": {"win": 3}}, "only applies with team_match"),
        ({"team_size": 2}, "Unknown team option 'team_size'"),
    ],
)
def test_bad_values_and_combinations_are_refused_in_both_languages(data: dict[str, Any], words: str) -> None:
    with pytest.raises(ScoringError) as caught:
        TeamOptions.from_json(data)
    error = caught.value
    assert error.code is ErrorCode.BAD_INPUT
    assert words in error.message
    assert error.message_zh and error.message_zh != "输入有误。"


def test_not_an_object_is_refused() -> None:
    with pytest.raises(ScoringError, match="JSON object"):
        TeamOptions.from_json([])  # type: ignore[arg-type]


def test_team_matches_are_refused_in_dou_dizhu_and_points_stages() -> None:
    matches = TeamOptions(team_match=True)
    with pytest.raises(ScoringError, match="four-seat tables"):
        matches.check_stage(stage=Stage.POINTS, rules=PROFILES["doudizhu"])
    with pytest.raises(ScoringError, match="four-seat tables"):
        matches.check_stage(stage="swiss", rules=PROFILES["doudizhu"])
    for stage in ("swiss", "round_robin", "knockout"):
        matches.check_stage(stage=stage, rules=PROFILES["points-6"])
    TeamOptions(team_total=True).check_stage(stage="points", rules=PROFILES["doudizhu"])
    with pytest.raises(ScoringError, match="'stage' must be one of"):
        matches.check_stage(stage="ladder", rules=RuleOptions())


@pytest.mark.parametrize("name", TEAM_OPTIONS)
def test_a_team_option_among_the_rule_options_says_where_it_belongs(name: str) -> None:
    with pytest.raises(ScoringError) as caught:
        options_for(profile="classic", overrides={name: True})
    assert "team option of the stage" in caught.value.message
    assert "阶段" in caught.value.message_zh


def test_other_unknown_rule_options_keep_their_message() -> None:
    with pytest.raises(ScoringError, match="Unknown rule option 'teams'"):
        options_for(profile="classic", overrides={"teams": True})
