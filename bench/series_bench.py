"""Series benchmarks (docs/rules.md §12.3, §12.4), on the rules core (``scoring.series``), which every
series page, the workbook and the rating command ask.

``BENCH series.ranking_50_events_10000_players_s``: the series ranking of 10,000 players over 50 events,
each event placing 4,000 of them (2,000 pairs, pairs sharing their place): 200,000 placings summed and
ranked with the tie-breaks (target <= 1 s).

``BENCH series.rating_rebuild_100000_matches_s``: the rating rebuilt from scratch from 100,000 confirmed
matches of two pairs among those 10,000 players (openskill's Plackett–Luce; target <= 30 s).
Median of three runs each (the rating: one run, it is long).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.series import EventPlacing, PointsTable, RatedMatch, ratings_rebuild, series_ranking

PLAYERS = [f"E{number:05d}" for number in range(10_000)]
TABLE = PointsTable((25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2), others=1)


def placings(rng: random.Random) -> list[EventPlacing]:
    out = []
    for event in range(50):
        field = rng.sample(PLAYERS, 4000)
        for place in range(1, 2001):
            out.append(EventPlacing(f"e{event}", field[2 * place - 2], place))
            out.append(EventPlacing(f"e{event}", field[2 * place - 1], place))
    return out


def main() -> None:
    rng = random.Random(37)
    rows = placings(rng)
    timings = []
    for _run in range(3):
        started = time.perf_counter()
        ranking = series_ranking(placings=rows, table=TABLE, lots_seed=1)
        timings.append(time.perf_counter() - started)
    assert len(ranking) <= len(PLAYERS)
    print(f"BENCH series.ranking_50_events_10000_players_s {statistics.median(timings):.3f} s")
    matches = []
    for _ in range(100_000):
        a, b, c, d = rng.sample(PLAYERS, 4)
        matches.append(RatedMatch((a, b), (c, d), drawn=rng.random() < 0.02))
    started = time.perf_counter()
    ratings = ratings_rebuild(matches)
    elapsed = time.perf_counter() - started
    assert sum(rating.matches for rating in ratings.values()) == 400_000
    print(f"BENCH series.rating_rebuild_100000_matches_s {elapsed:.3f} s")


if __name__ == "__main__":
    main()
