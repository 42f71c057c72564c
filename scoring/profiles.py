"""Named rule profiles: each seed's own choices (docs/rules.md; seeds 000–004), and per-event overrides.

Each profile follows one rulebook of ``docs/rules.md``'s seed list, named by its number there and its Chinese
title:

============== ====== ======================== ==========================================================
profile        seed   rulebook                 what it is
============== ====== ======================== ==========================================================
classic        000    开发区掼蛋竞赛规则       one game 2→A, untimed, +3/+2/+1, A passed by 上游 with the
                                               partner not last, no triple-A reset (keep playing A), its
                                               own tribute text (``seed_000``), ♥X+4567 reads 34567
                                               (``wild_reading: stated_example``), first_to_reach if
                                               time is called
timed-40       002    掼蛋比赛规则(终审稿)     40 minutes, +5/+3/+1 (三(2)), A passed by 上游 with the
                                               partner not last, triple-A reset with the reset side's
                                               own upgrade from 2 (``upgrade_from_2``), equal levels at
                                               time → first to reach wins, equal double tribute: the
                                               winners choose (``seed_002``)
timed-90       003    联鑫钢铁第四届掼蛋争霸赛 90-minute knockout, +3/+2/+1, A passed unless an A player
                                               is last (``side_not_last``), triple-A reset to 2
                                               (``to_2``), equal levels → extra deals until one side
                                               goes up (先升级的为获胜方), wild cards read largest
points-6       004    掼蛋比赛赛制及规则       the company knockout: six deals, all at 2, scored 3/2/1; a
                                               tie → one extra deal; its tribute text is seed 002's
                                               (``seed_002``)
tractor-3deck  001    三副牌拖拉机竞赛规则     three-deck Tractor: the seed-001 table; last 10 minutes →
                                               one more deal
doudizhu       004    中国二打一扑克竞赛规则   Dou Dizhu (docs/rules.md §10): seed 004's three-player texts
                                               (3-deal tables, tables redrawn by lot each round) scored by
                                               the national rules of record (2011): the highest bidder is
                                               landlord, stake = bid × 2^bombs × spring, base 1, uncapped
============== ====== ======================== ==========================================================

An organiser picks a profile and may override any option (:func:`options_for`). A profile's definition
may change when a rulebook is read more carefully; an event keeps the options it was created
with because the web application stores :meth:`~scoring.options.RuleOptions.to_json` with each stage.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from scoring.conduct import table_conduct
from scoring.errors import ErrorCode, ScoringError
from scoring.options import (
    SEED_002_UPGRADES,
    APass,
    AReset,
    AtTimeUp,
    CapScope,
    DealScoring,
    Game,
    LandlordBy,
    LandlordRotation,
    MatchFormat,
    Reseat,
    RuleOptions,
    TimeUpTie,
    TributeVariant,
    WildReading,
)

__all__ = ["PROFILES", "PROFILE_INFO", "ProfileInfo", "options_for", "profiles_json", "rules_summary"]


@dataclass(frozen=True, slots=True)
class ProfileInfo:
    """Where a profile comes from, in words an organiser recognises."""

    seed: str
    title: str
    title_zh: str


PROFILES: Mapping[str, RuleOptions] = MappingProxyType(
    {
        "classic": RuleOptions(  # seed 000 开发区掼蛋竞赛规则
            a_pass=APass.TOP_AND_PARTNER_NOT_LAST,  # 胜方过A必须有一人是上游,另一人不是下游
            a_failure_limit=None,  # 否则需要重复打A,直至打过或比赛时间到
            time_cap_minutes=None,
            time_up_tie=TimeUpTie.FIRST_TO_REACH,
            tribute_variant=TributeVariant.SEED_000,
            wild_reading=WildReading.STATED_EXAMPLE,  # X4567,相当于34567(或45678须出牌时说明)
        ),
        "timed-40": RuleOptions(  # seed 002 掼蛋比赛规则(终审稿)
            upgrades=SEED_002_UPGRADES,  # 三(2): 双贡升5级, 对手有一家是下游升3级, 对门是下游升1级
            a_pass=APass.TOP_AND_PARTNER_NOT_LAST,  # 必须一家取得上游，且对家不是下游
            a_failure_limit=3,  # 三次打A不过，降至2
            a_reset=AReset.UPGRADE_FROM_2,  # 降至2的一队中有一家取得上游时，从3开始打
            time_cap_minutes=40,
            time_up_tie=TimeUpTie.FIRST_TO_REACH,
            tribute_variant=TributeVariant.SEED_002,  # 赢家可以任选输家的牌，输家也可以任选赢家所还牌
        ),
        "timed-90": RuleOptions(  # seed 003 联鑫钢铁第四届掼蛋争霸赛
            a_pass=APass.SIDE_NOT_LAST,  # 打A时，只要己方不出现末游就算通过
            a_failure_limit=3,  # 打A只有三次机会
            a_reset=AReset.TO_2,  # 三次打不过从头开始打2
            time_cap_minutes=90,
            time_up_tie=TimeUpTie.EXTRA_DEAL,  # 同级的加赛一牌，先升级的为获胜方
            cap_scope=CapScope.GAME,  # 每局比赛时间为1小时30分: each game has its own cap (matters in best_of)
            wild_reading=WildReading.LARGEST,  # 默认配成最大牌
        ),
        "points-6": RuleOptions(  # seed 004 掼蛋比赛赛制及规则 (the company knockout)
            format=MatchFormat.FIXED_DEALS_POINTS,
            deals=6,  # 6局积分制，每局比赛都打2
            points_table=(3, 2, 1),  # 1-3积分规则
            time_up_tie=TimeUpTie.EXTRA_DEAL,  # 积分相同，则加赛一局
            tribute_variant=TributeVariant.SEED_002,  # its 进贡规则 are seed 002's, word for word
            tie_breakers=("match_points", "deal_points", "head_to_head", "buchholz", "wins", "lots"),
        ),
        "tractor-3deck": RuleOptions(  # seed 001 三副牌拖拉机竞赛规则
            game=Game.TRACTOR,
            at_time_up=AtTimeUp.ONE_MORE_DEAL,  # 三、最后10分钟由大会统一再打一副牌
            time_up_tie=TimeUpTie.FIRST_TO_REACH,
        ),
        "doudizhu": RuleOptions(  # seed 004's 斗地主 texts + the national 中国二打一扑克竞赛规则 (2011)
            game=Game.DOUDIZHU,
            deals=3,  # 比赛可以设置多局制，通常为3局、5局或7局
            deal_scoring=DealScoring.STAKE,  # the national rules' stake; seed 004's cards_left is an option
            landlord_by=LandlordBy.BID,  # 叫分高者为地主 (seed 004's other way, 随机发地牌, is ``lot``)
            reseat=Reseat.LOT,  # 每轮比赛结束后，重新抽签
        ),
    }
)
"""Profile name → its options (read-only)."""

PROFILE_INFO: Mapping[str, ProfileInfo] = MappingProxyType(
    {
        "classic": ProfileInfo(
            "000",
            "Seed 000, 开发区掼蛋竞赛规则 (development-zone rules): untimed, keep playing A until it is "
            "passed; ♥X+4567 reads 34567 unless declared",
            "规则 000《开发区掼蛋竞赛规则》：不限时，A必打，打不过继续打A；逢人配X4567默认为34567",
        ),
        "timed-40": ProfileInfo(
            "002",
            "Seed 002, 掼蛋比赛规则(终审稿) (final draft): 40-minute cap, upgrades +5/+3/+1, three failed "
            "A attempts reset to 2 (to 3 when one of the side went out first on the third), equal levels: "
            "first to reach wins",
            "规则 002《掼蛋比赛规则(终审稿)》：40分钟限时，双贡升5级、对手一家下游升3级、对门下游升1级，"
            "三次打A不过降至2（降级方取得上游从3开始打），时间到同级先到者胜",
        ),
        "timed-90": ProfileInfo(
            "003",
            "Seed 003, 联鑫钢铁第四届掼蛋争霸赛 (steel company championship): 90-minute knockout, A passed "
            "unless an A player is last, three failed A attempts reset to 2, equal levels: extra deals "
            "until a side goes up",
            "规则 003《联鑫钢铁第四届掼蛋争霸赛》：90分钟淘汰赛，打A只要己方不出现末游就算通过，"
            "三次打不过从2打起，时间到同级加赛一牌，先升级的为获胜方",
        ),
        "points-6": ProfileInfo(
            "004",
            "Seed 004, 掼蛋比赛赛制及规则 (company knockout): six deals all at 2, scored 3/2/1 by the "
            "partner's place; a tie plays one extra deal",
            "规则 004《掼蛋比赛赛制及规则》：6局积分制，每局都打2，1-2名3分、1-3名2分、1-4名1分，积分相同加赛一局",
        ),
        "tractor-3deck": ProfileInfo(
            "001",
            "Seed 001, 三副牌拖拉机竞赛规则 (three-deck Tractor): level change by the defenders' points; "
            "one more deal in the last 10 minutes",
            "规则 001《三副牌拖拉机竞赛规则》：按防家得分升降级，最后10分钟统一再打一副",
        ),
        "doudizhu": ProfileInfo(
            "004",
            "Seed 004, 掼蛋比赛赛制及规则 (its three-player texts, really Dou Dizhu), scored by the national "
            "中国二打一扑克竞赛规则 (2011): three to a table, 3 deals a round, the highest bidder is landlord, "
            "stake = bid × 2^bombs × spring, landlord ±2 stakes, farmers ∓1; tables redrawn by lot each round",
            "规则 004《掼蛋比赛赛制及规则》（其中三人“地主”玩法即斗地主），"
            "按全国《中国二打一扑克竞赛规则》（2011）计分：每桌三人，每轮3局，叫分高者为地主，"
            "分数 = 叫分 × 2^炸弹数 × 春天，地主输赢2倍、农民各1倍；每轮重新抽签分桌",
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
    """What ``python -m scoring profiles`` prints: every profile with its source, its options and its
    table conduct text (:mod:`scoring.conduct`, docs/rules.md §7)."""

    return {
        "profiles": {
            name: {
                "seed": PROFILE_INFO[name].seed,
                "title": PROFILE_INFO[name].title,
                "title_zh": PROFILE_INFO[name].title_zh,
                "options": options.to_json(),
                "conduct": table_conduct(name).to_json(),
            }
            for name, options in PROFILES.items()
        }
    }


_DOUDIZHU_SUMMARISED = ("deals", "deal_scoring", "base", "multiple_cap", "landlord_by", "landlord_rotation", "reseat")
"""The Dou Dizhu options a rules summary states: when one differs from the profile, the profile's title no
longer describes the scoring in force."""


def rules_summary(*, profile: str, options: RuleOptions) -> tuple[str, str]:
    """The one-line summary (English, Chinese) of the rules in force: a stage created from ``profile``
    with the stored ``options`` (the event's and the stage's overrides applied).

    The profile's title while the options score as it does; a Dou Dizhu stage whose deals, scoring,
    landlord or reseating differ is summarised from its own options (docs/rules.md §10), so that an event
    scored by cards left never reads "stake = bid × …". The other games' titles name no option a stage
    overrides (their changed options are listed beside the title)."""
    info = PROFILE_INFO.get(profile)
    defined = PROFILES.get(profile)
    if options.game is not Game.DOUDIZHU or (
        info is not None
        and defined is not None
        and all(getattr(options, name) == getattr(defined, name) for name in _DOUDIZHU_SUMMARISED)
    ):
        return (info.title, info.title_zh) if info is not None else (profile, profile)
    if profile == "doudizhu" and info is not None:
        head_en = f"Seed {info.seed}, 掼蛋比赛赛制及规则 (its three-player texts, really Dou Dizhu)"
        head_zh = f"规则 {info.seed}《掼蛋比赛赛制及规则》（其中三人“地主”玩法即斗地主）"
    else:
        head_en, head_zh = "Dou Dizhu", "斗地主"
    en = [f"three to a table, {options.deals} deals a round"]
    zh = [f"每桌三人，每轮{options.deals}局"]
    if options.landlord_by is LandlordBy.BID:
        en.append("the highest bidder is landlord")
        zh.append("叫分高者为地主")
    elif options.landlord_rotation is LandlordRotation.COUNTER_CLOCKWISE:
        en.append("the landlord's seat drawn by lot each round, then passed on in turn")
        zh.append("每轮抽签确定地主座位，轮流坐庄")
    else:
        en.append("the landlord's seat drawn by lot")
        zh.append("抽签确定地主")
    if options.deal_scoring is DealScoring.CARDS_LEFT:
        en.append(
            "scored by cards left: whoever goes out gains the cards left in the other two hands, each of "
            "them loses a point a card"
        )
        zh.append("按剩余牌数计分：出完牌者得另两家剩余牌数之和，另两家每剩一张扣1分")
    else:
        bid = options.landlord_by is LandlordBy.BID
        multiple_en = ("bid × " if bid else "") + "2^bombs × spring"
        multiple_zh = ("叫分 × " if bid else "") + "2^炸弹数 × 春天"
        if options.base != 1:
            multiple_en += f" × base {options.base}"
            multiple_zh += f" × 底分{options.base}"
        en.append(f"stake = {multiple_en}, landlord ±2 stakes, farmers ∓1")
        zh.append(f"分数 = {multiple_zh}，地主输赢2倍、农民各1倍")
        if options.multiple_cap is not None:
            en.append(f"multiple capped at {options.multiple_cap}")
            zh.append(f"倍数封顶{options.multiple_cap}倍")
    if options.reseat is Reseat.LOT:
        en.append("tables redrawn by lot each round")
        zh.append("每轮重新抽签分桌")
    else:
        en.append("tables reseated by standing each round")
        zh.append("每轮按名次移位分桌")
    return f"{head_en}: {', '.join(en)}", f"{head_zh}：{'，'.join(zh)}"
