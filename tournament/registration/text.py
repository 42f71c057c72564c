"""Cleaning of text that people type or paste (names, numbers, departments)."""

from __future__ import annotations

import unicodedata
from typing import Any

# Invisible marks that sneak in from copy-paste; the zero-width joiner stays (it builds emoji).
_INVISIBLE = frozenset("\u200b\u200e\u200f\u2060\ufeff")


def clean_text(value: Any) -> str:
    """Trimmed, NFC-normalised text with control characters removed; None becomes ``""``.

    Excel cells and pasted names carry stray tabs, newlines and zero-width characters; none of
    them belongs in a name, and control characters break exports (XML forbids most of them).
    Numbers read from a spreadsheet (an employee number typed as 1001) come back as ``"1001"``.
    """
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = unicodedata.normalize("NFC", str(value))
    text = "".join(" " if char in "\t\n\r" else char for char in text)
    text = "".join(char for char in text if char not in _INVISIBLE and unicodedata.category(char) != "Cc")
    return " ".join(text.split())


def entrant_name(names: list[str]) -> str:
    """An entrant's shown name: its players' names, "张伟 / 李娜" (one name in an individual event)."""
    return " / ".join(names)
