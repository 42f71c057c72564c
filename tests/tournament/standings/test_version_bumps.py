"""A result's versions are bumped in one round trip on Redis (one script for the four or five keys a
deal moves), each as one bump would: a version there goes up by one, a missing one starts from the
clock (newer than any value it held before), with its timeout."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache

from tournament.standings import cache as public_cache
from tournament.standings.cache import match_result_bump, own_key, public_version_get

pytestmark = [pytest.mark.redis, pytest.mark.django_db]


def test_a_results_bumps_take_one_round_trip_each_as_one_bump_would(monkeypatch):
    cache.clear()
    owns = [own_key(tournament_id=7, kind=kind, pk=pk) for kind, pk in (("match", 3), ("pair", 4), ("pair", 5))]
    cache.set(owns[1], 41, timeout=None)
    before = time.time_ns()
    client = cache.client.get_client(write=True)
    calls = []

    def counted(*args, **kwargs):
        calls.append(args)
        return type(client).execute_command(client, *args, **kwargs)

    monkeypatch.setattr(client, "execute_command", counted)
    match_result_bump(tournament_id=7, match_id=3, pair_ids=(4, 5), standings=True)
    assert len(calls) == 1  # public, standings and the three own versions: one script
    assert cache.get(owns[1]) == 42  # there: one up
    for key in (owns[0], owns[2]):
        assert cache.get(key) >= before  # missing: from the clock
        assert 0 < cache.ttl(key) <= public_cache.ENTRY_TIMEOUT
    version = public_version_get(tournament_id=7)
    assert version >= before and 0 < cache.ttl(f"{public_cache.PREFIX}:version:7") <= public_cache.VERSION_TIMEOUT
    match_result_bump(tournament_id=7, match_id=3, pair_ids=(4, 5), standings=False)
    assert public_version_get(tournament_id=7) == version + 1 and cache.get(owns[1]) == 43


def test_a_cache_that_is_down_leaves_the_write_alone(monkeypatch, caplog):
    client = cache.client.get_client(write=True)

    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(client, "eval", down)
    match_result_bump(tournament_id=8, match_id=1, pair_ids=(2, None), standings=True)
    assert "could not bump" in caplog.text
