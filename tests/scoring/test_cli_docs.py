"""docs/scoring-cli.md stays true: each ``<!-- example: <command> -->`` is followed by an input and an
output JSON block; running the command on the input must print the output."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from scoring.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoring-cli.md"
EXAMPLE = re.compile(r"<!-- example: (\w+) -->(.*?)```json\n(.*?)```.*?```json\n(.*?)```", re.DOTALL)
EXAMPLES = EXAMPLE.findall(DOC.read_text(encoding="utf-8"))


def test_the_doc_has_examples_of_every_command() -> None:
    assert {command for command, *_ in EXAMPLES} == {"replay", "standings", "teams"}
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize(("command", "words", "given", "expected"), EXAMPLES)
def test_doc_example(
    command: str,
    words: str,
    given: str,
    expected: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    del words
    monkeypatch.setattr(sys, "stdin", io.StringIO(given))
    main([command])
    assert json.loads(capsys.readouterr().out) == json.loads(expected)
