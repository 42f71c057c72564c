"""Dou Dizhu as docs/rules.md §10 reads seed 004 (掼蛋比赛赛制及规则, its three-player texts): each test
names the seed text and asks the command line the question."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from scoring.cli import main


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
