"""Load benchmark of the public team standings: ``python bench/team_web_bench.py``.

Prints, in the ``make bench`` form ``BENCH <name> <value> <unit>``:

- ``web.team_standings_p95_ms``: 95th percentile latency of the public team standings page
  (``/t/<id>/teams/<stage>/?page=<n>``, its ten pages of 100 teams) of 1,000 teams of 5 pairs ranked by
  their team total (docs/rules.md §11, ``team_count`` 3), under the live bench's load: a writer at 20
  deals a second through the referee API and 50 closed-loop public clients (a third each: the pairs'
  standings pages, find my table, the team standings pages). Target ≤ 50.

How: the event of ``bench/web_bench.py`` and the servers, the reset and the writer of
``bench/live_bench.py`` (gunicorn's public and staff pools as in production); the event's 5,000 pairs
are put in 1,000 teams and its stage ranks them beside the pairs for the run, and made as they were
again after it (the other benches measure the event without teams). Needs PostgreSQL and Redis, like
the live bench; skipped (a NOTE) without them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import live_bench  # the servers, the reset, the working set and the writer of the live bench
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


def trial(*, public: str, referee: str, spec_dir: Path, args: argparse.Namespace, context: dict) -> dict:
    """One trial as the live bench runs it (reset, working set, warm-up), its public clients asking for
    the team standings too."""
    rng = random.Random(RATE)
    ids = live_bench.round_reset(stage_id=context["stage_id"])
    active, pool = live_bench.working_set_play(ids=ids, size=int(RATE * live_bench.SET_SECONDS), rng=rng)
    from django.db import connections

    connections.close_all()
    spec = spec_dir / "teams.json"
    spec.write_text(json.dumps({**context["paths"], "token": context["token"], "active": active, "pool": pool}))
    warm = spec_dir / "warm.json"
    web_bench.drive_process(base=public, spec=warm, kind="warm", seconds=live_bench.WARM_SECONDS, clients=args.clients)
    reader = subprocess.Popen(
        [sys.executable, __file__, "--spec", str(spec), "--seconds", str(args.seconds), "--drive-public", public],
        stdout=subprocess.PIPE,
        text=True,
    )
    writer_command = [sys.executable, live_bench.__file__, "--spec", str(spec), "--seconds", str(args.seconds)]
    writer = subprocess.Popen(
        [*writer_command, "--write", referee, "--rate", str(RATE)], stdout=subprocess.PIPE, text=True
    )
    reads = json.loads(reader.communicate()[0].strip().splitlines()[-1])
    writes = json.loads(writer.communicate()[0].strip().splitlines()[-1])
    if reader.returncode or writer.returncode:
        raise SystemExit("team_web_bench: a driver failed")
    latencies = reads["latencies_ms"]
    return {
        "teams_p95_ms": live_bench.percentile95(latencies["teams"]),
        "teams": len(latencies["teams"]),
        "standings_p95_ms": live_bench.percentile95(latencies["standings"]),
        "requests": sum(len(values) for values in latencies.values()),
        "errors": reads["errors"],
        "seconds": reads["seconds"],
        "deals": len(writes["latencies_ms"]),
        "deal_rate": len(writes["latencies_ms"]) / writes["seconds"],
    }


def database_url_get() -> str:
    """The live bench's database (``BENCH_DATABASE_URL``, else one beside DATABASE_URL's); empty
    without PostgreSQL or a shared cache (the bench is skipped)."""
    database_url = os.environ.get("BENCH_DATABASE_URL", "")
    if database_url:
        live_bench.database_ensure(database_url)
    else:
        url = os.environ.get("DATABASE_URL", "")
        if not web_bench.is_postgres(url) and web_bench.local_service(web_bench.LOCAL_POSTGRES):
            url = web_bench.LOCAL_POSTGRES
        if not web_bench.is_postgres(url):
            print(
                "NOTE team_web_bench: skipped — needs DATABASE_URL pointing at PostgreSQL (5,000 pairs in 1,000 teams)."
            )
            return ""
        database_url = web_bench.bench_database(url)
    if not (os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL")):
        if not web_bench.local_service(web_bench.LOCAL_REDIS):
            print("NOTE team_web_bench: skipped — needs a shared cache (CACHE_URL: Redis), as production runs.")
            return ""
        os.environ["CACHE_URL"] = web_bench.LOCAL_REDIS
    return database_url


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS, help="driving time")
    parser.add_argument("--clients", type=int, default=web_bench.CLIENTS)
    parser.add_argument("--public-workers", type=int, default=live_bench.PUBLIC_WORKERS)
    parser.add_argument("--staff-workers", type=int, default=live_bench.STAFF_WORKERS)
    parser.add_argument("--spec", help=argparse.SUPPRESS)
    parser.add_argument("--drive-public", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive_public:
        spec = json.loads(Path(args.spec).read_text())
        paths = {kind: spec[kind] for kind in ("standings", "find", "teams")}
        print(json.dumps(live_bench.run(live_bench.drive_public(args.drive_public, paths, args.seconds, args.clients))))
        return 0

    database_url = database_url_get()
    if not database_url:
        return 0
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    tournament_id, stage_id, find_queries = web_bench.seed()
    started = time.perf_counter()
    teams_seed(tournament_id=tournament_id, stage_id=stage_id)
    print(f"NOTE team_web_bench: {TEAMS} teams of {PAIRS_PER_TEAM} pairs made in {time.perf_counter() - started:.1f} s")
    pages = -(-web_bench.PAIRS // 100)
    paths = {
        "standings": [f"/t/{tournament_id}/standings/{stage_id}/?page={page}" for page in range(1, pages + 1)],
        "find": [f"/t/{tournament_id}/find/?q={quote(query)}" for query in find_queries],
        "teams": [f"/t/{tournament_id}/teams/{stage_id}/?page={page}" for page in range(1, -(-TEAMS // 100) + 1)],
    }
    context = {"stage_id": stage_id, "paths": paths, "token": live_bench.referee_token()}
    from django.db import connections

    connections.close_all()
    public_port, referee_port = web_bench.free_port(), web_bench.free_port()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            warm = Path(tmp) / "warm.json"
            warm.write_text(json.dumps({"warm": paths["standings"] + paths["teams"] + paths["find"][:500]}))
            pools = live_bench.serve_pools(
                database_url,
                str(Path(tmp) / "static"),
                public_port,
                referee_port,
                public_workers=args.public_workers,
                staff_workers=args.staff_workers,
            )
            try:
                public, referee = f"http://127.0.0.1:{public_port}", f"http://127.0.0.1:{referee_port}"
                web_bench.wait_ready(f"{public}/t/{tournament_id}/")
                web_bench.wait_ready(f"{referee}/t/{tournament_id}/")
                result = trial(public=public, referee=referee, spec_dir=Path(tmp), args=args, context=context)
            finally:
                for pool in pools:
                    web_bench.stop(pool)
    finally:
        teams_remove(tournament_id=tournament_id, stage_id=stage_id)
    cache = os.environ.get("CACHE_URL") or ""
    print(
        f"NOTE team_web_bench: {result['deals']} deals ({result['deal_rate']:.1f}/s), {result['requests']} public"
        f" requests ({result['teams']} team standings, {result['errors']} not 200) in {result['seconds']:.0f} s;"
        f" pairs' standings p95 {result['standings_p95_ms']:.1f} ms meanwhile; gunicorn {args.public_workers} public"
        f" + {args.staff_workers} staff workers, {args.clients} clients, cache {urlsplit(cache).scheme},"
        f" {os.cpu_count()} CPUs"
    )
    print(f"BENCH web.team_standings_p95_ms {result['teams_p95_ms']:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
