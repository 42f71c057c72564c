"""A stage's public team standings (docs/rules.md §11) as the pages, the big screen and the API read them.

A **team total** is derived from the stage's standings build — the coalesced build the pairs' standings
page serves (:mod:`tournament.standings.cache`): one ranking, rebuilt by one request at a time across
all workers, at most every few seconds, once something counted has changed. The build carries its
ranking as the team total reads it (:class:`tournament.standings.teams.StageTeamRead`); the team total
of a build is made from that and the event's teams once for all workers, by the request that builds
the standings, and kept under the build's token (:func:`tournament.standings.public_cache.team_total_cached`).
So the team standings are exactly as fresh as the pairs' and rank nothing of their own.

A **team match** stage's standings are its team matches', not a ranking of pairs: a coalesced build of
their own (:func:`tournament.standings.public_cache.team_match_table_served_get`), on the same rhythm.

The pages (a city's thousand teams, a hundred a page) are kept as a round's draw is, each under the digest
of what it shows (:func:`team_standings_pages_get`): a new build re-renders only the pages whose teams'
lines changed, and every other page's poll still answers 204.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, cast

from tournament.games import game_kind
from tournament.standings import doudizhu_public
from tournament.standings.cache import UNREAD, public_versions_get
from tournament.standings.public_cache import (
    DigestPages,
    digest_pages_get,
    standings_key,
    standings_served_get,
    team_match_table_served_get,
    team_matches_key,
    team_total_cached,
)
from tournament.standings.public_types import TournamentOverview
from tournament.standings.team_ranking import TeamMatchTable
from tournament.standings.teams import StageTeamTotal

TeamStandingsValue = StageTeamTotal | TeamMatchTable
"""A stage's public team standings: its team total, or its team matches' standings (``team_match``)."""

STANDINGS_SERVED: dict[str, Callable[..., tuple[int, Callable[[], Any]]]] = {
    "pairs": standings_served_get,
    "players": doudizhu_public.standings_served_get,
}
"""The standings build of a stage (its token and a loader of its value), by the event's entrant kind:
the build a team total is derived from is the one the pairs' (the players') standings page serves."""


def team_standings_markers(stage_id: int) -> dict[str, Any]:
    """The markers of the builds a stage's team standings may be served from, to read with the versions
    (``cache.public_versions_get``): the standings build's (a team total) and the team matches' own."""
    return {standings_key(stage_id): UNREAD, team_matches_key(stage_id): UNREAD}


def team_standings_served_get(
    *,
    overview: TournamentOverview,
    stage_id: int,
    standings_version: int,
    markers: dict[str, Any] | None = None,
) -> tuple[int, Callable[[], TeamStandingsValue | None]]:
    """The token of the build a stage's team standings are served from, and a loader of them (called
    only to render a page not kept under the token). ``markers``: as :func:`team_standings_markers`
    gave them, read with the versions."""
    markers = markers or {}
    stage = overview.stage(stage_id)
    if stage is not None and stage.team_match:
        return team_match_table_served_get(
            tournament_id=overview.id,
            stage_id=stage_id,
            version=standings_version,
            marker=markers.get(team_matches_key(stage_id), UNREAD),
        )
    served = STANDINGS_SERVED[game_kind(overview.game).entrants.key]
    build, table = served(
        tournament_id=overview.id,
        stage_id=stage_id,
        version=standings_version,
        marker=markers.get(standings_key(stage_id), UNREAD),
    )

    def total() -> StageTeamTotal | None:
        return team_total_cached(tournament_id=overview.id, stage_id=stage_id, build=build, table=table)

    return build, total


def team_standings_cached(*, overview: TournamentOverview, stage_id: int) -> TeamStandingsValue | None:
    """A stage's team standings as last completely built (the big screen's slides, the API)."""
    markers = team_standings_markers(stage_id)
    versions = public_versions_get(tournament_id=overview.id, markers=markers)
    return team_standings_served_get(
        overview=overview,
        stage_id=stage_id,
        standings_version=versions.standings,
        markers=markers,
    )[1]()


def team_standings_pages_get(
    *,
    overview: TournamentOverview,
    stage_id: int,
    standings_version: int,
    markers: dict[str, Any] | None,
    page_size: int,
) -> DigestPages[TeamStandingsValue | None, Any]:
    """A stage's team standings (:func:`team_standings_served_get`) in pages of ``page_size`` teams, each
    kept under the digest of its lines and of what every page shows beside them (the head: the team
    total's count rule and unranked teams, a team match stage's results), as the draw's pages are
    (:func:`tournament.standings.public_cache.digest_pages_get`): the standings are loaded once per
    build, to make the digests, and for a page whose lines were not kept."""
    build, value = team_standings_served_get(
        overview=overview, stage_id=stage_id, standings_version=standings_version, markers=markers
    )

    def load() -> tuple[TeamStandingsValue | None, Sequence[Any]]:
        standings = value()
        if standings is None:
            return None, ()
        # a team total and a team match stage's standings both keep their lines in ``lines``
        head: TeamStandingsValue = replace(cast("Any", standings), lines=())
        return head, standings.lines

    return digest_pages_get(
        tournament_id=overview.id, kind="team-standings", pk=stage_id, token=build, load=load, page_size=page_size
    )
