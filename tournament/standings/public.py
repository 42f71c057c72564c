"""What players see: read models of the public pages and the public API.

Keyword-only selectors, each returning small immutable values (picklable, so they cache in Redis
as they are) built from the stored match snapshots — nothing here applies a rule: results,
levels and ranks come from the rules core through ``Match.snapshot`` (its reader of the stored
snapshot) and
:func:`tournament.standings.selectors.stage_ranking_get`. Only published rounds are public
(a draft draw is the organiser's); a lookup outside the tournament gives ``None`` (the views
answer 404).

The values are in :mod:`tournament.standings.public_types`; the cached wrappers views and the API
call are in :mod:`tournament.standings.public_cache`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any, NamedTuple, cast

from django.core.paginator import Page
from django.db.models import Count, Q, QuerySet, TextField
from django.db.models.functions import Cast

from scoring.bracket import BracketState
from scoring.options import RuleOptions
from scoring.snapshot import MatchSnapshot, SidePair
from scoring.standings import METRICS, StandingRow
from scoring.team_matches import TeamMatchReason
from tournament.games.shown_rules import stage_rules_lines, stage_rules_title
from tournament.locale import both_languages
from tournament.matches.correction_selectors import stage_flags_get
from tournament.matches.models import (
    BYE,
    Match,
    MatchStatus,
    Round,
    Stage,
    StageFormat,
    TeamLineUp,
    TeamMatch,
)
from tournament.matches.selectors import round_knockout_pairs
from tournament.matches.snapshot_reads import (
    CHUNK,
    deals_played_count,
    match_time_up,
    snapshot_from_values,
    snapshot_lookups,
    snapshot_read,
    snapshot_texts,
    snapshot_time_up,
)
from tournament.matches.stage_options import DrawOptions, draw_options_lookup
from tournament.prepared import prepared_rows, prepared_values
from tournament.registration.models import Pair, PairMember, Tournament, TournamentStatus
from tournament.rules import rules_for_stage, stage_profile_name, stored_rules_read
from tournament.standings.cache import LocalMemo
from tournament.standings.public_types import (
    PUBLIC_ROUND_STATUSES,
    QUERY_MAX,
    Bracket,
    BracketMatch,
    BracketRound,
    Column,
    DrawRow,
    MatchPage,
    PairView,
    PublicSide,
    RoundInfo,
    RoundProgress,
    StageInfo,
    StageTable,
    StandingLine,
    TeamTable,
    TournamentOverview,
)
from tournament.standings.selectors import (
    stage_bracket_get,
    stage_bracket_state_get,
    stage_match_records,
    stage_ranking_get,
    stage_third_place_matches,
)
from tournament.standings.team_matches import TeamMatchLine, stage_team_matches_get, team_bracket_winners
from tournament.standings.teams import stage_team_read

# -- helpers -------------------------------------------------------------------------------------------


def _pair_of(pair: SidePair | None) -> tuple[int, int] | None:
    return (pair.NS, pair.EW) if pair is not None else None


def _round_info(round_: Round) -> RoundInfo:
    return RoundInfo(
        id=round_.pk,
        stage_id=round_.stage_id,
        stage_name=round_.stage.name,
        stage_format=round_.stage.format,
        number=round_.number,
        status=round_.status,
        published_at=round_.published_at,
        started_at=round_.started_at,
        ends_at=getattr(round_, "ends_at", None),
        time_called_at=round_.time_called_at,
        paused_at=getattr(round_, "paused_at", None),
        knockout_pairs=round_knockout_pairs(round_=round_),
        stage_entrants=round_.stage.settings.entrants,
        team_match=round_.stage.settings.team_match is not None,
    )


def _stage_info(stage: Stage) -> StageInfo:
    flags = stage_flags_get(stage=stage, open_only=True)  # the one reader of the correction flags
    return StageInfo(
        id=stage.pk,
        name=stage.name,
        format=stage.format,
        order=stage.order,
        profile=stage_profile_name(stage),
        rules=stage_rules_lines(stage),
        rules_title=both_languages(lambda: stage_rules_title(stage)),
        advancement_changed=any(not flag.is_round for flag in flags),
        rounds_changed=tuple(flag.round_number for flag in flags if flag.is_round and flag.round_number),
        team_total=stage.settings.team_total,
        team_match=stage.settings.team_match is not None,
    )


def _public_rounds() -> QuerySet[Round]:
    return Round.objects.filter(status__in=PUBLIC_ROUND_STATUSES)


# -- selectors -----------------------------------------------------------------------------------------


def tournament_overview_get(*, tournament_id: int) -> TournamentOverview | None:
    """The tournament, its stages and published rounds, and the round being played now; None for an
    unknown tournament or a draft (the organiser's, not public: every public page and the public
    API answer 404 for it)."""
    tournament = Tournament.objects.filter(pk=tournament_id).exclude(status=TournamentStatus.DRAFT).first()
    if tournament is None:
        return None
    stages = tuple(_stage_info(stage) for stage in tournament.stages.order_by("order"))
    rounds = tuple(
        _round_info(round_)
        for round_ in _public_rounds()
        .filter(stage__tournament_id=tournament_id)
        .select_related("stage")
        .order_by("stage__order", "number")
    )
    latest: dict[int, RoundInfo] = {}
    for round_ in rounds:  # in order: each stage's last published round wins
        latest[round_.stage_id] = round_
    # Each stage's newest round still open, newest stage first (rounds stay "published" until every
    # match is signed off, so older rounds may still be open; only the newest is where players sit).
    current = tuple(round_ for round_ in reversed(latest.values()) if round_.is_open) or rounds[-1:]
    progress = None
    if current:
        # One query: the overview is rebuilt after every deal entered anywhere in the event.
        # a table of two sides (not a bye) or of three seats (Dou Dizhu: its byes are no matches)
        counts = (
            Match.objects.exclude(BYE)
            .filter(round_id=current[0].id)
            .aggregate(
                tables=Count("id"),
                finished=Count("id", filter=Q(status__in=(MatchStatus.FINISHED, MatchStatus.CONFIRMED))),
                running=Count("id", filter=Q(status=MatchStatus.RUNNING)),
            )
        )
        progress = RoundProgress(**counts)
    return TournamentOverview(
        id=tournament.pk,
        name=tournament.name,
        game=tournament.game,
        status=tournament.status,
        venue=tournament.venue,
        starts_on=tournament.starts_on,
        stages=stages,
        rounds=rounds,
        current_rounds=current,
        progress=progress,
    )


_DRAW_KEYS = ("levels", "points", "status", "winner", "reason", "last_regular_deal")
"""What the public draw shows of each table's snapshot (fetched alone: its deals are most of it)."""

