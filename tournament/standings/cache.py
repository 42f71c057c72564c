"""The public pages' cache: version numbers per tournament, bumped by events.

Every cached public value (a rendered standings page, a find-my-table answer, the API's data)
is stored under one of the tournament's current *versions* (three scopes, below). An event that
changes what players see — a draw published, a deal entered, a match signed off, a pair renamed —
bumps the versions it concerns (:func:`public_version_bump`, called by the signal receivers in
``tournament.standings.signals``), so the next request misses and rebuilds. Nothing relies on
time-based expiry for freshness: the entries' timeout only returns memory once a version is
superseded.

With several workers (uWSGI's processes, on one machine or several) the cache must be shared
(``CACHE_URL``/``REDIS_URL``: Redis); ``INCR`` on Redis is atomic, so concurrent bumps from many
workers never lose one. The version starts from a clock reading in nanoseconds, so a version key
lost to eviction or a flush can never come back as a number that old entries were stored under.

Stampedes: the first request after a bump takes a short lock (``cache.add``) and builds; the
others wait for its value (or, where the caller allows it, serve the last value built, at most
one build old), so a draw published to thousands of phones costs the database one build per key.
If the cache itself fails, the value is built directly: the pages stay up, just slower.

Four versions per tournament (*scopes*), and one *own* version per pair and per match:

- *public* moves with every event, a deal entered included: the live levels — the draw, the
  bracket (its boxes show live levels) and the overview (its progress counts running tables), the
  first two and the last coalesced builds rebuilt every few seconds at most, not once per deal;
- *common* moves with every event but one match's result: a pair's and a match's page are keyed on
  it and on their *own* version (:func:`own_key`), which only that match's results move (a deal
  entered, corrected or deleted, a sign-off: :func:`match_result_bump`). So a deal at one table
  rebuilds its match's page and its two pairs' pages, and every other pair's page (its poll's 204)
  holds;
- *standings* moves only with what a ranking counts — a match that finishes or leaves finished,
  is signed off or unlocked, a finished match's result corrected or adjusted — and with every
  event that moves the seating version below (a pair renamed shows in the standings too). A
  timed-40 match takes about fifteen deals; fourteen of them leave this version alone;
- *seating* moves with every event but a match's result (a round published, started, withdrawn
  or finished; a table's number or area; a stage, pair or player changed): "find my table", which
  only needs seats (:mod:`tournament.standings.seating`), and the tournament's *frame* (its stages
  and rounds: the navigation of every page) are keyed on it, so they hold through a round of
  results.

Bumps: at once, and inside a transaction once more when it commits — both needed there, for
different readers; outside a transaction one is enough (:func:`public_version_bump`).

Coalesced builds (:func:`coalesced_get`, the standings): a build of a 5,000-pair stage takes about a
third of a second (most of it the rules core's ranking: each worker keeps the records it decoded of
the stage's stored results, so a rebuild decodes only the matches whose result changed since —
``tournament.standings.selectors.read_records``), and during a round its version moves every second
or so. So a request never waits for one: it serves the *last complete build* — held ready in each
worker's memory under the version it was built at — and, when that build is behind the current
version and the last rebuild started at least ``PUBLIC_REBUILD_SECONDS`` ago (a setting, 3 s), the
one request that takes the shared rebuild lock (``cache.add``, so one builder per stage across all
workers and machines) builds the next one. Everybody else goes on serving the last complete build
meanwhile. A result therefore shows within the interval plus a build (and twice that if a build
started between a write and its commit), well inside the 10 seconds the live pages promise.

Why in the request and not a Celery task: the rebuild then needs nothing but what the page
needs (database and cache) — a Celery worker busy with exports, or down, cannot freeze the
standings — and the freshness bound holds with no queue in between; the price is one request
every few seconds that takes a build's time (the one that took the lock), while every other
request serves memory. The *marker* of a build (its version and when it started) is one small
shared key read per request, so a worker never serves a build older than the last one any worker
completed: it fetches the newer build from the shared cache once and keeps it in memory — or not at
all, when what it would derive from it is already in the shared cache under the build's token (a
standings page rendered by another worker; a round's draw pages' digests, rows and HTML:
:func:`coalesced_served`, :func:`public_values_put`).

Each worker also keeps the last values it read in memory (:class:`LocalMemo`), in front of the
shared cache. That is safe with any number of workers because an entry's key carries the version:
a key's value never changes, and the version itself is always read from the shared cache.
"""

