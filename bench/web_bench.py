"""Load benchmark of the public pages: ``python bench/web_bench.py``.

Prints, in the ``make bench`` form ``BENCH <name> <value> <unit>``:

- ``web.standings_p95_ms``: 95th percentile latency of the live standings pages of a 5,000-pair
  Swiss stage (100 rows a page, random page) with 50 concurrent clients. Target ≤ 150.
- ``web.find_table_p95_ms``: the same for "find my table", measured from the moment a draw is
  published (every cached page and every worker's index of the seats out of date), each client
  asking for a different player (two or three characters of a name, or a whole employee number).
  Target ≤ 50.
- ``web.find_table_rps``: the find requests per second held meanwhile.

How: PostgreSQL (``DATABASE_URL``, else the local one at 127.0.0.1:5432 if it answers; without
one the bench prints a note and exits 0) and the shared cache of ``CACHE_URL``/``REDIS_URL``
(else the local Redis at 127.0.0.1:6379 if it answers: production runs several workers, so
the cache is shared). The event goes into a database of its own next to DATABASE_URL's
(``<name>_webbench``, created when the role may, else DATABASE_URL's own) and is kept for the
next run: 10,000 players in 5,000 pairs, two Swiss rounds finished and a third under way, the
matches' snapshots folded by the rules core — bulk-created, not timed. Then uWSGI (4 workers,
production settings, README's "Production") serves on 127.0.0.1, and a second process drives it
with 50 clients (asyncio protocols on uvloop, so the driver takes as little of the shared CPUs as
it can; one connection per request, as the pools' workers close them): first 3 seconds of every
page kind, untimed (a server that has been up a while), then ``--trials`` trials (default 3) of
``--seconds`` seconds (default 10) per page kind, each find trial right after a draw's
publication; a kind's figures are of all its trials' requests together (a shared machine's
hiccups weigh less than in one trial, and nothing is left out). Everything it starts is stopped
at the end; nothing leaves the loopback interface.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
BENCH_NAME = "负载测试 · 5000 对"
PAIRS = 5000
CLIENTS = 50
WORKERS = 4
WARM_SECONDS = 3.0
LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
LOCAL_REDIS = "redis://127.0.0.1:6379/15"
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红建国志文斌波辉宇鹏飞浩然俊晓东海燕雪梅立新"


def is_postgres(url: str) -> bool:
    return url.split(":", 1)[0] in ("postgres", "postgresql", "pgsql", "postgis")


def bench_database(url: str) -> str:
    """A database of the bench's own beside DATABASE_URL's (created if the role may), else DATABASE_URL."""
    import psycopg2

    parts = urlsplit(url)
    name = parts.path.lstrip("/") or "postgres"
    bench = f"{name}_webbench"
    try:
        # Through the maintenance database: DATABASE_URL's own need not exist yet.
        connection = psycopg2.connect(urlunsplit(parts._replace(path="/postgres")))
        connection.autocommit = True
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [bench])
            if cursor.fetchone() is None:
                cursor.execute(f'CREATE DATABASE "{bench}"')
        connection.close()
    except psycopg2.Error as error:
        print(f"NOTE web_bench: using {name} itself (cannot create {bench}: {error.pgerror or error})")
        return url
    return urlunsplit(parts._replace(path=f"/{bench}"))


# -- seeding (in this process, with Django) ------------------------------------------------------------


def snapshots(count: int, *, finished: bool, rng: random.Random) -> list[dict]:
    """Match snapshots from the rules core: random finishing orders folded until the match ends
    (or a few deals, for matches under way)."""
    from scoring.match import replay_json

    orders = [["N", "S"], ["E", "W"], ["N", "E", "S"], ["E", "N", "W"], ["S", "W", "N"], ["W", "S", "E"]]
    orders += [["N", "E", "W", "S"], ["E", "S", "N", "W"], ["S", "E", "W", "N"], ["W", "N", "E", "S"]]
    out = []
    while len(out) < count:
        deals: list[dict] = []
        result = None
        limit = 60 if finished else rng.randrange(2, 9)
        while len(deals) < limit:
            deals.append({"order": rng.choice(orders)})
            result = replay_json({"profile": "timed-40", "deals": deals})
            if result.is_finished:
                break
        if result is not None and result.is_finished == finished:
            out.append(result.to_json())
    return out


def seed() -> tuple[int, int, list[str]]:
    """The bench event (reused when complete): its id, its stage's id, and find queries."""
    from django.db import transaction
    from django.utils import timezone

    from tournament.draw.stages import stage_create
    from tournament.matches.models import Match, MatchStatus, Round, RoundEntry, RoundStatus, Stage, Table
    from tournament.registration.models import Department, Pair, PairMember, PairStatus, Player, Tournament
    from tournament.standings.cache import public_version_bump

    rng = random.Random(2026)
    existing = Tournament.objects.filter(name=BENCH_NAME).first()
    if existing is not None:
        stage = Stage.objects.filter(tournament=existing).first()
        rounds = Round.objects.filter(stage=stage).count() if stage else 0
        if stage is not None and rounds == 3 and existing.pairs.count() == PAIRS:
            analyze(always=False)
            return existing.pk, stage.pk, queries(existing.pk, rng)
        existing.delete()
    started = time.perf_counter()
    finished_states = snapshots(60, finished=True, rng=rng)
    running_states = snapshots(30, finished=False, rng=rng)
    now = timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.create(name=BENCH_NAME, rule_profile="timed-40", venue="体育馆")
        departments = Department.objects.bulk_create(
            Department(tournament=tournament, name=f"部门{number:02d}") for number in range(1, 41)
        )
        names: set[str] = set()
        players = []
        for index in range(2 * PAIRS):
            while True:
                name = rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.choice((1, 2, 2))))
                name = name if name not in names else f"{name}{index}"
                if name not in names:
                    names.add(name)
                    break
            players.append(
                Player(
                    tournament=tournament,
                    name=name,
                    employee_number=str(300000 + index),
                    department=departments[index // 2 % len(departments)],
                )
            )
        Player.objects.bulk_create(players, batch_size=2000)
        pairs = Pair.objects.bulk_create(
            (
                Pair(
                    tournament=tournament,
                    number=k + 1,
                    name=f"{players[2 * k].name} / {players[2 * k + 1].name}",
                    status=PairStatus.CHECKED_IN,
                )
                for k in range(PAIRS)
            ),
            batch_size=2000,
        )
        PairMember.objects.bulk_create(
            (
                PairMember(pair=pairs[k], player=players[2 * k + slot - 1], slot=slot)
                for k in range(PAIRS)
                for slot in (1, 2)
            ),
            batch_size=4000,
        )
        stage = stage_create(tournament=tournament, name="公开赛（瑞士移位）", order=1, format="swiss")
        tables = Table.objects.bulk_create(
            (
                Table(tournament=tournament, number=n, area=f"{chr(65 + (n - 1) // 500)}区")
                for n in range(1, PAIRS // 2 + 1)
            ),
            batch_size=2500,
        )
        for number in (1, 2, 3):
            current = number == 3
            round_ = Round.objects.create(
                stage=stage,
                number=number,
                status=RoundStatus.RUNNING if current else RoundStatus.FINISHED,
                published_at=now,
                started_at=now,
                ends_at=now + timedelta(minutes=40) if current else None,
                time_cap_minutes=40,
            )
            order = list(pairs)
            rng.shuffle(order)
            matches = []
            for t in range(PAIRS // 2):
                kind = t % 3 if current else 0  # the current round: done, under way, not started
                state = rng.choice(finished_states) if kind == 0 else rng.choice(running_states) if kind == 1 else {}
                matches.append(
                    Match(
                        round=round_,
                        table=tables[t],
                        ns_pair=order[2 * t],
                        ew_pair=order[2 * t + 1],
                        status=(MatchStatus.FINISHED, MatchStatus.RUNNING, MatchStatus.PENDING)[kind],
                        state=state,
                        winner=state.get("winner") or "",
                        result_reason=state.get("reason") or "",
                        started_at=now if kind < 2 else None,
                    )
                )
            Match.objects.bulk_create(matches, batch_size=2500)
            RoundEntry.objects.bulk_create(
                (
                    RoundEntry(round=round_, pair_id=pair_id, match=match, side=side)
                    for match in matches
                    for pair_id, side in ((match.ns_pair_id, "NS"), (match.ew_pair_id, "EW"))
                ),
                batch_size=5000,
            )
        public_version_bump(tournament_id=tournament.pk)
    analyze(always=True)
    print(f"NOTE web_bench: seeded {PAIRS} pairs, 3 rounds in {time.perf_counter() - started:.1f} s", flush=True)
    return tournament.pk, stage.pk, queries(tournament.pk, rng)


def analyze(*, always: bool) -> None:
    """The planner's statistics of the seeded tables (PostgreSQL): rows bulk-created are counted by
    nobody until autovacuum analyses them, and where it is off (or has not come yet) every page's
    query is planned for empty tables. After a seeding always; for an event seeded before, when its
    matches were never analysed (a database seeded by a bench that did not)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        if not always:
            cursor.execute(
                "SELECT 1 FROM pg_stat_user_tables WHERE relname = 'matches_match'"
                " AND last_analyze IS NULL AND last_autoanalyze IS NULL"
            )
            if cursor.fetchone() is None:
                return
        cursor.execute("ANALYZE")


def queries(tournament_id: int, rng: random.Random) -> list[str]:
    """What players type: a whole employee number, or two or three characters of their name."""
    from tournament.registration.models import Player

    rows = list(Player.objects.filter(tournament_id=tournament_id).values_list("name", "employee_number"))
    rng.shuffle(rows)
    out = []
    for name, number in rows[:4000]:
        out.append(number if rng.random() < 0.5 else name[: rng.choice((2, 3))])
    return out


# -- serving -------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_ready(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.3)


def server_env(database_url: str, static_root: str, *, secret_key: str | None = None) -> dict[str, str]:
    """The environment the pools serve in (production settings on the loopback, the static files
    collected into ``static_root``); ``secret_key``: the one this process signs sessions with (a
    bench that signs an organiser in), else a fresh one."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "0",
        "SECRET_KEY": secret_key or secrets.token_hex(32),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0",
        "STATIC_ROOT": static_root,
        "LOG_LEVEL": "ERROR",
    }
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    return env


UWSGI_INI = "tournament/site/uwsgi.ini"
"""The pools' uWSGI settings (README, "Production"): its first section the staff pool's (or one pool
for everything), ``:public`` the public pool's."""


def pool_command(port: int, workers: int, *, public: bool = False) -> list[str]:
    """A pool as README's "Production" starts it: uWSGI with the repository's settings on
    ``127.0.0.1:port``; ``public``: the public pool's section (its polls shed while its queue is long)."""
    uwsgi = Path(sys.executable).with_name("uwsgi")
    ini = f"{UWSGI_INI}:public" if public else UWSGI_INI
    return [str(uwsgi), "--ini", ini, "--http-socket", f"127.0.0.1:{port}", "--processes", str(workers)]


def serve(database_url: str, static_root: str, port: int, *, secret_key: str | None = None) -> subprocess.Popen:
    """One uWSGI pool of ``WORKERS`` workers on ``port`` (``server_env``)."""
    env = server_env(database_url, static_root, secret_key=secret_key)
    return subprocess.Popen(pool_command(port, WORKERS), cwd=ROOT, env=env, start_new_session=True)


def pool_processes(master: int) -> list[int]:
    """A pool's master and its workers (the master's children: a public worker has a session of its
    own, tournament/overload.py, so the master's process group does not hold it)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            parent = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if int(entry) == master or parent == master:
            found.append(int(entry))
    return found


def stop(process: subprocess.Popen) -> None:
    """SIGTERM stops a pool, its workers too (uWSGI's die-on-term); if it did not within 15 s, its
    processes are killed."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            for pid in pool_processes(process.pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            process.wait(timeout=5)


# -- driving (the second process) --------------------------------------------------------------------


class _Exchange(asyncio.Protocol):
    """One request on its own connection (the pools' workers close them); the whole answer once
    the server has closed it."""

    def __init__(self, request: bytes, done: asyncio.Future[bytes]) -> None:
        self.request, self.done, self.chunks = request, done, bytearray()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        self.chunks += data

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_result(bytes(self.chunks))


def answer_parse(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """An HTTP answer's status (0: not an answer), headers (lower-case names) and body (unchunked)."""
    head, _, body = raw.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/"):
        return 0, {}, b""
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        headers[name.strip().lower().decode()] = value.strip().decode("latin-1")
    if headers.get("transfer-encoding", "").lower() == "chunked":
        plain, rest = bytearray(), body
        while rest:
            size, _, rest = rest.partition(b"\r\n")
            length = int(size.split(b";")[0] or b"0", 16)
            if length == 0:
                break
            plain += rest[:length]
            rest = rest[length + 2 :]
        body = bytes(plain)
    return status, headers, body


async def request(
    host: str, port: int, path: str, *, method: str = "GET", headers: dict[str, str] | None = None, body: bytes = b""
) -> tuple[int, dict[str, str], bytes]:
    """One request on a connection of its own: (status, headers, body)."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[bytes] = loop.create_future()
    head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n"
    for name, value in (headers or {}).items():
        head += f"{name}: {value}\r\n"
    if body:
        head += f"Content-Length: {len(body)}\r\n"
    await loop.create_connection(lambda: _Exchange(head.encode() + b"\r\n" + body, done), host, port)
    return answer_parse(await done)


async def fetch(host: str, port: int, path: str) -> int:
    """A GET's status code."""
    return (await request(host, port, path))[0]


async def drive_paths(base: str, paths: list[str], seconds: float, clients: int) -> dict:
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    latencies: list[float] = []
    errors = 0
    deadline = time.monotonic() + seconds
    rng = random.Random(7)

    async def client() -> None:
        nonlocal errors
        while time.monotonic() < deadline:
            path = rng.choice(paths)
            started = time.perf_counter()
            try:
                status = await fetch(host, port, path)
            except OSError:
                status = 0
            latencies.append(time.perf_counter() - started)
            if status != 200:
                errors += 1

    began = time.monotonic()
    await asyncio.gather(*(client() for _ in range(clients)))
    seconds = time.monotonic() - began
    return {"latencies_ms": [1000 * latency for latency in latencies], "errors": errors, "seconds": seconds}


def pooled(trials: list[dict]) -> dict:
    """The trials' requests taken together: how many, how many failed, the 95th percentile
    latency, and the requests per second held."""
    latencies = sorted(latency for trial in trials for latency in trial["latencies_ms"])
    p95 = latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("nan")
    seconds = sum(trial["seconds"] for trial in trials)
    errors = sum(trial["errors"] for trial in trials)
    return {"requests": len(latencies), "errors": errors, "p95_ms": p95, "rps": len(latencies) / seconds}


def drive(args: argparse.Namespace) -> int:
    run = asyncio.run
    try:  # the driver shares the machine with the server: the lighter its event loop, the better
        import uvloop

        run = uvloop.run
    except ImportError:
        pass
    paths = json.loads(Path(args.spec).read_text())[args.kind]
    print(json.dumps(run(drive_paths(args.base, paths, args.seconds, args.clients))))
    return 0


def drive_process(*, base: str, spec: Path, kind: str, seconds: float, clients: int) -> dict:
    """Drive ``kind``'s paths from a second process; its measurements."""
    command = [sys.executable, __file__, "--drive", "--base", base, "--spec", str(spec), "--kind", kind]
    command += ["--seconds", str(seconds), "--clients", str(clients)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def machine_speed_ms() -> float:
    """How long this machine takes for a fixed piece of Python (best of five): on a shared virtual
    machine the figures above move with it, so it is printed beside them."""
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        total = 0
        for number in range(1_000_000):
            total += number
        best = min(best, time.perf_counter() - started)
    return best * 1000


def local_service(url: str) -> bool:
    """Whether something answers at ``url``'s host and port (a local PostgreSQL or Redis)."""
    parts = urlsplit(url)
    try:
        socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 0), timeout=1).close()
    except OSError:
        return False
    return True


# -- main --------------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="driving time of one trial")
    parser.add_argument("--trials", type=int, default=3, help="trials per page kind, their requests taken together")
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--drive", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--base", help=argparse.SUPPRESS)
    parser.add_argument("--spec", help=argparse.SUPPRESS)
    parser.add_argument("--kind", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive:
        return drive(args)

    url = os.environ.get("DATABASE_URL", "")
    if not is_postgres(url) and local_service(LOCAL_POSTGRES):
        print("NOTE web_bench: DATABASE_URL is not PostgreSQL; using the local one at 127.0.0.1:5432")
        url = LOCAL_POSTGRES
    if not is_postgres(url):
        print("NOTE web_bench: skipped — needs DATABASE_URL pointing at PostgreSQL (the load test of 5,000 pairs).")
        return 0
    if not (os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL")) and local_service(LOCAL_REDIS):
        print("NOTE web_bench: no CACHE_URL; using the local Redis at 127.0.0.1:6379 (workers share one cache)")
        os.environ["CACHE_URL"] = LOCAL_REDIS
    database_url = bench_database(url)
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    tournament_id, stage_id, find_queries = seed()
    from django.db import connections

    from tournament.standings.cache import public_version_bump

    connections.close_all()

    pages = -(-PAIRS // 100)
    spec = {
        "standings": [f"/t/{tournament_id}/standings/{stage_id}/?page={page}" for page in range(1, pages + 1)],
        "find": [f"/t/{tournament_id}/find/?q={quote(query)}" for query in find_queries],
    }
    spec["warm"] = spec["standings"] + spec["find"][:500]
    port = free_port()
    results = {}
    speed_before = machine_speed_ms()
    with tempfile.TemporaryDirectory() as tmp:
        spec_file = Path(tmp) / "spec.json"
        spec_file.write_text(json.dumps(spec))
        server = serve(database_url, str(Path(tmp) / "static"), port)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_ready(f"{base}/t/{tournament_id}/")
            # A server that has been up for a while: every worker has served every kind of page.
            drive_process(base=base, spec=spec_file, kind="warm", seconds=WARM_SECONDS, clients=args.clients)
            for kind in ("standings", "find"):
                trials = []
                for _trial in range(args.trials):
                    if kind == "find":
                        # The minute a draw is published: every cached page and every worker's index
                        # of the seats are out of date, as the draw's publication leaves them.
                        public_version_bump(tournament_id=tournament_id)
                    trials.append(
                        drive_process(base=base, spec=spec_file, kind=kind, seconds=args.seconds, clients=args.clients)
                    )
                results[kind] = pooled(trials)
                each = ", ".join(f"{pooled([trial])['p95_ms']:.1f}" for trial in trials)
                print(f"NOTE web_bench: {kind} p95 of each trial {each} ms", flush=True)
        finally:
            stop(server)
    for kind, result in results.items():
        if result["errors"]:
            print(f"NOTE web_bench: {result['errors']} of {result['requests']} {kind} requests were not 200")
    cache = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL") or "local memory per worker"
    print(
        f"NOTE web_bench: {WORKERS} uWSGI workers, {args.clients} clients, cache: {urlsplit(cache).scheme or cache},"
        f" {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} after the run;"
        f" a fixed loop took {speed_before:.0f} ms before and {machine_speed_ms():.0f} ms after"
    )
    print(f"BENCH web.standings_p95_ms {results['standings']['p95_ms']:.1f} ms")
    print(f"BENCH web.find_table_p95_ms {results['find']['p95_ms']:.1f} ms")
    print(f"BENCH web.find_table_rps {results['find']['rps']:.0f} req/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
