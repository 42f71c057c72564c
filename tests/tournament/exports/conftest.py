"""A small company event with awkward names, results entered through the real services, and helpers
to read the produced files back with openpyxl (read-only)."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.db import connection
from openpyxl import load_workbook

from tests.factories import DepartmentFactory, StageFactory, TournamentFactory, organiser, referee
from tournament.celery import app
from tournament.exports.models import PrizeTier
from tournament.matches.models import (
    Adjustment,
    Match,
    MatchStatus,
    Round,
    RoundEntry,
    RoundStatus,
    Stage,
    StageFormat,
    Table,
)
from tournament.matches.services import deal_record
from tournament.registration.models import Pair, PairMember, Player, Tournament

# Players named like formulas (formula injection), with emoji, a control character, a long name.
INJECTION_NAMES = ['=HYPERLINK("http://x","y")', "+1", "-2", "@SUM(A1:A9)"]


def long_name() -> str:
    """The longest name the database keeps: 60 characters on PostgreSQL; on SQLite (which does not
    enforce lengths) far more, as data that bypassed the forms could be."""
    return "长" * (60 if connection.vendor == "postgresql" else 5000)


LONG_NAME = "<long name>"  # replaced by long_name() when the event is built
NAMES = [
    *INJECTION_NAMES,
    "张伟",
    "李娜",
    "王芳😀🀄",
    "bell\x07name",
    "赵\x1b磊",
    "刘洋",
    "陈静",
    "杨帆",
    "黄勇",
    "周杰",
    "吴敏",
    "徐磊",
    "孙丽",
    LONG_NAME,
]
NS_WINS = (["N", "S"], ["N", "S"], ["N", "S"], ["N", "E", "S"])  # timed-40 (+5, seed 002): 2→7→12→A, passes A
EW_WINS = (["E", "W"], ["E", "W"], ["E", "W"], ["E", "N", "W"])


@pytest.fixture(autouse=True)
def celery_eager():
    """Tasks run in-process even when CELERY_BROKER_URL is set (the real worker has its own test)."""
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Export files go to a folder of the test's own."""
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return Path(settings.MEDIA_ROOT)


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@dataclass
class Event:
    tournament: Tournament
    stage: Stage
    rounds: list[Round]
    pairs: list[Pair]
    matches: list[Match]
    boss: object
    referee: object


def _pair(tournament: Tournament, index: int, departments: list) -> Pair:
    first, second = (long_name() if name == LONG_NAME else name for name in NAMES[2 * index : 2 * index + 2])
    pair = Pair.objects.create(tournament=tournament, number=index + 1, name=f"{first[:40]} / {second[:40]}")
    for slot, name in ((1, first), (2, second)):
        number = 2 * index + slot
        player = Player.objects.create(
            tournament=tournament,
            name=name,
            employee_number=f"{1000 + number}",
            department=departments[index % len(departments)],
            phone=f"1380000{number:04d}" if number % 3 else "",
        )
        PairMember.objects.create(pair=pair, player=player, slot=slot)
    return pair


def _match(round_: Round, table: Table | None, ns: Pair, ew: Pair | None) -> Match:
    match = Match.objects.create(round=round_, table=table, ns_pair=ns, ew_pair=ew)
    RoundEntry.objects.create(round=round_, pair=ns, match=match, side="NS")
    if ew is not None:
        RoundEntry.objects.create(round=round_, pair=ew, match=match, side="EW")
    else:
        match.status = MatchStatus.FINISHED
        match.save(update_fields=["status"])
    return match


def _play(match: Match, orders, user) -> None:
    for order in orders:
        deal_record(match_id=match.pk, outcome={"order": list(order)}, user=user)


