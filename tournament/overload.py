"""Result entry first: the public pool sheds its phones' polls while its queue is long.

Both pools may share the same cores (README, "Production"). When the public pool is saturated,
its queue of connections grows in the kernel (the listening socket's accept queue) and every
request waits behind it — and so would the deals, for the CPU, if the public pool took it all. So
a public worker looks at its own listening socket's queue before it builds anything (one
``getsockopt``: the kernel counts the connections waiting to be accepted; uWSGI has a connection
queued only once its request has arrived, ``TCP_DEFER_ACCEPT``, so they are requests), and while
that queue is at least ``PUBLIC_SHED_QUEUE`` it answers a live page's *poll* (an htmx request of
a page the phone already shows, with its ``v=``) with an empty 503 and ``Retry-After``: nobody
waits for a poll, the page stays as it is, and ``static/js/public.js`` holds every poll of that
page until the time said. What a person waits for (a find, a page opened) is never shed. The public pool
also runs at a lower CPU priority than the staff pool (``nice``), so a deal is never the one
that waits for a core.

A nice value only ranks a process against the others of its own *task group*, though: Linux's
autogroups (``kernel.sched_autogroup_enabled``, on by default) put each session in a group of its own
and share the CPU between groups, whatever their processes' nice values. A pool started in a session
of its own (a systemd unit, a bench's ``start_new_session``) then got as much CPU at ``nice 10`` as at
0 (measured: two busy loops at 19 beside two at 0, each pair in a session of its own, got the same
CPU time; in one session, 2 % of it). So each public worker makes its nice value count
(:func:`priority_own_group`): it takes a session, hence an autogroup, of its own and gives that group
its nice value, below the staff pool's and PostgreSQL's groups whichever session started it.

The listening sockets are the worker's, handed over once uWSGI has started the worker
(``tournament/site/uwsgi_public.py``, the public pool's application); a worker without them (the
staff pool, ``runserver``, a test) never sheds. Linux's ``TCP_INFO`` of a listening socket carries the
accept queue's length (``tcpi_unacked``); elsewhere nothing is shed.
"""

from __future__ import annotations

import os
import socket
import struct
from collections.abc import Iterable
from pathlib import Path
from typing import Any

_TCP_INFO = getattr(socket, "TCP_INFO", None)
_UNACKED_AT = 24
"""``tcpi_unacked``'s offset in ``struct tcp_info`` (eight one-byte fields, then rto, ato, snd_mss,
rcv_mss as 32-bit words): on a listening socket, the connections waiting to be accepted."""

_listeners: list[socket.socket] = []


def listeners_set(sockets: Iterable[socket.socket]) -> None:
    """This worker's listening sockets (uWSGI's, each a socket object of its own)."""
    _listeners[:] = sockets


def queue_length() -> int:
    """The connections waiting in this worker's listening sockets' queues (0 when unknown)."""
    if _TCP_INFO is None:
        return 0
    waiting = 0
    for listener in _listeners:
        try:
            info = listener.getsockopt(socket.IPPROTO_TCP, _TCP_INFO, 104)
        except OSError:
            continue
        if len(info) >= _UNACKED_AT + 4:
            waiting += struct.unpack_from("I", info, _UNACKED_AT)[0]
    return waiting


def poll_shed(environ: dict[str, Any], *, threshold: int) -> bool:
    """Whether to answer this request with a 503: a live page's poll while the queue is long."""
    if threshold <= 0 or not _listeners:
        return False
    if environ.get("REQUEST_METHOD") != "GET" or environ.get("HTTP_HX_REQUEST") != "true":
        return False
    if "v=" not in environ.get("QUERY_STRING", ""):
        return False
    return queue_length() >= threshold


AUTOGROUP = Path("/proc/self/autogroup")
AUTOGROUP_ENABLED = Path("/proc/sys/kernel/sched_autogroup_enabled")


def priority_own_group() -> bool:
    """Make this process's nice value count against the other sessions' processes (module
    docstring): where autogroups are on and the process runs below the normal priority (``nice``),
    it takes a session of its own (a new autogroup) and gives the group its nice value. Whether it
    did; elsewhere (no autogroups, the normal priority) nothing changes. A forked worker's to call
    (the master of a process group cannot take a session)."""
    nice = os.nice(0)
    try:
        if nice <= 0 or AUTOGROUP_ENABLED.read_text().strip() != "1":
            return False
        os.setsid()
        AUTOGROUP.write_text(str(nice))
    except OSError:
        return False
    return True
