"""The finishing order of a Guandan deal: who went out 1st (上游), 2nd (二游), 3rd (三游), last (下游).

docs/rules.md §1: if partners finish 1st and 2nd the deal ends at once and the other side is 双下
(double-down), so a referee records 2 seats for a double-down, 3 seats otherwise (the missing seat is
last), or all 4. Only the side of 上游 upgrades, by the partner's place: 2nd +3, 3rd +2, last +1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.errors import ErrorCode, ScoringError
from scoring.seats import SEATS, Seat, Side

__all__ = ["FinishingOrder"]

_PLACE_ZH = {2: "二游", 3: "三游", 4: "下游"}


def _invalid(message: str, message_zh: str) -> ScoringError:
    return ScoringError(ErrorCode.INVALID_ORDER, message, message_zh=message_zh)


@dataclass(frozen=True, slots=True)
class FinishingOrder:
    """A deal's finishing order. Build it with :meth:`parse`; instances are interned (one object per
    distinct order), so the replay hot path reads precomputed facts instead of recomputing them.

    ``seats`` is the order as played: all 4 seats, or just the 2 partners of a double-down (whose
    opponents are both 下游; their 3rd/4th order does not matter).
    """

    seats: tuple[Seat, ...]
    first: Seat = field(compare=False, repr=False)
    """上游: the first out."""
    winner: Side = field(compare=False, repr=False)
    """The side of 上游 — the only side that upgrades (docs/rules.md §1)."""
    partner_place: int = field(compare=False, repr=False)
    """Where 上游's partner finished: 2, 3 or 4."""

    @property
    def double_down(self) -> bool:
        """双下: partners finished 1st and 2nd; both opponents count as 下游."""
        return self.partner_place == 2

    @property
    def last(self) -> tuple[Seat, ...]:
        """下游: one seat, or both opponents after a double-down."""
        if self.double_down:
            return self.winner.other.seats
        return (self.seats[3],)

    def place_of(self, seat: Seat) -> int:
        """1..4; after a double-down both opponents are 4 (下游)."""
        if seat in self.seats[:2] or not self.double_down:
            return self.seats.index(seat) + 1
        return 4

    @classmethod
    def parse(cls, seats: Sequence[str | Seat] | str) -> FinishingOrder:
        """Parse seat letters by finishing place: ``["N", "E", "S"]``, ``["N", "S"]`` or ``"N E S W"``.

        Raises ScoringError ``invalid_order`` with one clear sentence: an unknown seat, a seat twice, no
        or one seat, 2 seats that are not partners, more than 4 seats.
        """
        key: object = seats if isinstance(seats, str) or not isinstance(seats, Sequence) else tuple(seats)
        try:
            return _INTERNED[key]
        except (KeyError, TypeError):  # TypeError: an unhashable item, reported below
            pass
        return cls._build(key)

    @classmethod
    def _build(cls, raw: object) -> FinishingOrder:
        if isinstance(raw, str):
            items: list[object] = list(raw.split())
        elif isinstance(raw, Sequence):
            items = list(raw)
        else:
            raise _invalid(
                f'A finishing order is a list of seat letters such as ["N", "E", "S"]; got {raw!r}.',
                f'名次顺序应为座位字母列表，例如 ["N", "E", "S"]；收到 {raw!r}。',
            )
        parsed: list[Seat] = []
        for item in items:
            seat = _SEAT_BY_NAME.get(item) if isinstance(item, str | Seat) else None
            if seat is None:
                raise _invalid(
                    f"{item!r} is not a seat; a finishing order uses N, E, S and W.",
                    f"{item!r} 不是座位；名次顺序只能用 N、E、S、W。",
                )
            if seat in parsed:
                raise _invalid(
                    f"Seat {seat.value} appears twice in the finishing order.",
                    f"座位 {seat.value} 在名次顺序中出现了两次。",
                )
            parsed.append(seat)
        count = len(parsed)
        if count < 2:
            raise _invalid(
                f"A finishing order needs 2 seats (partners finishing 1st and 2nd), 3 or 4; got {count}.",
                f"名次顺序需要 2 个座位（同伴包揽一二名）、3 个或 4 个；收到 {count} 个。",
            )
        if count > 4:
            raise _invalid(
                f"A finishing order has at most 4 seats; got {count}.",
                f"名次顺序最多 4 个座位；收到 {count} 个。",
            )
        first = parsed[0]
        if count == 2 and parsed[1] is not first.partner:
            raise _invalid(
                f"{parsed[0].value} and {parsed[1].value} are not partners; an order of 2 seats is only "
                "for partners finishing 1st and 2nd (双下).",
                f"{parsed[0].value} 和 {parsed[1].value} 不是同伴；"
                "只有同伴包揽一二名（双下）时才能只填 2 个座位。",
            )
        if count == 3:
            parsed.append(next(seat for seat in SEATS if seat not in parsed))
        partner_place = parsed.index(first.partner) + 1
        # After a 1-2 finish the deal ends at once (docs/rules.md §1): the opponents' order is not a fact.
        normal = tuple(parsed[:2]) if partner_place == 2 else tuple(parsed)
        return cls(normal, first, first.side, partner_place)

    def to_json(self) -> list[str]:
        return [seat.value for seat in self.seats]

    def describe_zh(self) -> str:
        """``"N 上游，同伴 S 二游"``: how a referee would say it."""
        return f"{self.first.value} 上游，同伴 {self.first.partner.value} {_PLACE_ZH[self.partner_place]}"

    def __str__(self) -> str:
        return " ".join(seat.value for seat in self.seats)

    def __repr__(self) -> str:
        return f"FinishingOrder({str(self)!r})"


_SEAT_BY_NAME: dict[object, Seat] = {seat.value: seat for seat in Seat}


def _intern_all() -> dict[object, FinishingOrder]:
    """Every valid input spelling → its one FinishingOrder (24 + 24 + 4 keys, as tuples of letters)."""
    table: dict[object, FinishingOrder] = {}
    canonical: dict[tuple[Seat, ...], FinishingOrder] = {}
    letters = [seat.value for seat in SEATS]
    candidates: list[tuple[str, ...]] = []
    for a in letters:
        for b in letters:
            if b == a:
                continue
            candidates.append((a, b))
            for c in letters:
                if c in (a, b):
                    continue
                candidates.append((a, b, c))
                d = next(x for x in letters if x not in (a, b, c))
                candidates.append((a, b, c, d))
    for key in candidates:
        try:
            order = FinishingOrder._build(key)
        except ScoringError:
            continue  # 2 seats that are not partners
        order = canonical.setdefault(order.seats, order)
        table[key] = order
        table[" ".join(key)] = order
    return table


_INTERNED = _intern_all()
