"""What a Swiss draw proves (tournament/draw/pairing_swiss_proof.py, ``notes["proven"]``): every
claimed prefix of the criteria is the least over every pairing, checked by enumerating them; and
the department floor proves the fewest clashes where the clash seed is not tried."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.tournament.draw.test_pairing_swiss import SCALE, SLOW, Event, Stats, check_draw
from tournament.draw import pairing_swiss, pairing_swiss_candidates, pairing_swiss_proof
from tournament.draw.pairing import swiss_pair


@settings(SLOW, max_examples=4 * SCALE)
@given(n=st.sampled_from([8, 10]), seed=st.integers(0, 2**32 - 1), departments=st.integers(1, 3))
@example(n=10, seed=3, departments=3)
@example(n=10, seed=5, departments=2)
def test_what_is_proven_holds_against_every_pairing(n: int, seed: int, departments: int) -> None:
    """notes["proven"] above DENSE_LIMIT (pairing_swiss_proof) claims that no pairing at all is
    better on that many leading criteria. Checked here on small hard fields by asking it of
    *every* pairing, good or bad, as if it were a draw over sparse candidates: each claimed
    prefix must be the least over all pairings. The forced-crossings proof (a side of a
    boundary with too few clean tables inside) is among those used."""
    event = Event(n, seed, departments=departments)
    forced = 0
    real = pairing_swiss_proof.crossings_forced

    def spy(*args: Any, **options: Any) -> bool:
        nonlocal forced
        found = real(*args, **options)
        forced += found
        return found

    for round_number in range(1, 7):
        entrants = event.entrants()
        field = pairing_swiss_candidates.SwissField.build(entrants, seed=round_number, protect=True)
        solver = pairing_swiss._Solver(field, within_group="adjacent")
        members = list(range(field.n))
        groups = pairing_swiss._group_numbers(field, members)
        allowed = [(a, b) for a in members for b in members if a < b and b not in field.opponents[a]]
        pairings = _all_pairings(members, set(allowed))
        if not pairings:
            break
        values = [solver.vector(members, groups, tables)[:-1] for tables in pairings]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(pairing_swiss_proof, "crossings_forced", spy)
            for tables, value in zip(pairings, values, strict=True):
                result = pairing_swiss._Result(tables=tables, notes={"optimality": "candidates"})
                proven = solver._proven(members, result)
                assert min(v[:proven] for v in values) == value[:proven], (value, proven)
        event.play(swiss_pair(entrants=entrants, round_number=round_number, seed=round_number, department_rounds=10))
    if n == 10 and seed in (3, 5):  # the examples: the forced crossings prove something
        assert forced > 0


def _all_pairings(members: list[int], allowed: set[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    if not members:
        return [[]]
    first, rest = members[0], members[1:]
    out: list[list[tuple[int, int]]] = []
    for k, other in enumerate(rest):
        if (first, other) in allowed:
            out += [[(first, other), *tables] for tables in _all_pairings(rest[:k] + rest[k + 1 :], allowed)]
    return out


def test_the_department_floor_proves_the_fewest_clashes_on_a_crowded_large_field() -> None:
    """Over 1,000 pairs with a department holding more than half, the clash seed is not tried
    (docs/swiss-draw.md, "Seed pairings"): the clashes are proven the fewest by the department floor instead —
    60% of 1,100 pairs in one department leave at least (2 * 660 - 1,100) / 2 = 110 clash
    tables in any pairing. check_draw confirms every proven criterion against its own oracle
    (Edmonds' maximum matching of the clash-free tables)."""
    event = Event(1100, 7)
    for record in event.records.values():
        record.departments = frozenset({"sales" if record.id % 5 < 3 else "it"})
    for round_number in (1, 2, 3):
        entrants = event.entrants()
        draw = swiss_pair(entrants=entrants, round_number=round_number, seed=round_number, department_rounds=3)
        check_draw(entrants, draw, allow_rematches=False, protect=True, stats=Stats())
        assert "fewest_department_clashes" not in draw.notes
        assert sum(w.code == "same_department" for w in draw.warnings) == 110
        proven = draw.notes["proven"]
        assert isinstance(proven, int) and proven >= 3  # rematches, clashes, severe seat tables
        event.play(draw)