from __future__ import annotations

import gc
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Literal, NamedTuple, TypeVar, cast

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django_redis.client import DefaultClient, ShardClient

from tournament.cache_client import HeldConnectionClient
from tournament.standings.response_reads import (
    coalesced_note,
    read_note,
    response_uncacheable,
    share_later,
    version_depends,
)

logger = logging.getLogger(__name__)

T = TypeVar("T")

PREFIX = "public:v14"
"""Change it when the shape of cached values changes, so a release never reads an older one's (v3: the
values moved to ``tournament.standings.public_types`` and two were renamed, which changes their pickles;
v4: a standings line says whether it is provisional; v5: rounds and matches carry the
knockout pairs their names are read from; v6: a match carries its game and the rules core's deal
records, not a copy of them; v7: a Dou Dizhu standings line says whether it is provisional; v8: a draw
row says whether it is the third-place match; v9: a team total names the entrant kind it sums, not a
flag; v10: a standings build carries its ranking as the team total reads it; v11: a team match's page says
whether it was won on small points; v12: a knockout team match says whether it waits for, or was won
on, its tie-break deal; v13: a kept response, a poll's answer and what they were read from pickle as
plain values; v14: a team total's line and the event's teams keep their members as plain rows)."""
VERSION_TIMEOUT = 60 * 60 * 24 * 30
"""The version key outlives any event; if it is evicted anyway a fresh clock value replaces it."""
ENTRY_TIMEOUT = 60 * 60 * 6
"""Only frees memory: superseded versions are never read again."""
LOCK_TIMEOUT = 30
REBUILD_LOCK_TIMEOUT = 10
"""A coalesced rebuild's lock: a builder that died frees it within this (a build takes well under
a second), so the standings never stay frozen behind it for long."""
WAIT_STEP = 0.02
WAIT_MAX = 5.0

_MISSING = object()
UNREAD = _MISSING
"""A coalesced build's marker the caller has not read (:func:`coalesced_get` reads it)."""


LOCAL_ENTRIES = 256
"""Values a worker keeps in memory: the pages and answers of the last few versions."""

Scope = Literal["public", "standings", "seating", "common"]
SCOPES: tuple[Scope, ...] = ("public", "standings", "seating", "common")  # the fields of Versions
OwnKind = Literal["pair", "match"]
REBUILD_SECONDS = 3.0
"""The default of the ``PUBLIC_REBUILD_SECONDS`` setting: the least time between two rebuilds of one
coalesced value (a stage's standings)."""


class LocalMemo:
    """A worker's memory of immutable values under versioned keys, the least recently used
    dropped first.

    Only for keys that name a version (a value stored under one never changes), so it can never
    disagree with another worker. Plain ``OrderedDict`` operations, each atomic under the GIL:
    with threaded workers two threads may build the same value once each, never a wrong one.
    """

    def __init__(self, max_entries: int) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable, default: Any = None) -> Any:
        try:
            self._entries.move_to_end(key)
            return self._entries[key]
        except KeyError:
            return default

    def put(self, key: Hashable, value: Any) -> None:
        self._entries[key] = value
        while len(self._entries) > self.max_entries:
            try:
                self._entries.popitem(last=False)
            except KeyError:  # another thread emptied it meanwhile
                break


local_memo = LocalMemo(LOCAL_ENTRIES)
build_memo = LocalMemo(32)
"""A worker's coalesced builds (a stage's standings, a round's draw, the overview), apart from
the pages: a page visited once per deal (a match's) never pushes a 350 KB build out."""


def _version_key(tournament_id: int, scope: Scope = "public") -> str:
    return f"{PREFIX}:version:{tournament_id}" if scope == "public" else f"{PREFIX}:{scope}:{tournament_id}"


def own_key(*, tournament_id: int, kind: OwnKind, pk: int) -> str:
    """The key of one pair's or one match's own version: moved by a result of that match (of one of
    that pair's matches) and by nothing else; a page keyed on it is keyed on the *common* version too."""
    return f"{PREFIX}:{kind}:{tournament_id}:{pk}"


