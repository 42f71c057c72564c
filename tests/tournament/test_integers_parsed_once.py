"""Whole numbers typed by people are read by ``tournament.parsing`` only: ASCII digits within a
range, so "³", "1_000" and " 12 " are refused (or ignored) the same on every page and service,
never a server error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.factories import table_match
from tournament.draw.points_forms import PointsStageForm
from tournament.matches.clock import match_extend, match_start
from tournament.matches.errors import MatchRefused

ROOT = Path(__file__).resolve().parents[2]


def _cuts_errors(text: str) -> list[str]:
    form = PointsStageForm(data={"name": "heat", "rounds": 3, "cuts": text})
    form.is_valid()
    return form.errors.get("cuts", [])


def test_a_cut_in_other_digits_is_a_field_error():
    assert _cuts_errors("1:18, 2:9") == []
    for text in ("³:18", "1:1_8", "1:", "x:2"):  # "³".isdigit() was True and int("³") a server error
        assert _cuts_errors(text), text


@pytest.mark.django_db
def test_minutes_are_whole_ascii_numbers():
    match = table_match(profile="timed-40")
    match_start(match_id=match.pk)
    for minutes in ("1_0", " 5", "٣", 2.5):
        with pytest.raises(MatchRefused) as refused:
            match_extend(match_id=match.pk, minutes=minutes, reason="slow")
        assert refused.value.code == "minutes_out_of_range"
    assert match_extend(match_id=match.pk, minutes="5", reason="slow").clock_ends_at is not None


def test_no_page_parses_a_number_by_hand():
    """``isdigit`` accepts "³"; ``int()`` accepts "1_000" and spaces: ``tournament.parsing`` decides."""
    by_hand = re.compile(r"\.isdigit\(\)|\bint\((request|minutes|match_id|after|keep)\b")
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in ROOT.joinpath("tournament").rglob("*.py")
        if "migrations" not in path.parts and path != ROOT / "tournament/parsing.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if by_hand.search(line)
    ]
    assert offenders == []
