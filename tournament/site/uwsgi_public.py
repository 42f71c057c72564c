"""The public pool's application under uWSGI (``tournament/site/uwsgi.ini``, section ``public``):
``tournament.site.wsgi``'s, with each worker readied for overload.

Each worker hands its listening sockets to :mod:`tournament.overload`, which reads their queue to
shed the pages' polls while the pool is saturated (result entry first), and makes the pool's lower
priority (``nice``) count against the other sessions' processes (the staff pool's, PostgreSQL's):
:func:`tournament.overload.priority_own_group`. uWSGI imports this module in each worker after its
fork (``lazy-apps``), so that happens once per worker, in the worker; imported before a fork it
would set up the master instead (which cannot take a session of its own), so it refuses to.
"""

from __future__ import annotations

import os
import socket

import uwsgi

from tournament import overload
from tournament.site.wsgi import application

__all__ = ["application"]

if uwsgi.worker_id() <= 0:
    raise RuntimeError("the public pool's application is loaded in each worker: uWSGI's lazy-apps")
# uWSGI's listening sockets are file descriptors; each is duplicated into a socket object of its own
# (closing one never closes uWSGI's).
overload.listeners_set([socket.socket(fileno=os.dup(fd)) for fd in uwsgi.sockets])
overload.priority_own_group()
