"""The class bound (tournament/draw/pairing_swiss_classes.py, swiss.v6): a lower bound of every
pairing's criteria, tight where nobody has met, and the pairings it builds; and the draws that
lean on it (the order improved group by group, the fallback beyond its class limit).

The criteria are the checker's own (``objective`` in test_pairing_swiss.py, written out from
docs/swiss-draw.md), and every pairing of a small field is enumerated.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournament.draw.test_pairing_swiss import (
    SLOW,
    Event,
    Stats,
    check_draw,
    criteria,
    every_pairing,
    objective,
    ranked,
    tables_of,
)
from tournament.draw import pairing_swiss, pairing_swiss_classes
from tournament.draw.pairing import Draw, Entrant, swiss_pair
from tournament.draw.pairing_swiss_candidates import SwissField
from tournament.draw.pairing_swiss_classes import ClassProblem


def _problem(entrants: Sequence[Entrant], *, protect: bool) -> tuple[ClassProblem, SwissField]:
    field = SwissField.build(entrants, seed=1, protect=protect)
    groups = pairing_swiss._group_numbers(field, list(range(field.n)))
    keys = [field.class_key(i, g) for i, g in enumerate(groups)]
    problem = ClassProblem.of(classes=keys, boundaries=max(groups))
    assert problem is not None
    return problem, field


def _field(data: st.DataObject, n: int) -> list[Entrant]:
    scores = data.draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    departments = data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    seats = data.draw(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=n, max_size=n))
    met = data.draw(st.sets(st.tuples(st.integers(1, n), st.integers(1, n)), max_size=n))
    opponents: dict[int, set[object]] = defaultdict(set)
    for a, b in met:
        if a != b:
            opponents[a].add(b)
            opponents[b].add(a)
    return [
        Entrant(
            id=i,
            rank=i,
            score=scores[i - 1],
            opponents=frozenset(opponents[i]),
            departments={departments[i - 1]},
            seats_ns=seats[i - 1][0],
            seats_ew=seats[i - 1][1],
        )
        for i in range(1, n + 1)
    ]


@settings(SLOW, max_examples=40)
@given(data=st.data(), n=st.sampled_from([2, 4, 6, 8]), protect=st.booleans())
def test_the_class_bound_is_below_every_pairing(data: st.DataObject, n: int, protect: bool) -> None:
    """For every pairing P of a small field and every criterion t: the bound with the criteria
    before t held at P's counts is at most P's count at t (so it bounds every pairing that ties
    a draw so far); with nobody having met anybody, the bound is the best pairing's vector."""
    entrants = _field(data, n)
    problem, _ = _problem(entrants, protect=protect)
    vectors = [objective(p, protect=protect)[1:] for p in every_pairing(ranked(entrants))]
    for t in range(len(vectors[0])):
        fewest: dict[tuple[int, ...], int] = {}
        for v in vectors:
            fewest[v[:t]] = min(fewest.get(v[:t], v[t]), v[t])
        for prefix, least in fewest.items():
            bound = problem.bound(fixed=prefix).vector
            assert len(bound) > t and bound[t] <= least
    if not any(e.opponents for e in entrants):
        assert problem.bound().vector == list(min(vectors))


def test_with_nobody_met_the_bound_is_the_optimum_and_its_pairing_reaches_it() -> None:
    """Twelve pairs in three score groups, two departments and a few seat needs, nobody met:
    the bound equals brute force's best vector, and the class tables become a real pairing."""
    entrants = [
        Entrant(id=i, rank=i, score=(i % 3), departments={i % 2}, seats_ns=i % 4 == 0, seats_ew=0) for i in range(1, 13)
    ]
    problem, field = _problem(entrants, protect=True)
    best = min(objective(p, protect=True)[1:] for p in every_pairing(ranked(entrants)))
    bound = problem.bound()
    assert bound.vector == list(best)
    members = list(range(field.n))
    tables = problem.realize(bound.tables, members, lambda a, b: True, seed=1)
    assert tables is not None and sorted(x for t in tables for x in t) == members
    pairs = [(field.entrants[a], field.entrants[b]) for a, b in tables]
    assert list(objective(pairs, protect=True)[1:]) == bound.vector


