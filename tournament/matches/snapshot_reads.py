"""Reads of a match's stored snapshot (``Match.state``, the rules core's ``MatchResult.to_json``)
beyond the typed readers on the models (``Match.snapshot``, ``Deal.snapshot``): the one module that
names the snapshot's keys in a query, turns its codes back into the rules core's enums and matches
its adjustment records to the rows they stand for.

- **A few keys fetched alone.** A list of thousands of matches (the standings, the public draw, the
  results sheet) fetches only the keys it shows — the deals are most of a snapshot's size —
  through :func:`snapshot_lookups`, and reads them back with :func:`snapshot_from_values`, the rules
  core's reader (a key not fetched reads as for a match never folded).
- **A few keys as stored text** (:func:`snapshot_texts`): the same keys as their stored JSON text,
  not read back — equal texts, equal values — so a worker that read a match's snapshot before reads
  back only the matches whose text changed (the public draw).
- **The result in columns** (:data:`RESULT_COLUMNS`, :func:`result_snapshot`, :func:`result_record`): a
  match's winner, reason, levels and points as the match row keeps them beside the snapshot
  (``Match.snapshot_winner`` and the rest: generated from it by the database), read by the rules core's
  reader as the snapshot's keys — what every standings record is made of
  (``tournament.standings.selectors.stage_match_records``, the team standings' tables), without
  inflating a snapshot.
- **The progress board's score** (:func:`board_score_lookups`, :func:`board_score`): a page of the
  board fetches a table's ``levels`` (two sides) or ``points`` (three seats) alone, not the deals.
- **Deals played**: the deals the rules core applied, i.e. the deals of the stored snapshot. A deal
  a correction made impossible is flagged and left out of the snapshot, so it is not played; the
  database answer (:func:`deals_played_count`) counts the unflagged deal rows, which the fold keeps
  equal to the snapshot's deals.
- **What happens now that time is called** (:func:`snapshot_time_up`), from the snapshot's outcome
  as the rules core's enums (:func:`snapshot_outcome`).
- **What each adjustment did** (:func:`adjustment_effects_get`): the snapshot's record of the
  adjustment the fold made of a row (``fold.scoring_adjustments``), matched on that adjustment's
  own JSON form.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, Subquery, TextField
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Cast, Coalesce

from scoring.doudizhu_snapshot import TableSnapshot
from scoring.errors import ScoringError
from scoring.options import RuleOptions
from scoring.outcome import Reason, Status
from scoring.seats import Side
from scoring.snapshot import MatchSnapshot, SidePair
from scoring.standings import MatchRecord
from scoring.time_up import TimeUpNotice, time_up_notice
from tournament.matches.fold import match_game, match_rules, scoring_adjustments
from tournament.matches.models import SNAPSHOT_RESULT, Adjustment, Deal, Match

CHUNK = 5000

SNAPSHOT_KEYS = frozenset(field.name for field in fields(MatchSnapshot)) - {"schema", "folded"}
"""The snapshot's keys a query may fetch alone (``MatchSnapshot``'s fields)."""

RESULT_KEYS = ("winner", "levels", "reason", "points")
"""What a standings record reads of a snapshot (``MatchRecord.from_snapshot``)."""

RESULT_COLUMNS = SNAPSHOT_RESULT
"""The match row's columns that hold :data:`RESULT_KEYS`, generated from the snapshot by the database
(for ``values_list``; read back by :func:`result_snapshot`)."""


# -- a few keys fetched alone ----------------------------------------------------------------------


def snapshot_lookups(*keys: str) -> tuple[str, ...]:
    """The ORM lookups (for ``values_list``) that fetch only ``keys`` of the stored snapshot."""
    unknown = set(keys) - SNAPSHOT_KEYS
    if unknown:
        raise ValueError(f"the match snapshot has no key {sorted(unknown)[0]!r}")
    return tuple(f"state__{key}" for key in keys)


def snapshot_texts(*keys: str) -> tuple[Cast, ...]:
    """Expressions (for ``values_list``) of ``keys`` of the stored snapshot, each as the database's text
    of its stored JSON value (None where there is none): not read back, only compared — the same
    texts are the same values, so what was read from them before still holds."""
    snapshot_lookups(*keys)  # the same keys a query may fetch
    return tuple(Cast(KeyTransform(key, "state"), output_field=TextField()) for key in keys)


def snapshot_from_values(keys: Sequence[str], values: Sequence[Any]) -> MatchSnapshot:
    """The values fetched by :func:`snapshot_lookups` for ``keys``, read by the rules core's reader."""
    return MatchSnapshot.from_json(dict(zip(keys, values, strict=True)))