@pytest.fixture
def event(db) -> Event:
    """9 pairs, one Swiss stage of 2 rounds (4 tables and a bye each), finished and running matches,
    adjustments and prize tiers."""
    boss = organiser(username="boss")
    ref = referee(username="referee1")
    tournament = TournamentFactory(name="联鑫钢铁第四届掼蛋争霸赛", rule_profile="timed-40")
    tournament.organisers.add(boss)
    departments = [
        DepartmentFactory(tournament=tournament, name="财务部"),
        DepartmentFactory(tournament=tournament, name="=销售部"),
        DepartmentFactory(tournament=tournament, name="炼钢厂"),
    ]
    pairs = [_pair(tournament, index, departments) for index in range(9)]
    tables = [Table.objects.create(tournament=tournament, number=n, area="A区" if n <= 2 else "") for n in (1, 2, 3, 4)]
    stage = StageFactory(tournament=tournament, name="预赛", format=StageFormat.SWISS, order=1)
    rounds = [
        Round.objects.create(stage=stage, number=n, status=RoundStatus.PUBLISHED, time_cap_minutes=40) for n in (1, 2)
    ]
    matches = []
    # Round 1: tables 1–4, pair 9 has the bye.
    pairing = [(0, 1), (2, 3), (4, 5), (6, 7)]
    for table, (ns, ew) in zip(tables, pairing, strict=True):
        matches.append(_match(rounds[0], table, pairs[ns], pairs[ew]))
    matches.append(_match(rounds[0], None, pairs[8], None))
    _play(matches[0], NS_WINS, ref)
    _play(matches[1], EW_WINS, ref)
    _play(matches[2], NS_WINS, ref)
    _play(matches[3], EW_WINS, ref)
    # Round 2: pair 1 has the bye; one match still running.
    pairing = [(8, 2), (1, 4), (3, 6), (5, 7)]
    for table, (ns, ew) in zip(tables, pairing, strict=True):
        matches.append(_match(rounds[1], table, pairs[ns], pairs[ew]))
    matches.append(_match(rounds[1], None, pairs[0], None))
    _play(matches[5], NS_WINS, ref)
    _play(matches[6], EW_WINS, ref)
    _play(matches[7], NS_WINS, ref)
    _play(matches[8], (["N", "S"], ["E", "W", "N"]), ref)
    Adjustment.objects.create(
        tournament=tournament,
        match=matches[8],
        pair=pairs[7],
        kind="warning",
        reason="=cmd|' /C calc'!A0 slow play",
        created_by=ref,
    )
    Adjustment.objects.create(
        tournament=tournament, match=matches[1], pair=pairs[2], kind="late_arrival", minutes_late=7, reason="迟到"
    )
    PrizeTier.objects.create(tournament=tournament, name="一等奖", pair_count=1, order=1)
    PrizeTier.objects.create(tournament=tournament, name="二等奖", pair_count=2, order=2)
    return Event(tournament, stage, rounds, pairs, matches, boss, ref)


def read_book(data: bytes | str | Path) -> dict[str, list[tuple]]:
    """Every sheet's rows (values), read back with openpyxl in read-only mode."""
    source = io.BytesIO(data) if isinstance(data, bytes) else data
    book = load_workbook(source, read_only=True)
    try:
        return {sheet.title: [tuple(row) for row in sheet.iter_rows(values_only=True)] for sheet in book.worksheets}
    finally:
        book.close()


def read_cells(data: bytes, title: str) -> list[list]:
    """The cells of one sheet (read-only cells: ``value`` and ``data_type``)."""
    book = load_workbook(io.BytesIO(data), read_only=True)
    try:
        return [list(row) for row in book[title].iter_rows()]
    finally:
        book.close()


def sheet_xml(data: bytes) -> list[str]:
    """The raw XML of every worksheet of an .xlsx."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [
            archive.read(name).decode("utf-8") for name in archive.namelist() if name.startswith("xl/worksheets/sheet")
        ]


def build(**kwargs) -> bytes:
    from tournament.exports.workbook import workbook_build

    out = io.BytesIO()
    workbook_build(target=out, **kwargs)
    return out.getvalue()
