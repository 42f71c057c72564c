"""Guandan card combinations: notation, every reading of a set, and "does this play beat that one?".

This is the referee's dispute assistant of docs/rules.md §8 (seeds 000, 002, 003). It is pure
and typed; the CLI (``python -m scoring cards …``), the referee page and the API call the same
keyword-only functions:

- :func:`parse_cards` turns ``"KS,KD,5H,2C,2D"`` into cards (``10`` is accepted for ``T``);
- :func:`classify` lists **every** reading of a set at a level, largest first;
- :func:`scoring.cards_beats.beats` says whether a play beats the previous play, with the reason in words.

Tribute checks (docs/rules.md §6) live in :mod:`scoring.cards_tribute`.

Notation: a card is ``<rank><suit>``: ranks ``2``–``9``, ``T`` (or ``10``), ``J``, ``Q``, ``K``,
``A``; suits ``S`` (spades ♠), ``H`` (hearts ♥), ``C`` (clubs ♣), ``D`` (diamonds ♦). Jokers are ``SJ``
(small, 小王) and ``BJ`` (big, 大王). Two decks are in play (docs/rules.md §1): at most two copies of
each card, so at most two small and two big jokers.

Ranks are integers: 2–14 for 2…A, 16 for the small joker, 17 for the big joker. The level (级) is
2–14. Heart level cards (逢人配) are wild: they stand for any card except a joker (seed 003 §2.2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from scoring.options import WildReading

__all__ = [
    "BIG_JOKER",
    "SMALL_JOKER",
    "Card",
    "CardError",
    "Classification",
    "PlayType",
    "Reading",
    "Suit",
    "classify",
    "format_cards",
    "parse_cards",
    "parse_level",
    "reading_beats",
]

SMALL_JOKER = 16
BIG_JOKER = 17
ACE = 14
LEVEL_VALUE = 15
"""Where a level card ranks for singles, pairs, triples, full houses and bombs: above A, below the
jokers (docs/rules.md §8: big joker > small joker > level card > A > K > … > 2)."""

MAX_COPIES = 2
"""Two decks (docs/rules.md §1): at most two of each card, two small and two big jokers."""

RANK_LABELS: dict[int, str] = {
    **{rank: str(rank) for rank in range(2, 11)},
    11: "J",
    12: "Q",
    13: "K",
    ACE: "A",
    SMALL_JOKER: "SJ",
    BIG_JOKER: "BJ",
}
"""Rank labels as the CLI prints them (``10``, not ``T``)."""

_RANK_LABELS_ZH: dict[int, str] = {**RANK_LABELS, SMALL_JOKER: "小王", BIG_JOKER: "大王"}

_NOTATION_RANKS: dict[int, str] = {**RANK_LABELS, 10: "T"}

_RANKS_BY_TOKEN: dict[str, int] = {
    **{str(rank): rank for rank in range(2, 11)},
    "T": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
    "A": ACE,
}

_JOKERS_BY_TOKEN: dict[str, int] = {"SJ": SMALL_JOKER, "BJ": BIG_JOKER}


class CardError(ValueError):
    """Bad cards or a bad declaration, reported to a referee (English and Chinese).

    Codes:

    - ``bad_card``: a token is not a card (the message names it), or no cards were given;
    - ``too_many_copies``: more than two copies of a card (two decks);
    - ``not_a_play``: the set has no reading as a play (only :func:`beats` raises this);
    - ``bad_declaration``: a declared reading is malformed or not a reading of the play;
    - ``bad_level``: a level outside 2–14 (2…A).
    """

    def __init__(self, code: str, message: str, message_zh: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.message_zh = message_zh

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "message_zh": self.message_zh}}


class Suit(str, Enum):
    """The four suits by their notation letter."""

    SPADES = "S"
    HEARTS = "H"
    CLUBS = "C"
    DIAMONDS = "D"


_SUITS_BY_TOKEN: dict[str, Suit] = {suit.value: suit for suit in Suit}


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card: ``Card(13, Suit.SPADES)`` is ``Card('KS')``; jokers have no suit."""

    rank: int
    suit: Suit | None = None

    def __post_init__(self) -> None:
        if self.rank in (SMALL_JOKER, BIG_JOKER):
            if self.suit is not None:
                raise CardError("bad_card", f"A joker has no suit: {self.rank}.", "王牌没有花色。")
        elif not (2 <= self.rank <= ACE and isinstance(self.suit, Suit)):
            raise CardError(
                "bad_card",
                f"Not a card: rank {self.rank!r}, suit {self.suit!r}.",
                f"不是一张牌：点数 {self.rank!r}，花色 {self.suit!r}。",
            )

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse one card in notation (``KS``, ``TH``, ``10H``, ``SJ``, ``BJ``; case-insensitive)."""
        text = token.strip().upper()
        joker = _JOKERS_BY_TOKEN.get(text)
        if joker is not None:
            return cls(joker)
        rank = _RANKS_BY_TOKEN.get(text[:-1])
        suit = _SUITS_BY_TOKEN.get(text[-1:])
        if rank is None or suit is None:
            raise CardError(
                "bad_card",
                f"Not a card: {token.strip()!r} (write rank then suit, e.g. KS, TH, 10D; jokers SJ, BJ).",
                f"无法识别的牌：{token.strip()!r}（先写点数再写花色，如 KS、TH、10D；小王 SJ，大王 BJ）。",
            )
        return cls(rank, suit)

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def is_wild(self, level: int) -> bool:
        """A heart level card (逢人配) is wild (docs/rules.md §8)."""
        return self.rank == level and self.suit is Suit.HEARTS

    def __str__(self) -> str:
        if self.suit is None:
            return RANK_LABELS[self.rank]
        return _NOTATION_RANKS[self.rank] + self.suit.value

    def __repr__(self) -> str:
        return f"Card('{self}')"


def format_cards(cards: Iterable[Card]) -> str:
    """The notation of a set, comma-separated, in the given order: ``KS,KD,5H``."""
    return ",".join(str(card) for card in cards)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse a set such as ``"KS,KD,5H,2C,2D"`` (commas and/or spaces) and check the copy limit.

    Raises :class:`CardError` ``bad_card`` naming the first bad token (or when there are no
    cards) and ``too_many_copies`` for a third copy of a card or a third joker of a colour.
    """
    tokens = [token for token in re.split(r"[,\s]+", text) if token]
    if not tokens:
        raise CardError("bad_card", "No cards given.", "没有输入任何牌。")
    cards = tuple(Card.parse(token) for token in tokens)
    check_copies(cards)
    return cards


