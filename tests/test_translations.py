"""The compiled Chinese catalogue says what the catalogue says.

Django reads ``django.mo``, not ``django.po``: a change to the ``.po`` that is not compiled (or a
merge that keeps one side's ``.mo``) leaves the pages in English for the strings it added, with
every test of the ``.po`` passing. Compiling the ``.po`` afresh must give the committed ``.mo``.
"""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess
from pathlib import Path

import pytest

MESSAGES = Path(__file__).resolve().parents[1] / "locale" / "zh_Hans" / "LC_MESSAGES"


def _catalogue(path: Path) -> dict[object, str]:
    with path.open("rb") as handle:
        return dict(gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]


def test_the_committed_mo_is_the_po_compiled(tmp_path: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        reason = "needs GNU gettext's msgfmt (apt-get install gettext)"
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}")
        pytest.skip(reason)
    fresh = tmp_path / "django.mo"
    subprocess.run([msgfmt, "--check", "-o", str(fresh), str(MESSAGES / "django.po")], check=True)
    compiled, committed = _catalogue(fresh), _catalogue(MESSAGES / "django.mo")
    stale = sorted(str(key) for key in compiled.keys() | committed.keys() if compiled.get(key) != committed.get(key))
    assert not stale, (
        "run `manage.py compilemessages --locale zh_Hans --ignore '.venv/*'` and commit django.mo; differs for:\n"
        + "\n".join(stale[:20])
    )
