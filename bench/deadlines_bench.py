"""Self-scheduled round benchmark (docs/rules.md §12.1).

``BENCH matches.deadline_double_forfeits_2500_s``: the deadline of a self-scheduled round of 2,500
matches none of which was reported (5,000 pairs): ``round_deadline_pass``, as the Celery task runs it —
5,000 forfeit rows with their history, every match folded through the rules core and signed off with a
history row, the round finished (target <= 2 s). Median of three runs, each a fresh round. Runs on
``DATABASE_URL`` when it is PostgreSQL, else on the local PostgreSQL at 127.0.0.1:5432 if one answers (in
a database of its own), else on a throw-away SQLite file — then the line is named
``matches.deadline_double_forfeits_2500_sqlite_s``.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import matches_bench  # noqa: E402  (the bench's PostgreSQL database, as the round-start bench finds it)

PAIRS = 5000
matches_bench.BENCH_DATABASE = "guandan_seasonbench"


def main() -> None:
    scratch = tempfile.TemporaryDirectory()
    url = matches_bench._postgres_url()
    os.environ["DATABASE_URL"] = url or f"sqlite:///{scratch.name}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    from scoring.profiles import options_for
    from tournament.matches.deadlines import round_deadline_pass, round_open_self_scheduled
    from tournament.matches.models import Adjustment, Match, MatchStatus, Round, RoundStatus, Stage, Table
    from tournament.registration.models import Pair, Tournament

    call_command("migrate", verbosity=0)
    timings = []
    for run in range(3):
        tournament = Tournament.objects.create(name=f"bench deadline {run}", rule_profile="timed-40")
        pairs = Pair.objects.bulk_create(
            Pair(tournament=tournament, number=i, name=f"对{i}") for i in range(1, PAIRS + 1)
        )
        tables = Table.objects.bulk_create(Table(tournament=tournament, number=n) for n in range(1, PAIRS // 2 + 1))
        stage = Stage.objects.create(
            tournament=tournament, name="第一轮", format="swiss", rules=options_for(profile="timed-40").to_json()
        )
        round_ = Round.objects.create(stage=stage, number=1, status=RoundStatus.PUBLISHED)
        Match.objects.bulk_create(
            Match(round=round_, table=table, ns_pair=pairs[2 * k], ew_pair=pairs[2 * k + 1])
            for k, table in enumerate(tables)
        )
        opened = timezone.now()
        deadline = opened + timedelta(days=4)
        round_open_self_scheduled(round_id=round_.pk, deadline=deadline, now=opened)
        started = time.perf_counter()
        if os.environ.get("BENCH_PROFILE"):
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            profiler.enable()
        forfeited = round_deadline_pass(round_id=round_.pk, now=deadline + timedelta(seconds=1))
        if os.environ.get("BENCH_PROFILE"):
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        timings.append(time.perf_counter() - started)
        assert forfeited == PAIRS // 2, forfeited
        assert Adjustment.objects.filter(match__round=round_).count() == PAIRS
        assert not Match.objects.filter(round=round_).exclude(status=MatchStatus.CONFIRMED).exists()
        assert Round.objects.get(pk=round_.pk).status == RoundStatus.FINISHED
        tournament.delete()
    name = "matches.deadline_double_forfeits_2500_s" if url else "matches.deadline_double_forfeits_2500_sqlite_s"
    print(f"BENCH {name} {statistics.median(timings):.3f} s")


if __name__ == "__main__":
    main()
