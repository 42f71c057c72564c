"""Named rule profiles: each seed's own choices (RULES.md; seeds 000–004), and per-event overrides.

============== ====== ==========================================================================
profile        seed   what it is
============== ====== ==========================================================================
classic        000    开发区 rulebook: one game 2→A, untimed, no triple-A reset (keep playing A until
                      passed or time is up), first_to_reach if time is called
timed-40       002    终审稿: 40 minutes, triple-A reset, equal levels at time → first to reach wins
timed-90       003    联鑫钢铁 knockout: 90 minutes, triple-A reset, equal levels → one extra deal
points-6       004    company knockout: six deals, all at 2, scored 3/2/1; a tie → one extra deal
tractor-3deck  001    three-deck Tractor: the seed-001 table; last 10 minutes → one more deal
============== ====== ==========================================================================

An organiser picks a profile and may override any option (:func:`options_for`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from scoring.errors import ErrorCode, ScoringError
from scoring.options import (
    AtTimeUp,
    Game,
    MatchFormat,
    RuleOptions,
    TimeUpTie,
    TributeVariant,
)

__all__ = ["PROFILES", "PROFILE_INFO", "ProfileInfo", "options_for", "profiles_json"]


@dataclass(frozen=True, slots=True)
class ProfileInfo:
    """Where a profile comes from, in words an organiser recognises."""

    seed: str
    title: str
    title_zh: str


PROFILES: Mapping[str, RuleOptions] = MappingProxyType(
    {
        "classic": RuleOptions(
            a_failure_limit=None,
            time_cap_minutes=None,
            time_up_tie=TimeUpTie.FIRST_TO_REACH,
            tribute_variant=TributeVariant.SEED_000,
        ),
        "timed-40": RuleOptions(
            a_failure_limit=3,
            time_cap_minutes=40,
            time_up_tie=TimeUpTie.FIRST_TO_REACH,
        ),
        "timed-90": RuleOptions(
            a_failure_limit=3,
            time_cap_minutes=90,
            time_up_tie=TimeUpTie.EXTRA_DEAL,
        ),
        "points-6": RuleOptions(
            format=MatchFormat.FIXED_DEALS_POINTS,
            deals=6,
            points_table=(3, 2, 1),
            time_up_tie=TimeUpTie.EXTRA_DEAL,
            tie_breakers=("match_points", "deal_points", "head_to_head", "buchholz", "wins", "lots"),
        ),
        "tractor-3deck": RuleOptions(
            game=Game.TRACTOR,
            at_time_up=AtTimeUp.ONE_MORE_DEAL,
            time_up_tie=TimeUpTie.FIRST_TO_REACH,
        ),
    }
)
"""Profile name → its options (read-only)."""

PROFILE_INFO: Mapping[str, ProfileInfo] = MappingProxyType(
    {
        "classic": ProfileInfo(
            "000",
            "Development-zone rules: untimed, keep playing A until it is passed",
            "开发区掼蛋竞赛规则：不限时，A必打，打不过继续打A",
        ),
        "timed-40": ProfileInfo(
            "002",
            "40-minute cap, three failed A attempts reset to 2, equal levels: first to reach wins",
            "40分钟限时，三次打A不过降至2，时间到同级先到者胜",
        ),
        "timed-90": ProfileInfo(
            "003",
            "90-minute knockout, three failed A attempts reset to 2, equal levels: one extra deal",
            "90分钟淘汰赛，三次打A不过从2打起，时间到同级加赛一牌",
        ),
        "points-6": ProfileInfo(
            "004",
            "Six deals all at 2, scored 3/2/1 by the partner's place; a tie plays one extra deal",
            "6局积分制，每局都打2，1-2名3分、1-3名2分、1-4名1分，积分相同加赛一局",
        ),
        "tractor-3deck": ProfileInfo(
            "001",
            "Three-deck Tractor: level change by the defenders' points; one more deal in the last 10 minutes",
            "三副牌拖拉机：按防家得分升降级，最后10分钟统一再打一副",
        ),
    }
)


def options_for(*, profile: str, overrides: Mapping[str, Any] | None = None) -> RuleOptions:
    """The options of ``profile`` with ``overrides`` (option name → JSON value) applied.

    Raises ScoringError ``unknown_profile`` for a name not in :data:`PROFILES`, ``bad_input`` for an
    unknown option, a bad value, or a combination that cannot work.
    """
    if not isinstance(profile, str) or profile not in PROFILES:
        names = ", ".join(PROFILES)
        raise ScoringError(
            ErrorCode.UNKNOWN_PROFILE,
            f"There is no rule profile {profile!r}; the profiles are: {names}.",
            message_zh=f"没有规则方案 {profile!r}；可用方案：{names}。",
        )
    options = PROFILES[profile]
    if overrides:
        options = options.with_overrides(overrides)
    return options


def profiles_json() -> dict[str, Any]:
    """What ``python -m scoring profiles`` prints: every profile with its source and options."""
    return {
        "profiles": {
            name: {
                "seed": PROFILE_INFO[name].seed,
                "title": PROFILE_INFO[name].title,
                "title_zh": PROFILE_INFO[name].title_zh,
                "options": options.to_json(),
            }
            for name, options in PROFILES.items()
        }
    }
