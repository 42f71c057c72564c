"""``python -m scoring teams`` (docs/scoring-cli.md, docs/rules.md §11): the team total of pairs and of
Dou Dizhu players, team matches and their standings, and bad input — exit 2 with a code and a sentence
in English and Chinese, never a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoring.cli import main

REPO = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data: Any) -> tuple[int, Any]:
    text = data if isinstance(data, str) else json.dumps(data)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status = main(["teams"])
    out = capsys.readouterr().out
    assert out.count("\n") == 1, "exactly one JSON line"
    return status, json.loads(out)


TOTAL = {
    "stage_options": {"team_total": True},
    "teams": {"Sales": ["S1", "S2"], "R&D": ["R1", "R2"]},
    "results": [
        {"round": 1, "NS": "S1", "EW": "R1", "winner": "NS", "levels": {"NS": 14, "EW": 9}, "passed_a": True},
        {"round": 1, "NS": "S2", "EW": "R2", "winner": "EW", "levels": {"NS": 7, "EW": 11}},
    ],
}

MATCH = {
    "stage_options": {"team_match": True},
    "matches": [
        {
            "round": 1,
            "teams": ["Sales", "R&D"],
            "a": {"winner": "NS", "levels": {"NS": 14, "EW": 9}, "passed_a": True},
            "b": {"winner": "NS", "levels": {"NS": 12, "EW": 5}},
        }
    ],
}


def test_the_real_command_line_answers_a_team_total() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "teams"],
        input=json.dumps(TOTAL),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["kind"] == "team_total"
    # S1 +6 (2 mp), R2 +4 (2 mp): 2 match points each; Sales 6 − 4 = +2 small points, R&D −6 + 4 = −2
    assert [(row["team"], row["match_points"], row["small_points"]) for row in out["rows"]] == [
        ("Sales", 2, 2),
        ("R&D", 2, -2),
    ]


def test_team_count_and_the_stage_s_withdrawn_pairs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {**TOTAL, "stage_options": {"team_total": True, "team_count": 1}, "withdrawn": ["S1"]}
    status, out = run(capsys, monkeypatch, data)
    assert status == 0
    sales = next(row for row in out["rows"] if row["team"] == "Sales")
    assert sales["counted"] == [{"member": "S1", "place": 4, "match_points": 2, "small_points": 6}]
    assert out["team_count"] == 1


def test_a_knockout_stage_is_ranked_by_its_placings(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {
        **TOTAL,
        "stage": "knockout",
        "results": [
            {"round": 1, "NS": "S1", "EW": "R1", "winner": "NS", "levels": {"NS": 14, "EW": 9}, "passed_a": True},
            {"round": 1, "NS": "S2", "EW": "R2", "winner": "EW", "levels": {"NS": 7, "EW": 11}},
            {"round": 2, "NS": "S1", "EW": "R2", "winner": "EW", "levels": {"NS": 10, "EW": 12}},
        ],
    }
    status, out = run(capsys, monkeypatch, data)
    assert status == 0
    places = {m["member"]: m["place"] for row in out["rows"] for m in row["counted"]}
    assert places["R2"] == 1 and places["S1"] == 2  # champion, finalist; S2 and R1 out in round 1
    assert [row["team"] for row in out["rows"]] == ["R&D", "Sales"]  # 4 match points to 2


def test_a_dou_dizhu_team_total(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = {
        "profile": "doudizhu",
        "stage_options": {"team_total": True, "team_count": 2},
        "teams": {"Sales": ["Li", "Wang", "Zhao"], "R&D": ["Chen", "Liu"]},
        "rounds": [
            {"round": 1, "player": "Li", "points": 8, "deals_won": 2},
            {"round": 1, "player": "Chen", "points": -4, "deals_won": 1},
            {"round": 1, "player": "Liu", "points": -4, "deals_won": 1},
            {"round": 1, "player": "Wang", "points": -6, "outcome": "forfeited"},
            {"round": 1, "player": "Zhao", "points": 0, "outcome": "table_forfeited"},
        ],
    }
    status, out = run(capsys, monkeypatch, data)
    assert status == 0
    assert [(row["team"], row["points"], row["deals_won"]) for row in out["rows"]] == [("Sales", 8, 2), ("R&D", -8, 2)]
    assert [m["member"] for m in out["rows"][0]["counted"]] == ["Li", "Zhao"]


def test_team_matches_and_their_standings(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out = run(capsys, monkeypatch, {**MATCH, "stage_options": {"team_match": True, "team_decider": "total"}})
    assert status == 0
    assert out["team_decider"] == "total"
    assert (out["matches"][0]["winner"], out["matches"][0]["reason"]) == ("R&D", "total")
    assert [row["team"] for row in out["standings"]["rows"]] == ["R&D", "Sales"]


def test_a_table_still_playing_leaves_the_team_match_in_progress(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {**MATCH, "matches": [{**MATCH["matches"][0], "b": None}], "teams": ["Sales", "R&D", "IT"]}  # type: ignore[index]
    status, out = run(capsys, monkeypatch, data)
    assert status == 0
    assert out["matches"][0]["status"] == "in_progress"
    assert out["matches"][0]["tables"]["b"] is None
    assert [row["match_points"] for row in out["standings"]["rows"]] == [0, 0, 0]


def test_a_walkover_is_a_forfeit_win_in_the_standings_not_a_bye(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {**MATCH, "stage": "knockout", "matches": [{"round": 2, "teams": ["Sales", "R&D"], "walkover": "R&D"}]}
    status, out = run(capsys, monkeypatch, data)
    assert status == 0
    (match,) = out["matches"]
    assert (match["winner"], match["reason"], match["tables_won"], match["small_points"]) == (
        "Sales",
        "forfeit",
        {"Sales": 2, "R&D": 0},
        {"Sales": 26, "R&D": -26},
    )
    assert match["tables"]["a"]["forfeited"] == ["R&D"]
    swiss = {**data, "stage": "swiss"}
    status, out = run(capsys, monkeypatch, swiss)
    rows = {row["team"]: row for row in out["standings"]["rows"]}
    assert (rows["Sales"]["wins"], rows["Sales"]["byes"], rows["R&D"]["losses"], rows["R&D"]["played"]) == (1, 0, 1, 1)


BAD: list[tuple[str, Any, str, str]] = [
    ("not json", "{", "bad_input", "not valid JSON"),
    ("not an object", [], "bad_input", "must be a JSON object"),
    ("no team options", {"teams": {}}, "bad_input", "team_total or team_match"),
    ("both kinds", {"stage_options": {"team_total": True, "team_match": True}}, "bad_input", "not both"),
    ("bad team_count", {**TOTAL, "stage_options": {"team_total": True, "team_count": 0}}, "bad_input", "1 or more"),
    ("unknown team option", {**TOTAL, "stage_options": {"team_total": True, "team_size": 2}}, "bad_input", "team_size"),
    ("team option in rules", {**TOTAL, "rules": {"team_count": 2}}, "bad_input", "team option of the stage"),
    ("unknown profile", {**TOTAL, "profile": "nope"}, "unknown_profile", "no rule profile"),
    ("unknown stage", {**TOTAL, "stage": "ladder"}, "bad_input", "'stage' must be one of"),
    ("unknown field", {**TOTAL, "matches": []}, "bad_input", "Unknown field 'matches'"),
    ("bad seed", {**TOTAL, "lots_seed": "x"}, "bad_input", "lots_seed"),
    ("no roster", {**TOTAL, "teams": ["Sales"]}, "bad_input", "needs 'teams'"),
    ("pair in two teams", {**TOTAL, "teams": {"A": ["S1", "R1"], "B": ["R1", "S2"]}}, "bad_input", "one team"),
    ("team of one", {**TOTAL, "teams": {"A": ["S1"], "B": ["R1", "S2"]}}, "bad_input", "at least 2"),
    ("no results", {"stage_options": {"team_total": True}, "teams": {"A": ["a", "b"]}}, "bad_input", "'results'"),
    ("rounds for pairs", {**TOTAL, "rounds": []}, "bad_input", "Dou Dizhu"),
    (
        "results for Dou Dizhu",
        {"profile": "doudizhu", "stage_options": {"team_total": True}, "teams": {"A": ["a", "b"]}, "results": []},
        "bad_input",
        "rounds",
    ),
    (
        "bad Dou Dizhu round",
        {
            "profile": "doudizhu",
            "stage_options": {"team_total": True},
            "teams": {"A": ["a", "b"]},
            "rounds": [{"round": 1, "player": "a", "points": 2, "deals_won": -1}],
        },
        "bad_input",
        "'deals_won'",
    ),
    (
        "team match in Dou Dizhu",
        {"profile": "doudizhu", "stage_options": {"team_match": True}, "matches": []},
        "bad_input",
        "four-seat",
    ),
    ("no matches", {"stage_options": {"team_match": True}}, "bad_input", "'matches'"),
    ("team match round 0", {**MATCH, "matches": [{"round": 0}]}, "bad_input", "Team match 1 needs a 'round'"),
    (
        "one team",
        {**MATCH, "matches": [{"round": 1, "teams": ["Sales"]}]},
        "bad_input",
        '"teams": [X, Y]',
    ),
    (
        "team plays itself",
        {**MATCH, "matches": [{"round": 1, "teams": ["Sales", "Sales"], "a": None}]},
        "bad_input",
        "cannot play itself",
    ),
    (
        "table without a winner",
        {**MATCH, "matches": [{"round": 1, "teams": ["X", "Y"], "a": {"levels": {"NS": 5, "EW": 3}}}]},
        "bad_input",
        'table a needs a "winner"',
    ),
    (
        "bad level",
        {**MATCH, "matches": [{"round": 1, "teams": ["X", "Y"], "b": {"winner": "NS", "levels": {"NS": 15, "EW": 3}}}]},
        "bad_input",
        "table b: levels NS must be a level 2..14",
    ),
    (
        "passed A below A",
        {**MATCH, "matches": [{"round": 1, "teams": ["X", "Y"], "a": {"winner": "NS", "passed_a": True}}]},
        "bad_input",
        "passed_a needs a winner",
    ),
    (
        "forfeiting winner",
        {**MATCH, "matches": [{"round": 1, "teams": ["X", "Y"], "a": {"winner": "NS", "forfeit": "NS"}}]},
        "bad_input",
        "cannot be the winner",
    ),
    (
        "bad side",
        {**MATCH, "matches": [{"round": 1, "teams": ["X", "Y"], "a": {"winner": "N"}}]},
        "bad_input",
        "winner must be NS or EW",
    ),
    (
        "unknown table field",
        {**MATCH, "matches": [{"round": 1, "teams": ["X", "Y"], "a": {"winner": "NS", "score": 3}}]},
        "bad_input",
        "unknown field 'score'",
    ),
    (
        "bye with a table",
        {**MATCH, "matches": [{"round": 1, "teams": ["X", None], "bye": True, "a": None}]},
        "bad_input",
        "a bye has no opponent",
    ),
    (
        "tie-break deal in a Swiss",
        {**MATCH, "matches": [{**MATCH["matches"][0], "extra_deal": "NS"}]},  # type: ignore[index]
        "bad_input",
        "a tie-break deal is recorded",
    ),
    (
        "points format without points",
        {**MATCH, "profile": "points-6"},
        "bad_input",
        "needs its points",
    ),
    (
        "team twice in a round",
        {**MATCH, "matches": [MATCH["matches"][0], MATCH["matches"][0]]},  # type: ignore[index]
        "bad_input",
        "two team matches in round 1",
    ),
    ("unknown team", {**MATCH, "teams": ["Sales", "IT"]}, "bad_input", "not one of the stage's teams"),
    (
        "unknown team in a knockout",
        {**MATCH, "stage": "knockout", "teams": ["Sales", "IT"]},
        "bad_input",
        "not one of the stage's teams",
    ),
    (
        "walkover by a team of another match",
        {**MATCH, "matches": [{"round": 1, "teams": ["Sales", "R&D"], "walkover": "IT"}]},
        "bad_input",
        "names the team of the two that did not come",
    ),
    (
        "walkover with a table",
        {**MATCH, "matches": [{"round": 1, "teams": ["Sales", "R&D"], "walkover": "R&D", "a": None}]},
        "bad_input",
        "names the team of the two that did not come",
    ),
    (
        "draw in a knockout",
        {**MATCH, "stage": "knockout", "rules": {"time_up_tie": "draw"}},
        "bad_input",
        "must produce a winner",
    ),
]


@pytest.mark.parametrize(("case", "data", "code", "words"), BAD, ids=[case for case, *_ in BAD])
def test_bad_input_exits_2_with_a_code_and_both_languages(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, case: str, data: Any, code: str, words: str
) -> None:
    del case
    status, out = run(capsys, monkeypatch, data)
    assert status == 2
    error = out["error"]
    assert error["code"] == code
    assert words in error["message"]
    if code != "bad_input" or "JSON" not in words:
        assert error.get("message_zh")
