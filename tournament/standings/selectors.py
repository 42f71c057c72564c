"""Standings of a stage: stored match snapshots fed through the rules core (RULES.md §5).

Nothing is ranked here: the rows, ranks and tie-break values come from ``scoring.standings``.
Results count once the rules core has finished the match (finished or confirmed); a bye match
(no E/W pair) is finished when it is drawn and counts as the stage's rules say.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.standings import MatchRecord, Standings, knockout_placings, rank
from tournament.matches.models import Match, MatchStatus, Round, RoundEntry, Stage, StageFormat
from tournament.registration.models import Pair
from tournament.rules import rules_for_stage

COUNTED = (MatchStatus.FINISHED, MatchStatus.CONFIRMED)
RESULT_KEYS = ("winner", "levels", "reason", "points")
"""What ``MatchRecord.from_result_json`` reads of a stored snapshot."""


@dataclass(frozen=True, slots=True)
class StageStandings:
    stage: Stage
    standings: Standings
    pairs: dict[int, Pair]

    def rows_with_pairs(self) -> list[tuple[object, Pair]]:
        return [(row, self.pairs[int(row.entrant)]) for row in self.standings.rows]


def stage_match_records(*, stage: Stage) -> list[MatchRecord]:
    """The stage's counted results as the rules core's records (entrants are pair ids as text)."""
    records: list[MatchRecord] = []
    matches = Match.objects.filter(round__stage=stage).filter(status__in=COUNTED)
    # Only the snapshot's result keys: its deal list is most of its size, and a 5,000-pair stage
    # has thousands of matches (DESIGN.md, numbers).
    for round_number, ns, ew, *values in matches.values_list(
        "round__number", "ns_pair_id", "ew_pair_id", *(f"state__{key}" for key in RESULT_KEYS)
    ):
        if ew is None:
            records.append(MatchRecord(round=round_number, ns=str(ns), ew=None))
        else:
            result = dict(zip(RESULT_KEYS, values, strict=True))
            records.append(MatchRecord.from_result_json(round=round_number, ns=str(ns), ew=str(ew), result=result))
    return records


def stage_standings(
    *, stage: Stage, lots_seed: int | None = None, records: Sequence[MatchRecord] | None = None
) -> StageStandings:
    """Ranked rows of every pair drawn in the stage (or, before any draw, every active pair).

    ``records``: the stage's :func:`stage_match_records` when the caller has them already.
    """
    entrant_ids = set(RoundEntry.objects.filter(round__stage=stage).values_list("pair_id", flat=True))
    pairs_qs = Pair.objects.filter(tournament_id=stage.tournament_id)
    pairs_qs = pairs_qs.filter(pk__in=entrant_ids) if entrant_ids else pairs_qs.exclude(status="withdrawn")
    pairs = {pair.pk: pair for pair in pairs_qs}
    records = stage_match_records(stage=stage) if records is None else records
    standings = rank(
        entrants=[str(pk) for pk in sorted(pairs)], results=records, options=rules_for_stage(stage), lots_seed=lots_seed
    )
    if stage.format == StageFormat.KNOCKOUT:
        # A knockout ranks by how far each pair went (final, third-place match, round lost in).
        third = set()
        for options in Round.objects.filter(stage=stage).values_list("draw_options", flat=True):
            third.update(str(pair) for pair in (options or {}).get("third_place_pairs") or ())
        standings = knockout_placings(standings=standings, results=records, third_place=frozenset(third))
    return StageStandings(stage=stage, standings=standings, pairs=pairs)
