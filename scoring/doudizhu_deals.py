"""Dou Dizhu (斗地主) deals as the referee enters them, how one deal scores, and what it did (docs/rules.md §10).

The rules core does not judge card play in this game; a deal is recorded by its outcome:

- ``deal_scoring: stake`` (the national 《中国二打一扑克竞赛规则》, the default) — a :class:`StakeDeal`: the
  landlord's seat, the bid (1–3, 叫分), the bombs played (every bomb and the rocket 王炸, 0–14: a 54-card
  deck holds 13 four-of-a-kinds and one rocket), whether it was a spring (春天/反春, the winning side's),
  and who won. multiple = bid × 2^bombs × (2 for a spring), capped by ``multiple_cap``; stake = ``base`` ×
  multiple; the landlord wins or loses 2 × stake, each farmer the opposite stake (:func:`stake_points`).
- ``deal_scoring: cards_left`` (seed 004 根据每个玩家手中剩余的牌数给予相应的积分) — a :class:`CardsLeftDeal`: the
  landlord's seat and the cards left in each hand (exactly one 0, who went out; the landlord holds at
  most 20 cards, a farmer 17). The player who went out gains the total left in the other two hands, each
  of them loses one point per card (:func:`cards_left_points`); the winner is the side that went out.

Both are zero-sum. A deal nobody bids on is redealt and not recorded. The table's match that plays these
deals is :mod:`scoring.doudizhu`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from scoring.errors import ErrorCode, ScoringError, bad_input
from scoring.options import DealScoring, RuleOptions
from scoring.three_seats import THREE_SEATS, ThreeSeat, Trio, trio_json

__all__ = [
    "MAX_BID",
    "MAX_BOMBS",
    "CardsLeftDeal",
    "DoudizhuDeal",
    "DoudizhuDealRecord",
    "StakeDeal",
    "Winner",
    "cards_left_points",
    "deal_multiple",
    "parse_doudizhu_deal",
    "parse_doudizhu_deals",
    "stake_points",
]

MAX_BID = 3
"""Bids are 1, 2 or 3 points (叫分)."""

MAX_BOMBS = 14
"""13 four-of-a-kinds and the rocket: the most bombs one deal of a 54-card deck can hold."""

LANDLORD_CARDS = 20
"""The landlord's 17 cards and the 3 bottom cards."""

FARMER_CARDS = 17


class Winner(str, Enum):
    """Which side won a Dou Dizhu deal."""

    LANDLORD = "landlord"
    FARMERS = "farmers"

    @property
    def label_zh(self) -> str:
        return "地主" if self is Winner.LANDLORD else "农民"


_WINNERS = frozenset(winner.value for winner in Winner)


def _invalid(message: str, message_zh: str, deal: int | None = None) -> ScoringError:
    return ScoringError(ErrorCode.INVALID_DEAL, message, deal, message_zh=message_zh)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True, kw_only=True)
