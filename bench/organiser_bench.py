"""Every organiser page of a 5,000-pair event answers in ≤ 1 s: ``python bench/organiser_bench.py``.

Prints ``BENCH web.organiser_<page>_ms``: the median of ``--repeat`` requests (after one to warm
up) of each organiser page, one at a time as the organiser's browser asks, under uWSGI
(production settings) and PostgreSQL; then ``BENCH web.organiser_worst_ms``, the slowest page's
median, and each page's size. Target ≤ 1000 ms each.

The event is ``web_bench``'s (5,000 pairs, 2,500 tables; its third round under way: a third
finished, a third playing, a third not started), seeded in this bench's own database when missing,
with a draft fourth round (a copy of the third's pairing, made in SQL: the draw itself is
``draw_bench``'s) so the round page shows a draft preview of 2,500 tables; it is deleted at the
end, so ``web_bench`` still finds its event as it seeded it. The organiser is a user
made for the bench, signed in through a real session. Everything it starts is stopped at the end;
nothing leaves the loopback.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import board_bench
import web_bench

ROOT = web_bench.ROOT


def draft_round(stage_id: int) -> int:
    """A draft round 4 pairing the pairs as round 3 does (made in SQL)."""
    from tournament.matches.models import Match, Round, RoundEntry, RoundStatus

    existing = Round.objects.filter(stage_id=stage_id, number=4).first()
    if existing is not None:
        return existing.pk
    third = Round.objects.get(stage_id=stage_id, number=3)
    draft = Round.objects.create(stage_id=stage_id, number=4, status=RoundStatus.DRAFT, time_cap_minutes=40)
    matches = Match.objects.bulk_create(
        (
            Match(round=draft, table_id=table_id, ns_pair_id=ns, ew_pair_id=ew)
            for table_id, ns, ew in third.matches.values_list("table_id", "ns_pair_id", "ew_pair_id")
        ),
        batch_size=2500,
    )
    RoundEntry.objects.bulk_create(
        (
            RoundEntry(round=draft, pair_id=pair_id, match=match, side=side)
            for match in matches
            for pair_id, side in ((match.ns_pair_id, "NS"), (match.ew_pair_id, "EW"))
            if pair_id is not None
        ),
        batch_size=5000,
    )
    return draft.pk


def pages(tournament_id: int, stage_id: int, running_id: int, draft_id: int) -> dict[str, str]:
    from django.urls import reverse

    t = tournament_id
    return {
        "event_home": reverse("standings:tournament", args=[t]),
        "pair_list": reverse("registration:pairs", args=[t]),
        "check_in": reverse("registration:checkin", args=[t]),
        "departments": reverse("registration:departments", args=[t]),
        "stages": reverse("draw:stages", args=[t]),
        "stage_detail": reverse("draw:stage", args=[t, stage_id]),
        "round_draft_preview": reverse("draw:round", args=[t, draft_id]),
        "round_running": reverse("draw:round", args=[t, running_id]),
        "round_clock": reverse("matches:round_clock", args=[t, running_id]),
        "progress_board": reverse("matches:progress_board", args=[t, running_id]),
        "round_referees": reverse("draw:referees", args=[t, running_id]),
        "referees": reverse("matches:referees", args=[t]),
        "referee_links": reverse("matches:referee_links", args=[t]),
        "tables_areas": reverse("draw:tables", args=[t]),
        "event_settings": reverse("matches:event", args=[t]),
        "exports": reverse("exports:home", args=[t]),
    }


def fetch(url: str, cookie: str) -> tuple[float, int, int]:
    """One request: (milliseconds, status, bytes)."""
    request = urllib.request.Request(url, headers={"Cookie": cookie, "Accept-Language": "zh-hans"})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            body = response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        body, status = error.read(), error.code
    return 1000 * (time.perf_counter() - started), status, len(body)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    url = os.environ.get("DATABASE_URL", "")
    if not web_bench.is_postgres(url) and web_bench.local_service(web_bench.LOCAL_POSTGRES):
        url = web_bench.LOCAL_POSTGRES
    if not web_bench.is_postgres(url):
        print("NOTE organiser_bench: skipped — needs DATABASE_URL pointing at PostgreSQL.")
        return 0
    if not (os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL")) and web_bench.local_service(
        web_bench.LOCAL_REDIS
    ):
        os.environ["CACHE_URL"] = web_bench.LOCAL_REDIS
    database_url = board_bench.bench_database(url, suffix="organiserbench")
    os.environ["DATABASE_URL"] = database_url
    secret_key = os.environ["SECRET_KEY"] = secrets.token_hex(32)  # the server reads this process's session
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from tournament.matches.models import Round

    call_command("migrate", interactive=False, verbosity=0)
    tournament_id, stage_id, _ = web_bench.seed()
    running = Round.objects.get(stage_id=stage_id, number=3)
    board_bench.round_under_way(running)
    draft_id = draft_round(stage_id)
    cookie = board_bench.organiser_cookie(tournament_id)
    paths = pages(tournament_id, stage_id, running.pk, draft_id)
    connections.close_all()

    port = web_bench.free_port()
    results: dict[str, tuple[float, int, set[int]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        server = web_bench.serve(database_url, str(Path(tmp) / "static"), port, secret_key=secret_key)
        try:
            base = f"http://127.0.0.1:{port}"
            web_bench.wait_ready(f"{base}/t/{tournament_id}/")
            for name, path in paths.items():
                fetch(base + path, cookie)  # warm: the worker's imports, the caches
                runs = [fetch(base + path, cookie) for _ in range(args.repeat)]
                results[name] = (
                    statistics.median(ms for ms, _, _ in runs),
                    runs[-1][2],
                    {status for _, status, _ in runs},
                )
        finally:
            web_bench.stop(server)
            # web_bench reuses its event only as it seeded it (three rounds): the draft goes
            Round.objects.filter(pk=draft_id).delete()
    for name, (median, size, statuses) in results.items():
        note = "" if statuses == {200} else f" (status {sorted(statuses)})"
        print(f"NOTE organiser_bench: {name} {size / 1024:.0f} KB{note}")
        print(f"BENCH web.organiser_{name}_ms {median:.1f} ms")
    worst = max(results, key=lambda name: results[name][0])
    print(f"NOTE organiser_bench: the slowest page is {worst}")
    print(f"BENCH web.organiser_worst_ms {results[worst][0]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
