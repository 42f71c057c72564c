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


# -- disqualification in every game, Tractor's step-down ---------------------------------------------


def test_a_disqualified_pair_forfeits_the_match_and_its_deals_stand(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/rules.md §7 "Disqualification": 取消比赛资格 for cheating (seed 001 §9(四) 重则判取消参赛资格; seed 004
    一经发现将取消比赛资格). The match is forfeited to the opponents; the deal played stands."""
    data = {
        "profile": "timed-40",
        "deals": [{"order": ["E", "W"]}],
        "adjustments": [{"kind": "disqualification", "side": "EW", "after_deal": 1, "reason": "暗号"}],
    }
    out = cli(capsys, monkeypatch, "replay", data)
    assert (out["status"], out["winner"], out["reason"]) == ("finished", "NS", "forfeit")
    assert out["levels"] == {"NS": 2, "EW": 7}  # the deal E/W played stands
    assert out["adjustments"][0]["effect"] == "disqualified"
    tractor = {
        "profile": "tractor-3deck",
        "deals": [],
        "adjustments": [{"kind": "disqualification", "side": "NS", "reason": "暗号"}],
    }
    out = cli(capsys, monkeypatch, "replay", tractor)
    assert (out["winner"], out["reason"], out["adjustments"][0]["effect"]) == ("EW", "forfeit", "disqualified")


def test_a_disqualification_needs_a_reason(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = {"profile": "classic", "deals": [], "adjustments": [{"kind": "disqualification", "side": "EW"}]}
    out = cli(capsys, monkeypatch, "replay", data)
    assert out["error"]["code"] == "bad_input" and "reason" in out["error"]["message"]


def test_the_standings_rank_a_disqualified_entrant_last_and_mark_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/rules.md §7: ranked last, marked; its results stand for its opponents (B keeps its Buchholz)."""
    data = {
        "profile": "timed-40",
        "disqualified": ["A"],
        "results": [
            {"round": 1, "NS": "A", "EW": "B", "winner": "NS", "levels": {"NS": 14, "EW": 9}, "passed_a": True},
            {"round": 1, "NS": "C", "EW": "D", "winner": "EW", "levels": {"NS": 5, "EW": 9}},
        ],
    }
    out = cli(capsys, monkeypatch, "standings", data)
    rows = out["rows"]
    assert [row["entrant"] for row in rows] == ["D", "C", "B", "A"]
    assert rows[-1]["disqualified"] is True and rows[-1]["rank"] == 4 and rows[-1]["match_points"] == 2
    assert all("disqualified" not in row for row in rows[:-1])
    assert rows[2]["buchholz"] == 2  # B's opponent's match points: A's win stands
    data["disqualified"] = ["Z"]
    out = cli(capsys, monkeypatch, "standings", data)
    assert out["error"]["code"] == "bad_input"


def test_a_disqualification_in_a_stored_match_marks_the_entrant() -> None:
    """The stage's standings read the disqualification from the stored match (one answer)."""
    from scoring.match import replay_json
    from scoring.standings import MatchRecord, rank

    stored = replay_json(
        {
            "profile": "classic",
            "deals": [],
            "adjustments": [{"kind": "disqualification", "side": "NS", "reason": "暗号"}],
        }
    ).to_json()
    record = MatchRecord.from_result_json(round=1, ns="A", ew="B", result=stored)
    assert record.disqualified is not None and record.disqualified_entrant == "A" and record.forfeit is not None
    rows = rank(results=[record], options=PROFILES["classic"]).rows
    assert [(row.entrant, row.disqualified) for row in rows] == [("B", False), ("A", True)]


def tractor(*adjustments: dict[str, Any], deals: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "profile": "tractor-3deck",
        "deals": deals if deals is not None else [{"declarer": "N", "defender_points": 40}],
        "adjustments": list(adjustments),
    }


def test_tractor_declarers_step_down_for_signalling(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/rules.md §7 and §9: seed 001 §9(四) 不得以不正当的手段…来传递非法信息…轻则该轮自动下台 — the
    declarers step down and the defenders declare the next deal at their own level (the declarer's
    right-hand opponent, as after a fall)."""
    step = {"kind": "step_down", "side": "NS", "after_deal": 1, "reason": "暗号"}
    out = cli(capsys, monkeypatch, "replay", tractor(step))
    assert out["levels"] == {"NS": 4, "EW": 2}  # N/S went up 2 in deal 1; nobody's level changes now
    assert out["adjustments"][0]["effect"] == "stepped_down"
    assert out["next_deal"]["declarer"] == "EW" and out["next_deal"]["level"] == 2
    assert out["next_deal"]["declarer_seat"] == "E"  # S would declare (N's partner); E is S's 下家
    out = cli(capsys, monkeypatch, "replay", tractor(step, deals=[{"declarer": "N", "defender_points": 40}] * 2))
    assert out["error"]["code"] == "bad_input" and out["error"]["deal"] == 2  # deal 2 is E/W's to declare


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (tractor({"kind": "step_down", "side": "EW", "after_deal": 1, "reason": "暗号"}), "Only the declarers"),
        (tractor({"kind": "step_down", "side": "NS", "reason": "暗号"}, deals=[]), "Nobody declares yet"),
        (tractor({"kind": "step_down", "side": "NS", "after_deal": 1}), "reason"),
        (
            {"profile": "classic", "deals": [], "adjustments": [{"kind": "step_down", "side": "NS", "reason": "x"}]},
            "Tractor",
        ),
    ],
)
def test_a_step_down_that_cannot_apply_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data: dict[str, Any], words: str
) -> None:
    out = cli(capsys, monkeypatch, "replay", data)
    assert out["error"]["code"] == "bad_input" and words in out["error"]["message"]