read_draw_snapshots = LocalMemo(4)
"""A worker's snapshots of each round's tables as its last draw build read them: round id → {the stored
texts of :data:`_DRAW_KEYS`: the snapshot read from them}. A snapshot is a function of those texts alone,
so one found under the same texts is what a fresh read would give, with any number of workers; a
round's draw is built again every few seconds while its results come in, and its worker decodes only
the tables whose snapshot changed since (a few dozen), not the 2,500 of a 5,000-pair round."""


def _draw_snapshots(
    round_id: int,
    read: list[tuple[int, tuple[Any, ...], Sequence[Any]]],
    known: dict[tuple[Any, ...], MatchSnapshot] | None,
) -> dict[int, MatchSnapshot]:
    """Match id → its snapshot, for a draw's rows ``read`` (match id, the texts of :data:`_DRAW_KEYS`,
    their values where they were fetched with them): found by their texts among ``known`` (what this
    worker read of the round before), else read back, in one statement (a match written meanwhile is
    read as it is now). What was read is kept for the round's next build."""
    count = len(_DRAW_KEYS)
    held: dict[tuple[Any, ...], MatchSnapshot] = {}
    out: dict[int, MatchSnapshot] = {}
    unread: list[int] = []
    for match_id, texts, values in read:
        if values:  # fetched with their texts
            out[match_id] = held[texts] = snapshot_from_values(_DRAW_KEYS, values)
        elif known is not None and texts in known:
            out[match_id] = held[texts] = known[texts]
        else:
            unread.append(match_id)
    for start in range(0, len(unread), CHUNK):
        again = Match.objects.filter(pk__in=unread[start : start + CHUNK]).order_by()
        for match_id, *fetched in again.values_list("id", *snapshot_texts(*_DRAW_KEYS), *snapshot_lookups(*_DRAW_KEYS)):
            out[match_id] = held[tuple(fetched[:count])] = snapshot_from_values(_DRAW_KEYS, fetched[count:])
    read_draw_snapshots.put(round_id, held)
    return out


def draw_list(*, tournament_id: int, round_id: int) -> tuple[DrawRow, ...]:
    """A published round's tables in table order (byes last): pairs, area, status, live levels.

    Empty for a round that is not public or not the tournament's.
    """
    known = read_draw_snapshots.get(round_id)
    # The snapshots' texts, and at the round's first build by this worker their values too (decoded at once).
    lookups = snapshot_lookups(*_DRAW_KEYS) if known is None else ()
    rows = list(
        Match.objects.filter(
            round_id=round_id,
            round__stage__tournament_id=tournament_id,
            round__status__in=PUBLIC_ROUND_STATUSES,
        )
        .annotate(deals_played=deals_played_count())
        .order_by("table__number", "bracket_slot", "id")
        .values_list(
            "id",
            "table__number",
            "table__area",
            "ns_pair_id",
            "ns_pair__name",
            "ew_pair_id",
            "ew_pair__name",
            "ns_pair__number",
            "ew_pair__number",
            "status",
            "winner",
            "bracket_slot",
            "time_called_during_deal",
            "deals_played",
            *snapshot_texts(*_DRAW_KEYS),
            *lookups,
        )
    )
    count = len(_DRAW_KEYS)
    snapshots = _draw_snapshots(
        round_id, [(row[0], tuple(row[14 : 14 + count]), row[14 + count :]) for row in rows], known
    )
    time_up = _draw_time_up(round_id)
    walkovers = Round.objects.filter(pk=round_id).values_list(draw_options_lookup("walkovers"), flat=True).first()
    absent = DrawOptions.walkovers_of(walkovers)
    absent_names = dict(Pair.objects.filter(pk__in=absent.values()).values_list("id", "name"))
    stage = Stage.objects.filter(rounds=round_id, format=StageFormat.KNOCKOUT).first()
    third = stage_third_place_matches(stage=stage) if stage is not None else frozenset()
    teams = _team_tables(round_id)
    out = []
    for (
        match_id,
        table,
        area,
        ns_id,
        ns_name,
        ew_id,
        ew_name,
        ns_number,
        ew_number,
        status,
        winner,
        slot,
        called,
        played,
        *_snapshot,
    ) in rows:
        snapshot = snapshots.get(match_id) or snapshot_from_values(_DRAW_KEYS, [None] * count)  # deleted meanwhile
        out.append(
            DrawRow(
                match_id=match_id,
                table=table,
                area=area or "",
                ns=PublicSide(ns_id, ns_name, ns_number),
                ew=PublicSide(ew_id, ew_name or "", ew_number),
                status=status,
                winner=winner,
                levels=_pair_of(snapshot.levels),
                points=_pair_of(snapshot.points),
                bracket_slot=slot,
                walkover_over=absent_names.get(absent.get(ns_id, 0), "") if ew_id is None else "",
                time_up=time_up(called, snapshot, played) if called is not None and ew_id is not None else None,
                reason=snapshot.reason or "",
                third_place=match_id in third,
                team=teams.get(match_id),
            )
        )
    out.sort(key=lambda row: (row.table is None, row.table or 0, row.bracket_slot or 0, row.match_id))
    return tuple(out)