class Versions(NamedTuple):
    public: int
    standings: int
    seating: int
    common: int


def public_versions_get(
    *,
    tournament_id: int,
    markers: dict[str, Any] | None = None,
    owns: dict[str, int] | None = None,
    made: set[str] | None = None,
) -> Versions:
    """The tournament's current cache versions (created on first use), in one round trip.

    ``owns``: the keys of own versions (:func:`own_key`) the caller will need, read in the same
    round trip (created on first use); filled in with their values. ``made``: filled in with those
    of them this call created (a fresh clock value: nothing is filed under it yet).
    ``markers``: the keys of coalesced builds (:func:`coalesced_get`) whose markers the caller
    will need, read in the same round trip; filled in with what was found (``None``: no build;
    left :data:`UNREAD` if the cache is down).
    If the cache is down, versions nobody used before: every value is built afresh (never an old
    one served) and the pages stay up.
    """
    keys: dict[str, str] = {scope: _version_key(tournament_id, scope) for scope in SCOPES}
    keys.update({key: key for key in owns or ()})
    wanted = {_marker_key(tournament_id, key): key for key in markers or ()}
    try:
        found, made_first = _versions_read([*keys.values(), *wanted], owns or ())
        if made is not None:
            made.update(made_first)
        # An own version (any id a URL names) lives as long as a page built on it: a lost one comes
        # back as a fresh clock value, newer than any before.
        missing = {key: VERSION_TIMEOUT if name in SCOPES else ENTRY_TIMEOUT for name, key in keys.items()}
        missing = {key: timeout for key, timeout in missing.items() if found.get(key) is None}
        if missing:
            created, made_here = _versions_create(missing)
            found.update(created)
            if made is not None:
                made.update(key for key in made_here if key in (owns or ()))
        versions: dict[str, int] = {}
        for name, key in keys.items():
            version = found.get(key)
            if version is None:  # a cache that stores nothing (DummyCache): never serve an old entry
                version = time.time_ns()
            versions[name] = int(version)
    except Exception:
        logger.warning("public cache unavailable; tournament %s's pages are built afresh", tournament_id, exc_info=True)
        response_uncacheable()
        now = time.time_ns()
        if owns is not None:
            owns.update(dict.fromkeys(owns, now))
        return Versions(public=now, standings=now, seating=now, common=now)
    read_note(values={key: versions[name] for name, key in keys.items()})
    read_note(values={marker_key: found.get(marker_key) for marker_key in wanted})
    if markers is not None:
        markers.update({key: found.get(marker_key) for marker_key, key in wanted.items()})
    if owns is not None:
        owns.update({key: versions[key] for key in owns})
    return Versions(**{scope: versions[scope] for scope in SCOPES})


def _versions_read(keys: list[str], owns: Iterable[str]) -> tuple[dict[str, Any], set[str]]:
    """The values under ``keys`` (those not there left out) and the own versions of ``owns`` this
    call made. Where the cache's client sends several commands in one round trip (one Redis server:
    :class:`tournament.cache_client.HeldConnectionClient`), each of ``owns`` not there is made
    (``SET NX``, a fresh clock value) in the same round trip as the read: a pair's first view made its
    own version in a round trip of its own. Elsewhere, read alone (the caller makes what is missing)."""
    client = getattr(cache, "client", None)
    owns = list(owns)
    if not owns or not isinstance(client, HeldConnectionClient) or not client.one_server():
        return cache.get_many(keys), set()
    now = time.time_ns()
    names = [client.make_key(key) for key in keys]
    answers = client.exchange(
        [
            *(("SET", client.make_key(key), now, "NX", "PX", ENTRY_TIMEOUT * 1000) for key in owns),
            ("MGET", *names),
        ]
    )
    made = {key for key, answer in zip(owns, answers, strict=False) if answer}
    values = answers[-1]
    return {key: client.decode(value) for key, value in zip(keys, values, strict=True) if value is not None}, made


