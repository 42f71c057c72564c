"""Benchmark of the tables' QR codes: ``python bench/table_links_bench.py``.

Prints ``BENCH table_links.qr_codes_200_tables_ms``: the time to sign 200 table tokens and draw
their QR codes (segno, inline SVG) — what the table cards, a draw sheet or a batch of score sheets
of a 400-pair event cost on top of the page the first time (``..._cached_ms``: printed again, from
the cache) — and ``BENCH table_links.resolve_us``: verifying one
token's signature (the database lookups after it are not counted). No database: the tokens are
signed with a given generation, as ``table_tokens`` does after its one query.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

import django

django.setup()

from django.core import signing  # noqa: E402
from django.core.cache import cache  # noqa: E402

from tournament.matches.table_links import SALT, qr_svg, table_token  # noqa: E402

TABLES = 200
ROUNDS = 5


def _codes(round_: SimpleNamespace) -> float:
    started = time.perf_counter()
    for table_id in range(1, TABLES + 1):
        token = table_token(round_=round_, table_id=table_id, generation=0)  # type: ignore[arg-type]
        qr_svg(f"https://example.org/table/{token}/", scale=3)
    return time.perf_counter() - started


def main() -> None:
    first = float("inf")
    for attempt in range(ROUNDS):
        cache.clear()
        first = min(first, _codes(SimpleNamespace(pk=12 + attempt)))
    print(f"BENCH table_links.qr_codes_{TABLES}_tables_ms {first * 1000:.0f} ms")
    again = min(_codes(SimpleNamespace(pk=12 + ROUNDS - 1)) for _attempt in range(ROUNDS))
    print(f"BENCH table_links.qr_codes_{TABLES}_tables_cached_ms {again * 1000:.0f} ms")
    round_ = SimpleNamespace(pk=12)
    token = table_token(round_=round_, table_id=7, generation=0)  # type: ignore[arg-type]
    count = 2000
    started = time.perf_counter()
    for _ in range(count):
        signing.Signer(salt=SALT).unsign_object(token)
    print(f"BENCH table_links.resolve_us {(time.perf_counter() - started) / count * 1e6:.0f} us")


if __name__ == "__main__":
    main()
