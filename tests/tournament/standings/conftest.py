import pytest
from django.core.cache import cache

from tournament.standings import public_cache as cached_reads


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache (the version keys of one test never meet another's)."""
    cache.clear()
    yield
    cache.clear()


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
