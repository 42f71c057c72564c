"""The public read models behind the tournament's versioned cache (:mod:`tournament.standings.cache`);
views and the API call these.

Each is keyed on the scope whose events can change it: the standings are a coalesced build of the
*standings* version (moved only by what a ranking counts, rebuilt at most every few seconds, never
in front of a waiting request); the frame (stages and rounds) on the *seating* version; what shows
live levels or the running tables on the *public* version, moved by every deal — the draw and the
overview (with its progress) as coalesced builds like the standings, the bracket (one key, small)
as a plain cached value; a match and a pair on their own versions (moved only by that match's
results, or that pair's matches') and the *common* one (every other event).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar, cast

from django.core.paginator import Page, Paginator

from tournament.matches.models import Stage
from tournament.standings.cache import (
    UNREAD,
    LocalMemo,
    coalesced_get,
    coalesced_served,
    own_key,
    own_versions_get,
    public_cached,
    public_values_put,
    public_version_depends,
    public_version_get,
)
from tournament.standings.public import (
    RanksIndex,
    bracket_get,
    draw_list,
    match_history_get,
    page_digest,
    pair_history_get,
    pair_ranks_get,
    pair_ranks_index,
    standings_get,
    tournament_overview_get,
)
from tournament.standings.public_types import (
    Bracket,
    DrawRow,
    MatchPage,
    PairView,
    StageInfo,
    StageTable,
    StandingLine,
    TournamentOverview,
)
from tournament.standings.team_ranking import TeamMatchTable, team_match_table_get
from tournament.standings.teams import StageTeamTotal, TeamRoster, stage_team_total_get, team_rosters_get, team_total_of

T = TypeVar("T")
H = TypeVar("H")
R = TypeVar("R")

# -- cached ----------------------------------------------------------------------------------------------


def overview_build_get(*, tournament_id: int, version: int | None = None) -> tuple[int, TournamentOverview | None]:
    """The overview with the current round's progress as last built, and the build's token: a
    coalesced build of the *public* version (its progress counts the tables started and finished,
    so it would move with nearly every deal), rebuilt at most every ``PUBLIC_REBUILD_SECONDS``."""
    return coalesced_get(
        tournament_id=tournament_id,
        key="overview",
        build=lambda: tournament_overview_get(tournament_id=tournament_id),
        version=version,
        scope="public",
    )


def overview_cached(*, tournament_id: int, version: int | None = None) -> TournamentOverview | None:
    """The overview with the current round's progress (:func:`overview_build_get`)."""
    return overview_build_get(tournament_id=tournament_id, version=version)[1]


def _frame_get(*, tournament_id: int) -> TournamentOverview | None:
    overview = tournament_overview_get(tournament_id=tournament_id)
    return replace(overview, progress=None) if overview is not None else None


def frame_cached(*, tournament_id: int, seating_version: int | None = None) -> TournamentOverview | None:
    """The tournament's frame — the overview without its progress (``progress`` is None): the
    stages, the published rounds and the current one, all of which only change with events that
    move the *seating* version. Pages that show no running tables (standings, find my table, the
    navigation) take it, so a deal entered leaves them as they are."""
    if seating_version is None:
        seating_version = public_version_get(tournament_id=tournament_id, scope="seating")
    public_version_depends(tournament_id=tournament_id, scope="seating")
    return public_cached(
        tournament_id=tournament_id,
        key="frame",
        build=lambda: _frame_get(tournament_id=tournament_id),
        version=f"s{seating_version}",
    )


def draw_build_get(*, tournament_id: int, round_id: int, version: int | None = None) -> tuple[int, tuple[DrawRow, ...]]:
    """A round's draw with its live levels as last built, and the build's token: a coalesced build
    of the *public* version (every deal moves it), so a round of results costs one rebuild every
    ``PUBLIC_REBUILD_SECONDS`` at most, not one per deal; a round just published has no build yet
    and is built at once."""
    return coalesced_get(
        tournament_id=tournament_id,
        key=f"draw:{round_id}",
        build=lambda: draw_list(tournament_id=tournament_id, round_id=round_id),
        version=version,
        scope="public",
    )


class PageMoved(Exception):
    """The rows loaded for a page (:class:`DigestPages`) are not the ones its digest was made of (the
    build was evicted meanwhile and a newer one loaded): nothing is kept under that digest."""


