"""Property tests for scoring.cards.

The classifier counts ranks and checks what the wild cards can fill; here a brute-force oracle
instead substitutes every non-joker card (13 ranks × 4 suits) for each heart level card and
reads each resulting set of natural cards, which has at most one reading. The two must agree on
random sets of 1–10 cards.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.cards import BIG_JOKER, SMALL_JOKER, Card, PlayType, Reading, Suit, classify, reading_beats
from scoring.cards_beats import beats

SUITS = tuple(Suit)
NON_JOKERS = tuple(Card(rank, suit) for rank in range(2, 15) for suit in SUITS)
DECK = (*NON_JOKERS, *NON_JOKERS, Card(SMALL_JOKER), Card(SMALL_JOKER), Card(BIG_JOKER), Card(BIG_JOKER))
Key = tuple[PlayType, int, int]

PROPERTY_SETTINGS = settings(max_examples=300, deadline=None)


# --- the oracle -----------------------------------------------------------------------------------


def _run_top(ranks: set[int], length: int) -> int | None:
    """The top of ``length`` consecutive ranks, A high or (only as 1) low; None if not a run."""
    if len(ranks) != length:
        return None
    for places in (sorted(ranks), sorted(1 if r == 14 else r for r in ranks)):
        if places[-1] - places[0] == length - 1:
            return places[-1]
    return None


def natural_reading(cards: Sequence[Card]) -> tuple[PlayType, int] | None:
    """The one reading of a set with every wild card already substituted (docs/rules.md §8)."""
    size = len(cards)
    counts = Counter(card.rank for card in cards)
    if size == 1:
        return PlayType.SINGLE, cards[0].rank
    if size == 4 and counts == Counter({SMALL_JOKER: 2, BIG_JOKER: 2}):
        return PlayType.FOUR_JOKERS, BIG_JOKER
    if len(counts) == 1:
        (rank,) = counts
        kinds = {2: PlayType.PAIR, 3: PlayType.TRIPLE}
        if size in kinds:
            return kinds[size], rank
        return (PlayType.BOMB, rank) if rank < SMALL_JOKER and 4 <= size <= 10 else None
    if size == 5 and sorted(counts.values()) == [2, 3]:
        return PlayType.FULL_HOUSE, next(rank for rank, n in counts.items() if n == 3)
    if any(card.is_joker for card in cards):
        return None
    shape = (size, frozenset(counts.values()))
    runs = {(5, frozenset({1})): (5, PlayType.STRAIGHT), (6, frozenset({2})): (3, PlayType.TUBE)}
    runs[(6, frozenset({3}))] = (2, PlayType.PLATE)
    if shape not in runs:
        return None
    length, play_type = runs[shape]
    top = _run_top(set(counts), length)
    if top is None:
        return None
    if play_type is PlayType.STRAIGHT and len({card.suit for card in cards}) == 1:
        return PlayType.STRAIGHT_FLUSH, top
    return play_type, top


def brute_force(cards: Sequence[Card], level: int) -> set[Key]:
    """Every reading by substituting every non-joker card, of every suit, for each wild card."""
    wild = [c for c in cards if c.rank == level and c.suit is Suit.HEARTS]
    naturals = [c for c in cards if not (c.rank == level and c.suit is Suit.HEARTS)]
    if len(cards) == 1 and wild:  # alone, a wild card is just a level card (seed 003)
        return {(PlayType.SINGLE, level, 1)}
    found: set[Key] = set()
    for substitutes in itertools.combinations_with_replacement(NON_JOKERS, len(wild)):
        reading = natural_reading([*naturals, *substitutes])
        if reading is not None:
            found.add((*reading, len(cards)))
    return found


def keys(readings: Sequence[Reading]) -> list[Key]:
    return [(r.type, r.rank, r.size) for r in readings]


# --- strategies -----------------------------------------------------------------------------------


@st.composite
def card_sets(draw: st.DrawFn) -> tuple[tuple[Card, ...], int]:
    """Sets of 1–10 distinct physical cards (so never more than two copies) at a level.

    Uniform sets are rarely plays, so most draws come from a window of a few neighbouring ranks,
    sometimes of one suit, always with the heart level cards and maybe the jokers in the pool.
    """
    level = draw(st.integers(2, 14))
    mode = draw(st.sampled_from(["any", "window", "window", "flush"]))
    pool: Sequence[int] = range(len(DECK))
    if mode != "any":
        low = draw(st.integers(1, 10))
        window = sorted({14 if place == 1 else place for place in range(low, low + 5)})
        ranks = draw(st.sets(st.sampled_from(window), min_size=1, max_size=5))
        suits = {draw(st.sampled_from(SUITS))} if mode == "flush" else set(SUITS)
        jokers = draw(st.booleans())
        pool = [
            i
            for i, card in enumerate(DECK)
            if (card.rank in ranks and card.suit in suits)
            or card.is_wild(level)
            or (jokers and card.is_joker)
        ]
    indices = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=min(10, len(pool)), unique=True))
    return tuple(DECK[i] for i in indices), level


def _copies(rank: int, suits: Sequence[Suit]) -> list[Card]:
    return [Card(rank, suit) for suit in suits] * 2


@st.composite
def plays(draw: st.DrawFn, level: int) -> tuple[Card, ...]:
    """A legal play of a random type, with up to two of its cards replaced by wild cards."""
    kind = draw(st.sampled_from(list(PlayType)))
    rank = draw(st.integers(2, 14))
    suits = draw(st.permutations(SUITS))
    if kind is PlayType.SINGLE:
        cards = [draw(st.sampled_from(DECK))]
    elif kind in (PlayType.PAIR, PlayType.TRIPLE, PlayType.BOMB):
        size = {PlayType.PAIR: 2, PlayType.TRIPLE: 3}.get(kind) or draw(st.integers(4, 8))
        cards = draw(st.permutations(_copies(rank, SUITS)))[:size]
        if kind is PlayType.PAIR and draw(st.booleans()):
            cards = [Card(draw(st.sampled_from([SMALL_JOKER, BIG_JOKER])))] * 2
    elif kind is PlayType.FULL_HOUSE:
        other = draw(st.integers(2, 14).filter(lambda r: r != rank))
        cards = [*_copies(rank, suits)[:3], *_copies(other, suits)[:2]]
    elif kind is PlayType.FOUR_JOKERS:
        cards = [Card(SMALL_JOKER), Card(SMALL_JOKER), Card(BIG_JOKER), Card(BIG_JOKER)]
    else:
        length, per = {PlayType.TUBE: (3, 2), PlayType.PLATE: (2, 3)}.get(kind, (5, 1))
        top = draw(st.integers(length, 14))
        places = [14 if p == 1 else p for p in range(top - length + 1, top + 1)]
        flush = kind is PlayType.STRAIGHT_FLUSH
        cards = [
            Card(p, suits[0] if flush else suits[(i + j) % 4])
            for j, p in enumerate(places)
            for i in range(per)
        ]
    wild = Card(level, Suit.HEARTS)  # it stands for any card but a joker, so jokers stay
    for position in draw(st.lists(st.integers(0, len(cards) - 1), max_size=2, unique=True)):
        if cards.count(wild) < 2 and not cards[position].is_joker:
            cards[position] = wild
    return tuple(cards)


# --- properties -----------------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(card_sets())
def test_classify_agrees_with_brute_force(sample: tuple[tuple[Card, ...], int]) -> None:
    cards, level = sample
    got = classify(cards=cards, level=level).readings
    assert set(keys(got)) == brute_force(cards, level)
    assert len(set(keys(got))) == len(got), "readings are distinct by (type, rank, size)"


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 14).flatmap(lambda level: st.tuples(plays(level), st.just(level))))
def test_plays_agree_with_brute_force(sample: tuple[tuple[Card, ...], int]) -> None:
    cards, level = sample
    got = classify(cards=cards, level=level).readings
    assert got, "a legal play keeps a reading when some of its cards become wild"
    assert set(keys(got)) == brute_force(cards, level)


def test_classify_agrees_with_brute_force_on_seeded_random_sets() -> None:
    """Uniform random sets of 1–10 cards, as the benchmark draws them (mostly nothing, quickly)."""
    rng = random.Random(4)
    for _ in range(400):
        cards = tuple(rng.sample(DECK, rng.randint(1, 10)))
        level = rng.randint(2, 14)
        assert set(keys(classify(cards=cards, level=level).readings)) == brute_force(cards, level), cards


@PROPERTY_SETTINGS
@given(card_sets())
def test_readings_are_ordered_largest_first_and_sized(sample: tuple[tuple[Card, ...], int]) -> None:
    cards, level = sample
    got = classify(cards=cards, level=level).readings
    assert all(r.size == len(cards) for r in got)
    order = [r.order_key for r in got]
    assert order == sorted(order, reverse=True) and len(set(order)) == len(order)


@PROPERTY_SETTINGS
@given(card_sets(), st.randoms(use_true_random=False))
def test_readings_do_not_depend_on_card_order(
    sample: tuple[tuple[Card, ...], int], rng: random.Random
) -> None:
    cards, level = sample
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert classify(cards=shuffled, level=level).readings == classify(cards=cards, level=level).readings


@PROPERTY_SETTINGS
@given(st.integers(2, 14).flatmap(lambda level: st.tuples(plays(level), st.just(level))))
def test_beats_is_irreflexive(sample: tuple[tuple[Card, ...], int]) -> None:
    cards, level = sample
    readings = classify(cards=cards, level=level).readings
    assume(readings)
    assert not reading_beats(readings[0], readings[0])
    assert not beats(play=cards, previous=cards, level=level).beats


@PROPERTY_SETTINGS
@given(st.integers(2, 14).flatmap(lambda level: st.tuples(plays(level), plays(level), st.just(level))))
def test_beats_is_antisymmetric(sample: tuple[tuple[Card, ...], tuple[Card, ...], int]) -> None:
    first, second, level = sample
    a = classify(cards=first, level=level).default
    b = classify(cards=second, level=level).default
    assume(a is not None and b is not None)
    assert a is not None and b is not None
    assert not (reading_beats(a, b) and reading_beats(b, a))
    forward = beats(play=first, previous=second, level=level, declared=a).beats
    backward = beats(play=second, previous=first, level=level, declared=b).beats
    assert not (forward and backward)
    if a.is_bomb_class and b.is_bomb_class and a != b:
        assert forward != backward, "bombs, straight flushes and four jokers are totally ordered"
