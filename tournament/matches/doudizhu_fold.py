"""A three-seat table's match folded through the rules core (Dou Dizhu, docs/rules.md §10).

The match services write Dou Dizhu deals through the same ``deal_record`` / ``deal_correct`` /
``deal_delete`` / ``match_replay`` as the other games (one write path: locks, versions, idempotency keys,
audit). What differs is the fold, reached through ``fold.FOLDS`` by the players' entrant kind: the
table's deals are :func:`scoring.doudizhu.replay_table_partial`'s, and its adjustments are late arrivals
and no-shows of one *seat* (the entrant's :class:`~tournament.matches.models.MatchSeat`), recorded before
the first deal, and point penalties against a seat after the deals entered (docs/rules.md §7: points off
that player; the rules core records them without effect for a stage created before they counted). A
level penalty or a warning changes nothing at a Dou Dizhu table; it is kept as applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.doudizhu import (
    DoudizhuResult,
    LatePlayer,
    SeatPenalty,
    TableAdjustment,
    TablePartialReplay,
    replay_table_partial,
)
from scoring.doudizhu_deals import DoudizhuDeal, parse_doudizhu_deal
from scoring.errors import ScoringError
from scoring.options import RuleOptions
from scoring.three_seats import ThreeSeat
from tournament.matches.models import Adjustment, AdjustmentKind, Match

__all__ = ["TableFold", "doudizhu_fold", "table_seats"]


@dataclass(frozen=True, slots=True)
class TableFold:
    """A table folded, with what it refused (to be flagged); shaped like ``services.Fold``."""

    partial: TablePartialReplay
    deals_valid: int
    adjustments_valid: frozenset[int]

    @property
    def result(self) -> DoudizhuResult:
        return self.partial.result


def table_seats(match: Match) -> dict[int, str]:
    """Entrant id → seat letter at the table."""
    return dict(match.seats.values_list("pair_id", "seat"))


def _late_players(match: Match, rows: Sequence[Adjustment]) -> list[tuple[Adjustment, TableAdjustment]]:
    seats = table_seats(match)
    out: list[tuple[Adjustment, TableAdjustment]] = []
    for row in rows:
        seat = seats.get(row.pair_id)
        if seat is None:
            continue
        if row.kind == AdjustmentKind.LATE_ARRIVAL:
            out.append((row, LatePlayer(seat=ThreeSeat(seat), minutes=row.minutes_late or 0, reason=row.reason)))
        elif row.kind == AdjustmentKind.FORFEIT:
            out.append((row, LatePlayer(seat=ThreeSeat(seat), minutes=None, reason=row.reason)))
        elif row.kind == AdjustmentKind.PENALTY and row.points > 0:
            penalty = SeatPenalty(seat=ThreeSeat(seat), points=row.points, after_deal=row.after_deal, reason=row.reason)
            out.append((row, penalty))
    return out


def doudizhu_fold(
    *,
    match: Match,
    options: RuleOptions,
    outcomes: Sequence[Any],
    adjustments: Sequence[Adjustment],
    time_called_during_deal: int | None,
    parsed: dict[int, Any] | None = None,
) -> TableFold:
    """Fold a table's stored outcomes and adjustment rows (no writes); a stored outcome the rules core
    cannot read stops the fold there, like a deal it refuses."""
    deals: list[DoudizhuDeal] = []
    for number, outcome in enumerate(outcomes, 1):
        if parsed and number in parsed:
            deals.append(parsed[number])
            continue
        try:
            deals.append(parse_doudizhu_deal(options=options, data=outcome, number=number))
        except ScoringError:
            break
    late = _late_players(match, adjustments)
    partial = replay_table_partial(
        options=options,
        deals=deals,
        adjustments=[player for _row, player in late],
        time_called_during_deal=time_called_during_deal,
    )
    folded = {row.pk for row, _player in late}
    applied = {late[index][0].pk for index in partial.adjustments_applied}
    applied |= {row.pk for row in adjustments if row.pk not in folded}  # penalties, warnings: nothing to fold
    return TableFold(partial=partial, deals_valid=partial.deals_applied, adjustments_valid=frozenset(applied))

