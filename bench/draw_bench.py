"""Draw benchmarks.

``BENCH draw.swiss_5000_s``: pairing Swiss round 9 of 5,000 pairs (target <= 2 s). Eight rounds
are simulated first (random results: win 2, draw 1, loss 0; seats and opponents recorded); then
only the ninth round's ``swiss_pair`` call is timed — the median of three runs of the same
(deterministic) draw. Algorithm only: no database.

``BENCH draw.swiss_exact_1000_s`` / ``BENCH draw.swiss_exact_5000_s`` (targets <= 1 s and
<= 5 s): a *hard* field of 1,000 / 5,000 pairs — two departments (each pair in one, drawn at
random), department protection in every round — paired for ten rounds; then the eleventh round's
``swiss_pair`` is timed (median of three). Many score groups, crowded brackets and clashes that
cannot all be avoided: the fields where the old bracket heuristic fell short of the optimum. A
second line says what the draw reached: ``notes["optimality"]`` ("candidates": the optimum over
the candidate tables of every criterion; "groups": at the class bound, the order improved group
by group), the matchings solved (``["stages"]``), how many leading
criteria are proven optimal over every pairing (``["proven"]``) out of how many, and the CPU
seconds of the timed call (the machine is shared: wall time moves with the load, CPU time less).

``BENCH draw.write_2500_tables_s``: writing that round — 2,500 tables, 2,500 matches and 5,000
round entries — with ``round_write`` in one transaction (target <= 3 s on PostgreSQL). The worst
case is timed: the tournament has no table rows yet, so the 2,500 tables are created too. Median
of three runs, each into a fresh tournament of 5,000 pairs. Runs on ``DATABASE_URL``; the line is
named ``draw.write_2500_tables_sqlite_s`` when that is SQLite or unset (then a throw-away SQLite
file is used), so a SQLite figure is never mistaken for the PostgreSQL target.
"""

from __future__ import annotations

import dataclasses
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournament.draw.pairing import Draw, Entrant, EntrantId, swiss_pair  # noqa: E402

PAIRS = 5000
ROUNDS_BEFORE = 8


@dataclass
class _Standing:
    id: int
    score: int = 0
    small: float = 0.0
    opponents: set[EntrantId] = field(default_factory=set)
    byes: int = 0
    ns: int = 0
    ew: int = 0
    last: str | None = None
    departments: frozenset[int] = frozenset()


def _entrants(table: dict[int, _Standing]) -> list[Entrant]:
    ranked = sorted(table.values(), key=lambda s: (-s.score, -s.small, s.id))
    return [
        Entrant(
            id=s.id,
            rank=k,
            score=s.score,
            opponents=frozenset(s.opponents),
            byes=s.byes,
            seats_ns=s.ns,
            seats_ew=s.ew,
            last_seat="NS" if s.last == "NS" else "EW" if s.last == "EW" else None,
            departments=s.departments,
        )
        for k, s in enumerate(ranked, start=1)
    ]


def _play(table: dict[int, _Standing], draw: Draw, rng: random.Random) -> None:
    for p in draw.pairings:
        if p.ew is None:
            table[int(p.ns)].byes += 1
            table[int(p.ns)].score += 2
            continue
        a, b = table[int(p.ns)], table[int(p.ew)]
        a.opponents.add(b.id)
        b.opponents.add(a.id)
        a.ns, b.ew, a.last, b.last = a.ns + 1, b.ew + 1, "NS", "EW"
        x = rng.random()
        margin = 1 + rng.random() * 10  # small points (级差分) go to the winner
        if x < 0.1:
            a.score, b.score = a.score + 1, b.score + 1
        elif x < 0.55:
            a.score, a.small, b.small = a.score + 2, a.small + margin, b.small - margin
        else:
            b.score, b.small, a.small = b.score + 2, b.small + margin, a.small - margin


