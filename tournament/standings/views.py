"""The public pages: no login, read-only, cached per tournament version, live by htmx polling.

Each page is keyed on what it shows (:mod:`tournament.standings.cache`), around the tournament's
frame (stages and rounds, on the *seating* version): a standings page on the lines it shows of the
stage's last complete standings build (moved only by what a ranking counts; a page none of whose
lines moved keeps its token), a draw page on the rows it shows
of the round's last complete draw build (live levels: coalesced, at most one rebuild every few
seconds; a page none of whose tables moved keeps its token, and each row is rendered once); the bracket
on the *public* version (every deal moves it; one small value); a match's and a pair's page on its
own version and the *common* one (a deal moves only its match's and its two pairs' pages: every
other pair's poll answers 204 from the versions alone; a pair's ranks are a part of their own, on the
standings builds);
find my table on the seat index alone; the big screen and the tournament home show the running
tables (the overview's progress). So while results flow in, find my table does not change, the
standings change only when a match finishes, and nothing is rebuilt once per deal for everyone.

Each page is a cached fragment (rendered once per tournament version, page and language) inside
the site's layout (itself rendered once per version for visitors who are not signed in:
:mod:`tournament.standings.shell`); find my table answers from each worker's index of the seats
(:mod:`tournament.standings.seating`). A live fragment polls its own URL every few seconds with ``v=<version>``
(``hx-get``); while nothing changed the answer is an empty 204 (htmx keeps the page as it is),
so thousands of open phones cost one cache read each per poll. Without JavaScript every page
works as a plain page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from django.core.paginator import Page
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournament.games import game_kind
from tournament.parsing import int_or_none
from tournament.registration.announcements import announcements_shown
from tournament.standings import doudizhu_public
from tournament.standings.cache import (
    UNREAD,
    LocalMemo,
    own_key,
    own_version_depends,
    own_versions_get,
    public_cached,
    public_version_depends,
    public_versions_get,
)
from tournament.standings.find_answers import FIND_HOLES, FindLayout, find_body
from tournament.standings.public import (
    normalise_query,
    pair_history_get,
    pair_ranks_shown,
)
from tournament.standings.public_cache import (
    DigestPages,
    PageMoved,
    bracket_cached,
    draw_cached,
    draw_pages_get,
    frame_cached,
    match_cached,
    overview_build_get,
    overview_cached,
    pair_ranks_index_cached,
    pair_token,
    standings_cached,
    standings_key,
    standings_pages_get,
    standings_served_get,
)
from tournament.standings.public_types import (
    DrawRow,
    PublicHttpRequest,
    RoundInfo,
    StageInfo,
    StageTable,
    StandingLine,
    TournamentOverview,
)
from tournament.standings.ranks_answers import RanksLayout, ranks_fragment, ranks_stages_of
from tournament.standings.response_reads import (
    find_layout_note,
    poll_note,
    ranks_layout_note,
    response_cacheable,
    response_kept_locally,
)
from tournament.standings.seat_cards import find_results_html
from tournament.standings.seating import player_find
from tournament.standings.shell import page_render, plain_visitor, shell_get
from tournament.standings.team_match_page import (
    team_match_keys,
    team_match_page_cached,
    team_match_tables_cached,
    team_match_token,
)
from tournament.standings.team_public import (
    TeamStandingsValue,
    team_standings_cached,
    team_standings_markers,
    team_standings_pages_get,
)
from tournament.standings.team_ranking import TeamMatchTable

T = TypeVar("T")
H = TypeVar("H")
R = TypeVar("R")

DRAW_PAGE_SIZE = 100
STANDINGS_PAGE_SIZE = 100
POLL_SECONDS = 5
"""Live pages show a new result within this (the issue asks for 10 seconds)."""
SCREEN_POLL_SECONDS = 10
SCREEN_INTERVAL = 12
SCREEN_ROWS = 10
SCREEN_MAX_SLIDES = 6
"""Per kind (draw, standings): a projector shows the top of a big event, players use their phones."""


def _overview(
    request: PublicHttpRequest,
    tournament_id: int,
    *,
    live: bool = True,
    markers: dict[str, Any] | None = None,
    owns: dict[str, int] | None = None,
    made: set[str] | None = None,
) -> TournamentOverview:
    """The tournament's overview (404 if unknown); notes the cache versions on the request, read
    once per request (one round trip for all three, and for the ``markers`` of coalesced builds
    the page will need). ``live``: with the current round's progress (at the public version); else
    the frame (:func:`frame_cached`, at the seating version) for a page that shows no running tables.
    ``owns``: the own versions (a pair's, a match's) the page is keyed on, read in the same round trip
    (``made``: those this request created)."""
    versions = public_versions_get(tournament_id=tournament_id, markers=markers, owns=owns, made=made)
    request.public_version = versions.public
    request.standings_version = versions.standings
    request.seating_version = versions.seating
    request.common_version = versions.common
    if live:
        overview = overview_cached(tournament_id=tournament_id, version=versions.public)
    else:
        overview = frame_cached(tournament_id=tournament_id, seating_version=versions.seating)
    if overview is None:
        raise Http404
    return overview


def _int_param(request: HttpRequest, name: str, default: int, low: int, high: int) -> int:
    value = int_or_none(request.GET.get(name, default))
    return default if value is None else min(max(value, low), high)


def _live_page(
    request: PublicHttpRequest,
    *,
    overview: TournamentOverview,
    key: str,
    fragment: str,
    context: Callable[[], dict[str, Any]],
    title: str | None,
    params: dict[str, Any] | None = None,
    poll_seconds: int | None = POLL_SECONDS,
    stale_ok: bool = False,
    section: str = "",
    template: str = "public/page.html",
    version: int | str | None = None,
    layout_version: int | str | None = None,
    fill: Callable[[str], str] | None = None,
    layout_key: str | None = None,
    lock: bool = True,
    fresh: bool = False,
) -> HttpResponse:
    """Render a cached fragment, whole (a page) or alone (an htmx poll), or 204 if unchanged.

    ``version``: what the fragment is built from (default: the request's public version);
    ``layout_version``: what the layout around it is built from (default: the frame's, the
    seating version: the layout shows the tournament's name and stages and the page's title — a
    pair's name, a table's number — all moved only by seating events); ``fill``: what fills the
    cached fragment's holes for this response (a part keyed on something else: a pair's ranks);
    ``layout_key``: the layout's own key when pages of one kind share it (the title is a hole of the
    layout: every pair's page has the same layout, rendered once, not once per pair); ``lock`` and
    ``fresh``: :func:`public_cached`'s (False: a miss builds at once; True: not looked for);
    ``title`` None: the context gives it (``title``, a pair's name), cached with the fragment — what
    the page shows is then read only when its fragment is not cached yet.
    """
    # Built from cached values alone, keyed on the versions and builds noted: a worker may keep the
    # whole response (tournament.standings.public_responses).
    response_cacheable()
    public_version_depends(tournament_id=overview.id, scope="seating")
    if version is None:
        version = request.public_version
        public_version_depends(tournament_id=overview.id, scope="public")
    if layout_version is None:
        layout_version = f"s{request.seating_version}"
    unchanged = _poll_unchanged(request, version)
    if unchanged is not None:
        return unchanged
    query = urlencode({**(params or {}), "v": version})
    poll_url = f"{request.path}?{query}"

    def build() -> tuple[str, str]:
        values = context()
        html = render_to_string(
            fragment,
            {**values, "overview": overview, "version": version, "poll_url": poll_url, "poll_seconds": poll_seconds},
        )
        return str(values["title"]) if title is None else "", html

    language = get_language() or ""
    # (title, html), the title read with the fragment's values when it is one of them, else "".
    title_read, html = public_cached(
        tournament_id=overview.id,
        key=f"page:{language}:{key}",
        build=build,
        stale_ok=stale_ok,
        version=version,
        lock=lock,
        fresh=fresh,
        later=not lock,  # nobody waits for it: shared with the response, in one round trip
    )
    if fill is not None:
        html = fill(html)
    if request.htmx:
        response = HttpResponse(html)
    else:
        response = page_render(
            request,
            template,
            {"overview": overview, "section": section},
            tournament_id=overview.id,
            version=layout_version,
            key=layout_key or key,
            holes={"content": mark_safe(html), "title": title_read if title is None else title},
        )
    patch_vary_headers(response, ["HX-Request"])
    return response


def _poll_unchanged(request: PublicHttpRequest, version: int | str) -> HttpResponse | None:
    """A live fragment's poll that already shows ``version``: the empty 204 htmx keeps the page on.
    Every view calls it once it has read all ``version`` is made from: what it noted so far is what
    a poll's 204 depends on (the kept responses answer the next polls from it, before Django)."""
    poll_note(token=str(version))
    if request.htmx and request.GET.get("v") == str(version):
        response = HttpResponse(status=204)
        patch_vary_headers(response, ["HX-Request"])
        return response
    return None


@require_safe
def draw(request: PublicHttpRequest, tournament_id: int, round_id: int | None = None) -> HttpResponse:
    """The draw of a published round (the current one by default): table, pairs, area, live state."""
    overview = _overview(request, tournament_id, live=False)
    frame = f"s{request.seating_version}"
    if round_id is None:
        round_ = overview.current_round
    else:
        round_ = overview.round(round_id)
        if round_ is None:
            raise Http404
    return _pages(overview).draw(request, overview=overview, round_=round_, frame=frame)


def _sides_draw(
    request: PublicHttpRequest, *, overview: TournamentOverview, round_: RoundInfo | None, frame: str
) -> HttpResponse:
    """The draw of a round of two sides: table, pairs, area, live state, in pages."""
    page = _int_param(request, "page", 1, 1, 10_000)
    if round_ is None:
        return _draw_page(request, overview=overview, round_=None, page=page, frame=frame, digest="", shown=None)
    # The round's last complete build, and of it the digest of the page asked: the page (and its
    # poll's 204) moves when a build changes one of its rows, not with every build, and its rows are
    # read only to render HTML not cached yet under that digest.
    pages = draw_pages_get(
        tournament_id=overview.id, round_id=round_.id, version=request.public_version, page_size=DRAW_PAGE_SIZE
    )
    show = partial(_draw_page, request, overview=overview, round_=round_, page=page, frame=frame)
    return _digest_page(pages, page, lambda digest, shown: show(digest=digest, shown=lambda: shown()[1]))


def _digest_page(
    pages: DigestPages[H, R], asked: int, show: Callable[[str, Callable[[], tuple[H, Page[R]]]], HttpResponse]
) -> HttpResponse:
    """Page ``asked`` of a list kept page by page under its rows' digests (a round's draw, a stage's team
    standings), shown by ``show`` keyed on its digest and given a reader of its head and rows (read only
    to render HTML not cached yet under that digest). If the build the digest was made of was evicted
    meanwhile, the page as the build loaded now shows it, under its own digest."""
    number = pages.number(asked)
    try:
        return show(pages.digests[number - 1], lambda: pages.read(number))
    except PageMoved:
        digest, head, page = pages.loaded(asked)
        return show(digest, lambda: (head, page))


def _draw_page(
    request: PublicHttpRequest,
    *,
    overview: TournamentOverview,
    round_: RoundInfo | None,
    page: int,
    frame: str,
    digest: str,
    shown: Callable[[], Page[DrawRow]] | None,
) -> HttpResponse:
    """A draw page keyed on the frame and on ``digest``, the digest of its rows (``shown``, read only
    to render it; :func:`tournament.standings.public.page_digest`)."""

    def context() -> dict[str, Any]:
        if round_ is None or shown is None:
            return {"round": None}
        return {"round": round_, "page": shown()}

    return _live_page(
        request,
        overview=overview,
        key=f"draw:{round_.id if round_ else 0}:{page}",
        fragment="public/_draw.html",
        context=context,
        title=_("Draw"),
        params={"page": page} if page > 1 else None,
        section="draw",
        version=f"{frame}.d{digest}" if round_ is not None else frame,
    )


def _sides_find(request: PublicHttpRequest, *, overview: TournamentOverview, query: str) -> str:
    """A table and a side for each player found in the current rounds."""
    response_cacheable()  # the seats at the seating version (player_find says when it read more)
    response_kept_locally()  # each worker answers from its own seat index: sharing costs more than it saves
    results = player_find(
        tournament_id=overview.id,
        rounds=overview.current_rounds,
        query=query,
        version=request.seating_version,
    )
    return find_results_html(overview=overview, query=query, seats=results)


def _seats_find(request: PublicHttpRequest, *, overview: TournamentOverview, query: str) -> str:
    """A table and a seat letter for each player found (Dou Dizhu)."""
    return doudizhu_public.find_html(overview=overview, query=query)


@require_safe
def find(request: PublicHttpRequest, tournament_id: int) -> HttpResponse:
    """Find my table: part of a name or a whole employee number → table and seat, at once."""
    overview = _overview(request, tournament_id, live=False)
    query = normalise_query(request.GET.get("q", ""))
    pages = _pages(overview)
    html = pages.find(request, overview=overview, query=query)
    context = {"overview": overview, "title": _("Find my table"), "section": "find"}
    version = f"s{request.seating_version}"
    if not request.htmx and not plain_visitor(request.COOKIES):
        response = page_render(
            request,
            "public/find.html",
            context,
            tournament_id=overview.id,
            version=version,
            key="find",
            holes={"query": query, "results_html": html},
        )
        patch_vary_headers(response, ["HX-Request"])
        return response
    layout = None
    if not request.htmx:
        layout = shell_get(
            "public/find.html", context, tournament_id=overview.id, version=version, key="find", holes=FIND_HOLES
        )
    response = HttpResponse(find_body(request, query=query, html=html, layout=layout))
    patch_vary_headers(response, ["HX-Request"])
    if pages.find_from_index:  # the worker may answer other names the same way (tournament.standings.find_answers)
        found = FindLayout(overview.id, overview, request.seating_version, get_language(), layout)
        find_layout_note(found=found)
    return response


@require_safe
def standings(request: PublicHttpRequest, tournament_id: int, stage_id: int | None = None) -> HttpResponse:
    """Live standings of a ranked stage with every tie-break column and the movement."""
    markers: dict[str, Any] = {standings_key(stage_id): UNREAD} if stage_id is not None else {}
    overview = _overview(request, tournament_id, live=False, markers=markers)
    frame = f"s{request.seating_version}"
    if stage_id is None:
        stages = overview.ranked_stages
        current = overview.current_round
        preferred = [stage for stage in stages if current and stage.id == current.stage_id]
        if not (preferred or stages):
            return _live_page(
                request,
                overview=overview,
                key="standings:none",
                fragment="public/_standings.html",
                context=lambda: {"table": None},
                title=_("Standings"),
                section="standings",
                version=frame,
            )
        return redirect("standings:stage_standings", tournament_id, (preferred or stages)[-1].id)
    stage = overview.stage(stage_id)
    if stage is None or stage.is_knockout:
        raise Http404
    marker = markers[standings_key(stage_id)]
    return _pages(overview).standings(request, overview=overview, stage=stage, marker=marker, frame=frame)


def _sides_standings(
    request: PublicHttpRequest, *, overview: TournamentOverview, stage: StageInfo, marker: object, frame: str
) -> HttpResponse:
    """A ranked stage of two sides: every tie-break column and the movement, in pages."""
    tournament_id, stage_id = overview.id, stage.id
    page = _int_param(request, "page", 1, 1, 10_000)
    # The stage's last complete build, and of it the digest of the page asked: the page (and its poll's
    # 204) moves when a build changes one of its lines, not with every build; its lines are read only to
    # render HTML not cached yet under that digest.
    build, table_get = standings_served_get(
        tournament_id=tournament_id,
        stage_id=stage_id,
        version=request.standings_version,
        marker=marker,
    )
    pages = standings_pages_get(
        tournament_id=tournament_id, stage_id=stage_id, build=build, load=table_get, page_size=STANDINGS_PAGE_SIZE
    )

    def show(digest: str, shown: Callable[[], tuple[StageTable | None, Page[StandingLine]]]) -> HttpResponse:
        def context() -> dict[str, Any]:
            table, lines = shown()
            return {"table": table, "stage": stage, "page": lines}

        return _live_page(
            request,
            overview=overview,
            key=f"standings:{stage_id}:{page}",
            fragment="public/_standings.html",
            context=context,
            title=_("Standings"),
            params={"page": page} if page > 1 else None,
            section="standings",
            version=f"{frame}.d{digest}",
        )

    return _digest_page(pages, page, show)


@require_safe
def team_standings(request: PublicHttpRequest, tournament_id: int, stage_id: int | None = None) -> HttpResponse:
    """A stage's team standings (集体比赛, docs/rules.md §11): each team's total, its counted members, the
    tie-breaks; live like the standings (the same builds' rhythm), on a phone and on the big screen
    (``?screen=1``: large type, no navigation)."""
    markers = team_standings_markers(stage_id) if stage_id is not None else {}
    overview = _overview(request, tournament_id, live=False, markers=markers)
    frame = f"s{request.seating_version}"
    if stage_id is None:
        stages = overview.team_stages
        if not stages:
            raise Http404
        current = overview.current_round
        preferred = [stage for stage in stages if current and stage.id == current.stage_id]
        return redirect("standings:stage_team_standings", tournament_id, (preferred or stages)[-1].id)
    stage = overview.stage(stage_id)
    if stage is None or not (stage.team_total or stage.team_match):
        raise Http404
    # The build the team standings come from (a team total: the pairs' standings build, one ranking for
    # both pages), in pages of a city's thousand teams, each keyed on what it shows: a build re-renders
    # only the pages whose teams' lines changed; loaded only to render a page not kept yet.
    pages = team_standings_pages_get(
        overview=overview,
        stage_id=stage_id,
        standings_version=request.standings_version,
        markers=markers,
        page_size=STANDINGS_PAGE_SIZE,
    )
    big = request.GET.get("screen") == "1"
    page = _int_param(request, "page", 1, 1, 10_000)
    params: dict[str, Any] = {"screen": 1} if big else {}
    if page > 1:
        params["page"] = page

    def show(digest: str, shown: Callable[[], tuple[TeamStandingsValue | None, Page[Any]]]) -> HttpResponse:
        def context() -> dict[str, Any]:
            total, lines = shown()
            return {"total": total, "stage": stage, "big": big, "page": lines, "page_query": "screen=1" if big else ""}

        return _live_page(
            request,
            overview=overview,
            key=f"teams:{stage_id}:{int(big)}:{page}",
            fragment="public/_team_standings.html",
            context=context,
            title=_("Team standings"),
            params=params or None,
            poll_seconds=SCREEN_POLL_SECONDS if big else POLL_SECONDS,
            section="teams",
            template="public/screen.html" if big else "public/page.html",
            version=f"{frame}.d{digest}",
        )

    return _digest_page(pages, page, show)


@require_safe
def bracket(request: PublicHttpRequest, tournament_id: int, stage_id: int | None = None) -> HttpResponse:
    """A knockout stage's bracket: the whole tree, byes, winners, live levels, third place."""
    overview = _overview(request, tournament_id, live=False)
    if stage_id is None:
        stages = overview.knockout_stages
        if not stages:
            return _live_page(
                request,
                overview=overview,
                key="bracket:none",
                fragment="public/_bracket.html",
                context=lambda: {"bracket": None},
                title=_("Bracket"),
                section="bracket",
            )
        return redirect("standings:stage_bracket", tournament_id, stages[-1].id)
    stage = overview.stage(stage_id)
    if stage is None or not stage.is_knockout:
        raise Http404
    return _live_page(
        request,
        overview=overview,
        key=f"bracket:{stage_id}",
        fragment="public/_bracket.html",
        context=lambda: {"bracket": bracket_cached(tournament_id=tournament_id, stage_id=stage_id), "stage": stage},
        title=_("Bracket"),
        stale_ok=True,
        section="bracket",
    )


@require_safe
def pair(request: PublicHttpRequest, tournament_id: int, pair_id: int) -> HttpResponse:
    """A pair's page: its players, its ranks, and every match with its deal-by-deal history."""
    key = own_key(tournament_id=tournament_id, kind="pair", pk=pair_id)
    owns = {key: 0}
    markers = _ranks_markers(tournament_id)
    made: set[str] = set()
    overview = _overview(request, tournament_id, live=False, owns=owns, markers=markers, made=made)
    request.own_version = owns[key]
    request.own_made = key in made
    request.standings_markers = markers
    return _pages(overview).pair(request, overview=overview, pair_id=pair_id)


@require_safe
def pair_ranks(request: PublicHttpRequest, tournament_id: int, pair_id: int) -> HttpResponse:
    """A pair's ranks alone, the part of its page that other pairs' results move (polled on its own)."""
    markers = _ranks_markers(tournament_id)
    overview = _overview(request, tournament_id, live=False, markers=markers)
    request.standings_markers = markers
    return _pages(overview).pair_ranks(request, overview=overview, pair_id=pair_id)


ranks_stages = LocalMemo(64)
"""By tournament, the stages whose standings a pair's ranks were last read from in this worker: the
markers of their builds are read with the versions, one round trip less (a guess: the frame, read
with those versions, says which stages they are; a stage not guessed is read apart)."""


def _ranks_markers(tournament_id: int) -> dict[str, Any]:
    return dict.fromkeys((standings_key(stage_id) for stage_id in ranks_stages.get(tournament_id, ())), UNREAD)


RANKS_HOLE = "<!--pair-ranks-->"
"""Where a pair's cached page takes its ranks (keyed on the standings builds, not on the pair)."""


def _sides_pair(request: PublicHttpRequest, *, overview: TournamentOverview, pair_id: int) -> HttpResponse:
    """A pair's page: its players and every match with its deal-by-deal history, keyed on the pair's
    own version and the common one (a deal at another table leaves it, and its poll's 204, as it is),
    with its ranks (keyed on what they show) filled in."""
    tournament_id = overview.id
    token = pair_token(common=request.common_version, own=request.own_version)
    # The poll of a page that shows this token: 204 from the versions alone, before any build.
    response_cacheable()
    public_version_depends(tournament_id=tournament_id, scope="seating")
    public_version_depends(tournament_id=tournament_id, scope="common")
    own_version_depends(key=own_key(tournament_id=tournament_id, kind="pair", pk=pair_id))
    unchanged = _poll_unchanged(request, token)
    if unchanged is not None:
        return unchanged
    _ranks_token, ranks_html, _builds = _pair_ranks_html(request, overview=overview, pair_id=pair_id)

    def context() -> dict[str, Any]:
        # Read only to render the page not cached yet under ``token`` (its HTML is what is kept).
        view = pair_history_get(tournament_id=tournament_id, pair_id=pair_id, frame=overview)
        if view is None:
            raise Http404
        return {"pair": view, "ranks_hole": mark_safe(RANKS_HOLE), "title": view.name}

    return _live_page(
        request,
        overview=overview,
        key=f"pair:{pair_id}",
        fragment="public/_pair.html",
        context=context,
        title=None,
        version=token,
        fill=lambda html: html.replace(RANKS_HOLE, ranks_html, 1),
        layout_key="pair",
        lock=False,  # built from the pair's own rows, asked by its own pair's phones
        fresh=request.own_made,  # its own version made by this request: nothing under it yet
    )


def _pair_ranks_html(
    request: PublicHttpRequest, *, overview: TournamentOverview, pair_id: int
) -> tuple[str, str, tuple[int, ...]]:
    """The pair's ranks fragment, its version and the build of each stage it shows: what the pair's
    line shows in the last complete standings build of each ranked stage with a published round
    (:func:`pair_ranks_version`), so a build that leaves the pair's rank and record as they were
    leaves the fragment's poll a 204."""
    tournament_id = overview.id
    public_version_depends(tournament_id=tournament_id, scope="seating")
    stages = ranks_stages_of(overview)
    ranks_stages.put(tournament_id, tuple(stage.id for stage in stages))
    markers = getattr(request, "standings_markers", {})
    served = [
        standings_served_get(
            tournament_id=tournament_id,
            stage_id=stage.id,
            version=request.standings_version,
            marker=markers.get(standings_key(stage.id), UNREAD),
        )
        for stage in stages
    ]
    # Each build's ranks index from this worker's memory (fetched once per build and worker, a few plain
    # values a line: the build itself is never unpickled for it); a line looked up in each, and a few
    # lines of HTML rendered, cost less than a round trip to a cached copy of them.
    indexes = [
        pair_ranks_index_cached(tournament_id=tournament_id, stage_id=stage.id, build=build, table=load)
        for stage, (build, load) in zip(stages, served, strict=True)
    ]
    shown = pair_ranks_shown(pair_id=pair_id, indexes=indexes)
    token, poll_url, html = ranks_fragment(
        shown, tournament_id=tournament_id, pair_id=pair_id, poll_seconds=POLL_SECONDS
    )
    poll_note(token=token, url=poll_url)  # the ranks are polled on their own, from the pair's page too
    return token, html, tuple(build for build, _load in served)


def _sides_pair_ranks(request: PublicHttpRequest, *, overview: TournamentOverview, pair_id: int) -> HttpResponse:
    """The ranks fragment's poll: 204 while the pair's line shows what it showed."""
    response_cacheable()
    token, html, builds = _pair_ranks_html(request, overview=overview, pair_id=pair_id)
    if request.htmx:  # the worker may answer other pairs' polls the same way (tournament.standings.ranks_answers)
        ranks_layout_note(
            found=RanksLayout(overview.id, overview, request.seating_version, get_language(), POLL_SECONDS, builds)
        )
    unchanged = _poll_unchanged(request, token)
    if unchanged is not None:
        return unchanged
    if not request.htmx:
        return redirect("standings:pair", overview.id, pair_id)
    response = HttpResponse(html)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_safe
def match(request: PublicHttpRequest, tournament_id: int, match_id: int) -> HttpResponse:
    """A match as it stands: live levels and every deal as the referee entered it."""
    key = own_key(tournament_id=tournament_id, kind="match", pk=match_id)
    owns = {key: 0}
    overview = _overview(request, tournament_id, live=False, owns=owns)
    request.own_version = owns[key]
    return _pages(overview).match(request, overview=overview, match_id=match_id)


def _sides_match(request: PublicHttpRequest, *, overview: TournamentOverview, match_id: int) -> HttpResponse:
    """A match of two sides: live levels and every deal as the referee entered it, keyed on the
    match's own version and the common one."""
    token = f"c{request.common_version}.m{request.own_version}"
    response_cacheable()
    public_version_depends(tournament_id=overview.id, scope="common")
    own_version_depends(key=own_key(tournament_id=overview.id, kind="match", pk=match_id))
    unchanged = _poll_unchanged(request, token)
    if unchanged is not None:
        return unchanged
    view = match_cached(tournament_id=overview.id, match_id=match_id, token=token)
    if view is None:
        raise Http404
    return _live_page(
        request,
        overview=overview,
        key=f"match:{match_id}",
        fragment="public/_match.html",
        context=lambda: {"match": view},
        title=_("Table %(table)s") % {"table": view.table} if view.table else _("Match"),
        version=token,
    )


@require_safe
def team_match(request: PublicHttpRequest, tournament_id: int, team_match_id: int) -> HttpResponse:
    """A team match (docs/rules.md §11): both its tables live and its result as it stands, keyed on
    the common version and its two tables' own versions (a deal at either table moves it, a deal
    anywhere else leaves its poll a 204)."""
    overview = _overview(request, tournament_id, live=False)
    tables = team_match_tables_cached(
        tournament_id=overview.id, team_match_id=team_match_id, seating_version=request.seating_version
    )
    if tables is None:
        raise Http404
    keys = team_match_keys(tournament_id=overview.id, tables=tables)
    owns = own_versions_get(tournament_id=overview.id, keys=keys)
    token = team_match_token(common=owns["common"], owns=owns, keys=keys)
    response_cacheable()
    public_version_depends(tournament_id=overview.id, scope="common")
    for key in keys:
        own_version_depends(key=key)
    unchanged = _poll_unchanged(request, token)
    if unchanged is not None:
        return unchanged
    view = team_match_page_cached(tournament_id=overview.id, team_match_id=team_match_id, token=token)
    if view is None:
        raise Http404
    return _live_page(
        request,
        overview=overview,
        key=f"team-match:{team_match_id}",
        fragment="public/_team_match.html",
        context=lambda: {"team_match": view},
        title=_("Team match %(number)s") % {"number": view.number},
        section="draw",
        version=token,
    )


def _chunks(items: tuple[T, ...], size: int, limit: int) -> list[tuple[T, ...]]:
    return [items[start : start + size] for start in range(0, min(len(items), size * limit), size)]


@require_safe
def screen(request: PublicHttpRequest, tournament_id: int) -> HttpResponse:
    """Big-screen mode for a projector: large type, advancing between the current round's tables,
    the standings and the brackets every ``interval`` seconds (``?interval=12&rows=10``)."""
    overview = _overview(request, tournament_id)
    interval = _int_param(request, "interval", SCREEN_INTERVAL, 1, 300)
    rows = _int_param(request, "rows", SCREEN_ROWS, 4, 40)

    def context() -> dict[str, Any]:
        return {
            "slides": _pages(overview).screen_slides(overview=overview, rows=rows),
            "interval": interval,
            "announcements": list(announcements_shown(tournament_id=overview.id)),
        }

    return _live_page(
        request,
        overview=overview,
        key=f"screen:{interval}:{rows}",
        fragment="public/_screen.html",
        context=context,
        title=_("Big screen"),
        params={"interval": interval, "rows": rows},
        poll_seconds=SCREEN_POLL_SECONDS,
        stale_ok=True,
        template="public/screen.html",
    )


def _sides_screen_slides(*, overview: TournamentOverview, rows: int) -> list[dict[str, Any]]:
    """The current round's tables, the standings and the brackets, a slide each page of them."""
    tournament_id = overview.id
    slides: list[dict[str, Any]] = []
    current = overview.current_round
    if current is not None:
        tables = draw_cached(tournament_id=tournament_id, round_id=current.id)
        pages = _chunks(tables, rows, SCREEN_MAX_SLIDES) or [()]
        for number, chunk in enumerate(pages, 1):
            slides.append({"kind": "round", "round": current, "rows": chunk, "part": number, "parts": len(pages)})
    stages = [stage for stage in overview.ranked_stages if overview.rounds_of(stage.id)]
    if current is not None and not any(stage.id == current.stage_id for stage in stages):
        stages = stages[-1:]
    else:
        stages = [stage for stage in stages if current is None or stage.id == current.stage_id]
    for stage in stages:
        table = standings_cached(tournament_id=tournament_id, stage_id=stage.id)
        if table is None:
            continue
        parts = _chunks(table.lines, rows, SCREEN_MAX_SLIDES)
        for number, lines in enumerate(parts, 1):
            slides.append({"kind": "standings", "table": table, "lines": lines, "part": number, "parts": len(parts)})
        slides += _team_slides(overview=overview, stage_id=stage.id, rows=rows)
    for stage in overview.knockout_stages:
        if overview.rounds_of(stage.id):
            slides.append(
                {"kind": "bracket", "bracket": bracket_cached(tournament_id=tournament_id, stage_id=stage.id)}
            )
    return slides


def _team_slides(*, overview: TournamentOverview, stage_id: int, rows: int) -> list[dict[str, Any]]:
    """The team standings of a stage that ranks teams (docs/rules.md §11), a slide each page of them."""
    stage = overview.stage(stage_id)
    if stage is None or not (stage.team_total or stage.team_match):
        return []
    total = team_standings_cached(overview=overview, stage_id=stage_id)
    if total is None or not total.lines:
        return []
    pages = _chunks(total.lines, rows, SCREEN_MAX_SLIDES)
    kind = "team_matches" if isinstance(total, TeamMatchTable) else "teams"
    return [
        {"kind": kind, "total": total, "lines": chunk, "part": number, "parts": len(pages)}
        for number, chunk in enumerate(pages, 1)
    ]


def _seats_screen_slides(*, overview: TournamentOverview, rows: int) -> list[dict[str, Any]]:
    """Tables of three and the players' points (Dou Dizhu), and the team standings where a stage ranks
    teams."""
    slides = doudizhu_public.screen_slides(overview=overview, rows=rows, max_slides=SCREEN_MAX_SLIDES)
    for stage in overview.team_stages:
        if overview.rounds_of(stage.id):
            slides += _team_slides(overview=overview, stage_id=stage.id, rows=rows)
    return slides


def overview_html(*, tournament_id: int) -> str:
    """The public part of the tournament home (current round, time left, links), cached; for
    ``tournament.standings.event_views.tournament_detail``. Empty for an unknown tournament."""
    build, overview = overview_build_get(tournament_id=tournament_id)
    if overview is None:
        return ""
    language = get_language() or ""
    return public_cached(
        tournament_id=tournament_id,
        key=f"html:{language}:overview",
        build=lambda: render_to_string("public/_overview.html", {"overview": overview}),
        version=f"o{build}",
    )


def _seats_draw(
    request: PublicHttpRequest, *, overview: TournamentOverview, round_: RoundInfo | None, frame: str
) -> HttpResponse:
    return doudizhu_public.draw_page(request, overview=overview, round_=round_, live_page=_live_page)


def _seats_standings(
    request: PublicHttpRequest, *, overview: TournamentOverview, stage: StageInfo, marker: object, frame: str
) -> HttpResponse:
    return doudizhu_public.standings_page(request, overview=overview, stage=stage, live_page=_live_page, marker=marker)


def _seats_player(request: PublicHttpRequest, *, overview: TournamentOverview, pair_id: int) -> HttpResponse:
    return doudizhu_public.player_page(request, overview=overview, pair_id=pair_id, live_page=_live_page)


def _seats_player_ranks(request: PublicHttpRequest, *, overview: TournamentOverview, pair_id: int) -> HttpResponse:
    """A player's page polls as a whole (its ranks are on it): no ranks fragment of its own."""
    raise Http404


def _seats_match(request: PublicHttpRequest, *, overview: TournamentOverview, match_id: int) -> HttpResponse:
    return doudizhu_public.match_page(request, overview=overview, match_id=match_id, live_page=_live_page)


@dataclass(frozen=True, slots=True)
class PublicPages:
    """The public pages of an event of one entrant kind: each page's body once the view has read the
    overview and its arguments."""

    draw: Callable[..., HttpResponse]
    find: Callable[..., str]
    find_from_index: bool
    """Whether ``find`` answers from the seat index alone, at the seating version (a player without
    a seat aside: ``tournament.standings.seating.player_find`` says so)."""
    standings: Callable[..., HttpResponse]
    pair: Callable[..., HttpResponse]
    pair_ranks: Callable[..., HttpResponse]
    match: Callable[..., HttpResponse]
    screen_slides: Callable[..., list[dict[str, Any]]]


PUBLIC_PAGES: dict[str, PublicPages] = {
    "pairs": PublicPages(
        draw=_sides_draw,
        find=_sides_find,
        find_from_index=True,
        standings=_sides_standings,
        pair=_sides_pair,
        pair_ranks=_sides_pair_ranks,
        match=_sides_match,
        screen_slides=_sides_screen_slides,
    ),
    "players": PublicPages(
        draw=_seats_draw,
        find=_seats_find,
        find_from_index=False,
        standings=_seats_standings,
        pair=_seats_player,
        pair_ranks=_seats_player_ranks,
        match=_seats_match,
        screen_slides=_seats_screen_slides,
    ),
}
"""The public pages of each entrant kind (``tournament.games.entrants``), by its key: two sides, or
tables of three (``doudizhu_public``)."""


def _pages(overview: TournamentOverview) -> PublicPages:
    return PUBLIC_PAGES[game_kind(overview.game).entrants.key]
