"""Benchmark: ``BENCH cards.classify_per_s`` — random sets of 1–10 cards at random levels.

Run from the repository root: ``.venv/bin/python bench/cards_bench.py``. Prints exactly one line,
``BENCH cards.classify_per_s <value> sets/s`` (target ≥ 20,000 on one core). The sets are drawn
from the 108 cards of two decks with a fixed seed, so every run times the same work; parsing is
not timed, only :func:`scoring.cards.classify` (copy check included).
"""

from __future__ import annotations

import importlib
import random
import sys
import time
from pathlib import Path
from typing import Any

SETS = 50_000
ROUNDS = 5
SEED = 20240503


def _cards_module() -> Any:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    return importlib.import_module("scoring.cards")


def main() -> None:
    cards = _cards_module()
    suits = list(cards.Suit)
    deck = [cards.Card(rank, suit) for rank in range(2, 15) for suit in suits] * 2
    deck += [cards.Card(cards.SMALL_JOKER), cards.Card(cards.BIG_JOKER)] * 2
    rng = random.Random(SEED)
    sets = [(tuple(rng.sample(deck, rng.randint(1, 10))), rng.randint(2, 14)) for _ in range(SETS)]
    classify = cards.classify
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for hand, level in sets:
            classify(cards=hand, level=level)
        best = min(best, time.perf_counter() - start)
    print(f"BENCH cards.classify_per_s {SETS / best:.0f} sets/s")


if __name__ == "__main__":
    main()
