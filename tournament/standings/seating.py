"""Find my table: every seat of the current rounds, searched in the worker's memory.

The minute a draw is published thousands of players ask at once, each a different question (part
of a name, an employee number), so caching answers helps little and a ``LIKE '%…%'`` per
question costs the database a scan of the roster. Instead each worker loads the current rounds'
seats once — one query — into a :class:`SeatIndex` and answers from it: a whole employee number
by a dictionary, part of a name by one ``str.find`` over all names in a single string.

The index is held in the worker's memory (:data:`seat_indexes`) under the tournament's *seating*
version (read from the shared cache on every question) and the current rounds. Deals entered do
not move that version (:mod:`tournament.standings.signals`); a new draw, a renamed player or a
moved table does. So every worker answers from the same seats.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate
from operator import itemgetter
from typing import Any, cast

from django.db import connection

from tournament.matches.models import Match, Round, RoundEntry, Stage, StageFormat, Table, TeamMatch
from tournament.matches.stage_options import DrawOptions, draw_options_lookup
from tournament.parsing import ascii_digits
from tournament.registration.models import Pair, PairMember, Player, TeamMember
from tournament.standings.cache import LocalMemo, public_version_depends, public_version_get
from tournament.standings.public import normalise_query
from tournament.standings.public_types import (
    FIND_LIMIT,
    PUBLIC_ROUND_STATUSES,
    PublicSide,
    RoundInfo,
    SeatFound,
    TeamSeat,
)
from tournament.standings.response_reads import response_uncacheable
from tournament.standings.selectors import stage_bracket_state_get

seat_indexes = LocalMemo(8)
"""A worker's indexes, one per tournament (the latest built) for the last eight tournaments asked
about: a few megabytes each for 5,000 pairs."""

_SEPARATOR = "\n"
"""Between names in the search string; a query never holds one (:func:`normalise_query`)."""


SeatRow = tuple[Any, ...]
"""One seat as the index query gives it: player id, name, employee number, pair id, round id,
match id, table number, area, side, N/S pair id and name, E/W pair id and name, and the numbers in
the event of the player's pair (what "#12" finds), of N/S and of E/W. A player of the
tournament who has no seat in the current rounds has a row with round id 0 and the seat's fields
None except the pair's name (in the N/S name's place) — see :class:`NotSeated`."""

NOT_SEATED = 0
"""The round id of a player's row when the player has no seat in the current rounds."""


@dataclass(frozen=True, slots=True)
class NotSeated:
    """A find-my-table answer for a player without a seat in the current rounds: where they stand.

    ``eliminated_in``: the knockout round the pair went out in (current knockout stages, from the
    index's build); ``state``: the pair's registration status, read when the question is answered
    (check-in does not rebuild the index) — :func:`player_find` fills it in."""

    player_name: str
    pair_id: int
    pair_name: str
    eliminated_in: int | None = None
    pair_number: int | None = None
    stage_name: str = ""
    state: str = ""
    not_advanced_into: str = ""
    """The current stage the pair was not advanced into (it went out at the stage before's cut)."""
    team_without: str = ""
    """The pair's team, playing a current team round without it (the pair is not in its line-up)."""


_BY_NAME = itemgetter(1, 4, 0)  # name, round, player


