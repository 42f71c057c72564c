"""Penalties and irregularities as docs/rules.md §7 reads the seeds: each test names the seed text it
rests on and the section of docs/rules.md that writes the reading down, and asks the command line the
question the rulebook answers."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from scoring.cli import main
from scoring.options import RuleOptions
from scoring.profiles import PROFILES


def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str, data: Any) -> Any:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(data)))
    main([command])
    return json.loads(capsys.readouterr().out)


# -- late arrival: "as if 1-2" is the event's own 1-2 -------------------------------------------------


def late(profile: str, minutes: int, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "profile": profile,
        "deals": [],
        "adjustments": [{"kind": "late_arrival", "side": "NS", "minutes": minutes}],
    }
    if rules:
        data["rules"] = rules
    return data


def test_sixteen_minutes_late_under_timed_40_gives_the_opponents_seed_002s_one_two(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/rules.md §7 "As if 1-2 is the event's own 1-2": seed 001 二 (16—20分钟～首局自动放弃～对手自动升级)
    read with seed 002 三(2) (如果是双贡，赢家升5级): under timed-40 the opponents gain +5, not +3."""
    out = cli(capsys, monkeypatch, "replay", late("timed-40", 16))
    record = out["adjustments"][0]
    assert (record["effect"], record["amount"]) == ("first_deal_forfeited", 5)
    assert out["levels"] == {"NS": 2, "EW": 7}
    assert out["next_deal"] == {"number": 1, "level": 7, "sets_level": "EW", "extra": False}


@pytest.mark.parametrize(
    ("profile", "rules", "amount"),
    [
        ("classic", None, 3),  # seed 000: 上游的同伴为二游则上游方升3级
        ("timed-90", None, 3),
        ("classic", {"upgrades": {"1-2": 4}}, 4),  # an organiser's own 1-2 moves the band with it
        ("points-6", None, 3),  # seed 004: 同组选手获胜并取得1,2名，积3分
        ("points-6", {"points_table": {"1-2": 4}}, 4),
    ],
)
def test_the_forfeited_first_deal_follows_the_events_one_two(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    profile: str,
    rules: dict[str, Any] | None,
    amount: int,
) -> None:
    """docs/rules.md §7: the 16–20 band gains what the event's 1-2 finish gains (levels, or points in
    fixed_deals_points)."""
    out = cli(capsys, monkeypatch, "replay", late(profile, 20, rules))
    assert out["adjustments"][0]["amount"] == amount


def test_an_explicit_late_arrival_table_keeps_its_own_figure() -> None:
    """docs/rules.md §7: a table given explicitly is not moved by the upgrades."""
    bands = [
        {"up_to_minutes": 20, "penalty": "forfeit_first_deal", "amount": 2},
        {"up_to_minutes": None, "penalty": "forfeit_match", "amount": 0},
    ]
    options = PROFILES["timed-40"].with_overrides({"late_arrival": bands})
    assert options.late_arrival_band(18).amount == 2


def test_a_timed_40_stage_stored_with_the_flat_three_keeps_it() -> None:
    """Events keep their rules (docs/rules.md "An event keeps the rules it was created with"): a stage
    stored while the band was +3 under timed-40 reads back +3, and writes the same JSON again."""
    stored = PROFILES["timed-40"].to_json()
    stored["late_arrival"][3]["amount"] = 3
    options = RuleOptions.from_json(stored)
    assert options.late_arrival_band(16).amount == 3
    assert options.to_json() == stored
    assert PROFILES["timed-40"].late_arrival_band(16).amount == 5