def swiss_round_9() -> Draw:
    rng = random.Random(20240905)
    table = {i: _Standing(i) for i in range(1, PAIRS + 1)}
    for round_number in range(1, ROUNDS_BEFORE + 1):
        draw = swiss_pair(entrants=_entrants(table), round_number=round_number, seed=round_number)
        _play(table, draw, rng)
    entrants = _entrants(table)
    timings, cpu = [], []
    for _ in range(3):
        started, started_cpu = time.perf_counter(), time.process_time()
        draw = swiss_pair(entrants=entrants, round_number=ROUNDS_BEFORE + 1, seed=ROUNDS_BEFORE + 1)
        timings.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    assert len(draw.matches) == PAIRS // 2 and not any(w.code == "rematch" for w in draw.warnings)
    print(f"BENCH draw.swiss_5000_s {statistics.median(timings):.3f} s")
    notes = draw.notes
    criteria = 3 + int(notes["groups"]) - 1 + 2
    blocks = f"{notes['blocks']} blocks, " if "blocks" in notes else ""
    proven = f"{notes['proven']} of {criteria} criteria proven"
    print(f"  ({PAIRS} pairs, round 9: {notes['optimality']}, {blocks}{proven}; cpu {statistics.median(cpu):.2f} s)")
    return draw


def swiss_hard(pairs: int, rounds_before: int = 10) -> None:
    rng = random.Random(20261201 + pairs)
    table = {i: _Standing(i, departments=frozenset({rng.randrange(2)})) for i in range(1, pairs + 1)}
    protect = rounds_before + 1  # department protection in every round
    for round_number in range(1, rounds_before + 1):
        draw = swiss_pair(
            entrants=_entrants(table), round_number=round_number, seed=round_number, department_rounds=protect
        )
        _play(table, draw, rng)
    entrants = _entrants(table)
    timings, cpu = [], []
    for _ in range(3):
        started, started_cpu = time.perf_counter(), time.process_time()
        draw = swiss_pair(
            entrants=entrants, round_number=rounds_before + 1, seed=rounds_before + 1, department_rounds=protect
        )
        timings.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    assert len(draw.matches) == pairs // 2 and not any(w.code == "rematch" for w in draw.warnings)
    clashes = sum(w.code == "same_department" for w in draw.warnings)
    print(f"BENCH draw.swiss_exact_{pairs}_s {statistics.median(timings):.3f} s")
    notes = draw.notes
    criteria = 3 + int(notes["groups"]) - 1 + 2  # rematches, clashes, severe, boundaries, skips, strain
    proven = f"{notes['optimality']} in {notes['stages']} stage(s), {notes['proven']} of {criteria} criteria proven"
    print(
        f"  ({pairs} pairs, round {rounds_before + 1}: {proven}, {clashes} clashes; cpu {statistics.median(cpu):.2f} s)"
    )


def write_round(draw: Draw) -> None:
    """Time ``round_write`` of the round-9 draw into a fresh tournament (see the module docstring)."""
    scratch = tempfile.TemporaryDirectory()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch.name}/bench.sqlite3")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction

    from tournament.draw.services import round_write
    from tournament.draw.stages import stage_create
    from tournament.matches.models import Match, Round, RoundStatus
    from tournament.registration.models import Pair, Tournament

    call_command("migrate", verbosity=0)
    postgres = connection.vendor == "postgresql"
    timings = []
    for run in range(3):
        tournament = Tournament.objects.create(name=f"bench draw write {run}", rule_profile="timed-40")
        pairs = Pair.objects.bulk_create(
            Pair(tournament=tournament, number=i, name=f"对{i}") for i in range(1, PAIRS + 1)
        )
        pk_of = {i: pair.pk for i, pair in enumerate(pairs, start=1)}
        stage = stage_create(tournament=tournament, name="预赛", format="swiss")
        round_ = Round.objects.create(stage=stage, number=ROUNDS_BEFORE + 1, status=RoundStatus.DRAFT)
        ours = dataclasses.replace(
            draw,
            pairings=tuple(
                dataclasses.replace(p, ns=pk_of[int(p.ns)], ew=None if p.ew is None else pk_of[int(p.ew)])
                for p in draw.pairings
            ),
        )
        started = time.perf_counter()
        with transaction.atomic():
            round_write(round_=round_, draw=ours)
        timings.append(time.perf_counter() - started)
        assert Match.objects.filter(round=round_, table__isnull=False).count() == PAIRS // 2
        tournament.delete()
    name = "draw.write_2500_tables_s" if postgres else "draw.write_2500_tables_sqlite_s"
    print(f"BENCH {name} {statistics.median(timings):.3f} s")
    scratch.cleanup()


def main() -> None:
    draw = swiss_round_9()
    swiss_hard(1000)
    swiss_hard(5000)
    write_round(draw)


if __name__ == "__main__":
    main()
