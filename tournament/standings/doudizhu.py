"""A Dou Dizhu points stage's ranking, cuts and final (docs/rules.md §10), fed from the stored tables.

:func:`tournament.standings.selectors.stage_ranking_get` answers for a three-seat stage through
:func:`three_seat_stage_ranking`; nothing is ranked here — :mod:`scoring.doudizhu_standings` ranks. Each
player's round is their table's stored snapshot once the table is finished (or signed off), a bye
(``bye_points``), or nothing (not drawn: eliminated).

- **Cuts** are the stage's ``options["cuts"]``: ``[{"after_round": 1, "keep": 18}, …]``. A cut applies
  once every table of its round counts; players it eliminates rank below everyone still in and are not
  drawn again. A tie across a cut is decided by lots drawn with the seed of the round after which it is
  cut (recorded with that round, so the cut is reproducible) unless the stage recorded its own lots seed.
- **The final** is a points stage with ``options["final"]``: its players (advanced from the stage before,
  ``options["advancement"]["from_stage"]``) rank by their own points at the final table, tie-broken by
  their rank in the stage before.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.doudizhu_standings import (
    PlayerRound,
    PlayerStandings,
    bye_round,
    cut_players,
    final_ranking,
    rank_players,
    table_rounds_from_json,
)
from scoring.errors import ScoringError
from scoring.options import RuleOptions
from scoring.standings import StandingRow, Standings
from tournament.matches.models import Match, MatchSeat, MatchStatus, Round, Stage
from tournament.rules import rules_for_stage

COUNTED = (MatchStatus.FINISHED, MatchStatus.CONFIRMED)

TIE_BREAKERS = ("points", "deals_won", "landlord_wins", "best_round", "lots")


@dataclass(frozen=True, slots=True)
class ThreeSeatRanking:
    """A three-seat stage's ranking as the rules core made it, with the cuts that applied."""

    players: PlayerStandings
    eliminated_after: dict[str, int] = field(default_factory=dict)
    """Player id (text) → the round after whose cut they were eliminated."""
    cuts: tuple[dict[str, Any], ...] = ()
    """The stage's cuts, each with ``applied`` (its round counts) and ``kept``/``eliminated`` counts."""
    rounds: dict[str, list[PlayerRound]] = field(default_factory=dict)
    """Player id (text) → their rounds (a player's page shows each)."""
    final: bool = False
    pending_cut: str = ""
    """Why a due cut could not be made (empty when none)."""

    def still_in(self, player: str) -> bool:
        return player not in self.eliminated_after


def stage_cuts(stage: Stage) -> list[tuple[int, int]]:
    """``(after_round, keep)`` pairs of the stage, by round."""
    cuts = stage.options.get("cuts") or []
    out = []
    for item in cuts if isinstance(cuts, list) else []:
        if isinstance(item, Mapping) and isinstance(item.get("after_round"), int) and isinstance(item.get("keep"), int):
            out.append((item["after_round"], item["keep"]))
    return sorted(out)


def _player_rounds(stage: Stage, options: RuleOptions) -> tuple[dict[int, list[PlayerRound]], dict[int, bool]]:
    """Round number → the players' rounds that count; round number → whether every table counts."""
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
    for match_id, round_id, status, state in Match.objects.filter(round__stage=stage, three_seats=True).values_list(
        "pk", "round_id", "status", "state"
    ):
        number = numbers[round_id]
        if status not in COUNTED or len(seats[match_id]) != 3:
            complete[number] = False
            continue
        rounds[number].extend(table_rounds_from_json(round=number, seating=seats[match_id], result=state))
    return rounds, complete


def _lots_seed_for(stage: Stage, number: int) -> int | None:
    seed = stage.options.get("lots_seed")
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed
    return Round.objects.filter(stage=stage, number=number).values_list("draw_seed", flat=True).first()


def three_seat_ranking(*, stage: Stage, players: list[str], lots_seed: int | None = None) -> ThreeSeatRanking:
    """The stage's ranking of ``players`` (see the module), cuts applied."""
    options = rules_for_stage(stage)
    by_round, complete = _player_rounds(stage, options)
    everyone = sorted(set(players) | {item.player for items in by_round.values() for item in items}, key=int)
    eliminated: dict[str, int] = {}
    cuts_shown: list[dict[str, Any]] = []
    pending = ""
    for after_round, keep in stage_cuts(stage):
        shown: dict[str, Any] = {"after_round": after_round, "keep": keep, "applied": False}
        if complete.get(after_round) and not pending:
            upto = [item for number, items in by_round.items() if number <= after_round for item in items]
            try:
                standings = rank_players(
                    players=everyone,
                    rounds=upto,
                    lots_seed=_lots_seed_for(stage, after_round),
                    eliminated_after=eliminated,
                )
                cut = cut_players(standings=standings, keep=keep, after_round=after_round)
            except ScoringError as error:
                pending = error.message
            else:
                eliminated.update(dict.fromkeys(cut.eliminated, after_round))
                shown.update(applied=True, kept=len(cut.kept), eliminated=len(cut.eliminated))
        cuts_shown.append(shown)
    all_rounds = [item for items in by_round.values() for item in items]
    per_player: dict[str, list[PlayerRound]] = defaultdict(list)
    for item in sorted(all_rounds, key=lambda r: r.round):
        per_player[item.player].append(item)
    if stage.options.get("final"):
        before = _stage_before(stage)
        if before is not None and all_rounds:
            stage_standings = three_seat_ranking(stage=before, players=[]).players
            known = {row.player for row in stage_standings.rows}
            if all(item.player in known for item in all_rounds):
                final = final_ranking(final=all_rounds, stage=stage_standings)
                return ThreeSeatRanking(final, {}, (), dict(per_player), final=True)
    standings = rank_players(players=everyone, rounds=all_rounds, lots_seed=lots_seed, eliminated_after=eliminated)
    return ThreeSeatRanking(standings, eliminated, tuple(cuts_shown), dict(per_player), pending_cut=pending)


def _stage_before(stage: Stage) -> Stage | None:
    """The stage the finalists advanced from (its advancement record), else the points stage before it."""
    advancement = stage.options.get("advancement") or {}
    from_stage = advancement.get("from_stage") if isinstance(advancement, Mapping) else None
    earlier = Stage.objects.filter(tournament_id=stage.tournament_id, order__lt=stage.order)
    if isinstance(from_stage, int):
        earlier = earlier.filter(pk=from_stage)
    return earlier.filter(format=stage.format).order_by("-order").first()


def as_standings(ranking: ThreeSeatRanking) -> Standings:
    """The ranking in the shape every stage's ``standings`` has (advancement, the next draw, prizes read
    its order): ``match_points`` are the points (积分), ``played`` the rounds, ``wins`` the deals won."""
    rows = tuple(
        StandingRow(
            rank=row.rank,
            entrant=row.player,
            shared=row.shared,
            played=row.rounds,
            wins=row.deals_won,
            draws=0,
            losses=0,
            byes=row.byes,
            match_points=row.points,
            small_points=row.landlord_wins,
            levels_sum=0,
            deal_points=row.best_round or 0,
            buchholz=0,
            head_to_head=None,
            lots=row.lots,
        )
        for row in ranking.players.rows
    )
    return Standings(rows=rows, tie_breakers=TIE_BREAKERS, lots_seed=ranking.players.lots_seed)
