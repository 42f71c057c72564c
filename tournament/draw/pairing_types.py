"""Value types of the draw: entrants in, pairings out, and the two kinds of error.

Everything here is plain, immutable Python — no Django — so the generators can be tested
without a database. The service that writes a round stores a draw's algorithm, options and seed
with the round; ``Draw.as_record()`` is the whole draw as JSON (what the tests compare).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

__all__ = [
    "DepartmentId",
    "Draw",
    "DrawBug",
    "DrawError",
    "DrawWarning",
    "Entrant",
    "EntrantId",
    "OptionValue",
    "Pairing",
    "Seat",
]

EntrantId: TypeAlias = int | str
"""The id of a pair (参赛对). The service passes its primary keys; ids are only hashed, never ordered."""

DepartmentId: TypeAlias = int | str

Seat: TypeAlias = Literal["NS", "EW"]
"""N/S (南北) or E/W (东西) at a table."""

OptionValue: TypeAlias = "int | str | bool | float | list[OptionValue] | dict[str, OptionValue] | None"
"""JSON-compatible values recorded with a draw (algorithm options, diagnostics)."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One pair as the draw sees it.

    - ``rank``: position in the current standings, 1 = best (0 = unknown; ties fall back to a
      draw of lots with the draw's seed). Swiss orders by ``score`` first, then ``rank``.
    - ``seed``: the organiser's seed for a knockout bracket (1 = top seed), or ``None``.
    - ``score``: match points so far (场分); the Swiss score groups are equal ``score`` values.
    - ``opponents``: ids of pairs already met in this event (never paired again in Swiss).
    - ``byes``: byes (轮空) already had. ``departments``: the departments (部门/单位) of its
      players; two pairs clash when they share one. ``seats_ns``/``seats_ew``: rounds sat N/S or
      E/W so far; ``last_seat``: the seat of the most recent round played.
    - ``withdrawn``: withdrawn or forfeited out — never drawn again.
    """

    id: EntrantId
    rank: int = 0
    seed: int | None = None
    score: float = 0
    opponents: AbstractSet[EntrantId] = frozenset()
    byes: int = 0
    departments: AbstractSet[DepartmentId] = frozenset()
    seats_ns: int = 0
    seats_ew: int = 0
    last_seat: Seat | None = None
    withdrawn: bool = False

    def __post_init__(self) -> None:
        # Store frozensets whatever set (or list, untyped) the caller passed: the value stays immutable.
        opponents: Collection[EntrantId] = self.opponents
        if not isinstance(opponents, frozenset):
            object.__setattr__(self, "opponents", frozenset(opponents))
        departments: Collection[DepartmentId] = self.departments
        if not isinstance(departments, frozenset):
            object.__setattr__(self, "departments", frozenset(departments))

    @property
    def seat_need(self) -> int:
        """EW rounds minus NS rounds: > 0 wants N/S next, < 0 wants E/W."""
        return self.seats_ew - self.seats_ns

    def __repr__(self) -> str:
        return f"<Entrant {self.id!r} score={self.score} rank={self.rank}>"


_WARNING_TEXT: dict[str, tuple[str, str]] = {
    "rematch": ("These pairs have met before.", "两对已交过手（重复对阵）。"),
    "same_department": ("Both pairs are from the same department.", "两对来自同一部门。"),
    "repeat_bye": ("This pair already had a bye.", "该对已轮空过。"),
    # it fires when a table leaves a pair 2 rounds apart (pairing_seating.seat_pair): say that, not "more than 2"
    "seat_imbalance": (
        "Seat balance: after this round this pair will have sat one way (N/S or E/W) 2 or more rounds "
        "more than the other.",
        "座位不均：本轮后该对坐南北与坐东西的轮数将相差 2 轮或以上。",
    ),
    "walkover": ("The opponent withdrew; this pair advances.", "对手退赛，该对直接晋级。"),
    "bye": ("This pair has the bye this round.", "该对本轮轮空。"),
    "withdrawn": ("This pair has withdrawn since the draw.", "该对在抽签后已退赛。"),
    "tables_swapped": ("That table was taken: the two matches swapped tables.", "该桌已有比赛，两场比赛互换了桌号。"),
    "referee_assigned": (
        "Referees are assigned to tables, not matches: check the referee plan.",
        "裁判按桌安排，请检查裁判安排。",
    ),
    "table_without_referee": ("No referee is free for this table.", "该桌没有可分配的裁判。"),
    "referee_outside_area": ("The referee comes from another area.", "裁判来自其他赛区。"),
}


@dataclass(frozen=True, slots=True)
class DrawWarning:
    """Something the organiser should see in the preview (the draw is still valid)."""

    code: str
    entrants: tuple[EntrantId, ...] = ()
    table: int | None = None
    message_en: str = ""
    message_zh: str = ""

    @classmethod
    def of(cls, code: str, *entrants: EntrantId, table: int | None = None) -> DrawWarning:
        en, zh = _WARNING_TEXT[code]
        return cls(code=code, entrants=tuple(entrants), table=table, message_en=en, message_zh=zh)

    def as_record(self) -> dict[str, OptionValue]:
        return {
            "code": self.code,
            "entrants": list(self.entrants),
            "table": self.table,
            "message_en": self.message_en,
            "message_zh": self.message_zh,
        }


@dataclass(frozen=True, slots=True)
class Pairing:
    """One table of a round (or a bye when ``ew is None``).

    ``table`` is the table number (1 = top-ranked match), ``None`` for a bye. In a knockout,
    ``bracket_match`` is the match's position in its round (1-based, bracket order) and
    ``third_place`` marks the play-off for third.
    """

    table: int | None
    ns: EntrantId
    ew: EntrantId | None
    warnings: tuple[DrawWarning, ...] = ()
    bracket_match: int | None = None
    third_place: bool = False

    @property
    def is_bye(self) -> bool:
        return self.ew is None

    @property
    def entrants(self) -> tuple[EntrantId, ...]:
        return (self.ns,) if self.ew is None else (self.ns, self.ew)

    def __repr__(self) -> str:
        if self.ew is None:
            return f"<Pairing bye {self.ns!r}>"
        return f"<Pairing T{self.table} {self.ns!r} (NS) v {self.ew!r} (EW)>"

    def as_record(self) -> dict[str, OptionValue]:
        return {
            "table": self.table,
            "ns": self.ns,
            "ew": self.ew,
            "bracket_match": self.bracket_match,
            "third_place": self.third_place,
            "warnings": [w.as_record() for w in self.warnings],
        }


@dataclass(frozen=True, slots=True)
class Draw:
    """A generated round: what the service stores (algorithm, options, seed) and writes (pairings).

    ``pairings`` are in table order, byes last. ``notes`` are diagnostics (which engine ran,
    how far the fast path had to fall back); they are informative, not part of the contract.
    """

    algorithm: str
    round_number: int
    seed: int
    options: dict[str, OptionValue]
    pairings: tuple[Pairing, ...]
    notes: dict[str, OptionValue] = field(default_factory=dict)

    @property
    def matches(self) -> tuple[Pairing, ...]:
        return tuple(p for p in self.pairings if p.ew is not None)

    @property
    def byes(self) -> tuple[Pairing, ...]:
        return tuple(p for p in self.pairings if p.ew is None)

    @property
    def warnings(self) -> tuple[DrawWarning, ...]:
        return tuple(w for p in self.pairings for w in p.warnings)

    def as_record(self) -> dict[str, OptionValue]:
        """JSON-compatible record: store it with the round to reproduce or audit the draw."""
        return {
            "algorithm": self.algorithm,
            "round_number": self.round_number,
            "seed": self.seed,
            "options": dict(self.options),
            "pairings": [p.as_record() for p in self.pairings],
            "notes": dict(self.notes),
        }


class DrawError(Exception):
    """The organiser's problem: the draw cannot be made as asked (shown to the user, HTTP 400).

    ``code`` is machine-readable; ``message_en`` / ``message_zh`` are fit for the preview page.
    """

    def __init__(
        self, code: str, message_en: str, message_zh: str, *, details: Mapping[str, OptionValue] | None = None
    ) -> None:
        super().__init__(f"{code}: {message_en}")
        self.code = code
        self.message_en = message_en
        self.message_zh = message_zh
        self.details: dict[str, OptionValue] = dict(details or {})


class DrawBug(AssertionError):
    """An internal invariant of a generator failed: a bug in this code, never the user's fault."""
