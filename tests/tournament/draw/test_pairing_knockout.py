"""Knockout: fixed brackets with byes (seed 003) and the re-draw every round (seed 004)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournament.draw.reference_edmonds import max_cardinality_matching
from tournament.draw.pairing import (
    DrawError,
    Entrant,
    EntrantId,
    KnockoutBracket,
    MatchRef,
    Seeding,
    knockout_bracket,
    knockout_redraw,
    knockout_round,
    seeding_order,
)
from tournament.draw.pairing_knockout import _pairs_apart
from tournament.draw.pairing_types import OptionValue

SEEDINGS: list[Seeding] = ["seeds", "random"]


def _seeded(n: int) -> list[Entrant]:
    return [Entrant(id=f"p{i}", seed=i) for i in range(1, n + 1)]


def play_out(
    bracket: KnockoutBracket, rng: random.Random, *, favourites: bool = False
) -> tuple[EntrantId, dict[MatchRef, EntrantId], int]:
    """Play every round to the end; return champion, winners and the number of tables played."""
    winners: dict[MatchRef, EntrantId] = {}
    tables = 0
    last_round = 0
    while True:
        try:
            draw = knockout_round(bracket=bracket, winners=winners)
        except DrawError as error:
            assert error.code == "bracket_complete"
            break
        assert draw.round_number > last_round, "rounds come in order"
        last_round = draw.round_number
        seen = [x for p in draw.pairings for x in p.entrants]
        assert len(seen) == len(set(seen)), "nobody twice in a round"
        assert [p.table for p in draw.matches] == list(range(1, len(draw.matches) + 1))
        assert (bracket.rounds, 1) not in winners, "the final is the last match played"
        for p in draw.matches:
            assert p.ew is not None and p.bracket_match is not None
            won = min((p.ns, p.ew), key=bracket.seed_number) if favourites else rng.choice([p.ns, p.ew])
            winners[(draw.round_number, p.bracket_match)] = won
            tables += 1
    champion = winners[(bracket.rounds, 1)]
    return champion, winners, tables


@pytest.mark.parametrize("n", range(2, 71))
def test_seeded_bracket_for_every_field_size(n: int) -> None:
    bracket = knockout_bracket(entrants=_seeded(n), seed=n)
    size = bracket.size
    assert size // 2 < n <= size
    assert size & (size - 1) == 0
    byes = size - n
    first_round = [(bracket.slots[k], bracket.slots[k + 1]) for k in range(0, size, 2)]
    # Byes go to the top seeds, never bye v bye; seed s meets seed size+1-s.
    with_bye = {a or b for a, b in first_round if a is None or b is None}
    assert with_bye == {f"p{s}" for s in range(1, byes + 1)}
    for a, b in first_round:
        if a is not None and b is not None:
            assert bracket.seed_number(a) + bracket.seed_number(b) == size + 1
    # Favourites always win: the top seeds meet as late as possible.
    champion, winners, tables = play_out(bracket, random.Random(n), favourites=True)
    assert champion == "p1"
    assert tables == n - 1
    rounds = bracket.rounds
    if n >= 2:
        assert set(knockout_round_pairs(bracket, winners, rounds)) == {frozenset({"p1", "p2"})}
    if n >= 4:
        assert set(knockout_round_pairs(bracket, winners, rounds - 1)) == {
            frozenset({"p1", "p4"}),
            frozenset({"p2", "p3"}),
        }


def knockout_round_pairs(
    bracket: KnockoutBracket, winners: dict[MatchRef, EntrantId], round_number: int
) -> Iterator[frozenset[EntrantId]]:
    """The tables of a past round, rebuilt from the winners of the rounds before it."""
    earlier = {ref: w for ref, w in winners.items() if ref[0] < round_number}
    draw = knockout_round(bracket=bracket, winners=earlier)
    assert draw.round_number == round_number
    for p in draw.matches:
        yield frozenset(p.entrants)


@settings(deadline=None, max_examples=40)
@given(
    n=st.integers(2, 70),
    seed=st.integers(0, 2**32),
    third=st.booleans(),
    mode=st.sampled_from(["seeds", "random"]),
)
def test_random_results_complete_to_one_champion(n: int, seed: int, third: bool, mode: Seeding) -> None:
    entrants = [Entrant(id=i, seed=i if i % 3 == 0 else None) for i in range(1, n + 1)]
    bracket = knockout_bracket(entrants=entrants, seed=seed, seeding=mode, third_place=third)
    again = knockout_bracket(entrants=entrants, seed=seed, seeding=mode, third_place=third)
    assert bracket == again
    assert Counter(bracket.seeds) == Counter(range(1, n + 1))
    rng = random.Random(seed)
    champion, winners, tables = play_out(bracket, rng)
    plays_third = third and bracket.rounds >= 2
    assert tables == n - 1 + (1 if plays_third and n >= 4 else 0)
    # Every pair but the champion loses exactly once in the main bracket.
    losses: Counter[EntrantId] = Counter()
    for (r, j), w in winners.items():
        if plays_third and r == bracket.rounds and j == 2:
            continue
        draw_pairs = _sides(bracket, winners, r, j)
        losses.update(x for x in draw_pairs if x != w)
    assert set(losses) == set(range(1, n + 1)) - {champion}
    assert all(v == 1 for v in losses.values())
    if mode == "seeds":
        # Organiser seeds become bracket seeds 1, 2, … in their order; byes go to them first.
        seeded = sorted((e for e in entrants if e.seed is not None), key=lambda e: e.seed or 0)
        assert [bracket.seed_number(e.id) for e in seeded] == list(range(1, len(seeded) + 1))


def _sides(bracket: KnockoutBracket, winners: dict[MatchRef, EntrantId], r: int, j: int) -> tuple[EntrantId, ...]:
    earlier = {ref: w for ref, w in winners.items() if ref[0] < r}
    draw = knockout_round(bracket=bracket, winners=earlier)
    (p,) = [p for p in draw.pairings if p.bracket_match == j and not p.third_place]
    return p.entrants


def test_seeding_order_keeps_top_seeds_apart() -> None:
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (2, 4, 8, 16, 32, 64, 128):
        order = seeding_order(size)
        assert sorted(order) == list(range(1, size + 1))
        # The top 2^k seeds sit in different blocks of size/2^k positions.
        block = size
        top = 1
        while block >= 2:
            blocks = [order[i : i + block] for i in range(0, size, block)]
            assert all(sum(1 for s in b if s <= top) <= 1 for b in blocks)
            block //= 2
            top *= 2
    with pytest.raises(ValueError):
        seeding_order(6)


def test_third_place_match_and_walkovers() -> None:
    bracket = knockout_bracket(entrants=_seeded(8), seed=1, third_place=True)
    winners: dict[MatchRef, EntrantId] = {}
    r1 = knockout_round(bracket=bracket, winners=winners)
    assert [(p.table, p.ns, p.ew) for p in r1.pairings] == [
        (1, "p1", "p8"),
        (2, "p2", "p7"),
        (3, "p3", "p6"),
        (4, "p4", "p5"),
    ]
    for p in r1.matches:
        assert p.bracket_match is not None
        winners[(1, p.bracket_match)] = p.ns
    # p4 withdraws before the semi-final: p1 advances by walkover.
    r2 = knockout_round(bracket=bracket, winners=winners, withdrawn={"p4"})
    assert [(p.ns, p.ew) for p in r2.matches] == [("p2", "p3")]
    (walkover,) = r2.byes
    assert walkover.ns == "p1" and [w.code for w in walkover.warnings] == ["walkover"]
    assert r2.notes["walkovers"] == {"p1": "p4"}  # a forfeit win over p4, recorded as the other draws do
    winners[(2, 2)] = "p3"
    final = knockout_round(bracket=bracket, winners=winners, withdrawn={"p4"})
    # The semi lost by walkover has no loser to play for third: p2 takes third without a table.
    assert [(p.ns, p.ew, p.third_place) for p in final.matches] == [("p1", "p3", False)]
    assert [(p.ns, p.third_place) for p in final.byes] == [("p2", True)]
    winners[(3, 1)] = "p3"
    with pytest.raises(DrawError) as caught:
        knockout_round(bracket=bracket, winners=winners, withdrawn={"p4"})
    assert caught.value.code == "bracket_complete"

    # Without walkovers the third-place match is table 2 of the final round.
    # Bracket order is 1-8, 4-5, 2-7, 3-6: the semi-finals are 1 v 4 and 2 v 3.
    winners = {(1, 1): "p1", (1, 2): "p4", (1, 3): "p2", (1, 4): "p3", (2, 1): "p1", (2, 2): "p2"}
    final = knockout_round(bracket=bracket, winners=winners)
    assert [(p.table, p.ns, p.ew, p.third_place, p.bracket_match) for p in final.pairings] == [
        (1, "p1", "p2", False, 1),
        (2, "p3", "p4", True, 2),
    ]


def test_results_that_do_not_fit_the_bracket_are_refused() -> None:
    bracket = knockout_bracket(entrants=_seeded(5), seed=1)
    assert bracket.size == 8
    first = knockout_round(bracket=bracket, winners={})
    assert [(p.ns, p.ew) for p in first.matches] == [("p4", "p5")]
    assert {p.ns for p in first.byes} == {"p1", "p2", "p3"}
    for winners, code in (
        ({(1, 4): "p1"}, "winner_not_in_match"),
        ({(9, 1): "p1"}, "unknown_match"),
        ({(2, 1): "p1"}, "round_not_ready"),
    ):
        with pytest.raises(DrawError) as caught:
            knockout_round(bracket=bracket, winners=winners)
        assert caught.value.code == code and caught.value.message_zh
    # A bye may be confirmed with its pair as the winner.
    assert knockout_round(bracket=bracket, winners={(1, 1): "p1", (1, 2): "p4"}).round_number == 2
    with pytest.raises(DrawError) as caught:
        knockout_bracket(entrants=[Entrant(id=1, seed=1), Entrant(id=2, seed=1)], seed=1)
    assert caught.value.code == "duplicate_seed"
    with pytest.raises(DrawError) as caught:
        knockout_bracket(entrants=[Entrant(id=1), Entrant(id=2, withdrawn=True)], seed=1)
    assert caught.value.code == "too_few_entrants"


@settings(deadline=None, max_examples=30)
@given(
    n=st.integers(2, 40),
    seed=st.integers(0, 2**32),
    departments=st.integers(2, 6),
    mode=st.sampled_from(["seeds", "random"]),
)
def test_bracket_separates_departments_in_round_one(n: int, seed: int, departments: int, mode: Seeding) -> None:
    rng = random.Random(seed)
    entrants = [
        Entrant(id=i, seed=i if i <= n // 4 else None, departments={rng.randrange(departments)})
        for i in range(1, n + 1)
    ]
    bracket = knockout_bracket(entrants=entrants, seed=seed, seeding=mode, department_rounds=1)
    round_one = knockout_round(bracket=bracket, winners={})
    by_id = {e.id: e for e in entrants}
    real = [(by_id[p.ns], by_id[p.ew]) for p in round_one.matches if p.ew is not None]
    clashing = [(a, b) for a, b in real if a.departments & b.departments]
    expected = {frozenset((a.id, b.id)) for a, b in clashing}
    assert {frozenset(w.entrants) for w in bracket.warnings if w.code == "same_department"} == expected
    assert {frozenset(w.entrants) for w in round_one.warnings if w.code == "same_department"} == expected
    if not clashing:
        return
    if mode == "random":
        # Exact: the pairs that play in round one cannot be paired without a clash.
        assert not _can_pair_without_clash([x for t in real for x in t])
    else:
        # Local: no swap of two unseeded pairs removes a clash without creating another.
        seeded = {e.id for e in entrants if e.seed is not None}
        tables = [(a.id, b.id) for a, b in real]
        for k, (a, b) in enumerate(tables):
            if not by_id[a].departments & by_id[b].departments:
                continue
            for mine, partner in ((a, b), (b, a)):
                if mine in seeded:
                    continue
                for j, other_table in enumerate(tables):
                    if j == k:
                        continue
                    for theirs, opposite in (other_table, other_table[::-1]):
                        if theirs in seeded:
                            continue
                        fixes = not by_id[partner].departments & by_id[theirs].departments
                        harmless = not by_id[opposite].departments & by_id[mine].departments
                        assert not (fixes and harmless)


def _can_pair_without_clash(players: list[Entrant]) -> bool:
    index = list(range(len(players)))
    mate: dict[int, int] = {}

    def neighbours(v: int) -> Iterator[int]:
        return (u for u in index if u != v and not players[u].departments & players[v].departments)

    max_cardinality_matching(index, neighbours, mate)
    return len(mate) == len(players)


@settings(deadline=None, max_examples=40)
@given(n=st.integers(2, 70), seed=st.integers(0, 2**32), departments=st.integers(0, 4))
def test_redraw_every_round_until_a_champion(n: int, seed: int, departments: int) -> None:
    rng = random.Random(seed)
    dept = {i: frozenset({rng.randrange(departments)}) if departments else frozenset() for i in range(1, n + 1)}
    alive = list(range(1, n + 1))
    byes: Counter[int] = Counter()
    round_number = 0
    while len(alive) > 1:
        round_number += 1
        entrants = [Entrant(id=i, byes=byes[i], departments=dept[i]) for i in alive]
        draw = knockout_redraw(
            entrants=entrants, round_number=round_number, seed=seed + round_number, department_rounds=2
        )
        assert draw == knockout_redraw(
            entrants=entrants, round_number=round_number, seed=seed + round_number, department_rounds=2
        )
        placed = [x for p in draw.pairings for x in p.entrants]
        assert Counter(placed) == Counter(alive)
        assert len(draw.byes) == len(alive) % 2
        for p in draw.byes:
            fresh = [i for i in alive if byes[i] == 0]
            assert byes[int(p.ns)] == 0 or not fresh
            assert bool(p.warnings) == (byes[int(p.ns)] > 0)
            byes[int(p.ns)] += 1
        clashes = [p for p in draw.matches if dept[int(p.ns)] & dept[int(p.ew or 0)]]
        if round_number <= 2 and clashes:
            players = [next(e for e in entrants if e.id == x) for p in draw.matches for x in p.entrants]
            assert not _can_pair_without_clash(players)
            assert len([w for w in draw.warnings if w.code == "same_department"]) == len(clashes)
        survivors = [p.ns for p in draw.byes] + [rng.choice(p.entrants) for p in draw.matches]
        alive = sorted(int(x) for x in survivors)
    assert round_number == (n - 1).bit_length()


def test_redraw_third_place_and_odd_counts() -> None:
    entrants = [Entrant(id=i, byes=1 if i < 3 else 0) for i in range(1, 6)]
    draw = knockout_redraw(entrants=entrants, round_number=2, seed=4)
    (bye,) = draw.byes
    assert bye.ns in {3, 4, 5} and not bye.warnings
    everyone_had_one = [Entrant(id=i, byes=1) for i in range(1, 4)]
    draw = knockout_redraw(entrants=everyone_had_one, round_number=3, seed=4)
    assert [w.code for w in draw.byes[0].warnings] == ["repeat_bye"]
    final = knockout_redraw(
        entrants=[Entrant(id="a"), Entrant(id="b")],
        round_number=4,
        seed=1,
        third_place=(Entrant(id="c"), Entrant(id="d")),
    )
    assert [(p.table, p.third_place) for p in final.pairings] == [(1, False), (2, True)]
    assert final.as_record()["algorithm"] == "knockout.redraw.v2"
    with pytest.raises(DrawError) as caught:
        knockout_redraw(
            entrants=[Entrant(id="a"), Entrant(id="b")],
            round_number=4,
            seed=1,
            third_place=(Entrant(id="a"), Entrant(id="d")),
        )
    assert caught.value.code == "duplicate_entrant"


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 70), seed=st.integers(0, 2**31 - 1), third=st.booleans(), mode=st.sampled_from(SEEDINGS))
def test_a_bracket_rebuilt_from_its_record_is_the_same_bracket(n: int, seed: int, third: bool, mode: Seeding) -> None:
    bracket = knockout_bracket(entrants=_seeded(n), seed=seed, seeding=mode, third_place=third)
    assert KnockoutBracket.from_record(bracket.as_record()) == bracket


def test_a_rebuilt_bracket_takes_departments_for_its_warnings() -> None:
    entrants = [Entrant(id=i, seed=i, departments={i % 3}) for i in range(1, 9)]
    bracket = knockout_bracket(entrants=entrants, seed=3, department_rounds=2)
    rebuilt = KnockoutBracket.from_record(bracket.as_record(), departments={e.id: e.departments for e in entrants})
    assert rebuilt == bracket
    winners = {(1, p.bracket_match or 0): p.ns for p in knockout_round(bracket=bracket, winners={}).matches}
    assert knockout_round(bracket=rebuilt, winners=winners) == knockout_round(bracket=bracket, winners=winners)


@pytest.mark.parametrize(
    "change",
    [
        {"size": 6},
        {"slots": [1, 2]},
        {"seeds": [2, 1, 3, 4, 5]},
        {"slots": [1, None, 4, 5, 2, None, 3, 3]},
        {"seed": "x"},
    ],
)
def test_a_broken_bracket_record_is_refused(change: dict[str, OptionValue]) -> None:
    record = knockout_bracket(entrants=_seeded(5), seed=1).as_record()
    with pytest.raises(DrawError) as caught:
        KnockoutBracket.from_record({**record, **change})
    assert caught.value.code == "invalid_bracket"


def test_winners_given_for_byes_are_accepted_while_their_round_is_played() -> None:
    # 5 pairs in a bracket of 8: seeds 1-3 have byes; their "wins" may be passed with the results.
    bracket = knockout_bracket(entrants=_seeded(5), seed=1)
    first = knockout_round(bracket=bracket, winners={})
    byes = {(1, p.bracket_match or 0): p.ns for p in first.byes}
    assert len(byes) == 3
    again = knockout_round(bracket=bracket, winners=byes)
    assert again.round_number == 1
    assert [(p.ns, p.ew) for p in again.matches] == [(p.ns, p.ew) for p in first.matches]
    assert sorted(str(p.ns) for p in again.byes) == sorted(str(p.ns) for p in first.byes)


def test_departments_apart_breaks_ties_as_v2_records() -> None:
    """docs/knockout-draw.md, Versions: six pairs drawn as A, C, B, B, B, B (departments). The
    greedy seats A–C and leaves the four B over; a maximum matching seats A and C with a B each,
    one B–B clash remains either way. v1 (Edmonds' augmenting paths) drew (0, 2), (1, 3),
    (4, 5); v2 (rustworkx) draws (0, 2), (1, 5), (3, 4) — the same clashes, another tie-break:
    why the draws are recorded as knockout.bracket.v2 / knockout.redraw.v2."""
    departments = ["A", "C", "B", "B", "B", "B"]
    assert _pairs_apart(6, lambda i, j: departments[i] != departments[j]) == [(0, 2), (1, 5), (3, 4)]


@settings(deadline=None, max_examples=200)
@given(departments=st.lists(st.integers(0, 3), min_size=2, max_size=10).filter(lambda d: len(d) % 2 == 0))
def test_departments_apart_is_a_maximum_matching_keeping_the_greedy(departments: list[int]) -> None:
    """Every pairing of a small field by brute force: _pairs_apart seats as many tables apart as
    any pairing, and of those keeps as many of the lot's greedy tables as any."""
    n = len(departments)

    def apart(i: int, j: int) -> bool:
        return departments[i] != departments[j]

    greedy: set[tuple[int, int]] = set()
    taken: set[int] = set()
    for i in range(n):
        j = next((j for j in range(i + 1, n) if i not in taken and j not in taken and apart(i, j)), None)
        if j is not None:
            greedy.add((i, j))
            taken |= {i, j}

    def pairings(rest: list[int]) -> Iterator[list[tuple[int, int]]]:
        if not rest:
            yield []
            return
        for k in range(1, len(rest)):
            for tail in pairings(rest[1:k] + rest[k + 1 :]):
                yield [(rest[0], rest[k]), *tail]

    def score(tables: list[tuple[int, int]]) -> tuple[int, int]:
        return sum(apart(i, j) for i, j in tables), sum(t in greedy for t in tables)

    found = _pairs_apart(n, apart)
    assert sorted(x for t in found for x in t) == list(range(n))
    assert all(i < j for i, j in found) and found == sorted(found)
    best = max(score(p) for p in pairings(list(range(n))))
    if n - 2 * len(greedy) < 2:
        assert set(found) >= greedy  # the greedy alone: the lot's tables as drawn
    else:
        assert score(found) == best


def test_a_stored_bracket_keeps_its_algorithm() -> None:
    """A bracket drawn by an earlier version is never drawn again: its record keeps the version
    it names (or, without one, the first version) and its rounds carry it."""
    record = knockout_bracket(entrants=_seeded(6), seed=1).as_record()
    assert record["algorithm"] == "knockout.bracket.v2"
    old = KnockoutBracket.from_record({**record, "algorithm": "knockout.bracket.v1"})
    assert knockout_round(bracket=old, winners={}).algorithm == "knockout.bracket.v1"
    unnamed = {k: v for k, v in record.items() if k != "algorithm"}
    assert KnockoutBracket.from_record(unnamed).algorithm == "knockout.bracket.v1"
