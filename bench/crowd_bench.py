"""Load benchmark of a crowd: ``python bench/crowd_bench.py``.

The live bench (``bench/live_bench.py``) asks the same few hundred questions again and again; a
real crowd does not. Here every visitor behaves like a player with a phone during a round of the
5,000-pair event of ``bench/web_bench.py``, served as README's "Production" deploys it (a public
pool of 4 uWSGI workers and a staff pool of 3, PostgreSQL, Redis, ``DEBUG=0``, kept public
responses on):

- a new phone first fetches the site's static files (the stylesheet, htmx, the scripts, the icon);
- *find my table* with their own name: any of the 10,000 players (a name asked at most a few
  times), 5 % with a typo, 5 % a name that is not in the field;
- their pair's own page, which then stays open and polls (its matches every 5 s, and its ranks);
- the standings (a random page of 100 lines);
- the draw, which stays open and polls;

while a writer enters deals through the referee API (token auth, an idempotency key each, 3 % sent
twice as a phone retrying would) at 0, 5, 20 and 50 deals a second, open loop (a deal is due every
``1/rate`` seconds whether or not the earlier ones were answered). Polls of open pages are drawn
from the pages the crowd opened, each with the ``v=`` its last answer gave.

Prints ``BENCH web.crowd_*_<rate>``: the public requests per second held (``public_rps``), the 95th
percentile latency of a find, a pair's page and a standings page, a deal's p50 and p95 (from the
moment it was due), the staff pool's wait for a CPU per deal (``deal_cpu_wait_ms``), and the
freshness: from a deal's POST that finishes a match to the moment its pair's line in the public
standings build counts it (the ranks part of the pair's page, read from the same build as the
standings pages), p95 in seconds. After each rate the deals answered 2xx are checked by SQL: each
key stored exactly once (``lost``, ``doubled`` are printed and must be 0). Before the trials, the
CPU time of the public pool per request of each kind is measured alone
(``web.crowd_cpu_ms_<kind>``), and during each trial the CPU time of both pools per request and the
time their processes waited for a CPU (a deal's own cost, or the wait for a core behind others), and
the CPU time of the crowd's own client per request (it runs on the same cores); and where both cores
went in the trial: the pools, the bench's clients, Redis, PostgreSQL and the rest.

The machine is printed beside the figures (load average, a fixed loop's time): on a shared 2-core
machine the bench, PostgreSQL, Redis and both pools compete for the same cores. A trial lasts
``--seconds`` (default 25).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import time
from collections import deque
from pathlib import Path
from urllib.parse import quote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import live_bench  # the database, the pools, the round's reset and working set, the writer's loop
import web_bench  # the seeding and the machine's speed

ROOT = web_bench.ROOT
percentile = live_bench.percentile
RATES = (0, 5, 20, 50)
SECONDS = 25.0
CLIENTS = 50
WARM_SECONDS = 6.0
MIX = {"poll": 40, "find": 25, "pair": 12, "standings": 10, "draw": 6, "phone": 7}
"""What the crowd does, in weights: mostly open pages polling, then finds, pair pages, standings."""
OPEN_PAGES = 3000
"""Phones with a page open (polling), at most: the oldest closes when a new one opens."""
SET_SECONDS = 4.0
"""Each table of the writer's working set gets a deal about this often (a finished one is replaced)."""
RETRY_SHARE = 0.03
FRESH_TIMEOUT = 30.0
PLAYED_BEFORE = 2
"""Results each pair of the bench event has before the current round (two rounds finished)."""
ABSENT = "甲乙丙丁戊己庚辛壬癸"
"""Characters no name of the bench event has: an absent player's name."""
POLL = re.compile(rb'hx-get="([^"]+)"')
RANKS_LINE = re.compile(rb"\xc2\xb7 (\d+)-(\d+)-(\d+)</p>")


HX = {"HX-Request": "true"}


# -- the crowd (a process of its own) ---------------------------------------------------------------------


def find_query(rng: random.Random, names: list[str]) -> str:
    """A player's own name: anyone in the field, 5 % mistyped, 5 % not in the field at all."""
    roll = rng.random()
    if roll < 0.05:
        return "".join(rng.choice(ABSENT) for _ in range(3))
    name = rng.choice(names)
    if roll < 0.10:
        at = rng.randrange(len(name))
        name = name[:at] + rng.choice(web_bench.GIVEN) + name[at + 1 :]
    return name


