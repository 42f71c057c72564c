"""The Django side's one door to the rules core: which options apply, and its messages.

No rule is computed here. A stage **keeps the rules it was created with**: when a stage
is created, :func:`stage_rules_resolve` resolves its profile (the stage's own, else the
tournament's) with the tournament's and then the stage's overrides, and the stage stores the result
(``Stage.rules``, :meth:`RuleOptions.to_stored`). From then on :func:`rules_for_stage` — the one
function every page, service, standing and export asks — reads the stored options back, as options of
the tournament's game (``Tournament.game``, the one stored answer to "which game": the stage does not
store it again); a later change of a profile's definition in ``scoring.profiles`` never changes a
running or finished event.

``Tournament.rule_profile`` / ``rule_overrides`` and ``Stage.rule_profile`` / ``rule_overrides`` stay
as what the organiser *chose* (shown by the profile's title; the starting point of stages created
later); they are not read again to score anything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from scoring.conduct import TableConduct, table_conduct
from scoring.options import RuleOptions
from scoring.profiles import PROFILES, options_for


class ChosenRules(Protocol):
    """An event as the organiser set its rules up (``Tournament``): its game, a profile and overrides."""

    rule_profile: str
    rule_overrides: dict[str, Any]

    @property
    def game(self) -> str: ...


class StoredRules(Protocol):
    """A stage (``Stage``): the options stored with it, and what its organiser chose."""

    rules: dict[str, Any]
    rule_profile: str

    @property
    def tournament(self) -> ChosenRules: ...


def stage_rules_resolve(
    *, tournament: ChosenRules, rule_profile: str = "", rule_overrides: dict[str, Any] | None = None
) -> RuleOptions:
    """The options a stage created now starts with: its profile (or the tournament's) as
    ``scoring.profiles`` defines it today, with the tournament's overrides, then the stage's.

    Raises ScoringError (``unknown_profile``, ``bad_input``) for options that cannot work.
    """
    overrides: dict[str, Any] = {**tournament.rule_overrides, **(rule_overrides or {})}
    return options_for(profile=rule_profile or tournament.rule_profile, overrides=overrides)


@lru_cache(maxsize=256)
def _options_from_text(text: str, game: str) -> RuleOptions:
    return RuleOptions.from_stored(json.loads(text), game=game)


def rules_for_stage(stage: StoredRules) -> RuleOptions:
    """A stage's match rules: the options stored with it when it was created (``Stage.rules``), of its
    tournament's game; an option added since reads as it behaved then (:meth:`RuleOptions.from_stored`)."""
    return stored_rules_read(rules=stage.rules, game=stage.tournament.game)


def stored_rules_read(*, rules: Any, game: str) -> RuleOptions:
    """:func:`rules_for_stage` of a stage's stored options fetched alone (``Stage.rules``, the value a
    ``values_list`` read gives) and its tournament's game."""
    # RuleOptions is frozen, so equal stored options can share one parsed value
    return _options_from_text(json.dumps(rules, sort_keys=True), game)


# -- showing the rules ------------------------------------------------------------------------------


def stage_profile_name(stage: StoredRules) -> str:
    """The profile a stage was created from (its own, else its tournament's)."""
    return stage.rule_profile or stage.tournament.rule_profile


def stage_table_conduct(stage: StoredRules) -> TableConduct:
    """The conduct text the table and the referee read (docs/rules.md §7): the rules core's one text for
    the stage's profile (read with the stage's options: a Dou Dizhu stage drawing its landlords by lot does
    not bid), printed on the table sheet and shown on the entry page."""
    return table_conduct(stage_profile_name(stage), rules_for_stage(stage))


@dataclass(frozen=True, slots=True)
class RuleLine:
    """One option in force as a page lists it: its name, its stored JSON value, and whether it differs
    from the profile as defined now (an override, or a definition the stage kept)."""

    name: str
    value: Any
    changed: bool


def rules_lines(*, rules: dict[str, Any], profile: str, shown_first: tuple[str, ...]) -> tuple[RuleLine, ...]:
    """The options a page shows for stored ``rules`` created from ``profile``: ``shown_first`` (the ones
    that matter for the game, ``GameKind.shown_rules``) as the format has them, then every other option
    that differs from the profile."""
    defined = PROFILES.get(profile)
    current = defined.to_json() if defined is not None else {}
    points = rules.get("format") == "fixed_deals_points"
    skipped = {"deals", "games"}
    if rules.get("deals") is not None:
        skipped.discard("deals")
    if rules.get("games") is not None:
        skipped.discard("games")
    if points:  # every deal at 2 (seed 004): no levels, no A
        skipped |= {"upgrades", "a_pass", "a_failure_limit", "a_reset"}
    else:
        skipped.add("points_table")
    if rules.get("a_failure_limit") is None:
        skipped.add("a_reset")
    shown = [name for name in shown_first if name in rules and name not in skipped]
    shown += [name for name in rules if name not in shown and name not in skipped and current.get(name) != rules[name]]
    return tuple(RuleLine(name=name, value=rules[name], changed=current.get(name) != rules[name]) for name in shown)
