"""Adjustments beside the deals: forfeits, late arrival, level and point penalties (docs/rules.md §5, §7;
seed 001 §2)."""

from __future__ import annotations

import pytest

from scoring.adjustments import (
    Forfeit,
    LateArrival,
    LevelPenalty,
    PointPenalty,
    parse_adjustment,
    parse_adjustments,
)
from scoring.errors import ErrorCode, ScoringError
from scoring.finishing_order import FinishingOrder
from scoring.match import MatchState, replay, replay_json
from scoring.profiles import PROFILES
from scoring.seats import Side


def orders(*texts: str) -> list[FinishingOrder]:
    return [FinishingOrder.parse(text) for text in texts]


def test_forfeit_is_a_walkover_for_the_other_side() -> None:
    """docs/rules.md §4/§5 (seed 004: a pair whose partner does not turn up forfeits): the other side wins."""
    out = replay(options=PROFILES["timed-90"], deals=[], adjustments=[Forfeit(side=Side.EW)]).to_json()
    assert (out["status"], out["winner"], out["reason"]) == ("finished", "NS", "forfeit")
    assert out["adjustments"][0]["effect"] == "forfeit"


def test_double_forfeit_has_no_winner() -> None:
    """docs/rules.md §5: double forfeit — both lose."""
    out = replay(options=PROFILES["classic"], deals=[], adjustments=[Forfeit(side=None)]).to_json()
    assert (out["status"], out["winner"], out["reason"]) == ("finished", None, "forfeit")


def test_forfeit_mid_match_and_no_deal_after_it() -> None:
    adjustment = Forfeit(side=Side.NS, after_deal=2, reason="partner left")
    out = replay(options=PROFILES["classic"], deals=orders("N S", "N S"), adjustments=[adjustment])
    assert out.winner is Side.EW
    with pytest.raises(ScoringError) as caught:
        replay(options=PROFILES["classic"], deals=orders("N S", "N S", "N S"), adjustments=[adjustment])
    assert caught.value.code is ErrorCode.MATCH_FINISHED and caught.value.deal == 3


@pytest.mark.parametrize(
    ("minutes", "effect", "levels"),
    [
        (0, "warning", {"NS": 2, "EW": 2}),
        (5, "warning", {"NS": 2, "EW": 2}),
        (6, "opponents_upgrade", {"NS": 3, "EW": 2}),
        (10, "opponents_upgrade", {"NS": 3, "EW": 2}),
        (11, "opponents_upgrade", {"NS": 4, "EW": 2}),
        (15, "opponents_upgrade", {"NS": 4, "EW": 2}),
        # as if 1-2 under timed-40's own upgrades (seed 002 三(2): 双贡升5级): 2 + 5
        (16, "first_deal_forfeited", {"NS": 7, "EW": 2}),
        (20, "first_deal_forfeited", {"NS": 7, "EW": 2}),
        (21, "forfeit", {"NS": 2, "EW": 2}),
    ],
)
def test_late_arrival_bands_in_a_level_game(minutes: int, effect: str, levels: dict[str, int]) -> None:
    """docs/rules.md §7 (seed 001 adapted): ≤5 warning; 6–10, 11–15 a deduction (opponents +1, +2 levels);
    16–20 the first deal forfeited as if the opponents finished 1-2; ≥21 the match forfeited."""
    out = replay(
        options=PROFILES["timed-40"], deals=[], adjustments=[LateArrival(side=Side.EW, minutes=minutes)]
    ).to_json()
    assert out["adjustments"][0]["effect"] == effect
    assert out["levels"] == levels
    if effect == "forfeit":
        assert out["winner"] == "NS"


def test_forfeited_first_deal_sets_the_level_of_the_next() -> None:
    """docs/rules.md §7: the opponents upgrade as if 1-2 — so they also set the level of the next deal."""
    out = replay(
        options=PROFILES["timed-40"],
        deals=orders("E W"),
        adjustments=[LateArrival(side=Side.EW, minutes=18)],
    ).to_json()
    # timed-40's 1-2 finish is +5 (seed 002 三(2)): N/S at 7 sets the level of deal 1
    assert out["deals"][0]["level"] == 7 and out["deals"][0]["sets_level"] == "NS"


def test_forfeited_first_deal_counts_toward_six_deals() -> None:
    """Seed 004's six deals with a forfeited first deal: five more deals are played."""
    late = [LateArrival(side=Side.NS, minutes=17)]
    out = replay(options=PROFILES["points-6"], deals=orders(*["E W"] * 5), adjustments=late).to_json()
    assert out["last_regular_deal"] == 5 and out["status"] == "finished"
    assert out["points"] == {"NS": 0, "EW": 18} and out["adjustments"][0]["points_after"] == {
        "NS": 0,
        "EW": 3,
    }


def test_forfeited_first_deal_only_before_the_first_deal() -> None:
    with pytest.raises(ScoringError, match="before the first deal"):
        replay(
            options=PROFILES["timed-40"],
            deals=orders("N S"),
            adjustments=[LateArrival(side=Side.EW, minutes=18, after_deal=1)],
        )


