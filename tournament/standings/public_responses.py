"""Whole public responses, kept by each worker and served before Django while what they were
built from is unchanged.

A public page for an anonymous visitor is already a function of a few shared values — the
tournament's cache versions and the markers of the coalesced builds it shows
(:mod:`tournament.standings.cache`) — and of the request's address, language and htmx-ness (the
layout has no per-visitor part: :mod:`tournament.standings.shell`). Yet each request went through
Django's middleware, the URL resolver, the view and the layout's fill-in, about a millisecond of a
worker for a page whose bytes had not changed. Under a round of results the public pool spends
its cores there.

So :class:`PublicResponses` (the WSGI application, around Django's) keeps in each worker the last
responses of the public pages, each with what it was built from, and serves one again after a
single round trip to the shared cache that reads those values and finds them unchanged. Anything
else goes to Django, which builds the page as before and, while it does, notes what the page
reads (``Reads``, in a context variable the cache functions write to):

- *exact* values: a version the page's values are keyed on (the seating version of every page's
  layout and of find my table; the public version of the pages built per deal);
- *coalesced builds* (the standings, the draw, the overview): the build's marker, and — because a
  build behind its version is rebuilt by the first request after ``PUBLIC_REBUILD_SECONDS`` — the
  scope's version and the rebuild's lock too: the page holds while the marker is the same and
  either that time has not come, or the version has not moved past the build, or another request
  is rebuilding it (Django would serve the same build then). So the first request after it goes
  to Django and rebuilds, and a finished match shows as soon as it did without the fast path.

Each response built is also shared through the cache (under a hash of the request's key, for
``SHARED_TIMEOUT``): a worker that has no copy of its own, or whose copy no longer holds, takes
the shared one if that holds (one more round trip), so a page is built by one worker, not by each.
What a request shares (the response, the poll notes below, and what Django built for the shared
cache without a lock and left to be written with them: a pair's page, which nobody waits for) is
written in one round trip, with the client's count below for a response nobody kept before (on Redis
one script counts and writes). Find my table is the
exception (``response_kept_locally``): each worker answers it from its own seat index faster than
the shared cache's round trips would, and a name is seldom asked twice, so its answers are kept by
the worker alone, never written to the shared cache nor looked for there. A name the worker was
not asked before is answered from its seat index too, filled into the layout of the page's first
answer Django gave, without Django, while that is provably Django's answer
(:mod:`tournament.standings.find_answers`). So is a pair's ranks poll after a standings build (whose
note below no longer holds then): from the status and headers of the event's first ranks polls
Django answered and the worker's ranks index of the build, while that is provably Django's answer
(:mod:`tournament.standings.ranks_answers`).

What a client can add is bounded. The key holds the query as the pages read it
(:data:`PAGE_PARAMETERS`, each once, in a fixed order — and Django is handed that query, not the
one sent), so ``?utm=1``, ``?utm=2`` … are one response, not one each (300 of them were 14 MB of
Redis). And a client (:func:`tournament.proxies.client_ip`) adds at most
``PUBLIC_RESPONSE_NEW_PER_CLIENT`` new shared responses per ``SHARED_TIMEOUT`` (a search or a page
number of its own each time); past that its pages are built and served, not kept. Rebuilding a
response already shared (a new version of a page people read) costs no client anything.

A response is kept only if its view said it may be (``response_cacheable``: the public pages'
fragments and find my table) and nothing while building it made it depend on more than those
values (``response_uncacheable``: a value one build old served while another builds, a read the
versions do not cover, the cache down), with status 200 or 204 and no cookie set (both in
:mod:`tournament.standings.response_reads`). Signed-in visitors, pending messages, other methods
and other addresses never touch it. A worker's memory is bounded (``PUBLIC_RESPONSE_CACHE_MB``, 0
turns this off), least recently used out first.

Why it is safe with any number of workers and machines: nothing is kept that another worker
could change — a kept response is served only when the shared values it was built from are still
what they were, read afresh on every request, so a worker never serves a version older than the
last complete build any worker made (the guarantee of the cache's module). If the shared cache is
down nothing is served from here: Django builds every page afresh.

A live page's poll (``HX-Request`` with ``v=<token>``: every open phone, every few seconds) is
answered the empty 204 here when the page is still at that token, even the first time anybody asks
that poll: whenever Django builds a live page it notes the token the page shows and what the
token was made from (the versions and builds read before the view compared ``v``:
:func:`tournament.standings.response_reads.poll_note`), and the worker keeps that note under the
page (its address and parameters, without ``v``) and shares it through the cache. A poll whose
``v`` is the noted token, with those values unchanged, is the 204 Django would give: one round trip
(two the first time a worker sees the page), no Django. These notes are one per page (a pair's, a
draw page, a standings page), rewritten as the page moves, so no client bound is needed: a client
cannot make more of them than the event has pages. A poll from an earlier token, once the page
has moved, is answered the page's live part as it stands: the same bytes whatever earlier token
the phone had, so that answer is kept once for the page (its key without ``v``), not once per
token — the phones of a page that moved, whichever build they last saw, cost Django one build.

The site's static files (the stylesheet, htmx, the scripts: a new phone's first requests) are kept
too, by each worker alone (:meth:`PublicResponses._static`): a file's answer as Django gave it
(whitenoise's, with the security headers of Django's middleware) is served again from memory, no
middleware, no cache round trip. Files never change while a worker runs (``collectstatic`` then a
restart; not kept when whitenoise refreshes them, in development), and only a plain ``GET`` that
was answered 200 is kept: a conditional or partial request, or a path that is no file, reaches
Django each time.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, TypeVar, cast
from urllib.parse import parse_qsl, urlencode, urlparse, urlsplit

from django.conf import settings
from django.core.cache import cache
from django.http.cookie import parse_cookie
from django_redis.client import DefaultClient, ShardClient

from tournament.cache_client import HeldConnectionClient
from tournament.locale import language_chosen
from tournament.overload import poll_shed
from tournament.parsing import int_or_none
from tournament.proxies import client_ip
from tournament.standings.cache import PREFIX
from tournament.standings.find_answers import FindShell, find_answer, find_shell_kept
from tournament.standings.public_types import PickledByFields
from tournament.standings.ranks_answers import (
    RANKS_PATH,
    RanksShell,
    builds_served,
    depends,
    ranks_answer,
    ranks_shell_kept,
)
from tournament.standings.response_reads import Reads, current_reads
from tournament.standings.shell import plain_visitor

__all__ = ["PublicResponses", "request_key"]

logger = logging.getLogger(__name__)

T = TypeVar("T")

PUBLIC_PREFIX = "/t/"
"""The public pages live under ``/t/<id>/``; nothing else is looked up here."""
_PUBLIC_PAGE = re.compile(r"/t/\d+/(?!manage/)")
"""A public page's path: an event's pages but its organisers' (``/t/<id>/manage/…``)."""
PAGE_PARAMETERS = ("interval", "page", "q", "rows", "screen", "v")
"""Every query parameter a public page reads (the views of ``tournament.standings``): a response is
keyed on these alone, and Django is given these alone, so ``?utm=…`` is the same page, never a
new response to keep."""
PAGE_PARAMETER_MAX = 200
"""A longer value is no parameter of a public page (find my table cuts its query far shorter)."""
KEPT_STATUSES = ("200 ", "204 ")
SHED_HEADERS = [("Content-Length", "0"), ("Cache-Control", "no-store")]
"""A shed poll's answer (with its ``Retry-After``): empty, and kept by no cache on the way."""
SHARED_TIMEOUT = 10 * 60
"""A response shared in the cache is worth something only while it holds, minutes at most during a round."""
STATIC_KEPT_BYTES = 8 * 2**20
"""A worker's kept static files, at most (the public pages' few files take some 200 KB)."""
STATIC_FILE_MAX = 2**20
"""A larger static file (the API documentation's bundle) is served by Django each time."""
STATIC_CONDITIONS = ("HTTP_RANGE", "HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_MATCH")
"""Request headers whitenoise answers differently (a part, a 304): such a request reaches Django."""


