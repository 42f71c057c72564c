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
outright), served as in production (README, "Production"): uWSGI's public pool (4 workers)
and the staff pool of result entry (3 workers) — the reverse proxy's split, here two
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
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import web_bench  # the seeding, the server's settings and the client of the web bench

ROOT = web_bench.ROOT
PUBLIC_WORKERS = 4
STAFF_WORKERS = 3
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
    reset_vacuum()
    return ids


RESET_TABLES = ("matches_deal", "matches_adjustment", "matches_match", "matches_round")


def reset_vacuum() -> None:
    """The reset's dead rows cleared and the tables analysed (PostgreSQL), as autovacuum would do
    between rounds: each reset deletes a round's deals and rewrites two thirds of its matches, and
    where autovacuum is off (this machine's PostgreSQL) the dead rows piled up trial after trial —
    after a few runs 11,000 dead deals beside 300 live ones, every statement that scans them reading
    all of them, and PostgreSQL's share of a trial at 5 deals/s grew tenfold. A real event deletes no
    round of deals; the bench's own reset must not weigh on the trials after it."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM ANALYZE {', '.join(RESET_TABLES)}")


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
    env = web_bench.server_env(database_url, static_root)
    pools = []
    for name, port, workers in (("public", public_port, public_workers), ("staff", referee_port, staff_workers)):
        # The public pool's polls are shed while its queue is long (tournament/overload.py).
        command = web_bench.pool_command(port, workers, public=name == "public")
        if name == "public" and public_nice:
            command = ["nice", "-n", str(public_nice), *command]
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


def json_or_empty(raw: bytes) -> dict:
    """An API answer's JSON body ({} when there is none or it is not JSON)."""
    try:
        return json.loads(raw or b"{}")
    except ValueError:
        return {}


def deal_answer(status: int, answer: dict) -> tuple[str, dict]:
    """What the referee API answered a deal: its code (``201``, else the status and the error's code)
    and the match as it now stands ({} when the answer has none)."""
    match = answer.get("match") or (answer.get("error") or {}).get("match") or {}
    code = "201" if status == 201 else f"{status} {(answer.get('error') or {}).get('code', '')}".strip()
    return code, match


def still_open(status: int, match: dict) -> bool:
    """The match takes more deals (its answer says it is under way, or a failed request said nothing)."""
    return match.get("status") in ("pending", "running") or (not match and status != 201)


async def open_loop(
    *, rate: float, seconds: float, idle: deque, send: Callable[[tuple, float, int], Awaitable[None]]
) -> tuple[float, int]:
    """A deal due every ``1/rate`` seconds, to the least recently dealt idle match (``idle``'s first),
    whether or not the earlier ones were answered (``send(match, due, number)``, which puts the match
    back or a fresh one in); (the seconds taken, the deals not sent: no match was idle)."""
    tasks = []
    skipped = 0
    started = time.perf_counter()
    for number in range(int(seconds * rate)):
        due = started + number / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        if not idle:
            skipped += 1
            continue
        tasks.append(asyncio.create_task(send(idle.popleft(), due, number)))
    await asyncio.gather(*tasks)
    return time.perf_counter() - started, skipped


async def drive_writer(base: str, spec: dict, seconds: float, rate: float) -> dict:
    """Open loop: a deal due every ``1/rate`` seconds, to the least recently dealt idle match."""
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    rng = random.Random(5)
    auth = {"Authorization": f"Token {spec['token']}", "Content-Type": "application/json"}
    idle = deque((match_id, version) for match_id, version in spec["active"])
    fresh = list(spec["pool"])
    latencies: list[float] = []
    outcomes: dict[str, int] = {}
    finished = 0

    async def send(match: tuple, due: float, _number: int) -> None:
        nonlocal finished
        match_id, version = match
        body = json.dumps({"order": rng.choice(ORDERS), "expected_version": version}).encode()
        try:
            status, _headers, raw = await web_bench.request(
                host, port, f"/api/matches/{match_id}/deals/", method="POST", headers=auth, body=body
            )
        except OSError:
            status, raw = 0, b""
        latencies.append(1000 * (time.perf_counter() - due))
        code, now = deal_answer(status, json_or_empty(raw))
        outcomes[code] = outcomes.get(code, 0) + 1
        version = int(now.get("version", version))
        if still_open(status, now):
            idle.append((match_id, version))
        else:  # finished (or refused for good): a fresh table joins the set
            finished += 1
            if fresh:
                fresh_id, fresh_version = fresh.pop()
                idle.append((fresh_id, fresh_version))

    elapsed, skipped = await open_loop(rate=rate, seconds=seconds, idle=idle, send=send)
    return {
        "latencies_ms": latencies,
        "outcomes": outcomes,
        "skipped": skipped,
        "finished": finished,
        "seconds": elapsed,
    }


def run(coroutine):  # type: ignore[no-untyped-def]
    try:  # the driver shares the machine with the server: the lighter its event loop, the better
        import uvloop

        return uvloop.run(coroutine)
    except ImportError:
        return asyncio.run(coroutine)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))] if ordered else float("nan")


