"""Dou Dizhu tables (docs/rules.md §10; seed 004 and the national 《中国二打一扑克竞赛规则》): every worked example of
tests/data/doudizhu.json through the rules core and through the CLI, each error code through the CLI (exit
2 with a JSON error naming the deal), the table's match, time caps, and late arrival / no-shows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.cli import main
from scoring.doudizhu import DoudizhuResult, DoudizhuTable, LatePlayer, TableEffect, replay_table, replay_table_partial
from scoring.doudizhu_deals import CardsLeftDeal, StakeDeal, Winner, cards_left_points, deal_multiple, stake_points
from scoring.errors import ErrorCode, ScoringError
from scoring.match import replay, replay_json, start
from scoring.options import RuleOptions
from scoring.outcome import Status
from scoring.profiles import PROFILES, options_for
from scoring.three_seats import ThreeSeat, trio_json
from tests.scoring.test_cli import cli, run_stdin
from tests.scoring.test_vectors import assert_contains

VECTORS = Path(__file__).resolve().parents[1] / "data"
EXAMPLES: list[dict[str, Any]] = json.loads((VECTORS / "doudizhu.json").read_text(encoding="utf-8"))
RESULTS = [example for example in EXAMPLES if "expected" in example]
ERRORS = [example for example in EXAMPLES if "error" in example]
DDZ = PROFILES["doudizhu"]
E, S, W = ThreeSeat.E, ThreeSeat.S, ThreeSeat.W


def test_the_examples_exist() -> None:
    assert len(RESULTS) >= 4 and len(ERRORS) >= 2


@pytest.mark.parametrize("example", RESULTS, ids=[example["why"][:70] for example in RESULTS])
def test_example_through_the_rules_core(example: dict[str, Any]) -> None:
    assert_contains(example["expected"], replay_json(example["input"]).to_json())


@pytest.mark.parametrize("example", RESULTS, ids=[example["why"][:70] for example in RESULTS])
def test_example_through_the_cli(example: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(example["input"]), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert_contains(example["expected"], out)
    # docs/rules.md §10's records, exactly: multiple and stake only under stake scoring
    stake = example["input"].get("rules", {}).get("deal_scoring", "stake") == "stake"
    keys = {"number", "landlord", "winner", "points", "points_after"} | ({"multiple", "stake"} if stake else set())
    assert all(set(record) == keys for record in out["deals"])


@pytest.mark.parametrize("example", ERRORS, ids=[example["why"][:70] for example in ERRORS])
def test_error_example_through_the_rules_core(example: dict[str, Any]) -> None:
    with pytest.raises(ScoringError) as caught:
        replay_json(example["input"])
    assert (caught.value.code.value, caught.value.deal) == (example["error"]["code"], example["error"]["deal"])


@pytest.mark.parametrize("example", ERRORS, ids=[example["why"][:70] for example in ERRORS])
def test_error_example_through_the_real_cli(example: dict[str, Any]) -> None:
    status, out, stderr = cli("replay", stdin=json.dumps(example["input"]))
    assert status == 2 and stderr == ""
    assert {key: out["error"][key] for key in ("code", "deal")} == example["error"]
    assert out["error"]["message"].endswith(".") and out["error"]["message_zh"]


# -- every error code through the CLI -----------------------------------------------------------------


def deal(**fields: Any) -> dict[str, Any]:
    return {"landlord": "E", "winner": "landlord", **fields}


def table(*deals: dict[str, Any], **rules: Any) -> dict[str, Any]:
    return {"profile": "doudizhu", "rules": rules, "deals": list(deals)}


CLI_ERRORS = [
    ("seat not E/S/W", table(deal(), deal(landlord="N")), "invalid_deal", 2),
    ("seat not a string", table(deal(landlord=1)), "invalid_deal", 1),
    ("no landlord", table({"winner": "farmers"}), "invalid_deal", 1),
    ("bid 0", table(deal(bid=0)), "invalid_deal", 1),
    ("bid 4", table(deal(), deal(), deal(bid=4)), "invalid_deal", 3),
    ("bid as text", table(deal(bid="3")), "invalid_deal", 1),
    ("bid 2 when landlords are drawn by lot", table(deal(), deal(bid=2), landlord_by="lot"), "invalid_deal", 2),
    ("negative bombs", table(deal(bombs=-1)), "invalid_deal", 1),
    ("15 bombs", table(deal(bombs=15)), "invalid_deal", 1),
    ("spring not a boolean", table(deal(spring="yes")), "invalid_deal", 1),
    ("missing winner", table({"landlord": "E", "bid": 2}), "invalid_deal", 1),
    ("unknown winner", table(deal(winner="E")), "invalid_deal", 1),
    (
        "cards_left under stake scoring",
        table({"landlord": "E", "cards_left": {"E": 0, "S": 1, "W": 1}}),
        "invalid_deal",
        1,
    ),
    ("winner under cards_left scoring", table(deal(), deal_scoring="cards_left"), "invalid_deal", 1),
    ("no cards_left", table({"landlord": "S"}, deal_scoring="cards_left"), "invalid_deal", 1),
    (
        "two seats went out",
        table({"landlord": "S", "cards_left": {"E": 0, "S": 0, "W": 7}}, deal_scoring="cards_left"),
        "invalid_deal",
        1,
    ),
    (
        "nobody went out",
        table({"landlord": "S", "cards_left": {"E": 1, "S": 2, "W": 7}}, deal_scoring="cards_left"),
        "invalid_deal",
        1,
    ),
    (
        "a farmer with 18 cards",
        table({"landlord": "S", "cards_left": {"E": 18, "S": 0, "W": 7}}, deal_scoring="cards_left"),
        "invalid_deal",
        1,
    ),
    (
        "a landlord with 21 cards",
        table({"landlord": "S", "cards_left": {"E": 0, "S": 21, "W": 7}}, deal_scoring="cards_left"),
        "invalid_deal",
        1,
    ),
    (
        "a seat missing from cards_left",
        table({"landlord": "S", "cards_left": {"E": 0, "S": 3}}, deal_scoring="cards_left"),
        "invalid_deal",
        1,
    ),
    (
        "negative cards",
        table({"landlord": "S", "cards_left": {"E": 0, "S": 3, "W": -1}}, deal_scoring="cards_left"),
        "invalid_deal",
        1,
    ),
    ("a fourth deal at a 3-deal table", table(deal(), deal(), deal(), deal()), "match_finished", 4),
    ("a sixth deal at a 5-deal table", table(*[deal()] * 6, deals=5), "match_finished", 6),
    ("a deal after time was called", {**table(deal(), deal()), "time_called_during_deal": 1}, "match_finished", 2),
    (
        "a deal after a no-show",
        {**table(deal()), "adjustments": [{"kind": "no_show", "seat": "W"}]},
        "match_finished",
        1,
    ),
    ("an unknown deal field", table(deal(note="x")), "bad_input", 1),
    ("a deal that is not an object", table(["E", "landlord"]), "bad_input", 1),
    ("a Guandan option", table(deal(), a_pass="side_not_last"), "bad_input", None),
    ("13 deals a table", table(deal(), deals=13), "bad_input", None),
    ("an unknown profile", {"profile": "doudizhu-9", "deals": []}, "unknown_profile", None),
]


@pytest.mark.parametrize(("why", "data", "code", "number"), CLI_ERRORS, ids=[case[0] for case in CLI_ERRORS])
def test_error_codes_through_the_cli(
    why: str,
    data: dict[str, Any],
    code: str,
    number: int | None,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    del why
    status, out = run_stdin(capsys, monkeypatch, data, "replay")
    assert status == 2
    error = out["error"]
    assert (error["code"], error["deal"]) == (code, number)
    assert error["message"].endswith(".") and error["message_zh"]
    if number is not None and code == "invalid_deal":
        assert f"Deal {number}" in error["message"] and f"第 {number} 局" in error["message_zh"]


def test_error_codes_through_the_real_cli_subprocess() -> None:
    for data, code, number in [
        (table(deal(landlord="N")), "invalid_deal", 1),
        (table(deal(), deal(), deal(), deal()), "match_finished", 4),
    ]:
        status, out, stderr = cli("replay", stdin=json.dumps(data))
        assert (status, stderr, out["error"]["code"], out["error"]["deal"]) == (2, "", code, number)


# -- deal scoring -------------------------------------------------------------------------------------


def test_the_multiple_is_bid_times_two_to_the_bombs_times_spring() -> None:
    assert [deal_multiple(bid=bid, bombs=0, spring=False, cap=None) for bid in (1, 2, 3)] == [1, 2, 3]
    assert deal_multiple(bid=2, bombs=3, spring=False, cap=None) == 16
    assert deal_multiple(bid=2, bombs=3, spring=True, cap=None) == 32
    assert deal_multiple(bid=2, bombs=3, spring=True, cap=24) == 24
    assert deal_multiple(bid=1, bombs=0, spring=False, cap=24) == 1


def test_stake_points_landlord_two_stakes_farmers_one() -> None:
    assert trio_json(stake_points(landlord=S, winner=Winner.LANDLORD, stake=5)) == {"E": -5, "S": 10, "W": -5}
    assert trio_json(stake_points(landlord=S, winner=Winner.FARMERS, stake=5)) == {"E": 5, "S": -10, "W": 5}


def test_cards_left_points() -> None:
    assert cards_left_points(cards_left=(0, 17, 3)) == (20, -17, -3)


def test_base_multiplies_the_stake_and_the_cap_applies_before_it() -> None:
    options = options_for(profile="doudizhu", overrides={"base": 3, "multiple_cap": 8})
    deals = [StakeDeal(landlord=W, winner=Winner.FARMERS, bid=3, bombs=2)]
    record = replay_table(options=options, deals=deals).deals[0]
    assert (record.multiple, record.stake, record.points) == (8, 24, (24, 24, -48))


def test_cards_left_winner_is_the_side_that_went_out_and_the_deal_is_won_by_that_player() -> None:
    """The record's ``winner`` is the side that went out; "deals won" counts the player who went out alone
    (seed 004 积分最高者为此局的胜利者, docs/rules.md §10) — both farmers under the stored-before ``side``."""
    options = options_for(profile="doudizhu", overrides={"deal_scoring": "cards_left"})
    result = replay_table(
        options=options,
        deals=[
            CardsLeftDeal(landlord=E, cards_left=(4, 0, 9)),  # farmer S went out: the farmers win
            CardsLeftDeal(landlord=E, cards_left=(0, 2, 9)),
        ],
    )
    assert [record.winner for record in result.deals] == [Winner.FARMERS, Winner.LANDLORD]
    assert result.points == (-4 + 11, 13 - 2, -9 - 9)
    assert result.deals_won == (1, 1, 0) and result.landlord_wins == (1, 0, 0)
    assert [record.multiple for record in result.deals] == [None, None]
    side = replay_table(options=options.with_overrides({"cards_left_winner": "side"}), deals=result_deals(result))
    assert side.deals_won == (1, 1, 1) and side.landlord_wins == (1, 0, 0)


def result_deals(result: DoudizhuResult) -> list[CardsLeftDeal]:
    return [record.deal for record in result.deals if isinstance(record.deal, CardsLeftDeal)]


def test_deal_values_are_refused_on_construction() -> None:
    with pytest.raises(ScoringError) as caught:
        StakeDeal(landlord=E, winner=Winner.LANDLORD, bid=4)
    assert caught.value.code is ErrorCode.INVALID_DEAL
    with pytest.raises(ScoringError):
        StakeDeal(landlord="N", winner=Winner.LANDLORD)  # type: ignore[arg-type]
    with pytest.raises(ScoringError):
        CardsLeftDeal(landlord=E, cards_left=(0, 0, 3))


# -- the table ----------------------------------------------------------------------------------------


def test_the_table_finishes_after_its_deals_and_counts_wins() -> None:
    deals = [
        StakeDeal(landlord=E, winner=Winner.LANDLORD),
        StakeDeal(landlord=S, winner=Winner.FARMERS, bid=2),
        StakeDeal(landlord=W, winner=Winner.LANDLORD, bid=3, spring=True),
    ]
    state = DoudizhuTable.initial(DDZ)
    for number, item in enumerate(deals, 1):
        assert state.next_deal == number and state.status is Status.IN_PROGRESS
        state, _record = state.apply(item)
    assert state.is_finished and state.next_deal is None
    assert state.points == (2 + 2 - 6, -1 - 4 - 6, -1 + 2 + 12)
    assert state.deals_won == (2, 0, 2) and state.landlord_wins == (1, 0, 1)


def test_apply_is_a_preview_that_changes_nothing() -> None:
    state = DoudizhuTable.initial(DDZ)
    record = state.preview(StakeDeal(landlord=E, winner=Winner.LANDLORD, bid=3))
    assert record.points == (6, -3, -3) and state.points == (0, 0, 0) and state.deals_played == 0


def test_time_called_finishes_the_deal_in_play() -> None:
    options = options_for(profile="doudizhu", overrides={"deals": 7, "time_cap_minutes": 30})
    deals = [StakeDeal(landlord=E, winner=Winner.LANDLORD)] * 3
    result = replay_table(options=options, deals=deals, time_called_during_deal=3)
    assert result.is_finished and result.last_regular_deal == 3 and result.to_json()["next_deal"] is None
    running = replay_table(options=options, deals=deals[:2], time_called_during_deal=3)
    assert running.status is Status.IN_PROGRESS and running.to_json()["next_deal"] == {"number": 3}


def test_start_and_the_guandan_replay_know_dou_dizhu() -> None:
    assert isinstance(start(options=DDZ), DoudizhuTable)
    with pytest.raises(ScoringError, match="Dou Dizhu"):
        replay(options=DDZ, deals=[])
    with pytest.raises(ScoringError):
        DoudizhuTable.initial(RuleOptions())


def test_partial_replay_keeps_what_was_played_before_the_refusal() -> None:
    deals = [StakeDeal(landlord=E, winner=Winner.LANDLORD)] * 5
    partial = replay_table_partial(options=DDZ, deals=deals)
    assert partial.deals_applied == 3 and not partial.complete
    assert partial.error is not None and (partial.error.code, partial.error.deal) == (ErrorCode.MATCH_FINISHED, 4)
    assert partial.result.points == (6, -3, -3) and partial.result.is_finished


# -- late arrival and no-shows ------------------------------------------------------------------------


def test_a_player_late_within_the_limit_is_only_warned() -> None:
    state, record = DoudizhuTable.initial(DDZ).adjust(LatePlayer(seat=S, minutes=10, reason="traffic"))
    assert record.effect is TableEffect.WARNING and state == DoudizhuTable.initial(DDZ)


def test_a_player_late_beyond_the_limit_forfeits_and_the_table_is_not_played() -> None:
    options = options_for(profile="doudizhu", overrides={"base": 2, "bye_points": 1})
    state, record = DoudizhuTable.initial(options).adjust(LatePlayer(seat=S, minutes=11, reason="late"))
    assert record.effect is TableEffect.FORFEIT and state.is_finished
    assert state.points == (1, -12, 1) and state.forfeited == (S,)  # forfeit_points −6 × base
    with pytest.raises(ScoringError) as caught:
        state.apply(StakeDeal(landlord=E, winner=Winner.LANDLORD))
    assert caught.value.code is ErrorCode.MATCH_FINISHED


def test_two_absent_players_both_forfeit() -> None:
    data = {
        "profile": "doudizhu",
        "rules": {"forfeit_points": -5},
        "deals": [],
        "adjustments": [
            {"kind": "no_show", "seat": "W", "reason": "ill"},
            {"kind": "late_arrival", "seat": "E", "minutes": 25},
        ],
    }
    out = replay_json(data).to_json()
    assert out["status"] == "finished" and out["points"] == {"E": -5, "S": 0, "W": -5}
    assert [(item["kind"], item["effect"]) for item in out["adjustments"]] == [
        ("no_show", "forfeit"),
        ("late_arrival", "forfeit"),
    ]
    assert out["adjustments"][0]["reason"] == "ill"


def test_a_late_arrival_after_the_first_deal_is_refused() -> None:
    state, _record = DoudizhuTable.initial(DDZ).apply(StakeDeal(landlord=E, winner=Winner.LANDLORD))
    with pytest.raises(ScoringError, match="before the table's first deal"):
        state.adjust(LatePlayer(seat=S, minutes=30))


@pytest.mark.parametrize(
    "adjustments",
    [
        {"kind": "late_arrival", "seat": "S"},
        [{"kind": "late_arrival", "seat": "S", "minutes": -1}],
        [{"kind": "penalty", "seat": "S"}],
        [{"kind": "no_show", "seat": "N"}],
        [{"kind": "no_show", "seat": "S", "minutes": 3}],
    ],
)
def test_bad_adjustments_exit_2(
    adjustments: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out = run_stdin(capsys, monkeypatch, {**table(), "adjustments": adjustments}, "replay")
    assert status == 2 and out["error"]["code"] == "bad_input"


def test_three_seats_are_their_own_type() -> None:
    assert [seat.value for seat in ThreeSeat] == ["E", "S", "W"]
    assert [seat.position for seat in ThreeSeat] == [0, 1, 2]
    assert S.others == (E, W) and ThreeSeat.parse("W") is W and S.label_zh == "南"
    with pytest.raises(ScoringError) as caught:
        ThreeSeat.parse("N", deal=2)
    assert (caught.value.code, caught.value.deal) == (ErrorCode.INVALID_DEAL, 2)
    assert trio_json((1, 2, -3)) == {"E": 1, "S": 2, "W": -3}


def test_deals_accept_letters_and_words_and_keep_the_types() -> None:
    deal = StakeDeal(landlord="S", winner="farmers")  # type: ignore[arg-type]
    assert deal.landlord is S and deal.winner is Winner.FARMERS
    assert CardsLeftDeal(landlord="W", cards_left=(1, 2, 0)).landlord is W  # type: ignore[arg-type]
    assert DoudizhuTable.initial(DDZ).preview(deal).points == (1, -2, 1)
