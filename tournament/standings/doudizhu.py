"""A Dou Dizhu points stage's ranking, cuts and final (docs/rules.md §10), fed from the stored tables.

:func:`tournament.standings.selectors.stage_ranking_get` answers for a three-seat stage through
:func:`three_seat_ranking`; nothing is ranked here — :mod:`scoring.doudizhu_standings` ranks, cuts and
the final included (:func:`scoring.doudizhu_standings.points_stage_ranking`). Each
player's round is their table's stored snapshot once the table counts (finished, or signed off if the
event counts signed-off results only: :func:`tournament.standings.counted.counted_statuses`), a bye
(``bye_points``), or nothing (not drawn: eliminated).

- **Cuts** are the stage's ``settings.cuts``: ``[{"after_round": 1, "keep": 18}, …]``. A cut applies
  once every table of its round counts; players it eliminates rank below everyone still in and are not
  drawn again. A tie across a cut is decided by lots drawn with the seed of the round after which it is
  cut (recorded with that round, so the cut is reproducible; the stage's own lots, drawn later for a tie
  where it is advanced from, never change a cut already made).
- **The final** is a points stage with ``settings.final``: its players (advanced from the stage before,
  ``settings.advancement.from_stage``) rank by their own points at the final table, tie-broken by
  their rank in the stage before.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from scoring.doudizhu_snapshot import TableSnapshot
from scoring.doudizhu_standings import (
    PlayerRound,
    PointsStageRanking,
    bye_round,
    points_stage_ranking,
    table_rounds_from_snapshot,
)
from scoring.options import RuleOptions
from tournament.matches.models import Match, MatchSeat, Round, Stage
from tournament.rules import rules_for_stage
from tournament.standings.counted import counted_statuses


def stage_cuts(stage: Stage) -> list[tuple[int, int]]:
    """``(after_round, keep)`` pairs of the stage, by round."""
    return sorted((cut.after_round, cut.keep) for cut in stage.settings.cuts)


def _player_rounds(
    stage: Stage, options: RuleOptions, statuses: Sequence[str] | None = None
) -> tuple[dict[int, list[PlayerRound]], dict[int, bool]]:
    """Round number → the players' rounds that count; round number → whether every table counts.
    ``statuses``: the tables' statuses that count (default: the event's policy)."""
    rounds: dict[int, list[PlayerRound]] = defaultdict(list)
    complete: dict[int, bool] = {}
    numbers = dict(Round.objects.filter(stage=stage).values_list("pk", "number"))
    seats: dict[int, dict[str, str]] = defaultdict(dict)
    for round_id, match_id, seat, pair_id in MatchSeat.objects.filter(round__stage=stage).values_list(
        "round_id", "match_id", "seat", "pair_id"
    ):
        if match_id is None:
            rounds[numbers[round_id]].append(bye_round(round=numbers[round_id], player=str(pair_id), options=options))
        else:
            seats[match_id][seat] = str(pair_id)
    for number in numbers.values():
        complete.setdefault(number, True)
    counted = counted_statuses(stage=stage) if statuses is None else statuses  # the event's policy by default
    for match_id, round_id, status, state in Match.objects.filter(round__stage=stage).values_list(
        "pk", "round_id", "status", "state"
    ):
        number = numbers[round_id]
        if status not in counted or len(seats[match_id]) != 3:
            complete[number] = False
            continue
        snapshot = TableSnapshot.from_json(state)
        rounds[number].extend(table_rounds_from_snapshot(round=number, seating=seats[match_id], snapshot=snapshot))
    return rounds, complete


def _lots_seed_for(stage: Stage, number: int) -> int | None:
    seed = Round.objects.filter(stage=stage, number=number).values_list("draw_seed", flat=True).first()
    return seed if seed is not None else stage.settings.lots_seed


def three_seat_ranking(
    *, stage: Stage, players: list[str], lots_seed: int | None = None, statuses: Sequence[str] | None = None
) -> PointsStageRanking:
    """The stage's ranking of ``players`` (see the module): the rules core's
    (:func:`scoring.doudizhu_standings.points_stage_ranking`) fed with the stored tables. ``statuses``:
    the tables' statuses that count (the event's policy when None; signed-off only to ask whether a final
    is decided)."""
    options = rules_for_stage(stage)
    by_round, complete = _player_rounds(stage, options, statuses)
    rounds = [item for items in by_round.values() for item in items]
    everyone = sorted(set(players) | {item.player for item in rounds}, key=int)
    cuts = stage_cuts(stage)
    before = _stage_before(stage) if stage.settings.final and rounds else None
    return points_stage_ranking(
        players=everyone,
        rounds=rounds,
        counted_rounds={number for number, counts in complete.items() if counts},
        cuts=cuts,
        cut_lots_seeds={after_round: _lots_seed_for(stage, after_round) for after_round, _keep in cuts},
        lots_seed=lots_seed,
        stage_before=three_seat_ranking(stage=before, players=[]).players if before is not None else None,
        stage_rounds=stage.settings.rounds,
    )


def _stage_before(stage: Stage) -> Stage | None:
    """The stage the finalists advanced from (its advancement record), else the points stage before it."""
    advancement = stage.settings.advancement
    earlier = Stage.objects.filter(tournament_id=stage.tournament_id, order__lt=stage.order)
    if advancement is not None:
        earlier = earlier.filter(pk=advancement.from_stage)
    return earlier.filter(format=stage.format).order_by("-order").first()