@dataclass(frozen=True, slots=True)
class Kept(PickledByFields):  # shared through the cache: pickled as a call with its fields
    status: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    reads: Reads
    keys: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PollAnswer(PickledByFields):
    """A live page's token and what it depends on: a poll with ``v=<token>`` is answered the empty
    204 (with ``headers``) while ``reads`` hold."""

    token: str
    reads: Reads
    keys: tuple[str, ...]
    headers: tuple[tuple[str, str], ...]


class _Recent(Generic[T]):
    """A worker's values by key, at most ``max_entries``, the least recently used dropped first."""

    def __init__(self, max_entries: int) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[tuple[Any, ...], T] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> T | None:
        try:
            self._entries.move_to_end(key)
            return self._entries[key]
        except KeyError:
            return None

    def put(self, key: tuple[Any, ...], value: T) -> None:
        self._entries[key] = value
        while len(self._entries) > self.max_entries:
            try:
                self._entries.popitem(last=False)
            except KeyError:  # another thread emptied it meanwhile
                break

    def discard(self, key: tuple[Any, ...]) -> None:
        self._entries.pop(key, None)


class _KeptResponses:
    """A worker's kept responses, at most ``max_bytes`` of bodies, the least recently used dropped first."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._entries: OrderedDict[tuple[Any, ...], Kept] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> Kept | None:
        try:
            self._entries.move_to_end(key)
            return self._entries[key]
        except KeyError:
            return None

    def put(self, key: tuple[Any, ...], kept: Kept) -> None:
        if len(kept.body) > self.max_bytes:
            return
        self.discard(key)
        self._entries[key] = kept
        self.bytes += len(kept.body)
        while self.bytes > self.max_bytes:
            try:
                _key, dropped = self._entries.popitem(last=False)
            except KeyError:  # another thread emptied it meanwhile
                break
            self.bytes -= len(dropped.body)

    def discard(self, key: tuple[Any, ...]) -> None:
        dropped = self._entries.pop(key, None)
        if dropped is not None:
            self.bytes -= len(dropped.body)


QUERY_REMEMBERED = 256
"""A query string up to this long is parsed once per worker (:func:`query_read`, :func:`poll_page`):
every phone of a page polls with the same one."""


def query_read(query_string: str) -> str | None:
    """The query string as a public page reads it: :data:`PAGE_PARAMETERS` only, each once (its last
    value, as ``QueryDict.get`` reads it), in a fixed order; None if a value is too long to be one."""
    if len(query_string) <= QUERY_REMEMBERED:
        return _query_read_remembered(query_string)
    return _query_read(query_string)


@lru_cache(maxsize=4096)
def _query_read_remembered(query_string: str) -> str | None:
    return _query_read(query_string)


def _query_read(query_string: str) -> str | None:
    values: dict[str, str] = {}
    for name, value in parse_qsl(query_string, keep_blank_values=True, errors="replace"):
        if name in PAGE_PARAMETERS:
            if len(value) > PAGE_PARAMETER_MAX:
                return None
            values[name] = value
    return urlencode(sorted(values.items()))


def request_key(environ: dict[str, Any]) -> tuple[Any, ...] | None:
    """What a public page's response is a function of, besides the shared values; None if the
    request is not one whose response may be kept (not a GET of a public page by a plain visitor).
    The query counts as the page reads it (:func:`query_read`), not as sent."""
    path = environ.get("PATH_INFO", "")
    if environ.get("REQUEST_METHOD") != "GET" or not _PUBLIC_PAGE.match(path):
        return None
    query = query_read(environ.get("QUERY_STRING", ""))
    if query is None:
        return None
    cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
    if not plain_visitor(cookies):
        return None
    return (
        environ.get("HTTP_HOST") or environ.get("SERVER_NAME"),  # a host Django refuses is never kept
        environ.get("wsgi.url_scheme"),
        environ.get("HTTP_X_FORWARDED_PROTO"),  # the HTTPS redirect may read it
        environ.get("SCRIPT_NAME", ""),
        path,
        query,
        language_chosen(cookies.get(settings.LANGUAGE_COOKIE_NAME)),
        environ.get("HTTP_HX_REQUEST") == "true",
    )


def _shared_key(key: tuple[Any, ...]) -> str:
    """Where the workers share a kept response (the request's key, hashed to a short one)."""
    return f"{PREFIX}:response:{hashlib.blake2b(repr(key).encode(), digest_size=16).hexdigest()}"


KEY_QUERY = 5
"""Where the query, as read, stands in :func:`request_key`'s tuple."""
KEY_HTMX = 7
"""Where the request's htmx-ness stands in :func:`request_key`'s tuple."""
POLL_ANSWERS = 20_000
"""Pages whose poll answer a worker keeps (a 5,000-pair event's pairs' pages and ranks, its draw and
standings pages)."""
NO_CONTENT = "204 No Content"
FIND_SHELLS = 1000
"""Find pages (an event's, in a language, whole or htmx's fragment, at an address) whose layout a
worker keeps to answer new names without Django (:mod:`tournament.standings.find_answers`)."""
RANKS_SHELLS = 1000
"""Events (in a language, at an address) whose ranks polls' answers a worker keeps to answer every
pair's poll without Django (:mod:`tournament.standings.ranks_answers`)."""
LOCAL_PATHS = 1000
"""Addresses whose responses a worker notes as kept by each worker alone (find my table's, one per event)."""


def poll_page(key: tuple[Any, ...]) -> tuple[tuple[Any, ...], str | None]:
    """The page a request asks (its key without ``v`` and without its htmx-ness: the page and its
    poll are one page) and the ``v`` it asks from (None: no poll)."""
    query, token = (
        _unpolled_query(key[KEY_QUERY]) if len(key[KEY_QUERY]) <= QUERY_REMEMBERED else _poll_query(key[KEY_QUERY])
    )
    return (*key[:KEY_QUERY], query, *key[KEY_QUERY + 1 : KEY_HTMX]), token


def _poll_query(query: str) -> tuple[str, str | None]:
    """A query as read (:func:`query_read`) without its ``v``, and its ``v`` (None: no poll)."""
    if "v=" not in query:  # no v (a value's "=" is quoted, and no other parameter's name ends in v)
        return query, None
    values = parse_qsl(query, keep_blank_values=True)
    token = next((value for name, value in values if name == "v"), None)
    return urlencode([(name, value) for name, value in values if name != "v"]), token


_unpolled_query = lru_cache(maxsize=4096)(_poll_query)


def _url_page(key: tuple[Any, ...], url: str) -> tuple[Any, ...] | None:
    """The page (:func:`poll_page`) a part of the request's page polls at ``url`` (an address as the
    page links it: the script's prefix, then the path); None if it is no public page."""
    parts = urlsplit(url)
    script = key[KEY_QUERY - 2]
    path = parts.path[len(script) :] if script and parts.path.startswith(script) else parts.path
    query = query_read(parts.query)
    if not _PUBLIC_PAGE.match(path) or query is None:
        return None
    return poll_page((*key[: KEY_QUERY - 1], path, query, *key[KEY_QUERY + 1 :]))[0]


def _poll_shared_key(page: tuple[Any, ...]) -> str:
    """Where the workers share a page's poll answer."""
    return f"{PREFIX}:poll:{hashlib.blake2b(repr(page).encode(), digest_size=16).hexdigest()}"


def _client_key(environ: dict[str, Any]) -> str:
    """Where the client's count of new responses in the current ``SHARED_TIMEOUT`` window is kept."""
    window = int(time.time() // SHARED_TIMEOUT)
    return f"{PREFIX}:response-new:{client_ip(environ) or '-'}:{window}"


def _client_may_add(environ: dict[str, Any]) -> bool:
    """Whether the client (:func:`tournament.proxies.client_ip`) may add one more new response to
    the shared cache: at most ``PUBLIC_RESPONSE_NEW_PER_CLIENT`` in each ``SHARED_TIMEOUT`` window,
    so no client fills Redis with pages nobody else asks for (a new search, a new page number each
    time); a page asked again is rebuilt in place and costs nothing."""
    key = _client_key(environ)
    try:
        count = int(cache.incr(key))
    except ValueError:  # the client's first in this window (or its key expired): one round trip more
        count = 1 if cache.add(key, 1, timeout=2 * SHARED_TIMEOUT) else int(cache.incr(key))
    limit: int = settings.PUBLIC_RESPONSE_NEW_PER_CLIENT
    return count <= limit


_ADD_SCRIPT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then
    redis.call('EXPIRE', KEYS[1], ARGV[1])
end
local last = #KEYS
if count > tonumber(ARGV[2]) then
    last = last - 1
end
for index = 2, last do
    redis.call('SET', KEYS[index], ARGV[index + 2], 'EX', ARGV[3])
end
return count
"""
""":func:`_client_may_add` and :func:`_shared_write` in one round trip: ``KEYS`` the client's count,
the notes, then the new response (written only while the count is within ``ARGV[2]``); ``ARGV`` the
count's timeout, the limit, the entries' timeout, then each entry's value."""


def _shared_add(
    entries: dict[str, Any], key: str, kept: Kept, environ: dict[str, Any], later: Later | None = None
) -> bool:
    """Share ``entries`` (the poll notes) and the new response ``kept`` under ``key`` if the client
    may add one more (:func:`_client_may_add`), and ``later`` (:func:`_shared_write`); whether it was
    added. One round trip where the cache is django-redis's on one server (a script), else two."""
    client = getattr(cache, "client", None)
    if not isinstance(client, DefaultClient) or isinstance(client, ShardClient):
        added = _client_may_add(environ)
        _shared_write({**entries, key: kept} if added else entries, later)
        return added
    limit: int = settings.PUBLIC_RESPONSE_NEW_PER_CLIENT
    keys = [client.make_key(name) for name in (_client_key(environ), *entries, key)]
    values = [client.encode(value) for value in (*entries.values(), kept)]
    arguments = (len(keys), *keys, 2 * SHARED_TIMEOUT, limit, SHARED_TIMEOUT, *values)
    if isinstance(client, HeldConnectionClient) and client.one_server():
        # Over the connection the reads take: redis-py's own call costs twice the round trip's CPU.
        count = client.exchange([*_later_sets(client, later), ("EVAL", _ADD_SCRIPT, *arguments)])[-1]
    else:
        if later:
            _shared_write({}, later)
        count = client.get_client(write=True).eval(_ADD_SCRIPT, *arguments)
    return int(count) <= limit


StartResponse = Callable[..., Any]


class PublicResponses:
    """The WSGI application: Django's, with the public pages' kept responses in front (module docstring)."""

    def __init__(self, application: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]) -> None:
        self.application = application
        self.kept = _KeptResponses(int(settings.PUBLIC_RESPONSE_CACHE_MB * 2**20))
        self.polls: _Recent[PollAnswer] = _Recent(POLL_ANSWERS)
        self.finds: _Recent[FindShell] = _Recent(FIND_SHELLS)
        self.ranks: _Recent[RanksShell] = _Recent(RANKS_SHELLS)
        self.local_paths: set[str] = set()
        self.retry_after = str(settings.PUBLIC_SHED_RETRY_SECONDS)
        static_url = urlparse(settings.STATIC_URL or "").path
        self.static_prefix = "/" + static_url.strip("/") + "/" if static_url.strip("/") else ""
        refreshed = getattr(settings, "WHITENOISE_AUTOREFRESH", settings.DEBUG)
        self.statics = _KeptResponses(STATIC_KEPT_BYTES if self.static_prefix and not refreshed else 0)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if self.statics.max_bytes and environ.get("PATH_INFO", "").startswith(self.static_prefix):
            return self._static(environ, start_response)
        if poll_shed(environ, threshold=settings.PUBLIC_SHED_QUEUE):  # result entry first (tournament.overload)
            start_response("503 Service Unavailable", [*SHED_HEADERS, ("Retry-After", self.retry_after)])
            return [b""]
        key = request_key(environ) if self.kept.max_bytes > 0 else None
        if key is None:
            return self.application(environ, start_response)
        environ["QUERY_STRING"] = key[KEY_QUERY]  # Django reads what the key says, nothing more
        page, token = poll_page(key)
        found: dict[str, Any] = {}
        page_known = False
        if key[KEY_HTMX] and token is not None:
            ranks_key = _ranks_key(key, page)
            ranks = self.ranks.get(ranks_key) if ranks_key is not None else None
            try:
                # A ranks poll this worker can answer itself looks for no other worker's note.
                noted, found, page_known = self._poll_noted(page, look_shared=ranks is None)
            except Exception:  # the cache is down: Django answers
                noted = None
            if noted is not None and noted.token == token:
                start_response(NO_CONTENT, list(noted.headers))
                return [b""]
            if ranks is not None and ranks_key is not None:
                answered = self._ranked(ranks_key, ranks, key, page, token, found, environ, start_response)
                if answered is not None:
                    return answered
            if noted is not None:
                # Asked from an earlier token: the answer is the page's live part as it stands now,
                # the same bytes whatever token the phone had, so it is kept once for the page.
                key = _unpolled(key, page)
        local_only = environ.get("PATH_INFO") in self.local_paths
        shared_key = _shared_key(key)
        try:
            kept, known = self._held(key, shared_key, found, local_only=local_only)
        except Exception:  # the cache is down: Django builds the page afresh
            kept, known = None, False
        if kept is not None:
            start_response(kept.status, list(kept.headers))
            return [kept.body]
        self.kept.discard(key)
        answered = self._found(key, environ, start_response)  # find my table's new name, from the seat index
        if answered is not None:
            return answered
        known = known or page_known
        return self._built(key, shared_key, page, token, known, environ, start_response)

    def _found(
        self, key: tuple[Any, ...], environ: dict[str, Any], start_response: StartResponse
    ) -> list[bytes] | None:
        """A find's answer from this worker's layout of the page and seat index, when it is the one
        Django would give (:mod:`tournament.standings.find_answers`); None: Django answers."""
        shell_key = _layout_key(key)
        shell = self.finds.get(shell_key)
        if shell is None:
            return None
        try:
            if not shell.reads.hold(_values_read(shell.keys), time.time()):
                self.finds.discard(shell_key)  # built at an earlier seating version
                return None
            body = find_answer(shell.found, environ)
        except Exception:  # the cache is down, or anything unforeseen: Django answers
            return None
        if body is None:
            return None
        headers = list(shell.headers)
        headers[shell.length_at] = (headers[shell.length_at][0], str(len(body)))
        self.kept.put(key, Kept(shell.status, tuple(headers), body, shell.reads, shell.keys))  # as Django's would be
        self._local_path(environ.get("PATH_INFO", ""))  # its answers are this worker's alone, as Django's are
        start_response(shell.status, headers)
        return [body]

    def _ranked(
        self,
        ranks_key: tuple[Any, ...],
        shell: RanksShell,
        key: tuple[Any, ...],
        page: tuple[Any, ...],
        token: str,
        found: dict[str, Any],
        environ: dict[str, Any],
        start_response: StartResponse,
    ) -> list[bytes] | None:
        """A pair's ranks poll answered from this worker's shell of the event's ranks polls and its ranks
        indexes, when it is the answer Django would give (:mod:`tournament.standings.ranks_answers`);
        None: Django answers. ``found``: shared values read already in this request."""
        try:
            values = _values_read(shell.keys, found)
            served = builds_served(shell.found, values, time.time())
            if served is None:
                if values.get(shell.seating_key) != shell.found.seating_version:
                    self.ranks.discard(ranks_key)  # made at an earlier seating version
                return None
            builds, notes = served
            answered = ranks_answer(shell.found, builds, environ, token)
        except Exception:  # the cache is down, or anything unforeseen: Django answers
            return None
        if answered is None:
            return None
        new, body = answered
        reads = depends(shell, notes)
        keys = tuple(reads.keys())
        unchanged = shell.unchanged
        if new is None:
            if unchanged is None:
                return None  # Django's 204 is not known yet: Django answers, and the shell learns it
            self.polls.put(page, PollAnswer(token, reads, keys, unchanged.headers))  # as Django notes it
            start_response(unchanged.status, list(unchanged.headers))
            return [b""]
        moved = shell.moved
        if moved is None:
            return None
        headers = list(moved.headers)
        headers[moved.length_at] = (headers[moved.length_at][0], str(len(body)))
        # What Django's answer leaves: the part kept for the pair's phones at earlier versions, and the
        # note that answers the new version's poll 204.
        self.kept.put(_unpolled(key, page), Kept(moved.status, tuple(headers), body, reads, keys))
        if unchanged is not None:
            self.polls.put(page, PollAnswer(new, reads, keys, unchanged.headers))
        start_response(moved.status, headers)
        return [body]

    def _poll_noted(
        self, page: tuple[Any, ...], *, look_shared: bool = True
    ) -> tuple[PollAnswer | None, dict[str, Any], bool]:
        """The poll answer of ``page`` that holds now (this worker's, else — if ``look_shared`` — the one
        another worker noted, then kept here too), the shared values read to tell (None for a key not
        there), and whether the page was noted at all (built before, by some worker)."""
        now = time.time()
        local = self.polls.get(page)
        found: dict[str, Any] = {}
        if local is not None:
            found = _values_read(local.keys)
            if local.reads.hold(found, now):
                return local, found, True
        if not look_shared:
            return None, found, local is not None
        shared = cache.get(_poll_shared_key(page))
        if shared is None:
            return None, found, local is not None
        if local is None or shared.keys != local.keys:
            found = _values_read(shared.keys)
        if not shared.reads.hold(found, now):
            return None, found, True
        self.polls.put(page, shared)
        return cast(PollAnswer, shared), found, True  # what a worker filed under the page

    def _poll_keep(
        self, key: tuple[Any, ...], page: tuple[Any, ...], reads: Reads, headers: list[tuple[str, str]]
    ) -> dict[str, PollAnswer]:
        """Note the tokens the live parts Django just answered are at, and what they depend on
        (module docstring): the request's own page's and a part's polled on its own (its address).
        Kept here at once; returned by shared key for the caller to share in one round trip."""
        answer_headers = tuple(
            (name, "0") if name.lower() == "content-length" else (name, value) for name, value in headers
        )
        shared: dict[str, PollAnswer] = {}
        for url, noted in reads.polls.items():
            if noted is None:
                continue
            where = page if url is None else _url_page(key, url)
            if where is None:
                continue
            token, depends = noted
            local = self.polls.get(where)
            if local is not None and (local.token, local.reads.exact, local.reads.coalesced) == (
                token,
                depends.exact,
                depends.coalesced,
            ):
                continue  # noted already
            answer = PollAnswer(token, depends, tuple(depends.keys()), answer_headers)
            self.polls.put(where, answer)
            shared[_poll_shared_key(where)] = answer
        return shared

    def _static(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """A static file's answer as Django gave it, from this worker's memory (module docstring)."""
        if environ.get("REQUEST_METHOD") != "GET" or any(environ.get(name) for name in STATIC_CONDITIONS):
            return self.application(environ, start_response)
        key = (
            environ.get("HTTP_HOST") or environ.get("SERVER_NAME"),
            environ.get("wsgi.url_scheme"),
            environ.get("HTTP_X_FORWARDED_PROTO"),  # the HTTPS redirect and HSTS read it
            environ.get("SCRIPT_NAME", ""),
            environ["PATH_INFO"],
            environ.get("HTTP_ACCEPT_ENCODING", ""),  # whitenoise sends a compressed file to who takes it
        )
        kept = self.statics.get(key)
        if kept is not None:
            start_response(kept.status, list(kept.headers))
            return [kept.body]
        answer: list[Any] = []

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answer[:] = [status, headers]
            return start_response(status, headers, exc_info)

        result = self.application(environ, start)
        if not (answer and answer[0].startswith("200 ")):
            return result
        status, headers = answer
        length = int_or_none(next((value for name, value in headers if name.lower() == "content-length"), None))
        if any(name.lower() == "set-cookie" for name, _value in headers) or length is None:
            return result
        if length > STATIC_FILE_MAX:
            return result
        try:
            body = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        if len(body) == length:
            self.statics.put(key, Kept(status, tuple(headers), body, Reads(), ()))
        return [body]

    def _held(
        self, key: tuple[Any, ...], shared_key: str, found: dict[str, Any], *, local_only: bool
    ) -> tuple[Kept | None, bool]:
        """The response kept for ``key`` if it still holds: this worker's, else the one another
        worker built and shared (then kept here too; not looked for if ``local_only``); and whether
        one was kept at all (a response built again in place costs no client anything). ``found``:
        shared values read already in this request (not read again)."""
        now = time.time()
        local = self.kept.get(key)
        if local is not None:
            found = _values_read(local.keys, found)
            if local.reads.hold(found, now):
                return local, True
        if local_only:
            return None, local is not None
        shared = cache.get(shared_key)
        if shared is None:
            return None, local is not None
        found = _values_read(shared.keys, found)
        if not shared.reads.hold(found, now):
            return None, True
        self.kept.put(key, shared)
        return cast(Kept, shared), True  # what a worker filed under the key

    def _built(
        self,
        key: tuple[Any, ...],
        shared_key: str,
        page: tuple[Any, ...],
        token: str | None,
        known: bool,
        environ: dict[str, Any],
        start_response: StartResponse,
    ) -> Iterable[bytes]:
        reads = Reads()
        answer: list[Any] = []
        asked = dict(environ)  # the request as it came (Django's request object alters the environment)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answer[:] = [status, headers]
            return start_response(status, headers, exc_info)

        current = current_reads.set(reads)
        try:
            result = self.application(environ, start)
        finally:
            current_reads.reset(current)
        later, reads.later = reads.later, {}  # written with the response, never kept inside it
        if not (reads.cacheable and not reads.spoiled and answer and answer[0].startswith(KEPT_STATUSES)):
            _later_write(later)
            return result
        status, headers = answer
        if any(name.lower() == "set-cookie" for name, _value in headers):
            _later_write(later)
            return result
        try:
            body = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        if reads.ranked is not None and key[KEY_HTMX] and token is not None:
            self._ranks_shell_keep(key, page, reads, status, headers, body, asked, token)
        try:
            shared: dict[str, Any] = dict(self._poll_keep(key, page, reads, headers))
            noted = reads.polls.get(None)
            if key[KEY_HTMX] and token is not None and noted is not None:
                if noted[0] == token:  # a 204: the page's note answers this poll from now on
                    _shared_write(shared, later)
                    return [body]
                if key[KEY_QUERY] != page[KEY_QUERY]:  # asked from an earlier token: kept for the page
                    key = _unpolled(key, page)
                    shared_key = _shared_key(key)
                    known = known or self.kept.get(key) is not None
            kept = Kept(status, tuple(headers), body, reads, tuple(reads.keys()))
            if reads.local:
                self.kept.put(key, kept)
                self._local_path(environ.get("PATH_INFO", ""))
                _shared_write(shared, later)
                if reads.found is not None and not reads.polls:
                    self._find_shell_keep(key, reads, status, headers, body, asked)
            elif known:
                self.kept.put(key, kept)
                shared[shared_key] = kept
                _shared_write(shared, later)
            elif _shared_add(shared, shared_key, kept, environ, later):
                self.kept.put(key, kept)
            # else served, but this client has added its share of new responses
        except Exception:  # the cache is down: nothing is read from it either
            self.kept.discard(key)
        return [body]

    def _find_shell_keep(
        self,
        key: tuple[Any, ...],
        reads: Reads,
        status: str,
        headers: list[tuple[str, str]],
        body: bytes,
        environ: dict[str, Any],
    ) -> None:
        """Keep the layout of the find Django just answered, if it gives Django's answer to this very
        request (:func:`tournament.standings.find_answers.find_shell_kept`)."""
        try:
            shell = find_shell_kept(
                reads.found, status=status, headers=headers, body=body, reads=reads, environ=environ
            )
        except Exception:  # anything unforeseen: Django answers this page's finds
            shell = None
        if shell is not None:
            self.finds.put(_layout_key(key), shell)
        else:
            self.finds.discard(_layout_key(key))

    def _ranks_shell_keep(
        self,
        key: tuple[Any, ...],
        page: tuple[Any, ...],
        reads: Reads,
        status: str,
        headers: list[tuple[str, str]],
        body: bytes,
        environ: dict[str, Any],
        token: str,
    ) -> None:
        """Keep the status and headers of the ranks poll Django just answered in the event's shell, if
        the shell gives Django's answer to this very request
        (:func:`tournament.standings.ranks_answers.ranks_shell_kept`); else drop the shell."""
        ranks_key = _ranks_key(key, page)
        if ranks_key is None:
            return
        try:
            shell = ranks_shell_kept(
                self.ranks.get(ranks_key),
                reads.ranked,
                status=status,
                headers=headers,
                body=body,
                environ=environ,
                token=token,
            )
        except Exception:  # anything unforeseen: Django answers this event's ranks polls
            shell = None
        if shell is not None:
            self.ranks.put(ranks_key, shell)
        else:
            self.ranks.discard(ranks_key)

    def _local_path(self, path: str) -> None:
        """Note that ``path``'s responses are kept by each worker alone: the next request for it does
        not look in the shared cache (bounded: a client asking ever-new addresses empties the note)."""
        if path not in self.local_paths:
            if len(self.local_paths) >= LOCAL_PATHS:
                self.local_paths.clear()
            self.local_paths.add(path)


def _values_read(keys: Iterable[str], found: dict[str, Any] | None = None) -> dict[str, Any]:
    """The shared values under ``keys`` (None for a key not there), read in one round trip; those
    already in ``found`` (read earlier in the same request) are not read again."""
    values = dict(found or {})
    missing = [key for key in keys if key not in values]
    if missing:
        values.update(dict.fromkeys(missing))
        values.update(cache.get_many(missing))
    return values


Later = dict[str, tuple[Any, int]]
"""Values Django built for the shared cache and left to be written with the response, by key: the
value and its timeout (:func:`tournament.standings.response_reads.share_later`)."""


def _shared_write(entries: dict[str, Any], later: Later | None = None) -> None:
    """Share what a request noted and kept (``entries``, for ``SHARED_TIMEOUT``) and the values Django
    left to share with them (``later``), in one round trip where the cache is one Redis server."""
    client = getattr(cache, "client", None)
    if isinstance(client, HeldConnectionClient) and client.one_server():
        commands = _later_sets(client, later)
        if entries:  # inside MULTI … EXEC, as set_many writes them
            expiry = ("PX", SHARED_TIMEOUT * 1000)
            sets = [("SET", client.make_key(key), client.encode(value), *expiry) for key, value in entries.items()]
            commands += [("MULTI",), *sets, ("EXEC",)]
        if commands:
            client.exchange(commands)
        return
    if entries:
        cache.set_many(entries, timeout=SHARED_TIMEOUT)
    for key, (value, timeout) in (later or {}).items():
        cache.set(key, value, timeout=timeout)


def _later_sets(client: HeldConnectionClient, later: Later | None) -> list[tuple[Any, ...]]:
    """The ``SET`` commands of ``later`` (:data:`Later`)."""
    return [
        ("SET", client.make_key(key), client.encode(value), "PX", timeout * 1000)
        for key, (value, timeout) in (later or {}).items()
    ]


def _later_write(later: Later) -> None:
    """Write what Django left to share with a response that is not kept (nothing else to write)."""
    if later:
        try:
            _shared_write({}, later)
        except Exception:  # the cache is down: the values are built again when asked
            logger.warning("public cache unavailable; %d values built but not stored", len(later), exc_info=True)


def _ranks_key(key: tuple[Any, ...], page: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """Where a worker keeps the shell of the ranks polls of the request's event (its address, the
    event's id and the language: :mod:`tournament.standings.ranks_answers`); None if the request is no
    ranks poll with ``v`` alone."""
    path = RANKS_PATH.match(key[KEY_QUERY - 1])
    if path is None or page[KEY_QUERY] != "":
        return None
    return (*key[: KEY_QUERY - 1], int(path.group(1)), key[KEY_QUERY + 1])


def _layout_key(key: tuple[Any, ...]) -> tuple[Any, ...]:
    """A request's key without its query: the page whose layout a find's answers are filled into."""
    return (*key[:KEY_QUERY], *key[KEY_QUERY + 1 :])


def _unpolled(key: tuple[Any, ...], page: tuple[Any, ...]) -> tuple[Any, ...]:
    """A poll's key without its ``v``: where the page's live part, as it stands, is kept for every
    phone asking from an earlier token."""
    return (*key[:KEY_QUERY], page[KEY_QUERY], *key[KEY_QUERY + 1 :])
