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

The state is computed by the database (one ``CASE``), so filtering by it, counting per state
and sorting cost nothing in Python. A page is one query (rows with their flag counts, deals so
far, last deal's time and referee by correlated subqueries), plus one for the counts per state and
area (the area filter's choices too) and one for the referees (a three-seat table's seats: one
more; a referee chosen: one more for the areas): the query count does not grow with the number of
tables. Pages of
:data:`PAGE_SIZE`; byes are not tables and are left out.
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
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
    prefetch_related_objects,
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
)
from tournament.matches.snapshot_reads import deals_played_count
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
    match: Match
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

    @property
    def state_label(self) -> Any:
        return STATE_NAMES[self.state]

    @property
    def elapsed_minutes(self) -> int | None:
        return None if self.elapsed is None else int(self.elapsed.total_seconds() // 60)

    # the cells' texts, made here once per row (cheaper than template tags on a page of 100 rows)
    @property
    def url(self) -> str:
        return f"{_MATCH_URL}{self.match.pk}/"

    @property
    def table_label(self) -> str:
        table = self.match.table
        return str(table.number) if table is not None else "—"

    @property
    def area(self) -> str:
        table = self.match.table
        return table.area if table is not None else ""

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
    own_pause = Q(paused_at__isnull=False)
    if round_.paused_at is not None:
        own_pause &= ~Q(paused_at=round_.paused_at)
    return Case(
        When(status=MatchStatus.CONFIRMED, then=Value("confirmed")),
        When(has_flag=True, then=Value("flagged")),
        When(own_pause & Q(time_called_at__isnull=True), then=Value("disputed")),
        When(has_dispute=True, status__in=(MatchStatus.PENDING, MatchStatus.RUNNING), then=Value("disputed")),
        When(status=MatchStatus.FINISHED, then=Value("awaiting")),
        # a call due and not stored yet reads as made (a read writes nothing: the task stores it)
        When(Q(time_called_at__isnull=False) | time_due_filter(now=now), then=Value("time_called")),
        When(paused_at__isnull=False, then=Value("paused")),
        When(started_at__isnull=False, then=Value("playing")),
        # the players have entered a deal that waits for confirmation: the table is under way
        When(has_claim=True, then=Value("playing")),
        default=Value("not_started"),
    )


def _with_state(matches: QuerySet[Match], round_: Round, *, now: datetime) -> QuerySet[Any]:
    """``matches`` (of ``round_``) with their table state (``board_state``) and the count of their
    players' entries awaiting confirmation (``claims_pending``)."""
    # whether anything is flagged (EXISTS stops at the first row; the count is not shown)
    flagged = Exists(Deal.objects.filter(match=OuterRef("pk"), flagged=True)) | Exists(
        Adjustment.objects.filter(match=OuterRef("pk"), flagged=True)
    )
    disputed = Exists(DealClaim.objects.filter(match=OuterRef("pk"), status=ClaimStatus.DISPUTED))
    recorded = Deal.objects.filter(match=OuterRef("match"), number=OuterRef("number"))
    pending = (
        DealClaim.objects.filter(match=OuterRef("pk"), status=ClaimStatus.PENDING)
        .exclude(Exists(recorded))
        .order_by()
        .values("match")
        .annotate(n=Count("pk"))
        .values("n")
    )
    claimed = Exists(DealClaim.objects.filter(match=OuterRef("pk"), status=ClaimStatus.PENDING))
    return matches.annotate(has_flag=flagged, has_dispute=disputed, has_claim=claimed).annotate(
        board_state=_board_state(round_, now=now), claims_pending=Coalesce(Subquery(pending), 0)
    )


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
    tables = _with_state(round_.matches.exclude(BYE), round_, now=now)
    if referee_id is not None:
        tables = tables.filter(
            Exists(
                RefereeAssignment.objects.filter(
                    round_id=OuterRef("round_id"), table_id=OuterRef("table_id"), referee_id=referee_id
                )
            )
        )
    # The counts per state and area in one query: the chosen area's are the board's counts, and
    # (with no referee chosen) the areas that have a table are the area filter's choices.
    counts: dict[str, int] = {}
    found_areas: set[str] = set()
    per_area = tables.order_by().values("board_state", "table__area").annotate(n=Count("pk"))
    for row in per_area:
        found_areas.add(row["table__area"] or "")
        if not area or row["table__area"] == area:
            counts[row["board_state"]] = counts.get(row["board_state"], 0) + row["n"]
    if area:
        tables = tables.filter(table__area=area)
    total = sum(counts.values())
    if state in STATE_NAMES:
        tables = tables.filter(board_state=state)
        shown = counts.get(state, 0)
    else:
        shown = total
    pages = max(1, -(-shown // PAGE_SIZE))
    page = min(max(1, page), pages)

    deals = Deal.objects.filter(match=OuterRef("pk")).order_by().values("match")
    assignment = RefereeAssignment.objects.filter(round_id=OuterRef("round_id"), table_id=OuterRef("table_id"))
    rows_query = tables.select_related("table", "ns_pair", "ew_pair").annotate(
        deals_played=deals_played_count(),
        last_deal_at=Subquery(deals.annotate(at=Max("entered_at")).values("at")),
        referee_label=Subquery(assignment.annotate(name=_REFEREE_NAME).values("name")[:1]),
    )
    open_first = Case(When(status__in=(MatchStatus.PENDING, MatchStatus.RUNNING), then=Value(0)), default=Value(1))
    if sort == "slowest":
        rows_query = rows_query.order_by(
            open_first, "deals_played", F("started_at").asc(nulls_first=True), "table__number"
        )
    elif sort == "oldest":
        rows_query = rows_query.order_by(
            open_first, Coalesce("last_deal_at", "started_at").asc(nulls_first=True), "table__number"
        )
    else:
        rows_query = rows_query.order_by("table__number", "pk")
    start = (page - 1) * PAGE_SIZE
    matches = list(rows_query[start : start + PAGE_SIZE])
    # Only a three-seat table lists its seats: a round of two-sided tables asks for none.
    by_seat = [match for match in matches if match.ns_pair_id is None]
    if by_seat:
        seats = Prefetch("seats", queryset=MatchSeat.objects.select_related("pair").order_by("seat"))
        prefetch_related_objects(by_seat, seats)
    rows = [_row(match, now=now) for match in matches]

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


def _row(match: Any, *, now: datetime) -> BoardRow:
    end = match.paused_at or match.finished_at or now
    elapsed = end - match.started_at if match.started_at is not None else None
    if match.ns_pair_id is None:  # a three-seat table: its players by seat and their points
        seats = list(match.seats.all())
        entrants = " · ".join(f"{seat.seat} {seat.pair.name}" for seat in seats)
        points = match.table_snapshot.points
        score = " : ".join(str(value) for value in points) if match.started_at is not None else "—"
    else:
        # a started table with no deal yet is at 2 : 2 (docs/rules.md §1)
        entrants = f"{match.ns_pair.name} – {match.ew_pair.name}"
        levels = match.snapshot.levels_or_start
        started = levels is not None and match.started_at is not None
        score = f"{labels.level(levels.NS)} : {labels.level(levels.EW)}" if started else "—"
    return BoardRow(
        match=match,
        state=match.board_state,
        deals=match.deals_played,
        referee=match.referee_label or "",
        elapsed=elapsed if elapsed is None or elapsed >= timedelta(0) else timedelta(0),
        entrants=entrants,
        score=score,
        claims_pending=match.claims_pending,
    )