def page_digest(page: Page[Any], head: object = None) -> str:
    """What a page of a list (a round's draw, a stage's team standings) shows, as a short digest: its rows,
    its place among the pages, and ``head``, what it shows of the list beside its rows (None: nothing; a
    team total's count rule and unranked teams). The same rows give the same digest in every worker and
    every build: a deal at another page's table, a result of another page's team, leaves it as it is."""
    shown = repr(
        (page.number, page.paginator.num_pages, tuple(page.object_list)) + ((head,) if head is not None else ())
    )
    return hashlib.blake2b(shown.encode(), digest_size=8).hexdigest()


def _team_tables(round_id: int) -> dict[int, TeamTable]:
    """Match id → its team match, for a round of a team match stage (docs/rules.md §11): the result is
    the one selector's (:func:`stage_team_matches_get`); empty for a round of pairs."""
    round_ = Round.objects.select_related("stage").filter(pk=round_id).first()
    if round_ is None or round_.stage.settings.team_match is None:
        return {}
    played = stage_team_matches_get(stage=round_.stage)
    # a bye (or a walkover) has no tables: its rows are the pairs of the team's line-up, each without an opponent
    line_ups = {
        team: (first, second)
        for team, first, second in TeamLineUp.objects.filter(round=round_).values_list(
            "team_id", "first_id", "second_id"
        )
    }
    lone = dict(
        Match.objects.filter(round=round_, ew_pair__isnull=True, ns_pair__isnull=False).values_list("ns_pair_id", "pk")
    )
    tables: dict[int, TeamTable] = {}
    for line in played.of_round(round_.number):
        result = line.result
        seats: list[tuple[str, int | None]] = [("a", line.table_a), ("b", line.table_b)]
        if line.y is None:
            seats = [("", lone.get(pair)) for pair in line_ups.get(line.x, ())]
        for index, (letter, match_id) in enumerate(seats):
            if match_id is None:
                continue
            tables[match_id] = TeamTable(
                id=line.id,
                number=line.number,
                table=letter,
                x=played.names.get(line.x, ""),
                y=played.names.get(line.y, "") if line.y is not None else "",
                tables_won=result.tables_won,
                small_points=result.small_points,
                winner=played.names.get(int(result.winner), "") if result.winner else "",
                finished=result.finished,
                opens=index == 0,
                walkover_over=played.names.get(line.walkover_over, "") if line.walkover_over is not None else "",
                on_small_points=result.reason == TeamMatchReason.SMALL_POINTS,
            )
    return tables


def _draw_time_up(round_id: int) -> Callable[[int, MatchSnapshot, int], tuple[str, str] | None]:
    """A reader of the time-up notice for the round's rows: the rules are read once, at
    the first row whose time was called; each row gives only the few snapshot fields it needs."""
    rules: list[RuleOptions] = []

    def options() -> RuleOptions:
        if not rules:
            round_ = Round.objects.select_related("stage__tournament").get(pk=round_id)
            rules.append(rules_for_stage(round_.stage))
        return rules[0]

    def read(called: int, snapshot: MatchSnapshot, played: int) -> tuple[str, str] | None:
        return _time_up_of(options, called, snapshot, played)

    return read


def _time_up_of(
    options: Callable[[], RuleOptions], called: int, snapshot: MatchSnapshot, played: int
) -> tuple[str, str] | None:
    """The rules core's time-up notice of a row whose time was called (``called``: during which deal),
    both languages (the views are cached), from the few snapshot fields it reads and the deals
    ``played``; ``options``: the stage's rules, read only if the row needs them."""
    notice = snapshot_time_up(options=options(), time_called_during_deal=called, snapshot=snapshot, deals_played=played)
    return (notice.text_en, notice.text_zh) if notice is not None else None


def normalise_query(text: str) -> str:
    """A search as typed, tidied: outer and repeated spaces dropped, at most :data:`QUERY_MAX` characters."""
    return " ".join(str(text).split())[:QUERY_MAX]


def _columns(stage: Stage) -> tuple[Column, ...]:
    return tuple(
        Column(name=name, title=METRICS[name].title, title_zh=METRICS[name].title_zh)
        for name in rules_for_stage(stage).tie_breakers
    )


