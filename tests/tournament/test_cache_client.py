"""The shared cache's client (tournament/cache_client.py) reads what django-redis's reads, over a
connection each thread keeps, and recovers from a lost one."""

from __future__ import annotations

import gc
import os
import threading
from typing import Any

import pytest
from django.core.cache import cache
from django_redis.client import DefaultClient
from django_redis.exceptions import ConnectionInterrupted

from tournament.cache_client import HeldConnectionClient

pytestmark = pytest.mark.redis


@pytest.fixture
def client() -> HeldConnectionClient:
    ours = cache.client
    assert isinstance(ours, HeldConnectionClient), "the settings' Redis cache uses it"
    return ours


@pytest.fixture
def theirs(client: HeldConnectionClient) -> DefaultClient:
    """django-redis's own client on the same server and options."""
    return DefaultClient(client._server, client._params, client._backend)


VALUES: dict[str, Any] = {
    "test-cache-client:int": 1_733_000_000_000_000_001,
    "test-cache-client:text": "王小明",
    "test-cache-client:tuple": ("a", 1, None, {"b": [2, 3]}),
    "test-cache-client:none": None,
}


def test_reads_are_django_redis_reads(client, theirs):
    cache.set_many(VALUES, timeout=60)
    keys = [*VALUES, "test-cache-client:missing"]
    assert client.get_many(keys) == theirs.get_many(keys) == {key: value for key, value in VALUES.items()}
    for key in keys:
        assert client.get(key, default="absent") == theirs.get(key, default="absent")
    assert client.get("test-cache-client:missing", default="absent") == "absent"
    assert client.get_many([]) == {}
    cache.set("test-cache-client:versioned", "v2", version=2, timeout=60)
    assert client.get("test-cache-client:versioned", version=2) == "v2"
    assert client.get_many(["test-cache-client:versioned"], version=2) == {"test-cache-client:versioned": "v2"}
    assert client.get("test-cache-client:versioned") is None


def test_writes_are_django_redis_writes_in_one_round_trip_each(client, theirs, monkeypatch):
    """``set`` (``add`` too) and ``set_many`` store what django-redis's store, with the same expiry,
    over the kept connection: one round trip each, none through the pool."""
    client.get("test-cache-client:any")
    _pid, connection = client._held.connection
    sent: list[Any] = []
    send = connection.send_packed_command

    def counted(command: Any, check_health: bool = True) -> Any:
        sent.append(command)
        return send(command, check_health)

    monkeypatch.setattr(connection, "send_packed_command", counted)
    pooled = client.get_client(write=True).connection_pool
    in_pool = pooled._created_connections
    assert cache.set("test-cache-client:set", ("王", 2), timeout=60) is True
    assert cache.add("test-cache-client:set", "other", timeout=60) is False  # there: NX leaves it
    assert cache.add("test-cache-client:added", 5, timeout=None) is True
    cache.set_many(VALUES, timeout=30)
    assert len(sent) == 4 and pooled._created_connections == in_pool
    assert theirs.get("test-cache-client:set") == ("王", 2) and theirs.get("test-cache-client:added") == 5
    assert theirs.get_many(list(VALUES)) == VALUES
    assert 50 < cache.ttl("test-cache-client:set") <= 60 and cache.ttl("test-cache-client:added") is None
    assert all(0 < cache.ttl(key) <= 30 for key in VALUES)
    cache.set("test-cache-client:set", 1, timeout=0)  # as django-redis: a timeout of 0 deletes
    assert theirs.get("test-cache-client:set", default="gone") == "gone"
    answers = client.exchange(
        [("SET", client.make_key("test-cache-client:n"), 1), ("INCR", client.make_key("test-cache-client:n"))]
    )
    assert answers[1] == 2 and len(sent) == 5  # several commands, one round trip


def test_a_connection_closed_by_the_server_is_replaced(client):
    cache.set("test-cache-client:after", 7, timeout=60)
    assert client.get("test-cache-client:after") == 7
    _pid, connection = client._held.connection
    redis = client.get_client(write=True)
    redis.execute_command("CLIENT", "KILL", "ID", _client_id(client))
    assert client.get("test-cache-client:after") == 7  # asked again on a new connection
    assert client._held.connection[1] is not connection


def test_a_failure_drops_the_connection_and_is_the_caches_failure(client, monkeypatch):
    client.get("test-cache-client:any")
    _pid, connection = client._held.connection

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise TimeoutError("no answer in time")

    monkeypatch.setattr(connection, "read_response", broken)
    with pytest.raises(ConnectionInterrupted):
        client.get_many(["test-cache-client:any"])
    assert client._held.connection is None  # the half-read connection never meets another command
    monkeypatch.undo()
    cache.set("test-cache-client:any", 3, timeout=60)
    assert client.get_many(["test-cache-client:any"]) == {"test-cache-client:any": 3}


def test_a_forked_process_opens_its_own_connection(client):
    client.get("test-cache-client:any")
    _pid, parents = client._held.connection
    client._held.connection = (os.getpid() + 1, parents)  # as a child sees what its parent kept
    client.get("test-cache-client:any")
    assert client._held.connection[1] is not parents and client._held.connection[0] == os.getpid()


def test_a_thread_that_ends_closes_its_connection(client):
    """A threaded server (runserver, a test's live server) runs each request in a thread of its
    own: each thread's connection closes with it, none is left counted in use by the pool nor
    open on the server."""
    redis = client.get_client(write=True)
    name = "test-cache-client-thread"

    def read() -> None:
        client.get("test-cache-client:any")
        _pid, connection = client._held.connection
        connection.send_command("CLIENT", "SETNAME", name)
        connection.read_response()

    def named() -> int:
        return sum(1 for each in redis.client_list() if each.get("name") == name)

    for _ in range(20):
        thread = threading.Thread(target=read)
        thread.start()
        thread.join()
    gc.collect()
    assert named() == 0
    assert len(redis.connection_pool._in_use_connections) == 0


def _client_id(client: HeldConnectionClient) -> int:
    _pid, connection = client._held.connection
    connection.send_command("CLIENT", "ID")
    return int(connection.read_response())