@dataclass(frozen=True, slots=True)
class DigestPages(Generic[H, R]):
    """A list's pages (:func:`digest_pages_get`) as a page needs them: each page's digest and a reader of
    a page by number (its head and its rows: the rows kept under the digest when they are, else read from
    the build), or of the build as loaded now when the rows behind a digest moved."""

    digests: tuple[str, ...]
    read: Callable[[int], tuple[H, Page[R]]]
    """Page ``number``'s head and rows, as its digest was made of (else :class:`PageMoved`)."""
    load: Callable[[], tuple[H, Sequence[R]]]
    page_size: int

    def number(self, asked: int) -> int:
        """The page shown for page ``asked``: past the last page, the last (as ``Paginator.get_page``)."""
        return min(asked, len(self.digests))

    def loaded(self, asked: int) -> tuple[str, H, Page[R]]:
        """Page ``asked`` of the build as :attr:`load` gives it now, and its own digest: what a page shows
        when the build its digest was made of is gone (:class:`PageMoved`)."""
        head, rows = self.load()
        page = Paginator(rows, self.page_size).get_page(asked)
        return page_digest(page, head), head, page


def digest_pages_get(
    *,
    tournament_id: int,
    kind: str,
    pk: int,
    token: int,
    load: Callable[[], tuple[H, Sequence[R]]],
    page_size: int,
) -> DigestPages[H, R]:
    """The pages of ``page_size`` rows of a list built as ``token`` (a coalesced build's) and loaded by
    ``load`` (what the pages show beside their rows, the head, and the rows): a round's draw, a stage's
    team standings (``kind``, of ``pk``). Each page is keyed on its digest (:func:`page_digest` of its
    rows and the head), not on the build: a page (and its poll's 204) moves only when a build changes
    what it shows, so a build re-renders only the pages whose rows changed. The digests are made once
    per build, by one worker, which stores each page's rows under its digest at the same time: a worker
    renders a page from that page's rows alone, and serves one whose HTML is cached under its digest
    from nothing more — no worker but the builder fetches and unpickles a build of thousands of rows
    (:func:`tournament.standings.cache.coalesced_served`). A page's rows not found are read from the
    build; if that was evicted meanwhile and a newer one is loaded, :class:`PageMoved` is raised (the
    caller then shows the newer build's page, :meth:`DigestPages.loaded`)."""

    def digests_made() -> tuple[str, ...]:
        head, rows = load()
        paginator = Paginator(rows, page_size)
        pages = [paginator.page(number) for number in paginator.page_range]
        digests = tuple(page_digest(page, head) for page in pages)
        values = {
            _page_key(kind, pk, digest): (paginator.count, head, tuple(page.object_list))
            for digest, page in zip(digests, pages, strict=True)
        }
        public_values_put(tournament_id=tournament_id, version="rows", values=values)
        return digests

    digests = public_cached(
        tournament_id=tournament_id, key=f"{kind}-pages:{pk}:{page_size}", build=digests_made, version=f"d{token}"
    )

    def read(number: int) -> tuple[H, Page[R]]:
        digest = digests[number - 1]

        def rows_read() -> tuple[int, H, tuple[R, ...]]:
            head, rows = load()
            page = Paginator(rows, page_size).get_page(number)
            if page_digest(page, head) != digest:
                raise PageMoved
            return page.paginator.count, head, tuple(page.object_list)

        count, head, rows = public_cached(
            tournament_id=tournament_id, key=_page_key(kind, pk, digest), build=rows_read, version="rows"
        )
        # The list's paginator, of which a page reads only its count of rows (its number of pages).
        paginator = cast("Paginator[R]", Paginator(range(count), page_size))
        return head, Page(rows, number, paginator)

    return DigestPages(digests=digests, read=read, load=load, page_size=page_size)


def _page_key(kind: str, pk: int, digest: str) -> str:
    """Where a page of a list keeps its head and rows (and the list's count of rows): under its digest."""
    return f"{kind}-page:{pk}:{digest}"


