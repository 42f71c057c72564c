"""Every worked example of tests/data/replay.json, replayed through the rules core and through
the CLI. An example's ``expected`` object is checked key by key: the output may carry more (e.g.
``next_deal``), but every expected key must be there with the expected value."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.cli import main
from scoring.match import replay_json

VECTORS = Path(__file__).resolve().parents[1] / "data"
EXAMPLES: list[dict[str, Any]] = json.loads((VECTORS / "replay.json").read_text(encoding="utf-8"))


def assert_contains(expected: Any, actual: Any, where: str = "$") -> None:
    """``actual`` has every key of ``expected`` (recursively), lists match item by item."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} is missing"
            assert_contains(value, actual[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{where}: {actual!r}"
        for index, (item, got) in enumerate(zip(expected, actual, strict=True)):
            assert_contains(item, got, f"{where}[{index}]")
    else:
        assert actual == expected, f"{where}: expected {expected!r}, got {actual!r}"


def test_the_vectors_exist() -> None:
    assert len(EXAMPLES) >= 7


@pytest.mark.parametrize("example", EXAMPLES, ids=[example["why"][:70] for example in EXAMPLES])
def test_replay_vector(example: dict[str, Any]) -> None:
    """tests/data/replay.json: each ``why`` cites its rule (docs/rules.md §1–3, seeds 002–004)."""
    assert_contains(example["expected"], replay_json(example["input"]).to_json())


@pytest.mark.parametrize("example", EXAMPLES, ids=[example["why"][:70] for example in EXAMPLES])
def test_replay_vector_through_the_cli(
    example: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(example["input"]), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    assert_contains(example["expected"], json.loads(capsys.readouterr().out))
