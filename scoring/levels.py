"""Levels (级): 2, 3, …, 10, J, Q, K, A, encoded as the integers 2..14 (docs/rules.md §1).

"Passed A" (过A) is an outcome, not a level; where a number is needed for it (small points, sums of
levels in standings) it counts as :data:`PASSED_A_VALUE` = 15 (docs/rules.md §5).
"""

from __future__ import annotations

from enum import IntEnum

from scoring.errors import bad_input

__all__ = ["ACE", "LOWEST", "PASSED_A_VALUE", "Level", "level_label"]

LOWEST = 2
"""Both sides start here, and a triple-A reset sends a side back here (docs/rules.md §1)."""

ACE = 14
"""The top level: upgrades stop here, and a side at A must pass it to win (A必打, docs/rules.md §1)."""

PASSED_A_VALUE = 15
"""What a passed A counts as in small points and level sums (docs/rules.md §5)."""


class Level(IntEnum):
    """A level, an int 2..14 shown as ``2``–``10``, ``J``, ``Q``, ``K``, ``A``."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def label(self) -> str:
        return _LABELS[self.value]

    @classmethod
    def parse(cls, value: object) -> Level:
        """Accepts 2..14 or a label (``"10"``, ``"J"``, ``"A"`` …)."""
        if isinstance(value, bool):  # bool is an int; a level is never True/False
            value = repr(value)
        if isinstance(value, int) and LOWEST <= value <= ACE:
            return cls(value)
        if isinstance(value, str) and value.upper() in _BY_LABEL:
            return cls(_BY_LABEL[value.upper()])
        raise bad_input(
            f"{value!r} is not a level; use 2..14 or 2–10, J, Q, K, A.",
            f"{value!r} 不是级数，请用 2..14 或 2–10、J、Q、K、A。",
        )

    def __repr__(self) -> str:
        return f"Level({self.label})"

    def __str__(self) -> str:
        return self.label


_LABELS = {**{n: str(n) for n in range(2, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A"}
_BY_LABEL = {label: n for n, label in _LABELS.items()}


def level_label(level: int) -> str:
    """``14`` → ``"A"``; ``15`` (a passed A in standings) → ``"A+"``."""
    if level == PASSED_A_VALUE:
        return "A+"
    return _LABELS[level]
