"""Helpers for the draw service and page tests: a field of pairs, results entered and signed off."""

from __future__ import annotations

import pytest

from tests.factories import PairFactory, TournamentFactory
from tournament.celery import app
from tournament.matches.models import Match, MatchStatus
from tournament.matches.services import deal_record, match_sign_off


@pytest.fixture(autouse=True)
def celery_eager():
    """Time-up tasks (started rounds) run in-process, never on a shared broker."""
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


def make_field(pairs: int, *, seeds: bool = False, tournament=None):
    tournament = tournament or TournamentFactory(rule_profile="timed-40")
    for number in range(1, pairs + 1):
        PairFactory(tournament=tournament, seed=number if seeds else None)
    return tournament


def win(match: Match, side: str = "NS") -> Match:
    """Enter a result: ``side`` wins every deal until the match is over (five deals to pass A)."""
    order = ["N", "S"] if side == "NS" else ["E", "W"]
    match.refresh_from_db()
    while match.status not in (MatchStatus.FINISHED, MatchStatus.CONFIRMED):
        deal_record(match_id=match.pk, outcome={"order": order})
        match.refresh_from_db()
    return match


def confirm(match: Match, side: str = "NS") -> Match:
    win(match, side)
    return match_sign_off(match_id=match.pk)