def draw_pages_get(
    *, tournament_id: int, round_id: int, version: int, page_size: int
) -> DigestPages[None, DrawRow]:
    """A round's draw as last built (:func:`draw_build_get`), in pages keyed on their rows' digests
    (:func:`digest_pages_get`); the round's build is fetched only to make the digests (once per build)
    or to render a page whose rows were not kept."""
    key = f"draw:{round_id}"
    served = coalesced_served(
        tournament_id=tournament_id,
        key=key,
        build=lambda: draw_list(tournament_id=tournament_id, round_id=round_id),
        version=version,
        scope="public",
    )
    if served is None:  # nothing built yet, or the cache down
        token, rows = draw_build_get(tournament_id=tournament_id, round_id=round_id, version=version)
        served = token, lambda: rows
    token, rows_get = served
    return digest_pages_get(
        tournament_id=tournament_id,
        kind="draw",
        pk=round_id,
        token=token,
        load=lambda: (None, rows_get()),
        page_size=page_size,
    )


def draw_cached(*, tournament_id: int, round_id: int) -> tuple[DrawRow, ...]:
    """A round's draw as last built (:func:`draw_build_get`)."""
    return draw_build_get(tournament_id=tournament_id, round_id=round_id)[1]


def standings_key(stage_id: int) -> str:
    """The coalesced build's key of a stage's standings."""
    return f"standings:{stage_id}"


def standings_build_get(
    *, tournament_id: int, stage_id: int, version: int | None = None, marker: Any = UNREAD
) -> tuple[int, StageTable | None]:
    """A stage's standings as last completely built, and the build's token (the standings version
    it was built at: pages rendered from the build are keyed on it). A rebuild is coalesced: at
    most one at a time and at most every ``PUBLIC_REBUILD_SECONDS`` per stage, only once something
    counted has changed (:func:`tournament.standings.cache.coalesced_get`). ``version``: the
    tournament's standings version as the caller read it; ``marker``: the build's marker read
    with it (under :func:`standings_key`)."""
    if version is None:  # read here, not by coalesced_get: a rebuild derives the team total at it
        version = public_version_get(tournament_id=tournament_id, scope="standings")
    return coalesced_get(
        tournament_id=tournament_id,
        key=standings_key(stage_id),
        build=lambda: _standings_built(tournament_id=tournament_id, stage_id=stage_id, token=version),
        version=version,
        marker=marker,
    )


def _standings_built(*, tournament_id: int, stage_id: int, token: int | None) -> StageTable | None:
    """A stage's standings build, made at ``token`` (the standings version it is built at, when the caller
    knows it). Where the stage ranks teams, its team total is derived from it at once and stored under the
    token, before the build is served (:func:`team_total_cached`): else, when the build lands, the first
    team page derives it and every other waits for it, each in a worker of the pool."""
    table = standings_get(tournament_id=tournament_id, stage_id=stage_id)
    if token is not None and table is not None and table.teams is not None:
        team_total_cached(tournament_id=tournament_id, stage_id=stage_id, build=token, table=lambda: table)
    if token is not None and table is not None:  # every pair's ranks, read by the other workers
        pair_ranks_index_cached(
            tournament_id=tournament_id, stage_id=stage_id, build=token, table=lambda: table, made=True
        )
    return table


ranks_memo = LocalMemo(16)
"""A worker's ranks indexes (:func:`pair_ranks_index_cached`), one per stage and build: every pair's page
and ranks poll reads one, behind a few hundred pages each kept once in the pages' memory."""


def pair_ranks_index_cached(
    *, tournament_id: int, stage_id: int, build: int, table: Callable[[], StageTable | None], made: bool = False
) -> RanksIndex | None:
    """The ranks index (:class:`tournament.standings.public.RanksIndex`) of the stage's standings build
    ``build`` (its token) whose value ``table`` loads: made with the build by the worker that built it
    (``made``: nothing is filed under the token yet), so the others read it, a few plain values a line,
    instead of the build; derived from the build only where it was lost."""

    def derive() -> RanksIndex | None:
        built = table()
        return pair_ranks_index(built) if built is not None else None

    return public_cached(
        tournament_id=tournament_id,
        key=f"ranks-index:{stage_id}",
        build=derive,
        version=f"b{build}",
        lock=False,
        fresh=made,
        memo=ranks_memo,
    )


def coalesced_loaded(
    *, tournament_id: int, key: str, build: Callable[[], T], version: int, marker: Any = UNREAD
) -> tuple[int, Callable[[], T]]:
    """A coalesced build's token and a loader of its value (:func:`tournament.standings.cache.coalesced_served`),
    falling back to :func:`tournament.standings.cache.coalesced_get` when nothing is built yet or the
    cache is down."""
    served = coalesced_served(tournament_id=tournament_id, key=key, build=build, version=version, marker=marker)
    if served is not None:
        return served
    token, value = coalesced_get(tournament_id=tournament_id, key=key, build=build, version=version, marker=marker)
    return token, lambda: value


