"""Tribute guidance shown between deals (进贡 / 还贡 / 抗贡; docs/rules.md §6; seeds 000, 002, 003).

From the previous deal's finishing order:

- **Single tribute** (上游's partner finished 3rd or last): 下游 gives their highest card (never a heart
  level card) to 上游, who returns a card of rank ≤ 10; the payer leads. After a 1-4 finish 下游 is
  上游's own partner and still pays (the rule names places, not sides).
- **Double tribute** (双下, a 1-2 finish): both opponents pay; 上游 takes the larger card, 二游 the
  smaller; each returns to whoever paid them; the payer to 上游 — the larger card — leads. Equal cards go
  by seating, which is where the variants differ (see :class:`~scoring.options.TributeVariant`) — except
  under ``seed_002`` (seed 002 四(1), docs/rules.md §6: 若输家两人贡牌大小一样，则赢家可以任选输家的牌，输家也
  可以任选赢家所还牌): the winners choose whose card each takes and the losers which return each takes,
  so receivers and leader are left to the table (the loser whose card 上游 took leads).
- **Anti-tribute** (抗贡): the paying side holds both big jokers; no tribute, 上游 leads. The referee
  records it; this module cannot see the cards.

Which card is larger is only known at the table: pass ``larger_tribute_from`` (the payer of the larger
card) or ``equal_cards=True`` to get who receives what and who leads; without either, the guidance says
the rule and leaves receivers and leader open. Checking the cards themselves is
:mod:`scoring.cards_tribute`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from scoring.errors import bad_input
from scoring.finishing_order import FinishingOrder
from scoring.options import TributeVariant
from scoring.seats import Seat

__all__ = ["Transfer", "TributeGuidance", "TributeKind", "tribute_for"]

RETURN_MAX_RANK = 10
"""A returned card has rank ≤ 10 (docs/rules.md §6)."""


class TributeKind(str, Enum):
    SINGLE = "single"
    DOUBLE = "double"
    ANTI_TRIBUTE = "anti_tribute"


@dataclass(frozen=True, slots=True)
class Transfer:
    """One card passed: from ``giver`` to ``receiver`` (None: decided when the tribute cards are
    compared). For returns ``max_rank`` is 10 when the card must be ≤ 10, None when any card will do."""

    giver: Seat
    receiver: Seat | None
    max_rank: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.giver.value,
            "to": self.receiver.value if self.receiver is not None else None,
            "max_rank": self.max_rank,
        }

    def __repr__(self) -> str:
        to = self.receiver.value if self.receiver is not None else "?"
        limit = f" (≤{self.max_rank})" if self.max_rank is not None else ""
        return f"Transfer({self.giver.value}→{to}{limit})"


@dataclass(frozen=True, slots=True)
class TributeGuidance:
    """Who pays whom, who returns to whom, who leads — and the rule in words (English and Chinese)."""

    kind: TributeKind
    tributes: tuple[Transfer, ...]
    returns: tuple[Transfer, ...]
    leader: Seat | None
    """Who leads the next deal; None until the double tribute's cards are compared."""
    note: str
    note_zh: str

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "tributes": [transfer.to_json() for transfer in self.tributes],
            "returns": [transfer.to_json() for transfer in self.returns],
            "leader": self.leader.value if self.leader is not None else None,
            "note": self.note,
            "note_zh": self.note_zh,
        }


