"""A Dou Dizhu round is finished when its last table of three is signed off, not its first: a table
of three has no second side, and only a pair's bye (N/S alone) is no table (``matches.models.BYE``)."""

from __future__ import annotations

import pytest

from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round, play_table
from tournament.matches.models import RoundStatus

pytestmark = pytest.mark.django_db


def test_the_round_ends_with_its_last_table_not_its_first(boss):
    _tournament, stage = doudizhu_event(players=9, boss=boss)
    round_ = drawn_round(stage, user=boss)
    first, second, third = round_.matches.order_by("table__number")
    deals = [{"landlord": "E", "bid": 1, "winner": "landlord"}] * 3
    play_table(first, deals, user=boss)
    round_.refresh_from_db()
    assert round_.status != RoundStatus.FINISHED  # tables 2 and 3 still playing
    play_table(second, deals, user=boss)
    play_table(third, deals, user=boss)
    round_.refresh_from_db()
    assert round_.status == RoundStatus.FINISHED
