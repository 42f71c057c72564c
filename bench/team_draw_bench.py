"""Benchmark of the team draw (团体对抗, docs/rules.md §11): ``python bench/team_draw_bench.py``.

Prints ``BENCH draw.team_swiss_1000_s``: seconds (median of 3, wall clock) to draw round 9 of a team
match Swiss of 1,000 teams: the Swiss engine pairing the teams (``swiss_pair`` with the teams as
entrants, as ``draw.services`` runs it: team match points, no team met twice, departments kept apart
in the first 3 rounds where named teams' members share departments) and the seating of every team match
at its two tables from the line-ups (``draw.team_matches.team_draw_plan``, the rules core's
``team_match_seat``: 1,000 tables). Eight rounds are played first (seeded, not timed: a win 2, a draw
1). Target ≤ 2. Not included: reading the teams' standings from the database and writing the round's
2,000 matches (``BENCH draw.write_2500_tables_s`` in bench/draw_bench.py measures such a write).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

import django  # noqa: E402

django.setup()

from draw_bench import _entrants, _play, _Standing  # noqa: E402

from tournament.draw.pairing import swiss_pair  # noqa: E402
from tournament.draw.team_matches import team_draw_plan  # noqa: E402

TEAMS = 1000
ROUNDS_BEFORE = 8
DEPARTMENT_ROUNDS = 3


def main() -> None:
    rng = random.Random(36)
    # named teams: each team's two pairs come from one or two of 60 departments
    table = {
        i: _Standing(i, departments=frozenset(rng.sample(range(60), rng.randint(1, 2)))) for i in range(1, TEAMS + 1)
    }
    line_ups = {i: (10_000 + 2 * i, 10_001 + 2 * i) for i in table}
    for number in range(1, ROUNDS_BEFORE + 1):
        draw = swiss_pair(
            entrants=_entrants(table), round_number=number, seed=number, department_rounds=DEPARTMENT_ROUNDS
        )
        _play(table, draw, rng)
    entrants = _entrants(table)
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        teams_draw = swiss_pair(
            entrants=entrants,
            round_number=ROUNDS_BEFORE + 1,
            seed=ROUNDS_BEFORE + 1,
            department_rounds=DEPARTMENT_ROUNDS,
        )
        plan = team_draw_plan(teams_draw=teams_draw, line_ups=line_ups)
        timings.append(time.perf_counter() - started)
    assert len(plan.pairs.matches) == TEAMS and not any(w.code == "rematch" for w in teams_draw.warnings)
    print(f"BENCH draw.team_swiss_1000_s {statistics.median(timings):.3f} s")
    print(f"  ({TEAMS} teams, round {ROUNDS_BEFORE + 1}: {teams_draw.notes.get('optimality')}, {TEAMS} tables seated)")


if __name__ == "__main__":
    main()
