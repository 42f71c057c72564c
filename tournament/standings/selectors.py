"""One answer to each question about a stage: its ranking and its bracket (docs/design.md).

Nothing is ranked here: the rows, ranks, groups, lots and bracket come from the rules core
(:func:`scoring.stage_ranking.rank_stage`, :func:`scoring.bracket.bracket_state`,
:func:`scoring.standings.bracket_placings`) fed with the stored match snapshots. The public pages,
advancement, the next round's draw, prizes, the API and the workbook all call
:func:`stage_ranking_get` and :func:`stage_bracket_state_get`.

Results count in a Swiss or round robin as the event's policy says (``Tournament.provisional_results``):
by default once the rules core has finished the match (finished or confirmed), a result
awaiting sign-off being marked 待确认 (:attr:`StageStandings.provisional`: the pairs it touches);
with ``signed_off`` only confirmed results count. A bye match (no E/W pair) is finished when it is
drawn and counts as the stage's rules
say, and a walkover against a withdrawn pair (``Round.draw_settings.walkovers``) counts as a
forfeit win. A knockout advances, names its champion and places its pairs on **confirmed**
(signed-off) results only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db.models import Q, QuerySet

from scoring.bracket import BracketState, KnockoutResult, bracket_state
from scoring.doudizhu_standings import PointsStageRanking, as_standings
from scoring.seats import Side
from scoring.stage_ranking import StageRanking, rank_stage
from scoring.standings import MatchRecord, StandingRow, Standings, bracket_placings, rank
from scoring.team_matches import TEAM_TIE_BREAKERS
from tournament.games import stage_entrants_of
from tournament.matches.models import Match, MatchSeat, MatchStatus, Round, RoundEntry, Stage, StageFormat
from tournament.matches.snapshot_reads import RESULT_COLUMNS, result_record
from tournament.matches.stage_options import DrawOptions, draw_options_lookup
from tournament.registration.models import Pair, PairStatus, Team
from tournament.rules import rules_for_stage
from tournament.standings.cache import LocalMemo
from tournament.standings.counted import COUNTED, SIGNED_OFF_ONLY, counted_statuses, stage_provisional_pairs
from tournament.standings.doudizhu import three_seat_ranking
from tournament.standings.team_matches import stage_team_matches_get, team_bracket_decided, team_bracket_state_get


def _counted(stage: Stage) -> QuerySet[Match]:
    """The stage's matches that count: of the policy's statuses, and byes (finished when drawn)."""
    return Match.objects.filter(round__stage=stage).filter(
        Q(status__in=counted_statuses(stage=stage)) | Q(ew_pair__isnull=True, status__in=COUNTED)
    )


class StageEntrant(NamedTuple):
    """A pair drawn in a stage as its ranking's readers use it (the public standings, advancement, the
    workbook): read as plain values, not as :class:`~tournament.registration.models.Pair` rows — a
    5,000-pair stage's standings are rebuilt every few seconds, and a model instance per pair was a fifth
    of a rebuild."""

    pk: int
    name: str
    number: int
    status: str

    def get_status_display(self) -> str:
        """The status's label, as the model's own method gives it (the pages read it so)."""
        return str(PairStatus(self.status).label)


Entrants = dict[int, StageEntrant]
"""A stage's pairs by id."""


