"""The Django side's one door to the rules core: which options apply, and its messages.

No rule is computed here. A stage **keeps the rules it was created with** (issue 13): when a stage
is created, :func:`stage_rules_resolve` resolves its profile (the stage's own, else the
tournament's) with the tournament's and then the stage's overrides, and the stage stores the result
(``Stage.rules``, :meth:`RuleOptions.to_json`). From then on :func:`rules_for_stage` — the one
function every page, service, standing and export asks — reads the stored options back; a later
change of a profile's definition in ``scoring.profiles`` never changes a running or finished event.

``Tournament.rule_profile`` / ``rule_overrides`` and ``Stage.rule_profile`` / ``rule_overrides`` stay
as what the organiser *chose* (shown by the profile's title; the starting point of stages created
later); they are not read again to score anything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from scoring.cards import CardError
from scoring.errors import ScoringError
from scoring.options import RuleOptions
from scoring.profiles import PROFILE_INFO, PROFILES, options_for
from tournament.locale import in_ui_language

if TYPE_CHECKING:
    from tournament.matches.models import Stage
    from tournament.registration.models import Tournament


def stage_rules_resolve(
    *, tournament: Tournament, rule_profile: str = "", rule_overrides: dict[str, Any] | None = None
) -> RuleOptions:
    """The options a stage created now starts with: its profile (or the tournament's) as
    ``scoring.profiles`` defines it today, with the tournament's overrides, then the stage's.

    Raises ScoringError (``unknown_profile``, ``bad_input``) for options that cannot work.
    """
    overrides: dict[str, Any] = {**tournament.rule_overrides, **(rule_overrides or {})}
    return options_for(profile=rule_profile or tournament.rule_profile, overrides=overrides)


@lru_cache(maxsize=256)
def _options_from_text(text: str) -> RuleOptions:
    return RuleOptions.from_json(json.loads(text))


def rules_for_stage(stage: Stage) -> RuleOptions:
    """A stage's match rules: the options stored with it when it was created (``Stage.rules``)."""
    # RuleOptions is frozen, so equal stored options can share one parsed value
    return _options_from_text(json.dumps(stage.rules, sort_keys=True))


def scoring_message(error: ScoringError | CardError) -> str:
    """The rules core's message in the active language (Chinese first)."""
    return in_ui_language(en=error.message, zh=error.message_zh)


# -- showing the rules ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProfileView:
    """A profile as an organiser or player recognises it: its title and the rulebook (seed) it follows."""

    name: str
    title: str
    seed: str


def profile_view(name: str) -> ProfileView:
    """The profile ``name`` by its title in the active language (not ``timed-40``)."""
    info = PROFILE_INFO.get(name)
    if info is None:
        return ProfileView(name=name, title=name, seed="")
    return ProfileView(name=name, title=in_ui_language(en=info.title, zh=info.title_zh), seed=info.seed)


def stage_profile_name(stage: Stage) -> str:
    """The profile a stage was created from (its own, else its tournament's)."""
    return stage.rule_profile or stage.tournament.rule_profile


def stage_rules_differences(stage: Stage) -> dict[str, Any]:
    """The stage's stored options that differ from its profile as ``scoring.profiles`` defines it now:
    the organiser's overrides, and anything the profile's definition changed since the stage was
    created (which this stage keeps)."""
    profile = PROFILES.get(stage_profile_name(stage))
    current = profile.to_json() if profile is not None else {}
    return {name: value for name, value in stage.rules.items() if current.get(name) != value}
