"""Stored events keep their rules (docs/rules.md "An event keeps the rules it was created with"): every
option the rulebooks' latest reading added or moved reads a stage stored before it as that stage was
scored then, and a stage stored now with the new reading. Each stage is read back from its stored form
(``RuleOptions.from_stored``, as the site reads ``Stage.rules``) and asked through the command line:

- the late-arrival band under ``timed-40`` (docs/rules.md §7; seed 001 二 首局自动放弃，对手自动升级 read with
  seed 002 三(2) 如果是双贡，赢家升5级): +5 now, the flat +3 a stage stored then;
- ``cap_scope`` (docs/rules.md §7; seed 003 每局比赛时间为1小时30分): a stage stored without it keeps one cap
  for the match;
- Dou Dizhu's ``deals`` (docs/rules.md §10; seed 004 通常为3局、5局或7局): the 3, 5 or 7 stored stay;
- ``landlord_rotation`` (docs/rules.md §10; seed 004 轮流坐庄): a stage stored without it takes any landlord;
- ``cards_left_winner`` (docs/rules.md §10; seed 004 积分最高者为此局的胜利者): a stage stored without it counts
  the side that went out.
"""

from __future__ import annotations

import copy
import io
import json
import sys
from typing import Any

import pytest

from scoring.cli import main
from scoring.options import CapScope, RuleOptions
from scoring.profiles import PROFILES, options_for


def replay_stored(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *,
    profile: str,
    stored: dict[str, Any],
    **data: Any,
) -> tuple[RuleOptions, Any]:
    """The stage's options read back from ``stored``, and the command line's answer under them."""
    options = RuleOptions.from_stored(stored, game=PROFILES[profile].game)
    rules = options.to_stored()
    assert options_for(profile=profile, overrides=rules) == options  # the command line reads the same options
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({"profile": profile, "rules": rules, **data})))
    main(["replay"])
    return options, json.loads(capsys.readouterr().out)


def without(stored: dict[str, Any], name: str) -> dict[str, Any]:
    """``stored`` as a stage stored it before ``name`` existed."""
    assert name in stored
    return {key: value for key, value in stored.items() if key != name}


# -- the late-arrival band under timed-40 --------------------------------------------------------------

LATE_16 = {"deals": [], "adjustments": [{"kind": "late_arrival", "side": "NS", "minutes": 16}]}


def test_a_timed_40_stage_stored_with_the_flat_three_keeps_it_and_one_stored_now_gives_five(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    now = PROFILES["timed-40"].to_stored()
    _options, out = replay_stored(capsys, monkeypatch, profile="timed-40", stored=now, **LATE_16)
    assert out["adjustments"][0]["amount"] == 5 and out["levels"] == {"NS": 2, "EW": 7}
    before = copy.deepcopy(now)
    assert before["late_arrival"][3] == {"up_to_minutes": 20, "penalty": "forfeit_first_deal", "amount": 5}
    before["late_arrival"][3]["amount"] = 3  # the band every stage stored while it was a flat +3
    options, out = replay_stored(capsys, monkeypatch, profile="timed-40", stored=before, **LATE_16)
    assert out["adjustments"][0]["amount"] == 3 and out["levels"] == {"NS": 2, "EW": 5}
    assert options.to_stored() == before  # and it is written back as it was


# -- cap_scope ---------------------------------------------------------------------------------------


def best_of_three(stored: dict[str, Any]) -> dict[str, Any]:
    return {**stored, "format": "best_of", "games": 3}


CALLED_IN_DEAL_2 = {
    "time_called_during_deal": 2,
    "deals": [{"order": ["N", "S"]}, {"order": ["E", "S", "W", "N"]}],  # 5–4 when time is called
}


def test_a_best_of_stored_before_cap_scope_keeps_one_cap_for_the_match(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    now = best_of_three(PROFILES["timed-90"].to_stored())
    options, out = replay_stored(capsys, monkeypatch, profile="timed-90", stored=now, **CALLED_IN_DEAL_2)
    assert options.cap_scope is CapScope.GAME
    assert (out["status"], out["games"]) == ("in_progress", {"NS": 1, "EW": 0})  # game 1 decided, game 2 next
    before = without(now, "cap_scope")
    options, out = replay_stored(capsys, monkeypatch, profile="timed-90", stored=before, **CALLED_IN_DEAL_2)
    assert options.cap_scope is CapScope.MATCH
    assert (out["status"], out["winner"], out["reason"]) == ("finished", "NS", "higher_level")


# -- Dou Dizhu: deals, landlord_rotation, cards_left_winner ---------------------------------------------


def stake_deals(*landlords: str) -> list[dict[str, Any]]:
    return [{"landlord": landlord, "winner": "landlord"} for landlord in landlords]


@pytest.mark.parametrize("deals", [3, 5, 7])
def test_a_dou_dizhu_stage_keeps_the_deals_it_stored(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, deals: int
) -> None:
    stored = {**PROFILES["doudizhu"].to_stored(), "deals": deals}
    options, out = replay_stored(capsys, monkeypatch, profile="doudizhu", stored=stored, deals=stake_deals("E"))
    assert options.deals == deals and out["last_regular_deal"] == deals


def test_a_dou_dizhu_stage_stored_without_deals_plays_three(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = without(PROFILES["doudizhu"].to_stored(), "deals")
    options, out = replay_stored(capsys, monkeypatch, profile="doudizhu", stored=stored, deals=stake_deals("E"))
    assert options.deals == 3 and out["last_regular_deal"] == 3


def test_a_lot_stage_stored_before_the_rotation_takes_any_landlord(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    now = {**PROFILES["doudizhu"].to_stored(), "landlord_by": "lot"}
    _options, out = replay_stored(capsys, monkeypatch, profile="doudizhu", stored=now, deals=stake_deals("S", "S"))
    assert out["error"]["code"] == "invalid_deal" and out["error"]["deal"] == 2  # after S comes E
    before = without(now, "landlord_rotation")
    _options, out = replay_stored(capsys, monkeypatch, profile="doudizhu", stored=before, deals=stake_deals("S", "S"))
    assert out["status"] == "in_progress" and out["next_deal"] == {"number": 3}


def test_a_cards_left_stage_stored_before_the_winner_reading_counts_the_side(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    now = {**PROFILES["doudizhu"].to_stored(), "deal_scoring": "cards_left"}
    deals = [{"landlord": "S", "cards_left": {"E": 5, "S": 3, "W": 0}}]  # farmer W goes out
    _options, out = replay_stored(capsys, monkeypatch, profile="doudizhu", stored=now, deals=deals)
    assert out["deals_won"] == {"E": 0, "S": 0, "W": 1}
    before = without(now, "cards_left_winner")
    _options, out = replay_stored(capsys, monkeypatch, profile="doudizhu", stored=before, deals=deals)
    assert out["deals_won"] == {"E": 1, "S": 0, "W": 1}
    assert out["points"] == {"E": -5, "S": -3, "W": 8}  # the points are the same either way