@dataclass(frozen=True, slots=True)
class StageStandings:
    """A stage's ranking: ``standings`` in stage order (``rank`` = the place in the whole stage: a
    knockout's placings, a grouped round robin by group place then across groups); ``ranking`` the
    Swiss / round-robin detail (groups, ranks within them, withdrawn pairs); ``bracket`` a
    knockout's state."""

    stage: Stage
    standings: Standings
    pairs: Entrants
    ranking: StageRanking | None = None
    bracket: BracketState | None = None
    players: PointsStageRanking | None = None
    """A three-seat points stage (Dou Dizhu, docs/rules.md §10): the players' ranking and its cuts
    (``standings`` then holds the same order: points as match points)."""
    provisional: frozenset[str] = frozenset()
    """Pairs whose counted results include one awaiting sign-off (待确认; the event's policy)."""
    teams: dict[int, Team] | None = None
    """A stage played between teams (a knockout of teams, docs/rules.md §11): team id → team. ``standings``
    then ranks the teams (its bracket's placings, each row the team's team match record) and ``pairs``
    is empty: the stage has no ranking of pairs."""

    def rows_with_pairs(self) -> list[tuple[StandingRow, StageEntrant]]:
        """Each row with its pair (none in a ranking of teams: see ``teams``)."""
        if self.teams is not None:
            return []
        return [(row, self.pairs[int(row.entrant)]) for row in self.standings.rows]


def stage_groups(*, stage: Stage) -> dict[str, int]:
    """Pair id (text) → group, for a round robin played in groups (the draw records them)."""
    settings = stage.settings
    if stage.format != StageFormat.ROUND_ROBIN or settings.group_of is None or settings.groups < 2:
        return {}
    return dict(settings.group_of)


def _walkovers(stage: Stage) -> dict[int, dict[str, str]]:
    """Round number → {pair given a walkover: the withdrawn pair it was due to meet}."""
    out: dict[int, dict[str, str]] = {}
    # Only that key of the draw options: they also hold every warning of a large draw.
    for number, stored in Round.objects.filter(stage=stage).values_list("number", draw_options_lookup("walkovers")):
        if isinstance(stored, Mapping):
            walkovers = DrawOptions.walkovers_of(stored)
            out[number] = {str(present): str(gone) for present, gone in walkovers.items()}
    return out


RecordKey = tuple[Any, ...]
"""What a counted match's record is made of, as the row read: its round's number, its N/S and E/W pairs,
and its result columns' values (:data:`tournament.matches.snapshot_reads.RESULT_COLUMNS`)."""

read_records = LocalMemo(8)
"""A worker's records of each stage as it last read them: stage id → {:data:`RecordKey`: record}. A
record is a function of its key alone (the rules core reads nothing else), so a record found under
the same key is the record a fresh read would give — with any number of workers, inside a
transaction or after one rolled back — and a read of the stage makes records only of the matches whose
stored result changed since (during a round, the few tables that finished or corrected one), not
the thousands of a 5,000-pair stage."""


def stage_match_records(*, stage: Stage) -> list[MatchRecord]:
    """The stage's counted results as the rules core's records (entrants are pair ids as text), in
    stage order (round, table).

    A match's result is read from the columns the match row keeps it in (``RESULT_COLUMNS``: winner,
    reason, levels, points), not from its snapshot — a 5,000-pair stage has thousands of matches, and
    every key read out of a stored snapshot inflates all of it, deals included (docs/design.md,
    numbers) — and a match whose row reads as the worker last read it keeps its record
    (:data:`read_records`)."""
    walkovers = _walkovers(stage)
    counted = _counted(stage).filter(ns_pair__isnull=False).order_by("round__number", "table__number", "id")
    known = read_records.get(stage.pk) or {}
    held: dict[RecordKey, MatchRecord] = {}
    records: list[MatchRecord] = []
    for row in counted.values_list("round__number", "ns_pair_id", "ew_pair_id", *RESULT_COLUMNS):
        record = known.get(row)  # the row itself is the key: nothing is built for a match read before
        if record is None:
            number, ns, ew = row[0], row[1], row[2]
            if ew is None:
                against = walkovers.get(number, {}).get(str(ns))
                if against is not None:  # the opponent withdrew: a forfeit win (docs/rules.md §5), not a bye
                    records.append(MatchRecord(round=number, ns=str(ns), ew=against, forfeit=Side.EW))
                else:
                    records.append(MatchRecord(round=number, ns=str(ns), ew=None))
                continue
            record = result_record(round=number, ns=ns, ew=ew, values=row[3:])
        held[row] = record
        records.append(record)
    read_records.put(stage.pk, held)
    return records


