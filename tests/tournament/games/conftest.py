"""The games' tests: a Dou Dizhu event (``doudizhu_event``) and a Tractor match at a table, each with its
referee and organiser."""

from __future__ import annotations

import pytest

from tests.factories import organiser, referee, table_match
from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round
from tournament.registration.models import Game


@pytest.fixture(autouse=True)
def _eager_tasks_and_fast_passwords(celery_eager, fast_passwords):
    """Every test here: tasks run in-process and logins hash quickly (fixtures in tests/conftest.py)."""


@pytest.fixture
def ref(db):
    return referee(username="ref")


@pytest.fixture
def boss(db):
    return organiser(username="boss")


# -- Dou Dizhu: nine players and a points stage ----------------------------------------------------------


@pytest.fixture
def event(boss):
    return doudizhu_event(players=9, boss=boss)


@pytest.fixture
def table(event, ref, boss):
    """The first table of a published round 1 of nine players, with its referee."""
    _tournament, stage = event
    round_ = drawn_round(stage, referee_user=ref, user=boss)
    return round_.matches.order_by("table__number").first()


# -- Tractor (拖拉机, seed 001): a match at a table ------------------------------------------------------


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
def match(ref, boss):
    return tractor_match(referee_user=ref, organiser_user=boss)