def check_copies(cards: Iterable[Card]) -> None:
    """Two decks: at most two copies of each card, two small and two big jokers (docs/rules.md §1)."""
    seen: dict[Card, int] = {}
    for card in cards:
        count = seen.get(card, 0) + 1
        if count > MAX_COPIES:
            raise CardError(
                "too_many_copies",
                f"Too many copies of {card}: two decks hold only {MAX_COPIES} of each card.",
                f"{card} 的张数过多：两副牌中每种牌只有 {MAX_COPIES} 张。",
            )
        seen[card] = count


def parse_level(text: str | int) -> int:
    """A level as 2–14 or a rank label (``2``…``10``, ``T``, ``J``, ``Q``, ``K``, ``A``)."""
    if isinstance(text, int):
        level: int | None = text
    else:
        token = text.strip().upper()
        level = _RANKS_BY_TOKEN.get(token)
        if level is None and token.isascii() and token.isdigit():  # "³".isdigit(), but int("³") fails
            level = int(token)
    if level is None or not 2 <= level <= ACE:
        raise CardError(
            "bad_level",
            f"Not a level: {text!r} (2–10, J, Q, K or A).",
            f"级数无效：{text!r}（应为 2–10、J、Q、K 或 A）。",
        )
    return level


def _as_cards(cards: str | Iterable[Card]) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_cards(cards)
    result = tuple(cards)
    if not result:
        raise CardError("bad_card", "No cards given.", "没有输入任何牌。")
    check_copies(result)
    return result


