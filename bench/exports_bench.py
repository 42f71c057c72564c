"""Benchmarks of the tournament workbook: ``python bench/exports_bench.py``.

Prints, in the ``make bench`` form ``BENCH <name> <value> <unit>``:

- ``exports.workbook_5000x9_s``: wall-clock seconds of ``workbook_build`` for 5,000 pairs after 9
  Swiss rounds (22,500 matches, about 300,000 deals). Target ≤ 30.
- ``exports.workbook_5000x9_peak_mb``: the peak resident memory (RSS high-water mark: ``VmHWM`` of
  ``/proc/self/status``, else ``resource.getrusage`` ``ru_maxrss``) of a fresh process that only opens
  Django and builds that workbook — so the figure includes the interpreter and Django (about 75 MB)
  and nothing of the seeding. Target ≤ 300.

The event is seeded first and not timed: pairs, players and departments, 9 rounds of random pairings,
and each match's deals from random finishing orders, folded through ``scoring.match.replay`` into the
same stored snapshots (``Match.state``, ``Deal.record``) that referee entry writes; all in bulk.
Runs on DATABASE_URL when set (the bench tournament is deleted afterwards), else on a throw-away
SQLite file.
"""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
_tmp = tempfile.TemporaryDirectory()
os.environ.setdefault("DATABASE_URL", f"sqlite:///{_tmp.name}/bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring.finishing_order import FinishingOrder  # noqa: E402
from scoring.match import MatchState, replay  # noqa: E402
from scoring.seats import SEATS  # noqa: E402
from tournament.draw.stages import stage_create  # noqa: E402
from tournament.exports.workbook import workbook_build  # noqa: E402
from tournament.matches.models import (  # noqa: E402
    Deal,
    Match,
    MatchStatus,
    Round,
    RoundEntry,
    RoundStatus,
    StageFormat,
    Table,
)
from tournament.registration.models import Department, Pair, PairMember, Player, Tournament  # noqa: E402
from tournament.rules import rules_for_stage  # noqa: E402

PAIRS = 5000
ROUNDS = 9
SEED = 20240501


def _orders() -> list[FinishingOrder]:
    """Every finishing order a referee can enter, weighted toward 1-3 and 1-4 finishes (a double-down
    is the rarest), so a 40-minute match lasts about 13 deals, as at real tables."""
    orders = []
    for first in SEATS:
        for second in SEATS:
            if second is first:
                continue
            if second is first.partner:
                orders.append(FinishingOrder.parse([first.value, second.value]))
            for third in SEATS:
                if third not in (first, second):
                    orders.append(FinishingOrder.parse([first.value, second.value, third.value]))
    return [order for order in orders for _ in range({2: 1, 3: 2, 4: 3}[order.partner_place])]


def seed() -> int:
    """The 5,000-pair event after 9 rounds; returns the tournament id."""
    rng = random.Random(SEED)
    referees = [get_user_model().objects.get_or_create(username=f"bench-referee{n}")[0] for n in range(20)]
    tournament = Tournament.objects.create(name="Bench 5000", rule_profile="timed-40")
    departments = Department.objects.bulk_create(
        [Department(tournament=tournament, name=f"部门{n}") for n in range(60)]
    )
    players = Player.objects.bulk_create(
        [
            Player(
                tournament=tournament,
                name=f"选手{n}",
                employee_number=f"E{n:06d}",
                department=departments[(n // 2) % len(departments)],
                phone=f"139{n:08d}",
            )
            for n in range(2 * PAIRS)
        ],
        batch_size=2000,
    )
    pairs = Pair.objects.bulk_create(
        [Pair(tournament=tournament, number=n + 1, name=f"选手{2 * n} / 选手{2 * n + 1}") for n in range(PAIRS)],
        batch_size=2000,
    )
    PairMember.objects.bulk_create(
        [
            PairMember(pair=pair, player=players[2 * n + slot - 1], slot=slot)
            for n, pair in enumerate(pairs)
            for slot in (1, 2)
        ],
        batch_size=2000,
    )
    tables = Table.objects.bulk_create([Table(tournament=tournament, number=n + 1) for n in range(PAIRS // 2)])
    stage = stage_create(tournament=tournament, name="预赛", format=StageFormat.SWISS, order=1)
    options = rules_for_stage(stage)
    orders = _orders()
    start = timezone.now() - timedelta(days=1)
    for number in range(1, ROUNDS + 1):
        round_start = start + timedelta(hours=number)
        round_ = Round.objects.create(
            stage=stage, number=number, status=RoundStatus.FINISHED, started_at=round_start, time_cap_minutes=40
        )
        order = list(pairs)
        rng.shuffle(order)
        matches: list[Match] = []
        deal_rows: list[list[tuple[int, dict, dict]]] = []
        for index, table in enumerate(tables):
            ns, ew = order[2 * index], order[2 * index + 1]
            called = rng.randint(12, 18)
            state = MatchState.initial(options).call_time(during_deal=called)
            deals: list[FinishingOrder] = []
            while not state.is_finished:
                deal = rng.choice(orders)
                state, _record = state.apply(deal)
                deals.append(deal)
            result = replay(options=options, deals=deals, time_called_during_deal=called)
            snapshot = result.to_json()
            minutes = rng.randint(25, 42)
            matches.append(
                Match(
                    round=round_,
                    table=table,
                    ns_pair=ns,
                    ew_pair=ew,
                    status=MatchStatus.CONFIRMED,
                    state=snapshot,
                    winner=snapshot["winner"] or "",
                    result_reason=snapshot["reason"] or "",
                    time_called_during_deal=called,
                    version=len(deals),
                    started_at=round_start,
                    finished_at=round_start + timedelta(minutes=minutes),
                )
            )
            deal_rows.append(
                [({"order": deal.to_json()}, record, {}) for deal, record in zip(deals, snapshot["deals"], strict=True)]
            )
        with transaction.atomic():
            Match.objects.bulk_create(matches, batch_size=2000)
            RoundEntry.objects.bulk_create(
                [
                    RoundEntry(round=round_, pair=pair, match=match, side=side)
                    for match in matches
                    for pair, side in ((match.ns_pair, "NS"), (match.ew_pair, "EW"))
                ],
                batch_size=5000,
            )
            Deal.objects.bulk_create(
                [
                    Deal(
                        match=match,
                        number=number,
                        outcome=outcome,
                        record=record,
                        entered_by=referees[match.table.number % len(referees)],
                    )
                    for match, rows in zip(matches, deal_rows, strict=True)
                    for number, (outcome, record, _extra) in enumerate(rows, 1)
                ],
                batch_size=5000,
            )
    return tournament.pk


def export(tournament_id: int) -> None:
    """The measured step, in its own process: build the workbook, print seconds and peak RSS."""
    tournament = Tournament.objects.get(pk=tournament_id)
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        workbook_build(tournament=tournament, target=Path(folder) / "bench.xlsx")
        seconds = time.perf_counter() - started
        size = (Path(folder) / "bench.xlsx").stat().st_size
    print(json.dumps({"seconds": seconds, "peak_mb": _peak_kb() / 1024, "bytes": size}))


def _peak_kb() -> int:
    """This process's peak resident memory in kB: VmHWM on Linux (``ru_maxrss`` would also count the
    seeding parent's memory, which a child started by fork + exec inherits in that figure)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux


def _delete(tournament_id: int) -> None:
    """Remove the bench event. The big tables go by plain SQL deletes: the ORM's cascade would load
    (and write audit history for) every one of the 300,000 deals."""
    for model, lookup in (
        (Deal, "match__round__stage__tournament_id"),
        (RoundEntry, "round__stage__tournament_id"),
        (Match, "round__stage__tournament_id"),
    ):
        model.objects.filter(**{lookup: tournament_id})._raw_delete("default")
    Tournament.objects.filter(pk=tournament_id).delete()


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--export":
        export(int(sys.argv[2]))
        return
    call_command("migrate", verbosity=0)
    seeding = time.perf_counter()
    tournament_id = seed()
    deals = Deal.objects.filter(match__round__stage__tournament_id=tournament_id).count()
    matches = Match.objects.filter(round__stage__tournament_id=tournament_id).count()
    print(f"# seeded {PAIRS} pairs, {matches} matches, {deals} deals in {time.perf_counter() - seeding:.0f} s")
    try:
        child = subprocess.run(
            [sys.executable, __file__, "--export", str(tournament_id)],
            env=os.environ.copy(),
            check=True,
            capture_output=True,
            text=True,
        )
        measured = json.loads(child.stdout.strip().splitlines()[-1])
    finally:
        _delete(tournament_id)
    print(f"# workbook {measured['bytes'] / 1e6:.1f} MB")
    print(f"BENCH exports.workbook_5000x9_s {measured['seconds']:.2f} s")
    print(f"BENCH exports.workbook_5000x9_peak_mb {measured['peak_mb']:.0f} MB")


if __name__ == "__main__":
    main()