# -- a trial (in this process) ----------------------------------------------------------------------


def pages_warm(*, public: str, spec_dir: Path, paths: dict[str, list[str]], seconds: float, clients: int) -> None:
    """The public pages asked for, untimed, so that every worker has built them (and the seat index)."""
    warm = spec_dir / "warm.json"
    warm.write_text(json.dumps({"warm": [path for kind in paths.values() for path in kind[:500]]}))
    web_bench.drive_process(base=public, spec=warm, kind="warm", seconds=seconds, clients=clients)


def trial(*, rate: int, public: str, referee: str, spec_dir: Path, args: argparse.Namespace, context: dict) -> dict:
    """One trial: the round reset, a working set played, the pages warmed again; then ``args.clients``
    public clients asking for ``context["paths"]`` (each kind as often) beside the writer at ``rate``
    deals a second, for ``args.seconds``. Each kind's p95 and count, the deals' p95 and what they were answered."""
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
    spec.write_text(json.dumps({"paths": context["paths"], "token": context["token"], "active": active, "pool": pool}))
    # The reset moved every version (as a draw would): the pages and the seat index are rebuilt
    # first, untimed — the trial measures a round in play, not its publication (web_bench does).
    pages_warm(public=public, spec_dir=spec_dir, paths=context["paths"], seconds=WARM_SECONDS, clients=args.clients)
    me = [sys.executable, __file__, "--spec", str(spec), "--seconds", str(args.seconds)]
    public_driver = subprocess.Popen(
        [*me, "--drive-public", public, "--clients", str(args.clients)], stdout=subprocess.PIPE, text=True
    )
    writer = subprocess.Popen([*me, "--write", referee, "--rate", str(rate)], stdout=subprocess.PIPE, text=True)
    reads = json.loads(public_driver.communicate()[0].strip().splitlines()[-1])
    writes = json.loads(writer.communicate()[0].strip().splitlines()[-1])
    if public_driver.returncode or writer.returncode:
        raise SystemExit("live_bench: a driver failed")
    latencies = reads["latencies_ms"]
    requests = sum(len(values) for values in latencies.values())
    return {
        "p95_ms": {kind: percentile(values, 0.95) for kind, values in latencies.items()},
        "counts": {kind: len(values) for kind, values in latencies.items()},
        "deal_p95_ms": percentile(writes["latencies_ms"], 0.95),
        "public_rps": requests / reads["seconds"],
        "public_errors": reads["errors"],
        "requests": requests,
        "seconds": reads["seconds"],
        "deals": len(writes["latencies_ms"]),
        "deal_rate": len(writes["latencies_ms"]) / writes["seconds"],
        "outcomes": writes["outcomes"],
        "skipped": writes["skipped"],
        "finished": writes["finished"],
    }


# -- what the live, crowd and team benches share --------------------------------------------------------