def test_the_realized_pairing_has_the_class_tables_and_no_rematch() -> None:
    """A 60-pair event after four rounds with departments protected: the pairing built from the
    bound's class tables repeats no match and has exactly the bound's criteria."""
    event = Event(60, 4, departments=2)
    for round_number in range(1, 5):
        event.play(swiss_pair(entrants=event.entrants(), round_number=round_number, seed=round_number))
    entrants = event.entrants()
    problem, field = _problem(entrants, protect=True)
    bound = problem.bound()
    members = list(range(field.n))
    tables = problem.realize(bound.tables, members, lambda a, b: b not in field.opponents[a], seed=5)
    assert tables is not None and sorted(x for t in tables for x in t) == members
    assert not any(b in field.opponents[a] for a, b in tables)
    pairs = [(field.entrants[a], field.entrants[b]) for a, b in tables]
    assert list(objective(pairs, protect=True)[1:]) == bound.vector


def _hard_field(n: int, rounds: int) -> Event:
    event = Event(n, 7, departments=2)
    for round_number in range(1, rounds + 1):
        draw = swiss_pair(
            entrants=event.entrants(), round_number=round_number, seed=round_number, department_rounds=rounds + 1
        )
        event.play(draw)
    return event


def test_large_fields_at_the_class_bound_keep_it_while_the_order_is_improved_by_groups(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Above ``_WHOLE_LIMIT`` (here lowered to a field of 440) a draw whose class seed ties the
    bound is improved group by group: every guarantee holds, every criterion is proven (the
    checker works out the class bound itself), the criteria are those of the whole matching,
    and the order is no worse than the class seed's."""
    event = _hard_field(440, 6)
    entrants = event.entrants()
    options = {"entrants": entrants, "round_number": 7, "seed": 7, "department_rounds": 7}
    whole = swiss_pair(**options)  # type: ignore[arg-type]
    assert whole.notes["optimality"] == "candidates"
    monkeypatch.setattr(pairing_swiss, "_WHOLE_LIMIT", 400)
    seeds: list[list[tuple[int, int]]] = []
    original = pairing_swiss._Solver._class_seed

    def recorded(self: pairing_swiss._Solver, *args: object, **kwargs: object) -> list[list[tuple[int, int]]]:
        found = original(self, *args, **kwargs)  # type: ignore[arg-type]
        seeds.extend(found)
        return found

    monkeypatch.setattr(pairing_swiss._Solver, "_class_seed", recorded)
    draw = swiss_pair(**options)  # type: ignore[arg-type]
    assert draw.notes["optimality"] == "groups" and draw.notes["parts"]
    check_draw(entrants, draw, allow_rematches=False, protect=True, stats=Stats())
    value = criteria(draw, entrants)
    assert draw.notes["proven"] == len(value)
    assert value == criteria(whole, entrants)
    (seed,) = seeds
    field = SwissField.build(entrants, seed=7, protect=True)
    seed_pairs = [(field.entrants[a], field.entrants[b]) for a, b in seed]
    assert objective(seed_pairs, protect=True) == value
    assert _order(draw, entrants) <= _order_of(seed_pairs, field)


def _order_of(pairs: Sequence[tuple[Entrant, Entrant]], field: SwissField) -> int:
    """The order criterion (docs/swiss-draw.md, 7, "adjacent"): squared rank distance, capped."""
    rank = {e.id: k for k, e in enumerate(field.entrants)}
    return sum(min((rank[a.id] - rank[b.id]) ** 2, 15) for a, b in pairs)


def _order(draw: Draw, entrants: Sequence[Entrant]) -> int:
    return _order_of(tables_of(draw, entrants), SwissField.build(entrants, seed=7, protect=True))


def test_beyond_the_class_limit_the_other_proofs_remain(monkeypatch: pytest.MonkeyPatch) -> None:
    """A field of more classes than ``CLASS_LIMIT`` gets no class bound: the draw is swiss.v5's
    way (the optimum over the candidates), with every guarantee and the other proofs."""
    event = _hard_field(420, 5)
    entrants = event.entrants()
    options = {"entrants": entrants, "round_number": 6, "seed": 6, "department_rounds": 6}
    monkeypatch.setattr(pairing_swiss_classes, "CLASS_LIMIT", 3)
    draw = swiss_pair(**options)  # type: ignore[arg-type]
    assert draw.notes["optimality"] == "candidates"
    check_draw(entrants, draw, allow_rematches=False, protect=True, stats=Stats())


def test_the_class_bound_prints_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    """The draw's command line prints its JSON on standard output: HiGHS must not print there."""
    event = _hard_field(420, 2)
    capfd.readouterr()
    draw = swiss_pair(entrants=event.entrants(), round_number=3, seed=3, department_rounds=3)
    assert draw.notes["proven"]
    assert capfd.readouterr() == ("", "")
