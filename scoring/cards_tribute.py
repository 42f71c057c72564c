"""Tribute (进贡) checks a referee can run between deals (docs/rules.md §6; seeds 000, 002, 003).

- :func:`tribute_check`: is the tribute card the payer's highest card, heart level cards (逢人配)
  excluded?
- :func:`return_check`: is the card given back (还贡) allowed under the event's tribute variant?
- :func:`anti_tribute_check`: does the paying side hold both big jokers (抗贡), so no tribute?

"Highest" and "rank ≤ 10" use the order of the cards' points (牌点) that the rulebooks define:
big joker > small joker > level card > A > K > … > 2 (seed 003 §2.3, seed 002 §2). So a level
card counts as above A here: it is a fine tribute, and it is never a "≤ 10" return card, even
when the level is 10 or lower.

The functions are keyword-only; cards are notation (``"KS,5H"``) or :class:`~scoring.cards.Card`
objects; a bad card raises :class:`~scoring.cards.CardError` as in :mod:`scoring.cards`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.cards import (
    BIG_JOKER,
    LEVEL_VALUE,
    Card,
    CardError,
    check_copies,
    format_cards,
    parse_cards,
    parse_level,
)
from scoring.options import TributeVariant

__all__ = ["RETURN_MAX_RANK", "TributeCheck", "anti_tribute_check", "points", "return_check", "tribute_check"]

RETURN_MAX_RANK = 10
"""A returned card must be 10 or lower (seed 003: 牌点不得超过10; seed 002: 小于或等于10点)."""


@dataclass(frozen=True, slots=True)
class TributeCheck:
    """A yes/no answer for a referee, with the reason in English and Chinese."""

    ok: bool
    reason: str
    reason_zh: str

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "reason": self.reason, "reason_zh": self.reason_zh}

    def __repr__(self) -> str:
        return f"TributeCheck({'ok' if self.ok else 'not ok'}: {self.reason})"


def points(card: Card, level: int) -> int:
    """A card's points (牌点) for tribute: jokers 16–17, level cards 15, then A 14 … 2 (seed 003 §2.3)."""
    return LEVEL_VALUE if card.rank == level else card.rank


def _card(card: str | Card) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def _hand(hand: str | Iterable[Card]) -> tuple[Card, ...]:
    if isinstance(hand, str):
        return parse_cards(hand)
    cards = tuple(hand)
    check_copies(cards)
    return cards


def _not_in_hand(card: Card, hand: tuple[Card, ...]) -> TributeCheck:
    return TributeCheck(
        False,
        f"{card} is not in the hand {format_cards(hand)}.",
        f"{card} 不在手牌 {format_cards(hand)} 中。",
    )


def tribute_check(*, card: str | Card, hand: str | Iterable[Card], level: int) -> TributeCheck:
    """Whether ``card`` is a correct tribute from ``hand`` (the payer's cards before paying).

    The payer gives their highest card by points, never a heart level card (docs/rules.md §6; seed
    003: 进贡全手牌中牌点最大的一张牌（红心级牌除外）). Cards of equal points are equally good: any
    suit of the highest rank will do.
    """
    level = parse_level(level)
    tribute, cards = _card(card), _hand(hand)
    if tribute not in cards:
        return _not_in_hand(tribute, cards)
    if tribute.is_wild(level):
        return TributeCheck(
            False,
            f"{tribute} is a heart level card (wild); it is never paid as tribute.",
            f"{tribute} 是红心级牌（逢人配），不能进贡。",
        )
    highest = max(points(c, level) for c in cards if not c.is_wild(level))
    if points(tribute, level) < highest:
        better = next(c for c in cards if not c.is_wild(level) and points(c, level) == highest)
        return TributeCheck(
            False,
            f"{tribute} is not the highest card: the hand holds {better} (heart level cards excluded).",
            f"{tribute} 不是最大的牌：手中还有 {better}（红心级牌除外）。",
        )
    return TributeCheck(
        True,
        f"{tribute} is the highest card in the hand, heart level cards excluded.",
        f"{tribute} 是手中最大的牌（红心级牌除外）。",
    )


