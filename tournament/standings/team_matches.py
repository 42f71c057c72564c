"""A team match stage's results and standings (团体对抗, docs/rules.md §11): one answer for every reader.

Nothing is decided here: each table is an ordinary match, read as the stage's standings read it (its
snapshot's result, counted as the event's policy says: :func:`counted_statuses`); the rules core decides
each team match from its two tables (:func:`scoring.team_matches.team_match_decide`, option
``team_decider``) and ranks the teams (:func:`scoring.team_matches.team_standings_rank`: team match
points → tables won → small points → head-to-head → Buchholz → lots). The team draw, the team match
page, the public pages, the API and the benchmarks all ask :func:`stage_team_matches_get`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from scoring.bracket import (
    BracketState,
    FixedBracketState,
    KnockoutResult,
    MatchRef,
    bracket_state,
    fixed_bracket_state,
)
from scoring.seats import Side
from scoring.standings import MatchRecord
from scoring.team_matches import TeamMatchRecord, TeamMatchResult, TeamStandings, team_match_decide, team_standings_rank
from tournament.matches.models import Match, MatchStatus, Round, Stage, StageFormat, TeamMatch
from tournament.matches.snapshot_reads import RESULT_COLUMNS, result_record
from tournament.matches.stage_options import DrawOptions, draw_options_lookup
from tournament.registration.models import Team
from tournament.registration.teams import teams_withdrawn
from tournament.rules import rules_for_stage
from tournament.standings.counted import counted_statuses


@dataclass(frozen=True, slots=True)
class TeamMatchLine:
    """One team match as its pages show it: the row's ids, the two tables' match ids and the result."""

    id: int
    round: int
    number: int
    x: int
    y: int | None
    table_a: int | None
    table_b: int | None
    result: TeamMatchResult
    bracket_slot: int | None = None
    """A knockout of teams: the team match's position in its round of the fixed bracket."""
    walkover_over: int | None = None
    """A walkover (``y`` None, no tables): the withdrawn team X was due to meet, which forfeits the team
    match to X (its result names that team as Y: a forfeit win, not a bye, docs/rules.md §5, §11)."""


@dataclass(frozen=True, slots=True)
class StageTeamMatches:
    """The stage's team matches (every round, in order) and the team standings they give."""

    stage_id: int
    matches: tuple[TeamMatchLine, ...]
    standings: TeamStandings
    names: dict[int, str]
    """Team id → name."""

    def of_round(self, number: int) -> tuple[TeamMatchLine, ...]:
        return tuple(line for line in self.matches if line.round == number)


def _table_records(stage: Stage) -> dict[int, MatchRecord]:
    """Match id → the rules core's record of every counted table of the stage (a table still playing,
    or awaiting a sign-off the event's policy waits for, has none)."""
    counted = Match.objects.filter(round__stage=stage, status__in=counted_statuses(stage=stage))
    records: dict[int, MatchRecord] = {}
    for pk, number, ns, ew, *values in counted.filter(~Q(ew_pair__isnull=True)).values_list(
        "pk", "round__number", "ns_pair_id", "ew_pair_id", *RESULT_COLUMNS
    ):
        records[pk] = result_record(round=number, ns=ns, ew=ew, values=values)
    return records


def _team_walkovers(stage: Stage) -> dict[int, dict[int, int]]:
    """Round number → {team given a walkover: the withdrawn team it was due to meet} (the draw's record)."""
    out: dict[int, dict[int, int]] = {}
    # Only that key of the draw options: they also hold every warning of the round's draw.
    for number, stored in Round.objects.filter(stage=stage).values_list(
        "number", draw_options_lookup("team_walkovers")
    ):
        walkovers = DrawOptions.walkovers_of(stored)
        if walkovers:
            out[number] = walkovers
    return out


def stage_team_matches_get(*, stage: Stage, before_round: int | None = None) -> StageTeamMatches:
    """Every team match of ``stage`` decided from its two tables, and the team standings
    (docs/rules.md §11). A stage without team matches has none (empty standings of its teams).
    ``before_round``: only the rounds before it (the standings a later round was drawn from)."""
    options = rules_for_stage(stage)
    team_options = stage.settings.team_options
    records = _table_records(stage)
    team_matches = TeamMatch.objects.filter(round__stage=stage)
    if before_round is not None:
        team_matches = team_matches.filter(round__number__lt=before_round)
    rows = list(
        team_matches.order_by("round__number", "number").values_list(
            "pk",
            "round__number",
            "number",
            "team_x_id",
            "team_y_id",
            "table_a_id",
            "table_b_id",
            "extra_deal",
            "bracket_slot",
        )
    )
    walkovers = _team_walkovers(stage) if rows else {}
    lines = []
    for pk, number, position, x, y, a, b, extra_deal, slot in rows:
        # a team match with no opponent is a bye, unless the draw gave it as a walkover over a withdrawn team
        absent = walkovers.get(number, {}).get(x) if y is None else None
        record = TeamMatchRecord(
            round=number,
            x=str(x),
            y=str(absent) if absent is not None else None if y is None else str(y),
            a=records.get(a) if a is not None else None,
            b=records.get(b) if b is not None else None,
            extra_deal=Side[extra_deal] if extra_deal else None,
            walkover=str(absent) if absent is not None else None,
        )
        result = team_match_decide(record, options=options, team_options=team_options, stage=stage.format)
        lines.append(TeamMatchLine(pk, number, position, x, y, a, b, result, slot, absent))
    names = dict(Team.objects.filter(tournament_id=stage.tournament_id).values_list("pk", "name"))
    absent_teams = {line.walkover_over for line in lines if line.walkover_over is not None}
    standings = team_standings_rank(
        teams=[str(pk) for pk in sorted(_stage_teams(stage, rows, names) | absent_teams)],
        results=[line.result for line in lines],
        team_options=team_options,
        lots_seed=stage.settings.lots_seed,  # the stage's recorded lots (what stage_lots_seed answers)
    )
    return StageTeamMatches(stage.pk, tuple(lines), standings, names)


