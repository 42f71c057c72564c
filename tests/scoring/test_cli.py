"""``python -m scoring replay | profiles | standings``: every error code through
the real command line (a subprocess, as users and auditors script it) and, for speed, in process through
``scoring.cli.main``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoring.cli import main

REPO = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    status = main(list(argv))
    captured = capsys.readouterr()
    assert captured.out.count("\n") == 1, "exactly one JSON line"
    return status, json.loads(captured.out)


def run_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data: Any, *argv: str
) -> tuple[int, Any]:
    import io

    text = data if isinstance(data, str) else json.dumps(data)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    return run(capsys, *argv)


def cli(*argv: str, stdin: str = "") -> tuple[int, Any, str]:
    """The real thing: ``python -m scoring …`` in a subprocess, from the repository root."""
    done = subprocess.run(
        [sys.executable, "-m", "scoring", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    return done.returncode, json.loads(done.stdout), done.stderr


# -- replay ------------------------------------------------------------------------------------------

REPLAY_ERRORS = [
    (
        "invalid_order",
        {"profile": "classic", "deals": [{"order": ["N", "S"]}, {"order": ["N", "E"]}]},
        2,
    ),
    (
        "match_finished",
        {"profile": "classic", "deals": [{"order": ["N", "S"]}] * 6},
        6,
    ),
    ("unknown_profile", {"profile": "timed-60", "deals": []}, None),
    ("bad_input", {"profile": "classic", "deals": [{"order": ["N", "S"], "note": "x"}]}, 1),
]


@pytest.mark.parametrize(("code", "data", "deal"), REPLAY_ERRORS, ids=[case[0] for case in REPLAY_ERRORS])
def test_replay_error_codes_through_the_real_cli(code: str, data: dict[str, Any], deal: int | None) -> None:
    """Bad input → exit status 2 and {"error": {"code", "message", "deal"}} on stdout, never a
    traceback."""
    status, out, stderr = cli("replay", stdin=json.dumps(data))
    assert status == 2 and stderr == ""
    assert out["error"]["code"] == code and out["error"]["deal"] == deal
    assert out["error"]["message"].endswith(".") and out["error"]["message_zh"]


@pytest.mark.parametrize(("code", "data", "deal"), REPLAY_ERRORS, ids=[case[0] for case in REPLAY_ERRORS])
def test_replay_error_codes_in_process(
    code: str,
    data: dict[str, Any],
    deal: int | None,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, out = run_stdin(capsys, monkeypatch, data, "replay")
    assert status == 2 and out["error"]["code"] == code and out["error"]["deal"] == deal


@pytest.mark.parametrize(
    "data",
    [
        "{not json",
        "[]",
        {"deals": []},
        {"profile": "classic"},
        {"profile": "classic", "deals": {}},
        {"profile": "classic", "deals": [], "colour": "red"},
        {"profile": "classic", "rules": {"a_pass": "never"}, "deals": []},
        {"profile": "classic", "deals": [], "time_called_during_deal": 0},
        {"profile": "classic", "deals": [], "time_called_during_deal": "7"},
        {"profile": "classic", "deals": [["N", "S"]]},
        {"profile": "classic", "deals": [], "adjustments": [{"kind": "bribe"}]},
        {"profile": "tractor-3deck", "deals": [{"declarer": "NS", "defender_points": 12}]},
    ],
)
def test_replay_bad_input_in_process(
    data: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out = run_stdin(capsys, monkeypatch, data, "replay")
    assert status == 2 and out["error"]["code"] == "bad_input" and "deal" in out["error"]


def test_replay_reads_a_file_and_stdin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = {
        "profile": "timed-40",
        "deals": [{"order": ["N", "S"]}, {"order": ["E", "W"]}],
        "time_called_during_deal": 2,
    }
    path = tmp_path / "match.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out = run(capsys, "replay", str(path))
    assert status == 0 and (out["winner"], out["reason"]) == ("NS", "first_to_reach")
    status, from_stdin, stderr = cli("replay", stdin=json.dumps(data))
    assert status == 0 and from_stdin == out and stderr == ""
    status, missing = run(capsys, "replay", str(tmp_path / "nope.json"))
    assert status == 2 and missing["error"]["code"] == "bad_input" and missing["error"]["deal"] is None


def test_replay_output_shape(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay's output keys (docs/scoring-cli.md): status, winner, reason, levels, a_failures, deals
    (+ points, games)."""
    status, out = run_stdin(
        capsys, monkeypatch, {"profile": "classic", "deals": [{"order": ["E", "N", "W"]}]}, "replay"
    )
    assert status == 0
    assert {"status", "winner", "reason", "levels", "a_failures", "deals"} <= set(out)
    assert "points" not in out and "games" not in out
    assert set(out["deals"][0]) >= {
        "number",
        "level",
        "sets_level",
        "winner",
        "partner_place",
        "upgrade",
        "a_attempt",
        "passed_a",
        "reset",
        "levels_after",
        "a_failures_after",
    }
    status, points = run_stdin(capsys, monkeypatch, {"profile": "points-6", "deals": [{"order": ["N", "S"]}]}, "replay")
    assert points["points"] == {"NS": 3, "EW": 0} and points["deals"][0]["points_after"] == {"NS": 3, "EW": 0}
    best_of = {"profile": "classic", "rules": {"format": "best_of", "games": 3}, "deals": []}
    status, games = run_stdin(capsys, monkeypatch, best_of, "replay")
    assert games["games"] == {"NS": 0, "EW": 0}