def return_check(
    *,
    card: str | Card,
    hand: str | Iterable[Card],
    level: int,
    variant: TributeVariant,
    returner_is_top: bool = True,
) -> TributeCheck:
    """Whether ``card`` may be given back from ``hand`` (the returner's cards, tribute received).

    - ``standard`` and ``national_2017``: every returned card has points ≤ 10 (docs/rules.md §6,
      seed 002: 所还牌要小于或等于10点, for both returners after a double-down); a returner who has
      no such card returns their smallest.
    - ``seed_000``: only 上游's return must be ≤ 10 (seed 000: 上游还牌给下游必须是10以下); after a
      double-down the partner (二游, ``returner_is_top=False``) may return any card.

    The "smallest card" fallback applies in every variant (seed 000 does not say, but a hand
    without a card ≤ 10 cannot obey it otherwise). Level cards count above A (module docstring).
    """
    level = parse_level(level)
    variant = TributeVariant(variant)
    returned, cards = _card(card), _hand(hand)
    if returned not in cards:
        return _not_in_hand(returned, cards)
    if variant is TributeVariant.SEED_000 and not returner_is_top:
        return TributeCheck(
            True,
            "Under seed 000's rules only 上游's return must be 10 or lower; 二游 may return any card.",
            "按开发区规则（seed 000），只有上游还牌须为10以下，二游还牌不限。",
        )
    value = points(returned, level)
    level_note = " (a level card ranks above A)" if returned.rank == level else ""
    level_note_zh = "（级牌大于A）" if returned.rank == level else ""
    if value <= RETURN_MAX_RANK:
        return TributeCheck(True, f"{returned} is 10 or lower.", f"{returned} 不超过10。")
    if any(points(c, level) <= RETURN_MAX_RANK for c in cards):
        return TributeCheck(
            False,
            f"{returned} is above 10{level_note}; the return must be 10 or lower.",
            f"{returned} 大于10{level_note_zh}；还牌必须是10以下（含10）的牌。",
        )
    smallest = min(points(c, level) for c in cards)
    if value == smallest:
        return TributeCheck(
            True,
            f"The hand holds no card of 10 or lower, and {returned} is its smallest card.",
            f"手中没有10以下的牌，{returned} 是最小的牌。",
        )
    return TributeCheck(
        False,
        f"The hand holds no card of 10 or lower, so the smallest must be returned; {returned} is not it.",
        f"手中没有10以下的牌，应还最小的牌；{returned} 不是最小的。",
    )


def anti_tribute_check(*, payer_hands: Sequence[str | Iterable[Card]]) -> TributeCheck:
    """Whether the paying side holds both big jokers, so pays no tribute (抗贡, docs/rules.md §6).

    ``payer_hands`` are the hands of those who would pay: 下游 alone for a single tribute, both
    losers after a double-down (together, as seeds 000 and 002 say: 二人各抓到一个大王或一方抓到两个).
    ``ok`` is True when the tribute is waived; 上游 then leads.
    """
    hands = [_hand(hand) for hand in payer_hands]
    if not 1 <= len(hands) <= 2:
        raise CardError(
            "bad_card",
            "Give the hand of each paying player: one (single tribute) or two (double-down).",
            "请输入进贡者的手牌：单贡一手，双下两手。",
        )
    big_jokers = sum(1 for hand in hands for card in hand if card.rank == BIG_JOKER)
    if big_jokers >= 2:
        return TributeCheck(
            True,
            "The paying side holds both big jokers: no tribute (anti-tribute); 上游 leads.",
            "进贡方抓到两个大王，抗贡，不用进贡，由上游出牌。",
        )
    return TributeCheck(
        False,
        f"The paying side holds {big_jokers} big joker(s), not both: tribute is paid.",
        f"进贡方只有 {big_jokers} 个大王，须进贡。",
    )