def tribute_for(
    *,
    order: FinishingOrder,
    variant: TributeVariant,
    anti_tribute: bool = False,
    larger_tribute_from: Seat | None = None,
    equal_cards: bool = False,
) -> TributeGuidance:
    """The tribute before the next deal, from the previous deal's ``order`` (docs/rules.md §6).

    ``anti_tribute``: the referee recorded 抗贡 (the paying side holds both big jokers).
    ``larger_tribute_from`` / ``equal_cards``: the outcome of comparing a double tribute's two cards.
    """
    first = order.first
    if anti_tribute:
        return TributeGuidance(
            TributeKind.ANTI_TRIBUTE,
            (),
            (),
            first,
            "Anti-tribute: the paying side holds both big jokers, so no tribute; "
            f"{first.value} (上游) leads.",
            f"抗贡：进贡方持有两张大王，不用进贡；由上游 {first.label_zh} 先出牌。",
        )
    any_return = None if variant is TributeVariant.SEED_000 else RETURN_MAX_RANK
    if not order.double_down:
        if larger_tribute_from is not None or equal_cards:
            raise bad_input(
                "Comparing tribute cards only applies to a double tribute (after a 1-2 finish).",
                "比较贡牌大小只适用于双贡（一二名同伴包揽之后）。",
            )
        payer = order.seats[3]
        # docs/rules.md §6's fallback; the older texts (seed 000, 2017) do not have it
        standard = variant in (TributeVariant.STANDARD, TributeVariant.SEED_002)
        smallest = " (if none, their smallest)" if standard else ""
        smallest_zh = "（没有则还最小的牌）" if standard else ""
        return TributeGuidance(
            TributeKind.SINGLE,
            (Transfer(payer, first),),
            (Transfer(first, payer, RETURN_MAX_RANK),),
            payer,
            f"{payer.value} (下游) gives their highest card, never a heart level card, "
            f"to {first.value} (上游), "
            f"who returns a card of rank 10 or lower{smallest}; {payer.value} leads.",
            f"下游 {payer.label_zh} 向上游 {first.label_zh} 进贡手中最大的一张牌（红心级牌除外），"
            f"上游还一张不大于 10 的牌{smallest_zh}；由 {payer.label_zh} 先出牌。",
        )

    second = first.partner
    payers = order.winner.other.seats
    if larger_tribute_from is not None and equal_cards:
        raise bad_input(
            "Give either the payer of the larger tribute card or equal_cards, not both.",
            "请只填写贡大牌者或“贡牌相同”之一。",
        )
    if larger_tribute_from is not None:
        if larger_tribute_from not in payers:
            raise bad_input(
                f"{larger_tribute_from.value} did not pay tribute; the payers are {payers[0].value} and "
                f"{payers[1].value}.",
                f"{larger_tribute_from.label_zh} 不是进贡者；进贡者是 {payers[0].label_zh} 和 {payers[1].label_zh}。",
            )
        larger = larger_tribute_from
        smaller = payers[1] if larger is payers[0] else payers[0]
        return TributeGuidance(
            TributeKind.DOUBLE,
            (Transfer(larger, first), Transfer(smaller, second)),
            (Transfer(first, larger, RETURN_MAX_RANK), Transfer(second, smaller, any_return)),
            larger,
            f"Double tribute: {first.value} (上游) takes {larger.value}'s larger card, {second.value} (二游) "
            f"takes {smaller.value}'s; each returns to whoever paid them; {larger.value} leads.",
            f"双贡：上游 {first.label_zh} 拿 {larger.label_zh} 的大牌，"
            f"二游 {second.label_zh} 拿 {smaller.label_zh} 的牌；"
            f"谁进贡就还给谁；由 {larger.label_zh} 先出牌。",
        )
    if equal_cards and variant is TributeVariant.SEED_002:
        return TributeGuidance(
            TributeKind.DOUBLE,
            (Transfer(payers[0], None), Transfer(payers[1], None)),
            (Transfer(first, None, RETURN_MAX_RANK), Transfer(second, None, RETURN_MAX_RANK)),
            None,
            f"Double tribute with equal cards (seed 002): {first.value} (上游) and {second.value} (二游) "
            f"choose which of {payers[0].value}'s and {payers[1].value}'s cards each takes, and the payers "
            "choose which return each takes; returns are rank 10 or lower; the payer whose card "
            f"{first.value} took leads.",
            f"双贡且贡牌相同（规则 002）：赢家 {first.label_zh}（上游）和 {second.label_zh}（二游）可以任选"
            f"{payers[0].label_zh}、{payers[1].label_zh} 的贡牌，输家也可以任选赢家所还的牌；还牌不大于 10；"
            f"贡给上游 {first.label_zh} 的输家先出牌。",
        )
    if equal_cards:
        if variant is TributeVariant.SEED_000:
            # seed 000: equal cards go counter-clockwise — each payer to the opponent on their right
            to_first = first.left_hand_opponent
            direction = "counter-clockwise (each payer to the opponent on their right)"
            direction_zh = "逆时针"
        else:
            # seed 003 贡左还右: each payer gives to the opponent on their left (上家)
            to_first = first.right_hand_opponent
            direction = "clockwise (each payer to the opponent on their left)"
            direction_zh = "顺时针（贡左还右）"
        to_second = to_first.partner
        return TributeGuidance(
            TributeKind.DOUBLE,
            (Transfer(to_first, first), Transfer(to_second, second)),
            (Transfer(first, to_first, RETURN_MAX_RANK), Transfer(second, to_second, any_return)),
            to_first,
            f"Double tribute with equal cards: they go {direction}: {to_first.value} pays {first.value}, "
            f"{to_second.value} pays {second.value}; returns go back; {to_first.value} leads.",
            f"双贡且贡牌相同：按{direction_zh}进贡：{to_first.label_zh} 贡给 {first.label_zh}，"
            f"{to_second.label_zh} 贡给 "
            f"{second.label_zh}，对应还牌；由 {to_first.label_zh} 先出牌。",
        )
    return TributeGuidance(
        TributeKind.DOUBLE,
        (Transfer(payers[0], None), Transfer(payers[1], None)),
        (Transfer(first, None, RETURN_MAX_RANK), Transfer(second, None, any_return)),
        None,
        f"Double tribute: {payers[0].value} and {payers[1].value} each give their highest card; "
        f"{first.value} (上游) takes the larger, {second.value} (二游) the smaller; each returns to whoever "
        "paid them; the payer of the larger card leads.",
        f"双贡：{payers[0].label_zh} 和 {payers[1].label_zh} 各贡一张最大的牌；上游 {first.label_zh} 拿大的，"
        f"二游 {second.label_zh} 拿小的；谁进贡就还给谁；贡大牌者先出牌。",
    )