def stage_third_place_matches(*, stage: Stage) -> frozenset[int]:
    """The ids of a knockout's third-place matches (docs/rules.md §4 "Tournament structures"): in a fixed
    bracket the match the bracket places second in its final round (a correction that moves the pairs
    moves nothing here); in a knockout re-drawn every round the match between the pairs the draw marked
    (``third_place_pairs`` of its draw record, kept in step by a correction)."""
    if stage.format != StageFormat.KNOCKOUT:
        return frozenset()
    settings = stage.settings
    record = settings.bracket_record
    if record is not None and isinstance(record.get("size"), int):
        if not settings.third_place:
            return frozenset()
        final_round = record["size"].bit_length() - 1
        rows = Match.objects.filter(round__stage=stage, round__number=final_round, bracket_slot=2)
        return frozenset(rows.values_list("id", flat=True))
    marked: dict[int, set[int | None]] = {}
    lookup = draw_options_lookup("third_place_pairs")
    for number, stored in Round.objects.filter(stage=stage).values_list("number", lookup):
        if pairs := DrawOptions.third_place_pairs_of(stored):
            marked[number] = set(pairs)
    rows = Match.objects.filter(round__stage=stage, round__number__in=marked)
    return frozenset(
        pk
        for pk, number, ns, ew in rows.values_list("id", "round__number", "ns_pair_id", "ew_pair_id")
        if {ns, ew} == marked[number]
    )


def stage_knockout_results(*, stage: Stage, statuses: Sequence[str] | None = None) -> list[KnockoutResult]:
    """Every drawn match of a knockout (of rounds in ``statuses`` if given) for the bracket state."""
    third = stage_third_place_matches(stage=stage)
    matches = Match.objects.filter(round__stage=stage)
    if statuses is not None:
        matches = matches.filter(round__status__in=statuses)
    out = []
    for pk, number, ns, ew, winner, status in matches.order_by("round__number", "bracket_slot", "id").values_list(
        "id", "round__number", "ns_pair_id", "ew_pair_id", "winner", "status"
    ):
        out.append(
            KnockoutResult(
                round=number,
                ns=str(ns),
                ew=str(ew) if ew is not None else None,
                winner=Side.parse(winner) if winner in ("NS", "EW") else None,
                confirmed=status == MatchStatus.CONFIRMED,
                third_place=pk in third,
            )
        )
    return out


_ENTRANT_FIELDS = ("pk", "name", "number", "status")


def _entrants(stage: Stage) -> Entrants:
    """The pairs drawn in the stage (entered in a round, or seated at a three-seat table); before any
    draw, every active pair of the tournament."""
    entered = RoundEntry.objects.filter(round__stage=stage).values("pair_id")
    seated = MatchSeat.objects.filter(round__stage=stage).values("pair_id")
    pairs_qs = Pair.objects.filter(tournament_id=stage.tournament_id).order_by().values_list(*_ENTRANT_FIELDS)
    # Subqueries, not the ids read and sent back: a 5,000-pair stage has 15,000 entries by its third round.
    drawn = pairs_qs.filter(Q(pk__in=entered) | Q(pk__in=seated))
    pairs = {row[0]: StageEntrant._make(row) for row in drawn}
    if pairs or entered.exists() or seated.exists():
        return pairs
    return {row[0]: StageEntrant._make(row) for row in pairs_qs.exclude(status=PairStatus.WITHDRAWN)}


def _withdrawn(pairs: Mapping[int, StageEntrant]) -> frozenset[str]:
    return frozenset(str(pk) for pk, pair in pairs.items() if pair.status == PairStatus.WITHDRAWN)


def _pairs_bracket_state(stage: Stage, pairs: Entrants | None, statuses: Sequence[str] | None) -> BracketState:
    """A knockout of pairs (or players) read from its matches."""
    pairs = _entrants(stage) if pairs is None else pairs
    return bracket_state(
        entrants=[str(pk) for pk in sorted(pairs)],
        results=stage_knockout_results(stage=stage, statuses=statuses),
        withdrawn=_withdrawn(pairs),
    )


