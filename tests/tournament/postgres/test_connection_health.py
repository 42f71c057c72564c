"""A kept connection's health check (tournament/postgres/base.py): no statement while the server has
said nothing, and a connection the server ended is still found out and replaced before a request uses it."""

from __future__ import annotations

import select
import time

import pytest
from django.db import connection

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def kept():
    """A connection of its own, as a worker keeps it between requests (health checks on)."""
    other = connection.copy()
    other.settings_dict = {**other.settings_dict, "CONN_HEALTH_CHECKS": True}
    other.ensure_connection()
    yield other
    other.close()


def checked(kept, monkeypatch) -> list[int]:
    """A new request's health check of ``kept`` (as Django's request start readies it): whether Django's
    own check (``SELECT 1``) was asked, once per time it was."""
    asked: list[int] = []
    usable = type(kept).is_usable
    monkeypatch.setattr(kept, "is_usable", lambda: asked.append(1) or usable(kept))
    kept.health_check_done = False
    kept.close_if_health_check_failed()
    assert kept.health_check_done
    return asked


def test_a_quiet_kept_connection_is_kept_without_a_statement(kept, monkeypatch):
    raw = kept.connection
    assert checked(kept, monkeypatch) == []
    assert kept.connection is raw
    with kept.cursor() as cursor:
        cursor.execute("SELECT 2")
        assert cursor.fetchone() == (2,)
    assert checked(kept, monkeypatch) == [] and kept.connection is raw


def test_a_connection_the_server_ended_is_replaced_before_it_is_used(kept, monkeypatch):
    raw = kept.connection
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [raw.get_backend_pid()])
    poller = select.poll()
    poller.register(raw.fileno(), select.POLLIN)
    deadline = time.monotonic() + 30
    while not poller.poll(100) and time.monotonic() < deadline:  # the server's goodbye on its way
        pass
    assert checked(kept, monkeypatch) == [1]  # Django's own check asked, and failed
    assert kept.connection is None
    with kept.cursor() as cursor:  # a new connection
        cursor.execute("SELECT 3")
        assert cursor.fetchone() == (3,)
    assert kept.connection is not raw


def test_a_session_runs_without_jit_compilation_unless_the_options_say_otherwise(kept):
    """The progress board's state of every table, compiled by the server's JIT, took 70-100 ms instead of 11."""
    with kept.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone() == ("off",)
    other = connection.copy()
    other.settings_dict = {**other.settings_dict, "OPTIONS": {**other.settings_dict["OPTIONS"], "options": "-c jit=on"}}
    try:
        with other.cursor() as cursor:
            cursor.execute("SHOW jit")
            assert cursor.fetchone() == ("on",)
    finally:
        other.close()
