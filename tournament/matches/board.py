"""The room at a glance: a round's progress board for its organiser.

Every table of the round with one state, in this order of precedence (the first that applies):

- ``confirmed`` — signed off;
- ``flagged`` — a deal or an adjustment needs the referee (a correction made it impossible);
- ``disputed`` — a players' entry there is disputed and waits for a referee (the clock runs on
  unless paused), or the table's clock is stopped on its own (the organiser paused one table for a
  dispute at it) — the same tables the board's dispute list names;
- ``awaiting`` — finished, awaiting the referee's sign-off;
- ``time_called`` — time called, the last deals being played;
- ``paused`` — paused with the whole round;
- ``playing`` — its clock runs (elapsed time, current levels, deals so far shown);
- ``not_started``.

The state is computed by the database (one ``CASE``), once a page, for every table of the round in
one query of plain columns (its number, area, status and clock: no pair, no snapshot); the counts
per state and area, the filters, the order and the page are taken from those rows. Only the page's
(at most :data:`PAGE_SIZE`) tables are then read in full: their pairs' names, their levels (the
snapshot's ``levels`` or ``points`` alone), deals so far, referee and players' entries awaiting
confirmation, by correlated subqueries run for those rows alone. A page is these two queries plus
one for the referees (a three-seat table's seats: one more; a referee chosen: one more for the
areas): the query count does not grow with the number of tables. Pages of :data:`PAGE_SIZE`; byes
are not tables and are left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce, NullIf
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tournament import labels
from tournament.matches.models import (
    BYE,
    Adjustment,
    ClaimStatus,
    Deal,
    DealClaim,
    Match,
    MatchSeat,
    MatchStatus,
    RefereeAssignment,
    Round,
    Table,
    claims_still_open,
)
from tournament.matches.snapshot_reads import board_score, board_score_lookups, deals_played_count
from tournament.matches.time_due import time_due_filter

PAGE_SIZE = 100

_MATCH_URL = "/referee/matches/"
"""The referee's match page (``matches:match``) without its id, checked against the URLconf by a test."""

STATES: tuple[tuple[str, Any], ...] = (
    ("not_started", _("Not started")),
    ("playing", _("Playing")),
    ("paused", _("Paused")),
    ("time_called", _("Time called")),
    ("awaiting", _("Finished, awaiting sign-off")),
    ("confirmed", _("Confirmed")),
    ("flagged", _("Flagged deals")),
    ("disputed", pgettext_lazy("a table's state", "Disputed")),
)
STATE_NAMES = dict(STATES)

SORTS: tuple[tuple[str, Any], ...] = (
    ("table", _("Table number")),
    ("slowest", _("Slowest first (fewest deals)")),
    ("oldest", _("Oldest first (longest since a deal)")),
)


