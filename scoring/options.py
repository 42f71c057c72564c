"""Rule options: every choice docs/rules.md leaves to the organiser, in one frozen dataclass.

Where the source rulebooks disagree, docs/rules.md makes the difference an option with a named default; each
seed's own choices are a named profile (:mod:`scoring.profiles`). :class:`RuleOptions` validates itself on
construction, so a combination that cannot work (``best_of`` without a number of games, a late-arrival
point deduction in a level game, …) is refused with a clear ``bad_input`` error instead of failing later.

The JSON form (:meth:`RuleOptions.to_json`, accepted back by :meth:`RuleOptions.from_json` and by the
``rules`` overrides of the CLI) uses the option names of docs/rules.md verbatim.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any, TypeVar

from scoring.errors import bad_input

__all__ = [
    "DEFAULT_TIE_BREAKERS",
    "DEFAULT_UPGRADES",
    "DOUDIZHU_DEALS",
    "DOUDIZHU_DEFAULT_DEALS",
    "DOUDIZHU_OPTIONS",
    "GUANDAN_ONLY_OPTIONS",
    "SEED_002_UPGRADES",
    "STORED_BEFORE",
    "TIE_BREAKERS",
    "APass",
    "AReset",
    "AtTimeUp",
    "ByeResult",
    "CapScope",
    "CardsLeftWinner",
    "DealScoring",
    "Game",
    "LandlordBy",
    "LandlordRotation",
    "LateArrivalBand",
    "LatePenalty",
    "MatchFormat",
    "MatchPoints",
    "PointPenalties",
    "Reseat",
    "RuleOptions",
    "SmallPoints",
    "Stage",
    "TimeUpTie",
    "TributeVariant",
    "WildReading",
    "default_late_arrival",
]


class TributeVariant(str, Enum):
    """How tribute (进贡) is paid and returned (docs/rules.md §6; :mod:`scoring.tribute` applies it).

    - ``standard`` (seeds 002, 003, docs/rules.md §6): every return card has rank ≤ 10 (or the returner's
      smallest if none); the payer to 上游 leads; after a double-down equal tribute cards go clockwise
      (贡左还右: each payer gives to the opponent on their left, and gets the return from the right).
    - ``seed_000``: seed 000's text: only 上游's return must be ≤ 10; after a double tribute the
      larger-card payer leads; equal cards go counter-clockwise (each payer gives to the opponent on
      their right) and 上游's 上家 leads.
    - ``national_2017``: the 2017 national rules: returns ≤ 10, the larger-card payer leads; equal cards
      go clockwise and the payer to 上游 leads.
    - ``seed_002``: as ``standard`` (returns ≤ 10, the payer to 上游 leads), except equal double-tribute
      cards: seed 002 四(1) 若输家两人贡牌大小一样，则赢家可以任选输家的牌，输家也可以任选赢家所还牌 —
      the winners choose which payer's card each takes, the losers which return each takes; the
      payer whose card 上游 took leads (docs/rules.md §6). Seed 002's profile (``timed-40``).
    """

    STANDARD = "standard"
    SEED_000 = "seed_000"
    NATIONAL_2017 = "national_2017"
    SEED_002 = "seed_002"


class Game(str, Enum):
    """Which card game the event plays: Guandan (docs/rules.md §1–8), three-deck Tractor (§9, seed 001) or
    Dou Dizhu (§10, seed 004 and the national 《中国二打一扑克竞赛规则》)."""

    GUANDAN = "guandan"
    TRACTOR = "tractor"
    DOUDIZHU = "doudizhu"


class DealScoring(str, Enum):
    """How a Dou Dizhu deal is scored (docs/rules.md §10; :mod:`scoring.doudizhu_deals` applies it)."""

    STAKE = "stake"
    """The national rules (the default): multiple = bid × 2^bombs × (2 for a spring), capped by
    ``multiple_cap``; stake = ``base`` × multiple; the landlord wins or loses 2 × stake, each farmer the
    opposite stake."""
    CARDS_LEFT = "cards_left"
    """Seed 004 (根据每个玩家手中剩余的牌数给予相应的积分): the player who went out gains the cards left in the
    other two hands, each of them loses one point per card."""


class LandlordBy(str, Enum):
    """How a Dou Dizhu deal's landlord is chosen (docs/rules.md §10)."""

    BID = "bid"
    """The highest bidder, on a bid of 1–3 (叫分; the default)."""
    LOT = "lot"
    """Seed 004 (每轮比赛开始前，通过抽签的方式确定每个桌子的地主座位): the seat is drawn each round for the table's
    first deal and passed on deal by deal (``landlord_rotation``, 轮流坐庄); every bid is 1."""