def _versions_create(keys: dict[str, int]) -> tuple[dict[str, Any], set[str]]:
    """Versions not there yet (never used, or evicted), each created as a fresh clock value unless
    another worker created it meanwhile, for ``timeout`` seconds; what each is now (None: the cache
    stores nothing), and those this call made. One round trip where the cache is django-redis's on
    one server (a pipeline of ``SET NX`` and ``GET`` per key: a pair's first view creates its own
    version), else an ``add`` and a ``get`` per key."""
    created: dict[str, Any] = {}
    made: set[str] = set()
    client = getattr(cache, "client", None)
    if not isinstance(client, DefaultClient) or isinstance(client, ShardClient):
        for key, timeout in keys.items():
            if cache.add(key, time.time_ns(), timeout=timeout):
                made.add(key)
            created[key] = cache.get(key)
        return created, made
    pipeline = client.get_client(write=True).pipeline(transaction=False)
    for key, timeout in keys.items():
        name = client.make_key(key)
        pipeline.set(name, time.time_ns(), nx=True, px=timeout * 1000)
        pipeline.get(name)
    answers = pipeline.execute()
    for key, done, value in zip(keys, answers[0::2], answers[1::2], strict=True):
        created[key] = None if value is None else client.decode(value)
        if done:
            made.add(key)
    return created, made


def public_version_depends(*, tournament_id: int, scope: Scope) -> None:
    """The response being built shows values keyed on the tournament's ``scope`` version (as the
    request read it): a kept copy holds only while it has not moved
    (:mod:`tournament.standings.public_responses`)."""
    version_depends(key=_version_key(tournament_id, scope))


def own_version_depends(*, key: str) -> None:
    """The response being built shows values keyed on the own version under ``key`` (:func:`own_key`)
    as the request read it."""
    version_depends(key=key)


def public_version_get(*, tournament_id: int, scope: Scope = "public") -> int:
    """The tournament's current cache version of ``scope`` (created on first use)."""
    versions = public_versions_get(tournament_id=tournament_id)
    return int(getattr(versions, scope))


def own_versions_get(*, tournament_id: int, keys: list[str]) -> dict[str, int]:
    """The tournament's common version (key ``"common"``) and the own versions under ``keys``, in one round trip."""
    owns: dict[str, int] = dict.fromkeys(keys, 0)
    versions = public_versions_get(tournament_id=tournament_id, owns=owns)
    return {**owns, "common": versions.common}


def _bump_key(key: str, what: str, timeout: int = VERSION_TIMEOUT) -> None:
    try:
        try:
            cache.incr(key)
        except ValueError:  # not there yet (or evicted): a fresh clock value is newer than any before
            cache.set(key, time.time_ns(), timeout=timeout)
    except Exception:  # the cache is down: nothing is cached either, so nothing is stale
        logger.warning("could not bump %s", what, exc_info=True)


def public_version_bump(*, tournament_id: int, seating: bool = True, standings: bool = True) -> None:
    """Invalidate a tournament's cached public values: the *public* scope always, its standings
    unless ``standings`` is false (the event changed nothing a ranking counts) and its seats and
    frame unless ``seating`` is false (the event moved nobody). An event that moves the seating
    version moves the standings version too (the standings show pairs' names).

    Inside a transaction this bumps twice, and both are needed: at once, because a reader in the
    same transaction (it sees its own new rows: a command, a test, a view that writes and then
    reads) must not be served a value cached before the write; and again once the transaction
    commits, because a reader on another connection that builds between the first bump and the
    commit still sees the old rows and stores them under the new version — the second bump
    retires that value. Outside a transaction the write is already committed: one bump. The second
    bump costs one ``INCR``, not a second rebuild: coalesced builds (the standings, the draw) are
    rebuilt at most every ``PUBLIC_REBUILD_SECONDS`` however often their version moves.
    """
    scopes: list[Scope] = ["public", "common"]
    if standings or seating:
        scopes.append("standings")
    if seating:
        scopes.append("seating")
    _bump_twice(tournament_id, scopes, ())


def match_result_bump(*, tournament_id: int, match_id: int, pair_ids: tuple[int | None, ...], standings: bool) -> None:
    """Invalidate what one match's result shows, and nothing else: the match's and its pairs' own
    versions (their pages), the *public* version (the live levels of the draw, the overview and the
    bracket: coalesced builds, rebuilt every few seconds at most) and, when ``standings``, the
    standings version. The *common* version stays: every other pair's and match's page, and its
    poll's 204, hold. Bumped at once and on commit, as :func:`public_version_bump`."""
    scopes: list[Scope] = ["public", "standings"] if standings else ["public"]
    owns = [own_key(tournament_id=tournament_id, kind="match", pk=match_id)]
    owns += [own_key(tournament_id=tournament_id, kind="pair", pk=pair_id) for pair_id in pair_ids if pair_id]
    _bump_twice(tournament_id, scopes, tuple(owns))