class PlayType(str, Enum):
    """The ten play types of docs/rules.md §8 (seed 003 §2.1)."""

    SINGLE = "single"  # 单张
    PAIR = "pair"  # 对子
    TRIPLE = "triple"  # 三同张
    FULL_HOUSE = "full_house"  # 三带二
    STRAIGHT = "straight"  # 顺子
    TUBE = "tube"  # 三连对 (木板)
    PLATE = "plate"  # 钢板 (二连三)
    BOMB = "bomb"  # 炸弹
    STRAIGHT_FLUSH = "straight_flush"  # 同花顺 (火箭)
    FOUR_JOKERS = "four_jokers"  # 四大天王 (天王炸)

    @property
    def name_zh(self) -> str:
        return _TYPE_NAMES_ZH[self]

    @property
    def words(self) -> str:
        return self.value.replace("_", " ")


_TYPE_NAMES_ZH: dict[PlayType, str] = {
    PlayType.SINGLE: "单张",
    PlayType.PAIR: "对子",
    PlayType.TRIPLE: "三同张",
    PlayType.FULL_HOUSE: "三带二",
    PlayType.STRAIGHT: "顺子",
    PlayType.TUBE: "三连对",
    PlayType.PLATE: "钢板",
    PlayType.BOMB: "炸弹",
    PlayType.STRAIGHT_FLUSH: "同花顺",
    PlayType.FOUR_JOKERS: "四大天王",
}

_SEQUENCES = frozenset({PlayType.STRAIGHT, PlayType.TUBE, PlayType.PLATE, PlayType.STRAIGHT_FLUSH})
"""Types whose rank is the top card in natural order (the level card in its natural place)."""

_BOMB_CLASS = frozenset({PlayType.BOMB, PlayType.STRAIGHT_FLUSH, PlayType.FOUR_JOKERS})

