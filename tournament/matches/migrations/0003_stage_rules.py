"""Stages keep the rules they were created with.

``Stage.rules`` stores the options in force. For the stages that exist before this migration they
are computed from the rule profiles **as they were defined before they were made to follow their rulebooks** (frozen
below as literal JSON, so that a later change of ``scoring.profiles`` cannot reach back into this
migration), with the tournament's overrides and then the stage's, exactly as
``tournament.rules.rules_for_stage`` resolved them until now. A running or finished event so
replays to the results it had (e.g. timed-40 kept +3/+2/+1 and the default A pass).

The options added with that change are frozen at the values that reproduce the old behaviour: upgrades
+3/+2/+1, ``a_reset: to_2`` (the reset side plays on from 2), ``wild_reading: largest``.
"""

import copy

from django.db import migrations, models

_DEFAULT_TIE_BREAKERS = ["match_points", "small_points", "levels_sum", "head_to_head", "buchholz", "wins", "lots"]
_LEVEL_LATE_ARRIVAL = [
    {"up_to_minutes": 5, "penalty": "warning", "amount": 0},
    {"up_to_minutes": 10, "penalty": "level_penalty", "amount": 1},
    {"up_to_minutes": 15, "penalty": "level_penalty", "amount": 2},
    {"up_to_minutes": 20, "penalty": "forfeit_first_deal", "amount": 3},
    {"up_to_minutes": None, "penalty": "forfeit_match", "amount": 0},
]
_BASE = {
    "game": "guandan",
    "format": "level_game",
    "deals": None,
    "games": None,
    "a_pass": "top_and_partner_not_last",
    "a_failure_limit": None,
    "time_cap_minutes": None,
    "at_time_up": "finish_current_deal",
    "time_up_tie": "first_to_reach",
    "points_table": {"1-2": 3, "1-3": 2, "1-4": 1},
    "tribute_variant": "standard",
    "match_points": {"win": 2, "draw": 1, "loss": 0},
    "tie_breakers": _DEFAULT_TIE_BREAKERS,
    "small_points": "level_difference",
    "bye_result": "win",
    "bye_margin": 0,
    "forfeit_margin": 13,
    "late_arrival": _LEVEL_LATE_ARRIVAL,
    # options added with the profiles' rulebooks, at the values that were the only behaviour before it
    "upgrades": {"1-2": 3, "1-3": 2, "1-4": 1},
    "a_reset": "to_2",
    "wild_reading": "largest",
}
OLD_PROFILES = {
    "classic": {**_BASE, "tribute_variant": "seed_000"},
    "timed-40": {**_BASE, "a_failure_limit": 3, "time_cap_minutes": 40},
    "timed-90": {**_BASE, "a_failure_limit": 3, "time_cap_minutes": 90, "time_up_tie": "extra_deal"},
    "points-6": {
        **_BASE,
        "format": "fixed_deals_points",
        "deals": 6,
        "time_up_tie": "extra_deal",
        "tie_breakers": ["match_points", "deal_points", "head_to_head", "buchholz", "wins", "lots"],
        "late_arrival": [
            {"up_to_minutes": 5, "penalty": "warning", "amount": 0},
            {"up_to_minutes": 10, "penalty": "point_deduction", "amount": 1},
            {"up_to_minutes": 15, "penalty": "point_deduction", "amount": 2},
            {"up_to_minutes": 20, "penalty": "forfeit_first_deal", "amount": 3},
            {"up_to_minutes": None, "penalty": "forfeit_match", "amount": 0},
        ],
    },
    "tractor-3deck": {
        **_BASE,
        "game": "tractor",
        "at_time_up": "one_more_deal",
        "late_arrival": [
            {"up_to_minutes": 5, "penalty": "warning", "amount": 0},
            {"up_to_minutes": 10, "penalty": "point_deduction", "amount": 20},
            {"up_to_minutes": 15, "penalty": "point_deduction", "amount": 30},
            {"up_to_minutes": 20, "penalty": "forfeit_first_deal", "amount": 1},
            {"up_to_minutes": None, "penalty": "forfeit_match", "amount": 0},
        ],
    },
}
"""Every profile of ``scoring.profiles`` as it stood before this migration (its ``to_json()``)."""


def old_rules(profile, overrides):
    """The options a stage had before this migration: the frozen profile with the overrides applied the
    way the rules core applies them (a format change clears the old format's deals/games …)."""
    from scoring.options import RuleOptions

    frozen = copy.deepcopy(OLD_PROFILES[profile])
    return RuleOptions.from_json(frozen).with_overrides(overrides).to_json()


def store_rules(apps, schema_editor):
    Stage = apps.get_model("matches", "Stage")
    for stage in Stage.objects.select_related("tournament").filter(rules={}):
        tournament = stage.tournament
        overrides = {**tournament.rule_overrides, **stage.rule_overrides}
        stage.rules = old_rules(stage.rule_profile or tournament.rule_profile, overrides)
        stage.save(update_fields=["rules"])


class Migration(migrations.Migration):

    dependencies = [
        ("matches", "0002_clock_adjustments_chief_referee"),
        ("registration", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalstage",
            name="rules",
            field=models.JSONField(default=dict, verbose_name="rules in force"),
        ),
        migrations.AddField(
            model_name="stage",
            name="rules",
            field=models.JSONField(default=dict, verbose_name="rules in force"),
        ),
        # nothing to undo backwards: the field goes with the schema change
        migrations.RunPython(store_rules, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="stage",
            constraint=models.CheckConstraint(condition=models.Q(("rules", {}), _negated=True), name="stage_rules_stored"),
        ),
    ]