_BUMP_SCRIPT = """
for index, key in ipairs(KEYS) do
    if redis.call('EXISTS', key) == 1 then
        redis.call('INCR', key)
    else
        redis.call('SET', key, ARGV[1], 'EX', ARGV[index + 1])
    end
end
"""
""":func:`_bump_key` of each of its keys (``ARGV``: the clock's value, then each key's timeout), in
one round trip: a deal moves four or five versions, twice (:func:`_bump_twice`)."""


def _bumps(keys: list[tuple[str, int]], what: str) -> None:
    """:func:`_bump_key` of each ``(key, timeout)``: one round trip where the cache is django-redis's
    on one server (one script, each key bumped as ``_bump_key`` bumps it), else one bump after the
    other (another cache, or django-redis's keys spread over several servers)."""
    client = getattr(cache, "client", None)
    if not isinstance(client, DefaultClient) or isinstance(client, ShardClient):
        for key, timeout in keys:
            _bump_key(key, what, timeout)
        return
    try:
        names = [client.make_key(key) for key, _timeout in keys]
        timeouts = [timeout for _key, timeout in keys]
        client.get_client(write=True).eval(_BUMP_SCRIPT, len(names), *names, time.time_ns(), *timeouts)
    except Exception:  # the cache is down: nothing is cached either, so nothing is stale
        logger.warning("could not bump %s", what, exc_info=True)


def _bump_twice(tournament_id: int, scopes: list[Scope], owns: tuple[str, ...]) -> None:
    keys = [(_version_key(tournament_id, scope), VERSION_TIMEOUT) for scope in scopes]
    keys += [(key, ENTRY_TIMEOUT) for key in owns]
    what = f"the versions of tournament {tournament_id}"

    def bump() -> None:
        _bumps(keys, what)

    bump()
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(bump)


