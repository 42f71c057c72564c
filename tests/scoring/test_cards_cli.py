"""``python -m scoring cards classify|beats``: in process through ``scoring.cli.main`` and, once per
error code, as a real subprocess (docs/cards-cli.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoring.cli import main

REPO = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    status = main(list(argv))
    out = capsys.readouterr().out
    assert out.count("\n") == 1, "exactly one JSON line"
    return status, json.loads(out)


def test_classify_prints_every_reading_and_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "cards", "classify", "--level", "5", "KS,KD,5H,2C,2D")
    assert status == 0
    assert out == {
        "readings": [
            {"type": "full_house", "rank": "K", "size": 5},
            {"type": "full_house", "rank": "2", "size": 5},
        ],
        "default": {"type": "full_house", "rank": "K", "size": 5},
    }


def test_classify_accepts_cards_as_several_arguments_and_level_letters(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = run(capsys, "cards", "classify", "--level", "J", "10S", "JS", "QS", "KS", "AS")
    assert status == 0
    assert out["default"] == {"type": "straight_flush", "rank": "A", "size": 5}


def test_classify_of_no_play_is_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "cards", "classify", "--level", "2", "SJ,BJ")
    assert (status, out) == (0, {"readings": [], "default": None})


def test_beats(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "cards", "beats", "--level", "5", "--play", "KS,5H", "--previous", "QS,QD")
    assert status == 0
    assert out == {
        "beats": True,
        "play": {"type": "pair", "rank": "K", "size": 2},
        "previous": {"type": "pair", "rank": "Q", "size": 2},
        "reason": "pair of K beats pair of Q: same type, higher rank.",
    }


def test_beats_with_declarations(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["cards", "beats", "--level", "5", "--play", "7H,8H,5H,TH,JH", "--previous", "6S,7D,8C,9S,TD"]
    status, out = run(capsys, *base, "--declared", "straight:J")
    assert status == 0 and out["beats"] is True and out["play"]["type"] == "straight"
    status, out = run(
        capsys, "cards", "beats", "--level", "5", "--play", "3S,3D,3C,4S,4D",
        "--previous", "KS,KD,5H,2C,2D", "--previous-declared", "full_house:2",
    )  # fmt: skip
    assert status == 0 and out["beats"] is True and out["previous"]["rank"] == "2"


def test_beats_false(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(
        capsys, "cards", "beats", "--level", "9", "--play", "9S,9D,9C,9H", "--previous", "6D,7D,8D,9D,TD"
    )
    assert status == 0 and out["beats"] is False
    assert out["play"] == {"type": "bomb", "rank": "9", "size": 4}
    assert "straight flush" in out["reason"]


@pytest.mark.parametrize(
    "argv, code",
    [
        (["classify", "--level", "5", "KS,XX"], "bad_card"),
        (["classify", "--level", "5", "KS,KS,KS"], "too_many_copies"),
        (["beats", "--level", "5", "--play", "KS,QS", "--previous", "QS,QD"], "not_a_play"),
        (["beats", "--level", "5", "--play", "QS,QD", "--previous", "SJ,BJ"], "not_a_play"),
        (
            ["beats", "--level", "5", "--play", "KS,KD", "--previous", "QS,QD", "--declared", "pair:A"],
            "bad_declaration",
        ),
        (
            ["beats", "--level", "5", "--play", "KS,KD", "--previous", "QS,QD", "--declared", "nonsense"],
            "bad_declaration",
        ),
        (["classify", "--level", "1", "KS"], "bad_input"),
        (["classify", "KS"], "bad_input"),
        (["beats", "--level", "5", "--play", "KS"], "bad_input"),
    ],
)
def test_errors_in_process(capsys: pytest.CaptureFixture[str], argv: list[str], code: str) -> None:
    status, out = run(capsys, "cards", *argv)
    assert status == 2
    assert out["error"]["code"] == code
    assert out["error"]["message"]
    if code != "bad_input":
        assert out["error"]["message_zh"]


@pytest.mark.parametrize(
    "argv, code, needle",
    [
        (["classify", "--level", "5", "KS,1X"], "bad_card", "'1X'"),
        (["classify", "--level", "5", "SJ,SJ,SJ"], "too_many_copies", "SJ"),
        (["beats", "--level", "5", "--play", "KS,QS", "--previous", "QS,QD"], "not_a_play", "KS,QS"),
        (
            ["beats", "--level", "5", "--play", "KS,KD", "--previous", "QS,QD", "--declared", "pair:A"],
            "bad_declaration",
            "pair:A",
        ),
    ],
)
def test_errors_as_a_real_subprocess(argv: list[str], code: str, needle: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "cards", *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == ""
    error = json.loads(done.stdout)["error"]
    assert error["code"] == code and needle in error["message"]
    assert error["message_zh"]


def test_success_as_a_real_subprocess() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "cards", "classify", "--level", "5", "3S,3D,5H,5H"],
        cwd=REPO,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["readings"] == [{"type": "bomb", "rank": "3", "size": 4}]