_NON_BOMB_PRECEDENCE: dict[PlayType, int] = {
    PlayType.SINGLE: 1,
    PlayType.PAIR: 2,
    PlayType.TUBE: 3,
    PlayType.TRIPLE: 4,
    PlayType.PLATE: 5,
    PlayType.FULL_HOUSE: 6,
    PlayType.STRAIGHT: 7,
}
"""How non-bomb readings of one set are ordered when their types differ.

Non-bomb types never beat one another, so docs/rules.md is silent; we follow the order in which
seed 003 §2.1 lists the types (单张, 对子, 三连对, 三同张, 二连三, 三带二, 顺子), later = larger. Only a
plate and a tube can both read the same set (e.g. ``3,3,4,4`` + two wilds), and then the plate
comes first and is the default.
"""


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a set as a play: type, rank and size, at a level.

    ``rank`` is the rank that compares: the card's rank for singles, pairs, triples and bombs,
    the triple's for a full house (compared by the triple only), the top card for straights,
    tubes, plates and straight flushes (so A2345 has rank 5, AA2233 rank 3, AAA222 rank 2), and the
    big joker for four jokers. ``level`` says where level cards rank (docs/rules.md §8).
    """

    type: PlayType
    rank: int
    size: int
    level: int

    @property
    def label(self) -> str:
        """The rank label: ``2``–``10``, ``J``, ``Q``, ``K``, ``A``, ``SJ``, ``BJ``."""
        return RANK_LABELS[self.rank]

    @property
    def value(self) -> int:
        """The rank's strength within its type: a level card is above A except in sequences."""
        if self.rank == self.level and self.type not in _SEQUENCES:
            return LEVEL_VALUE
        return self.rank

    @property
    def is_bomb_class(self) -> bool:
        """Bombs, straight flushes and four jokers beat every other type (docs/rules.md §8)."""
        return self.type in _BOMB_CLASS

    @property
    def order_key(self) -> tuple[int, int, int]:
        """Larger is larger. Four jokers > bombs of 6+ (by count, then rank) > straight flushes
        (by top card) > bombs of 4–5 (by count, then rank) > every other type (by
        :data:`_NON_BOMB_PRECEDENCE`, then rank). Within the bomb class this is exactly "beats"."""
        if self.type is PlayType.FOUR_JOKERS:
            return (4, 0, 0)
        if self.type is PlayType.BOMB:
            return (3 if self.size >= 6 else 1, self.size, self.value)
        if self.type is PlayType.STRAIGHT_FLUSH:
            return (2, 0, self.rank)
        return (0, _NON_BOMB_PRECEDENCE[self.type], self.value)

    def describe(self) -> str:
        """In words for a referee: ``full house with triple K``, ``5-card bomb of 8``."""
        label = self.label
        if self.rank == self.level and self.type not in _SEQUENCES:
            label += " (level card)"
        if self.type is PlayType.FOUR_JOKERS:
            return "four jokers"
        if self.type is PlayType.BOMB:
            return f"{self.size}-card bomb of {label}"
        if self.type in _SEQUENCES:
            return f"{self.type.words} up to {label}"
        if self.type is PlayType.FULL_HOUSE:
            return f"full house with triple {label}"
        if self.type is PlayType.PAIR:
            return f"pair of {label}"
        return f"{self.type.words} {label}"

    def describe_zh(self) -> str:
        """The same in Chinese: ``三带二（三张K）``, ``5张8炸弹``."""
        label = _RANK_LABELS_ZH[self.rank]
        if self.rank == self.level and self.type not in _SEQUENCES:
            label += "（级牌）"
        if self.type is PlayType.FOUR_JOKERS:
            return "四大天王"
        if self.type is PlayType.BOMB:
            return f"{self.size}张{label}炸弹"
        if self.type in _SEQUENCES:
            return f"{self.type.name_zh}（到{label}）"
        if self.type is PlayType.FULL_HOUSE:
            return f"三带二（三张{label}）"
        return f"{self.type.name_zh}{label}"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type.value, "rank": self.label, "size": self.size}

    def __repr__(self) -> str:
        return f"Reading({self.type.value} {self.label} ×{self.size})"


def reading_beats(play: Reading, previous: Reading) -> bool:
    """Whether one reading beats another (docs/rules.md §8; seed 003 §2.3).

    Four jokers beat everything; bombs of 6+ cards beat straight flushes; straight flushes beat
    bombs of 4–5 cards; any bomb or straight flush beats every non-bomb type; bombs compare by
    card count, then rank; straight flushes by their top card; every other type only beats the
    same type of the same length, by rank.
    """
    if play.is_bomb_class or previous.is_bomb_class:
        if play.is_bomb_class and previous.is_bomb_class:
            return play.order_key > previous.order_key
        return play.is_bomb_class
    return play.type is previous.type and play.size == previous.size and play.value > previous.value


# --- classification -------------------------------------------------------------------------------

_ALL_RANKS_HIGH_FIRST = tuple(range(ACE, 1, -1))


def _sequence_tops(distinct: list[int], counts: list[int], length: int, per_rank: int) -> list[int]:
    """Top cards of every window of ``length`` consecutive ranks that holds the natural cards.

    A is low (rank 1) only in a window starting at A (A2345, AA2233, AAA222) and high in one
    ending at A; there is no wrap-around (docs/rules.md §8). Each rank may hold at most ``per_rank``
    natural cards; the wild cards fill the rest, since the window has exactly as many places as
    the set has cards.
    """
    if not distinct:  # cannot happen for 5 or 6 cards with at most two wilds
        return []
    for rank in distinct:
        if counts[rank] > per_rank:
            return []
    tops: list[int] = []
    variants = [distinct]
    if ACE in distinct:
        variants.append([1 if rank == ACE else rank for rank in distinct])
    for places in variants:
        low, high = min(places), max(places)
        first, last = max(high, length), min(low + length - 1, ACE)
        tops.extend(range(last, first - 1, -1))
    return tops


