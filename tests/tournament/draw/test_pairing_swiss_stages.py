"""The Swiss criteria as tiers of one weight, solved in stages (tournament/draw/pairing_swiss_stages.py):
each round equals swiss.v1's exact engine whatever the weight's limit, the floors and ceilings of
each tier hold for every perfect pairing, and a weight too small keeps the criteria it solved."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.tournament.draw import reference_swiss_v1 as swiss_v1
from tests.tournament.draw.test_pairing_swiss import SCALE, SLOW, Event, criteria, run_event
from tournament.draw import pairing_swiss, pairing_swiss_stages
from tournament.draw.pairing import DrawError, swiss_pair


@settings(SLOW, max_examples=15 * SCALE)
@given(n=st.integers(6, 25), seed=st.integers(0, 2**32 - 1), bits=st.integers(40, 64))
@example(n=25, seed=11, bits=30)
@example(n=12, seed=11, bits=20)
@example(n=6, seed=11, bits=12)
def test_staged_matching_is_the_exact_optimum(n: int, seed: int, bits: int) -> None:
    """The stages: with the weight limit lowered to ``2**bits`` the vector no longer fits
    one weight on these small hard fields (two departments, protected every round, ten rounds),
    so it is solved a run of criteria at a time — and every round still equals swiss.v1's exact
    engine (and brute force up to 12 entrants, in check_draw)."""
    rounds = min(10, n) if n % 2 else 10
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pairing_swiss_stages, "WEIGHT_LIMIT", 1 << bits)
        stats = run_event(n, seed, rounds=rounds, departments=2, department_rounds=rounds, against_v1="exact")
    if bits < 40:  # the examples: tight enough that rounds take several stages
        assert stats.staged > 0


def _perfect_matchings(
    n: int, tables: Sequence[pairing_swiss_stages.Table]
) -> Iterator[list[pairing_swiss_stages.Table]]:
    """Every perfect matching of positions 0…n-1 over ``tables`` (small n only)."""
    below: dict[int, list[pairing_swiss_stages.Table]] = {}
    for t in tables:
        below.setdefault(t.p, []).append(t)
    chosen: list[pairing_swiss_stages.Table] = []
    taken = [False] * n

    def extend() -> Iterator[list[pairing_swiss_stages.Table]]:
        p = next((v for v in range(n) if not taken[v]), None)
        if p is None:
            yield list(chosen)
            return
        taken[p] = True
        for t in below.get(p, ()):
            if not taken[t.q]:
                taken[t.q] = True
                chosen.append(t)
                yield from extend()
                chosen.pop()
                taken[t.q] = False
        taken[p] = False

    return extend()


@settings(SLOW, max_examples=6 * SCALE)
@given(
    n=st.integers(6, 12),
    seed=st.integers(0, 2**32 - 1),
    departments=st.integers(1, 3),
    allow=st.booleans(),
)
@example(n=12, seed=7, departments=2, allow=True)
def test_the_floors_and_ceilings_of_the_weight_hold_for_every_pairing(
    n: int, seed: int, departments: int, allow: bool
) -> None:
    """swiss.v5 sizes each criterion's range in the weight as U_t - L_t (pairing_swiss_stages):
    L_t must be at most the count of *every* perfect pairing over the candidate tables (fewest
    rematches, department floor or the clash seed's proof, boundary parity, half the entrants'
    least), and U_t at least the optimum's wherever it comes from the best seed. Checked here
    against every perfect pairing of small hard fields, round after round."""
    event = Event(n, seed, departments=departments)
    layouts: list[tuple[Any, list[pairing_swiss_stages.Table]]] = []
    real = pairing_swiss.staged_matching

    def spy(n: int, m: int, tables: list[pairing_swiss_stages.Table], **options: Any) -> pairing_swiss_stages.Staged:
        layout = pairing_swiss_stages._Layout.of(
            n, m, tables, rematches=options["rematches"], departments=options["departments"], floors=options["floors"]
        )
        layout.ceil_from(options["seeds"], {(t.p, t.q): t for t in tables})
        layouts.append((layout, tables))
        return real(n, m, tables, **options)

    checked = 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pairing_swiss, "staged_matching", spy)
        for round_number in range(1, n):
            layouts.clear()
            try:
                draw = swiss_pair(
                    entrants=event.entrants(),
                    round_number=round_number,
                    seed=round_number,
                    department_rounds=n,
                    allow_rematches=allow,
                )
            except DrawError:
                break
            for layout, tables in layouts:
                size = 1 + max(t.q for t in tables)
                every = [layout.counts(matching) for matching in _perfect_matchings(size, tables)]
                for counts in every:
                    assert all(c >= f for c, f in zip(counts, layout.floors, strict=True)), (counts, layout.floors)
                best = min(every)
                k = len(layout.ceilings)
                assert k > 0
                assert best[: k - 1] == layout.ceilings[: k - 1] and best[k - 1] <= layout.ceilings[k - 1]
                checked += 1
            event.play(draw)
    assert checked > 0


def test_a_weight_too_small_for_every_criterion_keeps_the_solved_ones() -> None:
    """When the solved criteria fill the weight before the last is solved (only under a limit
    lowered to 2**20 here; 2**120 holds them all), the draw is still a valid round, says
    "prefix" and how many criteria it solved, and those equal the exact optimum's."""
    event = Event(40, 11, departments=2)
    for round_number in range(1, 10):
        event.play(
            swiss_pair(entrants=event.entrants(), round_number=round_number, seed=round_number, department_rounds=10)
        )
    entrants = event.entrants()
    options: dict[str, Any] = {"entrants": entrants, "round_number": 10, "seed": 10, "department_rounds": 10}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pairing_swiss_stages, "WEIGHT_LIMIT", 1 << 20)
        draw = swiss_pair(**options)
    assert draw.notes["optimality"] == "prefix"
    solved = draw.notes["solved_tiers"]
    assert isinstance(solved, int) and 0 < solved < len(criteria(draw, entrants)) - 1
    assert Counter(x for p in draw.pairings for x in p.entrants) == Counter(e.id for e in entrants)
    assert not any(w.code == "rematch" for w in draw.warnings)
    exact = swiss_v1.swiss_pair(**options, engine="exact")
    # the criteria after the rematches (not a tier when they are not allowed): clashes, seats, …
    assert criteria(draw, entrants)[1 : 1 + solved] == criteria(exact, entrants)[1 : 1 + solved]