def _teams_bracket_state(stage: Stage, pairs: Entrants | None, statuses: Sequence[str] | None) -> BracketState:
    """A knockout of teams read from its team matches, the teams its entrants (docs/rules.md §11)."""
    return team_bracket_state_get(stage=stage, statuses=statuses)


STAGE_BRACKET_STATES: dict[str, Callable[[Stage, Entrants | None, Sequence[str] | None], BracketState]] = {
    "pairs": _pairs_bracket_state,
    "players": _pairs_bracket_state,
    "teams": _teams_bracket_state,
}
"""A knockout's state, by who the stage is drawn between (``tournament.games.stage_entrants_of``)."""


def stage_bracket_state_get(
    *, stage: Stage, pairs: Entrants | None = None, statuses: Sequence[str] | None = None
) -> BracketState:
    """A knockout's state: who is still in, who plays for third, the champion (confirmed results
    only; :func:`scoring.bracket.bracket_state`), over the stage's entrants whoever they are: its pairs
    (``pairs`` when the caller has them), or a knockout of teams' teams (its team matches, docs/rules.md
    §11; the ids are then team ids). ``statuses``: only rounds in these statuses (the public bracket
    leaves out a draft)."""
    return STAGE_BRACKET_STATES[stage_entrants_of(stage).key](stage, pairs, statuses)


@dataclass(frozen=True, slots=True)
class StageBracket:
    """A knockout's bracket, whoever its entrants are (pairs, or teams of pairs: docs/rules.md §11):
    ``state`` the bracket engine's answer over the entrants' ids as text, ``placings`` how far each
    went (:func:`scoring.standings.bracket_placings`), ``names`` entrant id → name, ``kind`` the
    stage's entrant kind's key (``tournament.games.stage_entrants_of``)."""

    kind: str
    state: BracketState
    placings: Standings
    names: dict[int, str]

    @property
    def decided(self) -> bool:
        """The champion is known with nothing pending: the placings are final."""
        return self.state.complete and not self.state.pending

    @property
    def champion(self) -> str:
        """The champion's name (empty until there is one)."""
        return self.names.get(int(self.state.champion), "") if self.state.champion else ""


def _pairs_bracket(stage: Stage, statuses: Sequence[str] | None) -> StageBracket:
    pairs = _entrants(stage)
    state = _pairs_bracket_state(stage, pairs, statuses)
    entrants = [str(pk) for pk in sorted(pairs)]
    base = rank(
        entrants=entrants,
        results=stage_match_records(stage=stage),
        options=rules_for_stage(stage),
        lots_seed=stage_lots_seed(stage=stage),
    )
    names = {pk: pair.name for pk, pair in pairs.items()}
    return StageBracket("pairs", state, bracket_placings(standings=base, state=state), names)


def _team_placings(stage: Stage, state: BracketState, lots_seed: int | None) -> Standings:
    """A knockout of teams' placings (:func:`scoring.standings.bracket_placings`, as for pairs): the teams
    that went equally far in their team standings' order, their rank shared, or lots with ``lots_seed``;
    each row holds the team's team match record (played, won, drawn, lost, byes; its team match points
    as match points, its small points and Buchholz)."""
    played = stage_team_matches_get(stage=stage)
    rows = tuple(
        StandingRow(
            rank=row.rank,
            entrant=row.team,
            shared=row.shared,
            played=row.played,
            wins=row.wins,
            draws=row.draws,
            losses=row.losses,
            byes=row.byes,
            match_points=row.match_points,
            small_points=row.small_points,
            levels_sum=0,
            deal_points=0,
            buchholz=row.buchholz,
            head_to_head=row.head_to_head,
            lots=None,
        )
        for row in played.standings.rows  # the same teams as the bracket's entrants
    )
    base = Standings(rows=rows, tie_breakers=TEAM_TIE_BREAKERS, lots_seed=lots_seed)
    return bracket_placings(standings=base, state=state)


