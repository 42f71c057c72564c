"""Three-deck Tractor (seed 001; docs/rules.md §9): the level table, bottom multipliers, declarer
rotation, penalties, revoke, late arrival and the one-more-deal timing."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.adjustments import Forfeit, LateArrival, LevelPenalty, PointPenalty
from scoring.errors import ErrorCode, ScoringError
from scoring.match import replay, replay_json
from scoring.profiles import PROFILES
from scoring.seats import Seat, Side
from scoring.tractor import (
    BottomCapture,
    Capture,
    Infraction,
    Penalty,
    TractorDeal,
    TractorResult,
    TractorState,
    level_change,
    parse_tractor_deal,
)

TRACTOR = PROFILES["tractor-3deck"]


def tractor(*deals: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return replay_json({"profile": "tractor-3deck", "deals": list(deals), **extra}).to_json()


@pytest.mark.parametrize(
    ("points", "result", "levels"),
    [
        (-175, "declarers_up", 5),
        (-120, "declarers_up", 5),
        (-115, "declarers_up", 4),
        (-60, "declarers_up", 4),
        (-55, "declarers_up", 3),
        (0, "declarers_up", 3),
        (5, "declarers_up", 2),
        (55, "declarers_up", 2),
        (60, "declarers_up", 1),
        (115, "declarers_up", 1),
        (120, "defenders_take_over", 0),
        (175, "defenders_take_over", 0),
        (180, "defenders_up", 1),
        (235, "defenders_up", 1),
        (240, "defenders_up", 2),
        (295, "defenders_up", 2),
        (300, "defenders_up", 3),
        (355, "defenders_up", 3),
        (360, "defenders_up", 4),
        (415, "defenders_up", 4),
        (420, "defenders_up", 5),
    ],
)
def test_every_band_of_the_seed_001_table(points: int, result: str, levels: int) -> None:
    """Seed 001 §4: 0 to −55 declarers +3, 5–55 +2, 60–115 +1, 120–175 defenders take over, 180–235 +1,
    240–295 +2, 300–355 +3; each further 60 below −55 or above 355 is one more level."""
    change = level_change(points)
    assert (change.result.value, change.levels) == (result, levels)


@pytest.mark.parametrize(
    ("capture", "multiplier"),
    [
        ("single", 2),
        ("pair", 3),
        ("triple", 4),
        ("tractor_2_pairs", 5),
        ("tractor_3_pairs", 6),
        ("tractor_2_triples", 7),
    ],
)
def test_bottom_capture_multipliers(capture: str, multiplier: int) -> None:
    """Seed 001 §15 (抠底): single ×2, pair ×3, triple ×4, 7788 ×5, 667788 ×6, 777888 ×7."""
    bottom = BottomCapture(25, Capture(capture))
    assert bottom.multiplier == multiplier and bottom.total == 25 * multiplier
    out = tractor({"declarer": "NS", "defender_points": 60, "bottom": {"points": 25, "capture": capture}})
    assert out["deals"][0]["total_points"] == 60 + 25 * multiplier


def test_rotation_after_an_upgrade_and_after_a_fall() -> None:
    """Seed 001 §8: declarers upgrade → the declarer's partner declares; declarers fall → the declarer's
    right-hand opponent (下家) declares."""
    out = tractor(
        {"declarer": "N", "defender_points": 40},  # NS +2: S declares next
        {"defender_points": 130},  # NS fall: S's right-hand opponent E declares
        {"defender_points": 95},  # EW +1: W declares
    )
    deals = out["deals"]
    assert [(d["declarer_seat"], d["next_declarer_seat"]) for d in deals] == [
        ("N", "S"),
        ("S", "E"),
        ("E", "W"),
    ]
    assert [d["next_declarer"] for d in deals] == ["NS", "EW", "EW"]
    assert out["levels"] == {"NS": 4, "EW": 3}
    assert out["next_declarer"] == "EW" and out["next_deal"]["declarer_seat"] == "W"
    assert out["next_deal"]["level"] == 3


def test_defenders_upgrade_from_their_own_level_and_take_the_declaration() -> None:
    out = tractor({"declarer": "NS", "defender_points": 250})
    deal = out["deals"][0]
    assert (deal["result"], deal["winner"], deal["upgrade"]) == ("defenders_up", "EW", 2)
    assert deal["levels_after"] == {"NS": 2, "EW": 4} and deal["next_declarer"] == "EW"


def test_sides_without_seats_rotate_too() -> None:
    out = tractor({"declarer": "EW", "defender_points": 100}, {"declarer": "EW", "defender_points": 200})
    assert out["next_declarer"] == "NS" and out["deals"][1]["declarer_seat"] is None


def test_penalties_are_20_points_each() -> None:
    """Seed 001 §13/§16/§19/§20: 20 points each — off the defenders' points when they offend, added to
    them when the declarers offend."""
    out = tractor(
        {
            "declarer": "NS",
            "defender_points": 100,
            "penalties": [{"side": "NS", "kind": "exposed_card"}, {"side": "NS", "kind": "failed_throw"}],
        }
    )
    assert out["deals"][0]["total_points"] == 140 and out["deals"][0]["result"] == "defenders_take_over"
    out = tractor(
        {"declarer": "NS", "defender_points": 10, "penalties": [{"side": "EW", "kind": "out_of_turn"}]}
    )
    assert out["deals"][0]["total_points"] == -10 and out["deals"][0]["upgrade"] == 3


@pytest.mark.parametrize(
    ("revoke", "points", "result", "upgrade"),
    [
        ("NS", 0, "defenders_take_over", 0),  # declarers revoke: they fall; under 120 the defenders +0
        ("NS", 40, "defenders_take_over", 0),  # (this was +1 before docs/rules.md §9 was corrected)
        ("NS", 120, "defenders_take_over", 0),  # 满120分: the table's take-over
        ("NS", 250, "defenders_up", 2),  # … and by the table when the points give more
        ("EW", 200, "declarers_up", 1),  # defenders revoke: declarers upgrade at least one level
        ("EW", 10, "declarers_up", 2),  # … and by the table under 120
        ("EW", 115, "declarers_up", 1),
    ],
)
def test_revoke_ends_the_deal_and_the_other_side_upgrades(
    revoke: str, points: int, result: str, upgrade: int
) -> None:
    """Seed 001 §17 (藏张; docs/rules.md §9 as corrected): 如庄家藏张除判下台外并根据分数，满120分，
    防家升级 — a declarer's revoke makes the declarers fall and the defenders go up by the table only from
    120 points; 防家藏张则判庄家直接升级并根据分数，不够120分，升级 — a defender's revoke sends the
    declarers up by the table under 120 points, at least one level."""
    deal = tractor({"declarer": "NS", "defender_points": points, "revoke": revoke})["deals"][0]
    assert (deal["result"], deal["upgrade"], deal["revoke"]) == (result, upgrade, revoke)


def test_declarers_keeping_their_a_win_the_game() -> None:
    """Levels stop at A; declarers who keep the declaration at their own A pass A (docs/rules.md §1 by analogy)."""
    deals = [{"declarer": "NS", "defender_points": -120}, {"defender_points": -120}, {"defender_points": 0}]
    mid = tractor(*deals)
    assert mid["levels"] == {"NS": 14, "EW": 2} and mid["deals"][-1]["upgrade"] == 2
    out = tractor(*deals, {"defender_points": 115})
    assert (out["status"], out["winner"], out["reason"]) == ("finished", "NS", "passed_a")
    assert out["next_declarer"] is None
    with pytest.raises(ScoringError) as caught:
        tractor(*deals, {"defender_points": 115}, {"defender_points": 5})
    assert caught.value.code is ErrorCode.MATCH_FINISHED and caught.value.deal == 5


def test_one_more_deal_in_the_last_10_minutes() -> None:
    """Seed 001 §3: time called during deal k → one more deal (k+1) ends the round; higher level wins."""
    open_round = tractor({"declarer": "NS", "defender_points": 40}, time_called_during_deal=1)
    assert open_round["status"] == "in_progress" and open_round["last_regular_deal"] == 2
    out = tractor(
        {"declarer": "NS", "defender_points": 40}, {"defender_points": 200}, time_called_during_deal=1
    )
    assert (out["status"], out["winner"], out["reason"]) == ("finished", "NS", "higher_level")
    assert out["levels"] == {"NS": 4, "EW": 3}


def test_equal_levels_at_time_first_to_reach() -> None:
    out = tractor(
        {"declarer": "NS", "defender_points": 40},  # NS 4 at deal 1
        {"defender_points": 240},  # EW 4 at deal 2
        time_called_during_deal=1,
    )
    assert (out["winner"], out["reason"]) == ("NS", "first_to_reach")


@pytest.mark.parametrize(
    ("minutes", "declarer", "total", "effect"),
    [
        (3, "NS", 100, "warning"),
        (8, "NS", 80, "next_deal_points"),  # EW late and defending: −20 off their points
        (12, "NS", 70, "next_deal_points"),
        (8, "EW", 120, "next_deal_points"),  # EW late and declaring: +20 to the defenders (NS)
    ],
)
def test_late_arrival_points_in_the_first_deal(minutes: int, declarer: str, total: int, effect: str) -> None:
    """Seed 001 §2: 6–10 minutes −20 points in the first deal, 11–15 −30 (here EW is late)."""
    out = tractor(
        {"declarer": declarer, "defender_points": 100},
        adjustments=[{"kind": "late_arrival", "side": "EW", "minutes": minutes}],
    )
    assert out["adjustments"][0]["effect"] == effect
    assert out["deals"][0]["total_points"] == total


def test_late_arrival_16_to_20_forfeits_the_first_deal() -> None:
    """Seed 001 §2: 首局自动放弃，对手自动升级 — the opponents upgrade and declare the next deal."""
    out = replay(
        options=TRACTOR,
        deals=[TractorDeal(defender_points=40)],
        adjustments=[LateArrival(side=Side.NS, minutes=18)],
    ).to_json()
    assert out["adjustments"][0]["effect"] == "first_deal_forfeited"
    assert out["deals"][0]["declarer"] == "EW" and out["deals"][0]["level"] == 3
    assert out["levels"] == {"NS": 2, "EW": 5}


def test_late_arrival_21_minutes_forfeits_the_round() -> None:
    out = replay(options=TRACTOR, deals=[], adjustments=[LateArrival(side=Side.NS, minutes=21)])
    assert out.winner is Side.EW and out.reason is not None and out.reason.value == "forfeit"


def test_other_adjustments() -> None:
    state = TractorState.initial(TRACTOR)
    state, record = state.adjust(LevelPenalty(side=Side.NS, levels=2))
    assert state.levels == (2, 4) and record.amount == 2
    state, _ = state.adjust(PointPenalty(side=Side.EW, points=20))
    state, deal = state.apply(TractorDeal(declarer=Side.NS, defender_points=100))
    assert deal.total_points == 80 and state.pending_points == (0, 0)
    state, _ = state.adjust(Forfeit(side=None))
    assert state.is_finished and state.winner is None
    with pytest.raises(ScoringError) as caught:
        state.adjust(Forfeit(side=Side.NS))
    assert caught.value.code is ErrorCode.MATCH_FINISHED


def test_declarer_must_follow_the_rotation() -> None:
    with pytest.raises(ScoringError) as caught:
        tractor({"declarer": "NS", "defender_points": 130}, {"declarer": "NS", "defender_points": 40})
    assert caught.value.deal == 2 and "declared by EW" in caught.value.message
    with pytest.raises(ScoringError, match="declared by seat S"):
        tractor({"declarer": "N", "defender_points": 40}, {"declarer": "N", "defender_points": 40})
    with pytest.raises(ScoringError, match="needs the 'declarer'") as first:
        tractor({"defender_points": 40})
    assert first.value.deal == 1


@pytest.mark.parametrize(
    "deal",
    [
        {"declarer": "NS"},
        {"declarer": "NS", "defender_points": 42},
        {"declarer": "NS", "defender_points": "40"},
        {"declarer": "XY", "defender_points": 40},
        {"declarer": "NS", "defender_points": 40, "bottom": {"points": 10, "capture": "quad"}},
        {"declarer": "NS", "defender_points": 40, "bottom": {"points": -10, "capture": "pair"}},
        {"declarer": "NS", "defender_points": 40, "bottom": [10, "pair"]},
        {"declarer": "NS", "defender_points": 40, "penalties": [{"side": "NS", "kind": "yawning"}]},
        {"declarer": "NS", "defender_points": 40, "penalties": {"side": "NS"}},
        {"declarer": "NS", "defender_points": 40, "penalties": [{"side": "NS"}]},
        {"declarer": "NS", "defender_points": 40, "revoke": "N"},
        {"declarer": "NS", "defender_points": 40, "trump": "hearts"},
        {"order": ["N", "S"]},
    ],
)
def test_bad_tractor_deals_are_bad_input_with_the_deal_number(deal: dict[str, Any]) -> None:
    with pytest.raises(ScoringError) as caught:
        parse_tractor_deal(deal, number=4)
    assert caught.value.code is ErrorCode.BAD_INPUT and caught.value.deal == 4


def test_parse_a_full_tractor_deal() -> None:
    deal = parse_tractor_deal(
        {
            "declarer": "E",
            "defender_points": 85,
            "bottom": {"points": 15, "capture": "tractor_2_pairs"},
            "penalties": [{"side": "NS", "kind": "wrong_follow"}],
            "revoke": None,
        },
        number=1,
    )
    assert deal == TractorDeal(
        declarer=Side.EW,
        declarer_seat=Seat.E,
        defender_points=85,
        bottom=BottomCapture(15, Capture.TRACTOR_2_PAIRS),
        penalties=(Penalty(Side.NS, Infraction.WRONG_FOLLOW),),
    )


def test_a_guandan_order_in_a_tractor_match_is_refused() -> None:
    from scoring.finishing_order import FinishingOrder

    with pytest.raises(ScoringError) as caught:
        replay(options=TRACTOR, deals=[FinishingOrder.parse("N S")])
    assert caught.value.deal == 1
    with pytest.raises(ScoringError, match="Guandan options"):
        TractorState.initial(PROFILES["classic"])


def test_a_full_tractor_match_on_the_command_line() -> None:
    """``{"profile": "tractor-3deck", "deals": [{"declarer": "NS", "defender_points": 125}, …]}``
    reports the levels, the declarer of each next deal and the result."""
    out = tractor(
        {"declarer": "NS", "defender_points": 125},
        {"defender_points": 35},
        {"defender_points": 185},
        {"defender_points": 0, "bottom": {"points": 20, "capture": "single"}},
        {"defender_points": -20},
    )
    assert [deal["result"] for deal in out["deals"]] == [
        TractorResult.DEFENDERS_TAKE_OVER.value,
        "declarers_up",
        "defenders_up",
        "declarers_up",
        "declarers_up",
    ]
    assert [deal["next_declarer"] for deal in out["deals"]] == ["EW", "EW", "NS", "NS", "NS"]
    assert out["levels"] == {"NS": 8, "EW": 4}
    assert (out["status"], out["winner"], out["next_declarer"]) == ("in_progress", None, "NS")
    assert "a_failures" not in out


def test_preview_commits_nothing() -> None:
    state = TractorState.initial(TRACTOR)
    preview = state.preview(TractorDeal(declarer=Side.NS, defender_points=10))
    assert preview.upgrade == 2 and state.deals_played == 0 and state.next_deal is not None
    called = state.call_time(during_deal=1)
    assert called.last_regular_deal == 2
