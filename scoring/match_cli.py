"""Placeholder: this command group is being written."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:  # pragma: no cover - replaced by the real module
    del subparsers