def standings_served_get(
    *, tournament_id: int, stage_id: int, version: int, marker: Any = UNREAD
) -> tuple[int, Callable[[], StageTable | None]]:
    """A stage's standings as :func:`standings_build_get` gives them, but the value as a loader:
    when no rebuild is due, nothing is fetched until the loader is called — a page whose HTML is
    cached under the token never needs it (:func:`tournament.standings.cache.coalesced_served`)."""
    return coalesced_loaded(
        tournament_id=tournament_id,
        key=standings_key(stage_id),
        build=lambda: _standings_built(tournament_id=tournament_id, stage_id=stage_id, token=version),
        version=version,
        marker=marker,
    )


def standings_pages_get(
    *, tournament_id: int, stage_id: int, build: int, load: Callable[[], StageTable | None], page_size: int
) -> DigestPages[StageTable | None, StandingLine]:
    """The stage's standings build ``build`` (its token; ``load`` gives the build) in pages of ``page_size``
    lines, each kept under the digest of its lines and of what every page shows beside them (the head: the
    build without its lines), as the draw's pages are (:func:`digest_pages_get`): a build that leaves a
    page's lines as they were leaves that page, and its poll's 204, as it is, so a rebuild re-renders only
    the pages whose lines changed (a finished match moves the ranks between the winner's old line and its
    new one, not the whole table). The build is loaded once per build, to make the digests (by the
    worker holding it: its builder), and for a page whose lines were not kept; the other workers render a
    page from its hundred lines, never from the 5,000 of a build fetched and unpickled."""

    def lines_loaded() -> tuple[StageTable | None, Sequence[StandingLine]]:
        table = load()
        return _head(table), table.lines if table is not None else ()

    return digest_pages_get(
        tournament_id=tournament_id, kind="standings", pk=stage_id, token=build, load=lines_loaded, page_size=page_size
    )


def _head(table: StageTable | None) -> StageTable | None:
    """A standings build as each of its pages shows it, without its lines (and the team total's reading)."""
    return replace(table, lines=(), teams=None) if table is not None else None


def team_matches_key(stage_id: int) -> str:
    """The coalesced build's key of a team match stage's standings (docs/rules.md §11)."""
    return f"teams:{stage_id}"


def _team_match_table_get(*, tournament_id: int, stage_id: int) -> TeamMatchTable | None:
    stage = Stage.objects.select_related("tournament").filter(pk=stage_id, tournament_id=tournament_id).first()
    return team_match_table_get(stage=stage) if stage is not None else None


def team_match_table_served_get(
    *, tournament_id: int, stage_id: int, version: int | None = None, marker: Any = UNREAD
) -> tuple[int, Callable[[], TeamMatchTable | None]]:
    """A team match stage's team standings and results as last completely built (its team matches, not a
    ranking of pairs), coalesced as a stage's standings are (:func:`standings_served_get`): rebuilt at
    most every few seconds, once something counted (or a team) changed, by one request at a time."""
    if version is None:
        version = public_version_get(tournament_id=tournament_id, scope="standings")
    return coalesced_loaded(
        tournament_id=tournament_id,
        key=team_matches_key(stage_id),
        build=lambda: _team_match_table_get(tournament_id=tournament_id, stage_id=stage_id),
        version=version,
        marker=marker,
    )


def team_rosters_cached(*, tournament_id: int) -> tuple[TeamRoster, ...]:
    """The event's teams and their members (:func:`tournament.standings.teams.team_rosters_get`), under the
    seating version: a team made, renamed or changed moves it (so do a pair's name and status)."""
    seating = public_version_get(tournament_id=tournament_id, scope="seating")
    return public_cached(
        tournament_id=tournament_id,
        key="team-rosters",
        build=lambda: team_rosters_get(tournament_id=tournament_id),
        version=f"s{seating}",
    )


