"""Reads of a three-seat table (Dou Dizhu, docs/rules.md §10) for the referee's page, the API and the sheets.

The table's players are its :class:`~tournament.matches.models.MatchSeat` rows; its points, deals and
forfeits are the stored snapshot read by :mod:`scoring.doudizhu_snapshot` (the one reader of it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scoring.doudizhu_snapshot import TableSnapshot
from scoring.three_seats import THREE_SEATS
from tournament.games import GameKind
from tournament.matches.fold import match_game, match_rules
from tournament.matches.models import Match, MatchSeat, MatchStatus, RefereeAssignment, Round
from tournament.registration.models import Pair

if TYPE_CHECKING:
    from tournament.matches.selectors import Clock


def table_snapshot(match: Match) -> TableSnapshot:
    """``Match.state`` of a three-seat table, read back (``Match.table_snapshot``)."""
    return match.table_snapshot


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: str
    pair: Pair | None
    points: int
    deals_won: int
    landlord_wins: int
    forfeited: bool


@dataclass(frozen=True, slots=True)
class TableSummary:
    """What the match page and the referee's list show of a three-seat table."""

    match: Match
    seats: tuple[SeatView, ...]
    next_deal: dict[str, Any] | None
    deals: int
    flagged: int
    clock: Clock
    game: GameKind
    deal_scoring: str
    landlord_by: str
    points_format: bool = True
    best_of: bool = False

    @property
    def sides(self) -> tuple[()]:
        return ()

    @property
    def needs_extra_deal(self) -> bool:
        return False


def match_seats(match: Match) -> dict[str, Pair]:
    """Seat letter → its player (entrant) at the table."""
    cached = match.__dict__.get("_seats")
    if cached is None:
        cached = {row.seat: row.pair for row in MatchSeat.objects.filter(match=match).select_related("pair")}
        match.__dict__["_seats"] = cached
    seats: dict[str, Pair] = cached
    return seats


def table_summary(*, match: Match, clock: Clock, flagged: int) -> TableSummary:
    snapshot = table_snapshot(match)
    players = match_seats(match)
    rules = match_rules(match)
    seats = tuple(
        SeatView(
            seat=seat.value,
            pair=players.get(seat.value),
            points=snapshot.points_of(seat.value),
            deals_won=snapshot.deals_won(seat.value),
            landlord_wins=snapshot.landlord_wins(seat.value),
            forfeited=seat.value in snapshot.forfeited,
        )
        for seat in THREE_SEATS
    )
    next_deal: dict[str, Any] | None = {
        "number": snapshot.next_deal if snapshot.folded else 1,
        "deals": rules.deals,
        "deal_scoring": rules.deal_scoring.value,
        "landlord_by": rules.landlord_by.value,
        "landlord": snapshot.next_landlord,  # whose turn it is, when the rules say; else None
    }
    if match.status in (MatchStatus.FINISHED, MatchStatus.CONFIRMED) or (
        snapshot.folded and snapshot.next_deal is None
    ):
        next_deal = None
    return TableSummary(
        match=match,
        seats=seats,
        next_deal=next_deal,
        deals=len(snapshot.deals),
        flagged=flagged,
        clock=clock,
        game=match_game(match),
        deal_scoring=rules.deal_scoring.value,
        landlord_by=rules.landlord_by.value,
    )


@dataclass(frozen=True, slots=True)
class RoundTable:
    """One table of a three-seat round: its match and its players by seat (E, S, W)."""

    match: Match
    seats: tuple[tuple[str, Pair], ...]
    referee: str = ""

    @property
    def number(self) -> int | None:
        return self.match.table.number if self.match.table else None

    def points(self) -> tuple[int, int, int]:
        return self.match.table_snapshot.points


@dataclass(frozen=True, slots=True)
class RoundSeating:
    """A three-seat round as the draw sheet, the organiser and the public see it: tables, then byes."""

    tables: tuple[RoundTable, ...]
    byes: tuple[Pair, ...]

    @property
    def by_name(self) -> list[tuple[Pair, int | None, str]]:
        return seating_by_name(self)

    def seat_of(self, pair_id: int) -> tuple[RoundTable, str] | None:
        """Where ``pair_id`` sits: its table and seat letter (None: a bye or not drawn)."""
        for table in self.tables:
            for seat, pair in table.seats:
                if pair.pk == pair_id:
                    return table, seat
        return None


def round_seating(*, round_: Round, referees: bool = False) -> RoundSeating:
    """The round's tables (by number) with their seats, and its byes, in a few queries."""
    seats: dict[int | None, list[MatchSeat]] = {}
    for row in MatchSeat.objects.filter(round=round_).select_related("pair").order_by("seat", "pair_id"):
        seats.setdefault(row.match_id, []).append(row)
    names: dict[int, str] = {}
    if referees:
        # a referee by their name (their profile's, else their account's), never their login
        rows = RefereeAssignment.objects.filter(round=round_).values_list(
            "table_id", "referee__referee_profile__name", "referee__first_name", "referee__username"
        )
        for table_id, profile_name, first_name, username in rows:
            names[table_id] = profile_name or first_name or username
    matches = round_.matches.select_related("table").order_by("table__number", "id")
    tables = tuple(
        RoundTable(
            match=match,
            seats=tuple((row.seat, row.pair) for row in seats.get(match.pk, [])),
            referee=names.get(match.table_id or 0, ""),
        )
        for match in matches
    )
    return RoundSeating(tables=tables, byes=tuple(row.pair for row in seats.get(None, [])))


def seating_by_name(seating: RoundSeating) -> list[tuple[Pair, int | None, str]]:
    """Every player of the round by name with their table and seat (None, "" for a bye): the wall list."""
    lines: list[tuple[Pair, int | None, str]] = [
        (pair, table.number, seat) for table in seating.tables for seat, pair in table.seats
    ]
    lines += [(pair, None, "") for pair in seating.byes]
    return sorted(lines, key=lambda line: (line[0].name, line[0].pk))
