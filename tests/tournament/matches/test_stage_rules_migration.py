"""Migration 0003: an event created before the profiles followed their rulebooks keeps its results
(its stages store the old rules).

A plain MigrationExecutor test: on an empty database of its own, migrate forward to before the change,
write the event as it stood then (a stage row without stored rules, profile timed-40, a 1-2 finish),
migrate forward and replay. (Forward only from an empty database: going back from today's schema cost
each test twice as much; tests/migrating.py says why.)
"""

from __future__ import annotations

import pytest
from django.db import transaction

from scoring.profiles import PROFILES
from tests.migrating import empty_database, leaf_nodes, migrate
from tournament.matches.fold import match_replay
from tournament.matches.models import Match, Stage
from tournament.rules import rules_for_stage

BEFORE = [("matches", "0002_clock_adjustments_chief_referee"), ("registration", "0004_entry_mode")]
AFTER = [("matches", "0003_stage_rules"), ("registration", "0007_pair_number")]  # pairs get their numbers

pytestmark = pytest.mark.django_db(transaction=True)


def _old_event(apps: object, *, profile: str, rule_overrides: dict | None = None, stage_overrides: dict | None = None):
    Tournament = apps.get_model("registration", "Tournament")
    Pair = apps.get_model("registration", "Pair")
    Stage = apps.get_model("matches", "Stage")
    Round = apps.get_model("matches", "Round")
    Match = apps.get_model("matches", "Match")
    Deal = apps.get_model("matches", "Deal")
    tournament = Tournament.objects.create(name="旧赛事", rule_profile=profile, rule_overrides=rule_overrides or {})
    stage = Stage.objects.create(
        tournament=tournament, name="预赛", format="swiss", order=1, rule_overrides=stage_overrides or {}
    )
    round_ = Round.objects.create(stage=stage, number=1, status="running")
    ns = Pair.objects.create(tournament=tournament, name="南北对")
    ew = Pair.objects.create(tournament=tournament, name="东西对")
    match = Match.objects.create(round=round_, ns_pair=ns, ew_pair=ew, status="running")
    Deal.objects.create(match=match, number=1, outcome={"order": ["N", "S"]})  # N/S finish 1-2 (双下)
    return stage.pk, match.pk


def _replayed(match_id: int) -> Match:
    with transaction.atomic():
        match = Match.objects.select_related("round__stage__tournament").get(pk=match_id)
        match_replay(match=match)
    return match


def test_a_timed_40_event_from_before_the_change_replays_to_the_same_result():
    with empty_database():
        apps = migrate(BEFORE)
        stage_id, match_id = _old_event(apps, profile="timed-40")
        migrate(AFTER)
        # read with today's models, so on today's schema (the later migrations read the rules the same)
        migrate(leaf_nodes())
        stage = Stage.objects.select_related("tournament").get(pk=stage_id)
        rules = rules_for_stage(stage)
        assert rules.time_cap_minutes == 40 and rules.a_failure_limit == 3
        assert rules.to_json()["upgrades"] == {"1-2": 3, "1-3": 2, "1-4": 1}  # the old table, kept
        assert rules.to_json()["a_pass"] == "top_and_partner_not_last"
        match = _replayed(match_id)
        assert match.state["levels"] == {"NS": 5, "EW": 2}  # +3 as before, not timed-40's new +5
        # the profile itself moved on: a stage created now plays the new table
        assert PROFILES["timed-40"].to_json()["upgrades"]["1-2"] == 5


def test_the_stage_and_tournament_overrides_are_applied_to_the_old_profile():
    with empty_database():
        apps = migrate(BEFORE)
        stage_id, _match_id = _old_event(
            apps,
            profile="points-6",
            rule_overrides={"time_up_tie": "draw"},
            stage_overrides={"format": "level_game", "a_failure_limit": 3},
        )
        migrate(AFTER)
        migrate(leaf_nodes())  # today's models, today's schema
        rules = rules_for_stage(Stage.objects.select_related("tournament").get(pk=stage_id))
        assert rules.format.value == "level_game" and rules.deals is None  # the format change clears deals
        assert rules.a_failure_limit == 3 and rules.time_up_tie.value == "draw"
        assert [band.penalty.value for band in rules.late_arrival_bands][1] == "level_penalty"