class SeatIndex:
    """The current rounds' seats, ordered by player name, round and player, ready to search.

    Names are compared case-folded (``Wang`` finds ``WANG``; Chinese has no case). An employee
    number must match whole: a part of one would let anybody list the roster by number. The rows
    stay as the query gave them; only the seats of an answer become :class:`SeatFound` values, so
    building the index after a draw costs little more than the query.
    """

    def __init__(
        self,
        rows: Iterable[SeatRow],
        rounds: Sequence[RoundInfo],
        eliminated: dict[int, tuple[int, str]] | None = None,
        advanced: Sequence[tuple[str, frozenset[int]]] = (),
        teams: dict[int, TeamSeat] | None = None,
        benched: dict[int, str] | None = None,
        walkovers: frozenset[tuple[int, int]] = frozenset(),
    ) -> None:
        self._rows = sorted(rows, key=_BY_NAME)
        self._teams = teams or {}  # match id → its team match (a team round's tables)
        self._benched = benched or {}  # pair → its team, when the team has a line-up in a current round
        self._walkovers = walkovers  # (round, pair) without a table because its (team's) opponent withdrew
        self._rounds = {round_.id: round_ for round_ in rounds}
        self._eliminated = eliminated or {}  # pair → (knockout round, stage name)
        self._advanced = advanced  # (stage name, the pairs advanced into it) of the current stages
        self._by_number: dict[str, list[int]] = {}
        self._by_pair_number: dict[int, list[int]] = {}
        for index, row in enumerate(self._rows):
            self._by_number.setdefault(row[2], []).append(index)
            self._by_pair_number.setdefault(row[13], []).append(index)
        folded = [row[1].casefold() for row in self._rows]
        self._starts = list(accumulate((len(name) + len(_SEPARATOR) for name in folded[:-1]), initial=0))
        self._names = _SEPARATOR.join(folded)

    def find(self, query: str, *, limit: int = FIND_LIMIT) -> tuple[SeatFound | NotSeated, ...]:
        """The first ``limit`` seats whose player's name contains ``query`` or whose employee
        number is ``query``; a query of digits only is an employee number, "#12" is pair 12 of the
        event (the number on the draw and the sheets)."""
        query = normalise_query(query)
        if not query or not self._rows:
            return ()
        pair_number = query[1:].strip()
        if query.startswith("#") and ascii_digits(pair_number) and len(pair_number) <= 9:
            return tuple(self._seat(self._rows[i]) for i in self._by_pair_number.get(int(pair_number), ())[:limit])
        hits = set(self._by_number.get(query, ()))
        if not ascii_digits(query):
            hits.update(self._name_hits(query.casefold(), limit))
        return tuple(self._seat(self._rows[index]) for index in sorted(hits)[:limit])

    def _name_hits(self, needle: str, limit: int) -> list[int]:
        hits: list[int] = []
        names, starts = self._names, self._starts
        position = names.find(needle)
        while position != -1 and len(hits) < limit:
            index = bisect_right(starts, position) - 1
            hits.append(index)
            if index + 1 == len(starts):
                break
            position = names.find(needle, starts[index + 1])  # on to the next name: one hit each
        return hits

    def _seat(self, row: SeatRow) -> SeatFound | NotSeated:
        _player_id, name, _number, pair_id, round_id, match_id, table, area, side, ns, ns_name, ew, ew_name = row[:13]
        pair_number, ns_number, ew_number = row[13:16]
        if round_id == NOT_SEATED:
            out_in, stage_name = self._eliminated.get(pair_id, (None, ""))
            left_out = next((stage for stage, entrants in self._advanced if pair_id not in entrants), "")
            return NotSeated(
                player_name=name,
                pair_id=pair_id,
                pair_name=ns_name,
                eliminated_in=out_in,
                stage_name=stage_name,
                pair_number=pair_number,
                not_advanced_into=left_out,
                team_without=self._benched.get(pair_id, ""),
            )
        round_ = self._rounds[round_id]
        return SeatFound(
            player_name=name,
            pair_id=pair_id,
            pair_name=ns_name if side == "NS" else ew_name,
            round_id=round_id,
            round_number=round_.number,
            stage_name=round_.stage_name,
            match_id=match_id,
            table=table,
            area=area or "",
            side=side,
            opponent=(PublicSide(ew, ew_name or "", ew_number) if side == "NS" else PublicSide(ns, ns_name, ns_number)),
            pair_number=pair_number,
            round_knockout_pairs=getattr(round_, "knockout_pairs", None),
            team_match=self._teams.get(match_id),
            team_bye=self._benched.get(pair_id, "") if table is None and getattr(round_, "team_match", False) else "",
            walkover=table is None and (round_id, pair_id) in self._walkovers,
        )


