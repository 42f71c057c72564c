"""A pair's ranks poll answered by the worker before Django, when the answer is provably Django's.

Every open pair's page polls its ranks part (:func:`tournament.standings.views.pair_ranks`) every
few seconds. While the stage's standings build is the one the page was answered from, the kept
poll note answers it the empty 204 before Django (:mod:`tournament.standings.public_responses`);
but that note holds only while the build's marker does, so after every standings build (one every
few seconds while matches finish) every pair's next poll went through Django's middleware, URL
resolver and view — 1.9 to 3.4 ms of a worker on the 5,000-pair crowd event, most of it the
middleware and the kept-response layer, not the answer: the pair's line looked up in the worker's
ranks index of the build (:func:`tournament.standings.public_cache.pair_ranks_index_cached`), its
digest, and for a pair whose line moved a few lines of HTML.

So the first ranks poll Django answers for an event — in a language, at one address (scheme, host,
script name), htmx's fragment — leaves the worker its *shell*: the event's frame at the seating
version it was read at (which stages the ranks part shows), and the status and headers of each kind
of answer Django gave (the 204 of a line that did not move, the fragment of one that did). A later
poll of any pair of that event (``v=`` alone) is answered from it: the worker reads the versions and
the builds' markers (one round trip to the shared cache, as for any kept response), finds each
stage's build as Django would serve it, looks the pair's line up in the worker's ranks index of
that build and makes the part's version: the 204 if it is the poll's ``v``, else the fragment —
:func:`ranks_answer`.

Why the bytes are Django's, for a plain visitor's htmx poll (no session, no pending messages:
:func:`tournament.standings.shell.plain_visitor`):

- *The same inputs.* Django's answer is a function of the request's address, language and htmx-ness
  (the key the shell is kept under, with the event's id from the path: the headers are the same for
  every pair's address as long as no setting exempts some paths from the HTTPS redirect or the
  content security policy, and a shell is never kept while one does), of the pair's id and the
  poll's ``v``, of the seating version (the frame the stages are read from: the shell holds only
  while the version read afresh is the one it was made at), of the standings version and each
  shown stage's build marker and rebuild lock (which build Django serves), and of the worker's
  ranks index of each build (looked up, never built, here: without it Django answers and reads or
  derives it). Nothing else: a build missing (the first, which Django waits for), a rebuild due with
  nobody rebuilding (Django would take the lock and rebuild: :func:`tournament.standings.cache.coalesced_served`),
  a query with any parameter but ``v``, a request without ``HX-Request`` (Django redirects it to the
  pair's page), the cache down, a shed poll (answered before any of this): Django answers.
- *The same computation.* The view and this module call the same functions on those inputs: which
  stages (:func:`ranks_stages_of`), which build of each (:func:`builds_served`, the rule of
  :func:`tournament.standings.cache.coalesced_served` on the values read), the index under the
  build's token in the worker's memory (:data:`tournament.standings.public_cache.ranks_memo`),
  :func:`tournament.standings.public.pair_ranks_shown` and ``pair_ranks_version``, and
  :func:`ranks_fragment` under the same active language and script prefix, then the response's
  encoding. The headers the middleware adds depend on the request's address, language and
  htmx-ness and on the response's status, never on the pair: they are the first answer's of that
  status, with ``Content-Length`` the new body's length.
- *Checked once more when kept.* A shell takes an answer's status and headers only if this module
  gives, for the very request Django just answered and the builds Django served it from, Django's
  status and bytes and the length Django said; else it is not kept and Django answers.

A poll answered here leaves what Django's answer would have left in this worker: the poll note of
the pair's new version (its next poll is the 204 from the note), and the fragment kept for its
other phones' earlier versions. Neither is shared (a round trip more per poll, for another worker
that computes the same in a tenth of a millisecond).

With any number of workers: each worker answers from its own ranks index, as its Django would (the
index is the one its Django would use, filed under the build's token), and only from the values it
reads afresh from the shared cache on every poll; a build made by any worker moves the marker, and
the next poll of each worker is answered from that build (once its index is in the worker's
memory) or by Django. Nothing is shared between workers, so nothing one worker keeps can be served
by another.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import get_script_name
from django.urls import get_script_prefix, set_script_prefix
from django.utils import translation
from django.utils.http import urlencode

from tournament.standings.cache import PREFIX, Built, coalesced_keys, rebuild_due, rebuild_seconds, scope_key
from tournament.standings.public import RankShown, pair_ranks_shown, pair_ranks_version
from tournament.standings.public_cache import ranks_memo, standings_key
from tournament.standings.public_types import StageInfo, TournamentOverview
from tournament.standings.response_reads import Coalesced, Reads
from tournament.standings.templatetags.public_tags import pair_ranks_html, url_around

__all__ = [
    "RANKS_PATH",
    "Answer",
    "RanksLayout",
    "RanksShell",
    "builds_served",
    "depends",
    "paths_alike",
    "ranks_answer",
    "ranks_fragment",
    "ranks_index_key",
    "ranks_shell_kept",
    "ranks_stages_of",
    "shell_keys",
]

RANKS_PATH = re.compile(r"/t/([0-9]+)/pairs/([0-9]+)/ranks/\Z")
"""A pair's ranks part's address (``standings:pair_ranks``: its ``<int:…>`` are ``[0-9]+``)."""


def ranks_stages_of(overview: TournamentOverview) -> list[StageInfo]:
    """The stages a pair's ranks part shows: the ranked ones with a published round."""
    return [stage for stage in overview.ranked_stages if overview.rounds_of(stage.id)]