def public_cached(
    *,
    tournament_id: int,
    key: str,
    build: Callable[[], T],
    stale_ok: bool = False,
    version: int | str | None = None,
    lock: bool = True,
    fresh: bool = False,
    memo: LocalMemo | None = None,
    later: bool = False,
) -> T:
    """The value of ``key`` at the tournament's current version, built by ``build`` on a miss.

    One builder at a time per key and version; the others wait up to :data:`WAIT_MAX` seconds
    for its result and then build themselves. ``stale_ok``: one builder at a time per key, and
    while it builds the others serve the last value built for ``key`` instead of waiting (for
    pages where a value one build old is fine, like standings during a round — never for "find
    my table" or the current round right after a draw).
    ``version``: the tournament's version as the caller read it at the start of the request (one
    cache round trip less per value), or a token naming what the value is built from (another
    scope's version, a coalesced build: ``"s<seating>"``, ``"s<seating>.b<build>"``; a prefix
    letter keeps the scopes' numbers apart). ``lock`` False: a miss builds at once, without the lock
    (two round trips less), for a value that is cheap to build and that few ask at the same moment
    (a pair's page: read from its own few rows, asked by its own pair's phones). ``fresh``: the
    version was made by this request (nothing can be filed under it yet): not looked for, built
    (one round trip less). ``memo``: the worker's memory it is kept in (default :data:`local_memo`,
    the pages'; a value every page of a kind reads, behind a few hundred pages each kept once, has its
    own). ``later``: a value built without the lock is written by the kept responses' application
    with the response, in the round trip it makes anyway (:func:`tournament.standings.response_reads.share_later`;
    at once outside such a request): a pair's first view, which nobody else is waiting for. Exceptions
    from ``build`` propagate and nothing is cached.
    """
    if memo is None:
        memo = local_memo
    try:
        if version is None:
            version = public_version_get(tournament_id=tournament_id)
            public_version_depends(tournament_id=tournament_id, scope="public")
        entry_key = f"{PREFIX}:{tournament_id}:{version}:{key}"
        value = memo.get(entry_key, _MISSING)
        if value is not _MISSING:
            return cast(T, value)  # what build() made, filed under this key
        if not fresh:
            value = cache.get(entry_key, _MISSING)
    except Exception:
        logger.warning("public cache unavailable; building %s directly", key, exc_info=True)
        response_uncacheable()
        return build()
    if value is not _MISSING:
        memo.put(entry_key, value)
        return cast(T, value)  # what build() made, filed under this key
    if (not lock or fresh) and not stale_ok:
        value = build()
        if later and share_later(key=entry_key, value=value, timeout=ENTRY_TIMEOUT):
            memo.put(entry_key, value)
            return value
        try:
            cache.set(entry_key, value, timeout=ENTRY_TIMEOUT)
        except Exception:
            logger.warning("public cache unavailable; %s built but not stored", key, exc_info=True)
            response_uncacheable()
            return value
        memo.put(entry_key, value)
        return value
    latest_key = f"{PREFIX}:{tournament_id}:latest:{key}"
    # Where a value one build old may be served, one build at a time *whatever the version*: during
    # a round the version moves with every deal, and a build per version would pile up.
    lock_key = f"{PREFIX}:{tournament_id}:lock:{key}" if stale_ok else f"{entry_key}:lock"
    try:
        locked = cache.add(lock_key, 1, timeout=LOCK_TIMEOUT)
    except Exception:
        logger.warning("public cache unavailable; building %s directly", key, exc_info=True)
        response_uncacheable()
        return build()
    if locked:
        try:
            value = build()
            if stale_ok:
                cache.set_many({entry_key: value, latest_key: value}, timeout=ENTRY_TIMEOUT)
            else:  # one key: a plain SET (set_many is a pipeline, twice the client's work for one)
                cache.set(entry_key, value, timeout=ENTRY_TIMEOUT)
        finally:
            cache.delete(lock_key)
        memo.put(entry_key, value)
        return value
    if stale_ok:
        value = cache.get(latest_key, _MISSING)
        if value is not _MISSING:
            response_uncacheable()  # one build old: the next request must see the one being built
            return cast(T, value)  # what build() made, filed under this key
    deadline = time.monotonic() + WAIT_MAX
    while time.monotonic() < deadline:
        time.sleep(WAIT_STEP)
        value = cache.get(entry_key, _MISSING)
        if value is not _MISSING:
            memo.put(entry_key, value)
            return cast(T, value)  # what build() made, filed under this key
    return build()  # the first builder is slow or died: answer anyway


def public_values_put(*, tournament_id: int, version: int | str, values: dict[str, Any]) -> None:
    """Store ``values`` (by key) where :func:`public_cached` finds them under ``version``, for every
    worker, in one round trip: values one builder derives together (the rows of each page of a
    round's draw). ``version`` names what they are built from, as :func:`public_cached`'s does, or
    their keys do (a digest of the value): a value stored under a key never changes. Not kept in this
    worker's memory (those readers it has keep them), and nothing is stored if the cache is down (the
    readers build them)."""
    entries = {f"{PREFIX}:{tournament_id}:{version}:{key}": value for key, value in values.items()}
    try:
        cache.set_many(entries, timeout=ENTRY_TIMEOUT)
    except Exception:
        logger.warning("public cache unavailable; %d values not stored", len(entries), exc_info=True)


# -- coalesced builds ---------------------------------------------------------------------------------


class Built(NamedTuple):
    """The marker of a coalesced value's last complete build, shared by all workers."""

    version: int
    """The scope's version read before the build: the build holds every event up to it."""
    started: float
    """When its build started (``time.time()``): the next may start ``PUBLIC_REBUILD_SECONDS`` later.
    Wall-clock time, compared across machines: a clock off by some seconds only shifts when the
    next rebuild may start (keep the machines on NTP)."""


def rebuild_seconds() -> float:
    """The least time between two rebuilds of one coalesced value (``PUBLIC_REBUILD_SECONDS``)."""
    return float(getattr(settings, "PUBLIC_REBUILD_SECONDS", REBUILD_SECONDS))


