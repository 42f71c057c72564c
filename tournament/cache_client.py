"""The shared cache's client: django-redis's, whose reads go over a connection each thread keeps.

Every public request reads the shared cache (its versions, in one ``MGET``; a live page's poll
does nothing else before its 204), and redis-py's client spends about three times the CPU of the
round trip itself around each command: it takes a connection from its pool and gives it back,
wraps the command in its retries and calls its metrics' hooks. So on one server this client keeps
one connection (made with the pool's settings, outside the pool) for each thread of each process
and sends ``GET`` and ``MGET`` on it (the same commands, keys and decoding as django-redis);
everything else, and a replicated setup's reads, go through django-redis as before.

A failure drops the kept connection (a half-read answer never meets the next command) and raises
django-redis's ``ConnectionInterrupted``, as its own reads do, so the cache's callers fall back as
they do for a cache that is down; a kept connection found closed is replaced once first. A forked
process never uses its parent's connection: each is kept with the process id that opened it. A
thread's connection closes when the thread ends.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Collection
from typing import Any, cast

from django_redis.client import DefaultClient
from django_redis.exceptions import ConnectionInterrupted
from redis import Redis
from redis.connection import Connection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

__all__ = ["HeldConnectionClient"]

_INTERRUPTED = (RedisConnectionError, RedisTimeoutError, ResponseError, TimeoutError)
"""What django-redis turns into ``ConnectionInterrupted`` (its ``_main_exceptions``)."""


class HeldConnectionClient(DefaultClient):
    """django-redis's client, its reads over a connection each thread keeps (module docstring)."""

    def __init__(self, server: Any, params: dict[str, Any], backend: Any) -> None:
        super().__init__(server, params, backend)
        self._held = threading.local()

    def _read(self, *command: Any) -> Any:
        """``command``'s answer, over this thread's connection (opened on first use). A connection
        kept from before that turns out closed (the server restarted, or closed it idle) is
        replaced once, as redis-py retries: a read asked twice is the same read."""
        redis: Redis = self.get_client(write=False)
        held: tuple[int, Connection] | None = getattr(self._held, "connection", None)
        kept = held is not None and held[0] == os.getpid()
        while True:
            if held is None or not kept:
                # A connection of its own, not one taken from the pool: the pool would count it in
                # use for ever, and a threaded server (a thread per request) would exhaust it. This
                # one closes when its thread ends (the thread's local goes, and with it the socket).
                pool = redis.connection_pool
                held = (os.getpid(), pool.connection_class(**pool.connection_kwargs))
                self._held.connection = held
            connection = held[1]
            try:
                connection.send_command(*command)  # type: ignore[no-untyped-call]
                return connection.read_response()
            except BaseException as error:
                self._held.connection = None
                connection.disconnect()  # type: ignore[no-untyped-call]
                if kept and isinstance(error, RedisConnectionError):
                    kept = False
                    continue
                if isinstance(error, _INTERRUPTED):
                    raise ConnectionInterrupted(connection=redis) from error
                raise

    def get(self, key: Any, default: Any | None = None, version: int | None = None, client: Redis | None = None) -> Any:
        if client is not None or len(self._server) != 1:
            return super().get(key, default=default, version=version, client=client)
        value = self._read("GET", self.make_key(key, version=version))
        return default if value is None else self.decode(value)

    def get_many(
        self, keys: Collection[str], version: int | None = None, client: Redis | None = None
    ) -> dict[Any, Any]:
        if client is not None or len(self._server) != 1:
            return cast(dict[Any, Any], super().get_many(keys, version=version, client=client))
        if not keys:
            return {}
        made = {self.make_key(key, version=version): key for key in keys}
        values = self._read("MGET", *made)
        return {made[key]: self.decode(value) for key, value in zip(made, values, strict=True) if value is not None}
