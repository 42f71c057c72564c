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
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.db import transaction

logger = logging.getLogger(__name__)

T = TypeVar("T")

PREFIX = "public:v1"
VERSION_TIMEOUT = 60 * 60 * 24 * 30
"""The version key outlives any event; if it is evicted anyway a fresh clock value replaces it."""
ENTRY_TIMEOUT = 60 * 60 * 6
"""Only frees memory: superseded versions are never read again."""
LOCK_TIMEOUT = 30
WAIT_STEP = 0.02
WAIT_MAX = 5.0

_MISSING = object()


def _version_key(tournament_id: int) -> str:
    return f"{PREFIX}:version:{tournament_id}"


def cache_key_part(text: str) -> str:
    """A safe, short key part for free text (a search query): any cache backend accepts it."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:20]


def public_version_get(*, tournament_id: int) -> int:
    """The tournament's current cache version (created on first use)."""
    key = _version_key(tournament_id)
    version = cache.get(key)
    if version is None:
        cache.add(key, time.time_ns(), timeout=VERSION_TIMEOUT)
        version = cache.get(key)
        if version is None:  # a cache that stores nothing (DummyCache): never serve an old entry
            return time.time_ns()
    return int(version)


def _bump(tournament_id: int) -> None:
    key = _version_key(tournament_id)
    try:
        try:
            cache.incr(key)
        except ValueError:  # not there yet (or evicted): a fresh clock value is newer than any before
            cache.set(key, time.time_ns(), timeout=VERSION_TIMEOUT)
    except Exception:  # the cache is down: nothing is cached either, so nothing is stale
        logger.warning("could not bump the public cache version of tournament %s", tournament_id, exc_info=True)


def public_version_bump(*, tournament_id: int) -> None:
    """Invalidate every cached public value of a tournament.

    Bumps now and again once the current transaction commits: a reader that builds between the
    write and the commit (and so still sees the old rows) stores its value under a version that
    the second bump retires. Outside a transaction the second bump runs at once (harmless).
    """
    _bump(tournament_id)
    transaction.on_commit(lambda: _bump(tournament_id))


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
        value = cache.get(entry_key, _MISSING)
    except Exception:
        logger.warning("public cache unavailable; building %s directly", key, exc_info=True)
        return build()
    if value is not _MISSING:
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
            return value  # type: ignore[return-value]
    return build()  # the first builder is slow or died: answer anyway