def rebuild_due(built: Built, version: int, now: float) -> bool:
    """Whether a request at the scope's ``version`` (at ``now``) rebuilds a coalesced value whose last
    complete build is ``built``, if it takes the rebuild lock: the build is behind the version and
    the last rebuild started at least :func:`rebuild_seconds` ago."""
    return built.version < version and now - built.started >= rebuild_seconds()


def scope_key(*, tournament_id: int, scope: Scope) -> str:
    """The shared key of a tournament's version of ``scope``."""
    return _version_key(tournament_id, scope)


def coalesced_keys(*, tournament_id: int, key: str) -> tuple[str, str]:
    """The shared keys of a coalesced value's marker (its last complete build) and rebuild lock."""
    return _marker_key(tournament_id, key), _rebuild_lock_key(tournament_id, key)


def _held_build(tournament_id: int, key: str, version: int) -> Any:
    """The value built at ``version``: from the worker's memory, else from the shared cache (and
    then kept in memory), else ``_MISSING`` (evicted)."""
    memo_key = (tournament_id, key, version)
    value = build_memo.get(memo_key, _MISSING)
    if value is _MISSING:
        value = cache.get(f"{PREFIX}:{tournament_id}:build:{key}:{version}", _MISSING)
        if value is not _MISSING:
            build_memo.put(memo_key, value)
    return value


class _BuildFailed(Exception):
    """``build`` itself raised (not the cache): its exception goes to the caller, as it is."""


def _build_note(tournament_id: int, key: str, scope: Scope, marker: Any) -> None:
    """The response being built shows the build of ``marker``: a kept copy holds while that is the
    last complete build and no rebuild is due (:class:`tournament.standings.response_reads.Coalesced`)."""
    built = Built(*marker)
    coalesced_note(
        marker_key=_marker_key(tournament_id, key),
        marker=marker,
        scope_key=_version_key(tournament_id, scope),
        built_version=built.version,
        due_at=built.started + rebuild_seconds(),
        lock_key=_rebuild_lock_key(tournament_id, key),
    )


