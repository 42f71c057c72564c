"""Benchmark of team events in the rules core (docs/rules.md §11): ``python bench/teams_bench.py``.

Prints three lines in the ``make bench`` form ``BENCH <name> <value> <unit>``:

- ``scoring.team_standings_1000x5x9_s``: seconds to rank 1,000 teams of 5 pairs (5,000 pairs) after 9
  Swiss rounds by the team total (``team_count`` 3, seeded lots) from the stage's one ranking of the
  pairs: reading the members' rows (:func:`scoring.teams.members_of_standings`) and ranking the teams
  (:func:`scoring.teams.team_total_rank`) — what a team ranking adds to the pairs' ranking it is made
  from (the pairs' page, the draw and prizes ask for that ranking anyway). Target ≤ 0.2.
- ``scoring.team_standings_from_results_1000x5x9_s``: the same **from the results**, the pairs' ranking
  included (:func:`scoring.stage_ranking.rank_stage` of 5,000 pairs, head-to-head and lots included;
  ``scoring.standings_5000x9_s`` in bench/scoring_bench.py measures that part alone, target ≤ 0.5): what
  a team standings page that finds nothing cached computes. No target of its own; shown so that the
  first figure is not read as the whole cost.
- ``scoring.team_match_standings_1000x9_s``: seconds to decide 4,500 team matches (9 rounds of 1,000
  teams, 9,000 tables; :func:`scoring.team_matches.team_match_decide`) and rank the teams
  (:func:`scoring.team_matches.team_standings_rank`). No target set.

The results are generated first (seeded, so runs are comparable) and not timed. Times are this
process's CPU time (``time.process_time``: one core, whatever else the machine runs), best of a few
repetitions. No database: the rules core alone.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.profiles import PROFILES
from scoring.seats import Side
from scoring.stage_ranking import rank_stage
from scoring.standings import MatchRecord
from scoring.team_matches import TeamMatchRecord, team_results_decide, team_standings_rank
from scoring.team_options import TeamOptions
from scoring.teams import Team, members_of_standings, team_total_rank

REPEATS = 5
TEAMS, PAIRS_PER_TEAM, ROUNDS = 1000, 5, 9


def _swiss_results(entrants: list[str], rounds: int, rng: random.Random) -> list[MatchRecord]:
    """A simple Swiss: sort by match points (random within a score), pair neighbours; 2% forfeits."""
    points = dict.fromkeys(entrants, 0)
    results: list[MatchRecord] = []
    for round_number in range(1, rounds + 1):
        field = sorted(entrants, key=lambda entrant: (-points[entrant], rng.random()))
        for ns, ew in zip(field[0::2], field[1::2], strict=True):
            if rng.random() < 0.02:
                side = rng.choice((Side.NS, Side.EW))
                record = MatchRecord(round=round_number, ns=ns, ew=ew, forfeit=side, winner=side.other)
            else:
                winner = Side.NS if rng.random() < 0.5 else Side.EW
                passed = rng.random() < 0.3
                loser_level = rng.randint(2, 14)
                winner_level = 14 if passed else rng.randint(loser_level, 14)
                levels = (winner_level, loser_level) if winner is Side.NS else (loser_level, winner_level)
                record = MatchRecord(round=round_number, ns=ns, ew=ew, winner=winner, levels=levels, passed_a=passed)
            results.append(record)
            assert record.winner is not None
            points[ns if record.winner is Side.NS else ew] += 2
    return results


def _field() -> tuple[list[Team], list[str], list[MatchRecord]]:
    rng = random.Random(36)
    teams = [
        Team(f"T{team:04d}", tuple(f"T{team:04d}P{pair}" for pair in range(PAIRS_PER_TEAM))) for team in range(TEAMS)
    ]
    entrants = [pair for team in teams for pair in team.members]
    return teams, entrants, _swiss_results(entrants, ROUNDS, rng)


def bench_team_standings() -> tuple[float, float]:
    """(from the stage's ranking, from the results)."""
    teams, entrants, results = _field()
    options = PROFILES["timed-40"]
    ranking = rank_stage(entrants=entrants, results=results, options=options, lots_seed=2024)
    from_ranking = from_results = float("inf")
    for _ in range(REPEATS):
        started = time.process_time()
        members = members_of_standings(ranking.standings(), options=options)
        total = team_total_rank(teams=teams, members=members, team_count=3, lots_seed=2024)
        from_ranking = min(from_ranking, time.process_time() - started)
        assert len(total.rows) == TEAMS
        started = time.process_time()
        again = rank_stage(entrants=entrants, results=results, options=options, lots_seed=2024)
        members = members_of_standings(again.standings(), options=options)
        team_total_rank(teams=teams, members=members, team_count=3, lots_seed=2024)
        from_results = min(from_results, time.process_time() - started)
    return from_ranking, from_results


def _team_matches(rng: random.Random) -> list[TeamMatchRecord]:
    """9 rounds of 1,000 teams paired at random, each table won by either side at random levels."""
    names = [f"T{team:04d}" for team in range(TEAMS)]
    records = []
    for round_number in range(1, ROUNDS + 1):
        rng.shuffle(names)
        for x, y in zip(names[0::2], names[1::2], strict=True):
            tables = []
            for ns, ew in ((f"{x}1", f"{y}1"), (f"{y}2", f"{x}2")):
                winner = Side.NS if rng.random() < 0.5 else Side.EW
                loser_level = rng.randint(2, 13)
                winner_level = rng.randint(loser_level + 1, 14)
                levels = (winner_level, loser_level) if winner is Side.NS else (loser_level, winner_level)
                tables.append(MatchRecord(round=round_number, ns=ns, ew=ew, winner=winner, levels=levels))
            records.append(TeamMatchRecord(round=round_number, x=x, y=y, a=tables[0], b=tables[1]))
    return records


def bench_team_match_standings() -> float:
    records = _team_matches(random.Random(9))
    options = PROFILES["timed-40"]
    team = TeamOptions(team_match=True)
    best = float("inf")
    for _ in range(REPEATS):
        started = time.process_time()
        results = team_results_decide(records, options=options, team_options=team)
        standings = team_standings_rank(results=results, team_options=team, lots_seed=2024)
        best = min(best, time.process_time() - started)
    assert len(standings.rows) == TEAMS
    return best


def main() -> None:
    from_ranking, from_results = bench_team_standings()
    print(f"BENCH scoring.team_standings_1000x5x9_s {from_ranking:.3f} s")
    print(f"BENCH scoring.team_standings_from_results_1000x5x9_s {from_results:.3f} s")
    print(f"BENCH scoring.team_match_standings_1000x9_s {bench_team_match_standings():.3f} s")


if __name__ == "__main__":
    main()