def _row_values(names: list[str]) -> Callable[[StandingRow], tuple[Any, ...]]:
    """The reader of a row's values of the tie-break columns ``names`` (each a field of the row), in one
    call: a 5,000-pair stage's standings are built every few seconds during a round."""
    if len(names) > 1:
        return cast("Callable[[StandingRow], tuple[Any, ...]]", attrgetter(*names))
    return lambda row: tuple(getattr(row, name) for name in names)


def standings_get(*, tournament_id: int, stage_id: int) -> StageTable | None:
    """A stage's standings with every tie-break column it uses and each pair's movement.

    The ranking is the stage's one answer (:func:`tournament.standings.selectors.stage_ranking_get`):
    a round robin played in groups is ranked group by group (ranks, head-to-head and movement are
    within the group; lines come group by group), lots are those recorded for the stage, and a
    withdrawn pair is listed after the active pairs of its group, marked. Movement compares with the
    same ranking over the rounds before the latest one that has a result.
    """
    stage = Stage.objects.select_related("tournament").filter(pk=stage_id, tournament_id=tournament_id).first()
    if stage is None:
        return None
    records = stage_match_records(stage=stage)
    current = stage_ranking_get(stage=stage, records=records)
    if current.teams is not None:  # a knockout of teams ranks teams: its placings and bracket show them
        return None
    latest = max((record.round for record in records), default=None)
    previous: dict[str, int] = {}
    if latest is not None and latest > 1:
        # The same results before the latest round at every rebuild of a round: ranked once.
        earlier = [record for record in records if record.round < latest]
        before = stage_ranking_get(stage=stage, records=earlier, pairs=current.pairs, remember=True, provisional=False)
        if before.ranking is not None:
            previous = {row.entrant: row.row.rank for row in before.ranking.rows}
    if current.ranking is not None:
        ranked = [(item.row, item.group, item.withdrawn) for item in current.ranking.rows]
    else:  # a knockout: its placings
        ranked = [(row, None, False) for row in current.standings.rows]
    columns = _columns(stage)
    shown = _row_values([column.name for column in columns])
    lines = []
    for row, group, withdrawn in ranked:
        pair = current.pairs[int(row.entrant)]
        lines.append(
            StandingLine(
                rank=row.rank,
                shared=row.shared,
                pair_id=pair.pk,
                pair_name=pair.name,
                pair_number=pair.number,
                played=row.played,
                wins=row.wins,
                draws=row.draws,
                losses=row.losses,
                byes=row.byes,
                values=shown(row),
                previous_rank=previous.get(row.entrant),
                group=group,
                withdrawn=withdrawn,
                provisional=row.entrant in current.provisional,
            )
        )
    return StageTable(
        stage=_stage_info(stage),
        columns=columns,
        lines=tuple(lines),
        latest_round=latest,
        teams=stage_team_read(stage=stage, standings=current),
    )


def _match_view(match: Match) -> MatchPage:
    """A match read with its round, stage, event, table and pairs (a match's page)."""
    round_ = match.round
    return _match_page(
        match.snapshot,
        id=match.pk,
        tournament_id=round_.stage.tournament_id,
        stage_id=round_.stage_id,
        stage_name=round_.stage.name,
        stage_format=round_.stage.format,
        round_id=round_.pk,
        round_number=round_.number,
        round_knockout_pairs=round_knockout_pairs(round_=round_),
        table=match.table.number if match.table else None,
        area=match.table.area if match.table else "",
        ns=_side_of(match.ns_pair),
        ew=_side_of(match.ew_pair),
        status=match.status,
        winner=match.winner,
        reason=match.result_reason,
        started_at=match.started_at,
        clock_ends_at=getattr(match, "clock_ends_at", None),
        bracket_slot=match.bracket_slot,
        paused_at=getattr(match, "paused_at", None),
        time_up=_time_up_texts(match),
        game=rules_for_stage(round_.stage).game.value,
        walkover_over=_walkover_over(
            ns_pair_id=match.ns_pair_id, ew_pair_id=match.ew_pair_id, walkovers=lambda: round_.draw_settings.walkovers
        ),
    )


def _match_page(snapshot: MatchSnapshot, **shown: Any) -> MatchPage:
    """A public match as its page and its pairs' pages show it: ``shown`` (what the match's row, round
    and table say) with what its snapshot says — the one assembly of a :class:`MatchPage`, whichever
    way the match was read (:func:`_match_view`, :func:`pair_history_get`)."""
    next_deal = snapshot.next_deal
    return MatchPage(
        **shown,
        levels=_pair_of(snapshot.levels),
        a_failures=_pair_of(snapshot.a_failures),
        points=_pair_of(snapshot.points),
        games=_pair_of(snapshot.games),
        next_level=next_deal.level if next_deal else None,
        next_sets_level=_next_sets_level(snapshot),
        deals=snapshot.deals,
        adjustments=snapshot.adjustments,
    )


def _walkover_over(
    *, ns_pair_id: int | None, ew_pair_id: int | None, walkovers: Callable[[], Mapping[int, int]]
) -> str:
    """The withdrawn pair a row without an opponent was due to meet (``walkovers``: its round's draw
    record, read only for such a row), else ""."""
    if ew_pair_id is not None or ns_pair_id is None:
        return ""
    gone = walkovers().get(ns_pair_id)
    if gone is None:
        return ""
    return Pair.objects.filter(pk=gone).values_list("name", flat=True).first() or ""


def _time_up_texts(match: Match) -> tuple[str, str] | None:
    """The rules core's time-up notice of ``match``, both languages (the view is cached)."""
    if getattr(match, "time_called_during_deal", None) is None:
        return None
    notice = match_time_up(match)
    return (notice.text_en, notice.text_zh) if notice is not None else None