def result_snapshot(values: Sequence[Any]) -> MatchSnapshot:
    """The values of :data:`RESULT_COLUMNS` of a match row read as the snapshot's :data:`RESULT_KEYS`
    fetched alone: the same reader, the same answer (an empty column is a key the snapshot lacks, a
    side's value without the other's a pair the reader does not take)."""
    winner, reason, levels_ns, levels_ew, points_ns, points_ew = values
    return snapshot_from_values(
        RESULT_KEYS,
        (winner or None, {"NS": levels_ns, "EW": levels_ew}, reason or None, {"NS": points_ns, "EW": points_ew}),
    )


def result_record(*, round: int, ns: int, ew: int, values: Sequence[Any]) -> MatchRecord:
    """The rules core's standings record of a match of two sides (its round's number, its N/S and E/W
    pairs' ids) from its :data:`RESULT_COLUMNS`' values: what every ranking of pairs and of teams reads
    of a match's result."""
    return MatchRecord.from_snapshot(round=round, ns=str(ns), ew=str(ew), snapshot=result_snapshot(values))


def snapshot_read(state: object) -> MatchSnapshot:
    """A whole stored snapshot fetched as a value (``values_list(..., "state")``), read as
    ``Match.snapshot`` reads it: a read of a few columns of many tables that builds no model."""
    return MatchSnapshot.from_json(state)


def side_pair(snapshot_value: object) -> tuple[int, int] | None:
    """One per-side value fetched alone (``levels``, ``points``) as ``(NS, EW)``; None if there is none."""
    pair = SidePair.from_json(snapshot_value)
    return (pair.NS, pair.EW) if pair is not None else None


# -- the progress board's score ------------------------------------------------------------------

BOARD_SCORE_KEYS = ("levels", "points")
"""What the progress board shows of a snapshot: a two-sided table's levels, a three-seat table's points."""


def board_score_lookups() -> tuple[str, ...]:
    """The ORM lookups (for ``values_list``) of :data:`BOARD_SCORE_KEYS` alone, read back by :func:`board_score`."""
    return snapshot_lookups(*BOARD_SCORE_KEYS)


def board_score(*, seats: bool, levels: object, points: object) -> tuple[int, ...]:
    """The values :func:`board_score_lookups` fetched, read by the rules core's readers: a three-seat
    table's points by seat (``Match.table_snapshot.points``), else the levels (N/S, E/W), the lowest
    for both before any fold (``Match.snapshot.levels_or_start``)."""
    if seats:
        return TableSnapshot.from_json({"points": points}).points
    return tuple(snapshot_from_values(("levels",), (levels,)).levels_or_start)


# -- deals played ----------------------------------------------------------------------------------


def match_deals_played(match: Match) -> int:
    """How many deals of ``match`` were played (the rules core applied them); read from its snapshot."""
    return DEALS_PLAYED[match_game(match).entrants.key](match)


DEALS_PLAYED: dict[str, Callable[[Match], int]] = {
    "pairs": lambda match: len(match.snapshot.deals),
    "players": lambda match: len(match.table_snapshot.deals),
}
"""The deals played at a match of each entrant kind (``tournament.games.entrants``), by its key: read by
the model's reader of its snapshot (two sides, or a three-seat table)."""


