"""Recorded Swiss rounds (tests/data/swiss_rounds.json; tests/tournament/draw/swiss_rounds.py): the
current engine draws each again exactly as it recorded it, and is as good as every earlier
version by the criteria vector on the rounds that version drew, or better — what
docs/swiss-draw.md's Versions says of each change.

A stored round is never drawn again (its tables are what was recorded), so the earlier engines
themselves are not kept, only what they drew; swiss.v1's is kept as the tests' yardstick
(reference_swiss_v1.py), and it must reproduce the swiss.v1 rounds.
Every test here draws the recorded rounds with the current engine.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import pytest

from tests.tournament.draw import reference_swiss_v1 as swiss_v1
from tests.tournament.draw.swiss_rounds import RecordedRound, checked_notes, notes_of, recorded_rounds, tables_of
from tests.tournament.draw.test_pairing_swiss import Stats, check_draw, criteria, objective, ranked
from tournament.draw.pairing import DENSE_LIMIT, SWISS_ALGORITHM, Draw

ROUNDS = list(recorded_rounds())


def _name(case: RecordedRound) -> str:
    versions = ",".join(a.removeprefix("swiss.") for a in case.drawn)
    return f"{len(case.entrants)}-r{case.round_number}-s{case.seed}-{versions}"


@functools.cache
def _now(index: int) -> Draw:
    """The current engine's draw of recorded round ``index`` (drawn once per test run)."""
    return ROUNDS[index].draw()


def _criteria_of(case: RecordedRound, tables: list[list[Any]]) -> tuple[int, ...]:
    by_id = {e.id: e for e in case.entrants}
    protect = case.round_number <= case.options["department_rounds"]
    return objective([(by_id[ns], by_id[ew]) for ns, ew in tables if ew is not None], protect=protect)


@pytest.mark.parametrize("index", range(len(ROUNDS)), ids=[_name(case) for case in ROUNDS])
def test_the_current_engine_draws_each_recorded_round_as_recorded(index: int) -> None:
    """Table for table, seat for seat, and the same notes (those that name a library's version
    aside): a change of the draw is a change of version (record it, swiss_rounds.py)."""
    case = ROUNDS[index]
    draw = _now(index)
    recorded = case.drawn[SWISS_ALGORITHM]
    assert draw.algorithm == SWISS_ALGORITHM
    assert tables_of(draw) == recorded["tables"]
    assert checked_notes(notes_of(draw)) == checked_notes(recorded["notes"])
    allow = bool(case.options["allow_rematches"])
    protect = case.round_number <= case.options["department_rounds"]
    check_draw(case.entrants, draw, allow_rematches=allow, protect=protect, stats=Stats())


@pytest.mark.parametrize("index", range(len(ROUNDS)), ids=[_name(case) for case in ROUNDS])
def test_the_current_engine_is_as_good_as_each_earlier_version(index: int) -> None:
    """On each round an earlier version drew: the same criteria vector where that version was
    exact (the optimum over every pairing), never worse where it was not; no fewer criteria
    proven. swiss.v5 up to DENSE_LIMIT: the same tables (swiss.v6 asks no class bound there).
    The yardstick of the other tests, the frozen swiss.v1 engine, draws swiss.v1's rounds."""
    case = ROUNDS[index]
    now = _now(index)
    value = criteria(now, case.entrants)
    for algorithm, old in case.drawn.items():
        if algorithm == SWISS_ALGORITHM:
            continue
        if algorithm == "swiss.v1":
            assert tables_of(swiss_v1.swiss_pair(**case.kwargs(), **old["options"])) == old["tables"]
        before = _criteria_of(case, old["tables"])
        exact = old["notes"].get("optimality", old["notes"].get("engine")) == "exact"
        if exact:
            assert value == before, algorithm
        else:
            assert value <= before, algorithm
        if "proven" in old["notes"]:
            assert now.notes["proven"] >= old["notes"]["proven"], algorithm
    if "swiss.v5" in case.drawn and len(ranked(case.entrants)) <= DENSE_LIMIT:
        assert tables_of(now) == case.drawn["swiss.v5"]["tables"]


def test_each_version_change_shows_on_its_rounds() -> None:
    """Why each version changed, seen from the current engine: better by the criteria on some
    rounds swiss.v1's heuristic drew; on every round an earlier version drew over candidate
    tables (swiss.v2 and swiss.v3 above 200 pairs, swiss.v4 and swiss.v5 above 400) every
    criterion proven where that version proved a few (every table a candidate up to 400 pairs
    since swiss.v4, the class bound above since swiss.v6); other tables than swiss.v4's on some
    rounds (swiss.v5's weights pick another of several equally good pairings)."""
    assert len(ROUNDS) >= 25
    latest = int(SWISS_ALGORITHM.removeprefix("swiss.v"))
    assert {a for case in ROUNDS for a in case.drawn} == {f"swiss.v{k}" for k in range(1, latest + 1)}
    assert {case.drawn["swiss.v1"]["notes"]["engine"] for case in ROUNDS if "swiss.v1" in case.drawn} == {
        "exact",
        "fast",
    }
    better_than_v1 = other_tables = 0
    proven_more: Counter[str] = Counter()
    for index, case in enumerate(ROUNDS):
        now = _now(index)
        value = criteria(now, case.entrants)
        if "swiss.v1" in case.drawn:
            better_than_v1 += value < _criteria_of(case, case.drawn["swiss.v1"]["tables"])
        for algorithm, old in case.drawn.items():
            if algorithm != SWISS_ALGORITHM and old["notes"].get("optimality") == "candidates":
                assert now.notes["proven"] == len(value) > old["notes"]["proven"], algorithm
                proven_more[algorithm] += 1
        if "swiss.v4" in case.drawn:
            other_tables += tables_of(now) != case.drawn["swiss.v4"]["tables"]
    assert better_than_v1 > 0 and other_tables > 0
    assert set(proven_more) == {"swiss.v2", "swiss.v3", "swiss.v4", "swiss.v5"}
