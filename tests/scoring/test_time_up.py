"""What happens at time-up, said plainly (docs/rules.md §2): one case per option, each folded
by the rules core's replay, then read by ``time_up_notice``."""

from __future__ import annotations

from typing import Any

from scoring.finishing_order import FinishingOrder
from scoring.match import replay
from scoring.outcome import Reason, Status
from scoring.profiles import options_for
from scoring.seats import Side
from scoring.time_up import TimeUpStep, time_up_notice


def notice(overrides: dict[str, Any], *orders: str, called: int | None):
    options = options_for(profile="timed-40", overrides=overrides)
    deals = [FinishingOrder.parse(list(order)) for order in orders]
    result = replay(options=options, deals=deals, time_called_during_deal=called)
    return time_up_notice(
        options=result.options,
        time_called_during_deal=called,
        status=result.status,
        winner=result.winner,
        reason=result.reason,
        deals_played=len(result.deals),
        last_regular_deal=result.last_regular_deal,
    )


def test_no_notice_before_time_is_called():
    assert notice({}, "NES", called=None) is None


def test_finish_current_deal_makes_the_deal_being_played_the_last():
    told = notice({"at_time_up": "finish_current_deal", "time_up_tie": "first_to_reach"}, "NES", "ENW", called=3)
    assert (told.step, told.last_deal) == (TimeUpStep.LAST_DEAL, 3)
    assert told.text_en.startswith("Deal 3 is the last deal;")
    assert "reached that level first" in told.text_en
    assert told.text_zh.startswith("第 3 副为最后一副") and "先到该级" in told.text_zh


def test_one_more_deal_is_played_then_the_next_is_the_last():
    overrides = {"at_time_up": "one_more_deal", "time_up_tie": "extra_deal"}
    told = notice(overrides, "NES", "ENW", called=3)
    assert (told.step, told.last_deal) == (TimeUpStep.ONE_MORE_DEAL, 4)
    assert "one more deal is played (deal 4 is the last)" in told.text_en
    assert "再打一副（第 4 副为最后一副）" in told.text_zh and "加赛一副" in told.text_zh
    after = notice(overrides, "NES", "ENW", "NES", called=3)  # deal 3 played: deal 4 is being played
    assert (after.step, after.last_deal) == (TimeUpStep.LAST_DEAL, 4)


def test_equal_levels_and_first_to_reach_name_the_winner():
    told = notice({"time_up_tie": "first_to_reach"}, "NES", "ENW", called=2)  # 4 : 4, N/S reached 4 first
    assert (told.step, told.winner, told.reason) == (TimeUpStep.DECIDED, Side.NS, Reason.FIRST_TO_REACH)
    assert told.text_en == "Levels are equal: first to reach wins: N/S."
    assert told.text_zh == "级数相同：先到者胜：南北。"


def test_equal_levels_and_extra_deal_say_an_extra_deal_decides_then_its_result():
    told = notice({"time_up_tie": "extra_deal"}, "NES", "ENW", called=2)
    assert (told.step, told.last_deal) == (TimeUpStep.EXTRA_DEAL, 3)
    assert told.text_en == "Levels are equal: an extra deal (deal 3) decides."
    assert told.text_zh == "级数相同：加赛一副（第 3 副）决定胜负。"
    decided = notice({"time_up_tie": "extra_deal"}, "NES", "ENW", "WSE", called=2)
    assert (decided.step, decided.winner, decided.reason) == (TimeUpStep.DECIDED, Side.EW, Reason.EXTRA_DEAL)
    assert decided.text_en == "The extra deal decided: E/W win."


def test_a_higher_level_wins_at_time_up():
    told = notice({}, "NES", called=1)
    assert (told.step, told.winner, told.reason) == (TimeUpStep.DECIDED, Side.NS, Reason.HIGHER_LEVEL)
    assert told.text_en == "Time is up: N/S win on the higher level."
    assert told.text_zh == "时间到：南北级数领先获胜。"


def test_the_side_on_stage_and_a_draw():
    on_stage = notice({"time_up_tie": "setting_side"}, "NES", "ENW", called=2)
    assert (on_stage.winner, on_stage.reason) == (Side.EW, Reason.SETTING_SIDE)
    assert on_stage.text_en == "Levels are equal: the side on stage wins: E/W."
    draw = notice({"time_up_tie": "draw"}, "NES", "ENW", called=2)  # a Swiss stage's rule
    assert (draw.step, draw.winner) == (TimeUpStep.DECIDED, None)
    assert draw.text_en == "Levels are equal: the match is a draw." and draw.text_zh == "级数相同：本场平局。"


def test_the_notice_from_the_snapshot_fields_and_as_json():
    told = time_up_notice(
        options=options_for(profile="timed-40"),
        time_called_during_deal=5,
        status=Status.IN_PROGRESS,
        winner=None,
        reason=None,
        deals_played=4,
        last_regular_deal=5,
    )
    assert told is not None
    assert told.to_json()["step"] == "last_deal" and told.to_json()["text_zh"].startswith("第 5 副为最后一副")
