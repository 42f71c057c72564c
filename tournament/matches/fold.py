"""A match folded through the rules core, and the one place its snapshot is stored.

Deals are the source of truth (docs/design.md): the match row's ``state``, ``winner``,
``result_reason`` and ``status`` are the rules core's fold of its deals and adjustments
(:func:`match_fold`), stored by :func:`match_replay` / ``fold_store`` in the transaction of the
write that changed them. Also the locked match row every write starts from.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.adjustments import Adjustment as ScoringAdjustment
from scoring.adjustments import Forfeit, LateArrival, LevelPenalty, PointPenalty
from scoring.doudizhu import DoudizhuResult
from scoring.doudizhu_deals import DoudizhuDeal
from scoring.errors import ScoringError
from scoring.match import DealInput, PartialReplay, parse_deal, replay_partial
from scoring.options import RuleOptions
from scoring.outcome import MatchResult, Status
from scoring.seats import Side
from tournament.games import GameKind, game_of
from tournament.matches.doudizhu_fold import TableFold, doudizhu_fold
from tournament.matches.errors import MatchRefused, StaleVersion
from tournament.matches.models import (
    CLAIM_OPEN,
    Adjustment,
    AdjustmentKind,
    Deal,
    DealClaim,
    Match,
    MatchStatus,
)
from tournament.prepared import prepared_rows
from tournament.rules import rules_for_stage

SNAPSHOT_FIELDS = ["state", "winner", "result_reason", "status", "finished_at"]


# -- folding a match through the rules core --------------------------------------------------------


def match_rules(match: Match) -> RuleOptions:
    """The rules that apply to ``match`` (its stage's, through ``tournament.rules``)."""
    return rules_for_stage(match.round.stage)


def match_game(match: Match) -> GameKind:
    """The game ``match`` is played at: its event's (``Tournament.game``, the one answer)."""
    return game_of(match.round.stage.tournament)


def _side_of(match: Match, pair_id: int) -> Side:
    return Side.NS if pair_id == match.ns_pair_id else Side.EW


def scoring_adjustments(
    *, match: Match, rows: Sequence[Adjustment]
) -> list[tuple[list[Adjustment], ScoringAdjustment]]:
    """The rules core's adjustments for ``rows`` (docs/rules.md §5, §7), each with the rows it stands for.

    Warnings change nothing and are left out. Both pairs forfeiting at the same point is one
    double forfeit (both lose), not two walkovers.
    """
    out: list[tuple[list[Adjustment], ScoringAdjustment]] = []
    forfeits: dict[tuple[int, Side], int] = {}
    for row in rows:
        side = _side_of(match, row.pair_id)
        if row.kind == AdjustmentKind.FORFEIT:
            other = forfeits.get((row.after_deal, side.other))
            if other is not None and isinstance(out[other][1], Forfeit) and len(out[other][0]) == 1:
                out[other] = (
                    [*out[other][0], row],
                    Forfeit(side=None, after_deal=row.after_deal, reason=row.reason),
                )
                continue
            forfeits[(row.after_deal, side)] = len(out)
            out.append(([row], Forfeit(side=side, after_deal=row.after_deal, reason=row.reason)))
        elif row.kind == AdjustmentKind.LATE_ARRIVAL:
            out.append(([row], LateArrival(side=side, minutes=row.minutes_late or 0, after_deal=row.after_deal)))
        elif row.kind == AdjustmentKind.PENALTY and row.levels:
            out.append(
                ([row], LevelPenalty(side=side, levels=row.levels, after_deal=row.after_deal, reason=row.reason))
            )
        elif row.kind == AdjustmentKind.PENALTY and row.points:
            out.append(
                ([row], PointPenalty(side=side, points=row.points, after_deal=row.after_deal, reason=row.reason))
            )
    return out


@dataclass(frozen=True, slots=True)
class Fold:
    """A match folded through the rules core, with what it refused (to be flagged)."""

    partial: PartialReplay
    deals_valid: int
    adjustments_valid: frozenset[int]
    """Ids of the adjustment rows the fold applied (warnings count as applied)."""

    @property
    def result(self) -> MatchResult:
        return self.partial.result


def match_fold(
    *,
    match: Match,
    outcomes: Sequence[Any],
    adjustments: Sequence[Adjustment],
    time_called_during_deal: int | None,
    parsed: dict[int, Any] | None = None,
) -> Fold | TableFold:
    """Fold outcomes and adjustment rows through ``scoring.match.replay_partial`` (no writes); a
    three-seat table through ``tournament.matches.doudizhu_fold`` (docs/rules.md §10).

    A stored outcome the rules core cannot even read stops the fold at that deal, like any other
    deal it refuses. ``parsed``: deal number → that deal already parsed by the caller (a write
    parses the deal it was given once, to refuse it first).
    """
    fold = FOLDS[match_game(match).entrants.key]
    return fold(
        match=match,
        options=match_rules(match),
        outcomes=outcomes,
        adjustments=adjustments,
        time_called_during_deal=time_called_during_deal,
        parsed=parsed,
    )


def sides_fold(
    *,
    match: Match,
    options: RuleOptions,
    outcomes: Sequence[Any],
    adjustments: Sequence[Adjustment],
    time_called_during_deal: int | None,
    parsed: dict[int, Any] | None = None,
) -> Fold:
    """A match of two sides folded (no writes): ``scoring.match.replay_partial`` of its deals and
    adjustments."""
    deals: list[DealInput] = []
    for number, outcome in enumerate(outcomes, 1):
        if parsed and number in parsed:
            deals.append(parsed[number])
            continue
        try:
            deals.append(parse_deal(options=options, data=outcome, number=number))
        except ScoringError:
            break
    groups = scoring_adjustments(match=match, rows=adjustments)
    partial = replay_partial(
        options=options,
        deals=deals,
        time_called_during_deal=time_called_during_deal,
        adjustments=[adjustment for _rows, adjustment in groups],
    )
    applied = {row.pk for index in partial.adjustments_applied for row in groups[index][0]}
    grouped = {row.pk for rows, _adjustment in groups for row in rows}
    applied |= {row.pk for row in adjustments if row.pk not in grouped}  # warnings
    return Fold(partial=partial, deals_valid=partial.deals_applied, adjustments_valid=frozenset(applied))


def match_deal_parse(*, match: Match, outcome: Any, number: int) -> DealInput | DoudizhuDeal:
    """The deal as entered, parsed once by a write (its game's refusal before anything is written)."""
    parse = match_game(match).parse_deal
    parsed: DealInput | DoudizhuDeal = parse(options=match_rules(match), data=outcome, number=number)
    return parsed


FOLDS: dict[str, Callable[..., Fold | TableFold]] = {"pairs": sides_fold, "players": doudizhu_fold}
"""The fold of a match of each entrant kind (``tournament.games.entrants``), by its key: two sides
through ``scoring.match``, a three-seat table through ``tournament.matches.doudizhu_fold``."""


def _store(match: Match, result: MatchResult | DoudizhuResult) -> None:
    match.state = result.to_json()
    if isinstance(result, DoudizhuResult):  # three players, no winning side: the points are the result
        match.winner = match.result_reason = ""
    else:
        match.winner = result.winner.code if result.winner is not None else ""
        match.result_reason = result.reason.value if result.reason is not None else ""
    if match.status != MatchStatus.CONFIRMED:
        if result.status is Status.FINISHED:
            match.status = MatchStatus.FINISHED
            match.finished_at = match.finished_at or timezone.now()
        else:
            started = bool(result.deals) or match.started_at is not None
            match.status = MatchStatus.RUNNING if started else MatchStatus.PENDING
            match.finished_at = None


def match_replay(*, match: Match, fields: Iterable[str] = ()) -> MatchResult | DoudizhuResult:
    """Refold ``match`` from its deals and adjustments and store the snapshot (call inside a
    transaction, on a locked row; ``fields`` are other fields of ``match`` to save with it).

    A deal or adjustment the rules core refuses (e.g. entered after the match ended, once a
    correction shortened it) is flagged for the referee along with everything after it — never
    silently kept in the result or dropped (docs/design.md: deals are the source of truth).
    """
    deals = list(match.deals.order_by("number"))
    adjustments = match_adjustment_rows(match)
    fold = match_fold(
        match=match,
        outcomes=[deal.outcome for deal in deals],
        adjustments=adjustments,
        time_called_during_deal=match.time_called_during_deal,
    )
    return fold_store(match, deals=deals, adjustments=adjustments, fold=fold, fields=fields)


def fold_store(
    match: Match,
    *,
    deals: Sequence[Deal],
    adjustments: Sequence[Adjustment],
    fold: Fold | TableFold,
    fields: Iterable[str],
) -> MatchResult | DoudizhuResult:
    """Store ``fold`` — the fold of exactly ``deals`` and ``adjustments`` as they are now saved — on
    the match, its deals' records and the flags (the one fold of a write)."""
    changed, changed_adjustments = _fold_apply(match, deals=deals, adjustments=adjustments, fold=fold)
    if changed:
        # derived data, not an edit: no history row of its own (the edit that caused it has one)
        Deal.objects.bulk_update(changed, ["record", "flagged"])
    if changed_adjustments:
        Adjustment.objects.bulk_update(changed_adjustments, ["flagged"])
    match.save(update_fields=list(dict.fromkeys([*SNAPSHOT_FIELDS, *fields])))
    return fold.result


def _fold_apply(
    match: Match, *, deals: Sequence[Deal], adjustments: Sequence[Adjustment], fold: Fold | TableFold
) -> tuple[list[Deal], list[Adjustment]]:
    """Put ``fold`` on the match, its deals and adjustments in memory; the deals and adjustments it
    changed, for the caller to store."""
    records = fold.result.deals
    changed = []
    for index, deal in enumerate(deals):
        record = records[index].to_json() if index < fold.deals_valid else {}
        flagged = index >= fold.deals_valid
        if deal.record != record or deal.flagged != flagged:
            deal.record, deal.flagged = record, flagged
            changed.append(deal)
    changed_adjustments = []
    for row in adjustments:
        flagged = row.pk not in fold.adjustments_valid
        if row.flagged != flagged:
            row.flagged = flagged
            changed_adjustments.append(row)
    _store(match, fold.result)
    return changed, changed_adjustments


def fold_apply(
    match: Match, *, deals: Sequence[Deal], adjustments: Sequence[Adjustment], fold: Fold | TableFold
) -> tuple[list[Deal], list[Adjustment]]:
    """:func:`fold_store` without the writes, for a caller that stores many matches in bulk (the
    deadline's double forfeits): ``fold`` put on the match in memory, and the deals and adjustments it
    changed, for the caller to store."""
    return _fold_apply(match, deals=deals, adjustments=adjustments, fold=fold)


def match_refold(match: Match) -> None:
    """Refold ``match`` in memory from its deals and adjustments, saving nothing: a read's view of
    a change not stored yet (a due time call a page shows before the task or a write makes it)."""
    deals = list(match.deals.order_by("number"))
    adjustments = match_adjustment_rows(match)
    fold = match_fold(
        match=match,
        outcomes=[deal.outcome for deal in deals],
        adjustments=adjustments,
        time_called_during_deal=match.time_called_during_deal,
    )
    _fold_apply(match, deals=deals, adjustments=adjustments, fold=fold)


def matches_replay(
    *, matches: Sequence[Match], fields: Iterable[str] = (), change: Callable[[Match, int], object] | None = None
) -> None:
    """Refold many locked matches at once (a round's time call over 2,500 tables): their deals and
    adjustments are read in one query each and every row is stored in one bulk update each, so the
    query count does not grow with the tables. ``change(match, deals_entered)`` edits a match in
    memory before its fold; ``fields``: the fields it changes, stored with the snapshot. Derived data
    and the caller's edit: the caller copies the matches' history rows (``audit.history_copy``)."""
    if not matches:
        return
    changed_deals, changed_adjustments = matches_refold(matches=matches, change=change)
    if changed_deals:
        Deal.objects.bulk_update(changed_deals, ["record", "flagged"])
    if changed_adjustments:
        Adjustment.objects.bulk_update(changed_adjustments, ["flagged"])
    Match.objects.bulk_update(matches, list(dict.fromkeys([*SNAPSHOT_FIELDS, *fields])))


def matches_refold(
    *, matches: Sequence[Match], change: Callable[[Match, int], object] | None = None
) -> tuple[list[Deal], list[Adjustment]]:
    """:func:`matches_replay` in memory, saving nothing: the matches refolded (``change`` first),
    their deals and adjustments read in one query each; the deals and adjustments whose record or
    flag changed, for a caller that stores them."""
    ids = [match.pk for match in matches]
    deals_of: dict[int, list[Deal]] = defaultdict(list)
    for deal in Deal.objects.filter(match_id__in=ids).order_by("match_id", "number"):
        deals_of[deal.match_id].append(deal)
    adjustments_of: dict[int, list[Adjustment]] = defaultdict(list)
    for row in Adjustment.objects.filter(match_id__in=ids).order_by("created_at", "id"):
        if row.match_id is not None:  # always: filtered by match
            adjustments_of[row.match_id].append(row)
    changed_deals: list[Deal] = []
    changed_adjustments: list[Adjustment] = []
    for match in matches:
        deals, adjustments = deals_of[match.pk], adjustments_of[match.pk]
        if change is not None:
            change(match, len(deals))
        fold = match_fold(
            match=match,
            outcomes=[deal.outcome for deal in deals],
            adjustments=adjustments,
            time_called_during_deal=match.time_called_during_deal,
        )
        more_deals, more_adjustments = _fold_apply(match, deals=deals, adjustments=adjustments, fold=fold)
        changed_deals += more_deals
        changed_adjustments += more_adjustments
    return changed_deals, changed_adjustments


# -- helpers shared by the writes ------------------------------------------------------------------


def locked_match(match_id: int) -> Match:
    """The match row locked for a write (every match write starts here), with its event."""
    # of=("self",): lock the match row only. A bare FOR UPDATE would also lock the joined round,
    # stage and tournament rows and so serialise every table of the event on one row.
    return Match.objects.select_for_update(of=("self",)).select_related("round__stage__tournament").get(pk=match_id)


@functools.cache
def deal_entry_reads() -> Mapping[str, Exists]:
    """What a deal's write asks beside its locked match, in the lock's own statement
    (``tournament.matches.access.match_for_user(annotate=…)``): whether the match has adjustments
    and open players' entries. Both are written under the match's lock, so the answer holds until
    the write commits; where there are none, :func:`deal_entry_adjustments` and the claims' closing
    read nothing (every table enters deals: two statements saved each). Built once (a queryset's
    ``annotate`` copies what it is given): the statement is compiled once anyway."""
    return MappingProxyType(
        {
            "has_adjustments": Exists(Adjustment.objects.filter(match=OuterRef("pk"))),
            "has_open_claims": Exists(DealClaim.objects.filter(match=OuterRef("pk"), status__in=CLAIM_OPEN)),
        }
    )


def deal_entry_may_have(match: Match, name: str) -> bool:
    """Whether ``match``, read with :func:`deal_entry_reads`, may have ``name`` (``has_adjustments``,
    ``has_open_claims``); read without them: it may."""
    return bool(match.__dict__.get(name, True))


def deal_entry_adjustments(match: Match) -> list[Adjustment]:
    """:func:`match_adjustment_rows` of a match locked for a deal's write (none read where
    :func:`deal_entry_reads` says it has none)."""
    return match_adjustment_rows(match) if deal_entry_may_have(match, "has_adjustments") else []


def refuse_unless_open(match: Match) -> None:
    """Refuse a deal write to a bye or a signed-off match."""
    if match.is_bye:
        raise MatchRefused("bye", _("A bye has no deals."))
    if match.status == MatchStatus.CONFIRMED:
        raise MatchRefused("match_locked", _("The match is signed off; an organiser must unlock it first."))


def check_version(match: Match, expected_version: int | None) -> None:
    """Refuse a write made against another version of the match than the locked row's."""
    if expected_version is not None and expected_version != match.version:
        raise StaleVersion(match)


def _deals_of(*, match: int) -> QuerySet[Deal]:
    return Deal.objects.filter(match=match).order_by("number")


def match_deals(match: Match) -> list[Deal]:
    """The match's deals in order, as ``match.deals.order_by("number")`` gives them (each with its
    match), by a statement compiled once per process (``tournament.prepared``: every deal's write
    reads them)."""
    deals = prepared_rows("match_deals", _deals_of, match=match.pk)
    for deal in deals:
        Deal.match.field.set_cached_value(deal, match)
    return deals


def match_outcomes(match: Match) -> list[Any]:
    """The outcomes of the match's deals, in order."""
    return list(match.deals.order_by("number").values_list("outcome", flat=True))


def match_adjustment_rows(match: Match) -> list[Adjustment]:
    """The match's adjustments in the order they were recorded (the order they apply in)."""
    return list(match.adjustments.order_by("created_at", "id"))


# -- deals -------------------------------------------------------------------------------------------
