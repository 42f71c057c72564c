"""Migration 0019: a stage's stored rules stop holding the game (the tournament stores it, once), and read
the same as before; going back writes the game again from the tournament."""

from __future__ import annotations

import pytest

from scoring.options import RuleOptions
from scoring.profiles import options_for
from tests.migrating import leaf_nodes, migrate
from tournament.matches.models import Stage
from tournament.rules import rules_for_stage

BEFORE = [("matches", "0018_team_knockout")]
AFTER = [("matches", "0019_stage_rules_without_game")]

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_stage_rules_lose_the_game_and_read_the_same():
    doudizhu = options_for(profile="doudizhu", overrides={"deal_scoring": "cards_left"})
    try:
        apps = migrate(BEFORE)
        Tournament = apps.get_model("registration", "Tournament")
        OldStage = apps.get_model("matches", "Stage")
        ddz = Tournament.objects.create(name="斗地主赛", game="doudizhu", rule_profile="doudizhu")
        tractor = Tournament.objects.create(name="拖拉机赛", game="tractor", rule_profile="tractor-3deck")
        full = OldStage.objects.create(tournament=ddz, name="预赛", format="points", rules=doudizhu.to_json())
        # stored before the later Dou Dizhu options: they read as they were scored then
        older = {k: v for k, v in doudizhu.to_json().items() if k not in ("landlord_rotation", "cards_left_winner")}
        kept = OldStage.objects.create(tournament=ddz, name="决赛", format="points", order=2, rules=older)
        bare = OldStage.objects.create(tournament=tractor, name="预赛", format="swiss", rules={"game": "tractor"})
        ids = (full.pk, kept.pk, bare.pk)
        migrate(AFTER)
        read = {pk: Stage.objects.select_related("tournament").get(pk=pk) for pk in ids}
        assert all("game" not in stage.rules for stage in read.values())
        assert rules_for_stage(read[full.pk]) == doudizhu
        assert rules_for_stage(read[kept.pk]).landlord_rotation.value == "none"  # still the older reading
        # a row holding nothing but the game is written out in full: the defaults of Tractor, not empty
        assert read[bare.pk].rules and rules_for_stage(read[bare.pk]).game.value == "tractor"
        assert rules_for_stage(read[bare.pk]) == RuleOptions.from_json({"game": "tractor"})
        apps = migrate(BEFORE)
        back = apps.get_model("matches", "Stage").objects.get(pk=full.pk)
        assert back.rules == doudizhu.to_json()
    finally:
        migrate(leaf_nodes())
