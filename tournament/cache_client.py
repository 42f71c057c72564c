"""The shared cache's client: django-redis's, whose reads go over a connection each thread keeps.

Every public request reads the shared cache (its versions, in one ``MGET``; a live page's poll
does nothing else before its 204), and redis-py's client spends about three times the CPU of the
round trip itself around each command: it takes a connection from its pool and gives it back,
wraps the command in its retries and calls its metrics' hooks. So on one server this client keeps
one connection (made with the pool's settings, outside the pool) for each thread of each process
and sends ``GET``, ``MGET``, ``SET`` (``add`` and ``set_many`` too) on it: the same commands, keys,
encoding and decoding as django-redis (``set_many`` inside ``MULTI … EXEC``, as its pipeline sends
it). A caller may send several commands in one round trip (:meth:`HeldConnectionClient.exchange`: a
pair's first view makes its own version as it reads the versions, and shares its page, its poll
notes and the client's count at once). A timeout django-redis turns into a delete, the other
commands, and a replicated setup's, go through django-redis as before.

A failure drops the kept connection (a half-read answer never meets the next command) and raises
django-redis's ``ConnectionInterrupted``, as its own reads do, so the cache's callers fall back as
they do for a cache that is down; a kept connection found closed is replaced once first. A forked
process never uses its parent's connection: each is kept with the process id that opened it. A
thread's connection closes when the thread ends.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Collection, Sequence
from typing import Any, cast

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django_redis.client import DefaultClient
from django_redis.exceptions import ConnectionInterrupted
from redis import Redis
from redis.connection import Connection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

__all__ = ["HeldConnectionClient"]

_NOT_HERE = object()
"""A write this client leaves to django-redis (a timeout it turns into a delete)."""

_INTERRUPTED = (RedisConnectionError, RedisTimeoutError, ResponseError, TimeoutError)
"""What django-redis turns into ``ConnectionInterrupted`` (its ``_main_exceptions``)."""


class HeldConnectionClient(DefaultClient):
    """django-redis's client, its reads over a connection each thread keeps (module docstring)."""

    def __init__(self, server: Any, params: dict[str, Any], backend: Any) -> None:
        super().__init__(server, params, backend)
        self._held = threading.local()

    def one_server(self) -> bool:
        """Whether this client talks to one server, where :meth:`exchange` may be used."""
        return len(self._server) == 1

    def _read(self, *command: Any) -> Any:
        """``command``'s answer, over this thread's connection (:meth:`exchange`)."""
        return self.exchange((command,))[0]

    def exchange(self, commands: Sequence[tuple[Any, ...]]) -> list[Any]:
        """The answers to ``commands`` (keys as :meth:`make_key` makes them, values as :meth:`encode`
        does), sent together over this thread's connection (opened on first use): one round trip, in
        order, as a pipeline without ``MULTI`` sends them. One server only (:meth:`one_server`). A
        connection kept from before that turns out closed (the server restarted, or closed it idle)
        is replaced once, as redis-py retries: the commands sent here are asked twice safely (reads,
        writes of the same values, a count one more)."""
        redis: Redis = self.get_client(write=True)
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
                if len(commands) == 1:
                    connection.send_command(*commands[0])  # type: ignore[no-untyped-call]
                else:
                    connection.send_packed_command(connection.pack_commands(commands))  # type: ignore[no-untyped-call]
                return [connection.read_response() for _command in commands]
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

    def set(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
        client: Redis | None = None,
        nx: bool = False,
        xx: bool = False,
    ) -> bool:
        expiry = self._expiry(timeout)
        if client is not None or xx or expiry is _NOT_HERE or len(self._server) != 1:
            return bool(super().set(key, value, timeout=timeout, version=version, client=client, nx=nx, xx=xx))
        command = self._set_command(key, value, version, expiry)
        return bool(self.exchange(((*command, "NX") if nx else command,))[0])  # "OK", or nothing (NX)

    def set_many(
        self,
        data: dict[str, Any],
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
        client: Redis | None = None,
    ) -> None:
        expiry = self._expiry(timeout)
        if client is not None or expiry is _NOT_HERE or len(self._server) != 1 or not data:
            super().set_many(data, timeout=timeout, version=version, client=client)
            return
        # As django-redis's pipeline sends them: inside MULTI … EXEC, all of them or none.
        sets = [self._set_command(key, value, version, expiry) for key, value in data.items()]
        self.exchange([("MULTI",), *sets, ("EXEC",)])

    def _expiry(self, timeout: float | None) -> Any:
        """``SET``'s expiry arguments for ``timeout`` as django-redis reads it (``PX`` milliseconds; none
        for None), or ``_NOT_HERE`` for a timeout django-redis turns into something else (a delete)."""
        if timeout is DEFAULT_TIMEOUT:
            timeout = self._backend.default_timeout
        if timeout is None:
            return ()
        milliseconds = int(timeout * 1000)
        return ("PX", milliseconds) if milliseconds > 0 else _NOT_HERE

    def _set_command(self, key: Any, value: Any, version: int | None, expiry: tuple[Any, ...]) -> tuple[Any, ...]:
        return ("SET", self.make_key(key, version=version), self.encode(value), *expiry)
