"""Benchmarks of the rules core: ``python bench/scoring_bench.py``.

Prints exactly two lines, in the ``make bench`` form ``BENCH <name> <value> <unit>``:

- ``scoring.replay_deals_per_s``: deals per second replaying random Guandan matches (a mix of the
  classic, timed-40 with time called, timed-90 and points-6 profiles) through :func:`scoring.match.replay`,
  on one core. Target ≥ 200,000.
- ``scoring.standings_5000x9_s``: seconds to rank 5,000 entrants after 9 Swiss rounds with the default
  tie-breakers (head-to-head and seeded lots included). Target ≤ 0.5.

The inputs are generated first (seeded, so runs are comparable) and not timed. Times are this process's
CPU time (``time.process_time``: one core, whatever else the machine runs), best of a few repetitions.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.finishing_order import FinishingOrder
from scoring.match import MatchState, replay
from scoring.options import RuleOptions
from scoring.profiles import PROFILES
from scoring.seats import SEATS, Side
from scoring.standings import MatchRecord, rank

REPEATS = 5


def _orders() -> list[FinishingOrder]:
    orders = []
    for first in SEATS:
        for second in SEATS:
            if second is first:
                continue
            if second is first.partner:
                orders.append(FinishingOrder.parse([first.value, second.value]))
            for third in SEATS:
                if third not in (first, second):
                    orders.append(FinishingOrder.parse([first.value, second.value, third.value]))
    return orders


def _random_match(
    rng: random.Random, options: RuleOptions, orders: list[FinishingOrder], cap: int
) -> list[FinishingOrder]:
    """Random deals until the match finishes or ``cap`` deals (valid by construction)."""
    state = MatchState.initial(options)
    deals: list[FinishingOrder] = []
    while not state.is_finished and len(deals) < cap:
        order = rng.choice(orders)
        state, _ = state.apply(order)
        deals.append(order)
    return deals


def bench_replay() -> float:
    rng = random.Random(3)
    orders = _orders()
    matches: list[tuple[RuleOptions, list[FinishingOrder], int | None]] = []
    for index in range(2000):
        name = ("classic", "timed-40", "timed-90", "points-6")[index % 4]
        options = PROFILES[name]
        deals = _random_match(rng, options, orders, cap=60)
        called = len(deals) if name == "timed-40" and len(deals) > 1 else None
        matches.append((options, deals, called))
    total = sum(len(deals) for _, deals, _ in matches)
    best = float("inf")
    for _ in range(REPEATS):
        started = time.process_time()
        for options, deals, called in matches:
            replay(options=options, deals=deals, time_called_during_deal=called)
        best = min(best, time.process_time() - started)
    return total / best


def _swiss_results(entrants: list[str], rounds: int, rng: random.Random) -> list[MatchRecord]:
    """9 rounds of a simple Swiss: sort by match points (random within a score), pair neighbours."""
    points = dict.fromkeys(entrants, 0)
    results: list[MatchRecord] = []
    for round_number in range(1, rounds + 1):
        field = sorted(entrants, key=lambda entrant: (-points[entrant], rng.random()))
        for ns, ew in zip(field[0::2], field[1::2], strict=True):
            outcome = rng.random()
            if outcome < 0.02:
                record = MatchRecord(round=round_number, ns=ns, ew=ew, forfeit=rng.choice((Side.NS, Side.EW)))
            else:
                winner = Side.NS if outcome < 0.5 else Side.EW
                passed = rng.random() < 0.3
                loser_level = rng.randint(2, 14)
                winner_level = 14 if passed else rng.randint(loser_level, 14)
                levels = (winner_level, loser_level) if winner is Side.NS else (loser_level, winner_level)
                record = MatchRecord(
                    round=round_number, ns=ns, ew=ew, winner=winner, levels=levels, passed_a=passed
                )
            results.append(record)
            if record.forfeit is not None:
                points[ns if record.forfeit is Side.EW else ew] += 2
            else:
                points[ns if record.winner is Side.NS else ew] += 2
    return results


def bench_standings() -> float:
    rng = random.Random(9)
    entrants = [f"P{number:05d}" for number in range(5000)]
    results = _swiss_results(entrants, 9, rng)
    options = PROFILES["timed-40"]
    best = float("inf")
    for _ in range(REPEATS):
        started = time.process_time()
        rank(entrants=entrants, results=results, options=options, lots_seed=2024)
        best = min(best, time.process_time() - started)
    return best


def main() -> None:
    print(f"BENCH scoring.replay_deals_per_s {bench_replay():.0f} deals/s")
    print(f"BENCH scoring.standings_5000x9_s {bench_standings():.3f} s")


if __name__ == "__main__":
    main()
