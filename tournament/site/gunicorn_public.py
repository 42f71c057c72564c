"""gunicorn's settings of the public pool (README, "Production"):
``gunicorn tournament.site.wsgi -c python:tournament.site.gunicorn_public -n guandan-public …``.

Each worker hands its listening sockets to :mod:`tournament.overload`, which reads their queue to
shed the pages' polls while the pool is saturated (result entry first), and makes the pool's lower
priority (``nice``) count against the other sessions' processes (the staff pool's, PostgreSQL's):
:func:`tournament.overload.priority_own_group`."""

from __future__ import annotations

from typing import Any

from tournament import overload


def post_worker_init(worker: Any) -> None:
    overload.listeners_set(worker.sockets)
    overload.priority_own_group()