def _teams_bracket(stage: Stage, statuses: Sequence[str] | None) -> StageBracket:
    """A knockout of teams: the teams' bracket (:func:`team_bracket_state_get`) and its placings
    (:func:`_team_placings`, with the stage's lots)."""
    state = team_bracket_state_get(stage=stage, statuses=statuses)
    names = dict(Team.objects.filter(tournament_id=stage.tournament_id).values_list("pk", "name"))
    return StageBracket("teams", state, _team_placings(stage, state, stage_lots_seed(stage=stage)), names)


def _team_ranking(stage: Stage, lots_seed: int | None) -> StageStandings:
    """The ranking of a stage played between teams in a knockout: its bracket's placings of the teams
    (the one bracket of :func:`stage_bracket_get`), nothing provisional (signed-off tables only)."""
    state = team_bracket_state_get(stage=stage)
    teams = Team.objects.filter(tournament_id=stage.tournament_id).in_bulk()
    standings = _team_placings(stage, state, lots_seed)
    return StageStandings(stage=stage, standings=standings, pairs={}, bracket=state, teams=teams)


STAGE_BRACKETS: dict[str, Callable[[Stage, Sequence[str] | None], StageBracket]] = {
    "pairs": _pairs_bracket,
    "players": _pairs_bracket,  # a player is registered as a one-player entrant, read as a pair is
    "teams": _teams_bracket,
}
"""The bracket of a knockout, by who the stage is drawn between (``tournament.games.stage_entrants_of``)."""


def stage_bracket_get(*, stage: Stage, statuses: Sequence[str] | None = None) -> StageBracket | None:
    """The stage's bracket, the one answer the public bracket page, the placings page and the award
    lists read (docs/rules.md §4 "Tournament structures", §11): its state and placings over its
    entrants, pairs or teams; None for a stage that is not a knockout."""
    if stage.format != StageFormat.KNOCKOUT:
        return None
    return STAGE_BRACKETS[stage_entrants_of(stage).key](stage, statuses)


def _bracket_decided(stage: Stage) -> bool:
    """A knockout whose champion is known with nothing pending (confirmed results only); a Swiss or round
    robin never decides itself: the organiser says when it is over."""
    if stage.format != StageFormat.KNOCKOUT:
        return False
    state = stage_bracket_state_get(stage=stage)
    return bool(state.complete and not state.pending)


def _final_table_decided(stage: Stage) -> bool:
    """A final of points (docs/rules.md §10) whose every round is signed off: the rules core's
    :attr:`scoring.doudizhu_standings.PointsStageRanking.decided`. A points stage that is not a final (a
    stage with cuts) is over when the organiser says so, as a Swiss."""
    if not stage.settings.final:
        return False
    return three_seat_ranking(stage=stage, players=[], statuses=SIGNED_OFF_ONLY).decided


STAGE_DECIDED: dict[str, Callable[[Stage], bool]] = {
    "pairs": _bracket_decided,
    "players": _final_table_decided,
    "teams": team_bracket_decided,
}
"""Whether a stage has decided its places by itself, by who the stage is drawn between
(``tournament.games.stage_entrants_of``)."""


def stage_decided_get(*, stage: Stage) -> bool:
    """Whether ``stage`` has decided its places by itself, on signed-off results: a knockout's bracket with
    its champion and nothing pending, a final table of points with every round signed off. The event
    finishes by itself when its last stage is decided (``tournament.draw.receivers``)."""
    return STAGE_DECIDED[stage_entrants_of(stage).key](stage)


def stage_lots_seed(*, stage: Stage) -> int | None:
    """The seed of the lots drawn for the stage (recorded when advancement needed them)."""
    return stage.settings.lots_seed