def _stage_teams(stage: Stage, rows: Sequence[tuple[Any, ...]], names: dict[int, str]) -> set[int]:
    """The stage's teams: those drawn in it, else (before its first round) those a previous stage
    advanced into it, else every team of the event."""
    drawn = {row[3] for row in rows} | {row[4] for row in rows if row[4] is not None}
    return drawn or (set(stage.settings.entrants) & set(names)) or set(names)


def team_bracket_winners(*, stage: Stage, played: StageTeamMatches | None = None) -> dict[MatchRef, int | None]:
    """``(round, bracket position) → winning team`` of every team match of a knockout of teams decided on
    signed-off tables (both confirmed; a drawn one once its tie-break deal is recorded, docs/rules.md §11);
    None for a team match lost by both (a double forfeit). Byes are left to the bracket."""
    played = stage_team_matches_get(stage=stage) if played is None else played
    tables = [table for line in played.matches for table in (line.table_a, line.table_b) if table is not None]
    confirmed = set(Match.objects.filter(pk__in=tables, status=MatchStatus.CONFIRMED).values_list("pk", flat=True))
    winners: dict[MatchRef, int | None] = {}
    for line in played.matches:
        if line.bracket_slot is None or line.y is None or not line.result.finished:
            continue
        if line.table_a not in confirmed or line.table_b not in confirmed:
            continue
        winner = line.result.winner
        winners[(line.round, line.bracket_slot)] = int(winner) if winner is not None else None
    return winners


def team_bracket_state_get(*, stage: Stage, statuses: Sequence[str] | None = None) -> BracketState:
    """A knockout of teams read by the one bracket engine (:func:`scoring.bracket.bracket_state`) with
    the teams (ids as text) as its entrants: each team match is a match of the bracket, team X at N/S,
    decided once :func:`team_bracket_winners` says so (both tables signed off; a drawn one once its
    tie-break deal is recorded); the third-place match is the final round's second position
    (docs/rules.md §4, §11); a team that withdrew (every member withdrawn) loses the team match it has
    not played by walkover. ``statuses``: only rounds in these statuses (the public bracket leaves out
    a draft)."""
    played = stage_team_matches_get(stage=stage)
    winners = team_bracket_winners(stage=stage, played=played)
    shown = TeamMatch.objects.filter(round__stage=stage)
    if statuses is not None:
        shown = shown.filter(round__status__in=statuses)
    ids = set(shown.values_list("pk", flat=True))
    record = stage.settings.bracket_record or {}
    final_round = max(len(record.get("slots") or ()).bit_length() - 1, 1)
    third_place = bool(record.get("third_place"))
    results: list[KnockoutResult] = []
    for line in played.matches:
        if line.id not in ids:
            continue
        ref = (line.round, line.bracket_slot or 0)
        winner = winners.get(ref)
        results.append(
            KnockoutResult(
                round=line.round,
                ns=str(line.x),
                ew=None if line.y is None else str(line.y),
                winner=None if winner is None else Side.NS if winner == line.x else Side.EW,
                confirmed=ref in winners,
                third_place=third_place and line.round == final_round and line.bracket_slot == 2,
            )
        )
    teams = _stage_teams(stage, _drawn_rows(played), played.names)
    gone = teams_withdrawn(tournament_id=stage.tournament_id) & teams
    return bracket_state(
        entrants=[str(pk) for pk in sorted(teams)], results=results, withdrawn=frozenset(str(pk) for pk in gone)
    )


def _drawn_rows(played: StageTeamMatches) -> list[tuple[Any, ...]]:
    """The team matches as the rows :func:`_stage_teams` reads (its 4th and 5th columns: the teams)."""
    return [(line.id, line.round, line.number, line.x, line.y) for line in played.matches]


def stage_team_bracket_get(*, stage: Stage) -> FixedBracketState[int] | None:
    """A knockout of teams' fixed bracket as its signed-off team matches have decided it (the one bracket
    engine, :func:`scoring.bracket.fixed_bracket_state`, with the teams as its entrants); None before its
    bracket is drawn, or for another stage."""
    record = stage.settings.bracket_record
    if stage.format != StageFormat.KNOCKOUT or stage.settings.team_match is None or not record:
        return None
    return fixed_bracket_state(
        slots=[None if slot is None else int(slot) for slot in record["slots"]],
        seeds=[int(seed) for seed in record["seeds"]],
        third_place=bool(record.get("third_place")),
        winners=team_bracket_winners(stage=stage),
        withdrawn=teams_withdrawn(tournament_id=stage.tournament_id),  # its next team match a walkover
    )


def team_bracket_decided(stage: Stage) -> bool:
    """A knockout of teams whose every team match (the third-place one too) is decided on signed-off
    tables; a Swiss or round robin of teams never decides itself."""
    state = stage_team_bracket_get(stage=stage)
    return state is not None and state.current_round is None