def _public_matches(tournament_id: int) -> QuerySet[Match]:
    return (
        Match.objects.filter(round__stage__tournament_id=tournament_id, round__status__in=PUBLIC_ROUND_STATUSES)
        .exclude(round__stage__tournament__status=TournamentStatus.DRAFT)
        .select_related("round__stage__tournament", "table", "ns_pair", "ew_pair")
    )


def _public_match(*, tournament: int, match: int) -> QuerySet[Match]:
    return _public_matches(tournament).filter(pk=match).order_by()


def match_history_get(*, tournament_id: int, match_id: int) -> MatchPage | None:
    """A public match with its deal-by-deal history (the rules core's records). Its statement is
    compiled once per process and planned once per connection, as a pair's matches are
    (:func:`pair_history_get`): a match's page is asked after each of its deals."""
    rows = prepared_rows("public-match", _public_match, server_plan=True, tournament=tournament_id, match=match_id)
    return _match_view(rows[0]) if rows else None


def _public_pair(*, tournament: int, pair: int) -> QuerySet[Pair, tuple[int, int, str, str]]:
    return (
        Pair.objects.filter(tournament_id=tournament, pk=pair)
        .exclude(tournament__status=TournamentStatus.DRAFT)
        .values_list("id", "number", "name", "status")
    )


def _pair_members(*, tournament: int, pair: int) -> QuerySet[PairMember, tuple[int, int, str, str, str, str | None]]:
    """A public pair's members with the pair itself: one statement for both (a pair has its two)."""
    return (
        PairMember.objects.filter(pair__tournament_id=tournament, pair_id=pair)
        .exclude(pair__tournament__status=TournamentStatus.DRAFT)
        .order_by("slot")
        .values_list(
            "pair_id", "pair__number", "pair__name", "pair__status", "player__name", "player__department__name"
        )
    )


def _pair_matches(*, tournament: int, pair: int) -> QuerySet[Match, tuple[Any, ...]]:
    """A pair's public matches, the columns its page shows (their rounds and stages: the frame's)."""
    return (
        _public_matches(tournament)
        .filter(Q(ns_pair_id=pair) | Q(ew_pair_id=pair))
        .order_by("round__stage__order", "round__number")
        .annotate(deals_played=deals_played_count(), stored_rules=Cast("round__stage__rules", TextField()))
        .values_list(
            "id",
            "round_id",
            "table__number",
            "table__area",
            "ns_pair_id",
            "ns_pair__name",
            "ns_pair__number",
            "ew_pair_id",
            "ew_pair__name",
            "ew_pair__number",
            "status",
            "winner",
            "result_reason",
            "started_at",
            "clock_ends_at",
            "paused_at",
            "bracket_slot",
            "time_called_during_deal",
            "deals_played",
            "stored_rules",
            "round__" + draw_options_lookup("walkovers"),
            "state",
        )
    )


def pair_history_get(*, tournament_id: int, pair_id: int, frame: TournamentOverview | None) -> PairView | None:
    """A pair: its players and every public match it played (its ranks are the standings' and
    change with other pairs' results: :func:`pair_ranks_get`, filled in by the caller). ``frame``:
    the event's stages and published rounds (``public_cache.frame_cached``), which its matches'
    rounds are read from; None: the event is not public."""
    if frame is None:
        return None
    # Its statements compiled once per process (tournament.prepared) and planned once per connection
    # by PostgreSQL (the matches' joined tables took it longer to plan than to read); their rows read
    # as tuples of the columns the page shows, not as model instances with their round, stage, event,
    # table and pairs (building those was most of a first view's read). The pair comes with its
    # members (one statement less); a pair without any (none is registered so) is read alone.
    members = prepared_values(
        "public-pair-members", _pair_members, server_plan=True, tournament=tournament_id, pair=pair_id
    )
    if members:
        found: tuple[Any, ...] | None = members[0][:4]
    else:
        found = next(iter(prepared_values("public-pair", _public_pair, tournament=tournament_id, pair=pair_id)), None)
    if found is None:
        return None
    rounds = {round_.id: round_ for round_ in frame.rounds}
    matches = []
    for row in prepared_values(
        "public-pair-matches", _pair_matches, server_plan=True, tournament=tournament_id, pair=pair_id
    ):
        match = _pair_match_page(row, round_=rounds.get(row[1]), frame=frame)
        if match is not None:
            matches.append(match)
    pk, number, name, status = found
    return PairView(
        id=pk,
        number=number,
        tournament_id=tournament_id,
        name=name,
        status=status,
        players=tuple((member[4], member[5] or "") for member in members),
        ranks=(),
        matches=tuple(matches),
    )