class LandlordRotation(str, Enum):
    """Under ``landlord_by: lot``, who is landlord after the table's first deal (docs/rules.md §10)."""

    COUNTER_CLOCKWISE = "counter_clockwise"
    """Seed 004 轮流坐庄 (the default): the first deal's landlord is the seat drawn by lot, then each deal's
    is the next seat counter-clockwise, as play runs (E → W → S → E); a deal with another landlord is
    ``invalid_deal``."""
    NONE = "none"
    """Any seat may be landlord in any deal: how the rules core read ``lot`` before it read 轮流坐庄; kept
    for the stages created then (:data:`STORED_BEFORE`)."""


class CardsLeftWinner(str, Enum):
    """Under ``deal_scoring: cards_left``, who won the deal for "deals won" (docs/rules.md §10)."""

    PLAYER = "player"
    """Seed 004 (积分最高者为此局的胜利者; the default): the player who went out — the deal's highest scorer —
    alone. A farmer whose partner went out did not win it."""
    SIDE = "side"
    """The side of the player who went out (a farmer wins with the other farmer): how the rules core read
    it before; kept for the stages created then (:data:`STORED_BEFORE`)."""


class PointPenalties(str, Enum):
    """What a point penalty against a Dou Dizhu player does (docs/rules.md §7)."""

    DEDUCT = "deduct"
    """The points come off that player's total (not zero-sum), with a reason (the default)."""
    RECORDED = "recorded"
    """The penalty is recorded and changes nothing: how Dou Dizhu tables were scored before point
    penalties counted; kept for the stages created then (:data:`STORED_BEFORE`)."""


class Reseat(str, Enum):
    """How Dou Dizhu tables are drawn after round 1 (docs/rules.md §10; the draw applies it)."""

    LOT = "lot"
    """By lot again every round (seed 004 每轮比赛结束后，重新抽签; the default)."""
    SCORE = "score"
    """By standing (瑞士移位): the top three at table 1, the next three at table 2, …"""


class MatchFormat(str, Enum):
    """What one pairing plays (docs/rules.md §3)."""

    LEVEL_GAME = "level_game"
    """One game 2→A (seeds 000, 002, 003)."""
    BEST_OF = "best_of"
    """``games`` games, first to ⌈N/2⌉ game wins (seed 004 finals: 三局两胜)."""
    FIXED_DEALS_POINTS = "fixed_deals_points"
    """Exactly ``deals`` deals, every one at 2, scored by ``points_table`` (seed 004 company knockout)."""
    FIXED_DEALS_LEVELS = "fixed_deals_levels"
    """``deals`` deals with normal level progress; passing A ends early (national 2017 计副制)."""


class APass(str, Enum):
    """What passing A (过A) takes (docs/rules.md §1; seeds 000, 002)."""

    TOP_AND_PARTNER_NOT_LAST = "top_and_partner_not_last"
    """The side takes 上游 and the partner is not 下游: a 1-2 or 1-3 finish (seeds 000, 002; default)."""
    SIDE_NOT_LAST = "side_not_last"
    """Neither of the side's players is last (seed 003: 打A时，只要己方不出现末游就算通过): its own 1-2
    or 1-3 finish, or the opponents' 1-4 (the A side then holds 2nd and 3rd)."""
    ONE_TWO_ONLY = "one_two_only"
    """Only a 1-2 finish passes A."""


class AReset(str, Enum):
    """What the limit-th failed A attempt gives the reset side when it took 上游 itself (docs/rules.md §1).

    The side goes back to 2 either way; the difference is only the upgrade of that failing deal."""

    TO_2 = "to_2"
    """Nothing: it plays on from 2 (seed 003: 三次打不过从头开始打2). The default — what the rules core
    always did, so an event that set nothing keeps its results."""
    UPGRADE_FROM_2 = "upgrade_from_2"
    """Its upgrade for that finish applies from 2: a 1-4 finish (+1) plays the next deal at 3 (seed 002:
    降至2的一队中有一家取得上游时，从3开始打)."""


