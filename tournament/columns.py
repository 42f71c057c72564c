"""A column of an exported sheet: its key, its titles in Chinese and English, its width.

Sheet headers are data, not UI text (``tournament.exports.headers``): an organiser's workbook is in
Chinese by default whatever the language of the page, and in English on request. The column type is
here, below the apps, because a game names its own paper score sheet (``tournament.games``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Language = Literal["zh", "en"]
LANGUAGES: tuple[Language, ...] = ("zh", "en")
DEFAULT_LANGUAGE: Language = "zh"


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a sheet: its key (how the code names it), titles and width in characters."""

    key: str
    zh: str
    en: str
    width: float = 10
    style: str | None = None
    """A style of ``xlsx.STYLES`` for every value of the column (e.g. ``datetime``)."""

    def title(self, language: Language) -> str:
        return self.zh if language == "zh" else self.en


def titles(columns: Sequence[Column], language: Language) -> list[str]:
    return [column.title(language) for column in columns]


def widths(columns: Sequence[Column]) -> list[float]:
    return [column.width for column in columns]


def styles(columns: Sequence[Column]) -> list[str | None]:
    return [column.style for column in columns]