async def crowd(base: str, spec: dict, seconds: float, clients: int, mix: dict[str, int]) -> dict:
    """Closed-loop clients, each doing what a player does next (``mix``); latencies by kind."""
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    rng = random.Random(spec.get("seed", 1))
    tid = spec["tournament_id"]
    kinds, weights = list(mix), list(mix.values())
    latencies: dict[str, list[float]] = {}
    statuses: dict[str, dict[int, int]] = {}
    open_pages: deque[list[str]] = deque(spec.get("open", []), maxlen=OPEN_PAGES)
    deadline = time.monotonic() + seconds

    async def get(kind: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        started = time.perf_counter()
        answer: dict[str, str] = {}
        try:
            status, answer, body = await web_bench.request(host, port, path, headers=headers)
        except OSError:
            status, body = 0, b""
        latencies.setdefault(kind, []).append(1000 * (time.perf_counter() - started))
        counts = statuses.setdefault(kind, {})
        counts[status] = counts.get(status, 0) + 1
        return status, answer, body

    def opened(kind: str, body: bytes) -> None:
        for url in POLL.findall(body):
            path = url.decode().replace("&amp;", "&")
            open_pages.append(["ranks" if "/ranks/" in path else kind, path])

    async def visit() -> None:
        kind = rng.choices(kinds, weights)[0]
        if kind == "poll":
            if not open_pages:
                return
            page = open_pages[rng.randrange(len(open_pages))]
            if len(page) > 2 and time.monotonic() < float(page[2]):
                return  # told to come back later (503 + Retry-After): this phone waits, as public.js does
            status, headers, body = await get(f"{page[0]}_poll", page[1], HX)
            if status == 200:  # a new version: the next poll asks from it
                found = POLL.search(body)
                if found:
                    page[1] = found.group(1).decode().replace("&amp;", "&")
            elif status == 503:
                page[2:] = [time.monotonic() + float(headers.get("retry-after") or 10)]
        elif kind == "find":
            await get("find", f"/t/{tid}/find/?q={quote(find_query(rng, spec['names']))}")
        elif kind == "pair":
            status, _headers, body = await get("pair", f"/t/{tid}/pairs/{rng.choice(spec['pairs'])}/")
            if status == 200:
                opened("pair", body)
        elif kind == "standings":
            await get("standings", rng.choice(spec["standings"]))
        elif kind == "draw":
            status, _headers, body = await get("draw", f"/t/{tid}/draw/?page={rng.randrange(1, 26)}")
            if status == 200:
                opened("draw", body)
        elif kind == "phone":
            for path in spec["static"]:
                await get("static", path)

    async def client() -> None:
        while time.monotonic() < deadline:
            await visit()
            await asyncio.sleep(0)  # a visit that sent nothing (a page told to wait) lets the others run

    began, cpu_began = time.monotonic(), time.process_time()
    await asyncio.gather(*(client() for _ in range(clients)))
    return {
        "latencies_ms": latencies,
        "statuses": statuses,
        "seconds": time.monotonic() - began,
        # The crowd shares the cores with the pools: what its own client costs is printed beside them.
        "cpu_seconds": time.process_time() - cpu_began,
        "open": list(open_pages),
    }


# -- the writer (another process) -------------------------------------------------------------------------


async def writer(staff: str, public: str, spec: dict, seconds: float, rate: float) -> dict:
    """Open loop: a deal due every ``1/rate`` seconds, to the least recently dealt idle match of the
    working set, with an idempotency key (a few sent twice); a deal that finishes its match is
    watched on the public side until the standings count it."""
    s_parts, p_parts = urlsplit(staff), urlsplit(public)
    s_host, s_port = s_parts.hostname or "127.0.0.1", s_parts.port or 80
    p_host, p_port = p_parts.hostname or "127.0.0.1", p_parts.port or 80
    rng = random.Random(int(rate) + 17)
    tid = spec["tournament_id"]
    idle = deque(tuple(item) for item in spec["active"])
    fresh = [tuple(item) for item in spec["pool"]]
    latencies: list[float] = []
    outcomes: dict[str, int] = {}
    answered: list[str] = []
    freshness: list[float] = []
    unseen = 0
    retries = {"sent": 0, "replayed": 0}
    watchers: list[asyncio.Task[None]] = []
    auth = {"Authorization": f"Token {spec['token']}", "Content-Type": "application/json"}

    async def watch(pair_id: int, posted: float) -> None:
        """Until the pair's line in the public standings build counts the match just finished."""
        nonlocal unseen
        path = f"/t/{tid}/pairs/{pair_id}/ranks/"
        while time.perf_counter() - posted < FRESH_TIMEOUT:
            try:
                _status, _headers, body = await web_bench.request(p_host, p_port, path, headers=HX)
            except OSError:
                body = b""
            line = RANKS_LINE.search(body)
            if line and sum(int(value) for value in line.groups()) > PLAYED_BEFORE:
                freshness.append(time.perf_counter() - posted)
                return
            await asyncio.sleep(0.5)
        unseen += 1

    async def send(match: tuple, due: float, number: int) -> None:
        match_id, version, pair_id = match
        key = f"crowd-{spec['run']}-{int(rate)}-{number}"
        body = json.dumps({"order": rng.choice(live_bench.ORDERS), "expected_version": version, "idempotency_key": key})

        async def post() -> tuple[int, dict]:
            try:
                status, _headers, raw = await web_bench.request(
                    s_host, s_port, f"/api/matches/{match_id}/deals/", method="POST", headers=auth, body=body.encode()
                )
            except OSError:
                return 0, {}
            return status, live_bench.json_or_empty(raw)

        posted = time.perf_counter()
        status, answer = await post()
        latencies.append(1000 * (time.perf_counter() - due))
        code, now = live_bench.deal_answer(status, answer)
        outcomes[code] = outcomes.get(code, 0) + 1
        if 200 <= status < 300:
            answered.append(key)
            if rng.random() < RETRY_SHARE:  # the phone did not see the answer and sends it again
                retries["sent"] += 1
                again, replay = await post()
                if again == 201 and replay.get("replayed"):
                    retries["replayed"] += 1
        version = int(now.get("version", version))
        if live_bench.still_open(status, now):
            idle.append((match_id, version, pair_id))
            return
        if 200 <= status < 300:
            watchers.append(asyncio.create_task(watch(pair_id, posted)))
        if fresh:
            idle.append(fresh.pop())

    cpu_began = time.process_time()
    elapsed, skipped = await live_bench.open_loop(rate=rate, seconds=seconds, idle=idle, send=send)
    await asyncio.gather(*watchers)
    return {
        "cpu_seconds": time.process_time() - cpu_began,
        "latencies_ms": latencies,
        "outcomes": outcomes,
        "answered": answered,
        "freshness_s": freshness,
        "unseen": unseen,
        "retries": retries,
        "skipped": skipped,
        "seconds": elapsed,
    }


# -- measuring ---------------------------------------------------------------------------------------------


def pool_cpu_seconds(master: int) -> float:
    """The CPU time (user + system) of a uWSGI pool: its master and its workers (the master's
    children, whatever session a worker took)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in web_bench.pool_processes(master):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def pool_cpu_wait_seconds(master: int) -> float:
    """The time a uWSGI pool's processes (its master and its workers) were ready to run but waited
    for a CPU (the run queue: ``/proc/<pid>/schedstat``'s second field; 0 where the kernel keeps none).
    Per deal beside its CPU time, it says whether a deal's latency is its own cost or the wait for a
    core behind other processes."""
    total = 0
    for pid in web_bench.pool_processes(master):
        try:
            total += int(Path(f"/proc/{pid}/schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9


def machine_cpu_seconds() -> float:
    """The CPU time all cores spent busy since boot (``/proc/stat``: every field but idle and iowait)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:8]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


SERVICES = {"redis-server": "Redis", "postgres": "PostgreSQL"}
"""The services' processes (by name) whose CPU a trial's breakdown names beside the pools."""


def services_cpu_seconds() -> dict[int, tuple[str, float]]:
    """The CPU time (user + system) of each of Redis's and PostgreSQL's processes, by process id with
    its service (per process: a PostgreSQL backend that ends takes its time with it, so a trial's
    time is the sum of each process's own difference, :func:`services_cpu_used`)."""
    ticks = os.sysconf("SC_CLK_TCK")
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            name, rest = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)
        except OSError:
            continue
        service = SERVICES.get(name.split("(", 1)[1])
        if service is not None:
            fields = rest.split()
            found[int(entry)] = (service, (int(fields[11]) + int(fields[12])) / ticks)
    return found


