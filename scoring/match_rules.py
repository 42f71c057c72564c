"""The Guandan reducer's per-options lookup tables (:mod:`scoring.match`): the upgrade, points and
A-pass rules of docs/rules.md §1–3 turned into tuples indexed by the partner's place of 上游.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.errors import bad_input
from scoring.options import APass, AReset, Game, MatchFormat, RuleOptions

__all__ = ["RuleTables", "rule_tables"]


@dataclass(frozen=True, slots=True)
class RuleTables:
    """Per-options lookup tables, so a deal costs a few indexings instead of enum comparisons."""

    has_levels: bool
    best_of: bool
    points_by_place: tuple[int, ...]
    upgrade_by_place: tuple[int, ...]
    passes_by_place: tuple[bool, ...]
    """At the setter's own A, when the setter took 上游: does this partner's place pass A?"""
    passes_against_by_place: tuple[bool, ...]
    """At the setter's own A, when the opponents took 上游: does their partner's place pass the setter's
    A? (``side_not_last``, seed 003: the opponents' 1-4 leaves neither A player last)."""
    upgrade_from_2: bool
    """``a_reset: upgrade_from_2`` (seed 002)."""
    failure_limit: int
    fixed_deals: int
    games_to_win: int



_CACHE: dict[int, tuple[RuleOptions, RuleTables]] = {}


def rule_tables(options: RuleOptions) -> RuleTables:
    """The tables for ``options``, cached by identity: hashing a RuleOptions costs more than a short
    match's deals, and the same few option objects (profiles, an event's options) are used again and
    again. The entry keeps its options alive, so an id is never reused while cached."""
    entry = _CACHE.get(id(options))
    if entry is not None and entry[0] is options:
        return entry[1]
    rules = _rule_tables_build(options)
    if len(_CACHE) >= 256:
        _CACHE.clear()
    _CACHE[id(options)] = (options, rules)
    return rules


def _rule_tables_build(options: RuleOptions) -> RuleTables:
    if options.game is Game.DOUDIZHU:
        raise bad_input(
            "These are Dou Dizhu options; a Dou Dizhu table is played with scoring.doudizhu "
            "(DoudizhuTable, replay_table).",
            "这是斗地主的规则，请用斗地主的牌桌（scoring.doudizhu）。",
        )
    if options.game is not Game.GUANDAN:
        raise bad_input(
            "These are Tractor options; a Tractor match is played with TractorState (or replay).",
            "这是拖拉机的规则，请用拖拉机的比赛状态（或 replay）。",
        )
    # index = the partner's place of 上游 (2, 3 or 4)
    if options.a_pass is APass.ONE_TWO_ONLY:
        passes = (False, False, True, False, False)
    else:
        passes = (False, False, True, True, False)
    against = (False, False, False, False, options.a_pass is APass.SIDE_NOT_LAST)
    p2, p3, p4 = options.points_table
    u2, u3, u4 = options.upgrades
    return RuleTables(
        has_levels=options.has_levels,
        best_of=options.format is MatchFormat.BEST_OF,
        points_by_place=(0, 0, p2, p3, p4),
        upgrade_by_place=(0, 0, u2, u3, u4),
        passes_by_place=passes,
        passes_against_by_place=against,
        upgrade_from_2=options.a_reset is AReset.UPGRADE_FROM_2,
        failure_limit=options.a_failure_limit or 0,
        fixed_deals=options.deals or 0,
        games_to_win=options.games_to_win,
    )
