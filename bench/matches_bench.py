"""Match-clock benchmarks.

``BENCH matches.round_start_2500_s``: ``round_start`` of a published round of 2,500 tables (5,000
pairs) on PostgreSQL — the round's clock and every match's, with a history row per match (target
<= 1 s). Median of three runs, each a fresh round. Runs on ``DATABASE_URL`` when it is PostgreSQL,
else on the local PostgreSQL at 127.0.0.1:5432 if one answers (in a database of its own), else on
a throw-away SQLite file — then the line is named ``matches.round_start_2500_sqlite_s`` so that a
SQLite figure is never mistaken for the PostgreSQL target.

``BENCH matches.deal_write_cpu_ms``: the CPU time (``time.process_time``) this process spends on one
deal entered through the referee API as a phone sends it (``POST /api/matches/<id>/deals/``, token
auth, an ``Idempotency-Key``), called through the WSGI handler uWSGI calls, ``DEBUG=0``: the mean
of 200 deals spread over 40 tables of a running round, after 20 to warm up (target <= 10 ms: 50
deals a second in half a core). The database's own time is not in it. Same database choice and
naming as above (``matches.deal_write_cpu_sqlite_ms`` on SQLite); the cache of ``CACHE_URL`` if set, else the
process's own memory (a shared Redis adds its round trips to a deal's CPU).
"""

from __future__ import annotations

import io
import json
import os
import random
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


DEAL_TABLES = 40
DEALS_WARM = 20
DEALS_TIMED = 200
DEAL_ORDERS = [["N", "E", "S"], ["E", "N", "W"], ["S", "W", "N"], ["W", "S", "E"], ["N", "E", "W", "S"]]
DEAL_ORDERS += [["E", "S", "N", "W"], ["S", "E", "W", "N"], ["W", "N", "E", "S"]]


def deal_write_cpu_ms() -> float:
    """The mean CPU milliseconds of a deal entered through the referee API (module docstring)."""
    from django.contrib.auth import get_user_model
    from django.core.handlers.wsgi import WSGIHandler
    from rest_framework.authtoken.models import Token

    from scoring.profiles import options_for
    from tournament.matches.models import Match, Round, RoundStatus, Stage, Table
    from tournament.registration.models import Pair, Tournament

    tournament = Tournament.objects.create(name="bench deal write", rule_profile="timed-40")
    pairs = Pair.objects.bulk_create(
        Pair(tournament=tournament, number=i, name=f"对{i}") for i in range(1, 2 * DEAL_TABLES + 1)
    )
    tables = Table.objects.bulk_create(Table(tournament=tournament, number=n) for n in range(1, DEAL_TABLES + 1))
    stage = Stage.objects.create(
        tournament=tournament, name="预赛", format="swiss", rules=options_for(profile="timed-40").to_json()
    )
    round_ = Round.objects.create(stage=stage, number=1, status=RoundStatus.RUNNING)
    Match.objects.bulk_create(
        Match(round=round_, table=table, ns_pair=pairs[2 * k], ew_pair=pairs[2 * k + 1])
        for k, table in enumerate(tables)
    )
    live = list(Match.objects.filter(round=round_).values_list("id", flat=True))
    versions = dict.fromkeys(live, 0)
    user, _created = get_user_model().objects.get_or_create(
        username="bench-deal-referee", defaults={"is_superuser": True, "is_staff": True}
    )
    token = Token.objects.get_or_create(user=user)[0].key
    handler = WSGIHandler()
    rng = random.Random(7)

    def post(number: int) -> None:
        match_id = rng.choice(live)
        body = json.dumps({"order": rng.choice(DEAL_ORDERS), "expected_version": versions[match_id]}).encode()
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": f"/api/matches/{match_id}/deals/",
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "HTTP_HOST": "127.0.0.1",
            "REMOTE_ADDR": "127.0.0.1",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(body)),
            "HTTP_AUTHORIZATION": f"Token {token}",
            "HTTP_IDEMPOTENCY_KEY": f"bench-deal-{tournament.pk}-{number}",
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
            "wsgi.url_scheme": "http",
            "wsgi.version": (1, 0),
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        statuses: list[str] = []
        answer = json.loads(b"".join(handler(environ, lambda status, headers, exc=None: statuses.append(status))))
        match = answer.get("match") or {}
        assert statuses[0].startswith("201"), (statuses, answer)
        versions[match_id] = match["version"]
        if match["status"] not in ("pending", "running"):  # finished: no more deals there
            live.remove(match_id)

    for number in range(DEALS_WARM):
        post(number)
    used = 0.0
    for number in range(DEALS_WARM, DEALS_WARM + DEALS_TIMED):
        before = time.process_time()
        post(number)
        used += time.process_time() - before
    tournament.delete()
    return 1000 * used / DEALS_TIMED


def main() -> None:
    scratch = tempfile.TemporaryDirectory()
    url = _postgres_url()
    os.environ["DATABASE_URL"] = url or f"sqlite:///{scratch.name}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    # as a production worker runs (README): no debug query log, no static files served by Django
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 50)
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")
    for name in ("SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS"):
        os.environ.setdefault(name, "0")
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
    name = "matches.deal_write_cpu_ms" if url else "matches.deal_write_cpu_sqlite_ms"
    print(f"BENCH {name} {deal_write_cpu_ms():.2f} ms")
    scratch.cleanup()


if __name__ == "__main__":
    main()
