"""Find my table answered by the worker before Django, when the answer is provably Django's.

The minute a draw is published, thousands of players each ask for a name nobody asked before, so
kept responses (:mod:`tournament.standings.public_responses`) never hold one: every find went
through Django's middleware, URL resolver, view and the layout's fill-in, about a millisecond and
a half of a worker, for an answer whose own part — the seats the worker's index finds
(:mod:`tournament.standings.seating`), rendered as a few lines of HTML
(:mod:`tournament.standings.seat_cards`) — costs a tenth of that.

So the first find Django builds for a page — an event, a language, the whole page or htmx's
fragment, at one address (scheme, host) — leaves the worker its *layout*: the status, the headers,
and the page's layout with a marker in each of the find's holes (the query, the answers, the
language switch's return address: :func:`tournament.standings.shell.shell_get`), or nothing around
the fragment. For a new name the worker reads the tournament's seating version (one round trip to
the shared cache, as for any kept response), finds the seats in its index and fills the layout:
:func:`find_answer`.

Why the bytes are Django's, for a plain visitor's GET (no session, no pending messages:
:func:`tournament.standings.shell.plain_visitor`):

- *The same inputs.* Django's answer to a find is a function of the request's address, language and
  htmx-ness (the key of :func:`tournament.standings.public_responses.request_key`, which the layout
  is kept under), of the seating version (the frame, the layout and the index are each keyed on
  it, and a layout holds only while the version read afresh is the one it was built at: its
  ``Reads``), of the worker's seat index for that version and the frame's current rounds (looked
  up, never built, here: without it Django answers and builds it), and of the query. Nothing else:
  a player without a seat (the pair's registration status is read from the database as it is
  now) makes Django answer, as do a query with any parameter but ``q``, a ``q`` longer than a
  query is (:data:`tournament.standings.public_types.QUERY_MAX`) or with a character that is no
  printable one (a control character, a byte that was no UTF-8, an unusual space: nobody types
  them), the cache down, a shed poll (answered before any of this).
- *The same computation.* The view and this module call the same functions on those inputs:
  Django's own request object made from the same WSGI environment (its ``GET`` and its full path),
  :func:`tournament.standings.public.normalise_query`, the index's ``find``,
  :func:`tournament.standings.seat_cards.find_results_html` under the same active language, and
  :func:`find_body` (the layout's fill-in: :func:`tournament.standings.shell.shell_fill`), then the
  response's encoding. The headers the middleware adds (the content security policy, the security
  headers, ``Content-Language``, ``Vary``, ``X-Frame-Options`` …) depend on the request's address,
  language and htmx-ness and on the response's type, never on the query: they are the first
  answer's, with ``Content-Length`` the new body's length.
- *Checked once more when kept.* A layout is kept only if filling it for the very request Django
  just answered gives Django's bytes and the length Django said; else it is not kept and Django
  answers every find of that page.

With any number of workers: each worker answers from its own index, as its Django would (the
index is the one its Django would use, filed under the same version and rounds), and only while
the seating version it reads afresh from the shared cache on every request is the one the layout
and index were built at; a draw published, a table moved or a player renamed moves that version,
and the next find of each worker reaches Django and leaves a new layout. Nothing is shared between
workers, so nothing one worker keeps can be served by another.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpRequest
from django.utils import translation

from tournament.standings.public import normalise_query
from tournament.standings.public_types import QUERY_MAX, TournamentOverview
from tournament.standings.response_reads import Reads
from tournament.standings.seat_cards import find_results_html
from tournament.standings.seating import NotSeated, seat_index_held
from tournament.standings.shell import shell_fill

__all__ = ["FIND_HOLES", "FindLayout", "FindShell", "find_answer", "find_body", "find_shell_kept"]

FIND_HOLES = ("query", "results_html")
"""The find page's holes besides the language switch's return address."""


@dataclass(frozen=True, slots=True)
class FindLayout:
    """What a find Django answered from the seat index was filled into (noted by the view)."""

    tournament_id: int
    overview: TournamentOverview
    """The tournament's frame at ``seating_version`` (its current rounds are the index's)."""
    seating_version: int
    language: str
    layout: str | None
    """The page's layout with its holes' markers (:func:`tournament.standings.shell.shell_get`);
    None for htmx's fragment, which is the answers alone."""


@dataclass(frozen=True, slots=True)
class FindShell:
    """A find's response as Django gave it, but for the answers: a worker answers other names with it."""

    found: FindLayout
    status: str
    headers: tuple[tuple[str, str], ...]
    length_at: int
    """Where ``Content-Length`` stands in ``headers``."""
    reads: Reads
    """What Django's answer was built from (the seating version): the layout holds while they do."""
    keys: tuple[str, ...]


def find_body(request: HttpRequest, *, query: str, html: str, layout: str | None) -> str:
    """A find's response: ``html`` (the answers to ``query``) alone for htmx, else filled into ``layout``."""
    if layout is None:
        return html
    return shell_fill(layout, request, {"query": query, "results_html": html})


def _query_plain(query_string: str, raw: str) -> bool:
    """Whether the query is one a find reads whole and a player types: ``q`` alone (or nothing), its
    value no longer than a query and of printable characters only."""
    if query_string and not (query_string.startswith("q=") and "&" not in query_string):
        return False
    return len(raw) <= QUERY_MAX and raw.isprintable() and "\ufffd" not in raw


def find_answer(found: FindLayout, environ: dict[str, Any]) -> bytes | None:
    """The body Django would answer this find with, from ``found`` and the worker's seat index;
    None when the worker cannot tell (the module's docstring): Django answers.

    ``environ``: the request's, its query already as the pages read it; it is left as it was.
    """
    request = WSGIRequest(dict(environ))  # Django's request object alters the environment it is given
    query_string = environ.get("QUERY_STRING", "")
    raw = request.GET.get("q", "")
    if not _query_plain(query_string, raw):
        return None
    query = normalise_query(raw)
    seats: tuple[Any, ...] = ()
    if query:  # the view asks no index for an empty query (tournament.standings.seating.player_find)
        overview = found.overview
        index = seat_index_held(
            tournament_id=found.tournament_id, rounds=overview.current_rounds, version=found.seating_version
        )
        if index is None:
            return None
        seats = index.find(query)
        if any(isinstance(seat, NotSeated) for seat in seats):
            return None  # where a player without a seat stands is read from the database
    with translation.override(found.language):
        html = find_results_html(overview=found.overview, query=query, seats=seats)
        return find_body(request, query=query, html=html, layout=found.layout).encode(settings.DEFAULT_CHARSET)


def find_shell_kept(
    found: FindLayout,
    *,
    status: str,
    headers: list[tuple[str, str]],
    body: bytes,
    reads: Reads,
    environ: dict[str, Any],
) -> FindShell | None:
    """The shell of the find Django just answered with ``status``, ``headers`` and ``body`` to the
    request of ``environ`` (as it was before Django read it), if filling it for that request gives
    those bytes and the length Django said; else None (the layout is not kept)."""
    lengths = [at for at, (name, _value) in enumerate(headers) if name.lower() == "content-length"]
    if len(lengths) != 1 or headers[lengths[0]][1] != str(len(body)):
        return None
    if find_answer(found, environ) != body:
        return None
    return FindShell(found, status, tuple(headers), lengths[0], reads, tuple(reads.keys()))
