"""Tractor faults that end or void a deal (seed 001 §9.1, §17, §18; docs/rules.md §9 as corrected for issue
13): the wrong number of bottom cards (``wrong_bottom``), a wrong card count (``wrong_count``) and how they
combine with a revoke."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.cli import main
from scoring.errors import ErrorCode, ScoringError
from scoring.match import replay_json
from scoring.tractor import TractorDeal, WrongCount, parse_tractor_deal


def tractor(*deals: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return replay_json({"profile": "tractor-3deck", "deals": list(deals), **extra}).to_json()


@pytest.mark.parametrize(
    ("points", "result", "upgrade"),
    [(0, "defenders_take_over", 0), (115, "defenders_take_over", 0), (120, "defenders_take_over", 0),
     (185, "defenders_up", 1), (305, "defenders_up", 3)],
)
def test_wrong_bottom_makes_the_declarers_fall(points: int, result: str, upgrade: int) -> None:
    """Seed 001 §9.1 如庄家留错底牌张数则判“下台”: the declarers fall, the defenders declare next; read like a
    declarer's revoke, the defenders go up by the table only from 120 points."""
    out = tractor({"declarer": "N", "defender_points": points, "wrong_bottom": True})
    deal = out["deals"][0]
    assert (deal["result"], deal["upgrade"], deal["wrong_bottom"]) == (result, upgrade, True)
    assert deal["winner"] == "EW" and deal["next_declarer"] == "EW" and deal["next_declarer_seat"] == "W"
    assert out["levels"] == {"NS": 2, "EW": 2 + upgrade}


def test_wrong_bottom_at_the_declarers_own_a_is_no_pass() -> None:
    """Declarers at their own A who buried the wrong bottom fall: they do not pass A."""
    deals = [{"declarer": "NS", "defender_points": -120}] * 3  # 2 → 7 → 12 → A
    out = tractor(*deals, {"defender_points": 0, "wrong_bottom": True})
    assert out["status"] == "in_progress" and out["levels"]["NS"] == 14
    assert out["deals"][-1]["passed_a"] is False and out["next_declarer"] == "EW"


@pytest.mark.parametrize(
    ("count", "points", "result", "upgrade", "winner"),
    [
        ("NS", 40, "defenders_take_over", 0, "EW"),  # the declarers' wrong count: their revoke
        ("NS", 245, "defenders_up", 2, "EW"),
        ("EW", 40, "declarers_up", 2, "NS"),  # the defenders' wrong count: the declarers go up directly
        ("EW", 200, "declarers_up", 1, "NS"),
    ],
)
def test_wrong_count_in_one_hand_is_that_sides_revoke(
    count: str, points: int, result: str, upgrade: int, winner: str
) -> None:
    """Seed 001 §18 牌张数目不符：无错方升级，规则同藏张."""
    as_count = tractor({"declarer": "NS", "defender_points": points, "wrong_count": count})["deals"][0]
    as_revoke = tractor({"declarer": "NS", "defender_points": points, "revoke": count})["deals"][0]
    assert (as_count["result"], as_count["upgrade"], as_count["winner"]) == (result, upgrade, winner)
    assert as_count["wrong_count"] == count and as_count["revoke"] is None
    for key in ("result", "upgrade", "winner", "levels_after", "next_declarer", "next_declarer_seat"):
        assert as_count[key] == as_revoke[key]


def test_wrong_count_in_both_hands_replays_the_deal() -> None:
    """Seed 001 §18 如双方均错则重新该局比赛: the deal changes nothing and the same declarer (same seat)
    declares again; it keeps its deal number."""
    out = tractor(
        {"declarer": "E", "defender_points": 20},  # EW 2 → 4, W declares next
        {"wrong_count": "both"},
        {"defender_points": 20},
    )
    replayed = out["deals"][1]
    assert replayed["result"] == "replayed" and replayed["winner"] is None and replayed["upgrade"] == 0
    assert replayed["wrong_count"] == "both" and replayed["levels_after"] == {"NS": 2, "EW": 4}
    assert (replayed["declarer_seat"], replayed["next_declarer_seat"]) == ("W", "W")
    third = out["deals"][2]
    assert (third["declarer_seat"], third["level"], third["levels_after"]) == ("W", 4, {"NS": 2, "EW": 6})


def test_a_replayed_last_regular_deal_is_played_again() -> None:
    """Time called during deal 2 (one more deal: deal 3 is the last); deal 3 is replayed, so its replay,
    deal 4, is the last regular deal."""
    out = tractor(
        {"declarer": "NS", "defender_points": 20},
        {"defender_points": 200},
        {"wrong_count": "both", "defender_points": 0},
        time_called_during_deal=2,
    )
    assert out["status"] == "in_progress" and out["last_regular_deal"] == 4
    assert out["next_deal"]["number"] == 4
    done = tractor(
        {"declarer": "NS", "defender_points": 20},
        {"defender_points": 200},
        {"wrong_count": "both", "defender_points": 0},
        {"defender_points": 200},
        time_called_during_deal=2,
    )
    # NS 2→4, then EW take over +1 (3), the replay, then NS defend with 200: +1 (5)
    assert done["status"] == "finished" and done["levels"] == {"NS": 5, "EW": 3}
    assert (done["winner"], done["reason"]) == ("NS", "higher_level")