earlier_rankings = LocalMemo(8)
"""A worker's rankings asked for with ``remember`` (the live standings' ranking before the latest
round, for the movement column), keyed by everything the rules core ranks from: the same inputs
give the same ranking, so a remembered one can never be out of date, with any number of workers.
During a round the results before it do not change, so each standings rebuild ranks once, not twice."""


def stage_ranking_get(
    *,
    stage: Stage,
    lots_seed: int | None = None,
    records: Sequence[MatchRecord] | None = None,
    pairs: Entrants | None = None,
    remember: bool = False,
    lots: bool = True,
    provisional: bool = True,
) -> StageStandings:
    """The stage's ranking of every pair drawn in it (or, before any draw, every active pair).

    Swiss and round robin: :func:`scoring.stage_ranking.rank_stage` (groups, withdrawn pairs last,
    lots with the stage's recorded seed, else ``lots_seed``). Knockout: the placings from the
    bracket state. ``records``: the stage's :func:`stage_match_records` and ``pairs`` its
    entrants (as this answer's ``pairs``) when the caller has them. ``remember``: a Swiss or round
    robin ranking is kept in the worker's memory under its inputs (:data:`earlier_rankings`) and
    taken from there when they are the same again. ``lots=False``: no lots at all, a full tie
    stays shared (whether a cut is tied, lots aside). ``provisional=False``: the pairs awaiting
    sign-off are not read (``provisional`` left empty), for a caller that reads the order alone (the
    live standings' ranking before the latest round, for the movement column).

    A knockout of teams (docs/rules.md §11) ranks its teams: its bracket's placings, the same as
    :func:`stage_bracket_get`'s (``teams`` names them; ``pairs``, ``records`` are not read).
    """
    seed = stage_lots_seed(stage=stage)
    seed = None if not lots else lots_seed if seed is None else seed
    if stage.format == StageFormat.KNOCKOUT and stage_entrants_of(stage).key == "teams":
        return _team_ranking(stage, seed)  # a knockout of teams ranks its teams (docs/rules.md §11)
    pairs = _entrants(stage) if pairs is None else pairs
    records = stage_match_records(stage=stage) if records is None else records
    options = rules_for_stage(stage)
    entrants = [str(pk) for pk in sorted(pairs)]
    if stage.format == StageFormat.POINTS:
        players = three_seat_ranking(stage=stage, players=entrants, lots_seed=seed)
        return StageStandings(
            stage=stage,
            standings=as_standings(players.players),
            pairs=pairs,
            players=players,
            provisional=stage_provisional_pairs(stage=stage) if provisional else frozenset(),
        )
    if stage.format == StageFormat.KNOCKOUT:
        state = stage_bracket_state_get(stage=stage, pairs=pairs)
        base = rank(entrants=entrants, results=records, options=options, lots_seed=seed)
        placings = bracket_placings(standings=base, state=state)
        # a knockout places on confirmed results only: nothing of it is provisional
        return StageStandings(stage=stage, standings=placings, pairs=pairs, bracket=state)
    groups, withdrawn = stage_groups(stage=stage), _withdrawn(pairs)
    key = (tuple(entrants), tuple(records), options, tuple(sorted(groups.items())), withdrawn, seed)
    ranking = earlier_rankings.get(key) if remember else None
    if ranking is None:
        ranking = rank_stage(
            entrants=entrants, results=records, options=options, groups=groups, withdrawn=withdrawn, lots_seed=seed
        )
        if remember:
            earlier_rankings.put(key, ranking)
    return StageStandings(
        stage=stage,
        standings=ranking.standings(),
        pairs=pairs,
        ranking=ranking,
        provisional=stage_provisional_pairs(stage=stage) if provisional else frozenset(),
    )


def stage_standings(
    *, stage: Stage, lots_seed: int | None = None, records: Sequence[MatchRecord] | None = None
) -> StageStandings:
    """The former name of :func:`stage_ranking_get` (the same answer)."""
    return stage_ranking_get(stage=stage, lots_seed=lots_seed, records=records)