def ranks_index_key(*, tournament_id: int, stage_id: int, build: int) -> str:
    """Where :func:`tournament.standings.public_cache.pair_ranks_index_cached` files the stage's ranks
    index of ``build`` (its token), in the worker's memory as in the shared cache."""
    return f"{PREFIX}:{tournament_id}:b{build}:ranks-index:{stage_id}"


def ranks_fragment(
    shown: tuple[RankShown, ...], *, tournament_id: int, pair_id: int, poll_seconds: int
) -> tuple[str, str, str]:
    """The pair's ranks part showing ``shown``, polled every ``poll_seconds``: its version (the poll's
    ``v``), its poll's address and its HTML."""
    token = pair_ranks_version(shown)
    before, after = url_around("standings:pair_ranks", tournament_id)
    poll_url = f"{before}{pair_id}{after}?{urlencode({'v': token})}"
    html = pair_ranks_html(shown, tournament_id=tournament_id, poll_url=poll_url, poll_seconds=poll_seconds)
    return token, poll_url, html


@dataclass(frozen=True, slots=True)
class RanksLayout:
    """What a ranks poll Django answered was made from (noted by the view)."""

    tournament_id: int
    overview: TournamentOverview
    """The tournament's frame at ``seating_version``: which stages the part shows."""
    seating_version: int
    language: str
    poll_seconds: int
    builds: tuple[int, ...]
    """The build of each of the frame's ranked stages (:func:`ranks_stages_of`) Django served."""


def _versions(tournament_id: int) -> tuple[str, str]:
    """The shared keys of the tournament's seating and standings versions."""
    seating = scope_key(tournament_id=tournament_id, scope="seating")
    return seating, scope_key(tournament_id=tournament_id, scope="standings")


def _marker_keys(tournament_id: int, stage_id: int) -> tuple[str, str]:
    """The shared keys of a stage's standings build's marker and rebuild lock."""
    return coalesced_keys(tournament_id=tournament_id, key=standings_key(stage_id))


@dataclass(frozen=True, slots=True)
class Answer:
    """One kind of a ranks poll's answer as Django gave it: its status and headers."""

    status: str
    headers: tuple[tuple[str, str], ...]
    length_at: int
    """Where ``Content-Length`` stands in ``headers``."""


@dataclass(frozen=True, slots=True)
class RanksShell:
    """An event's ranks polls' answers as Django gave them, but for the pair's part: a worker answers
    every pair's poll with it while the seating version is ``found``'s."""

    found: RanksLayout
    unchanged: Answer | None
    """The 204's status and headers, once Django gave one (None: not yet)."""
    moved: Answer | None
    """The fragment's status and headers, once Django gave one (None: not yet)."""
    seating_key: str
    keys: tuple[str, ...]
    """The shared values a poll's answer is read from: the seating and standings versions, each
    stage's marker and rebuild lock."""


def shell_keys(found: RanksLayout) -> tuple[str, str, tuple[str, ...]]:
    """The seating version's key, the standings version's, and every key :attr:`RanksShell.keys` holds."""
    seating_key, standings_version_key = _versions(found.tournament_id)
    keys = [seating_key, standings_version_key]
    for stage in ranks_stages_of(found.overview):
        keys.extend(_marker_keys(found.tournament_id, stage.id))
    return seating_key, standings_version_key, tuple(keys)