def seat_index_build(*, rounds: Sequence[RoundInfo], tournament_id: int | None = None) -> SeatIndex:
    """Every seat of ``rounds`` in one query over indexed joins; with ``tournament_id``, every other
    player of the tournament too (a row without a seat: registered, withdrawn, out), in the same
    query. A current knockout stage adds its bracket's state (who went out in which round).

    Written out rather than built by the ORM: the ORM's path through ``pair__round_entries``
    adds two joins, and with eleven tables PostgreSQL spent longer planning the query than
    running it.
    """
    round_ids = [round_.id for round_ in rounds]
    if not round_ids and tournament_id is None:
        return SeatIndex((), rounds)
    quote = connection.ops.quote_name
    player, member, entry = Player._meta.db_table, PairMember._meta.db_table, RoundEntry._meta.db_table
    match, table, pair = Match._meta.db_table, Table._meta.db_table, Pair._meta.db_table
    placeholders = ", ".join(["%s"] * len(round_ids)) or "NULL"
    # The rows come in the index's order (name, round, player: :data:`_BY_NAME`), the names compared by
    # code point as Python compares them (PostgreSQL's "C" collation; SQLite's own is that already), so
    # the index's sort of 10,000 seats only checks it.
    by_code_point = ' COLLATE "C"' if connection.vendor == "postgresql" else ""
    seats = f"""
        SELECT p.id, p.name{by_code_point}, p.employee_number, e.pair_id, e.round_id, e.match_id, t.number,
               t.area, e.side, m.ns_pair_id, ns.name, m.ew_pair_id, ew.name,
               CASE WHEN e.side = 'EW' THEN ew.number ELSE ns.number END, ns.number, ew.number
        FROM {quote(entry)} e
        JOIN {quote(member)} pm ON pm.pair_id = e.pair_id
        JOIN {quote(player)} p ON p.id = pm.player_id
        JOIN {quote(match)} m ON m.id = e.match_id
        LEFT JOIN {quote(table)} t ON t.id = m.table_id
        JOIN {quote(pair)} ns ON ns.id = m.ns_pair_id
        LEFT JOIN {quote(pair)} ew ON ew.id = m.ew_pair_id
        WHERE e.round_id IN ({placeholders})
    """
    params: list[Any] = list(round_ids)
    if tournament_id is not None:
        seats += f"""
        UNION ALL
        SELECT p.id, p.name{by_code_point}, p.employee_number, pm.pair_id, {NOT_SEATED}, NULL, NULL, NULL, NULL,
               NULL, pr.name, NULL, NULL, pr.number, NULL, NULL
        FROM {quote(player)} p
        JOIN {quote(member)} pm ON pm.player_id = p.id
        JOIN {quote(pair)} pr ON pr.id = pm.pair_id
        WHERE p.tournament_id = %s AND NOT EXISTS (
            SELECT 1 FROM {quote(entry)} e2 WHERE e2.pair_id = pm.pair_id AND e2.round_id IN ({placeholders})
        )
        """
        params += [tournament_id, *round_ids]
    seats += " ORDER BY 2, 5, 1"
    with connection.cursor() as cursor:
        cursor.execute(seats, params)
        rows = cursor.fetchall()
    team_rounds = [round_.id for round_ in rounds if getattr(round_, "team_match", False)]
    teams = _team_seats(team_rounds)
    # Only a seat without an opponent can be a walkover: a round with none asks nothing more.
    walkovers = _walkover_seats(sorted({row[4] for row in rows if row[11] is None and row[4] != NOT_SEATED}))
    if tournament_id is None:
        return SeatIndex(rows, rounds, teams=teams, walkovers=walkovers)
    benched = _team_members_playing(team_rounds)
    return SeatIndex(rows, rounds, *_stage_outcomes(rounds), teams=teams, benched=benched, walkovers=walkovers)


