"""The table conduct text printed under a paper score sheet (docs/rules.md §7), both games' sheets."""

from __future__ import annotations

import unicodedata
from typing import Any

from tournament.exports.headers import Language
from tournament.exports.xlsx import Styled
from tournament.matches.models import Stage
from tournament.rules import stage_table_conduct


def conduct_rows(*, stage: Stage, language: Language, width: float) -> list[list[Any]]:
    """The table conduct text under a score sheet (docs/rules.md §7): its title and each rule in the
    sheet's language, cut into rows that fit the sheet's ``width`` (characters; a Chinese character
    takes two), so nothing runs off the printed page."""
    conduct = stage_table_conduct(stage)
    if not conduct.lines:
        return []
    title = conduct.title_zh if language == "zh" else conduct.title_en
    rows: list[list[Any]] = [[Styled(title, "label")]]
    for number, line in enumerate(conduct.lines, 1):
        text = f"{number}. {line.zh if language == 'zh' else line.en}"
        rows.extend([Styled(piece, "note")] for piece in _pieces(text, int(width)))
    return rows


def _pieces(text: str, width: int) -> list[str]:
    """``text`` in pieces of at most ``width`` columns (wide characters count two), broken at a space
    where the text has spaces."""
    pieces: list[str] = []
    current, used = "", 0
    for char in text:
        size = 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
        if used + size > width and current:
            cut = current.rfind(" ")
            if cut > width // 2 and not char.isspace():
                pieces.append(current[:cut])
                current = current[cut + 1 :]
                used = sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in current)
            else:
                pieces.append(current.rstrip())
                current, used = "", 0
                if char.isspace():
                    continue
        current += char
        used += size
    if current.strip():
        pieces.append(current.rstrip())
    return pieces
