"""Load benchmark of the organiser's progress board: ``python bench/board_bench.py``.

Prints ``BENCH web.progress_board_2500_p95_ms``: the 95th percentile latency of the progress
board of a round of 2,500 tables (pages of 100: by table, slowest first, oldest first in one
area, one state) under uWSGI (4 workers, production settings) and PostgreSQL, with 4
clients (one per worker: the organiser's laptop and phone, two chief referees) each asking again
the moment it is answered — far more than the board's 15-second polling — while results are
being entered (a writer records a deal about
every 50 ms through ``deal_record``, the referees' write path). Target ≤ 300.

The event is ``web_bench``'s (5,000 pairs; its third round, 2,500 tables, is under way: a third
finished, a third playing, a third not started), seeded by it in its database when missing.
The organiser is a user made for the bench, signed in through a real session (the cookie goes
with every request). Everything it starts is stopped at the end; nothing leaves the loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import web_bench

ROOT = web_bench.ROOT
CLIENTS = 4
WRITE_INTERVAL = 0.05


async def drive_paths(base: str, paths: list[str], seconds: float, clients: int, cookie: str) -> dict:
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    latencies: list[float] = []
    errors = 0
    deadline = time.monotonic() + seconds
    rng = random.Random(11)

    async def client() -> None:
        nonlocal errors
        while time.monotonic() < deadline:
            started = time.perf_counter()
            try:
                status = (await web_bench.request(host, port, rng.choice(paths), headers={"Cookie": cookie}))[0]
            except OSError:
                status = 0
            latencies.append(time.perf_counter() - started)
            errors += status != 200

    began = time.monotonic()
    await asyncio.gather(*(client() for _ in range(clients)))
    return {"latencies_ms": [1000 * x for x in latencies], "errors": errors, "seconds": time.monotonic() - began}


def drive(args: argparse.Namespace) -> int:
    spec = json.loads(Path(args.spec).read_text())
    result = asyncio.run(drive_paths(args.base, spec["paths"], args.seconds, args.clients, spec["cookie"]))
    print(json.dumps(result))
    return 0


def drive_process(*, base: str, spec: Path, seconds: float, clients: int) -> dict:
    import subprocess

    command = [sys.executable, __file__, "--drive", "--base", base, "--spec", str(spec)]
    command += ["--seconds", str(seconds), "--clients", str(clients)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def organiser_cookie(tournament_id: int) -> str:
    """A signed-in organiser of the bench event: its session cookie."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.test import Client

    from tournament.registration.models import Tournament
    from tournament.registration.roles import ORGANISERS_GROUP

    user, _ = get_user_model().objects.get_or_create(username="board-bench-organiser")
    user.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    Tournament.objects.get(pk=tournament_id).organisers.add(user)
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


class Writer(threading.Thread):
    """Records deals at the round's tables not started yet, through the referees' service, until stopped."""

    def __init__(self, round_id: int) -> None:
        super().__init__(daemon=True)
        self.round_id, self.stopped, self.deals, self.errors = round_id, threading.Event(), 0, 0

    def run(self) -> None:
        from django.db import connection

        from tournament.matches.models import Match, MatchStatus
        from tournament.matches.services import deal_record

        ids = list(
            Match.objects.filter(round_id=self.round_id, status=MatchStatus.PENDING).values_list("pk", flat=True)
        )
        rng = random.Random(5)
        orders = [["N", "E", "S"], ["E", "N", "W"], ["S", "W", "N"], ["W", "S", "E"]]
        try:
            while not self.stopped.is_set() and ids:
                try:
                    deal_record(match_id=rng.choice(ids), outcome={"order": rng.choice(orders)})
                    self.deals += 1
                except Exception:  # a finished match refuses more deals: the bench goes on
                    self.errors += 1
                self.stopped.wait(WRITE_INTERVAL)
        finally:
            connection.close()