def test_late_arrival_deducts_points_in_a_points_format() -> None:
    """docs/rules.md §7: in points formats the deduction comes off the late pair's points."""
    out = replay(
        options=PROFILES["points-6"], deals=orders("N S"), adjustments=[LateArrival(side=Side.NS, minutes=12)]
    ).to_json()
    assert out["points"] == {"NS": 1, "EW": 0}


def test_level_penalty_upgrades_the_opponents_but_never_past_a() -> None:
    """docs/rules.md §7 (misconduct): the opponents upgrade N levels — capped at A, never passing A."""
    penalty = LevelPenalty(side=Side.EW, levels=5, after_deal=3, reason="signalling")
    out = replay(options=PROFILES["classic"], deals=orders("N S", "N S", "N S"), adjustments=[penalty])
    assert out.levels == (14, 2) and out.status.value == "in_progress"
    assert out.adjustments[0].amount == 3
    assert out.to_json()["adjustments"][0]["reason"] == "signalling"


def test_a_level_penalty_counts_for_first_to_reach() -> None:
    """Seed 002's first_to_reach compares when levels were reached; a penalty's upgrade is reached when
    it is given. EW reach 7 by a penalty before deal 1, NS reach 7 in deal 1 (seed 002's 1-2 is +5):
    EW were first."""
    out = replay(
        options=PROFILES["timed-40"],
        deals=orders("N S"),
        adjustments=[LevelPenalty(side=Side.NS, levels=5)],
        time_called_during_deal=1,
    )
    assert out.levels == (7, 7) and out.winner is Side.EW
    assert out.reason is not None and out.reason.value == "first_to_reach"


def test_point_penalty_only_in_points_formats_and_level_penalty_only_in_level_games() -> None:
    out = replay(
        options=PROFILES["points-6"],
        deals=orders("N S"),
        adjustments=[PointPenalty(side=Side.NS, points=2, after_deal=1)],
    )
    assert out.points == (1, 0)
    with pytest.raises(ScoringError, match="level penalty cannot apply"):
        replay(options=PROFILES["points-6"], deals=[], adjustments=[LevelPenalty(side=Side.NS, levels=1)])
    with pytest.raises(ScoringError, match="point penalty needs a points format"):
        replay(options=PROFILES["classic"], deals=[], adjustments=[PointPenalty(side=Side.NS, points=1)])


def test_adjustment_errors_name_the_deal() -> None:
    with pytest.raises(ScoringError) as caught:
        replay(
            options=PROFILES["classic"],
            deals=orders("N S"),
            adjustments=[Forfeit(side=Side.NS, after_deal=2)],
        )
    assert caught.value.code is ErrorCode.BAD_INPUT and "only 1 deals" in caught.value.message
    finished = MatchState.initial(PROFILES["classic"]).adjust(Forfeit(side=Side.NS))[0]
    with pytest.raises(ScoringError) as again:
        finished.adjust(LevelPenalty(side=Side.NS, levels=1))
    assert again.value.code is ErrorCode.MATCH_FINISHED


def test_adjustments_from_json() -> None:
    assert parse_adjustment({"kind": "forfeit", "side": "both"}) == Forfeit(side=None)
    assert parse_adjustment({"kind": "late_arrival", "side": "NS", "minutes": 7}) == LateArrival(
        side=Side.NS, minutes=7
    )
    assert parse_adjustments(
        [{"kind": "level_penalty", "side": "EW", "levels": 2, "after_deal": 3, "reason": "slow play"}]
    ) == (LevelPenalty(side=Side.EW, levels=2, after_deal=3, reason="slow play"),)
    assert parse_adjustment({"kind": "point_penalty", "side": "EW", "points": 1}) == PointPenalty(
        side=Side.EW, points=1
    )
    for bad in (
        None,
        {"kind": "nap"},
        {"kind": "forfeit", "side": "XX"},
        {"kind": "late_arrival", "side": "NS", "minutes": -1},
        {"kind": "level_penalty", "side": "NS", "levels": 0},
        {"kind": "level_penalty", "side": "NS", "levels": 1, "extra": 1},
        {"kind": "forfeit", "side": "NS", "reason": 5},
    ):
        with pytest.raises(ScoringError) as caught:
            parse_adjustment(bad)
        assert caught.value.code is ErrorCode.BAD_INPUT
    with pytest.raises(ScoringError):
        parse_adjustments({"kind": "forfeit"})


def test_adjustments_through_replay_json() -> None:
    out = replay_json(
        {
            "profile": "timed-40",
            "deals": [{"order": ["N", "S"]}],
            "adjustments": [{"kind": "late_arrival", "side": "EW", "minutes": 8}],
        }
    ).to_json()
    assert out["levels"] == {"NS": 8, "EW": 2}  # seed 002's 1-2 is +5 (三(2)), then the late band's +1
    assert out["adjustments"] == [
        {
            "kind": "late_arrival",
            "side": "EW",
            "minutes": 8,
            "after_deal": 0,
            "effect": "opponents_upgrade",
            "amount": 1,
            "levels_after": {"NS": 3, "EW": 2},
        }
    ]
