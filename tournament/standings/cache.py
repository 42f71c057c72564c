"""The public pages' cache: one version number per tournament, bumped by events.

Every cached public value (a rendered standings page, a find-my-table answer, the API's data)
is stored under the tournament's current *version*. An event that changes what players see — a
draw published, a deal entered, a match signed off, a pair renamed — bumps the version
(:func:`public_version_bump`, called by the signal receivers in ``tournament.standings.signals``),
so the next request misses and rebuilds. Nothing relies on time-based expiry for freshness: the
entries' timeout only returns memory once a version is superseded.

With several gunicorn workers the cache must be shared (``CACHE_URL``/``REDIS_URL``: Redis);
``INCR`` on Redis is atomic, so concurrent bumps from many workers never lose one. The version
starts from a clock reading in nanoseconds, so a version key lost to eviction or a flush can
never come back as a number that old entries were stored under.

Stampedes: the first request after a bump takes a short lock (``cache.add``) and builds; the
others wait for its value (or, where the caller allows it, serve the last value built, at most
one build old), so a draw published to thousands of phones costs the database one build per key.
If the cache itself fails, the value is built directly: the pages stay up, just slower.

Two versions per tournament. The *public* version moves with every event; the *seating* version
only with events that can move a player (a round published or withdrawn, a table's number or
area, a pair or player renamed — not a deal entered), so "find my table", which only needs
seats, keeps its index through a round of results (:mod:`tournament.standings.seating`).

Each worker also keeps the last values it read in memory (:class:`LocalMemo`), in front of the
shared cache. That is safe with any number of workers because an entry's key carries the version:
a key's value never changes, and the version itself is always read from the shared cache.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Literal, NamedTuple, TypeVar

from django.core.cache import cache
from django.db import transaction

logger = logging.getLogger(__name__)

T = TypeVar("T")

PREFIX = "public:v2"
"""Change it when the shape of cached values changes, so a release never reads an older one's."""
VERSION_TIMEOUT = 60 * 60 * 24 * 30
"""The version key outlives any event; if it is evicted anyway a fresh clock value replaces it."""
ENTRY_TIMEOUT = 60 * 60 * 6
"""Only frees memory: superseded versions are never read again."""
LOCK_TIMEOUT = 30
WAIT_STEP = 0.02
WAIT_MAX = 5.0

_MISSING = object()


LOCAL_ENTRIES = 256
"""Values a worker keeps in memory: the pages and answers of the last few versions."""

Scope = Literal["public", "seating"]


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


def _version_key(tournament_id: int, scope: Scope = "public") -> str:
    return f"{PREFIX}:version:{tournament_id}" if scope == "public" else f"{PREFIX}:{scope}:{tournament_id}"


class Versions(NamedTuple):
    public: int
    seating: int


def public_versions_get(*, tournament_id: int) -> Versions:
    """The tournament's current cache versions (created on first use), in one round trip.

    If the cache is down, versions nobody used before: every value is built afresh (never an old
    one served) and the pages stay up.
    """
    keys = {scope: _version_key(tournament_id, scope) for scope in Versions._fields}
    try:
        found = cache.get_many(list(keys.values()))
        versions = {}
        for scope, key in keys.items():
            version = found.get(key)
            if version is None:
                cache.add(key, time.time_ns(), timeout=VERSION_TIMEOUT)
                version = cache.get(key)
                if version is None:  # a cache that stores nothing (DummyCache): never serve an old entry
                    version = time.time_ns()
            versions[scope] = int(version)
    except Exception:
        logger.warning("public cache unavailable; tournament %s's pages are built afresh", tournament_id, exc_info=True)
        now = time.time_ns()
        return Versions(public=now, seating=now)
    return Versions(**versions)


def public_version_get(*, tournament_id: int, scope: Scope = "public") -> int:
    """The tournament's current cache version of ``scope`` (created on first use)."""
    return getattr(public_versions_get(tournament_id=tournament_id), scope)  # type: ignore[no-any-return]


def _bump(tournament_id: int, scope: Scope) -> None:
    key = _version_key(tournament_id, scope)
    try:
        try:
            cache.incr(key)
        except ValueError:  # not there yet (or evicted): a fresh clock value is newer than any before
            cache.set(key, time.time_ns(), timeout=VERSION_TIMEOUT)
    except Exception:  # the cache is down: nothing is cached either, so nothing is stale
        logger.warning("could not bump the %s cache version of tournament %s", scope, tournament_id, exc_info=True)


def public_version_bump(*, tournament_id: int, seating: bool = True) -> None:
    """Invalidate every cached public value of a tournament (and its seats, unless ``seating``
    is false: the event moved nobody).

    Bumps now and again once the current transaction commits: a reader that builds between the
    write and the commit (and so still sees the old rows) stores its value under a version that
    the second bump retires. Outside a transaction the second bump runs at once (harmless).
    """
    scopes: tuple[Scope, ...] = ("public", "seating") if seating else ("public",)

    def bump() -> None:
        for scope in scopes:
            _bump(tournament_id, scope)

    bump()
    transaction.on_commit(bump)


def public_cached(
    *, tournament_id: int, key: str, build: Callable[[], T], stale_ok: bool = False, version: int | None = None
) -> T:
    """The value of ``key`` at the tournament's current version, built by ``build`` on a miss.

    One builder at a time per key and version; the others wait up to :data:`WAIT_MAX` seconds
    for its result and then build themselves. ``stale_ok``: one builder at a time per key, and
    while it builds the others serve the last value built for ``key`` instead of waiting (for
    pages where a value one build old is fine, like standings during a round — never for "find
    my table" or the current round right after a draw).
    ``version``: the tournament's version as the caller read it at the start of the request (one
    cache round trip less per value). Exceptions from ``build`` propagate and nothing is cached.
    """
    try:
        if version is None:
            version = public_version_get(tournament_id=tournament_id)
        entry_key = f"{PREFIX}:{tournament_id}:{version}:{key}"
        value = local_memo.get(entry_key, _MISSING)
        if value is not _MISSING:
            return value  # type: ignore[no-any-return]
        value = cache.get(entry_key, _MISSING)
    except Exception:
        logger.warning("public cache unavailable; building %s directly", key, exc_info=True)
        return build()
    if value is not _MISSING:
        local_memo.put(entry_key, value)
        return value  # type: ignore[return-value]
    latest_key = f"{PREFIX}:{tournament_id}:latest:{key}"
    # Where a value one build old may be served, one build at a time *whatever the version*: during
    # a round the version moves with every deal, and a build per version would pile up.
    lock_key = f"{PREFIX}:{tournament_id}:lock:{key}" if stale_ok else f"{entry_key}:lock"
    try:
        locked = cache.add(lock_key, 1, timeout=LOCK_TIMEOUT)
    except Exception:
        logger.warning("public cache unavailable; building %s directly", key, exc_info=True)
        return build()
    if locked:
        try:
            value = build()
            entries = {entry_key: value}
            if stale_ok:
                entries[latest_key] = value
            cache.set_many(entries, timeout=ENTRY_TIMEOUT)
        finally:
            cache.delete(lock_key)
        local_memo.put(entry_key, value)
        return value
    if stale_ok:
        value = cache.get(latest_key, _MISSING)
        if value is not _MISSING:
            return value  # type: ignore[return-value]
    deadline = time.monotonic() + WAIT_MAX
    while time.monotonic() < deadline:
        time.sleep(WAIT_STEP)
        value = cache.get(entry_key, _MISSING)
        if value is not _MISSING:
            local_memo.put(entry_key, value)
            return value  # type: ignore[return-value]
    return build()  # the first builder is slow or died: answer anyway
