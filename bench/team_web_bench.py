"""Load benchmark of the public team standings: ``python bench/team_web_bench.py``.

Prints, in the ``make bench`` form ``BENCH <name> <value> <unit>``:

- ``web.team_standings_p95_ms``: 95th percentile latency of the public team standings page
  (``/t/<id>/teams/<stage>/?page=<n>``, its ten pages of 100 teams) of 1,000 teams of 5 pairs ranked by
  their team total (docs/rules.md §11, ``team_count`` 3), under the live bench's load: a writer at 20
  deals a second through the referee API and 50 closed-loop public clients (a third each: the pairs'
  standings pages, find my table, the team standings pages). Target ≤ 50.

How: the event of ``bench/web_bench.py`` and the servers, the reset and the writer of
``bench/live_bench.py`` (uWSGI's public and staff pools as in production); the event's 5,000 pairs
are put in 1,000 teams and its stage ranks them beside the pairs for the run, and made as they were
again after it (the other benches measure the event without teams). Needs PostgreSQL and Redis, like
the live bench; skipped (a NOTE) without them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import live_bench  # the database, the servers and a trial (reset, working set, writer) of the live bench
import web_bench  # the seeding and the client of the web bench

ROOT = web_bench.ROOT
TEAMS, PAIRS_PER_TEAM = 1000, 5
RATE = 20
SECONDS = 30.0
TEAM_PREFIX = "负载团体"


def teams_seed(*, tournament_id: int, stage_id: int) -> None:
    """1,000 teams of 5 pairs (in pair order) on the bench event, ranked beside the pairs by its stage."""
    from django.db import transaction

    from tournament.matches.models import Stage
    from tournament.registration.models import Pair, Team, TeamMember
    from tournament.standings.cache import public_version_bump

    teams_remove(tournament_id=tournament_id, stage_id=stage_id)
    pairs = list(Pair.objects.filter(tournament_id=tournament_id).order_by("number", "pk").values_list("pk", flat=True))
    with transaction.atomic():
        made = Team.objects.bulk_create(
            Team(tournament_id=tournament_id, number=number, name=f"{TEAM_PREFIX}{number:04d}")
            for number in range(1, TEAMS + 1)
        )
        TeamMember.objects.bulk_create(
            TeamMember(team=made[index // PAIRS_PER_TEAM], pair_id=pair, position=index % PAIRS_PER_TEAM + 1)
            for index, pair in enumerate(pairs[: TEAMS * PAIRS_PER_TEAM])
        )
        stage = Stage.objects.get(pk=stage_id)
        stage.options = {**stage.options, "team_total": True, "team_count": 3}
        stage.save(update_fields=["options"])
        public_version_bump(tournament_id=tournament_id)  # bulk writes send no signal


def teams_remove(*, tournament_id: int, stage_id: int) -> None:
    """The bench event as web_bench seeded it: no teams, its stage ranking pairs only."""
    from django.db import transaction

    from tournament.matches.models import Stage
    from tournament.registration.models import Team
    from tournament.standings.cache import public_version_bump

    with transaction.atomic():
        Team.objects.filter(tournament_id=tournament_id).delete()
        stage = Stage.objects.get(pk=stage_id)
        options = {key: value for key, value in stage.options.items() if key not in ("team_total", "team_count")}
        if options != stage.options:
            stage.options = options
            stage.save(update_fields=["options"])
        public_version_bump(tournament_id=tournament_id)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS, help="driving time")
    parser.add_argument("--clients", type=int, default=web_bench.CLIENTS)
    parser.add_argument("--public-workers", type=int, default=live_bench.PUBLIC_WORKERS)
    parser.add_argument("--staff-workers", type=int, default=live_bench.STAFF_WORKERS)
    parser.add_argument(
        "--public-nice",
        type=int,
        default=live_bench.PUBLIC_NICE,
        help="the public pool's nice (0: on a machine shared with other work, the pool is not starved by it)",
    )
    args = parser.parse_args()

    database_url = live_bench.database_url_get("team_web_bench", "5,000 pairs in 1,000 teams")
    if not database_url:
        return 0
    tournament_id, stage_id, find_queries = live_bench.event_ready(database_url)
    started = time.perf_counter()
    teams_seed(tournament_id=tournament_id, stage_id=stage_id)
    print(f"NOTE team_web_bench: {TEAMS} teams of {PAIRS_PER_TEAM} pairs made in {time.perf_counter() - started:.1f} s")
    paths = live_bench.public_paths(tournament_id, stage_id, find_queries)
    paths["teams"] = [f"/t/{tournament_id}/teams/{stage_id}/?page={page}" for page in range(1, -(-TEAMS // 100) + 1)]
    token = live_bench.referee_token()
    context = {"tournament_id": tournament_id, "stage_id": stage_id, "paths": paths, "token": token}
    try:
        with live_bench.pools_running(database_url=database_url, context=context, args=args) as pools:
            public, referee, _pools, tmp = pools
            # one trial as the live bench runs it, its public clients asking for the team standings too
            result = live_bench.trial(
                rate=RATE, public=public, referee=referee, spec_dir=tmp, args=args, context=context
            )
    finally:
        teams_remove(tournament_id=tournament_id, stage_id=stage_id)
    cache = os.environ.get("CACHE_URL") or ""
    print(
        f"NOTE team_web_bench: {result['deals']} deals ({result['deal_rate']:.1f}/s), {result['requests']} public"
        f" requests ({result['counts']['teams']} team standings, {result['public_errors']} not 200) in"
        f" {result['seconds']:.0f} s; pairs' standings p95 {result['p95_ms']['standings']:.1f} ms meanwhile;"
        f" uWSGI {args.public_workers} public (nice {args.public_nice}) + {args.staff_workers} staff workers,"
        f" {args.clients} clients,"
        f" cache {urlsplit(cache).scheme}, {os.cpu_count()} CPUs"
    )
    print(f"BENCH web.team_standings_p95_ms {result['p95_ms']['teams']:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