def _pair_match_page(row: tuple[Any, ...], *, round_: RoundInfo | None, frame: TournamentOverview) -> MatchPage | None:
    """A row of :func:`_pair_matches` as its pair's page shows it; None for a round the frame does not
    know (published after the frame was read: the page is of the versions read before it)."""
    if round_ is None:
        return None
    (
        match_id,
        _round_id,
        table,
        area,
        ns_id,
        ns_name,
        ns_number,
        ew_id,
        ew_name,
        ew_number,
        status,
        winner,
        reason,
        started_at,
        clock_ends_at,
        paused_at,
        slot,
        called,
        played,
        stored_rules,
        walkovers,
        state,
    ) = row
    snapshot = snapshot_read(state)
    time_up = None
    if called is not None and ew_id is not None:
        time_up = _time_up_of(
            lambda: stored_rules_read(rules=json.loads(stored_rules), game=frame.game), called, snapshot, played
        )
    return _match_page(
        snapshot,
        id=match_id,
        tournament_id=frame.id,
        stage_id=round_.stage_id,
        stage_name=round_.stage_name,
        stage_format=round_.stage_format,
        round_id=round_.id,
        round_number=round_.number,
        round_knockout_pairs=round_.knockout_pairs,
        table=table,
        area=area or "",
        ns=PublicSide(ns_id, ns_name, ns_number) if ns_id is not None else PublicSide(None, ""),
        ew=PublicSide(ew_id, ew_name, ew_number) if ew_id is not None else PublicSide(None, ""),
        status=status,
        winner=winner,
        reason=reason,
        started_at=started_at,
        clock_ends_at=clock_ends_at,
        bracket_slot=slot,
        paused_at=paused_at,
        time_up=time_up,
        game=frame.game,
        walkover_over=_walkover_over(
            ns_pair_id=ns_id, ew_pair_id=ew_id, walkovers=lambda: DrawOptions.walkovers_of(walkovers)
        ),
    )


_LINE_INDEXES: dict[int, tuple[StageTable, dict[int, StandingLine]]] = {}
"""The lines of the last few standings builds by pair, per process (by the build's ``id``, the build
kept beside its index so that ``id`` names no other): a pair's page and its ranks' polls look their
line up in a build of 5,000 lines."""
LINE_INDEXES = 8


def _line_of(table: StageTable, pair_id: int) -> StandingLine | None:
    held = _LINE_INDEXES.get(id(table))
    if held is None or held[0] is not table:
        if len(_LINE_INDEXES) >= LINE_INDEXES:
            _LINE_INDEXES.clear()  # the builds of a few stages at most are current
        held = _LINE_INDEXES[id(table)] = (table, {line.pair_id: line for line in table.lines})
    return held[1].get(pair_id)


def pair_ranks_get(*, pair_id: int, tables: Iterable[StageTable | None]) -> tuple[tuple[StageInfo, StandingLine], ...]:
    """A pair's line in each of ``tables`` (the standings of the ranked stages it may be in, as the
    public pages show them) that has one."""
    ranks = []
    for table in tables:
        line = _line_of(table, pair_id) if table is not None else None
        if table is not None and line is not None:
            ranks.append((table.stage, line))
    return tuple(ranks)


class RankShown(NamedTuple):
    """A pair's line in one stage's standings as the ranks part of its page shows it — all that part
    is made of (``public_tags.pair_ranks_html`` renders these fields and no others), so its version
    (:func:`pair_ranks_version`) moves exactly when what it shows does."""

    stage_id: int
    stage_name: str
    rank: int
    provisional: bool
    movement: int | None
    wins: int
    draws: int
    losses: int


class RanksIndex(NamedTuple):
    """A standings build's lines as the ranks parts of the pairs' pages show them (:class:`RankShown`'s
    fields after the stage's, by pair id): a few plain values a line, made and stored with the build
    (``public_cache.pair_ranks_index_cached``), so that a worker showing a pair's ranks reads this
    and never unpickles the build's 5,000 lines (some 40 ms a build and worker)."""

    stage_id: int
    stage_name: str
    lines: dict[int, tuple[int, bool, int | None, int, int, int]]


def pair_ranks_index(table: StageTable) -> RanksIndex:
    """The ranks index of a standings build (:class:`RanksIndex`)."""
    return RanksIndex(
        table.stage.id,
        table.stage.name,
        {
            line.pair_id: (line.rank, line.provisional, line.movement, line.wins, line.draws, line.losses)
            for line in table.lines
        },
    )


def pair_ranks_shown(*, pair_id: int, indexes: Iterable[RanksIndex | None]) -> tuple[RankShown, ...]:
    """What the ranks part of a pair's page shows of its line in the standings build of each of
    ``indexes`` (:func:`pair_ranks_index`) that has one."""
    shown = []
    for index in indexes:
        line = index.lines.get(pair_id) if index is not None else None
        if index is not None and line is not None:
            shown.append(RankShown(index.stage_id, index.stage_name, *line))
    return tuple(shown)


def pair_ranks_version(shown: tuple[RankShown, ...]) -> str:
    """The version of a pair's ranks part: a digest of what it shows. A standings build that leaves
    the pair's line as it was (another pair's match finished, the pair's rank and record the same)
    leaves it, and its poll's 204, as it is."""
    return "r" + hashlib.blake2b(repr(shown).encode(), digest_size=8).hexdigest()


def _next_sets_level(snapshot: MatchSnapshot) -> str | None:
    """The side whose level the next deal is played at; in Tractor the declarer (庄家) sets it."""
    next_deal = snapshot.next_deal
    if next_deal is None:
        return None
    return next_deal.sets_level or next_deal.declarer


def _side_of(pair: Pair | None) -> PublicSide:
    """A pair at its table as shown; the empty side of a bye when there is none."""
    return PublicSide(pair.pk, pair.name, pair.number) if pair is not None else PublicSide(None, "")


