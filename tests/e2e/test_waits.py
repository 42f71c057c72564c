"""Browser tests wait in a way the site's Content-Security-Policy allows.

``page.wait_for_function("…")`` evaluates its string inside the page once it has to poll, which
the CSP (no 'unsafe-eval') refuses: such a wait passes on a fast machine, where the condition
already holds, and fails on a slow one. ``wait_until`` (tests/e2e/conftest.py) polls instead.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent


def test_no_browser_test_waits_on_a_script_string() -> None:
    found = [
        f"{path.name}:{number}"
        for path in sorted(HERE.glob("*.py"))
        if path.name not in {"conftest.py", "test_waits.py"}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "wait_for_function(" in line
    ]
    assert not found, "use tests.e2e.conftest.wait_until: " + ", ".join(found)
