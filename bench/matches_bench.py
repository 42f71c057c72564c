"""Match-clock benchmarks.

``BENCH matches.round_start_2500_s``: ``round_start`` of a published round of 2,500 tables (5,000
pairs) on PostgreSQL — the round's clock and every match's, with a history row per match (target
<= 1 s). Median of three runs, each a fresh round. Runs on ``DATABASE_URL`` when it is PostgreSQL,
else on the local PostgreSQL at 127.0.0.1:5432 if one answers (in a database of its own), else on
a throw-away SQLite file — then the line is named ``matches.round_start_2500_sqlite_s`` so that a
SQLite figure is never mistaken for the PostgreSQL target.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PAIRS = 5000
LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
BENCH_DATABASE = "guandan_matchbench"


def _postgres_url() -> str | None:
    """DATABASE_URL if it is PostgreSQL, else a database of the bench's own on the local server."""
    url = os.environ.get("DATABASE_URL", "")
    if url.split(":", 1)[0] in ("postgres", "postgresql"):
        return url
    try:
        import psycopg2

        connection = psycopg2.connect(LOCAL_POSTGRES, connect_timeout=2)
    except Exception:
        return None
    connection.autocommit = True
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [BENCH_DATABASE])
        if cursor.fetchone() is None:
            cursor.execute(f'CREATE DATABASE "{BENCH_DATABASE}"')
    connection.close()
    return urlunsplit(urlsplit(LOCAL_POSTGRES)._replace(path=f"/{BENCH_DATABASE}"))


def main() -> None:
    scratch = tempfile.TemporaryDirectory()
    url = _postgres_url()
    os.environ["DATABASE_URL"] = url or f"sqlite:///{scratch.name}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from scoring.profiles import options_for
    from tournament.matches.clock import round_start
    from tournament.matches.models import Match, MatchStatus, Round, RoundStatus, Stage, Table
    from tournament.registration.models import Pair, Tournament

    call_command("migrate", verbosity=0)
    timings = []
    for run in range(3):
        tournament = Tournament.objects.create(name=f"bench round start {run}", rule_profile="timed-40")
        pairs = Pair.objects.bulk_create(
            Pair(tournament=tournament, number=i, name=f"对{i}") for i in range(1, PAIRS + 1)
        )
        tables = Table.objects.bulk_create(Table(tournament=tournament, number=n) for n in range(1, PAIRS // 2 + 1))
        stage = Stage.objects.create(
            tournament=tournament, name="预赛", format="swiss", rules=options_for(profile="timed-40").to_json()
        )
        round_ = Round.objects.create(stage=stage, number=1, status=RoundStatus.PUBLISHED)
        Match.objects.bulk_create(
            Match(round=round_, table=table, ns_pair=pairs[2 * k], ew_pair=pairs[2 * k + 1])
            for k, table in enumerate(tables)
        )
        started = time.perf_counter()
        round_start(round_id=round_.pk)
        timings.append(time.perf_counter() - started)
        assert Match.objects.filter(round=round_, status=MatchStatus.RUNNING, started_at__isnull=False).count() == (
            PAIRS // 2
        )
        tournament.delete()
    name = "matches.round_start_2500_s" if url else "matches.round_start_2500_sqlite_s"
    print(f"BENCH {name} {statistics.median(timings):.3f} s")
    scratch.cleanup()


if __name__ == "__main__":
    main()
