"""What a stage's correction flags say: the one reader of :class:`AdvancementFlag`.

The organiser's stage and round pages, the public pages, the public API and the workbook all read
the flags through :func:`stage_flags_get`, so they say the same thing: which stage's advancement
or which round's draw a correction changed, who is in or out, and the organiser's decision (open,
drawn again, kept with a reason). Nothing is recomputed here: a flag holds what the re-check found
when it was raised (``tournament.draw.advancement_flags``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tournament.matches.models import AdvancementFlag, AdvancementFlagKind, AdvancementFlagStatus, Stage
from tournament.registration.models import Pair


@dataclass(frozen=True, slots=True)
class FlagPair:
    id: int
    number: int | None
    """The pair's number in its event (1…N), as pages and sheets show it."""
    name: str


@dataclass(frozen=True, slots=True)
class PlaceChange:
    pair: FlagPair
    before: int | None
    """The rank the draw read (None: not ranked then)."""
    after: int | None
    before_points: float | None = None
    """The match points the draw read (a Swiss round pairs by them)."""
    after_points: float | None = None


@dataclass(frozen=True, slots=True)
class StageFlag:
    """One flag of a stage, as every page and the workbook show it."""

    id: int
    kind: str
    """``advancement`` (who advanced into the stage) or ``round`` (a round's draw)."""
    status: str
    """``open`` (the organiser has not decided), ``redrawn`` or ``kept`` (with ``reason``)."""
    round_number: int | None
    round_id: int | None
    """The flagged round while it exists (a round drawn again has a new row)."""
    match_id: int
    """The match whose sign-off raised the flag."""
    leaving: tuple[FlagPair, ...] = ()
    """Advanced, and no longer in the places that advance (kind ``advancement``)."""
    joining: tuple[FlagPair, ...] = ()
    """In the places that advance now, and not advanced (kind ``advancement``)."""
    moved: tuple[PlaceChange, ...] = ()
    """Pairs whose place or points in the standings the round was drawn from changed (kind ``round``)."""
    reason: str = ""
    decided_at: datetime | None = None
    tie_lots_seed: int | None = None
    """The corrected ranking tied at the cut and these lots (the source stage's, recorded once)
    decided it (kind ``advancement``; docs/rules.md §5)."""

    @property
    def is_round(self) -> bool:
        return self.kind == AdvancementFlagKind.ROUND


NOWHERE: tuple[int | None, float | None] = (None, None)


def _places(rows: object) -> dict[int, tuple[int | None, float | None]]:
    out: dict[int, tuple[int | None, float | None]] = {}
    if isinstance(rows, list):
        for row in rows:
            if isinstance(row, list) and len(row) == 3:
                out[int(row[0])] = (row[1], row[2])
    return out


def _tie_lots_seed(detail: object) -> int | None:
    tie = detail.get("tie_at_cut") if isinstance(detail, dict) else None
    seed = tie.get("lots_seed") if isinstance(tie, dict) else None
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def stage_flags_get(*, stage: Stage | int, open_only: bool = False) -> tuple[StageFlag, ...]:
    """The stage's flags, oldest first (``open_only``: those awaiting the organiser)."""
    stage_id = stage if isinstance(stage, int) else stage.pk
    flags = AdvancementFlag.objects.filter(stage_id=stage_id)
    if open_only:
        flags = flags.filter(status=AdvancementFlagStatus.OPEN)
    rows = list(flags.order_by("created_at", "id"))
    if not rows:
        return ()
    ids: set[int] = set()
    for row in rows:
        ids |= {int(pk) for pk in [*row.advanced, *row.now_advancing]}
        ids |= set(_places(row.detail.get("before"))) | set(_places(row.detail.get("after")))
    cards = {
        pk: FlagPair(pk, number, name)
        for pk, number, name in Pair.objects.filter(pk__in=ids).values_list("id", "number", "name")
    }

    def card(pk: int) -> FlagPair:
        return cards.get(pk) or FlagPair(pk, None, str(pk))

    out = []
    for row in rows:
        before, after = _places(row.detail.get("before")), _places(row.detail.get("after"))
        moved = []
        for pk in set(before) | set(after):
            (rank_before, points_before), (rank_after, points_after) = before.get(pk, NOWHERE), after.get(pk, NOWHERE)
            if (rank_before, points_before) != (rank_after, points_after):
                moved.append(PlaceChange(card(pk), rank_before, rank_after, points_before, points_after))
        moved.sort(key=lambda change: (change.after or 10**9, change.pair.id))  # in the corrected order
        out.append(
            StageFlag(
                id=row.pk,
                kind=row.kind,
                status=row.status,
                round_number=row.round_number,
                round_id=row.round_id,
                match_id=row.match_id,
                leaving=tuple(card(int(pk)) for pk in row.advanced if pk not in row.now_advancing),
                joining=tuple(card(int(pk)) for pk in row.now_advancing if pk not in row.advanced),
                moved=tuple(moved),
                reason=row.decision_reason,
                decided_at=row.decided_at,
                tie_lots_seed=_tie_lots_seed(row.detail),
            )
        )
    return tuple(out)
