"""Rule options and named profiles (RULES.md, every section; seeds 000–004)."""

from __future__ import annotations

from enum import Enum


class TributeVariant(str, Enum):
    """How tribute (进贡) is paid and returned (RULES.md §6).

    - ``standard``: the return card has rank ≤ 10 (or the returner's smallest if none); the payer
      to 上游 leads; after a double-down equal tribute cards go clockwise.
    - ``seed_000``: seed 000's text (return ≤ 10; after double tribute the larger-card payer leads).
    - ``national_2017``: the 2017 national rules (the larger-card payer leads).
    """

    STANDARD = "standard"
    SEED_000 = "seed_000"
    NATIONAL_2017 = "national_2017"