def _walkover_seats(round_ids: Sequence[int]) -> frozenset[tuple[int, int]]:
    """(round, pair) of every pair of ``round_ids`` given a walkover — its opponent, or in a round of
    team matches its team's opponent, withdrew after the draw (the draw's record): a forfeit win
    with no table, which find must not call a bye (docs/rules.md §5, §11). ``round_ids``: the rounds
    with a seat without an opponent. One query by the rounds, a second only when a team was given one."""
    if not round_ids:
        return frozenset()
    seats: set[tuple[int, int]] = set()
    team_rounds: dict[int, int] = {}  # team given a walkover → its round
    for round_id, pairs, teams in Round.objects.filter(pk__in=round_ids).values_list(
        "pk", draw_options_lookup("walkovers"), draw_options_lookup("team_walkovers")
    ):
        seats.update((round_id, pair) for pair in DrawOptions.walkovers_of(pairs))
        team_rounds.update(dict.fromkeys(DrawOptions.walkovers_of(teams), round_id))
    if team_rounds:
        members = TeamMember.objects.filter(team_id__in=team_rounds).values_list("team_id", "pair_id")
        seats.update((team_rounds[team], pair) for team, pair in members)
    return frozenset(seats)


def _team_seats(round_ids: Sequence[int]) -> dict[int, TeamSeat]:
    """Match id → the team match it is a table of, in ``round_ids`` (the current rounds played between
    teams, docs/rules.md §11): one query by the rounds, none for rounds of pairs."""
    if not round_ids:
        return {}
    seats: dict[int, TeamSeat] = {}
    rows = TeamMatch.objects.filter(round_id__in=round_ids).values_list(
        "pk", "number", "team_x__name", "team_y__name", "table_a_id", "table_b_id"
    )
    for pk, number, x, y, table_a, table_b in rows:
        for letter, match_id in (("a", table_a), ("b", table_b)):
            if match_id is not None:
                seats[match_id] = TeamSeat(number=number, table=letter, x=x, y=y or "", id=pk)
    return seats


def _team_members_playing(round_ids: Sequence[int]) -> dict[int, str]:
    """Pair id → its team's name, for every member of a team with a line-up in ``round_ids`` (it plays
    a team match or has a bye): a member without a seat there sits out the round, not in the line-up."""
    if not round_ids:
        return {}
    members = TeamMember.objects.filter(team__line_ups__round_id__in=round_ids)
    return dict(members.values_list("pair_id", "team__name").distinct())


def _stage_outcomes(
    rounds: Sequence[RoundInfo],
) -> tuple[dict[int, tuple[int, str]], list[tuple[str, frozenset[int]]]]:
    """Where the pairs without a seat went out: pair → (round, stage name) in the current rounds'
    knockout stages, and each current stage that took its pairs from an earlier one with the pairs
    it took (a pair left out went out at that cut)."""
    advanced = list(
        {(r.stage_name, frozenset(r.stage_entrants)) for r in rounds if r.stage_entrants and not r.team_match}
    )
    # a stage of team matches takes the teams advanced into it (docs/rules.md §11): their pairs, substitutes too
    team_stages = {(r.stage_name, frozenset(r.stage_entrants)) for r in rounds if r.stage_entrants and r.team_match}
    if team_stages:
        members = _team_members(team for _name, teams in team_stages for team in teams)
        advanced += [
            (name, frozenset(pair for team in teams for pair in members.get(team, ()))) for name, teams in team_stages
        ]
    knockouts = {round_.stage_id: round_.stage_name for round_ in rounds if round_.stage_format == StageFormat.KNOCKOUT}
    out: dict[int, tuple[int, str]] = {}
    for stage in Stage.objects.filter(pk__in=knockouts).select_related("tournament"):
        state = stage_bracket_state_get(stage=stage, statuses=PUBLIC_ROUND_STATUSES)
        # a knockout of teams (docs/rules.md §11) puts teams out: each of a team's pairs went out with it
        members = _team_members(state.out_in) if stage.settings.team_match is not None else {}
        for entrant, round_number in state.out_in.items():
            for pair_id in members.get(int(entrant), (int(entrant),)):
                out[pair_id] = (round_number, knockouts[stage.pk])
    return out, advanced