def test_late_points_carry_over_to_the_replay() -> None:
    """A late arrival's −20 belongs to the first deal actually played (seed 001 §2)."""
    out = tractor(
        {"declarer": "NS", "wrong_count": "both"},
        {"defender_points": 110},
        adjustments=[{"kind": "late_arrival", "side": "EW", "minutes": 8}],
    )
    assert out["deals"][0]["penalty_points"] == 0
    assert out["deals"][1]["total_points"] == 90 and out["deals"][1]["penalty_points"] == -20


@pytest.mark.parametrize(
    "deal",
    [
        {"declarer": "NS", "defender_points": 40, "wrong_bottom": "yes"},
        {"declarer": "NS", "defender_points": 40, "wrong_count": "N"},
        {"declarer": "NS", "defender_points": 40, "wrong_count": "all"},
        {"declarer": "NS", "wrong_count": "NS"},  # points are only optional for a replayed deal
    ],
)
def test_bad_fault_keys_are_bad_input(deal: dict[str, Any]) -> None:
    with pytest.raises(ScoringError) as caught:
        parse_tractor_deal(deal, number=3)
    assert caught.value.code is ErrorCode.BAD_INPUT and caught.value.deal == 3


@pytest.mark.parametrize(
    "deal",
    [
        {"declarer": "NS", "defender_points": 40, "wrong_bottom": True, "revoke": "EW"},
        {"declarer": "NS", "defender_points": 40, "wrong_bottom": True, "wrong_count": "EW"},
        {"declarer": "NS", "defender_points": 40, "revoke": "NS", "wrong_count": "EW"},
        {"declarer": "NS", "defender_points": 40, "wrong_count": "both", "revoke": "NS"},
        {"declarer": "NS", "defender_points": 40, "wrong_count": "both", "wrong_bottom": True},
        {"declarer": "NS", "wrong_count": "both", "bottom": {"points": 10, "capture": "pair"}},
    ],
)
def test_conflicting_faults_are_refused_with_the_deal_number(
    deal: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Faults of both sides on one deal cannot both have ended it: the referee records the one that did."""
    path = tmp_path / "match.json"
    path.write_text(json.dumps({"profile": "tractor-3deck", "deals": [deal]}), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "bad_input" and error["deal"] == 1 and error["message_zh"]


def test_same_side_faults_agree() -> None:
    """A declarer's revoke together with the wrong bottom is still one fall."""
    both = tractor({"declarer": "NS", "defender_points": 200, "revoke": "NS", "wrong_bottom": True})
    assert both["deals"][0]["result"] == "defenders_up" and both["deals"][0]["upgrade"] == 1


def test_parse_keeps_the_fault_keys() -> None:
    deal = parse_tractor_deal(
        {"declarer": "NS", "defender_points": 40, "wrong_bottom": True, "wrong_count": "EW"}, number=1
    )
    assert deal == TractorDeal(
        declarer=deal.declarer, defender_points=40, wrong_bottom=True, wrong_count=WrongCount.EW
    )
    replayed = parse_tractor_deal({"wrong_count": "both"}, number=2)
    assert replayed.wrong_count is WrongCount.BOTH and replayed.defender_points == 0


@given(
    st.integers(-120, 72).map(lambda k: 5 * k),
    st.sampled_from(["revoke", "wrong_count", "wrong_bottom"]),
    st.booleans(),
)
def test_a_fault_never_helps_the_faulty_side(points: int, kind: str, by_declarers: bool) -> None:
    """Whatever the points, the faulty side gains nothing and the other side gains at least what it
    would have without the fault (seed 001 §17: 无错方升级)."""
    clean = tractor({"declarer": "NS", "defender_points": points})["deals"][0]
    faulty = "NS" if by_declarers or kind == "wrong_bottom" else "EW"
    key: dict[str, Any] = {"wrong_bottom": True} if kind == "wrong_bottom" else {kind: faulty}
    deal = tractor({"declarer": "NS", "defender_points": points, **key})["deals"][0]
    assert deal["winner"] != faulty
    innocent = "EW" if faulty == "NS" else "NS"
    clean_gain = clean["upgrade"] if clean["winner"] == innocent else 0
    assert deal["upgrade"] >= clean_gain
    if faulty == "NS":
        assert deal["next_declarer"] == "EW"
