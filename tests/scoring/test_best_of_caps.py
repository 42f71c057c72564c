"""A time cap in a best-of-N (docs/rules.md §7 "A time cap in a best-of-N", option cap_scope): seed 003
联鑫钢铁第四届掼蛋争霸赛 caps each game — 每局比赛时间为1小时30分…若时间到，同级的加赛一牌，先升级的为获胜方."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from scoring.cli import main
from scoring.errors import ScoringError
from scoring.finishing_order import FinishingOrder
from scoring.match import MatchState, replay
from scoring.options import CapScope
from scoring.profiles import PROFILES, options_for

N_S, E_W = ["N", "S"], ["E", "W"]
NS_13, EW_13 = ["N", "E", "S", "W"], ["E", "S", "W", "N"]


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data: Any) -> Any:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(data)))
    main(["replay"])
    return json.loads(capsys.readouterr().out)


def best_of(calls: Any, *orders: list[str], **rules: Any) -> dict[str, Any]:
    return {
        "profile": "timed-90",
        "rules": {"format": "best_of", "games": 3, **rules},
        "time_called_during_deal": calls,
        "deals": [{"order": order} for order in orders],
    }


def test_seed_003s_profile_caps_each_game() -> None:
    assert PROFILES["timed-90"].cap_scope is CapScope.GAME
    assert PROFILES["timed-40"].cap_scope is CapScope.MATCH  # a stored stage without it: the match


def test_time_in_a_game_decides_that_game_and_the_next_has_its_own_cap(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run(capsys, monkeypatch, best_of([2, 4], N_S, EW_13, E_W, E_W))
    assert out["status"] == "in_progress" and out["games"] == {"NS": 1, "EW": 1}
    assert [deal["game"] for deal in out["deals"]] == [1, 1, 2, 2]
    assert out["next_deal"] == {"number": 5, "level": 2, "sets_level": None, "game": 3, "extra": False}
    out = run(capsys, monkeypatch, best_of([2, 4, 5], N_S, EW_13, E_W, E_W, NS_13))
    assert (out["status"], out["winner"], out["reason"], out["games"]) == (
        "finished",
        "NS",
        "games",
        {"NS": 2, "EW": 1},
    )


def test_the_same_match_under_one_cap_ends_at_the_first_call(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run(capsys, monkeypatch, best_of(2, N_S, EW_13, cap_scope="match"))
    assert (out["status"], out["winner"], out["reason"]) == ("finished", "NS", "higher_level")
    out = run(capsys, monkeypatch, best_of([2, 4], N_S, EW_13, cap_scope="match"))
    assert out["error"]["code"] == "bad_input"


def test_equal_levels_at_time_play_an_extra_deal_within_the_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 003 同级的加赛一牌: the extra deal decides the game, not the match."""
    out = run(capsys, monkeypatch, best_of([2], N_S, E_W))  # 5–5 when time is called
    assert out["status"] == "needs_extra_deal" and out["games"] == {"NS": 0, "EW": 0}
    out = run(capsys, monkeypatch, best_of([2], N_S, E_W, NS_13))
    assert out["status"] == "in_progress" and out["games"] == {"NS": 1, "EW": 0}
    assert out["next_deal"]["game"] == 2


def test_a_game_that_ends_by_passing_a_keeps_a_later_call_for_the_next_game() -> None:
    options = options_for(profile="timed-90", overrides={"format": "best_of", "games": 3})
    deals = [FinishingOrder.parse(text) for text in ["N S"] * 5]  # N/S: 2 → 5 → 8 → J → A → passes A
    result = replay(options=options, deals=[*deals, FinishingOrder.parse("E W")], time_called_during_deal=[6])
    assert result.games == (1, 1)  # game 1 passed A at deal 5; the call during deal 6 ends game 2
    state = MatchState.initial(options).call_time(during_deal=1)
    state, _record = state.apply(FinishingOrder.parse("N S"))
    assert state.games == (1, 0) and state.time_called_during_deal is None  # game 2's clock is fresh
    assert state.call_time(during_deal=3).time_called_during_deal == 3


@pytest.mark.parametrize(
    ("calls", "words"),
    [([2, 2], "in order"), ([2, "x"], "deal numbers"), ([1, 2], "already")],
)
def test_time_calls_that_cannot_be_are_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, calls: list[Any], words: str
) -> None:
    out = run(capsys, monkeypatch, best_of(calls, N_S, E_W, NS_13, at_time_up="one_more_deal"))
    assert out["error"]["code"] == "bad_input" and words in out["error"]["message"]


def test_a_cap_per_game_cannot_draw_a_game() -> None:
    with pytest.raises(ScoringError, match="cannot be drawn"):
        options_for(profile="timed-90", overrides={"format": "best_of", "games": 3, "time_up_tie": "draw"})