def _readings(cards: Sequence[Card], level: int) -> list[Reading]:
    """Every reading, largest first, by counting ranks and checking what the wilds can fill.

    The tests check this against a brute-force enumerator that substitutes every non-joker card
    for each wild card (tests/scoring/test_cards_properties.py).
    """
    size = len(cards)
    if not 1 <= size <= 10:  # the largest play is a 10-card bomb (8 natural + 2 wild)
        return []
    counts = [0] * 18
    distinct: list[int] = []  # natural non-joker ranks, in order of appearance
    wilds = 0
    for card in cards:
        rank = card.rank
        if rank == level and card.suit is Suit.HEARTS:
            wilds += 1
            continue
        if counts[rank] == 0 and rank < SMALL_JOKER:
            distinct.append(rank)
        counts[rank] += 1
    jokers = counts[SMALL_JOKER] + counts[BIG_JOKER]
    same_jokers = counts[SMALL_JOKER] == 2 or counts[BIG_JOKER] == 2

    if size == 1:  # a lone wild card is just a level card (seed 003 §2.2)
        return [Reading(PlayType.SINGLE, level if wilds else cards[0].rank, 1, level)]
    if size == 2:
        if jokers:  # SJ SJ and BJ BJ are pairs; a mixed pair, or a joker with a wild, is nothing
            joker = SMALL_JOKER if counts[SMALL_JOKER] == 2 else BIG_JOKER
            return [Reading(PlayType.PAIR, joker, 2, level)] if jokers == 2 and same_jokers else []
        if wilds == 2:  # two wild cards: a pair of any rank, the level's first
            ranks = sorted(
                _ALL_RANKS_HIGH_FIRST, key=lambda r: LEVEL_VALUE if r == level else r, reverse=True
            )
            return [Reading(PlayType.PAIR, rank, 2, level) for rank in ranks]
        return [Reading(PlayType.PAIR, distinct[0], 2, level)] if len(distinct) == 1 else []
    if jokers:
        if size == 4 and counts[SMALL_JOKER] == 2 and counts[BIG_JOKER] == 2:
            return [Reading(PlayType.FOUR_JOKERS, BIG_JOKER, 4, level)]
        if size == 5 and jokers == 2 and same_jokers and len(distinct) == 1:
            # a full house whose pair is two identical jokers; the rest is one rank (or wilds)
            return [Reading(PlayType.FULL_HOUSE, distinct[0], 5, level)]
        return []

    readings: list[Reading] = []
    if len(distinct) == 1:
        rank = distinct[0]
        if size == 3:
            return [Reading(PlayType.TRIPLE, rank, 3, level)]
        if size >= 4:
            readings.append(Reading(PlayType.BOMB, rank, size, level))
    if size == 5:
        _add_full_houses(readings, distinct, counts, wilds, level)
        _add_straights(readings, cards, distinct, counts, wilds, level)
    elif size == 6:
        for top in _sequence_tops(distinct, counts, 3, 2):
            readings.append(Reading(PlayType.TUBE, top, 6, level))
        for top in _sequence_tops(distinct, counts, 2, 3):
            readings.append(Reading(PlayType.PLATE, top, 6, level))
    if len(readings) > 1:
        readings.sort(key=_order_key, reverse=True)
    return readings


def _order_key(reading: Reading) -> tuple[int, int, int]:
    return reading.order_key