def _team_members(teams: Iterable[str | int]) -> dict[int, tuple[int, ...]]:
    """Team id → its members' pair ids (substitutes too), for the teams named by ``teams``."""
    members: dict[int, list[int]] = {}
    rows = TeamMember.objects.filter(team_id__in=[int(team) for team in teams]).order_by("position")
    for team_id, pair_id in rows.values_list("team_id", "pair_id"):
        members.setdefault(team_id, []).append(pair_id)
    return {team_id: tuple(pairs) for team_id, pairs in members.items()}


def seat_index_get(*, tournament_id: int, rounds: Sequence[RoundInfo], version: int | None = None) -> SeatIndex:
    """The worker's index of the current rounds' seats, rebuilt when the seating version moves.

    ``version``: the tournament's seating version as the caller read it (else it is read here).
    """
    if version is None:
        version = public_version_get(tournament_id=tournament_id, scope="seating")
    public_version_depends(tournament_id=tournament_id, scope="seating")  # a kept answer holds while it does
    index = seat_index_held(tournament_id=tournament_id, rounds=rounds, version=version)
    if index is not None:
        return index
    index = seat_index_build(rounds=rounds, tournament_id=tournament_id)
    seat_indexes.put(tournament_id, (_built_for(rounds, version), index))  # the one before is dropped, not kept
    return index


def _built_for(rounds: Sequence[RoundInfo], version: int) -> tuple[int, tuple[int, ...]]:
    return (version, tuple(round_.id for round_ in rounds))


def seat_index_held(*, tournament_id: int, rounds: Sequence[RoundInfo], version: int) -> SeatIndex | None:
    """The index this worker holds for ``rounds`` at the seating ``version``, if it holds one (none
    is built here: :func:`seat_index_get` builds it)."""
    held = seat_indexes.get(tournament_id)
    if held is not None and held[0] == _built_for(rounds, version):
        return cast(SeatIndex, held[1])  # the index filed for these rounds
    return None


def table_find(
    *, tournament_id: int, rounds: Sequence[RoundInfo], query: str, version: int | None = None
) -> tuple[SeatFound, ...]:
    """Find my table: the current rounds' seats of players whose name contains ``query`` or whose
    employee number is ``query`` (see :class:`SeatIndex`); ``version`` as for :func:`seat_index_get`."""
    if not normalise_query(query) or not rounds:
        return ()
    found = seat_index_get(tournament_id=tournament_id, rounds=rounds, version=version).find(query)
    return tuple(seat for seat in found if isinstance(seat, SeatFound))


def player_find(
    *, tournament_id: int, rounds: Sequence[RoundInfo], query: str, version: int | None = None
) -> tuple[SeatFound | NotSeated, ...]:
    """Find my table, and where a player without a seat stands: registered but not
    checked in, withdrawn, eliminated in round N, or checked in but not in this round. The seats
    come from the index alone; the registration status of the players without a seat is read in
    one query by primary key (the door changes it all morning; it does not rebuild the index)."""
    if not normalise_query(query):
        return ()
    found = seat_index_get(tournament_id=tournament_id, rounds=rounds, version=version).find(query)
    pair_ids = {answer.pair_id for answer in found if isinstance(answer, NotSeated)}
    if not pair_ids:
        return found
    response_uncacheable()  # the registration status is read as it is now, not at a version
    states = dict(Pair.objects.filter(pk__in=pair_ids).values_list("pk", "status"))
    return tuple(
        replace(answer, state=states.get(answer.pair_id, "")) if isinstance(answer, NotSeated) else answer
        for answer in found
    )
