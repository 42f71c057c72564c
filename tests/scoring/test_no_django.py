"""The rules core is pure Python (docs/design.md: "no Django import"): no module mentions Django or
DRF, and every module imports with Django made unimportable."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCORING = REPO / "scoring"
FORBIDDEN = re.compile(r"^\s*(import|from)\s+(django|rest_framework)\b", re.MULTILINE)


def test_no_module_imports_django() -> None:
    offenders = [
        path.name for path in sorted(SCORING.glob("*.py")) if FORBIDDEN.search(path.read_text("utf-8"))
    ]
    assert offenders == []


def test_every_module_imports_without_django() -> None:
    script = """
import importlib, pkgutil, sys
for blocked in ("django", "rest_framework", "celery"):
    sys.modules[blocked] = None  # importing it now raises ImportError
import scoring
names = sorted(info.name for info in pkgutil.iter_modules(scoring.__path__) if info.name != "__main__")
for name in names:
    importlib.import_module(f"scoring.{name}")
print(len(names))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= 15
