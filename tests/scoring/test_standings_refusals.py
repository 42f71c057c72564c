"""The standings refuse results that cannot have happened (docs/rules.md §5, "A result that cannot have
happened is refused"; seed 004 6局比赛后，积分高者晋级, seed 002 六 时间截止时升级更高的队伍晋级)."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from scoring.cli import main


def standings(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, profile: str, *results: dict[str, Any]
) -> tuple[int, Any]:
    data = {"profile": profile, "results": [{"round": 1, "NS": "A", "EW": "B", **result} for result in results]}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(data)))
    status = main(["standings"])
    return status, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("profile", "result", "words"),
    [
        # a points-format winner with fewer points ranked first before this check
        ("points-6", {"winner": "NS", "points": {"NS": 6, "EW": 9}}, "fewer points"),
        ("points-6", {"winner": None, "points": {"NS": 6, "EW": 9}}, "equal points"),
        ("timed-40", {"winner": "NS", "levels": {"NS": 6, "EW": 9}}, "lower level"),
        ("classic", {"winner": None, "levels": {"NS": 6, "EW": 9}}, "equal levels"),
    ],
)
def test_an_impossible_result_is_refused(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    profile: str,
    result: dict[str, Any],
    words: str,
) -> None:
    status, out = standings(capsys, monkeypatch, profile, result)
    assert status == 2
    assert out["error"]["code"] == "bad_input" and words in out["error"]["message"]
    assert out["error"]["message"].startswith("Result 1:") and out["error"]["message_zh"]


@pytest.mark.parametrize(
    ("profile", "result"),
    [
        ("points-6", {"winner": "EW", "points": {"NS": 6, "EW": 9}}),
        # tied after the regular deals: the extra deal decides, and may score 0 for its winner
        ("points-6", {"winner": "NS", "points": {"NS": 6, "EW": 6}}),
        ("timed-40", {"winner": "NS", "levels": {"NS": 9, "EW": 9}}),  # first to reach 9
        ("timed-40", {"winner": "NS", "levels": {"NS": 14, "EW": 14}, "passed_a": True}),
        ("timed-40", {"forfeit": "EW", "winner": "NS", "levels": {"NS": 3, "EW": 9}}),  # walkover mid-match
        # a best of three is won on games: the last game's levels may favour the loser
        ("classic", {"winner": "NS", "levels": {"NS": 5, "EW": 9}}),
    ],
)
def test_a_possible_result_is_ranked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, profile: str, result: dict[str, Any]
) -> None:
    if profile == "classic":
        data = {
            "profile": profile,
            "rules": {"format": "best_of", "games": 3},
            "results": [{"round": 1, "NS": "A", "EW": "B", **result}],
        }
        monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(data)))
        status = main(["standings"])
        out = json.loads(capsys.readouterr().out)
    else:
        status, out = standings(capsys, monkeypatch, profile, result)
    assert status == 0, out
    assert out["rows"][0]["entrant"] == ("B" if result.get("winner") == "EW" else "A")
