"""The compiled Chinese catalogue says what the catalogue says.

Django reads ``django.mo``, not ``django.po``: a change to the ``.po`` that is not compiled (or a
merge that keeps one side's ``.mo``) leaves the pages in English for the strings it added, with
every test of the ``.po`` passing. Compiling the ``.po`` afresh must give the committed ``.mo``.
"""

from __future__ import annotations

import gettext
import os
import re
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


GLOSSED_TERMS = {
    "Anti-tribute (抗贡)",
    "anti-tribute (抗贡)",
    "Tick only if the side due to pay tribute held both big jokers: no tribute was paid and 上游 led this deal "
    "(docs/rules.md §6).",
    "Tap the seats in finishing order. Partners 1st and 2nd (双下): two taps.",
    "double-down (双下)",
    "declares (庄家)",
    "First deal: enter who won the declaration (抢庄).",
    "Bottom capture (抠底)",
    "Does this play beat the previous one? Heart level cards are wild (逢人配). Nothing here changes a result.",
    "上游 with the partner not last (1-2, 1-3)",
    "revoke (藏张) by %(side)s",
    "wrong number of bottom cards (留错底牌)",
    "wrong card count (牌张数目不符) in both sides' hands: the deal is replayed",
    "wrong card count (牌张数目不符) in %(side)s's hands",
    "Declarer (庄家)",
    "Bottom points captured (抠底)",
    "Revoke (藏张) by",
    "The declarers buried the wrong number of bottom cards (留错底牌张数)",
    "Wrong card count (牌张数目不符) in the hands of",
    "Who declares the first deal (抢庄)?",
    "Defenders %(side)s take over (上台)",
    "Defenders %(side)s take over (上台) and go up %(n)d",
    "简体中文",
    "Bid (叫分)",
    "Bombs and rockets (炸弹)",
    "Farmers (农民)",
    "Landlord (地主)",
    "drawn by lot, then in turn (轮流坐庄)",
    "Spring (春天) or counter-spring (反春)",
}
"""The English messages that carry Chinese: the card games' own terms, glossed where a player at the
table knows only the Chinese word, and the Chinese language's own name in the language menu. Every other
English message is English only: a team event's words (a team total, team matches) are English words
on an English page, the Chinese ones on a Chinese page."""


def test_no_english_message_carries_chinese_but_the_card_games_glossed_terms() -> None:
    han = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
    catalogue = _catalogue(MESSAGES / "django.mo")
    english = {key if isinstance(key, str) else key[0] for key in catalogue if key}
    carrying = sorted(message for message in english if han.search(message))
    assert set(carrying) <= GLOSSED_TERMS, [message for message in carrying if message not in GLOSSED_TERMS]
