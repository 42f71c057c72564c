"""Load benchmark of the event live: ``python bench/live_bench.py``.

The public pages while every table enters results. Prints, in the ``make bench`` form
``BENCH <name> <value> <unit>``, for a writer at 20 deals a second (``web.live_*``) and at 50
(``web.live50_*``):

- ``web.live_standings_p95_ms``: 95th percentile latency of the standings pages (a random page of
  100 rows of the 5,000-pair stage). Target ≤ 150.
- ``web.live_find_p95_ms``: the same for "find my table" (a different player each time). Target ≤ 50.
- ``web.live_deal_p95_ms``: a deal POSTed through the referee API (``/api/matches/<id>/deals/``,
  token auth), from the moment it was due to its answer. Target ≤ 150.
- ``web.live_public_rps``: the public requests per second held meanwhile. Target ≥ 1,200.

How: the event of ``bench/web_bench.py`` (5,000 pairs, two Swiss rounds finished and a third
under way; seeded once into a database of its own and reused — ``BENCH_DATABASE_URL`` names it
outright), served as in production (README, "Production"): gunicorn's public pool (4 sync
workers) and the staff pool of result entry (2 sync workers) — the reverse proxy's split, here two
ports. Before each trial the third round's unfinished tables are reset, and a working set of
``2 × rate`` matches is played to random depths (untimed, through the services; then the pages
are warmed up again after the reset) so that matches finish throughout the trial as in a real
round (a deal every two seconds per table of the set; a finished match is replaced by a fresh
one). Then for ``--seconds`` (default 45): 50 closed-loop
public clients (half standings, half find, one connection per request) in one process and an
open-loop writer in another, sending a deal to the working set's least recently dealt idle match
every ``1/rate`` seconds whether or not the earlier ones were answered (a deal it could not send,
every match of the set waiting for an answer, is counted and reported).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path
from urllib.parse import quote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import web_bench  # the seeding, the server's settings and the client of the web bench

ROOT = web_bench.ROOT
PUBLIC_WORKERS = 4
STAFF_WORKERS = 2
PUBLIC_NICE = 10
"""The public pool's ``nice`` (README, "Production"): result entry comes first on shared cores."""
SECONDS = 45.0
RATES = (20, 50)
WARM_SECONDS = 8.0
"""Public load after each trial's reset, untimed: every worker rebuilds its pages and seat index."""
SET_SECONDS = 2.0
"""Each match of the writer's working set gets a deal about this often."""
ORDERS = [["N", "S"], ["E", "W"], ["N", "E", "S"], ["E", "N", "W"], ["S", "W", "N"], ["W", "S", "E"]]
ORDERS += [["N", "E", "W", "S"], ["E", "S", "N", "W"], ["S", "E", "W", "N"], ["W", "N", "E", "S"]]
REFEREE = "bench-referee"


# -- preparing a trial (in this process, with Django) -------------------------------------------------


def database_ensure(url: str) -> None:
    """``BENCH_DATABASE_URL``'s database, created if it is not there yet (and the role may)."""
    import psycopg2

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    connection = psycopg2.connect(parts._replace(path="/postgres").geturl())
    connection.autocommit = True
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if cursor.fetchone() is None:
            cursor.execute(f'CREATE DATABASE "{name}"')
    connection.close()