def _bracket_box(match: Match, position: int, *, third_place: bool = False, walkover_over: str = "") -> BracketMatch:
    snapshot = match.snapshot
    return BracketMatch(
        match_id=match.pk,
        position=position,
        table=match.table.number if match.table else None,
        ns=_side_of(match.ns_pair),
        ew=_side_of(match.ew_pair) if match.ew_pair_id else None,
        is_bye=match.ew_pair_id is None,
        status=match.status,
        winner="NS" if match.ew_pair_id is None else match.winner,
        levels=_pair_of(snapshot.levels),
        points=_pair_of(snapshot.points),
        third_place=third_place,
        next_sets_level=_next_sets_level(snapshot) if match.status == MatchStatus.RUNNING else None,
        confirmed=match.ew_pair_id is None or match.status == MatchStatus.CONFIRMED,
        reason=match.result_reason,
        walkover_over=walkover_over,
    )


def _advancing(box: BracketMatch | None) -> PublicSide | None:
    """Who goes on from a box: its winner (a bye's pair) once confirmed (signed off)."""
    if box is None or not box.confirmed:
        return None
    if box.winner == "NS":
        return box.ns
    if box.winner == "EW":
        return box.ew
    return None


def _placeholder(position: int, before: dict[int, BracketMatch]) -> BracketMatch:
    """Match ``position`` of a round not drawn yet: the pairs its two earlier matches send on, as far as
    they are known; a bye when one of them sends nobody (the pair it does send is shown first)."""
    first, second = before.get(2 * position - 1), before.get(2 * position)
    bye = _sends_nobody(first) != _sends_nobody(second)
    ns, ew = _advancing(first), _advancing(second)
    if bye and _sends_nobody(first):
        ns, ew = ew, None
    return BracketMatch(
        match_id=None,
        position=position,
        table=None,
        ns=ns,
        ew=None if bye else ew,
        is_bye=bye,
        status="",
        winner="",
        levels=None,
        points=None,
    )


def _sends_nobody(box: BracketMatch | None) -> bool:
    """A decided match both of whose pairs are out (lost by both at a deadline, docs/rules.md §12.1):
    the place it feeds is a bye (docs/rules.md §7), not one still to be decided."""
    return box is not None and box.confirmed and box.ew is not None and box.winner not in ("NS", "EW")


def bracket_get(*, tournament_id: int, stage_id: int) -> Bracket | None:
    """A knockout stage as a tree: every round (drawn or still to come), byes, winners, live levels.

    Who goes on, the third-place match and the champion are the bracket's one answer
    (:func:`tournament.standings.selectors.stage_bracket_state_get`, confirmed results only): an
    entered result awaiting sign-off shows its winner marked ``confirmed=False`` (待确认) and moves
    nobody on. Works for a fixed bracket (matches carry ``bracket_slot``; match j of a round feeds
    match ⌈j/2⌉ of the next) and for a knockout re-drawn each round (seed 004). Rounds not drawn
    yet are shown as empty boxes: a round of n pairs has ⌈n/2⌉ matches; none once the champion is
    decided (a walkover final included).
    """
    stage = Stage.objects.select_related("tournament").filter(pk=stage_id, tournament_id=tournament_id).first()
    if stage is None:
        return None
    bracket = stage_bracket_get(stage=stage, statuses=PUBLIC_ROUND_STATUSES)
    if bracket is None:  # not a knockout: read as a bracket of its pairs, as before
        return _pairs_bracket_page(stage, stage_bracket_state_get(stage=stage, statuses=PUBLIC_ROUND_STATUSES))
    return BRACKET_PAGES[bracket.kind](stage, bracket.state)


def _pairs_bracket_page(stage: Stage, state: BracketState) -> Bracket:
    """A bracket of pairs (or players): its boxes are the stage's matches."""
    matches = list(
        Match.objects.filter(round__stage=stage, round__status__in=PUBLIC_ROUND_STATUSES)
        .select_related("round", "table", "ns_pair", "ew_pair")
        .order_by("round__number", "bracket_slot", "table__number", "id")
    )
    by_round: dict[int, list[Match]] = {}
    walkovers: dict[int, dict[int, int]] = {}  # round number → pair given a walkover → the withdrawn pair
    for match in matches:
        by_round.setdefault(match.round.number, []).append(match)
        walkovers.setdefault(match.round.number, dict(match.round.draw_settings.walkovers))
    absent_names = dict(
        Pair.objects.filter(pk__in={gone for each in walkovers.values() for gone in each.values()}).values_list(
            "id", "name"
        )
    )
    rounds: list[BracketRound] = []
    third: BracketMatch | None = None
    number = 0
    for number in sorted(by_round):
        main: list[BracketMatch] = []
        round_matches = sorted(
            by_round[number], key=lambda m: (m.bracket_slot is None, m.bracket_slot or 0, m.ew_pair_id is None)
        )
        for position, match in enumerate(round_matches, 1):
            is_third = state.third_place_match == (number, str(match.ns_pair_id))
            absent = walkovers[number].get(match.ns_pair_id or 0) if match.ew_pair_id is None else None
            walkover_over = absent_names.get(absent, "") if absent is not None else ""
            box = _bracket_box(match, match.bracket_slot or position, third_place=is_third, walkover_over=walkover_over)
            if is_third:
                third = box
            else:
                main.append(box)
        remaining = sum(2 if box.ew is not None else 1 for box in main)
        rounds.append(BracketRound(number=number, matches=tuple(main), drawn=True, remaining=remaining))
    names = {match.ns_pair_id: match.ns_pair.name for match in matches if match.ns_pair is not None}
    names.update({match.ew_pair_id: match.ew_pair.name for match in matches if match.ew_pair is not None})
    champion = PublicSide(int(state.champion), names.get(int(state.champion), "")) if state.champion else None
    if rounds and champion is None:
        still_in = len(rounds[-1].matches)  # each match of the last drawn round sends one pair on
        # A fixed bracket (every match has its bracket position) already knows who meets whom:
        # match j of the next round is between the winners of matches 2j-1 and 2j.
        fixed = all(match.bracket_slot is not None for match in matches)
        while still_in > 1:
            number += 1
            count = (still_in + 1) // 2
            before = {box.position: box for box in rounds[-1].matches} if fixed else {}
            placeholders = tuple(_placeholder(position, before) for position in range(1, count + 1))
            rounds.append(BracketRound(number=number, matches=placeholders, drawn=False, remaining=still_in))
            still_in = count
    byes = sum(1 for round_ in rounds for box in round_.matches if box.is_bye)
    return Bracket(stage=_stage_info(stage), rounds=tuple(rounds), third_place=third, champion=champion, byes=byes)


