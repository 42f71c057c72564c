"""Migration 0003: lots drawn for the prizes before they became the stage's own move to the stage they
ranked; a stage with lots of its own (what its pages and advancement showed) keeps them."""

from __future__ import annotations

import pytest

from tests.migrating import leaf_nodes, migrate
from tournament.matches.models import Stage

BEFORE = [("exports", "0002_column_ranges")]
AFTER = [("exports", "0003_prize_lots_are_the_stages")]

pytestmark = pytest.mark.django_db(transaction=True)


def _event(apps: object, *, chosen: bool, stage_lots: int | None, prize_lots: int) -> tuple[int, int]:
    Tournament = apps.get_model("registration", "Tournament")
    Stage = apps.get_model("matches", "Stage")
    PrizeRanking = apps.get_model("exports", "PrizeRanking")
    tournament = Tournament.objects.create(name="旧赛事", rule_profile="timed-40")
    options = {} if stage_lots is None else {"lots_seed": stage_lots}
    first = Stage.objects.create(
        tournament=tournament, name="预赛", format="swiss", order=1, rules={"x": 1}, options=options
    )
    last = Stage.objects.create(tournament=tournament, name="决赛", format="knockout", order=2, rules={"x": 1})
    PrizeRanking.objects.create(tournament=tournament, stage=first if chosen else None, lots_seed=prize_lots)
    return first.pk, last.pk


def test_the_prize_lots_move_to_the_stage_they_ranked_unless_it_has_its_own():
    try:
        apps = migrate(BEFORE)
        chosen, _ = _event(apps, chosen=True, stage_lots=None, prize_lots=11)
        _, last = _event(apps, chosen=False, stage_lots=None, prize_lots=22)
        own, _ = _event(apps, chosen=True, stage_lots=33, prize_lots=44)
        migrate(AFTER)
        assert Stage.objects.get(pk=chosen).settings.lots_seed == 11
        assert Stage.objects.get(pk=last).settings.lots_seed == 22  # no stage chosen: the last one
        assert Stage.objects.get(pk=own).settings.lots_seed == 33
    finally:
        migrate(leaf_nodes())
