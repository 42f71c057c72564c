"""Dou Dizhu as docs/rules.md §10 reads seed 004 (掼蛋比赛赛制及规则, its three-player texts): each test
names the seed text and asks the command line the question."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from scoring.cli import main
from scoring.doudizhu_snapshot import TableSnapshot
from scoring.doudizhu_standings import rank_players, table_rounds_from_snapshot
from scoring.errors import ScoringError
from scoring.match import replay_json
from scoring.options import CardsLeftWinner, Game, LandlordRotation, RuleOptions
from scoring.profiles import PROFILES, options_for


def replay(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data: Any) -> tuple[int, Any]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(data)))
    status = main(["replay"])
    return status, json.loads(capsys.readouterr().out)


def stake(landlord: str, winner: str = "landlord") -> dict[str, Any]:
    return {"landlord": landlord, "winner": winner}


# -- deals per table: "usually 3, 5 or 7", any of 1 to 12 --------------------------------------------


@pytest.mark.parametrize("deals", [1, 4, 6, 12])
def test_a_table_may_play_any_number_of_deals_from_1_to_12(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, deals: int
) -> None:
    """docs/rules.md §10 "A table's match": seed 004 比赛可以设置多局制，通常为3局、5局或7局 — usually, not only."""
    status, out = replay(
        capsys, monkeypatch, {"profile": "doudizhu", "rules": {"deals": deals}, "deals": [stake("E")] * deals}
    )
    assert status == 0, out
    assert out["status"] == "finished" and out["last_regular_deal"] == deals
    status, out = replay(
        capsys,
        monkeypatch,
        {"profile": "doudizhu", "rules": {"deals": deals}, "deals": [stake("E")] * (deals + 1)},
    )
    assert (status, out["error"]["code"], out["error"]["deal"]) == (2, "match_finished", deals + 1)


@pytest.mark.parametrize("deals", [0, 13])
def test_more_than_12_or_no_deals_are_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, deals: int
) -> None:
    status, out = replay(capsys, monkeypatch, {"profile": "doudizhu", "rules": {"deals": deals}, "deals": []})
    assert (status, out["error"]["code"]) == (2, "bad_input")


# -- landlord_by lot: the drawn seat, then in turn (轮流坐庄) ------------------------------------------


def lot(*landlords: str, **rules: Any) -> dict[str, Any]:
    return {
        "profile": "doudizhu",
        "rules": {"landlord_by": "lot", "deals": 5, **rules},
        "deals": [stake(seat) for seat in landlords],
    }


def test_the_drawn_landlord_passes_counter_clockwise_deal_by_deal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/rules.md §10 "Landlords drawn by lot pass on in turn": seed 004 轮流坐庄 —
    每轮比赛开始前，通过抽签的方式确定每个桌子的地主座位; the first deal's landlord is drawn, then E → W → S → E as
    play runs (以逆时针顺序)."""
    status, out = replay(capsys, monkeypatch, lot("S", "E", "W", "S"))
    assert status == 0, out
    assert [deal["landlord"] for deal in out["deals"]] == ["S", "E", "W", "S"]
    assert out["next_deal"] == {"number": 5, "landlord": "E"}
    status, out = replay(capsys, monkeypatch, lot("W"))
    assert out["next_deal"] == {"number": 2, "landlord": "S"}  # any seat may be drawn for deal 1


@pytest.mark.parametrize(("landlords", "deal"), [(("S", "E", "S"), 3), (("E", "S"), 2), (("W", "W"), 2)])
def test_a_landlord_out_of_turn_is_an_invalid_deal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, landlords: tuple[str, ...], deal: int
) -> None:
    status, out = replay(capsys, monkeypatch, lot(*landlords))
    assert (status, out["error"]["code"], out["error"]["deal"]) == (2, "invalid_deal", deal)
    assert "轮流坐庄" in out["error"]["message"] and "轮流坐庄" in out["error"]["message_zh"]