def deals_played_count() -> Coalesce:
    """:func:`match_deals_played` as an annotation of a match queryset: a correlated count over the
    unique (match, number) index, not a join and GROUP BY (which would sort every match row with its
    whole snapshot)."""
    played = (
        Deal.objects.filter(match=OuterRef("pk"), flagged=False)
        .order_by()
        .values("match")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Coalesce(Subquery(played, output_field=IntegerField()), 0)


# -- time up ---------------------------------------------------------------------------------------


def snapshot_outcome(snapshot: MatchSnapshot) -> tuple[Status, Side | None, Reason | None]:
    """The snapshot's status, winner and reason as the rules core's enums (a match never folded is
    in progress). Raises ValueError (or ScoringError) for a code the rules core does not know."""
    status = Status(snapshot.status or Status.IN_PROGRESS.value)
    winner = Side.parse(snapshot.winner) if snapshot.winner else None
    reason = Reason(snapshot.reason) if snapshot.reason else None
    return status, winner, reason


def match_time_up(match: Match) -> TimeUpNotice | None:
    """What happens now that time is called at ``match``, read by the rules core from its snapshot."""
    if match.time_called_during_deal is None or match.is_bye:
        return None
    return snapshot_time_up(
        options=match_rules(match),
        time_called_during_deal=match.time_called_during_deal,
        snapshot=match.snapshot,
        deals_played=match_deals_played(match),
    )


def snapshot_time_up(
    *, options: RuleOptions, time_called_during_deal: int | None, snapshot: MatchSnapshot, deals_played: int
) -> TimeUpNotice | None:
    """``scoring.time_up.time_up_notice`` of a stored snapshot (whole, or its ``status``, ``winner``,
    ``reason`` and ``last_regular_deal`` fetched alone): what the table does now that time is called."""
    if time_called_during_deal is None:
        return None
    try:
        status, winner, reason = snapshot_outcome(snapshot)
        return time_up_notice(
            options=options,
            time_called_during_deal=time_called_during_deal,
            status=status,
            winner=winner,
            reason=reason,
            deals_played=deals_played,
            last_regular_deal=snapshot.last_regular_deal,
        )
    except (ValueError, ScoringError):  # a snapshot the fold will rewrite: say nothing rather than guess
        return None


# -- what the adjustments did ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AdjustmentEffect:
    """What the rules core did with one adjustment row (the snapshot's record of it)."""

    effect: str
    amount: int
    levels_after: tuple[int, int] | None
    after_deal: int

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> AdjustmentEffect:
        """From the rules core's ``AdjustmentRecord.to_json``."""
        amount, after_deal = record.get("amount"), record.get("after_deal")
        return cls(
            effect=str(record.get("effect")),
            amount=amount if isinstance(amount, int) else 0,
            levels_after=side_pair(record.get("levels_after")),
            after_deal=after_deal if isinstance(after_deal, int) else 0,
        )


def match_adjustment_effects(
    *, match: Match, rows: Sequence[Adjustment], records: Sequence[Mapping[str, Any]]
) -> dict[int, AdjustmentEffect]:
    """Each of ``rows`` (the match's applied adjustment rows, in the order recorded) that the rules core
    recorded in ``records`` (the snapshot's ``adjustments``), by row id: the record whose fields are
    the JSON form of the adjustment the fold made of the row (a double forfeit: one record for both
    rows; a warning changes nothing and has none)."""
    effects: dict[int, AdjustmentEffect] = {}
    unused = list(records)
    for group, adjustment in scoring_adjustments(match=match, rows=rows):
        wanted = adjustment.to_json()
        for index, record in enumerate(unused):
            if all(record.get(key) == value for key, value in wanted.items()):
                effect = AdjustmentEffect.from_record(record)
                effects.update((row.pk, effect) for row in group)
                del unused[index]
                break
    return effects


def _sides_adjustment_effects(match: Match) -> dict[int, AdjustmentEffect]:
    rows = list(match.adjustments.filter(flagged=False).order_by("created_at", "id"))
    return match_adjustment_effects(match=match, rows=rows, records=match.snapshot.adjustments) if rows else {}


ADJUSTMENT_EFFECTS: dict[str, Callable[[Match], dict[int, AdjustmentEffect]]] = {
    "pairs": _sides_adjustment_effects,
    "players": lambda match: {},  # a three-seat table's penalties are points, said by the row itself
}
"""What one match's adjustments did (by row id), by entrant kind: for the adjustments page."""


def match_adjustments_effects(*, match: Match) -> dict[int, AdjustmentEffect]:
    """What the rules core did with each of the match's applied adjustments, by row id."""
    return ADJUSTMENT_EFFECTS[match_game(match).entrants.key](match)


def adjustment_effects_get(*, tournament_id: int) -> dict[int, AdjustmentEffect]:
    """:func:`match_adjustment_effects` of every applied adjustment row of the tournament, by row id
    (the snapshots' ``adjustments`` fetched alone)."""
    rows: dict[int, list[Adjustment]] = defaultdict(list)
    applied = Adjustment.objects.filter(tournament_id=tournament_id, match__isnull=False, flagged=False)
    for row in applied.order_by("created_at", "id").only(
        "id", "match_id", "pair_id", "kind", "minutes_late", "levels", "points", "after_deal", "reason"
    ):
        if row.match_id is not None:  # always: filtered by match
            rows[row.match_id].append(row)
    if not rows:
        return {}
    effects: dict[int, AdjustmentEffect] = {}
    matches = Match.objects.filter(pk__in=list(rows)).values_list("id", "ns_pair_id", *snapshot_lookups("adjustments"))
    for match_id, ns_pair_id, records in matches.iterator(chunk_size=CHUNK):
        snapshot = snapshot_from_values(("adjustments",), (records,))
        match = Match(pk=match_id, ns_pair_id=ns_pair_id)  # the sides of its rows, nothing else
        effects.update(match_adjustment_effects(match=match, rows=rows[match_id], records=snapshot.adjustments))
    return effects
