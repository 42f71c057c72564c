"""The Django side's one door to the rules core: which options apply, and its messages.

No rule is computed here; this only resolves *which* rules apply to a tournament or stage (the
tournament's profile and overrides, then the stage's) and shows the rules core's errors in the
user's language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scoring.cards import CardError
from scoring.errors import ScoringError
from scoring.options import RuleOptions
from scoring.profiles import options_for
from tournament.locale import in_ui_language

if TYPE_CHECKING:
    from tournament.matches.models import Stage


def rules_for_stage(stage: Stage) -> RuleOptions:
    """A stage's match rules: its own profile (or the tournament's) with both sets of overrides."""
    tournament = stage.tournament
    overrides: dict[str, Any] = {**tournament.rule_overrides, **stage.rule_overrides}
    return options_for(profile=stage.rule_profile or tournament.rule_profile, overrides=overrides)


def scoring_message(error: ScoringError | CardError) -> str:
    """The rules core's message in the active language (Chinese first)."""
    return in_ui_language(en=error.message, zh=error.message_zh)