def referee_token() -> str:
    """A superuser's API token (the chief referee's rights over every match)."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    user, _created = get_user_model().objects.get_or_create(
        username=REFEREE, defaults={"is_superuser": True, "is_staff": True}
    )
    return Token.objects.get_or_create(user=user)[0].key


def round_reset(*, stage_id: int) -> list[int]:
    """The current round's tables that the seed left unfinished, back to nothing entered (a trial
    before may have played them); their match ids."""
    from datetime import timedelta

    from django.db import transaction
    from django.utils import timezone

    from tournament.matches.models import Adjustment, Deal, Match, MatchStatus, Round, RoundStatus
    from tournament.standings.cache import public_version_bump

    current = Round.objects.filter(stage_id=stage_id).order_by("-number").first()
    assert current is not None
    # The seed finished every third table (from the first); the others are the writer's.
    ids = [
        pk
        for pk, number in Match.objects.filter(round=current).values_list("id", "table__number")
        if (number - 1) % 3 != 0
    ]
    now = timezone.now()
    with transaction.atomic():
        Deal.objects.filter(match_id__in=ids).delete()
        Adjustment.objects.filter(match_id__in=ids).delete()
        Match.objects.filter(pk__in=ids).update(
            status=MatchStatus.PENDING,
            state={},
            winner="",
            result_reason="",
            time_called_during_deal=None,
            started_at=None,
            clock_ends_at=None,
            time_called_at=None,
            finished_at=None,
            signed_off_by=None,
            signed_off_at=None,
        )
        Round.objects.filter(pk=current.pk).update(
            status=RoundStatus.RUNNING, started_at=now, ends_at=now + timedelta(hours=3), time_called_at=None
        )
        tournament_id = current.stage.tournament_id
        public_version_bump(tournament_id=tournament_id)  # bulk updates send no signal
    return ids


def working_set_play(*, ids: list[int], size: int, rng: random.Random) -> tuple[list[list[int]], list[list[int]]]:
    """``size`` matches played to random depths (0–12 deals, none finished), and the matches left
    for the writer to start: [id, version] each."""
    from tournament.matches.models import Match, MatchStatus
    from tournament.matches.services import deal_record

    pool = list(ids)
    rng.shuffle(pool)
    active: list[list[int]] = []
    while len(active) < size and pool:
        match_id = pool.pop()
        version = Match.objects.values_list("version", flat=True).get(pk=match_id)
        finished = False
        for _deal in range(rng.randrange(0, 13)):
            entry = deal_record(match_id=match_id, outcome={"order": rng.choice(ORDERS)})
            version = entry.match.version
            if entry.match.status not in (MatchStatus.PENDING, MatchStatus.RUNNING):
                finished = True
                break
        if not finished:
            active.append([match_id, version])
    versions = dict(Match.objects.filter(pk__in=pool).values_list("id", "version"))
    return active, [[match_id, versions[match_id]] for match_id in pool]


# -- serving ---------------------------------------------------------------------------------------------


def staff_warm(*, base: str, token: str, match_ids: list[int]) -> None:
    """A few API reads from several threads at once, so every staff worker has loaded the API
    before the first timed deal (a worker's first request imports half the project)."""
    import urllib.request
    from concurrent.futures import ThreadPoolExecutor

    def read(match_id: int) -> None:
        request = urllib.request.Request(f"{base}/api/matches/{match_id}/", headers={"Authorization": f"Token {token}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(read, match_ids))


def serve_pools(
    database_url: str,
    static_root: str,
    public_port: int,
    referee_port: int,
    *,
    public_workers: int,
    staff_workers: int,
    public_nice: int = PUBLIC_NICE,
) -> list[subprocess.Popen]:
    """The public pool and the staff pool (result entry), as README's production section runs them:
    the public pool at a lower CPU priority (``nice``), so a deal never waits for the CPU behind it."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_hex(32),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0",
        "STATIC_ROOT": static_root,
        "LOG_LEVEL": "ERROR",
    }
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    pools = []
    for name, port, workers in (("public", public_port, public_workers), ("staff", referee_port, staff_workers)):
        command = [gunicorn, "tournament.site.wsgi", "-w", str(workers), "-b", f"127.0.0.1:{port}"]
        command += ["-n", f"guandan-{name}"]
        if name == "public":  # its polls shed while its queue is long (tournament/overload.py)
            command += ["-c", "python:tournament.site.gunicorn_public"]
            if public_nice:
                command = ["nice", "-n", str(public_nice), *command]
        command += ["--log-level", "warning", "--backlog", "2048"]
        pools.append(subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True))
    return pools


# -- driving (second and third processes) ---------------------------------------------------------------


async def drive_public(base: str, paths: dict[str, list[str]], seconds: float, clients: int) -> dict:
    """Closed-loop clients, each asking for a standings page or a find, half and half."""
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    latencies: dict[str, list[float]] = {kind: [] for kind in paths}
    errors = 0
    rng = random.Random(11)
    deadline = time.monotonic() + seconds
    kinds = list(paths)

    async def client() -> None:
        nonlocal errors
        while time.monotonic() < deadline:
            kind = rng.choice(kinds)
            started = time.perf_counter()
            try:
                status = await web_bench.fetch(host, port, rng.choice(paths[kind]))
            except OSError:
                status = 0
            latencies[kind].append(1000 * (time.perf_counter() - started))
            if status != 200:
                errors += 1

    began = time.monotonic()
    await asyncio.gather(*(client() for _ in range(clients)))
    return {"latencies_ms": latencies, "errors": errors, "seconds": time.monotonic() - began}


class _Exchange(asyncio.Protocol):
    """One request on its own connection; the whole answer once the server has closed it."""

    def __init__(self, request: bytes, done: asyncio.Future[bytes]) -> None:
        self.request, self.done, self.chunks = request, done, bytearray()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        self.chunks += data

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_result(bytes(self.chunks))


def _answer(raw: bytes) -> tuple[int, dict]:
    head, _, body = raw.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/"):
        return 0, {}
    status = int(head.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in head.lower():
        plain, rest = bytearray(), body
        while rest:
            size, _, rest = rest.partition(b"\r\n")
            length = int(size.split(b";")[0] or b"0", 16)
            if length == 0:
                break
            plain += rest[:length]
            rest = rest[length + 2 :]
        body = bytes(plain)
    try:
        return status, json.loads(body or b"{}")
    except ValueError:
        return status, {}


async def drive_writer(base: str, spec: dict, seconds: float, rate: float) -> dict:
    """Open loop: a deal due every ``1/rate`` seconds, to the least recently dealt idle match."""
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    loop = asyncio.get_running_loop()
    rng = random.Random(5)
    idle = deque((match_id, version) for match_id, version in spec["active"])
    fresh = list(spec["pool"])
    latencies: list[float] = []
    outcomes: dict[str, int] = {}
    skipped = 0
    finished = 0

    async def send(match_id: int, version: int, due: float) -> None:
        nonlocal finished
        body = json.dumps({"order": rng.choice(ORDERS), "expected_version": version}).encode()
        request = (
            f"POST /api/matches/{match_id}/deals/ HTTP/1.1\r\nHost: {host}\r\nAuthorization: Token {spec['token']}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode() + body
        done: asyncio.Future[bytes] = loop.create_future()
        try:
            await loop.create_connection(lambda: _Exchange(request, done), host, port)
            status, answer = _answer(await done)
        except OSError:
            status, answer = 0, {}
        latencies.append(1000 * (time.perf_counter() - due))
        match = answer.get("match") or (answer.get("error") or {}).get("match") or {}
        code = "201" if status == 201 else f"{status} {(answer.get('error') or {}).get('code', '')}".strip()
        outcomes[code] = outcomes.get(code, 0) + 1
        version = int(match.get("version", version))
        if match.get("status") in ("pending", "running") or (not match and status != 201):
            idle.append((match_id, version))
        else:  # finished (or refused for good): a fresh table joins the set
            finished += 1
            if fresh:
                fresh_id, fresh_version = fresh.pop()
                idle.append((fresh_id, fresh_version))

    tasks = []
    started = time.perf_counter()
    count = int(seconds * rate)
    for number in range(count):
        due = started + number / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        if not idle:
            skipped += 1
            continue
        match_id, version = idle.popleft()
        tasks.append(asyncio.create_task(send(match_id, version, due)))
    await asyncio.gather(*tasks)
    return {
        "latencies_ms": latencies,
        "outcomes": outcomes,
        "skipped": skipped,
        "finished": finished,
        "seconds": time.perf_counter() - started,
    }


def run(coroutine):  # type: ignore[no-untyped-def]
    try:  # the driver shares the machine with the server: the lighter its event loop, the better
        import uvloop

        return uvloop.run(coroutine)
    except ImportError:
        return asyncio.run(coroutine)


def percentile95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))] if ordered else float("nan")


# -- main --------------------------------------------------------------------------------------------


def trial(*, rate: int, public: str, referee: str, spec_dir: Path, args: argparse.Namespace, context: dict) -> dict:
    rng = random.Random(rate)
    ids = round_reset(stage_id=context["stage_id"])
    started = time.perf_counter()
    active, pool = working_set_play(ids=ids, size=int(rate * SET_SECONDS), rng=rng)
    print(
        f"NOTE live_bench: {rate}/s: {len(active)} tables under way in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    from django.db import connections

    connections.close_all()
    spec = spec_dir / f"live{rate}.json"
    spec.write_text(json.dumps({**context["paths"], "token": context["token"], "active": active, "pool": pool}))
    # The reset moved every version (as a draw would): the pages and the seat index are rebuilt
    # first, untimed — the trial measures a round in play, not its publication (web_bench does).
    warm = spec_dir / "warm.json"
    web_bench.drive_process(base=public, spec=warm, kind="warm", seconds=WARM_SECONDS, clients=args.clients)
    me = [sys.executable, __file__, "--spec", str(spec), "--seconds", str(args.seconds)]
    public_driver = subprocess.Popen(
        [*me, "--drive-public", public, "--clients", str(args.clients)], stdout=subprocess.PIPE, text=True
    )
    writer = subprocess.Popen([*me, "--write", referee, "--rate", str(rate)], stdout=subprocess.PIPE, text=True)
    reads = json.loads(public_driver.communicate()[0].strip().splitlines()[-1])
    writes = json.loads(writer.communicate()[0].strip().splitlines()[-1])
    if public_driver.returncode or writer.returncode:
        raise SystemExit("live_bench: a driver failed")
    requests = sum(len(values) for values in reads["latencies_ms"].values())
    return {
        "standings_p95_ms": percentile95(reads["latencies_ms"]["standings"]),
        "find_p95_ms": percentile95(reads["latencies_ms"]["find"]),
        "deal_p95_ms": percentile95(writes["latencies_ms"]),
        "public_rps": requests / reads["seconds"],
        "public_errors": reads["errors"],
        "requests": requests,
        "deals": len(writes["latencies_ms"]),
        "deal_rate": len(writes["latencies_ms"]) / writes["seconds"],
        "outcomes": writes["outcomes"],
        "skipped": writes["skipped"],
        "finished": writes["finished"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS, help="driving time of one trial")
    parser.add_argument("--rates", default=",".join(map(str, RATES)), help="deals a second of each trial")
    parser.add_argument("--clients", type=int, default=web_bench.CLIENTS)
    parser.add_argument("--public-workers", type=int, default=PUBLIC_WORKERS)
    parser.add_argument("--staff-workers", type=int, default=STAFF_WORKERS)
    parser.add_argument("--spec", help=argparse.SUPPRESS)
    parser.add_argument("--drive-public", help=argparse.SUPPRESS)
    parser.add_argument("--write", help=argparse.SUPPRESS)
    parser.add_argument("--rate", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive_public or args.write:
        spec = json.loads(Path(args.spec).read_text())
        if args.drive_public:
            paths = {"standings": spec["standings"], "find": spec["find"]}
            print(json.dumps(run(drive_public(args.drive_public, paths, args.seconds, args.clients))))
        else:
            print(json.dumps(run(drive_writer(args.write, spec, args.seconds, args.rate))))
        return 0

    database_url = os.environ.get("BENCH_DATABASE_URL", "")
    if database_url:
        database_ensure(database_url)
    else:
        url = os.environ.get("DATABASE_URL", "")
        if not web_bench.is_postgres(url) and web_bench.local_service(web_bench.LOCAL_POSTGRES):
            url = web_bench.LOCAL_POSTGRES
        if not web_bench.is_postgres(url):
            print(
                "NOTE live_bench: skipped — needs DATABASE_URL pointing at PostgreSQL (the load test of 5,000 pairs)."
            )
            return 0
        database_url = web_bench.bench_database(url)
    if not (os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL")):
        if not web_bench.local_service(web_bench.LOCAL_REDIS):
            print("NOTE live_bench: skipped — needs a shared cache (CACHE_URL: Redis), as production runs.")
            return 0
        os.environ["CACHE_URL"] = web_bench.LOCAL_REDIS
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    tournament_id, stage_id, find_queries = web_bench.seed()
    pages = -(-web_bench.PAIRS // 100)
    paths = {
        "standings": [f"/t/{tournament_id}/standings/{stage_id}/?page={page}" for page in range(1, pages + 1)],
        "find": [f"/t/{tournament_id}/find/?q={quote(query)}" for query in find_queries],
    }
    context = {"stage_id": stage_id, "paths": paths, "token": referee_token()}
    from django.db import connections

    connections.close_all()
    public_port, referee_port = web_bench.free_port(), web_bench.free_port()
    results = {}
    speed_before = web_bench.machine_speed_ms()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        warm = Path(tmp) / "warm.json"
        warm.write_text(json.dumps({"warm": paths["standings"] + paths["find"][:500]}))
        pools = serve_pools(
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
            staff_warm(base=referee, token=context["token"], match_ids=round_reset(stage_id=stage_id)[:16])
            web_bench.drive_process(base=public, spec=warm, kind="warm", seconds=web_bench.WARM_SECONDS, clients=50)
            for rate in (int(rate) for rate in args.rates.split(",")):
                results[rate] = trial(
                    rate=rate, public=public, referee=referee, spec_dir=Path(tmp), args=args, context=context
                )
                result = results[rate]
                print(
                    f"NOTE live_bench: {rate}/s: {result['deals']} deals ({result['deal_rate']:.1f}/s, answers"
                    f" {result['outcomes']}, {result['skipped']} not sent: no idle table), {result['finished']}"
                    f" matches finished; {result['requests']} public requests, {result['public_errors']} not 200",
                    flush=True,
                )
        finally:
            for pool in pools:
                web_bench.stop(pool)
    cache = os.environ.get("CACHE_URL") or ""
    print(
        f"NOTE live_bench: gunicorn {args.public_workers} public + {args.staff_workers} staff sync workers,"
        f" {args.clients} clients, {args.seconds:.0f} s a trial, cache {urlsplit(cache).scheme},"
        f" kept responses {os.environ.get('PUBLIC_RESPONSE_CACHE_MB', '64')} MB a worker,"
        f" {os.cpu_count()} CPUs, load average {load_before:.1f} before and {os.getloadavg()[0]:.1f} after;"
        f" a fixed loop took {speed_before:.0f} ms before and {web_bench.machine_speed_ms():.0f} ms after"
    )
    for rate, result in results.items():
        prefix = "web.live" if rate == RATES[0] else f"web.live{rate}"
        print(f"BENCH {prefix}_standings_p95_ms {result['standings_p95_ms']:.1f} ms")
        print(f"BENCH {prefix}_find_p95_ms {result['find_p95_ms']:.1f} ms")
        print(f"BENCH {prefix}_deal_p95_ms {result['deal_p95_ms']:.1f} ms")
        print(f"BENCH {prefix}_public_rps {result['public_rps']:.0f} req/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
