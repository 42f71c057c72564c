"""Test modules have names of their own: the test folders are not packages, so pytest imports each
module by its file name, and two files of one name stop the suite with "import file mismatch".
And the test folders mirror the code: a package's tests are in the folder of the same path under
tests/, so that its tests are found where it is."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BESIDE_THE_TREE = {"e2e", "data"}
"""The folders that mirror no package: the browser tests (every page, across the apps) and the data the
tests read (recorded inputs and outputs)."""


def test_no_two_test_modules_share_a_name() -> None:
    names = Counter(path.name for path in HERE.rglob("test_*.py"))
    assert [name for name, count in names.items() if count > 1] == []


def test_every_test_folder_mirrors_a_package() -> None:
    folders = [
        path.relative_to(HERE)
        for path in HERE.rglob("*")
        if path.is_dir() and path.name != "__pycache__" and any(path.glob("*.py"))
    ]
    stray = [
        str(folder)
        for folder in folders
        if folder.parts[0] not in BESIDE_THE_TREE and not (ROOT / folder / "__init__.py").is_file()
    ]
    assert stray == [], "a test folder for each package of the code (move these tests to their package's)"