def _team_box(line: TeamMatchLine, row: TeamMatch, names: dict[int, str], *, decided: bool) -> BracketMatch:
    """A team match as a box of the bracket (docs/rules.md §11): team X at N/S, team Y at E/W (a bye: no
    Y), linked to its table a; its winner goes on once both tables are signed off (a drawn one once its
    tie-break deal is recorded)."""
    result = line.result
    tables = [table for table in (row.table_a, row.table_b) if table is not None]
    if decided:
        status = MatchStatus.CONFIRMED
    elif any(table.status == MatchStatus.RUNNING for table in tables):
        status = MatchStatus.RUNNING
    elif result.finished:
        status = MatchStatus.FINISHED
    else:
        status = MatchStatus.PENDING
    winner = "" if result.winner is None else "NS" if result.winner == str(line.x) else "EW"
    first = row.table_a or row.table_b
    return BracketMatch(
        match_id=first.pk if first is not None else None,
        position=line.bracket_slot or line.number,
        table=first.table.number if first is not None and first.table is not None else None,
        ns=PublicSide(None, names.get(line.x, "")),
        ew=PublicSide(None, names.get(line.y, "")) if line.y is not None else None,
        is_bye=line.y is None,
        status=status,
        winner="NS" if line.y is None else winner,
        levels=None,
        points=None,
        confirmed=line.y is None or decided,
        # a walkover is shown as a pair's is (the withdrawn team named), not as a forfeit at the tables
        reason="forfeit" if result.reason is TeamMatchReason.FORFEIT and line.y is not None else "",
        walkover_over=names.get(line.walkover_over, "") if line.walkover_over is not None else "",
    )


def _teams_bracket_page(stage: Stage, state: BracketState) -> Bracket:
    """A knockout of teams (docs/rules.md §11): its boxes are the team matches (team names), its
    champion the teams' bracket's (:func:`tournament.standings.selectors.stage_bracket_get`)."""
    played = stage_team_matches_get(stage=stage)
    winners = team_bracket_winners(stage=stage, played=played)
    rows = {
        row.pk: row
        for row in TeamMatch.objects.filter(round__stage=stage, round__status__in=PUBLIC_ROUND_STATUSES).select_related(
            "table_a__table", "table_b__table"
        )
    }
    record = stage.settings.bracket_record or {}
    size = len(record.get("slots") or ())
    final_round = max(size.bit_length() - 1, 1)
    rounds: list[BracketRound] = []
    third: BracketMatch | None = None
    by_round: dict[int, list[BracketMatch]] = {}
    for line in played.matches:
        row = rows.get(line.id)
        if row is None:
            continue
        ref = (line.round, line.bracket_slot or 0)
        box = _team_box(line, row, played.names, decided=ref in winners)
        if record.get("third_place") and ref == (final_round, 2):
            third = dataclasses.replace(box, third_place=True)
        else:
            by_round.setdefault(line.round, []).append(box)
    for number in sorted(by_round):
        main = tuple(sorted(by_round[number], key=lambda box: box.position))
        remaining = sum(2 if box.ew is not None else 1 for box in main)
        rounds.append(BracketRound(number=number, matches=main, drawn=True, remaining=remaining))
    champion = PublicSide(None, played.names.get(int(state.champion), "")) if state.champion else None
    if rounds and champion is None:
        number, still_in = rounds[-1].number, len(rounds[-1].matches)
        while still_in > 1:  # the rounds to come: a fixed bracket knows who meets whom
            number += 1
            count = (still_in + 1) // 2
            before = {box.position: box for box in rounds[-1].matches}
            placeholders = tuple(_placeholder(position, before) for position in range(1, count + 1))
            rounds.append(BracketRound(number=number, matches=placeholders, drawn=False, remaining=still_in))
            still_in = count
    byes = sum(1 for round_ in rounds for box in round_.matches if box.is_bye)
    return Bracket(stage=_stage_info(stage), rounds=tuple(rounds), third_place=third, champion=champion, byes=byes)


BRACKET_PAGES: dict[str, Callable[[Stage, BracketState], Bracket]] = {
    "pairs": _pairs_bracket_page,
    "players": _pairs_bracket_page,
    "teams": _teams_bracket_page,
}
"""The public bracket's boxes, by who the stage is drawn between (``tournament.games.stage_entrants_of``):
a pair's matches, or a team's team matches."""