def services_cpu_used(before: dict[int, tuple[str, float]]) -> dict[str, float]:
    """By service, the CPU time its processes used since ``before`` (a process that began since, all
    of its time; one that ended since, none: what it used in the trial is not known, a lower bound)."""
    used = dict.fromkeys(SERVICES.values(), 0.0)
    for pid, (service, seconds) in services_cpu_seconds().items():
        began = before.get(pid)
        used[service] += seconds - (began[1] if began is not None and began[0] == service else 0.0)
    return used


def stored_once(*, keys: list[str], prefix: str) -> tuple[int, int, int]:
    """By SQL: of the deals answered 2xx (``keys``), how many are not stored (lost), how many are
    stored more than once (doubled); and how many deals with this run's keys are stored."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT idempotency_key, count(*) FROM matches_deal WHERE idempotency_key LIKE %s GROUP BY 1",
            [prefix + "%"],
        )
        stored = dict(cursor.fetchall())
    lost = sum(1 for key in keys if key not in stored)
    doubled = sum(1 for count in stored.values() if count > 1)
    return lost, doubled, sum(stored.values())


def static_paths(public: str, tournament_id: int) -> list[str]:
    import urllib.request

    with urllib.request.urlopen(f"{public}/t/{tournament_id}/", timeout=30) as response:
        page = response.read().decode()
    return sorted(set(re.findall(r'(?:href|src)="(/static/[^"]+)"', page)))


def drive(kind: str, me: list[str], spec_path: Path) -> tuple[subprocess.Popen, Path]:
    """A driver process (``kind``: the crowd or the writer) and the file its outcome will be in.

    The outcome (every latency, up to a few MB) goes to a file, not through a pipe: the event loop
    may leave its stdout non-blocking, and a long line written there was cut."""
    out = spec_path.with_name(f"{spec_path.stem}-{kind}.json")
    out.unlink(missing_ok=True)
    return subprocess.Popen([*me, f"--{kind}", "--spec", str(spec_path), "--out", str(out)]), out


def result_of(driver: tuple[subprocess.Popen, Path]) -> dict:
    process, out = driver
    if process.wait() or not out.exists():
        raise SystemExit("crowd_bench: a driver failed")
    return json.loads(out.read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS, help="driving time of one rate")
    parser.add_argument("--rates", default=",".join(map(str, RATES)), help="deals a second of each trial")
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--public-workers", type=int, default=live_bench.PUBLIC_WORKERS)
    parser.add_argument("--staff-workers", type=int, default=live_bench.STAFF_WORKERS)
    parser.add_argument("--public-nice", type=int, default=live_bench.PUBLIC_NICE, help="0: the same priority")
    parser.add_argument("--no-calibrate", action="store_true", help="skip the CPU per request of each kind alone")
    parser.add_argument("--spec", help=argparse.SUPPRESS)
    parser.add_argument("--crowd", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--write", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.crowd or args.write:
        spec = json.loads(Path(args.spec).read_text())
        if args.crowd:
            outcome = live_bench.run(crowd(spec["public"], spec, spec["seconds"], spec["clients"], spec["mix"]))
        else:
            outcome = live_bench.run(writer(spec["staff"], spec["public"], spec, spec["seconds"], spec["rate"]))
        Path(args.out).write_text(json.dumps(outcome))
        return 0

    database_url = live_bench.database_url_get("crowd_bench", "a crowd of 5,000 pairs")
    if not database_url:
        return 0
    tournament_id, stage_id, _queries = live_bench.event_ready(database_url)
    from django.db import connections

    from tournament.matches.models import Match
    from tournament.registration.models import Pair, Player

    token = live_bench.referee_token()
    names = list(Player.objects.filter(tournament_id=tournament_id).values_list("name", flat=True))
    pairs = list(Pair.objects.filter(tournament_id=tournament_id).values_list("id", flat=True))
    standings = live_bench.public_paths(tournament_id, stage_id, [])["standings"]
    run_id = f"{int(time.time())}"
    me = [sys.executable, __file__]
    base_spec = {"tournament_id": tournament_id, "names": names, "pairs": pairs, "standings": standings}
    base_spec |= {"token": token, "clients": args.clients, "run": run_id}
    results: dict[int, dict] = {}
    calibration: dict[str, float] = {}
    speed_before = web_bench.machine_speed_ms()
    load_before = os.getloadavg()
    context = {"tournament_id": tournament_id, "stage_id": stage_id, "token": token}
    with live_bench.pools_running(database_url=database_url, context=context, args=args) as (public, staff, pools, tmp):
        spec_path = tmp / "spec.json"
        base_spec |= {"public": public, "staff": staff}
        base_spec["static"] = static_paths(public, tournament_id)
        open_pages: list[list[str]] = []

        def crowd_run(seconds: float, mix: dict[str, int], clients: int, seed: int) -> dict:
            nonlocal open_pages
            spec = {**base_spec, "seconds": seconds, "mix": mix, "clients": clients, "seed": seed}
            spec_path.write_text(json.dumps({**spec, "open": open_pages}))
            outcome = result_of(drive("crowd", me, spec_path))
            open_pages = outcome["open"]
            return outcome

        crowd_run(WARM_SECONDS, MIX, args.clients, 1)  # every worker has served every kind once
        if not args.no_calibrate:
            for kind in ("find", "pair", "poll", "standings", "draw", "phone"):
                cpu = pool_cpu_seconds(pools[0].pid)
                outcome = crowd_run(4.0, {kind: 1}, 8, 2)
                count = sum(len(values) for values in outcome["latencies_ms"].values())
                calibration[kind] = 1000 * (pool_cpu_seconds(pools[0].pid) - cpu) / max(count, 1)
            print(
                "NOTE crowd_bench: public pool CPU per request, each kind alone: "
                + ", ".join(f"{kind} {ms:.2f} ms" for kind, ms in calibration.items()),
                flush=True,
            )
        for rate in (int(rate) for rate in args.rates.split(",")):
            rng = random.Random(rate)
            ids = live_bench.round_reset(stage_id=stage_id)
            size = max(int(rate * SET_SECONDS), 1)
            active, pool = live_bench.working_set_play(ids=ids, size=size, rng=rng)
            pair_of = dict(Match.objects.filter(pk__in=ids).values_list("id", "ns_pair_id"))
            connections.close_all()
            # The reset moved every version, as a draw does: the phones open their pages again
            # (a page kept open from before would poll once for nothing but the reset).
            open_pages = []
            crowd_run(WARM_SECONDS, MIX, args.clients, 3)
            load = os.getloadavg()[0]
            spec = {**base_spec, "seconds": args.seconds, "mix": MIX, "seed": 10 + rate, "rate": rate}
            spec["active"] = [[m, v, pair_of[m]] for m, v in active]
            spec["pool"] = [[m, v, pair_of[m]] for m, v in pool]
            spec_path.write_text(json.dumps({**spec, "open": open_pages}))
            cpu = [pool_cpu_seconds(process.pid) for process in pools]
            waited = [pool_cpu_wait_seconds(process.pid) for process in pools]
            machine, services = machine_cpu_seconds(), services_cpu_seconds()
            reads = drive("crowd", me, spec_path)
            writes = drive("write", me, spec_path) if rate else None
            read = result_of(reads)
            written = result_of(writes) if writes else None
            used = [pool_cpu_seconds(process.pid) - before for process, before in zip(pools, cpu, strict=True)]
            waits = [pool_cpu_wait_seconds(process.pid) - before for process, before in zip(pools, waited, strict=True)]
            machine = machine_cpu_seconds() - machine
            services = services_cpu_used(services)
            open_pages = read["open"]
            lost, doubled, stored = (
                stored_once(keys=written["answered"], prefix=f"crowd-{run_id}-{rate}-") if written else (0, 0, 0)
            )
            connections.close_all()
            results[rate] = {"read": read, "written": written, "cpu": used, "waits": waits, "load": load}
            results[rate] |= {"machine": machine, "services": services}
            results[rate] |= {"lost": lost, "doubled": doubled, "stored": stored}
            report(rate, results[rate])
    print(
        f"NOTE crowd_bench: uWSGI {args.public_workers} public (nice {args.public_nice})"
        f" + {args.staff_workers} staff workers,"
        f" {args.clients} clients, {args.seconds:.0f} s a rate, {os.cpu_count()} CPUs, load average"
        f" {load_before[0]:.1f} / {load_before[1]:.1f} / {load_before[2]:.1f} before"
        f" and {os.getloadavg()[0]:.1f} after;"
        f" a fixed loop took {speed_before:.0f} ms before and {web_bench.machine_speed_ms():.0f} ms after"
    )
    for kind, ms in calibration.items():
        print(f"BENCH web.crowd_cpu_ms_{kind} {ms:.2f} ms")
    for rate, result in results.items():
        read, written = result["read"], result["written"]
        latencies = read["latencies_ms"]
        public_requests = sum(len(values) for values in latencies.values())
        print(f"BENCH web.crowd_public_rps_{rate} {public_requests / read['seconds']:.0f} req/s")
        for kind in ("find", "pair", "standings"):
            print(f"BENCH web.crowd_{kind}_p95_ms_{rate} {percentile(latencies.get(kind, []), 0.95):.1f} ms")
        if written is not None:
            print(f"BENCH web.crowd_deal_p50_ms_{rate} {percentile(written['latencies_ms'], 0.5):.1f} ms")
            print(f"BENCH web.crowd_deal_p95_ms_{rate} {percentile(written['latencies_ms'], 0.95):.1f} ms")
            deals = max(len(written["latencies_ms"]), 1)
            print(f"BENCH web.crowd_deal_cpu_wait_ms_{rate} {1000 * result['waits'][1] / deals:.1f} ms")
            print(f"BENCH web.crowd_fresh_p95_s_{rate} {percentile(written['freshness_s'], 0.95):.1f} s")
    return 0


def report(rate: int, result: dict) -> None:
    read, written, used = result["read"], result["written"], result["cpu"]
    latencies = read["latencies_ms"]
    public_requests = sum(len(values) for values in latencies.values())
    kinds = ", ".join(
        f"{kind} {len(values)} (p50 {percentile(values, 0.5):.0f}, p95 {percentile(values, 0.95):.0f} ms;"
        f" {' '.join(f'{code}×{count}' for code, count in sorted(read['statuses'][kind].items()))})"
        for kind, values in sorted(latencies.items())
    )
    print(f"NOTE crowd_bench: {rate}/s (load average {result['load']:.1f} at its start): {kinds}", flush=True)
    line = (
        f"NOTE crowd_bench: {rate}/s: public pool {used[0]:.1f} CPU s"
        f" ({1000 * used[0] / max(public_requests, 1):.2f} ms a public request; the crowd's own client"
        f" {1000 * read['cpu_seconds'] / max(public_requests, 1):.2f} ms), staff pool {used[1]:.1f} CPU s"
    )
    if written is not None:
        deals = len(written["latencies_ms"])
        line += (
            f" ({1000 * used[1] / max(deals, 1):.1f} ms a deal, and {1000 * result['waits'][1] / max(deals, 1):.1f} ms"
            f" a deal waiting for a CPU; the public pool waited {result['waits'][0]:.1f} s);"
            f" {deals} deals sent"
            f" ({deals / written['seconds']:.1f}/s, answers {written['outcomes']}, {written['skipped']} not sent:"
            f" no idle table), {len(written['answered'])} answered 2xx, {written['retries']['sent']} sent twice"
            f" ({written['retries']['replayed']} answered as replays); by SQL: {result['stored']} stored,"
            f" lost {result['lost']}, doubled {result['doubled']}; {len(written['freshness_s'])} finished matches"
            f" seen on the standings (p50 {percentile(written['freshness_s'], 0.5):.1f} s), {written['unseen']} not"
            f" within {FRESH_TIMEOUT:.0f} s"
        )
    print(line, flush=True)
    # Where both cores went: the pools, the crowd's and the writer's clients, the services, and the
    # rest (the kernel's interrupts, uWSGI's masters' siblings, anything else on the machine).
    clients = read["cpu_seconds"] + (written["cpu_seconds"] if written is not None else 0.0)
    named = sum(used) + clients + sum(result["services"].values())
    parts = ", ".join(
        [f"public pool {used[0]:.1f}", f"staff pool {used[1]:.1f}", f"bench clients {clients:.1f}"]
        + [f"{name} {seconds:.1f}" for name, seconds in result["services"].items()]
        + [f"the rest {result['machine'] - named:.1f}"]
    )
    print(
        f"NOTE crowd_bench: {rate}/s: the machine busy {result['machine']:.1f} CPU s of"
        f" {(os.cpu_count() or 1) * read['seconds']:.0f} ({parts})",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())