def bench_database(url: str, *, suffix: str = "boardbench") -> str:
    """A database of this bench's own (``<name>_boardbench``): the deals it enters and the time it
    calls must not change what ``web_bench`` measures (``organiser_bench`` has its own too)."""
    from urllib.parse import urlunsplit

    import psycopg2

    parts = urlsplit(url)
    name = f"{parts.path.lstrip('/') or 'postgres'}_{suffix}"
    connection = psycopg2.connect(urlunsplit(parts._replace(path="/postgres")))
    connection.autocommit = True
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if cursor.fetchone() is None:
            cursor.execute(f'CREATE DATABASE "{name}"')
    connection.close()
    return urlunsplit(parts._replace(path=f"/{name}"))


def round_under_way(round_: Any) -> None:
    """The round as it is mid-session: its clock running (a run before may have called its time)."""
    from datetime import timedelta

    from django.utils import timezone

    from tournament.matches.models import RoundStatus

    now = timezone.now()
    type(round_).objects.filter(pk=round_.pk).update(
        status=RoundStatus.RUNNING, started_at=now, ends_at=now + timedelta(minutes=40), time_called_at=None
    )
    round_.matches.filter(started_at__isnull=False).update(
        started_at=now, clock_ends_at=now + timedelta(minutes=40), time_called_at=None, time_called_during_deal=None
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--drive", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--base", help=argparse.SUPPRESS)
    parser.add_argument("--spec", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive:
        return drive(args)

    url = os.environ.get("DATABASE_URL", "")
    if not web_bench.is_postgres(url) and web_bench.local_service(web_bench.LOCAL_POSTGRES):
        url = web_bench.LOCAL_POSTGRES
    if not web_bench.is_postgres(url):
        print("NOTE board_bench: skipped — needs DATABASE_URL pointing at PostgreSQL.")
        return 0
    if not (os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL")) and web_bench.local_service(
        web_bench.LOCAL_REDIS
    ):
        os.environ["CACHE_URL"] = web_bench.LOCAL_REDIS
    database_url = bench_database(url)
    os.environ["DATABASE_URL"] = database_url
    # the server must read the session this process signs the organiser in with
    secret_key = os.environ["SECRET_KEY"] = secrets.token_hex(32)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from tournament.matches.models import Round

    call_command("migrate", interactive=False, verbosity=0)
    tournament_id, stage_id, _ = web_bench.seed()
    round_ = Round.objects.get(stage_id=stage_id, number=3)
    round_under_way(round_)
    tables = round_.matches.exclude(ew_pair=None).count()
    cookie = organiser_cookie(tournament_id)
    connections.close_all()

    board = f"/t/{tournament_id}/manage/rounds/{round_.pk}/board/"
    pages = -(-tables // 100)
    paths = [f"{board}?page={page}" for page in range(1, pages + 1)]
    paths += [f"{board}?sort=slowest&page={page}" for page in (1, 2, 3)]
    paths += [f"{board}?sort=oldest&area={quote('A区')}", f"{board}?state=playing", f"{board}?state=not_started"]
    port = web_bench.free_port()
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "spec.json"
        spec.write_text(json.dumps({"paths": paths, "cookie": cookie}))
        server = web_bench.serve(database_url, str(Path(tmp) / "static"), port, secret_key=secret_key)
        writer = Writer(round_.pk)
        try:
            base = f"http://127.0.0.1:{port}"
            web_bench.wait_ready(f"{base}/t/{tournament_id}/")
            drive_process(base=base, spec=spec, seconds=web_bench.WARM_SECONDS, clients=args.clients)
            writer.start()
            trials = [
                drive_process(base=base, spec=spec, seconds=args.seconds, clients=args.clients)
                for _ in range(args.trials)
            ]
        finally:
            writer.stopped.set()
            if writer.is_alive():
                writer.join(timeout=10)
            web_bench.stop(server)
    result = web_bench.pooled(trials)
    each = ", ".join(f"{web_bench.pooled([trial])['p95_ms']:.1f}" for trial in trials)
    print(
        f"NOTE board_bench: {tables} tables, {args.clients} clients, p95 of each trial {each} ms;"
        f" {writer.deals} deals entered meanwhile ({writer.errors} refused)"
    )
    if result["errors"]:
        print(f"NOTE board_bench: {result['errors']} of {result['requests']} requests were not 200")
    print(f"NOTE board_bench: {result['rps']:.1f} requests/s held")
    print(f"BENCH web.progress_board_2500_p95_ms {result['p95_ms']:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