def team_total_cached(
    *, tournament_id: int, stage_id: int, build: int, table: Callable[[], Any]
) -> StageTeamTotal | None:
    """The team total of the stage's standings build ``build`` (its token) whose value ``table`` loads:
    derived from the build's own ranking (``table().teams``: :class:`tournament.standings.teams.StageTeamRead`)
    and the event's teams, once for all workers, and kept under the token. The teams are read when it is
    derived, after the build started: a team changed since moves the standings version, so the next
    build (within seconds) shows it, as it shows a pair renamed. A build made before the stage ranked
    teams reads none: the team total is then ranked afresh, once (the build behind it is rebuilt within
    seconds, as every standings build behind its version is)."""

    def derive() -> StageTeamTotal | None:
        read = getattr(table(), "teams", None)
        if read is None:
            stage = Stage.objects.select_related("tournament").filter(pk=stage_id, tournament_id=tournament_id).first()
            return stage_team_total_get(stage=stage) if stage is not None else None
        return team_total_of(read=read, rosters=team_rosters_cached(tournament_id=tournament_id))

    return public_cached(tournament_id=tournament_id, key=f"team-total:{stage_id}", build=derive, version=f"b{build}")


def standings_cached(*, tournament_id: int, stage_id: int) -> StageTable | None:
    """A stage's standings, as last completely built (:func:`standings_build_get`)."""
    return standings_build_get(tournament_id=tournament_id, stage_id=stage_id)[1]


def bracket_cached(*, tournament_id: int, stage_id: int) -> Bracket | None:
    return public_cached(
        tournament_id=tournament_id,
        key=f"bracket:{stage_id}",
        build=lambda: bracket_get(tournament_id=tournament_id, stage_id=stage_id),
        stale_ok=True,
    )


def pair_token(*, common: int, own: int) -> str:
    """What a pair's (a match's) page is keyed on: the common version and its own version."""
    return f"c{common}.p{own}"


def pair_history_cached(*, tournament_id: int, pair_id: int, token: str | None = None) -> PairView | None:
    """A pair's players and matches (no ranks: :func:`pair_cached` adds them), keyed on the pair's
    own version and the common one (``token``, :func:`pair_token`, as the caller read them): a deal
    at another table leaves it as it is."""
    if token is None:
        key = own_key(tournament_id=tournament_id, kind="pair", pk=pair_id)
        versions = own_versions_get(tournament_id=tournament_id, keys=[key])
        token = pair_token(common=versions["common"], own=versions[key])
    return public_cached(
        tournament_id=tournament_id,
        key=f"pair:{pair_id}",
        build=lambda: pair_history_get(
            tournament_id=tournament_id, pair_id=pair_id, frame=frame_cached(tournament_id=tournament_id)
        ),
        version=token,
    )


def pair_ranks_cached(
    *, tournament_id: int, pair_id: int, stage_ids: Iterable[int]
) -> tuple[tuple[StageInfo, StandingLine], ...]:
    """The pair's line in the last complete standings build of each of ``stage_ids``."""
    tables = (standings_cached(tournament_id=tournament_id, stage_id=stage_id) for stage_id in stage_ids)
    return pair_ranks_get(pair_id=pair_id, tables=tables)


def pair_cached(*, tournament_id: int, pair_id: int, stage_ids: Iterable[int] | None = None) -> PairView | None:
    """A pair with its matches and its rank in each ranked stage with a published round
    (``stage_ids``; by default read from the frame)."""
    view = pair_history_cached(tournament_id=tournament_id, pair_id=pair_id)
    if view is None:
        return None
    if stage_ids is None:
        frame = frame_cached(tournament_id=tournament_id)
        stage_ids = [stage.id for stage in frame.ranked_stages if frame.rounds_of(stage.id)] if frame else []
    return replace(view, ranks=pair_ranks_cached(tournament_id=tournament_id, pair_id=pair_id, stage_ids=stage_ids))


def match_cached(*, tournament_id: int, match_id: int, token: str | None = None) -> MatchPage | None:
    """A match with its deals, keyed on its own version and the common one (``token``:
    ``c<common>.m<own>``, as the caller read them)."""
    if token is None:
        key = own_key(tournament_id=tournament_id, kind="match", pk=match_id)
        versions = own_versions_get(tournament_id=tournament_id, keys=[key])
        token = f"c{versions['common']}.m{versions[key]}"
    return public_cached(
        tournament_id=tournament_id,
        key=f"match:{match_id}",
        build=lambda: match_history_get(tournament_id=tournament_id, match_id=match_id),
        version=token,
    )
