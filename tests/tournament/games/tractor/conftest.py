"""A Tractor (拖拉机, seed 001) event's match at a table, with its referee and organiser."""

import pytest

from tests.factories import organiser, referee, table_match
from tournament.registration.models import Game


@pytest.fixture(autouse=True)
def _eager_tasks_and_fast_passwords(celery_eager, fast_passwords):
    """Every test here: tasks run in-process and logins hash quickly (fixtures in tests/conftest.py)."""


def tractor_match(**kwargs):
    """A match at a table of a published round of a Tractor event (profile ``tractor-3deck``)."""
    match = table_match(profile="tractor-3deck", **kwargs)
    tournament = match.round.stage.tournament
    tournament.game = Game.TRACTOR
    tournament.save(update_fields=["game"])
    return match


@pytest.fixture
def make_tractor_match(db):
    return tractor_match


@pytest.fixture
def ref(db):
    return referee(username="ref")


@pytest.fixture
def boss(db):
    return organiser(username="boss")


@pytest.fixture
def match(ref, boss):
    return tractor_match(referee_user=ref, organiser_user=boss)