@dataclass(frozen=True, slots=True)
class BoardRow:
    match_id: int
    state: str
    deals: int
    referee: str
    elapsed: timedelta | None
    entrants: str
    """The pairs (N/S – E/W), or a three-seat table's players by seat."""
    score: str
    """The levels (two sides) or the points by seat (three seats) once started, else "—"."""
    claims_pending: int = 0
    """Players' entries awaiting confirmation at the table."""
    table_label: str = "—"
    """The table's number ("—" for a match without a table)."""
    area: str = ""

    @property
    def match(self) -> Match:
        """The row's match (its id alone: the row holds what the board shows)."""
        return Match(pk=self.match_id)

    @property
    def state_label(self) -> Any:
        return STATE_NAMES[self.state]

    @property
    def elapsed_minutes(self) -> int | None:
        return None if self.elapsed is None else int(self.elapsed.total_seconds() // 60)

    # the cells' texts, made here once per row (cheaper than template tags on a page of 100 rows)
    @property
    def url(self) -> str:
        return f"{_MATCH_URL}{self.match_id}/"

    @property
    def elapsed_text(self) -> str:
        minutes = self.elapsed_minutes
        return "—" if minutes is None else gettext("%(minutes)s min") % {"minutes": minutes}


@dataclass(frozen=True, slots=True)
class Board:
    rows: list[BoardRow]
    counts: dict[str, int]
    total: int
    """Tables matching the filters (all states)."""
    shown: int
    """Tables matching the filters and the state chosen (what the pages list)."""
    page: int
    pages: int
    areas: list[str]
    referees: list[tuple[int, str]]

    @property
    def state_counts(self) -> list[tuple[str, Any, int]]:
        return [(code, label, self.counts.get(code, 0)) for code, label in STATES]


# a referee by the name the organiser gave (the event's referee list), else the account's
_REFEREE_NAME = Coalesce(
    NullIf("referee__referee_profile__name", Value("")), NullIf("referee__first_name", Value("")), "referee__username"
)


def _board_state(round_: Round, *, now: datetime) -> Case:
    # whether anything is flagged (EXISTS stops at the first row; the count is not shown)
    flagged = Exists(Deal.objects.filter(match_id=OuterRef("pk"), flagged=True)) | Exists(
        Adjustment.objects.filter(match_id=OuterRef("pk"), flagged=True)
    )
    # the players' entries still open (the one answer the table's page reads too: never one of a recorded deal)
    claims = claims_still_open(DealClaim.objects.filter(match=OuterRef("pk")))
    disputed = Exists(claims.filter(status=ClaimStatus.DISPUTED))
    claimed = Exists(claims.filter(status=ClaimStatus.PENDING))
    own_pause = Q(paused_at__isnull=False)
    if round_.paused_at is not None:
        own_pause &= ~Q(paused_at=round_.paused_at)
    return Case(
        When(status=MatchStatus.CONFIRMED, then=Value("confirmed")),
        When(flagged, then=Value("flagged")),
        When(own_pause & Q(time_called_at__isnull=True), then=Value("disputed")),
        When(disputed, status__in=(MatchStatus.PENDING, MatchStatus.RUNNING), then=Value("disputed")),
        When(status=MatchStatus.FINISHED, then=Value("awaiting")),
        # a call due and not stored yet reads as made (a read writes nothing: the task stores it)
        When(Q(time_called_at__isnull=False) | time_due_filter(now=now), then=Value("time_called")),
        When(paused_at__isnull=False, then=Value("paused")),
        When(started_at__isnull=False, then=Value("playing")),
        # the players have entered a deal that waits for confirmation: the table is under way
        When(claimed, then=Value("playing")),
        default=Value("not_started"),
    )


def _with_state(matches: QuerySet[Match], round_: Round, *, now: datetime) -> QuerySet[Any]:
    """``matches`` (of ``round_``) with their table state (``board_state``)."""
    return matches.annotate(board_state=_board_state(round_, now=now))


def _claims_pending() -> Coalesce:
    """How many of a match's players' entries await confirmation (still open: never one whose deal is
    recorded, :func:`~tournament.matches.models.claims_still_open`)."""
    pending = (
        claims_still_open(DealClaim.objects.filter(match=OuterRef("pk"), status=ClaimStatus.PENDING))
        .order_by()
        .values("match")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(pending), 0)


@dataclass(frozen=True, slots=True)
class TableState:
    """A table's state as the board, the referee's page and the players' page all say it."""

    code: str
    claims_pending: int

    @property
    def label(self) -> Any:
        return STATE_NAMES[self.code]


def table_state(*, match: Match, now: datetime | None = None) -> TableState:
    """The one answer to "what state is this table in" (the board's order of precedence above) for
    one match, and how many players' entries there await confirmation: the match pages show the
    board's word, never a word of their own."""
    row = (
        _with_state(Match.objects.filter(pk=match.pk), match.round, now=now or timezone.now())
        .annotate(claims_pending=_claims_pending())
        .values("board_state", "claims_pending")
        .get()
    )
    return TableState(code=row["board_state"], claims_pending=row["claims_pending"])


def round_board(
    *,
    round_: Round,
    area: str = "",
    referee_id: int | None = None,
    state: str = "",
    sort: str = "table",
    page: int = 1,
    now: datetime | None = None,
) -> Board:
    """One page of ``round_``'s progress board, filtered by area, referee and state."""
    now = now or timezone.now()
    # every table: two sides, or three seats; a pair's bye is no table
    tables = round_.matches.exclude(BYE)
    if referee_id is not None:
        tables = tables.filter(
            Exists(
                RefereeAssignment.objects.filter(
                    round_id=OuterRef("round_id"), table_id=OuterRef("table_id"), referee_id=referee_id
                )
            )
        )
    # Every table's state and area, in the board's order, in one query of plain columns; a sort by
    # deals asks for the deals' count and time (correlated subqueries) of every table, the others not.
    open_first = Case(When(status__in=(MatchStatus.PENDING, MatchStatus.RUNNING), then=Value(0)), default=Value(1))
    if sort == "slowest":
        order: tuple[Any, ...] = (open_first, deals_played_count(), F("started_at").asc(nulls_first=True))
    elif sort == "oldest":
        deals = Deal.objects.filter(match=OuterRef("pk")).order_by().values("match")
        last_deal_at = Subquery(deals.annotate(at=Max("entered_at")).values("at"))
        order = (open_first, Coalesce(last_deal_at, "started_at").asc(nulls_first=True))
    else:
        order = ()
    everything = _with_state(tables, round_, now=now).order_by(*order, "table__number", "pk")
    # The counts per state of the chosen area are the board's counts, and (with no referee chosen)
    # the areas that have a table are the area filter's choices.
    counts: dict[str, int] = {}
    found_areas: set[str] = set()
    chosen: list[tuple[int, str]] = []
    for pk, table_state_, table_area in everything.values_list("pk", "board_state", "table__area"):
        found_areas.add(table_area or "")
        if not area or table_area == area:
            counts[table_state_] = counts.get(table_state_, 0) + 1
            if state not in STATE_NAMES or table_state_ == state:
                chosen.append((pk, table_state_))
    total = sum(counts.values())
    shown = len(chosen)
    pages = max(1, -(-shown // PAGE_SIZE))
    page = min(max(1, page), pages)
    start = (page - 1) * PAGE_SIZE
    rows = _rows(chosen[start : start + PAGE_SIZE], now=now)

    if referee_id is None:
        areas = sorted(found for found in found_areas if found)
    else:  # the counts were the referee's tables only: every area of the round's tables
        used = Match.objects.filter(round=round_, table=OuterRef("pk"))
        areas = sorted(
            Table.objects.filter(tournament_id=round_.stage.tournament_id)
            .filter(Exists(used))
            .exclude(area="")
            .order_by()  # nothing joined into the DISTINCT
            .values_list("area", flat=True)
            .distinct()
        )
    referees = list(
        RefereeAssignment.objects.filter(round=round_)
        .annotate(name=_REFEREE_NAME)
        .order_by("name", "referee_id")
        .values_list("referee_id", "name")
        .distinct()
    )
    return Board(rows, counts, total, shown, page, pages, areas, referees)


def _rows(listed: list[tuple[int, str]], *, now: datetime) -> list[BoardRow]:
    """The board's rows of the tables ``listed`` (a page of (id, state), in order): what the page
    shows of each, read for those tables alone."""
    if not listed:
        return []
    states = dict(listed)
    ids = list(states)
    assignment = RefereeAssignment.objects.filter(round_id=OuterRef("round_id"), table_id=OuterRef("table_id"))
    levels_lookup, points_lookup = board_score_lookups()
    shown = (
        Match.objects.filter(pk__in=ids)
        .order_by()
        .values(
            "pk",
            "ns_pair__name",
            "ew_pair__name",
            "table__number",
            "table__area",
            "started_at",
            "paused_at",
            "finished_at",
            levels_lookup,
            points_lookup,
            three=Q(ns_pair__isnull=True),  # a three-seat table
            deals_played=deals_played_count(),
            referee_label=Subquery(assignment.annotate(name=_REFEREE_NAME).values("name")[:1]),
            claims_pending=_claims_pending(),
        )
    )
    details = {row["pk"]: row for row in shown}
    # Only a three-seat table lists its seats: a round of two-sided tables asks for none.
    players: dict[int, list[str]] = {}
    by_seat = [pk for pk, row in details.items() if row["three"]]
    if by_seat:
        seats = MatchSeat.objects.filter(match_id__in=by_seat).order_by("match_id", "seat")
        for match_id, seat, name in seats.values_list("match_id", "seat", "pair__name"):
            players.setdefault(match_id, []).append(f"{seat} {name}")
    result = []
    for pk in ids:
        row = details[pk]
        started, three, number = row["started_at"], row["three"], row["table__number"]
        end = row["paused_at"] or row["finished_at"] or now
        elapsed = None if started is None else max(end - started, timedelta(0))
        # the pairs, or the players by seat
        entrants = " · ".join(players.get(pk, ())) if three else f"{row['ns_pair__name']} – {row['ew_pair__name']}"
        score = "—"
        if started is not None:  # a started table with no deal yet is at 2 : 2 (docs/rules.md §1)
            values = board_score(seats=three, levels=row[levels_lookup], points=row[points_lookup])
            score = " : ".join(map(str, values)) if three else " : ".join(labels.level(value) for value in values)
        result.append(
            BoardRow(
                match_id=pk,
                state=states[pk],
                deals=row["deals_played"],
                referee=row["referee_label"] or "",
                elapsed=elapsed,
                entrants=entrants,
                score=score,
                claims_pending=row["claims_pending"],
                table_label="—" if number is None else str(number),
                area=row["table__area"] or "",
            )
        )
    return result