@contextmanager
def _collection_deferred() -> Iterator[None]:
    """No garbage collection while a build runs; what it left is collected after it.

    A build of a 5,000-pair stage holds tens of thousands of small objects until it returns (totals,
    rows, lines). Collected while it runs, they survive each young collection, are promoted as if
    they were long-lived, and set off a full collection of the worker's heap almost every build (a
    fifth of its CPU); once it has returned, only what it made survives. Only a worker's own
    collector is paused, and the setting is as it was afterwards, whatever the build raised."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _rebuild(
    tournament_id: int, key: str, build: Callable[[], T], version: int, lock_key: str, scope: Scope
) -> tuple[int, T]:
    """Build at ``version`` (the caller holds ``lock_key``), store the value, then its marker."""
    marker_key = _marker_key(tournament_id, key)
    started = time.time()
    try:
        with _collection_deferred():
            value = build()
    except Exception as error:
        cache.delete(lock_key)
        raise _BuildFailed from error
    try:
        cache.set(f"{PREFIX}:{tournament_id}:build:{key}:{version}", value, timeout=ENTRY_TIMEOUT)
        marker = cache.get(marker_key)
        # A builder slower than the lock's timeout must not put an older build back in front.
        if marker is None or Built(*marker).version < version:
            marker = tuple(Built(version, started))
            cache.set(marker_key, marker, timeout=ENTRY_TIMEOUT)
            _build_note(tournament_id, key, scope, marker)
        else:  # a newer build is in front: the next request serves that one
            response_uncacheable()
        cache.delete(lock_key)
    except Exception:  # the cache went down meanwhile: the value is still right, only not shared
        logger.warning("public cache unavailable; %s built but not stored", key, exc_info=True)
        response_uncacheable()
        return time.time_ns(), value
    build_memo.put((tournament_id, key, version), value)
    return version, value


def _marker_key(tournament_id: int, key: str) -> str:
    return f"{PREFIX}:{tournament_id}:built:{key}"


def coalesced_served(
    *,
    tournament_id: int,
    key: str,
    build: Callable[[], T],
    version: int,
    marker: Any = UNREAD,
    scope: Scope = "standings",
) -> tuple[int, Callable[[], T]] | None:
    """:func:`coalesced_get` with the value as a loader: the token of the build served (the last
    complete one, or the one this request rebuilt when a rebuild was due and it took the lock) and
    a function giving its value. For a caller that needs the value only when what it derives from
    it (a page's HTML, filed under the token) is not cached yet: every worker then skips fetching
    and unpickling a 350 KB build it would not read. None when :func:`coalesced_get` must be
    asked: nothing built yet (it waits for the first build) or the cache down.

    The loader gives the build of that token from the worker's memory or the shared cache; if it
    was evicted meanwhile, the build :func:`coalesced_get` then makes (one builder for all, stored
    and shared) — newer than the token, never older.
    """
    try:
        if marker is UNREAD:
            marker = cache.get(_marker_key(tournament_id, key))
        if marker is None:
            return None
        built = Built(*marker)
        lock_key = _rebuild_lock_key(tournament_id, key)
        due = rebuild_due(built, version, time.time())
        if due and cache.add(lock_key, 1, timeout=REBUILD_LOCK_TIMEOUT):
            token, value = _rebuild(tournament_id, key, build, version, lock_key, scope)
            return token, lambda: value
        _build_note(tournament_id, key, scope, marker)
    except _BuildFailed as failed:
        assert failed.__cause__ is not None
        raise failed.__cause__ from None
    except Exception:
        return None

    def load() -> T:
        try:
            value = _held_build(tournament_id, key, built.version)
        except Exception:
            value = _MISSING
        if value is _MISSING:
            return coalesced_get(tournament_id=tournament_id, key=key, build=build, version=version, scope=scope)[1]
        return cast(T, value)  # what build() made, filed under this key

    return built.version, load


def _rebuild_lock_key(tournament_id: int, key: str) -> str:
    return f"{PREFIX}:{tournament_id}:rebuild:{key}"


def coalesced_get(
    *,
    tournament_id: int,
    key: str,
    build: Callable[[], T],
    version: int | None = None,
    scope: Scope = "standings",
    marker: Any = UNREAD,
) -> tuple[int, T]:
    """The last complete build of ``key`` and the ``scope`` version it was built at; rebuilt by
    at most one request at a time across all workers, at most every :func:`rebuild_seconds`, and
    only when ``scope``'s version has moved past it (see the module's docstring).

    Only when there is no complete build to serve (the first request, or the build evicted) does
    a request wait for the builder (up to :data:`WAIT_MAX`, then it builds itself). ``version``:
    the scope's version as the caller read it; ``marker``: the build's marker as the caller read
    it with the version (:func:`public_versions_get`), one round trip less. With the cache down
    the value is built afresh (its token a fresh clock value, so nothing derived from it is ever
    taken for another build's).
    """
    marker_key = _marker_key(tournament_id, key)
    lock_key = _rebuild_lock_key(tournament_id, key)
    try:
        if version is None:
            version = public_version_get(tournament_id=tournament_id, scope=scope)
        if marker is UNREAD:
            marker = cache.get(marker_key)
        if marker is not None:
            built = Built(*marker)
            value = _held_build(tournament_id, key, built.version)
            if value is not _MISSING:
                due = rebuild_due(built, version, time.time())
                if not due or not cache.add(lock_key, 1, timeout=REBUILD_LOCK_TIMEOUT):
                    _build_note(tournament_id, key, scope, marker)
                    return built.version, value  # the last complete build
                return _rebuild(tournament_id, key, build, version, lock_key, scope)
        # Nothing complete to serve.
        if cache.add(lock_key, 1, timeout=REBUILD_LOCK_TIMEOUT):
            return _rebuild(tournament_id, key, build, version, lock_key, scope)
        deadline = time.monotonic() + WAIT_MAX
        while time.monotonic() < deadline:
            time.sleep(WAIT_STEP)
            marker = cache.get(marker_key)
            if marker is not None:
                built = Built(*marker)
                value = _held_build(tournament_id, key, built.version)
                if value is not _MISSING:
                    _build_note(tournament_id, key, scope, marker)
                    return built.version, value
    except _BuildFailed as failed:
        assert failed.__cause__ is not None
        raise failed.__cause__ from None
    except Exception:
        logger.warning("public cache unavailable; building %s directly", key, exc_info=True)
    response_uncacheable()
    return time.time_ns(), build()  # the cache is down, or the builder is slow or died: answer anyway
