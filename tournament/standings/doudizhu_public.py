"""The public pages of a Dou Dizhu event (docs/rules.md §10) in its own terms: find my seat (table and seat
letter), each round's tables of three, the standings with points, tie-breaks and who was cut, a player's
page with every deal, the final.

``tournament.standings.views.PUBLIC_PAGES`` comes here for the players' entrant kind (three-seat tables).
The pages are the same live, cached fragments as the other games' (``views._live_page``): each value is
built once per tournament version (``public_cached``) and polled with ``v=<version>``. Ranks come from the
one ranking (``stage_ranking_get``), the tables from ``table_selectors.round_seating``, points from the
stored snapshots (``Match.table_snapshot``): nothing here computes a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournament.games import game_kind
from tournament.matches.models import Deal, Match, MatchSeat, Round, RoundStatus, Stage
from tournament.matches.table_selectors import round_seating
from tournament.parsing import ascii_digits
from tournament.registration.models import Pair, PairStatus, Player
from tournament.standings.cache import UNREAD, coalesced_get, public_cached
from tournament.standings.public_cache import coalesced_loaded, standings_key
from tournament.standings.public_types import PublicHttpRequest, RoundInfo, StageInfo, TournamentOverview
from tournament.standings.selectors import stage_ranking_get
from tournament.standings.teams import StageTeamRead, stage_team_read

FIND_LIMIT = 20
PUBLIC_ROUNDS = (RoundStatus.PUBLISHED, RoundStatus.RUNNING, RoundStatus.TIME_CALLED, RoundStatus.FINISHED)


@dataclass(frozen=True, slots=True)
class SeatLine:
    seat: str
    pair_id: int
    name: str
    points: int


@dataclass(frozen=True, slots=True)
class TableLine:
    match_id: int
    table: int | None
    area: str
    status: str
    seats: tuple[SeatLine, ...]
    deals: int


@dataclass(frozen=True, slots=True)
class RoundTables:
    tables: tuple[TableLine, ...]
    byes: tuple[tuple[int, str], ...]


def round_tables_get(*, round_id: int) -> RoundTables:
    round_ = Round.objects.get(pk=round_id)
    seating = round_seating(round_=round_)
    tables = []
    for table in seating.tables:
        snapshot = table.match.table_snapshot
        tables.append(
            TableLine(
                match_id=table.match.pk,
                table=table.number,
                area=table.match.table.area if table.match.table else "",
                status=table.match.status,
                seats=tuple(SeatLine(seat, pair.pk, pair.name, snapshot.points_of(seat)) for seat, pair in table.seats),
                deals=len(snapshot.deals),
            )
        )
    return RoundTables(tuple(tables), tuple((pair.pk, pair.name) for pair in seating.byes))


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int
    shared: bool
    pair_id: int
    name: str
    rounds: int
    points: int
    deals_won: int
    landlord_wins: int
    best_round: int | None
    byes: int
    eliminated_after: int | None
    stage_rank: int | None
    withdrawn: bool
    lots: int | None = None
    """The lot that decided a full tie (the stage's recorded lots), else None."""
    provisional: bool = False
    """The player's points count a table awaiting sign-off (待确认; the event's policy)."""


@dataclass(frozen=True, slots=True)
class StandingsTable:
    stage_id: int
    stage_name: str
    final: bool
    lines: tuple[StandingLine, ...]
    cuts: tuple[dict[str, Any], ...]
    pending_cut: str
    teams: StageTeamRead | None = None
    """The stage ranks teams beside its players (``team_total``): this ranking as the team total reads it."""


def standings_table_get(*, stage_id: int) -> StandingsTable:
    stage = Stage.objects.select_related("tournament").get(pk=stage_id)
    standings = stage_ranking_get(stage=stage)
    ranking = standings.players
    assert ranking is not None  # a points stage
    lines = tuple(
        StandingLine(
            rank=row.rank,
            shared=row.shared,
            pair_id=int(row.player),
            name=standings.pairs[int(row.player)].name if int(row.player) in standings.pairs else row.player,
            rounds=row.rounds,
            points=row.points,
            deals_won=row.deals_won,
            landlord_wins=row.landlord_wins,
            best_round=row.best_round,
            byes=row.byes,
            eliminated_after=row.eliminated_after_round,
            stage_rank=row.stage_rank,
            withdrawn=int(row.player) in standings.pairs and standings.pairs[int(row.player)].status == "withdrawn",
            lots=row.lots,
            provisional=row.player in standings.provisional,
        )
        for row in ranking.players.rows
    )
    cuts = tuple(cut.to_json() for cut in ranking.cuts)
    teams = stage_team_read(stage=stage, standings=standings)
    return StandingsTable(stage.pk, stage.name, ranking.final, lines, cuts, ranking.pending_cut, teams)


@dataclass(frozen=True, slots=True)
class PlayerDeal:
    number: int
    landlord: str
    was_landlord: bool
    won: bool
    text: str
    points: int


@dataclass(frozen=True, slots=True)
class PlayerRound:
    stage_name: str
    round_number: int
    table: int | None
    seat: str
    match_id: int | None
    points: int
    deals: tuple[PlayerDeal, ...]


@dataclass(frozen=True, slots=True)
class PlayerPage:
    pair_id: int
    name: str
    department: str
    ranks: tuple[tuple[str, StandingLine], ...]
    rounds: tuple[PlayerRound, ...]


def player_page_get(*, tournament_id: int, pair_id: int) -> PlayerPage | None:
    pair = Pair.objects.filter(pk=pair_id, tournament_id=tournament_id).first()
    if pair is None:
        return None
    member = pair.members.select_related("player__department").first()
    department = member.player.department.name if member and member.player.department else ""
    entry = game_kind(pair.tournament.game)
    ranks = []
    for stage in Stage.objects.filter(tournament_id=tournament_id, rounds__isnull=False).distinct().order_by("order"):
        table = standings_table_get(stage_id=stage.pk)
        line = next((line for line in table.lines if line.pair_id == pair_id), None)
        if line is not None:
            ranks.append((stage.name, line))
    seats = (
        MatchSeat.objects.filter(pair=pair, round__status__in=PUBLIC_ROUNDS)
        .select_related("round__stage", "match__table")
        .order_by("round__stage__order", "round__number")
    )
    rounds = []
    for row in seats:
        if row.match is None:
            rounds.append(PlayerRound(row.round.stage.name, row.round.number, None, "", None, 0, ()))
            continue
        deals = []
        for deal in Deal.objects.filter(match=row.match, flagged=False).order_by("number"):
            record = deal.table_snapshot
            if record is None:
                continue
            deals.append(
                PlayerDeal(
                    number=deal.number,
                    landlord=record.landlord,
                    was_landlord=record.landlord == row.seat,
                    won=(record.landlord == row.seat) == record.landlord_won,
                    text=entry.outcome_text(deal.outcome),
                    points=record.points_of(row.seat),
                )
            )
        rounds.append(
            PlayerRound(
                stage_name=row.round.stage.name,
                round_number=row.round.number,
                table=row.match.table.number if row.match.table else None,
                seat=row.seat,
                match_id=row.match_id,
                points=row.match.table_snapshot.points_of(row.seat),
                deals=tuple(deals),
            )
        )
    return PlayerPage(pair.pk, pair.name, department, tuple(ranks), tuple(rounds))


@dataclass(frozen=True, slots=True)
class SeatAnswer:
    pair_id: int
    name: str
    round_name: str
    table: int | None
    area: str
    seat: str
    """E / S / W; empty for a bye or no seat in the current round."""
    bye: bool
    eliminated_after: int | None = None
    number: int | None = None
    """The player's number in the event (the draw's and the sheets' "#8")."""
    unseated: str = ""
    """Why a player has no seat: "withdrawn", "not_checked_in" (never seated yet, others checked in), or ""."""


def _unseated(pair: Pair) -> str:
    """Why ``pair`` (a player) has no seat in the current round: withdrawn, or registered but not checked in
    while the draw takes the checked-in players (never seated yet); "" for anything else (cut, not drawn)."""
    if pair.status == PairStatus.WITHDRAWN:
        return "withdrawn"
    if pair.status != PairStatus.REGISTERED or MatchSeat.objects.filter(pair=pair).exists():
        return ""
    others_in = Pair.objects.filter(tournament_id=pair.tournament_id, status=PairStatus.CHECKED_IN).exists()
    return "not_checked_in" if others_in else ""


def seat_find(*, tournament_id: int, round_ids: list[int], query: str) -> tuple[SeatAnswer, ...]:
    """Players matching ``query`` (part of a name, a whole employee number, or "#8": player 8 of the
    event) and their seat in the current round(s): table and seat letter, a bye, or no seat (eliminated,
    not checked in)."""
    if not query:
        return ()
    number = query[1:].strip()
    if query.startswith("#") and ascii_digits(number) and len(number) <= 9:
        wanted = Q(membership__pair__number=int(number))
    else:
        wanted = Q(name__icontains=query) | Q(employee_number=query)
    players = (
        Player.objects.filter(tournament_id=tournament_id)
        .filter(wanted)
        .select_related("membership__pair")
        .order_by("name", "id")[:FIND_LIMIT]
    )
    pair_ids = [player.membership.pair_id for player in players if hasattr(player, "membership")]
    seats = {
        row.pair_id: row
        for row in MatchSeat.objects.filter(round_id__in=round_ids, pair_id__in=pair_ids).select_related(
            "round__stage", "match__table"
        )
    }
    answers = []
    for player in players:
        if not hasattr(player, "membership"):
            continue
        pair = player.membership.pair
        row = seats.get(pair.pk)
        if row is None:
            answers.append(
                SeatAnswer(pair.pk, pair.name, "", None, "", "", False, number=pair.number, unseated=_unseated(pair))
            )
            continue
        round_name = _("%(stage)s · round %(number)s") % {"stage": row.round.stage.name, "number": row.round.number}
        table = row.match.table if row.match else None
        answers.append(
            SeatAnswer(
                pair.pk,
                pair.name,
                round_name,
                table.number if table else None,
                table.area if table else "",
                row.seat,
                row.match_id is None,
                number=pair.number,
            )
        )
    return tuple(answers)


# -- the pages (views.py hands them over for a three-seat event) -----------------------------------


def tables_build_get(*, tournament_id: int, round_id: int, version: int | None = None) -> tuple[int, Any]:
    """A round's tables of three with their live points as last built, and the build's token: a
    coalesced build of the *public* version (every deal moves it), as the other games' draw
    (``public_cache.draw_build_get``): one rebuild every ``PUBLIC_REBUILD_SECONDS`` at most."""
    return coalesced_get(
        tournament_id=tournament_id,
        key=f"ddz:tables:{round_id}",
        build=lambda: round_tables_get(round_id=round_id),
        version=version,
        scope="public",
    )


def standings_build_get(
    *, tournament_id: int, stage_id: int, version: int | None = None, marker: Any = UNREAD
) -> tuple[int, StandingsTable]:
    """A points stage's standings as last built, and the build's token: a coalesced build of the
    *standings* version, which only a table finishing (or leaving finished) moves — the ranking
    counts finished tables only (``doudizhu._player_rounds``), so a deal inside a table rebuilds
    nothing. Under the other games' key (:func:`public_cache.standings_key`): a stage is of one game."""
    return coalesced_get(
        tournament_id=tournament_id,
        key=standings_key(stage_id),
        build=lambda: standings_table_get(stage_id=stage_id),
        version=version,
        marker=marker,
    )


def standings_served_get(
    *, tournament_id: int, stage_id: int, version: int, marker: Any = UNREAD
) -> tuple[int, Callable[[], StandingsTable]]:
    """:func:`standings_build_get`'s token, and its value as a loader (``public_cache.coalesced_loaded``)."""
    return coalesced_loaded(
        tournament_id=tournament_id,
        key=standings_key(stage_id),
        build=lambda: standings_table_get(stage_id=stage_id),
        version=version,
        marker=marker,
    )


def draw_page(
    request: PublicHttpRequest,
    *,
    overview: TournamentOverview,
    round_: RoundInfo | None,
    live_page: Callable[..., HttpResponse],
) -> HttpResponse:
    frame = f"s{request.seating_version}"
    tables: Any = None
    version = frame
    if round_ is not None:
        build, tables = tables_build_get(
            tournament_id=overview.id,
            round_id=round_.id,
            version=request.public_version,
        )
        version = f"{frame}.d{build}"

    return live_page(
        request,
        overview=overview,
        key=f"ddz:draw:{round_.id if round_ else 0}",
        fragment="public/_doudizhu_draw.html",
        context=lambda: {"round": round_, "tables": tables} if round_ is not None else {"round": None},
        title=_("Draw"),
        section="draw",
        version=version,
    )


def standings_page(
    request: PublicHttpRequest,
    *,
    overview: TournamentOverview,
    stage: StageInfo,
    live_page: Callable[..., HttpResponse],
    marker: Any = UNREAD,
) -> HttpResponse:
    build, table = standings_build_get(
        tournament_id=overview.id,
        stage_id=stage.id,
        version=request.standings_version,
        marker=marker,
    )
    return live_page(
        request,
        overview=overview,
        key=f"ddz:standings:{stage.id}",
        fragment="public/_doudizhu_standings.html",
        context=lambda: {"table": table, "stage": stage},
        title=_("Standings"),
        section="standings",
        version=f"s{request.seating_version}.b{build}",
    )


def player_page(
    request: PublicHttpRequest, *, overview: TournamentOverview, pair_id: int, live_page: Callable[..., HttpResponse]
) -> HttpResponse:
    view = public_cached(
        tournament_id=overview.id,
        key=f"ddz:player:{pair_id}:{get_language()}",
        build=lambda: player_page_get(tournament_id=overview.id, pair_id=pair_id),
        version=request.public_version,
    )
    if view is None:
        raise Http404
    return live_page(
        request,
        overview=overview,
        key=f"ddz:player:{pair_id}",
        fragment="public/_doudizhu_player.html",
        context=lambda: {"player": view},
        title=view.name,
    )


def find_html(*, overview: TournamentOverview, query: str) -> SafeString:
    round_ids = [round_.id for round_ in overview.current_rounds]
    answers = seat_find(tournament_id=overview.id, round_ids=round_ids, query=query) if query else ()
    return SafeString(
        render_to_string(
            "public/_doudizhu_found.html",
            {"overview": overview, "query": query, "answers": answers, "drawn": bool(round_ids), "limit": FIND_LIMIT},
        )
    )


@dataclass(frozen=True, slots=True)
class TableDealLine:
    number: int
    text: str
    points: tuple[int, int, int]
    multiple: int | None


@dataclass(frozen=True, slots=True)
class TablePage:
    match_id: int
    table: int | None
    round_name: str
    status: str
    seats: tuple[SeatLine, ...]
    deals: tuple[TableDealLine, ...]
    forfeited: tuple[str, ...]


def table_page_get(*, tournament_id: int, match_id: int) -> TablePage | None:
    match = (
        Match.objects.filter(pk=match_id, ns_pair__isnull=True, round__stage__tournament_id=tournament_id)
        .filter(round__status__in=PUBLIC_ROUNDS)
        .select_related("round__stage", "table", "round__stage__tournament")
        .first()
    )
    if match is None:
        return None
    entry = game_kind(match.round.stage.tournament.game)
    snapshot = match.table_snapshot
    seats = tuple(
        SeatLine(row.seat, row.pair_id, row.pair.name, snapshot.points_of(row.seat))
        for row in MatchSeat.objects.filter(match=match).select_related("pair").order_by("seat")
    )
    deals = []
    for deal in Deal.objects.filter(match=match, flagged=False).order_by("number"):
        record = deal.table_snapshot
        if record is not None:
            deals.append(TableDealLine(deal.number, entry.outcome_text(deal.outcome), record.points, record.multiple))
    round_name = _("%(stage)s · round %(number)s") % {"stage": match.round.stage.name, "number": match.round.number}
    return TablePage(
        match.pk,
        match.table.number if match.table else None,
        round_name,
        match.status,
        seats,
        tuple(deals),
        snapshot.forfeited,
    )


def match_page(
    request: PublicHttpRequest, *, overview: TournamentOverview, match_id: int, live_page: Callable[..., HttpResponse]
) -> HttpResponse:
    view = public_cached(
        tournament_id=overview.id,
        key=f"ddz:table:{match_id}:{get_language()}",
        build=lambda: table_page_get(tournament_id=overview.id, match_id=match_id),
        version=request.public_version,
    )
    if view is None:
        raise Http404
    return live_page(
        request,
        overview=overview,
        key=f"ddz:table:{match_id}",
        fragment="public/_doudizhu_table.html",
        context=lambda: {"table": view},
        title=_("Table %(table)s") % {"table": view.table} if view.table else _("Match"),
    )


def screen_slides(*, overview: TournamentOverview, rows: int, max_slides: int) -> list[dict[str, Any]]:
    """The big screen of a Dou Dizhu event: the current round's tables of three, then the standings of
    its stage (points, and who was cut), ``rows`` to a slide; both the coalesced builds the draw and
    standings pages show."""
    slides: list[dict[str, Any]] = []
    current = overview.current_round
    if current is None:
        return slides
    _build, tables = tables_build_get(tournament_id=overview.id, round_id=current.id)
    chunks = [tables.tables[i : i + rows] for i in range(0, min(len(tables.tables), rows * max_slides), rows)] or [()]
    for number, chunk in enumerate(chunks, 1):
        slides.append({"kind": "tables", "round": current, "tables": chunk, "part": number, "parts": len(chunks)})
    _build, table = standings_build_get(tournament_id=overview.id, stage_id=current.stage_id)
    lines = table.lines
    chunks = [lines[i : i + rows] for i in range(0, min(len(lines), rows * max_slides), rows)]
    for number, chunk in enumerate(chunks, 1):
        slides.append({"kind": "players", "table": table, "lines": chunk, "part": number, "parts": len(chunks)})
    return slides
