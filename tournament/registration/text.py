"""Cleaning of text that people type or paste (names, numbers, departments): the one normalising
function is :func:`tournament.text.clean_text`; here what registration adds to it."""

from __future__ import annotations

from tournament.text import clean_text

__all__ = ["NAMES_SEPARATOR", "clean_text", "entrant_name"]

NAMES_SEPARATOR = " / "


def entrant_name(names: list[str]) -> str:
    """An entrant's shown name: its players' names, "张伟 / 李娜" (one name in an individual event)."""
    return NAMES_SEPARATOR.join(names)
