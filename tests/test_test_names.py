"""Test modules have names of their own: the test folders are not packages, so pytest imports each
module by its file name, and two files of one name stop the suite with "import file mismatch"."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent


def test_no_two_test_modules_share_a_name() -> None:
    names = Counter(path.name for path in HERE.rglob("test_*.py"))
    assert [name for name, count in names.items() if count > 1] == []