class WildReading(str, Enum):
    """The default reading of a set with heart level cards (逢人配) that reads several ways (docs/rules.md §8).

    Either way the player may declare another reading (seed 003)."""

    LARGEST = "largest"
    """The largest reading (seed 003: 默认配成最大牌; the default)."""
    STATED_EXAMPLE = "stated_example"
    """Seed 000's stated example: ♥X+4567 reads as 34567 unless 45678 is declared — the lowest
    reading of the set's best type (for a straight: the lowest straight)."""


class AtTimeUp(str, Enum):
    """What happens when the time cap is reached mid-deal (docs/rules.md §2)."""

    FINISH_CURRENT_DEAL = "finish_current_deal"
    """The deal in progress is the last regular deal (default)."""
    ONE_MORE_DEAL = "one_more_deal"
    """One more deal is played after it (seed 001 §3). Seed 001's nuance — time called while the next
    deal is still being drawn makes *that* deal the last — is recorded by calling time during the deal
    before it."""


class TimeUpTie(str, Enum):
    """Who wins when the regular deals end with equal levels (docs/rules.md §2)."""

    FIRST_TO_REACH = "first_to_reach"
    """The side that reached that level at the earlier deal (seed 002)."""
    EXTRA_DEAL = "extra_deal"
    """One more deal (加赛一牌); the side that goes up in it wins (seed 003: 先升级的为获胜方). An extra
    deal in which nobody goes up (both at A) decides nothing and another follows; passing A wins."""
    SETTING_SIDE = "setting_side"
    """The side on stage (台上) when play stops: the winner of the last regular deal, at whose level
    the next deal would be played (docs/rules.md §2)."""
    DRAW = "draw"
    """A draw (Swiss and round-robin stages only; refused in a knockout)."""


class CapScope(str, Enum):
    """What a ``best_of`` match's time cap runs for (docs/rules.md §7)."""

    MATCH = "match"
    """The cap runs for the whole match (the default): time called decides the match (§2)."""
    GAME = "game"
    """Every game has its own cap (seed 003: 每局比赛时间为1小时30分): time called in a game decides that game by
    §2, and the next game starts with a fresh clock."""


class SmallPoints(str, Enum):
    """How small points (小分 / 级差分) are counted in standings (docs/rules.md §5)."""

    LEVEL_DIFFERENCE = "level_difference"
    """Own level minus the opponents' (a passed A counts 15): the winner +d, the loser −d."""
    SPLIT_13 = "split_13"
    """"13 ± difference": the winner 13 + d, the loser 13 − d (a draw 13 each)."""


class ByeResult(str, Enum):
    """What a bye (轮空) counts as in standings (docs/rules.md §5)."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


class LatePenalty(str, Enum):
    """What a late-arrival band does (docs/rules.md §7, §9; seed 001 §2)."""

    WARNING = "warning"
    """A recorded warning; nothing changes."""
    LEVEL_PENALTY = "level_penalty"
    """The opponents upgrade ``amount`` levels (capped at A)."""
    POINT_DEDUCTION = "point_deduction"
    """``amount`` points off: from the late side's total in points formats; in Tractor from the late
    side's card points in the first deal (seed 001: −20 / −30)."""
    FORFEIT_FIRST_DEAL = "forfeit_first_deal"
    """The first deal is forfeited: the opponents gain ``amount`` (levels, or points in points formats)
    as if they had won it, and set the level of (Tractor: declare) the next deal."""
    FORFEIT_MATCH = "forfeit_match"
    """The late pair forfeits the match."""


class Stage(str, Enum):
    """The tournament stage a match is played in (docs/rules.md §4): a knockout must produce a winner."""

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    KNOCKOUT = "knockout"
    POINTS = "points"
    """Dou Dizhu's points stage (docs/rules.md §10): rounds at three-seat tables, cumulative points, cuts."""


TIE_BREAKERS: tuple[str, ...] = (
    "match_points",
    "small_points",
    "levels_sum",
    "deal_points",
    "head_to_head",
    "buchholz",
    "wins",
    "lots",
)
"""Every tie-breaker :mod:`scoring.standings` knows (docs/rules.md §5); the organiser orders a subset."""

DEFAULT_TIE_BREAKERS: tuple[str, ...] = (
    "match_points",
    "small_points",
    "levels_sum",
    "head_to_head",
    "buchholz",
    "wins",
    "lots",
)
"""docs/rules.md §5's order: match points → small points → levels → head-to-head → Buchholz → wins → lots."""


DEFAULT_UPGRADES: tuple[int, int, int] = (3, 2, 1)
"""Levels 上游's side gains for a 1-2, 1-3, 1-4 finish (seeds 000, 003, national rules; docs/rules.md §1)."""