def _add_full_houses(
    readings: list[Reading], distinct: list[int], counts: list[int], wilds: int, level: int
) -> None:
    """Three of one rank and two of another (no jokers here; joker pairs are handled earlier)."""
    if len(distinct) == 1:
        if counts[distinct[0]] == 3 and wilds == 2:  # the two wilds make the pair
            readings.append(Reading(PlayType.FULL_HOUSE, distinct[0], 5, level))
    elif len(distinct) == 2:
        first, second = distinct
        if counts[first] <= 3 and counts[second] <= 2:
            readings.append(Reading(PlayType.FULL_HOUSE, first, 5, level))
        if counts[second] <= 3 and counts[first] <= 2:
            readings.append(Reading(PlayType.FULL_HOUSE, second, 5, level))


def _add_straights(
    readings: list[Reading],
    cards: Sequence[Card],
    distinct: list[int],
    counts: list[int],
    wilds: int,
    level: int,
) -> None:
    """Straights and straight flushes of exactly five cards.

    A wild may stand for a card of any suit, so a straight flush that needs a wild is also a
    plain straight; one of natural cards only is only a straight flush (docs/rules.md §8, seed 003).
    """
    tops = _sequence_tops(distinct, counts, 5, 1)
    if not tops:
        return
    suits = {card.suit for card in cards if not card.is_wild(level)}
    flush = len(suits) == 1
    for top in tops:
        if flush:
            readings.append(Reading(PlayType.STRAIGHT_FLUSH, top, 5, level))
        if wilds or not flush:
            readings.append(Reading(PlayType.STRAIGHT, top, 5, level))


@dataclass(frozen=True, slots=True)
class Classification:
    """Every reading of a set at a level, largest first, and the default reading by ``wild_reading``
    (docs/rules.md §8): the largest (seed 003) or seed 000's stated example."""

    cards: tuple[Card, ...]
    level: int
    readings: tuple[Reading, ...]
    wild_reading: WildReading = WildReading.LARGEST

    @property
    def default(self) -> Reading | None:
        """The reading a play is unless the player declares another.

        - ``largest`` (seed 003: 红心级牌组牌有多种配法时默认配成最大牌): the first reading;
        - ``stated_example`` (seed 000: X4567,相当于34567(或45678须出牌时说明)): the wild cards take the
          lowest place that keeps the largest reading's type and size — ♥X+4567 is 34567, K+K+♥X+2+2 is
          KK222, ♥X+4♥5♥6♥7♥ the straight flush to 7. Wild cards played alone are read as themselves
          (two heart level cards are a pair of the level; seed 003: 逢人配和其他牌配合使用才能变化).
        """
        readings = self.readings
        if not readings:
            return None
        first = readings[0]
        if self.wild_reading is WildReading.LARGEST or all(card.is_wild(self.level) for card in self.cards):
            return first
        lowest = first
        for reading in readings:
            if reading.type is first.type and reading.size == first.size:
                lowest = reading  # readings are ordered largest first: the last match is the lowest
        return lowest

    @property
    def ordered(self) -> tuple[Reading, ...]:
        """The readings with the default first, then the others largest first (how :func:`beats` tries
        an undeclared play)."""
        default = self.default
        if default is None or default is self.readings[0]:
            return self.readings
        return (default, *(reading for reading in self.readings if reading is not default))

    def reading(self, declared: str | Reading) -> Reading:
        """The reading a player declared, as ``TYPE:RANK`` (``straight:J``), ``TYPE`` alone (the
        largest reading of that type) or a :class:`Reading`. Raises ``bad_declaration`` when the
        set cannot be read that way."""
        wanted_rank: int | None
        wanted_size: int | None = None
        if isinstance(declared, Reading):
            wanted_type, wanted_rank, wanted_size = declared.type, declared.rank, declared.size
            text = f"{declared.type.value}:{declared.label}"
        else:
            wanted_type, wanted_rank = parse_declaration(declared)
            text = declared.strip()
        for reading in self.readings:
            if (
                reading.type is wanted_type
                and wanted_rank in (None, reading.rank)
                and wanted_size in (None, reading.size)
            ):
                return reading
        options = ", ".join(f"{r.type.value}:{r.label}" for r in self.readings) or "none"
        options_zh = "、".join(r.describe_zh() for r in self.readings) or "无"
        raise CardError(
            "bad_declaration",
            f"{format_cards(self.cards)} cannot be read as {text}; its readings are: {options}.",
            f"{format_cards(self.cards)} 不能配成 {text}；可以的配法：{options_zh}。",
        )

    def to_json(self) -> dict[str, Any]:
        default = self.default
        return {
            "readings": [reading.to_json() for reading in self.readings],
            "default": default.to_json() if default is not None else None,
        }

    def __repr__(self) -> str:
        readings = ", ".join(repr(r) for r in self.readings)
        return f"Classification({format_cards(self.cards)} @ {RANK_LABELS[self.level]}: [{readings}])"


