"""axe-core (tests/e2e/vendor/axe.min.js) run in the page: the accessibility violations it finds.

The site's CSP allows no inline script, so the pages under test are opened in a browser context made
with ``bypass_csp=True`` (the CSP itself is tested in ``test_csp_browser.py``); axe is then added as a
script tag and run on the whole document with its default rules.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
BLOCKING = ("serious", "critical")
"""The impacts a page may not have ("0 serious or critical")."""


def axe_results(page: Any) -> list[dict[str, Any]]:
    """Every violation axe finds on the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await window.axe.run(document, {resultTypes: ['violations']})")
    return list(result["violations"])


def blocking_violations(page: Any) -> list[str]:
    """The serious and critical violations, each as "rule (impact): help — first elements"."""
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {', '.join(str(n['target'][0]) for n in v['nodes'][:3])}"
        for v in axe_results(page)
        if v["impact"] in BLOCKING
    ]