def database_url_get(bench: str, what: str) -> str:
    """The bench's database: ``BENCH_DATABASE_URL`` (created if it is not there), else the web bench's
    beside DATABASE_URL's (or the local PostgreSQL's); and the shared cache (``CACHE_URL``, else the
    local Redis). Empty, with a note, without PostgreSQL or a shared cache: the bench is skipped."""
    database_url = os.environ.get("BENCH_DATABASE_URL", "")
    if database_url:
        database_ensure(database_url)
    else:
        url = os.environ.get("DATABASE_URL", "")
        if not web_bench.is_postgres(url) and web_bench.local_service(web_bench.LOCAL_POSTGRES):
            url = web_bench.LOCAL_POSTGRES
        if not web_bench.is_postgres(url):
            print(f"NOTE {bench}: skipped — needs DATABASE_URL pointing at PostgreSQL ({what}).")
            return ""
        database_url = web_bench.bench_database(url)
    if not (os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL")):
        if not web_bench.local_service(web_bench.LOCAL_REDIS):
            print(f"NOTE {bench}: skipped — needs a shared cache (CACHE_URL: Redis), as production runs.")
            return ""
        os.environ["CACHE_URL"] = web_bench.LOCAL_REDIS
    return database_url


def event_ready(database_url: str) -> tuple[int, int, list[str]]:
    """Django on the bench's database, migrated, with the web bench's event (seeded once, then
    reused): its tournament's and stage's ids and the find queries."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    return web_bench.seed()


def public_paths(tournament_id: int, stage_id: int, find_queries: list[str]) -> dict[str, list[str]]:
    """Every standings page of the event's stage (100 lines each) and a find for each query."""
    pages = -(-web_bench.PAIRS // 100)
    return {
        "standings": [f"/t/{tournament_id}/standings/{stage_id}/?page={page}" for page in range(1, pages + 1)],
        "find": [f"/t/{tournament_id}/find/?q={quote(query)}" for query in find_queries],
    }


@contextlib.contextmanager
def pools_running(
    *, database_url: str, context: dict, args: argparse.Namespace
) -> Iterator[tuple[str, str, list[subprocess.Popen], Path]]:
    """Both pools serving (``args``: the workers of each, and the public pool's ``nice``), ready, the
    staff workers' first requests made; stopped on the way out: (the public pool's address, the staff
    pool's, the pools, a temporary folder for the drivers' files)."""
    from django.db import connections

    connections.close_all()  # the pools and this process do not share a connection
    public_port, staff_port = web_bench.free_port(), web_bench.free_port()
    with tempfile.TemporaryDirectory() as tmp:
        pools = serve_pools(
            database_url,
            str(Path(tmp) / "static"),
            public_port,
            staff_port,
            public_workers=args.public_workers,
            staff_workers=args.staff_workers,
            public_nice=getattr(args, "public_nice", PUBLIC_NICE),
        )
        try:
            public, staff = f"http://127.0.0.1:{public_port}", f"http://127.0.0.1:{staff_port}"
            web_bench.wait_ready(f"{public}/t/{context['tournament_id']}/")
            web_bench.wait_ready(f"{staff}/t/{context['tournament_id']}/")
            match_ids = round_reset(stage_id=context["stage_id"])[:16]
            staff_warm(base=staff, token=context["token"], match_ids=match_ids)
            yield public, staff, pools, Path(tmp)
        finally:
            for pool in pools:
                web_bench.stop(pool)


# -- main --------------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS, help="driving time of one trial")
    parser.add_argument("--rates", default=",".join(map(str, RATES)), help="deals a second of each trial")
    parser.add_argument("--clients", type=int, default=web_bench.CLIENTS)
    parser.add_argument("--public-workers", type=int, default=PUBLIC_WORKERS)
    parser.add_argument("--staff-workers", type=int, default=STAFF_WORKERS)
    parser.add_argument(
        "--public-nice",
        type=int,
        default=PUBLIC_NICE,
        help="the public pool's nice (0: the pools share the cores evenly with the bench's own clients)",
    )
    parser.add_argument("--spec", help=argparse.SUPPRESS)
    parser.add_argument("--drive-public", help=argparse.SUPPRESS)
    parser.add_argument("--write", help=argparse.SUPPRESS)
    parser.add_argument("--rate", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive_public or args.write:
        spec = json.loads(Path(args.spec).read_text())
        if args.drive_public:
            print(json.dumps(run(drive_public(args.drive_public, spec["paths"], args.seconds, args.clients))))
        else:
            print(json.dumps(run(drive_writer(args.write, spec, args.seconds, args.rate))))
        return 0

    database_url = database_url_get("live_bench", "the load test of 5,000 pairs")
    if not database_url:
        return 0
    tournament_id, stage_id, find_queries = event_ready(database_url)
    paths = public_paths(tournament_id, stage_id, find_queries)
    context = {"tournament_id": tournament_id, "stage_id": stage_id, "paths": paths, "token": referee_token()}
    results = {}
    speed_before = web_bench.machine_speed_ms()
    load_before = os.getloadavg()[0]
    with pools_running(database_url=database_url, context=context, args=args) as (public, referee, _pools, tmp):
        pages_warm(public=public, spec_dir=tmp, paths=paths, seconds=web_bench.WARM_SECONDS, clients=50)
        for rate in (int(rate) for rate in args.rates.split(",")):
            results[rate] = trial(rate=rate, public=public, referee=referee, spec_dir=tmp, args=args, context=context)
            result = results[rate]
            print(
                f"NOTE live_bench: {rate}/s: {result['deals']} deals ({result['deal_rate']:.1f}/s, answers"
                f" {result['outcomes']}, {result['skipped']} not sent: no idle table), {result['finished']}"
                f" matches finished; {result['requests']} public requests, {result['public_errors']} not 200",
                flush=True,
            )
    cache = os.environ.get("CACHE_URL") or ""
    print(
        f"NOTE live_bench: uWSGI {args.public_workers} public + {args.staff_workers} staff workers,"
        f" {args.clients} clients, {args.seconds:.0f} s a trial, cache {urlsplit(cache).scheme},"
        f" kept responses {os.environ.get('PUBLIC_RESPONSE_CACHE_MB', '64')} MB a worker,"
        f" {os.cpu_count()} CPUs, load average {load_before:.1f} before and {os.getloadavg()[0]:.1f} after;"
        f" a fixed loop took {speed_before:.0f} ms before and {web_bench.machine_speed_ms():.0f} ms after"
    )
    for rate, result in results.items():
        prefix = "web.live" if rate == RATES[0] else f"web.live{rate}"
        print(f"BENCH {prefix}_standings_p95_ms {result['p95_ms']['standings']:.1f} ms")
        print(f"BENCH {prefix}_find_p95_ms {result['p95_ms']['find']:.1f} ms")
        print(f"BENCH {prefix}_deal_p95_ms {result['deal_p95_ms']:.1f} ms")
        print(f"BENCH {prefix}_public_rps {result['public_rps']:.0f} req/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