def _check_level(level: int) -> int:
    """The level, or ``bad_level`` (a view may pass on whatever a form gave it)."""
    if isinstance(level, bool) or not isinstance(level, int):
        return parse_level(str(level))
    return parse_level(level)


def classify(
    *, cards: str | Iterable[Card], level: int, wild_reading: WildReading = WildReading.LARGEST
) -> Classification:
    """Every reading of ``cards`` as one play at ``level``, largest first (docs/rules.md §8); the default
    reading follows ``wild_reading`` (:attr:`Classification.default`).

    The heart level cards (逢人配, at most two) stand for any non-joker card of any suit; a lone
    one is just a level card (seed 003). Two of them alone are a pair of any rank, the level's
    first: only "alone, one" is restricted by the rules. Readings are distinct by (type, rank,
    size) and ordered by :attr:`Reading.order_key`: four jokers, bombs of 6+, straight flushes,
    bombs of 4–5, then the other types. A set with no reading is not an error here: ``readings``
    is empty and ``default`` is None.

    ``cards`` is notation (``"KS,KD,5H,2C,2D"``) or cards; more than two copies of a card is
    ``too_many_copies``.
    """
    level = _check_level(level)
    card_tuple = _as_cards(cards)
    return Classification(card_tuple, level, tuple(_readings(card_tuple, level)), wild_reading)


def parse_declaration(text: str) -> tuple[PlayType, int | None]:
    """Parse ``TYPE:RANK`` (``full_house:K``, ``straight:10``, ``pair:SJ``) or ``TYPE`` alone.

    TYPE is a :class:`PlayType` value (case-insensitive, ``-`` or space for ``_``) or its Chinese
    name; RANK is a rank label (``T`` or ``10``), for sequences the top card (A2345 is ``5``).
    """
    type_text, _, rank_text = text.strip().partition(":")
    key = re.sub(r"[\s-]+", "_", type_text.strip().lower())
    play_type = _TYPES_BY_NAME.get(key)
    rank: int | None = None
    rank_token = rank_text.strip().upper()
    if rank_token:
        rank = _RANKS_BY_TOKEN.get(rank_token) or _JOKERS_BY_TOKEN.get(rank_token)
    if play_type is None or (rank_token and rank is None):
        raise CardError(
            "bad_declaration",
            f"Not a declaration: {text!r} (write TYPE:RANK, e.g. straight:J or full_house:K; types: "
            + ", ".join(t.value for t in PlayType)
            + ").",
            f"无法识别的声明：{text!r}（格式为 牌型:点数，如 straight:J 或 三带二:K）。",
        )
    return play_type, rank


_TYPES_BY_NAME: dict[str, PlayType] = {
    **{play_type.value: play_type for play_type in PlayType},
    **{name: play_type for play_type, name in _TYPE_NAMES_ZH.items()},
    "fullhouse": PlayType.FULL_HOUSE,
    "straightflush": PlayType.STRAIGHT_FLUSH,
}