def builds_served(
    found: RanksLayout, values: dict[str, Any], now: float
) -> tuple[tuple[int, ...], dict[str, Coalesced]] | None:
    """The build of each stage Django would serve given the shared ``values`` (read afresh), and the
    notes Django's answer would leave of them (:class:`tournament.standings.response_reads.Coalesced`);
    None when Django must answer: the seating version moved, the standings version or a build's marker
    missing, a rebuild due that nobody is making (Django would take the lock and rebuild)."""
    tournament_id = found.tournament_id
    seating_key, standings_version_key = _versions(tournament_id)
    if values.get(seating_key) != found.seating_version:
        return None
    standings = values.get(standings_version_key)
    if standings is None:
        return None
    version = int(standings)
    builds = []
    notes: dict[str, Coalesced] = {}
    for stage in ranks_stages_of(found.overview):
        marker_key, lock_key = _marker_keys(tournament_id, stage.id)
        marker = values.get(marker_key)
        if marker is None:
            return None
        built = Built(*marker)
        if rebuild_due(built, version, now) and values.get(lock_key) is None:
            return None
        builds.append(built.version)
        notes[marker_key] = Coalesced(
            marker_key, marker, standings_version_key, built.version, built.started + rebuild_seconds(), lock_key
        )
    return tuple(builds), notes


_ABSENT = object()


def ranks_answer(
    found: RanksLayout, builds: tuple[int, ...], environ: dict[str, Any], token: str
) -> tuple[str | None, bytes] | None:
    """Django's answer to the ranks poll of ``environ`` (its query already as the pages read it) from
    ``v=token``, given the builds it would serve (:func:`builds_served`): (None, b"") for its 204, else
    the pair's new version and the fragment's bytes; None when the worker cannot tell (the module's
    docstring): Django answers."""
    path = RANKS_PATH.match(environ.get("PATH_INFO", ""))
    if path is None or int(path.group(1)) != found.tournament_id:
        return None
    if environ.get("QUERY_STRING", "") != urlencode({"v": token}) or environ.get("HTTP_HX_REQUEST") != "true":
        return None
    indexes = []
    for stage, build in zip(ranks_stages_of(found.overview), builds, strict=True):
        where = ranks_index_key(tournament_id=found.tournament_id, stage_id=stage.id, build=build)
        index = ranks_memo.get(where, _ABSENT)
        if index is _ABSENT:
            return None  # not in this worker's memory: Django reads it (or derives it)
        indexes.append(index)
    pair_id = int(path.group(2))
    shown = pair_ranks_shown(pair_id=pair_id, indexes=indexes)
    if pair_ranks_version(shown) == token:
        return None, b""
    prefix = get_script_prefix()
    set_script_prefix(get_script_name(environ))  # as Django's handler sets it for the request
    try:
        with translation.override(found.language):
            new, _poll_url, html = ranks_fragment(
                shown, tournament_id=found.tournament_id, pair_id=pair_id, poll_seconds=found.poll_seconds
            )
    finally:
        set_script_prefix(prefix)
    return new, html.encode(settings.DEFAULT_CHARSET)


def paths_alike() -> bool:
    """Whether the middleware's headers are the same for every public page's address: no path is
    exempt from the HTTPS redirect nor from a content security policy."""
    if getattr(settings, "SECURE_REDIRECT_EXEMPT", None):
        return False
    for name in ("CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY"):
        if (getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES"):
            return False
    return True


def ranks_shell_kept(
    shell: RanksShell | None,
    found: RanksLayout,
    *,
    status: str,
    headers: list[tuple[str, str]],
    body: bytes,
    environ: dict[str, Any],
    token: str,
) -> RanksShell | None:
    """``shell`` (None: a new one for ``found``) with the status and headers of the ranks poll Django
    just answered with ``status``, ``headers`` and ``body`` to the request of ``environ`` from
    ``v=token``, if :func:`ranks_answer` gives that answer for that request from the builds Django
    served; else None (no shell is kept: Django answers the next poll, and may keep one then)."""
    if not paths_alike() or not status.startswith(("200 ", "204 ")):
        return None
    lengths = [at for at, (name, _value) in enumerate(headers) if name.lower() == "content-length"]
    if len(lengths) != 1 or headers[lengths[0]][1] != str(len(body)):
        return None
    if shell is not None and (shell.found.seating_version, shell.found.language) != (
        found.seating_version,
        found.language,
    ):
        shell = None
    answered = ranks_answer(found, found.builds, environ, token)
    if answered is None or answered[1] != body or (answered[0] is None) != status.startswith("204 "):
        return None
    answer = Answer(status, tuple(headers), lengths[0])
    if shell is None:
        seating_key, _standings_key, keys = shell_keys(found)
        shell = RanksShell(found, None, None, seating_key, keys)
    if answered[0] is None:
        return RanksShell(found, answer, shell.moved, shell.seating_key, shell.keys)
    return RanksShell(found, shell.unchanged, answer, shell.seating_key, shell.keys)


def depends(shell: RanksShell, notes: dict[str, Coalesced]) -> Reads:
    """What Django's answer of a ranks poll would note it depends on: the seating version and each
    stage's build (:func:`tournament.standings.response_reads.poll_note`)."""
    reads = Reads()
    reads.exact = {shell.seating_key: shell.found.seating_version}
    reads.coalesced = notes
    return reads