class StakeDeal:
    """A deal scored by stake (docs/rules.md §10): refused on construction (``invalid_deal``) when a value
    cannot happen. Whether the bid must be 1 (``landlord_by: lot``) is the table's check."""

    landlord: ThreeSeat
    winner: Winner
    bid: int = 1
    bombs: int = 0
    spring: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.landlord, ThreeSeat):  # "E" is accepted and kept as ThreeSeat.E
            object.__setattr__(self, "landlord", ThreeSeat.parse(self.landlord))
        if isinstance(self.winner, str) and self.winner in _WINNERS:
            object.__setattr__(self, "winner", Winner(self.winner))
        if not isinstance(self.winner, Winner):
            raise _invalid(
                f"The winner is 'landlord' or 'farmers'; got {self.winner!r}.",
                f"胜方必须是 landlord（地主）或 farmers（农民）；收到 {self.winner!r}。",
            )
        if not _whole(self.bid) or not 1 <= self.bid <= MAX_BID:
            raise _invalid(
                f"A bid is 1, 2 or 3 points (叫分); got {self.bid!r}.",
                f"叫分只能是 1、2 或 3 分；收到 {self.bid!r}。",
            )
        if not _whole(self.bombs) or not 0 <= self.bombs <= MAX_BOMBS:
            raise _invalid(
                f"Bombs (every bomb and the rocket played) are 0 to {MAX_BOMBS}; got {self.bombs!r}.",
                f"炸弹数（含王炸）只能是 0 到 {MAX_BOMBS}；收到 {self.bombs!r}。",
            )
        if not isinstance(self.spring, bool):
            raise _invalid(
                f"'spring' is true or false; got {self.spring!r}.",
                f"spring（春天）必须是 true 或 false；收到 {self.spring!r}。",
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsLeftDeal:
    """A deal scored by the cards left (seed 004): ``cards_left`` per seat (E, S, W), exactly one 0."""

    landlord: ThreeSeat
    cards_left: Trio

    def __post_init__(self) -> None:
        if not isinstance(self.landlord, ThreeSeat):
            object.__setattr__(self, "landlord", ThreeSeat.parse(self.landlord))
        counts = self.cards_left
        if not isinstance(counts, tuple) or len(counts) != 3 or not all(_whole(n) and n >= 0 for n in counts):
            raise _invalid(
                f"cards_left is a whole number of cards ≥ 0 for each of E, S and W; got {counts!r}.",
                f"cards_left 须为 E、S、W 每家剩余的牌数（不小于 0 的整数）；收到 {counts!r}。",
            )
        if counts.count(0) != 1:
            raise _invalid(
                "cards_left needs exactly one seat with 0 cards: the player who went out.",
                "cards_left 必须恰有一家为 0（出完牌的一家）。",
            )
        for seat in THREE_SEATS:
            limit = LANDLORD_CARDS if seat is self.landlord else FARMER_CARDS
            if counts[seat.position] > limit:
                role, role_zh = ("the landlord", "地主") if seat is self.landlord else ("a farmer", "农民")
                raise _invalid(
                    f"{seat.value} ({role}) cannot have {counts[seat.position]} cards left; at most {limit}.",
                    f"{seat.value}（{role_zh}）不可能剩 {counts[seat.position]} 张牌；最多 {limit} 张。",
                )

    @property
    def went_out(self) -> ThreeSeat:
        return THREE_SEATS[self.cards_left.index(0)]

    @property
    def winner(self) -> Winner:
        return Winner.LANDLORD if self.went_out is self.landlord else Winner.FARMERS


DoudizhuDeal = StakeDeal | CardsLeftDeal
"""One Dou Dizhu deal as entered: by stake or by cards left, as the table's ``deal_scoring`` says."""


# -- scoring ------------------------------------------------------------------------------------------


def deal_multiple(*, bid: int, bombs: int, spring: bool, cap: int | None) -> int:
    """bid × 2^bombs × (2 for a spring), at most ``cap`` (docs/rules.md §10):

    >>> deal_multiple(bid=3, bombs=1, spring=False, cap=None), deal_multiple(bid=3, bombs=4, spring=True, cap=32)
    (6, 32)
    """
    multiple = bid * (1 << bombs) * (2 if spring else 1)
    return min(multiple, cap) if cap is not None else multiple


def stake_points(*, landlord: ThreeSeat, winner: Winner, stake: int) -> Trio:
    """The landlord +2 × stake and each farmer −stake, or the reverse (docs/rules.md §10). Zero-sum."""
    sign = 1 if winner is Winner.LANDLORD else -1
    points = [-sign * stake] * 3
    points[landlord.position] = 2 * sign * stake
    return (points[0], points[1], points[2])


def cards_left_points(*, cards_left: Trio) -> Trio:
    """Each player with cards left loses one point per card; the one who went out gains them all (seed
    004). Zero-sum."""
    total = sum(cards_left)
    e, s, w = (total if n == 0 else -n for n in cards_left)
    return (e, s, w)


# -- what a deal did ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DoudizhuDealRecord:
    """What one Dou Dizhu deal did. ``multiple`` and ``stake`` only under stake scoring (None otherwise)."""

    number: int
    deal: DoudizhuDeal
    landlord: ThreeSeat
    winner: Winner
    multiple: int | None
    stake: int | None
    points: Trio
    points_after: Trio

    def to_json(self) -> dict[str, Any]:
        """docs/rules.md §10's record: number, landlord, winner, multiple and stake (stake scoring), points and
        points_after per seat."""
        out: dict[str, Any] = {"number": self.number, "landlord": self.landlord.value, "winner": self.winner.value}
        if self.multiple is not None:
            out["multiple"] = self.multiple
            out["stake"] = self.stake
        out["points"] = trio_json(self.points)
        out["points_after"] = trio_json(self.points_after)
        return out


# -- JSON input ---------------------------------------------------------------------------------------

_STAKE_FIELDS = frozenset({"landlord", "bid", "bombs", "spring", "winner"})
_CARDS_LEFT_FIELDS = frozenset({"landlord", "cards_left"})


def parse_doudizhu_deal(*, options: RuleOptions, data: object, number: int) -> DoudizhuDeal:
    """One deal from its JSON form (docs/rules.md §10): ``{"landlord": "E", "bid": 3, "bombs": 1, "spring":
    false, "winner": "landlord"}`` (``bid`` defaults to 1, ``bombs`` to 0, ``spring`` to false) or, under
    ``cards_left`` scoring, ``{"landlord": "S", "cards_left": {"E": 5, "S": 0, "W": 7}}``.

    A value that cannot be recorded is ``invalid_deal``; a field no deal has, or a deal that is not an
    object, ``bad_input``. Errors carry ``number``."""
    stake = options.deal_scoring is DealScoring.STAKE
    example = (
        '{"landlord": "E", "bid": 3, "bombs": 1, "spring": false, "winner": "landlord"}'
        if stake
        else '{"landlord": "S", "cards_left": {"E": 5, "S": 0, "W": 7}}'
    )
    if not isinstance(data, Mapping):
        raise bad_input(f"Deal {number} must look like {example}.", f"第 {number} 局的格式应为 {example}。", number)
    unknown = set(data) - _STAKE_FIELDS - _CARDS_LEFT_FIELDS
    if unknown:
        raise bad_input(
            f"Deal {number} has an unknown field {sorted(unknown)[0]!r}; a Dou Dizhu deal looks like {example}.",
            f"第 {number} 局有未知字段 {sorted(unknown)[0]!r}；斗地主每局的格式为 {example}。",
            number,
        )
    wrong = set(data) - (_STAKE_FIELDS if stake else _CARDS_LEFT_FIELDS)
    if wrong:
        scoring = options.deal_scoring.value
        raise _invalid(
            f"Deal {number}: {sorted(wrong)[0]!r} does not apply under deal_scoring {scoring}; "
            f"a deal looks like {example}.",
            f"第 {number} 局：计分方式 {scoring} 下没有 {sorted(wrong)[0]!r}；每局的格式为 {example}。",
            number,
        )
    if "landlord" not in data:
        raise _invalid(
            f"Deal {number} needs the 'landlord' seat (E, S or W).",
            f"第 {number} 局需要填写地主座位 landlord（E、S 或 W）。",
            number,
        )
    landlord = ThreeSeat.parse(data["landlord"], deal=number)
    try:
        if stake:
            if "winner" not in data:
                raise _invalid(
                    f"Deal {number} needs the 'winner': landlord or farmers.",
                    f"第 {number} 局需要填写胜方 winner：landlord（地主）或 farmers（农民）。",
                    number,
                )
            return StakeDeal(
                landlord=landlord,
                winner=data["winner"],
                bid=data.get("bid", 1),
                bombs=data.get("bombs", 0),
                spring=data.get("spring", False),
            )
        if "cards_left" not in data:
            raise _invalid(
                f'Deal {number} needs each seat\'s cards left, e.g. {{"E": 5, "S": 0, "W": 7}}.',
                f'第 {number} 局需要填写每家剩余牌数 cards_left，例如 {{"E": 5, "S": 0, "W": 7}}。',
                number,
            )
        counts = data["cards_left"]
        if not isinstance(counts, Mapping) or set(counts) != {"E", "S", "W"}:
            raise _invalid(
                f'Deal {number}: cards_left must give E, S and W, e.g. {{"E": 5, "S": 0, "W": 7}}.',
                f'第 {number} 局：cards_left 须填写 E、S、W 三家，例如 {{"E": 5, "S": 0, "W": 7}}。',
                number,
            )
        return CardsLeftDeal(landlord=landlord, cards_left=(counts["E"], counts["S"], counts["W"]))
    except ScoringError as error:
        if error.deal is not None:
            raise
        raise _invalid(f"Deal {number}: {error.message}", f"第 {number} 局：{error.message_zh}", number) from None



def parse_doudizhu_deals(*, options: RuleOptions, data: object) -> list[DoudizhuDeal]:
    """Every deal of a JSON ``deals`` list (see :func:`parse_doudizhu_deal`)."""
    if not isinstance(data, list):
        raise bad_input("'deals' must be a list of deals.", "deals 必须是列表。")
    return [parse_doudizhu_deal(options=options, data=item, number=number) for number, item in enumerate(data, 1)]