def test_bid_landlords_and_the_stored_before_reading_take_any_seat(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out = replay(capsys, monkeypatch, lot("S", "S", "E", landlord_rotation="none"))
    assert status == 0 and out["next_deal"] == {"number": 4}
    bid = {"profile": "doudizhu", "rules": {"deals": 5}, "deals": [stake("S"), stake("S"), stake("E")]}
    status, out = replay(capsys, monkeypatch, bid)
    assert status == 0 and out["next_deal"] == {"number": 4}


# -- cards_left: the deal is won by the player who went out -------------------------------------------


def test_under_cards_left_only_the_player_who_went_out_won_the_deal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/rules.md §10 "Who won a deal under cards_left": seed 004 根据每个玩家手中剩余的牌数给予相应的积分，
    积分最高者为此局的胜利者 — the highest scorer, the player who went out, alone."""
    data = {
        "profile": "doudizhu",
        "rules": {"deal_scoring": "cards_left"},
        "deals": [
            {"landlord": "S", "cards_left": {"E": 5, "S": 3, "W": 0}},  # farmer W out: W alone
            {"landlord": "S", "cards_left": {"E": 2, "S": 0, "W": 4}},  # the landlord out
        ],
    }
    status, out = replay(capsys, monkeypatch, data)
    assert status == 0, out
    assert [deal["winner"] for deal in out["deals"]] == ["farmers", "landlord"]
    assert out["deals_won"] == {"E": 0, "S": 1, "W": 1}
    data["rules"] = {"deal_scoring": "cards_left", "cards_left_winner": "side"}
    status, out = replay(capsys, monkeypatch, data)
    assert out["deals_won"] == {"E": 1, "S": 1, "W": 1}


def test_the_standings_count_deals_won_as_the_fold_did() -> None:
    """The standings' second key reads the fold's ``deals_won``; a table stored before the fold wrote it
    counted the winning side (the reading it was scored under)."""
    data = {
        "profile": "doudizhu",
        "rules": {"deal_scoring": "cards_left"},
        "deals": [{"landlord": "S", "cards_left": {"E": 5, "S": 3, "W": 0}}],
    }
    stored = replay_json(data).to_json()
    seating = {"E": "ann", "S": "bo", "W": "cy"}
    rounds = table_rounds_from_snapshot(round=1, seating=seating, snapshot=TableSnapshot.from_json(stored))
    assert [row.deals_won for row in rounds] == [0, 0, 1]
    assert [TableSnapshot.from_json(stored).deals_won(seat) for seat in "ESW"] == [0, 0, 1]
    older = {key: value for key, value in stored.items() if key != "deals_won"}
    older_rounds = table_rounds_from_snapshot(round=1, seating=seating, snapshot=TableSnapshot.from_json(older))
    assert [row.deals_won for row in older_rounds] == [1, 0, 1]
    assert [TableSnapshot.from_json(older).deals_won(seat) for seat in "ESW"] == [1, 0, 1]


def test_a_stage_stored_before_the_new_options_keeps_its_readings() -> None:
    """docs/rules.md "An event keeps the rules it was created with": stored Dou Dizhu options without
    ``landlord_rotation`` / ``cards_left_winner`` read as they were scored then (``none``, ``side``); a stage
    created now stores the new readings."""
    now = options_for(profile="doudizhu", overrides={"landlord_by": "lot", "deal_scoring": "cards_left"})
    stored = now.to_stored()
    assert RuleOptions.from_stored(stored, game="doudizhu") == now
    older = {key: value for key, value in stored.items() if key not in ("landlord_rotation", "cards_left_winner")}
    kept = RuleOptions.from_stored(older, game="doudizhu")
    assert (kept.landlord_rotation, kept.cards_left_winner) == (LandlordRotation.NONE, CardsLeftWinner.SIDE)
    assert RuleOptions.from_stored({"format": "level_game"}, game="guandan") == RuleOptions.from_json(PROFILES_GUANDAN)


PROFILES_GUANDAN = {"game": "guandan", "format": "level_game"}


def test_stored_options_do_not_hold_the_game_and_are_read_as_the_game_given() -> None:
    """The event stores its game once; a stage's options are stored without it and read back with it
    (no default game): each profile goes round the stored form unchanged, and a ``game`` kept in
    options stored earlier is read over by the one given."""
    for profile in PROFILES.values():
        stored = profile.to_stored()
        assert "game" not in stored
        assert RuleOptions.from_stored(stored, game=profile.game) == profile
    ddz = options_for(profile="doudizhu")
    assert RuleOptions.from_stored(ddz.to_stored(), game="doudizhu").game is Game.DOUDIZHU
    assert RuleOptions.from_stored({**ddz.to_stored(), "game": "guandan"}, game="doudizhu") == ddz
    with pytest.raises(ScoringError):
        RuleOptions.from_stored(ddz.to_stored(), game="chess")


# -- point penalties and disqualification at a three-seat table (docs/rules.md §7) ---------------------


def test_a_point_penalty_comes_off_one_player_and_is_not_zero_sum(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/rules.md §7: in Dou Dizhu points are deducted from one player, not zero-sum, with a reason."""
    data = {
        "profile": "doudizhu",
        "deals": [stake("E"), stake("S", "farmers")],
        "adjustments": [{"kind": "point_penalty", "seat": "W", "points": 5, "after_deal": 1, "reason": "拖延出牌"}],
    }
    status, out = replay(capsys, monkeypatch, data)
    assert status == 0, out
    assert out["points"] == {"E": 3, "S": -3, "W": -5}  # W: −1 in deal 1, −5, +1 in deal 2
    record = out["adjustments"][0]
    assert (record["effect"], record["points_after"]) == ("points_deducted", {"E": 2, "S": -1, "W": -6})
    data["rules"] = {"point_penalties": "recorded"}  # a stage stored before they counted
    status, out = replay(capsys, monkeypatch, data)
    assert out["points"] == {"E": 3, "S": -3, "W": 0} and out["adjustments"][0]["effect"] == "warning"
    data["rules"] = {}
    data["adjustments"][0]["reason"] = ""
    status, out = replay(capsys, monkeypatch, data)
    assert (status, out["error"]["code"]) == (2, "bad_input")


def test_a_disqualified_player_before_the_first_deal_forfeits_the_round(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/rules.md §7 "Disqualification": seed 004 一经发现将取消比赛资格; before the first deal the table is not
    played (as for a no-show), after it the deals played stand and the table ends there."""
    before = {
        "profile": "doudizhu",
        "deals": [],
        "adjustments": [{"kind": "disqualification", "seat": "S", "reason": "作弊"}],
    }
    status, out = replay(capsys, monkeypatch, before)
    assert out["status"] == "finished" and out["points"] == {"E": 0, "S": -6, "W": 0}
    assert out["adjustments"][0]["effect"] == "disqualified"
    after = {
        "profile": "doudizhu",
        "deals": [stake("E"), stake("S", "farmers")],
        "adjustments": [{"kind": "disqualification", "seat": "S", "after_deal": 2, "reason": "作弊"}],
    }
    status, out = replay(capsys, monkeypatch, after)
    assert out["status"] == "finished" and out["points"] == {"E": 3, "S": -3, "W": 0}
    after["deals"].append(stake("W"))
    status, out = replay(capsys, monkeypatch, after)
    assert (status, out["error"]["code"], out["error"]["deal"]) == (2, "match_finished", 3)


def test_the_standings_rank_a_disqualified_player_last_and_mark_it() -> None:
    """docs/rules.md §7: ranked last (below players cut too), marked; the others' results stand."""
    seating = {"E": "ann", "S": "bo", "W": "cy"}
    stored = replay_json(
        {
            "profile": "doudizhu",
            "deals": [stake("S"), stake("S")],
            "adjustments": [{"kind": "disqualification", "seat": "S", "after_deal": 2, "reason": "作弊"}],
        }
    ).to_json()
    rounds = table_rounds_from_snapshot(round=1, seating=seating, snapshot=TableSnapshot.from_json(stored))
    assert [row.outcome.value for row in rounds] == ["played", "disqualified", "played"]
    standings = rank_players(rounds=rounds, eliminated_after={"cy": 1})
    assert [(row.player, row.disqualified) for row in standings.rows] == [
        ("ann", False),
        ("cy", False),
        ("bo", True),
    ]
    assert standings.rows[-1].points == 4 and standings.rows[-1].to_json()["disqualified"] is True
    assert "disqualified" not in standings.rows[0].to_json()
