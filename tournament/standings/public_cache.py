"""The public read models behind the tournament's versioned cache (:mod:`tournament.standings.cache`);
views and the API call these.

Each is keyed on the scope whose events can change it: the standings are a coalesced build of the
*standings* version (moved only by what a ranking counts, rebuilt at most every few seconds, never
in front of a waiting request); the frame (stages and rounds) on the *seating* version; what shows
live levels or the running tables on the *public* version, moved by every deal — the draw and the
overview (with its progress) as coalesced builds like the standings, a match, a pair and the
bracket (one key each, small) as plain cached values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tournament.standings.cache import (
    UNREAD,
    coalesced_get,
    coalesced_served,
    public_cached,
    public_version_depends,
    public_version_get,
)
from tournament.standings.public import (
    bracket_get,
    draw_list,
    match_history_get,
    pair_history_get,
    standings_get,
    tournament_overview_get,
)
from tournament.standings.public_types import (
    Bracket,
    DrawRow,
    MatchPage,
    PairView,
    StageTable,
    TournamentOverview,
)

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
    return coalesced_get(
        tournament_id=tournament_id,
        key=standings_key(stage_id),
        build=lambda: standings_get(tournament_id=tournament_id, stage_id=stage_id),
        version=version,
        marker=marker,
    )


def standings_served_get(
    *, tournament_id: int, stage_id: int, version: int, marker: Any = UNREAD
) -> tuple[int, Callable[[], StageTable | None]]:
    """A stage's standings as :func:`standings_build_get` gives them, but the value as a loader:
    when no rebuild is due, nothing is fetched until the loader is called — a page whose HTML is
    cached under the token never needs it (:func:`tournament.standings.cache.coalesced_served`)."""
    served = coalesced_served(
        tournament_id=tournament_id,
        key=standings_key(stage_id),
        build=lambda: standings_get(tournament_id=tournament_id, stage_id=stage_id),
        version=version,
        marker=marker,
    )
    if served is not None:
        return served
    token, table = standings_build_get(tournament_id=tournament_id, stage_id=stage_id, version=version, marker=marker)
    return token, lambda: table


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


def pair_cached(*, tournament_id: int, pair_id: int) -> PairView | None:
    return public_cached(
        tournament_id=tournament_id,
        key=f"pair:{pair_id}",
        build=lambda: pair_history_get(
            tournament_id=tournament_id,
            pair_id=pair_id,
            standings_of=lambda stage_id: standings_cached(tournament_id=tournament_id, stage_id=stage_id),
        ),
        stale_ok=True,
    )


def match_cached(*, tournament_id: int, match_id: int) -> MatchPage | None:
    return public_cached(
        tournament_id=tournament_id,
        key=f"match:{match_id}",
        build=lambda: match_history_get(tournament_id=tournament_id, match_id=match_id),
        stale_ok=True,
    )
