import pytest
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from tournament.standings import public_cache as cached_reads


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache (the version keys of one test never meet another's)."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def connections_kept():
    """For tests that call a WSGI application directly, as Django's test client does: a request's end
    must not close the test's database connection (on PostgreSQL it holds the test's transaction)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def client():
    """An anonymous visitor reading English (assertions are in English; Chinese is tested apart)."""
    from django.conf import settings
    from django.test import Client

    client = Client(headers={"Accept-Language": "en"})
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def builds(monkeypatch):
    """Every standings build, by stage id."""
    made: list[int] = []
    real = cached_reads.standings_get

    def counting(*, tournament_id, stage_id):
        made.append(stage_id)
        return real(tournament_id=tournament_id, stage_id=stage_id)

    monkeypatch.setattr(cached_reads, "standings_get", counting)
    return made