SEED_002_UPGRADES: tuple[int, int, int] = (5, 3, 1)
"""Seed 002 三(2): 双贡 赢家升5级; 对手有一家是下游 升3级; 自己对门是下游 升1级."""


@dataclass(frozen=True, slots=True)
class MatchPoints:
    """Match points (场分) for a win, a draw and a loss (national 2017 rules: 2/1/0; docs/rules.md §5)."""

    win: int = 2
    draw: int = 1
    loss: int = 0

    def to_json(self) -> dict[str, int]:
        return {"win": self.win, "draw": self.draw, "loss": self.loss}


@dataclass(frozen=True, slots=True)
class LateArrivalBand:
    """One band of the late-arrival table: up to ``up_to_minutes`` late (None: any later), ``penalty``
    with ``amount`` (levels or points, see :class:`LatePenalty`). docs/rules.md §7, seed 001 §2."""

    up_to_minutes: int | None
    penalty: LatePenalty
    amount: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"up_to_minutes": self.up_to_minutes, "penalty": self.penalty.value, "amount": self.amount}


def _level_late_arrival(as_if_one_two: int) -> tuple[LateArrivalBand, ...]:
    return (
        LateArrivalBand(5, LatePenalty.WARNING),
        LateArrivalBand(10, LatePenalty.LEVEL_PENALTY, 1),
        LateArrivalBand(15, LatePenalty.LEVEL_PENALTY, 2),
        LateArrivalBand(20, LatePenalty.FORFEIT_FIRST_DEAL, as_if_one_two),
        LateArrivalBand(None, LatePenalty.FORFEIT_MATCH),
    )


def _points_late_arrival(as_if_one_two: int) -> tuple[LateArrivalBand, ...]:
    return (
        LateArrivalBand(5, LatePenalty.WARNING),
        LateArrivalBand(10, LatePenalty.POINT_DEDUCTION, 1),
        LateArrivalBand(15, LatePenalty.POINT_DEDUCTION, 2),
        LateArrivalBand(20, LatePenalty.FORFEIT_FIRST_DEAL, as_if_one_two),
        LateArrivalBand(None, LatePenalty.FORFEIT_MATCH),
    )


GUANDAN_LATE_ARRIVAL: tuple[LateArrivalBand, ...] = _level_late_arrival(DEFAULT_UPGRADES[0])
"""docs/rules.md §7 (seed 001 adapted to levels), under the default upgrades: ≤5 warning; 6–10 and 11–15 a
deduction (here: the opponents upgrade 1, then 2 levels — the seeds give no Guandan figure); 16–20 the
first deal forfeited as if the opponents finished 1-2 (+3 here; the event's own 1-2 upgrade, so +5 under
seed 002's); ≥21 the match forfeited."""

POINTS_LATE_ARRIVAL: tuple[LateArrivalBand, ...] = _points_late_arrival(3)
"""The same bands for ``fixed_deals_points`` under the default points table: the deductions come off the
late pair's points (1, then 2), a forfeited first deal scores for the opponents what a 1-2 finish would
(``points_table`` "1-2", 3 by default)."""

TRACTOR_LATE_ARRIVAL: tuple[LateArrivalBand, ...] = (
    LateArrivalBand(5, LatePenalty.WARNING),
    LateArrivalBand(10, LatePenalty.POINT_DEDUCTION, 20),
    LateArrivalBand(15, LatePenalty.POINT_DEDUCTION, 30),
    LateArrivalBand(20, LatePenalty.FORFEIT_FIRST_DEAL, 1),
    LateArrivalBand(None, LatePenalty.FORFEIT_MATCH),
)
"""Seed 001 §2 verbatim: ≤5 warning, 6–10 −20 points in the first deal, 11–15 −30, 16–20 the first deal
forfeited and the opponents upgrade (one level), ≥21 the team forfeits the round."""


