"""How long the three-seat draw (Dou Dizhu, three-seats-v1) takes for a big field's later round, where
repeated table-mates must be swapped away: ``python bench/three_seat_draw_bench.py``."""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournament.draw.pairing_three_seats import ThreeSeatPlayer, three_seat_draw


def bench(players: int, rounds: int, reseat: str) -> tuple[float, int]:
    mates: dict[int, set[int]] = {i: set() for i in range(1, players + 1)}
    last: dict[int, set[int]] = {i: set() for i in mates}
    byes = dict.fromkeys(mates, 0)
    elapsed = 0.0
    repeats = 0
    for number in range(1, rounds + 1):
        field = [
            ThreeSeatPlayer(id=i, rank=i, byes=byes[i], mates=frozenset(mates[i]), last_mates=frozenset(last[i]))
            for i in mates
        ]
        start = time.perf_counter()
        draw = three_seat_draw(players=field, round_number=number, seed=number, reseat=reseat)  # type: ignore[arg-type]
        elapsed = time.perf_counter() - start  # the last (hardest) round's
        repeats = draw.repeats
        last = {i: set() for i in mates}
        for table in draw.tables:
            for a, b in itertools.permutations(table.seats, 2):
                mates[a].add(b)
                last[a].add(b)
        for player in draw.byes:
            byes[player] += 1
    return elapsed, repeats


if __name__ == "__main__":
    for players, rounds in ((300, 5), (1500, 5)):
        for reseat in ("lot", "score"):
            seconds, repeats = bench(players, rounds, reseat)
            print(f"BENCH three_seat_draw_{reseat}_{players}_players_round_{rounds} {seconds * 1000:.0f} ms")
            print(f"BENCH three_seat_draw_{reseat}_{players}_players_round_{rounds}_repeats {repeats} pairs")
