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

The three statements are compiled once per process (``tournament.prepared``) and run again with the
round, the time and the page's tables: building and compiling their ``CASE`` and correlated
subqueries anew cost a page several times the CPU that running them did.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
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
from tournament.prepared import prepared_values

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


def _board_state(*, now: datetime, round_paused_at: datetime | None = None) -> Case:
    """The table's state (module docstring) as of ``now``; ``round_paused_at``: when the round was
    paused, if it is (a table paused with it is paused, not stopped on its own)."""
    # whether anything is flagged (EXISTS stops at the first row; the count is not shown)
    flagged = Exists(Deal.objects.filter(match_id=OuterRef("pk"), flagged=True)) | Exists(
        Adjustment.objects.filter(match_id=OuterRef("pk"), flagged=True)
    )
    # the players' entries still open (the one answer the table's page reads too: never one of a recorded deal)
    claims = claims_still_open(DealClaim.objects.filter(match=OuterRef("pk")))
    disputed = Exists(claims.filter(status=ClaimStatus.DISPUTED))
    claimed = Exists(claims.filter(status=ClaimStatus.PENDING))
    own_pause = Q(paused_at__isnull=False)
    if round_paused_at is not None:
        own_pause &= ~Q(paused_at=round_paused_at)
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
    state = _board_state(now=now or timezone.now(), round_paused_at=match.round.paused_at)
    row = (
        Match.objects.filter(pk=match.pk)
        .annotate(board_state=state, claims_pending=_claims_pending())
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
    # Every table's state and area, in the board's order, in one query of plain columns: a statement
    # compiled once per process for each sort, referee filter and round pause (tournament.prepared;
    # compiling its CASE of EXISTS tests took several times what PostgreSQL took to run it).
    sort = sort if sort in ("slowest", "oldest") else "table"
    shape = f"{sort}:{referee_id is not None}:{round_.paused_at is not None}"
    values: dict[str, Any] = {"round_id": round_.pk, "now": now}
    if referee_id is not None:
        values["referee_id"] = referee_id
    if round_.paused_at is not None:
        values["paused_at"] = round_.paused_at
    build = partial(_table_states, sort=sort)
    everything = prepared_values(f"board-states:{shape}", build, server_plan=True, **values)
    # The counts per state of the chosen area are the board's counts, and (with no referee chosen)
    # the areas that have a table are the area filter's choices.
    counts: dict[str, int] = {}
    found_areas: set[str] = set()
    chosen: list[tuple[int, str]] = []
    for pk, table_state_, table_area in everything:
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
    referees = [(pk, name) for pk, name in prepared_values("board-referees", _round_referees, round_id=round_.pk)]
    return Board(rows, counts, total, shown, page, pages, areas, referees)


def _table_states(
    *, sort: str, round_id: int, now: datetime, referee_id: int | None = None, paused_at: datetime | None = None
) -> QuerySet[Any]:
    """Every table of the round (two sides, or three seats; a pair's bye is no table) as (id, state,
    area), in the board's order; ``referee``: that referee's tables alone. A sort by deals asks for
    the deals' count and time (correlated subqueries) of every table, the others not."""
    tables = Match.objects.filter(round_id=round_id).exclude(BYE)
    if referee_id is not None:
        tables = tables.filter(
            Exists(
                RefereeAssignment.objects.filter(
                    round_id=OuterRef("round_id"), table_id=OuterRef("table_id"), referee_id=referee_id
                )
            )
        )
    open_first = Case(When(status__in=(MatchStatus.PENDING, MatchStatus.RUNNING), then=Value(0)), default=Value(1))
    if sort == "slowest":
        order: tuple[Any, ...] = (open_first, deals_played_count(), F("started_at").asc(nulls_first=True))
    elif sort == "oldest":
        deals = Deal.objects.filter(match=OuterRef("pk")).order_by().values("match")
        last_deal_at = Subquery(deals.annotate(at=Max("entered_at")).values("at"))
        order = (open_first, Coalesce(last_deal_at, "started_at").asc(nulls_first=True))
    else:
        order = ()
    return (
        tables.annotate(board_state=_board_state(now=now, round_paused_at=paused_at))
        .order_by(*order, "table__number", "pk")
        .values_list("pk", "board_state", "table__area")
    )


def _round_referees(*, round_id: int) -> QuerySet[Any]:
    """The round's referees (the referee filter's choices) as (id, name), by name."""
    return (
        RefereeAssignment.objects.filter(round_id=round_id)
        .annotate(name=_REFEREE_NAME)
        .order_by("name", "referee_id")
        .values_list("referee_id", "name")
        .distinct()
    )


def _rows(listed: list[tuple[int, str]], *, now: datetime) -> list[BoardRow]:
    """The board's rows of the tables ``listed`` (a page of (id, state), in order): what the page
    shows of each, read for those tables alone."""
    if not listed:
        return []
    states = dict(listed)
    ids = list(states)
    # A statement compiled once per process (tournament.prepared) with a slot for each table of a
    # full page, the slots a shorter page leaves filled with no table's id (0).
    size = max(PAGE_SIZE, len(ids))
    slots: dict[str, Any] = {f"table{index}": ids[index] if index < len(ids) else 0 for index in range(size)}
    details = {row[0]: row for row in prepared_values(f"board-rows:{size}", _page_tables, **slots)}
    # Only a three-seat table lists its seats: a round of two-sided tables asks for none.
    players: dict[int, list[str]] = {}
    by_seat = [pk for pk, row in details.items() if row[10]]  # three seats
    if by_seat:
        seats = MatchSeat.objects.filter(match_id__in=by_seat).order_by("match_id", "seat")
        for match_id, seat, name in seats.values_list("match_id", "seat", "pair__name"):
            players.setdefault(match_id, []).append(f"{seat} {name}")
    result = []
    for pk in ids:
        _, ns_name, ew_name, number, area, started, paused, finished, levels, points, three, deals, referee, pending = (
            details[pk]
        )
        end = paused or finished or now
        elapsed = None if started is None else max(end - started, timedelta(0))
        # the pairs, or the players by seat
        entrants = " · ".join(players.get(pk, ())) if three else f"{ns_name} – {ew_name}"
        score = "—"
        if started is not None:  # a started table with no deal yet is at 2 : 2 (docs/rules.md §1)
            values = board_score(seats=three, levels=levels, points=points)
            score = " : ".join(map(str, values)) if three else " : ".join(labels.level(value) for value in values)
        result.append(
            BoardRow(
                match_id=pk,
                state=states[pk],
                deals=deals,
                referee=referee or "",
                elapsed=elapsed,
                entrants=entrants,
                score=score,
                claims_pending=pending,
                table_label="—" if number is None else str(number),
                area=area or "",
            )
        )
    return result


def _page_tables(**tables: int) -> QuerySet[Any]:
    """What the board shows of the tables ``tables`` (their ids): pairs' names, table, clock, the
    snapshot's levels and points alone (the deals are most of a snapshot), whether three seats,
    deals so far, referee, players' entries awaiting confirmation."""
    assignment = RefereeAssignment.objects.filter(round_id=OuterRef("round_id"), table_id=OuterRef("table_id"))
    levels_lookup, points_lookup = board_score_lookups()
    return (
        Match.objects.filter(pk__in=list(tables.values()))
        .order_by()
        .annotate(
            three=Q(ns_pair__isnull=True),  # a three-seat table
            deals_played=deals_played_count(),
            referee_label=Subquery(assignment.annotate(name=_REFEREE_NAME).values("name")[:1]),
            claims_pending=_claims_pending(),
        )
        .values_list(
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
            "three",
            "deals_played",
            "referee_label",
            "claims_pending",
        )
    )