def test_tractor_replay_through_the_real_cli() -> None:
    """The CLI accepts a Tractor match and reports levels, next declarers and the result."""
    data = {
        "profile": "tractor-3deck",
        "deals": [{"declarer": "NS", "defender_points": 125}, {"defender_points": 40}],
    }
    status, out, stderr = cli("replay", stdin=json.dumps(data))
    assert status == 0 and stderr == ""
    assert out["levels"] == {"NS": 2, "EW": 4} and out["next_declarer"] == "EW"
    assert [deal["next_declarer"] for deal in out["deals"]] == ["EW", "EW"]


# -- profiles and standings --------------------------------------------------------------------------


def test_profiles_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "profiles")
    assert status == 0 and list(out["profiles"]) == [
        "classic",
        "timed-40",
        "timed-90",
        "points-6",
        "tractor-3deck",
        "doudizhu",
    ]
    assert out["profiles"]["timed-40"]["options"]["a_failure_limit"] == 3
    real_status, real, _ = cli("profiles")
    assert real_status == 0 and real == out


def test_standings_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = {
        "lots_seed": 1,
        "results": [
            {
                "round": 1,
                "NS": "A",
                "EW": "B",
                "winner": "EW",
                "levels": {"NS": 6, "EW": 14},
                "passed_a": True,
            },
            {"round": 1, "NS": "C", "EW": None, "bye": True},
        ],
    }
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out = run(capsys, "standings", str(path))
    assert status == 0 and [row["entrant"] for row in out["rows"]] == ["B", "C", "A"]
    real_status, real, stderr = cli("standings", stdin=json.dumps(data))
    assert real_status == 0 and real == out and stderr == ""


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"profile": "nope", "results": []}, "unknown_profile"),
        ({"results": [{"round": 1, "NS": "A", "EW": "A"}]}, "bad_input"),
        ("[1,", "bad_input"),
    ],
)
def test_standings_errors_through_the_real_cli(data: Any, code: str) -> None:
    status, out, stderr = cli("standings", stdin=data if isinstance(data, str) else json.dumps(data))
    assert status == 2 and out["error"]["code"] == code and stderr == ""


def test_usage_errors_are_json_too(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "replay", "a.json", "b.json")
    assert status == 2 and out["error"]["code"] == "bad_input"
    status, out = run(capsys, "shuffle")
    assert status == 2 and out["error"]["code"] == "bad_input"


DEEP = [
    "[" * 100_000,
    '{"profile": "classic", "deals": ' + "[" * 500 + "]" * 500 + "}",
    '{"a":' * 5000 + "1" + "}" * 5000,
]


@pytest.mark.parametrize("command", ["replay", "standings"])
@pytest.mark.parametrize("text", DEEP, ids=["unclosed-100000", "closed-500", "objects-5000"])
def test_deeply_nested_json_is_bad_input_not_a_recursion_error(command: str, text: str) -> None:
    """The JSON parser recursed into Python's limit and the CLI exited 1 with
    ``internal_error: RecursionError``; a document nested too deeply is the user's bad input."""
    status, out, stderr = cli(command, stdin=text)
    assert status == 2 and stderr == ""
    assert out["error"]["code"] == "bad_input" and "too deeply" in out["error"]["message"]


def test_nesting_up_to_the_limit_is_read(tmp_path: Path) -> None:
    from scoring.cli import MAX_JSON_DEPTH, read_json_input

    path = tmp_path / "deep.json"
    path.write_text("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH)
    assert read_json_input(str(path)) == json.loads("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH)


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (("standings",), "[1,"),
        (("teams",), "not json"),
        (("replay",), "[" * 100),
        (("standings", "/nonexistent.json"), ""),
        (("replay", "a.json", "b.json"), ""),
    ],
    ids=["invalid-json", "invalid-json-teams", "too-deep", "unreadable", "usage"],
)
def test_reader_and_usage_errors_say_it_in_chinese_too(args: tuple[str, ...], stdin: str) -> None:
    """Every refusal the commands share (the input's reading, the command line) has a Chinese
    sentence beside the English one, as each command's own refusals do."""
    status, out, _stderr = cli(*args, stdin=stdin)
    assert status == 2 and out["error"]["code"] == "bad_input"
    assert re.search(r"[\u4e00-\u9fff]", out["error"]["message_zh"])
