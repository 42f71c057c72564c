"""PostgreSQL as Django's backend has it (``DATABASES``' engine on PostgreSQL, tournament/settings.py),
with a health check of a kept connection that asks the server nothing while the server has said nothing.

With ``CONN_HEALTH_CHECKS`` Django sends ``SELECT 1`` on a kept connection before the first statement
of each request: a round trip, and the CPU of both ends, for every page that reads the database (a
pair's first view, each of thousands of phones opening a different pair's page; every deal entered).
A connection the server ended (a restart, ``pg_terminate_backend``, an idle timeout) has its end of
the socket readable before anything is sent — the server's last message, then the end of the stream
— while one idle between requests has nothing to read: PostgreSQL sends nothing unasked to a
connection that listens to no channel. So the check first asks the socket, without waiting; only a
connection with something to read (or closed on this side) is asked ``SELECT 1``, as Django would.
A link lost without a word from the server (no end of stream) fails at its first statement, as
``SELECT 1`` would have (after as long a wait); the request's error then closes the connection.
After an error in a request Django's own check (``SELECT 1``) still decides whether the connection is kept.

Its sessions run without PostgreSQL's JIT compilation (``jit = off``, unless the database's ``OPTIONS``
say otherwise). The server compiles a statement whose estimated cost passes ``jit_above_cost``; the
site's statements read a few thousand rows at most, and the estimate of one with correlated subqueries
(the progress board's every table's state: a ``CASE`` of ``EXISTS`` tests over a round's 2,500 tables)
passes it while the read itself takes some 11 ms: compiled, 70-100 ms, nearly all of it the
compilation, on every poll of the board (and again for each connection of a statement it prepared).
"""

from __future__ import annotations

import select
from typing import Any

from django.db.backends.postgresql import base

__all__ = ["DatabaseWrapper"]


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's PostgreSQL backend, its health check of a kept connection asking the socket first, its
    sessions without JIT compilation."""

    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        options = params.get("options") or ""
        if "jit" not in options:
            params["options"] = f"{options} -c jit=off".strip()
        return params

    def close_if_health_check_failed(self) -> None:
        if (
            self.connection is not None
            and self.health_check_enabled  # type: ignore[attr-defined]  # Django 5.2's (not in the stubs)
            and not self.health_check_done  # type: ignore[has-type]
            and not self.pool
            and self._quiet()
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()

    def _quiet(self) -> bool:
        """Whether the connection is open on this side and the server sent nothing since the last
        answer was read (nothing to read on its socket, asked without waiting)."""
        try:
            if self.connection.closed:
                return False
            poller = select.poll()
            poller.register(self.connection.fileno(), select.POLLIN)
            return not poller.poll(0)
        except Exception:  # closed under it, or anything unforeseen: Django's own check decides
            return False
