"""The rules a page shows for a stage: its event's game's options first (``GameKind.shown_rules``),
then what differs from the profile (``tournament.rules.rules_lines``). Here, above the core's rules
module, so that the core never asks the games registry (the registry reads the core, not back)."""

from __future__ import annotations

from tournament.games.base import UnknownGame, game_of
from tournament.labels import rules_title
from tournament.rules import RuleLine, StoredRules, rules_for_stage, rules_lines, stage_profile_name


def stage_rules_lines(stage: StoredRules) -> tuple[RuleLine, ...]:
    """:func:`rules_lines` of a stage's stored rules with its event's game (``Tournament.game``, the one
    stored answer: the stage's rules do not hold it), the options of that game first."""
    try:
        first = game_of(stage.tournament).shown_rules
    except UnknownGame:  # a game without pages: what differs
        first = ()
    stored = {name: value for name, value in stage.rules.items() if name != "game"}
    rules = {"game": stage.tournament.game, **stored}
    return rules_lines(rules=rules, profile=stage_profile_name(stage), shown_first=first)


def stage_rules_title(stage: StoredRules) -> str:
    """The heading of a stage's rules: the scoring in force, not the profile's when the event's or the
    stage's options changed it (``labels.rules_title``; a Dou Dizhu event scored by cards left)."""
    return rules_title(profile=stage_profile_name(stage), options=rules_for_stage(stage))
