"""BENCH draw.swiss_5000_s: pairing Swiss round 9 of 5,000 pairs (issue 5: target <= 2 s).

Eight rounds are simulated first (random results: win 2, draw 1, loss 0; seats and opponents
recorded); then only the ninth round's ``swiss_pair`` call is timed — the median of three runs
of the same (deterministic) draw. Algorithm only: no database.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournament.draw.pairing import Draw, Entrant, EntrantId, swiss_pair  # noqa: E402

PAIRS = 5000
ROUNDS_BEFORE = 8


@dataclass
class _Standing:
    id: int
    score: int = 0
    small: float = 0.0
    opponents: set[EntrantId] = field(default_factory=set)
    byes: int = 0
    ns: int = 0
    ew: int = 0
    last: str | None = None


def _entrants(table: dict[int, _Standing]) -> list[Entrant]:
    ranked = sorted(table.values(), key=lambda s: (-s.score, -s.small, s.id))
    return [
        Entrant(
            id=s.id,
            rank=k,
            score=s.score,
            opponents=frozenset(s.opponents),
            byes=s.byes,
            seats_ns=s.ns,
            seats_ew=s.ew,
            last_seat="NS" if s.last == "NS" else "EW" if s.last == "EW" else None,
        )
        for k, s in enumerate(ranked, start=1)
    ]


def _play(table: dict[int, _Standing], draw: Draw, rng: random.Random) -> None:
    for p in draw.pairings:
        if p.ew is None:
            table[int(p.ns)].byes += 1
            table[int(p.ns)].score += 2
            continue
        a, b = table[int(p.ns)], table[int(p.ew)]
        a.opponents.add(b.id)
        b.opponents.add(a.id)
        a.ns, b.ew, a.last, b.last = a.ns + 1, b.ew + 1, "NS", "EW"
        x = rng.random()
        margin = 1 + rng.random() * 10  # small points (级差分) go to the winner
        if x < 0.1:
            a.score, b.score = a.score + 1, b.score + 1
        elif x < 0.55:
            a.score, a.small, b.small = a.score + 2, a.small + margin, b.small - margin
        else:
            b.score, b.small, a.small = b.score + 2, b.small + margin, a.small - margin


def main() -> None:
    rng = random.Random(20240905)
    table = {i: _Standing(i) for i in range(1, PAIRS + 1)}
    for round_number in range(1, ROUNDS_BEFORE + 1):
        draw = swiss_pair(entrants=_entrants(table), round_number=round_number, seed=round_number)
        _play(table, draw, rng)
    entrants = _entrants(table)
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        draw = swiss_pair(entrants=entrants, round_number=ROUNDS_BEFORE + 1, seed=ROUNDS_BEFORE + 1)
        timings.append(time.perf_counter() - started)
    assert len(draw.matches) == PAIRS // 2 and not any(w.code == "rematch" for w in draw.warnings)
    print(f"BENCH draw.swiss_5000_s {statistics.median(timings):.3f} s")


if __name__ == "__main__":
    main()