def default_late_arrival(
    game: Game,
    format: MatchFormat,
    *,
    upgrades: tuple[int, int, int] = DEFAULT_UPGRADES,
    points_table: tuple[int, int, int] = (3, 2, 1),
) -> tuple[LateArrivalBand, ...]:
    """The late-arrival table used when the options do not give one (docs/rules.md §7).

    Its 16–20 minute band forfeits the first deal "as if the opponents finished 1-2": the event's own
    gain for a 1-2 finish — ``upgrades`` "1-2" in a level game (+3 by default, +5 under seed 002's
    upgrades), ``points_table`` "1-2" in ``fixed_deals_points``. A stage stores the table in force when
    it is created, so a stage created while this band was a fixed +3 keeps its +3."""
    if game is Game.TRACTOR:
        return TRACTOR_LATE_ARRIVAL
    if format is MatchFormat.FIXED_DEALS_POINTS:
        return POINTS_LATE_ARRIVAL if points_table[0] == 3 else _points_late_arrival(points_table[0])
    return GUANDAN_LATE_ARRIVAL if upgrades[0] == DEFAULT_UPGRADES[0] else _level_late_arrival(upgrades[0])


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleOptions:
    """Every rule option of docs/rules.md, with its default. Immutable; build variants with
    :meth:`with_overrides` (or :func:`scoring.profiles.options_for`)."""

    game: Game = Game.GUANDAN
    format: MatchFormat = MatchFormat.LEVEL_GAME
    deals: int | None = None
    """Regular deals of ``fixed_deals_points`` / ``fixed_deals_levels`` (seed 004: 6)."""
    games: int | None = None
    """Games of ``best_of`` (odd; seed 004 finals: 3)."""
    upgrades: tuple[int, int, int] = DEFAULT_UPGRADES
    """Levels 上游's side gains for a 1-2, 1-3, 1-4 finish (docs/rules.md §1; JSON keys "1-2", "1-3", "1-4");
    seed 002: (5, 3, 1)."""
    a_pass: APass = APass.TOP_AND_PARTNER_NOT_LAST
    a_failure_limit: int | None = None
    """Failed A attempts that reset a side to 2 (seeds 002, 003: 3); None: no reset (seed 000)."""
    a_reset: AReset = AReset.TO_2
    """What the reset deal gives the reset side when it took 上游 itself (seed 003 ``to_2``, seed 002
    ``upgrade_from_2``)."""
    time_cap_minutes: int | None = None
    """The match clock (seed 002: 40, seed 003: 90); None: untimed. The clock itself lives in the
    tournament app; the rules core only needs to know during which deal time was called."""
    at_time_up: AtTimeUp = AtTimeUp.FINISH_CURRENT_DEAL
    time_up_tie: TimeUpTie = TimeUpTie.FIRST_TO_REACH
    cap_scope: CapScope = CapScope.MATCH
    """In ``best_of``: the cap runs for the whole match, or for each game (seed 003)."""
    points_table: tuple[int, int, int] = (3, 2, 1)
    """Points of a ``fixed_deals_points`` deal to the 上游's side for a 1-2, 1-3, 1-4 finish (seed 004)."""
    tribute_variant: TributeVariant = TributeVariant.STANDARD
    wild_reading: WildReading = WildReading.LARGEST
    """The card assistant's default reading of a set with wild cards (docs/rules.md §8)."""
    match_points: MatchPoints = field(default_factory=MatchPoints)
    tie_breakers: tuple[str, ...] = DEFAULT_TIE_BREAKERS
    small_points: SmallPoints = SmallPoints.LEVEL_DIFFERENCE
    bye_result: ByeResult = ByeResult.WIN
    bye_margin: int = 0
    """Small points credited for a bye."""
    forfeit_margin: int = 13
    """Small points of a forfeit (walkover): +margin to the winner, −margin to the forfeiting pair. 13 is
    the largest margin a played match can have (a passed A, 15, against a side at 2)."""
    late_arrival: tuple[LateArrivalBand, ...] | None = None
    """The late-arrival table; None: the default for the game and format (:func:`default_late_arrival`)."""
    # -- Dou Dizhu (docs/rules.md §10); refused in the other games unless left at their defaults ---------------
    deal_scoring: DealScoring = DealScoring.STAKE
    multiple_cap: int | None = None
    """The largest multiple a Dou Dizhu deal can reach (e.g. 32); None: uncapped."""
    base: int = 1
    """A Dou Dizhu deal's stake is ``base`` × its multiple."""
    landlord_by: LandlordBy = LandlordBy.BID
    landlord_rotation: LandlordRotation = LandlordRotation.COUNTER_CLOCKWISE
    """Under ``landlord_by: lot``: the landlord passes counter-clockwise deal by deal (seed 004 轮流坐庄)."""
    cards_left_winner: CardsLeftWinner = CardsLeftWinner.PLAYER
    """Under ``deal_scoring: cards_left``: who won the deal, for "deals won" (seed 004: the highest scorer)."""
    point_penalties: PointPenalties = PointPenalties.DEDUCT
    """A point penalty against a player takes the points off their total (docs/rules.md §7)."""
    reseat: Reseat = Reseat.LOT
    bye_points: int = 0
    """Points of a Dou Dizhu bye, and of the two players at a table a late player forfeited."""
    forfeit_points: int | None = None
    """Points of a Dou Dizhu player who forfeits the round (late or absent); None: −6 × ``base``
    (:attr:`forfeit_points_in_force`)."""
    late_forfeit_minutes: int = 10
    """A Dou Dizhu player more than this many minutes late forfeits the round."""

    def __post_init__(self) -> None:
        from scoring.options_checks import options_validate  # the checks read this module's types

        options_validate(self)

    @property
    def is_doudizhu(self) -> bool:
        return self.game is Game.DOUDIZHU

    @property
    def forfeit_points_in_force(self) -> int:
        """What a Dou Dizhu player who forfeits the round scores: ``forfeit_points``, by default
        −6 × ``base`` (docs/rules.md §10)."""
        return self.forfeit_points if self.forfeit_points is not None else -6 * self.base

    @property
    def is_points_format(self) -> bool:
        return self.format is MatchFormat.FIXED_DEALS_POINTS

    @property
    def has_levels(self) -> bool:
        """False only for ``fixed_deals_points``, where every deal is played at 2 (seed 004)."""
        return self.format is not MatchFormat.FIXED_DEALS_POINTS

    @property
    def games_to_win(self) -> int:
        """Game wins that decide a ``best_of`` match: ⌈N/2⌉ (1 for every other format)."""
        return (self.games + 1) // 2 if self.games else 1

    @property
    def late_arrival_bands(self) -> tuple[LateArrivalBand, ...]:
        """The late-arrival table in force (the given one, or the default for the game and format)."""
        if self.late_arrival is not None:
            return self.late_arrival
        return default_late_arrival(self.game, self.format, upgrades=self.upgrades, points_table=self.points_table)

    def late_arrival_band(self, minutes: int) -> LateArrivalBand:
        """The band that applies to a pair ``minutes`` late (docs/rules.md §7)."""
        for band in self.late_arrival_bands:
            if band.up_to_minutes is None or minutes <= band.up_to_minutes:
                return band
        return LateArrivalBand(None, LatePenalty.WARNING)  # a table without an open-ended last band

    def check_stage(self, stage: Stage | str) -> None:
        """Refuse options that cannot work in ``stage``: a knockout match must produce a winner, so
        ``time_up_tie: draw`` and a bye counted as a draw are refused there (docs/rules.md §2, §4)."""
        stage = _enum(Stage, stage, "stage")
        if (stage is Stage.POINTS) != (self.game is Game.DOUDIZHU):
            raise bad_input(
                "A points stage (three-seat tables) is Dou Dizhu's, and Dou Dizhu is played in points stages.",
                "积分赛（三人桌）只用于斗地主，斗地主只能采用积分赛。",
            )
        if stage is Stage.KNOCKOUT and self.time_up_tie is TimeUpTie.DRAW:
            raise bad_input(
                "A knockout match must produce a winner, so time_up_tie 'draw' is not allowed there.",
                "淘汰赛必须分出胜负，不能使用“平局”（time_up_tie: draw）。",
            )

    def to_json(self) -> dict[str, Any]:
        """Every option of this game by name (Guandan and Tractor: all but the Dou Dizhu ones; Dou
        Dizhu: ``game``, ``deals``, ``time_cap_minutes`` and its own, :data:`DOUDIZHU_OPTIONS`)."""
        if self.game is Game.DOUDIZHU:
            return {
                "game": self.game.value,
                "deals": self.deals,
                "time_cap_minutes": self.time_cap_minutes,
                "deal_scoring": self.deal_scoring.value,
                "multiple_cap": self.multiple_cap,
                "base": self.base,
                "landlord_by": self.landlord_by.value,
                "landlord_rotation": self.landlord_rotation.value,
                "cards_left_winner": self.cards_left_winner.value,
                "point_penalties": self.point_penalties.value,
                "reseat": self.reseat.value,
                "bye_points": self.bye_points,
                "forfeit_points": self.forfeit_points_in_force,
                "late_forfeit_minutes": self.late_forfeit_minutes,
            }
        return {
            "game": self.game.value,
            "format": self.format.value,
            "deals": self.deals,
            "games": self.games,
            "upgrades": dict(zip(_PLACE_KEYS, self.upgrades, strict=True)),
            "a_pass": self.a_pass.value,
            "a_failure_limit": self.a_failure_limit,
            "a_reset": self.a_reset.value,
            "time_cap_minutes": self.time_cap_minutes,
            "at_time_up": self.at_time_up.value,
            "time_up_tie": self.time_up_tie.value,
            "cap_scope": self.cap_scope.value,
            "points_table": dict(zip(_PLACE_KEYS, self.points_table, strict=True)),
            "tribute_variant": self.tribute_variant.value,
            "wild_reading": self.wild_reading.value,
            "match_points": self.match_points.to_json(),
            "tie_breakers": list(self.tie_breakers),
            "small_points": self.small_points.value,
            "bye_result": self.bye_result.value,
            "bye_margin": self.bye_margin,
            "forfeit_margin": self.forfeit_margin,
            "late_arrival": [band.to_json() for band in self.late_arrival_bands],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RuleOptions:
        """The inverse of :meth:`to_json`; missing keys take their defaults."""
        return cls().with_overrides(data)

    def to_stored(self) -> dict[str, Any]:
        """The options a stage stores when it is created: :meth:`to_json` without ``game``. The event
        stores its game once; the stage's options are read back with it (:meth:`from_stored`)."""
        stored = self.to_json()
        del stored["game"]
        return stored

    @classmethod
    def from_stored(cls, data: Mapping[str, Any], *, game: Game | str) -> RuleOptions:
        """Options stored with a stage when it was created (its :meth:`to_stored`), read back as options of
        ``game`` — the event's, the one stored answer to "which game" (a ``game`` kept in older stored
        options is read over by it).

        An event keeps the rules it was created with (docs/rules.md). An option added after a stage was
        stored is missing from its object; it is read with its :data:`STORED_BEFORE` value — the behaviour
        the stage was created under — not with today's default. Every other missing key takes its
        default, as in :meth:`from_json`."""
        played = _enum(Game, game, "game")
        if not isinstance(data, Mapping):
            return cls.from_json(data)
        own = DOUDIZHU_OPTIONS if played is Game.DOUDIZHU else GUANDAN_ONLY_OPTIONS
        before = {name: value for name, value in STORED_BEFORE.items() if name in own and name not in data}
        return cls.from_json({**data, **before, "game": played.value})

    def with_overrides(self, overrides: Mapping[str, Any]) -> RuleOptions:
        """These options with some replaced, each given in its JSON form (as in the CLI's ``rules``).

        Unknown names and bad values are ``bad_input`` errors that name the option. When ``format``
        changes, ``deals`` and ``games`` that belonged to the old format are cleared unless given too,
        and a late-arrival table that was not given falls back to the new format's default, so
        ``points-6`` + ``{"format": "level_game"}`` just works.

        Dou Dizhu (docs/rules.md §10) shares only ``game``, ``deals`` and ``time_cap_minutes`` with the other
        games: an option of the other game named beside the game in force is refused by name, and when
        ``game`` changes to or from ``doudizhu`` every option of the old game that is not given goes back
        to its default (``deals`` to 3 for Dou Dizhu), so a stored Dou Dizhu ``to_json`` applied to any
        profile gives the same options.
        """
        if not isinstance(overrides, Mapping):
            raise bad_input(
                "Rule overrides must be a JSON object of option names to values.",
                "规则覆盖项必须是“选项名: 值”的 JSON 对象。",
            )
        from scoring.options_checks import OPTION_PARSERS, other_games_options_refuse  # they read this module

        changes: dict[str, Any] = {}
        for name, value in overrides.items():
            parser = OPTION_PARSERS.get(name)
            if parser is None:
                from scoring.team_options import team_option_misplaced

                team_option_misplaced(name)
                known = ", ".join(OPTION_PARSERS)
                raise bad_input(
                    f"Unknown rule option {name!r}; the options are: {known}.",
                    f"没有规则选项 {name!r}；可用选项：{known}。",
                )
            changes[name] = parser(self, value)
        new_game = changes.get("game", self.game)
        other_games_options_refuse(new_game, overrides)
        if (new_game is Game.DOUDIZHU) != (self.game is Game.DOUDIZHU):
            left_behind = GUANDAN_ONLY_OPTIONS if new_game is Game.DOUDIZHU else DOUDIZHU_OPTIONS
            for name in left_behind:
                if name not in changes:
                    changes[name] = _DEFAULTS[name]
            if "deals" not in changes:
                changes["deals"] = DOUDIZHU_DEFAULT_DEALS if new_game is Game.DOUDIZHU else None
        new_format = changes.get("format", self.format)
        if new_format is not self.format:
            if "deals" not in changes and new_format not in _FIXED:
                changes["deals"] = None
            if "games" not in changes and new_format is not MatchFormat.BEST_OF:
                changes["games"] = None
        if (new_format is not self.format or changes.get("game", self.game) is not self.game) and (
            "late_arrival" not in changes
        ):
            changes["late_arrival"] = None
        result = dataclasses.replace(self, **changes)
        if result.late_arrival is not None and result.late_arrival == default_late_arrival(
            result.game, result.format, upgrades=result.upgrades, points_table=result.points_table
        ):
            # the default table spelled out is the default: keeps to_json → from_json an identity
            result = dataclasses.replace(result, late_arrival=None)
        if result.forfeit_points is not None and result.forfeit_points == -6 * result.base:
            # likewise −6 × base spelled out is the default, so it follows a later change of base
            result = dataclasses.replace(result, forfeit_points=None)
        return result


DOUDIZHU_DEALS: tuple[int, ...] = tuple(range(1, 13))
"""Deals a Dou Dizhu table may play in a round: 1 to 12. Seed 004 says 比赛可以设置多局制，通常为3局、5局或7局 —
"usually" 3, 5 or 7, not only (docs/rules.md §10); 12 keeps a round within a session."""

DOUDIZHU_DEFAULT_DEALS = 3
"""The default: seed 004's first usual count (通常为3局)."""

DOUDIZHU_OPTIONS: tuple[str, ...] = (
    "deal_scoring",
    "multiple_cap",
    "base",
    "landlord_by",
    "landlord_rotation",
    "cards_left_winner",
    "point_penalties",
    "reseat",
    "bye_points",
    "forfeit_points",
    "late_forfeit_minutes",
)
"""The options only Dou Dizhu has (docs/rules.md §10); refused in Guandan and Tractor."""

GUANDAN_ONLY_OPTIONS: tuple[str, ...] = (
    "format",
    "games",
    "upgrades",
    "a_pass",
    "a_failure_limit",
    "a_reset",
    "at_time_up",
    "time_up_tie",
    "cap_scope",
    "points_table",
    "tribute_variant",
    "wild_reading",
    "match_points",
    "tie_breakers",
    "small_points",
    "bye_result",
    "bye_margin",
    "forfeit_margin",
    "late_arrival",
)
"""The options of Guandan and Tractor that Dou Dizhu does not have (it shares ``game``, ``deals`` and
``time_cap_minutes``): its table plays a fixed number of deals with no levels, the deal in play is
finished when time is called, its standings follow docs/rules.md §10, and its late rule is
``late_forfeit_minutes``."""

_DEFAULTS: dict[str, Any] = {
    f.name: (f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default)
    for f in dataclasses.fields(RuleOptions)
}

assert set(DOUDIZHU_OPTIONS) | set(GUANDAN_ONLY_OPTIONS) | {"game", "deals", "time_cap_minutes"} == set(_DEFAULTS), (
    "every option belongs to Dou Dizhu, to the other games, or to all"
)


STORED_BEFORE: Mapping[str, Any] = MappingProxyType(
    {
        "landlord_rotation": LandlordRotation.NONE.value,
        "cards_left_winner": CardsLeftWinner.SIDE.value,
        "point_penalties": PointPenalties.RECORDED.value,
    }
)
"""Options added after stages were stored, each with the JSON value that reproduces how the rules core
behaved before it (:meth:`RuleOptions.from_stored`): a stage created earlier keeps its results, one created
now stores the option with its value."""

assert set(STORED_BEFORE) <= set(_DEFAULTS), "a stored-before value names an option"

_PLACE_KEYS = ("1-2", "1-3", "1-4")
_FIXED = (MatchFormat.FIXED_DEALS_POINTS, MatchFormat.FIXED_DEALS_LEVELS)

E = TypeVar("E", bound=Enum)


def _enum(kind: type[E], value: object, name: str) -> E:
    if isinstance(value, kind):
        return value
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(str(member.value) for member in kind)
        raise bad_input(
            f"Option {name!r} must be one of {choices}; got {value!r}.",
            f"选项 {name!r} 必须是以下之一：{choices}；收到 {value!r}。",
        ) from None
