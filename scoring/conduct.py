"""Table conduct (牌桌规范): each profile's rules of behaviour at the table, in its rulebook's words
(docs/rules.md §7 "Table conduct").

These rules are not scored — how long a play may take, when a player announces the cards left, who
draws and leads the first deal, what a player may not do — but the table and the referee must read
the same text, so there is one text per profile here, Chinese first with its English. The table sheet
(the paper score sheet, printed and .xlsx) and the entry page print it; ``python -m scoring profiles``
lists it beside the options. Each line names the rulebook article it comes from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from scoring.options import LandlordBy, LandlordRotation, RuleOptions

__all__ = ["TABLE_CONDUCT", "ConductLine", "TableConduct", "table_conduct"]


@dataclass(frozen=True, slots=True)
class ConductLine:
    """One rule of conduct: Chinese (``zh``) first, its English (``en``), and where it comes from."""

    zh: str
    en: str
    source: str

    def to_json(self) -> dict[str, str]:
        return {"zh": self.zh, "en": self.en, "source": self.source}


@dataclass(frozen=True, slots=True)
class TableConduct:
    """A profile's conduct rules, in the order the table needs them."""

    profile: str
    lines: tuple[ConductLine, ...]

    title_zh = "牌桌规范"
    title_en = "Table conduct"

    def to_json(self) -> dict[str, Any]:
        return {"title_zh": self.title_zh, "title_en": self.title_en, "lines": [line.to_json() for line in self.lines]}


_DISPUTE = ConductLine(
    "有争议时不得大声喧哗，应举手示意裁判裁定。",
    "In a dispute do not raise your voice: raise a hand and let the referee decide.",
    "seed 002 六",
)

TABLE_CONDUCT: Mapping[str, TableConduct] = MappingProxyType(
    {
        "classic": TableConduct(  # seed 000 开发区掼蛋竞赛规则
            "classic",
            (
                ConductLine(
                    "首副牌：洗牌人的下家切牌并抽出一张牌，按其点数确定第一个摸牌人；摸到这张牌的牌手先出牌。",
                    "First deal: the shuffler's right-hand player cuts and turns a card; its rank tells who draws "
                    "first, and the player who draws that card leads.",
                    "seed 000 八",
                ),
                ConductLine(
                    "以后各副：下游洗牌，上游为下游切牌，下游先摸牌；双下时由上游的下家先摸牌。由进贡给上游的牌手出牌，抗贡时由上游出牌。",
                    "Later deals: 下游 shuffles, 上游 cuts for them, 下游 draws first (after 双下, 上游's right-hand "
                    "player). The player who paid tribute to 上游 leads; after an anti-tribute 上游 leads.",
                    "seed 000 八, 九",
                ),
                ConductLine(
                    "进贡和还牌出现违规时，请招请裁判员判罚。",
                    "A wrong tribute or return: call the referee.",
                    "seed 000 五",
                ),
            ),
        ),
        "timed-40": TableConduct(  # seed 002 掼蛋比赛规则(终审稿)
            "timed-40",
            (
                ConductLine(
                    "出牌时间：原则上每位玩家每次出牌用时控制在25秒以内。",
                    "Time to play: as a rule, each play within 25 seconds.",
                    "seed 002 五(2)b",
                ),
                ConductLine(
                    "临近比赛截止时间时，升级更高的队伍不得故意延误时间，每位玩家出牌用时须控制在30秒以内。",
                    "Near the end of the time, the side with the higher level may not stall; each play within "
                    "30 seconds.",
                    "seed 002 五(2)b",
                ),
                ConductLine(
                    "报牌：手中牌数小于或等于7张时应主动通报手中所剩牌数。",
                    "Announce your cards left, unasked, when you hold 7 or fewer.",
                    "seed 002 五(5)",
                ),
                ConductLine(
                    "第一局：随机翻一张牌，翻牌的玩家为1号，逆时针依次为2、3、4号；以牌点除以4的余数决定谁先摸牌"
                    "（整除为4号；大王当6，小王当3），摸到翻牌的玩家先出牌。",
                    "First deal: a card is turned at random; who turned it is no. 1, then 2, 3, 4 counter-clockwise; "
                    "its rank divided by 4 leaves the number of the first to draw (none left: no. 4; big joker 6, "
                    "small joker 3); whoever draws the turned card leads.",
                    "seed 002 五(1), 五(2)a",
                ),
                ConductLine(
                    "其他局：下游先摸牌（双下时由下游任意一方先摸）；进贡上游的输家先出牌，抗贡时由上游先出牌。",
                    "Later deals: 下游 draws first (after 双下, either of them); the loser who paid 上游 leads, or "
                    "上游 after an anti-tribute.",
                    "seed 002 五(1), 五(2)a",
                ),
                ConductLine(
                    "出过的牌放在自己面前，不能查看其他玩家（包括对家）面前的牌；出错的牌不能收回。",
                    "Keep your played cards in front of you; do not look at anyone else's (your partner's "
                    "included). A wrong play is not taken back.",
                    "seed 002 五(2)b, 五(6)",
                ),
                _DISPUTE,
            ),
        ),
        "timed-90": TableConduct(  # seed 003 联鑫钢铁第四届掼蛋争霸赛
            "timed-90",
            (
                ConductLine(
                    "首副牌：东家洗牌，南家切牌并翻出一张牌（翻出王牌或红心2则重切重翻）；从南家开始按牌点逆时针数出首抓者，"
                    "抓到翻出牌者首圈领出牌。",
                    "First deal: East shuffles, South cuts and turns a card (a joker or ♥2: cut and turn again); "
                    "counting its rank counter-clockwise from South gives the first to draw, and whoever draws "
                    "the turned card leads.",
                    "seed 003 3.1)",
                ),
                ConductLine(
                    "第二副牌起：上游的上家洗牌，上游切牌，下游首抓；双下时上游的下家首抓。进贡给上游者首圈领出，抗贡时由上游领出。",
                    "From deal 2: 上游's left-hand player shuffles, 上游 cuts, 下游 draws first (after 双下, 上游's "
                    "right-hand player). The player who paid 上游 leads; after an anti-tribute 上游 leads.",
                    "seed 003 3.1), 3.5)",
                ),
                ConductLine(
                    "报牌：出完一手牌后，如手中剩余牌不超过10张，应准确、清楚报出剩余张数。",
                    "After each play, with 10 or fewer cards left, announce the number clearly and correctly.",
                    "seed 003 3.3)",
                ),
                ConductLine(
                    "过牌：以语言“过”“不要”或以手敲击桌面表示。",
                    "To pass, say “pass” (过) or “no” (不要), or tap the table.",
                    "seed 003 3.2)",
                ),
                ConductLine(
                    "红心级牌（逢人配）有多种配法时默认配成最大牌；不配最大牌时须在出牌的同时说明。",
                    "A set with a wild card (♥ level card) reads as its largest; to mean another reading, say so "
                    "as you play it.",
                    "seed 003 2.2) 3)",
                ),
            ),
        ),
        "points-6": TableConduct(  # seed 004 掼蛋比赛赛制及规则 (the company knockout)
            "points-6",
            (
                ConductLine(
                    "第一局摸到翻牌的玩家先出牌；以后各局由进贡给第一名（上游）的输家先出牌，抗贡时由第一名出牌。",
                    "The first deal is led by the player who draws the turned card; every later deal by the loser "
                    "who paid tribute to 1st (上游), or by 1st after an anti-tribute.",
                    "seed 004 二 3、4 (seed 002 五(2)a)",
                ),
                ConductLine(
                    "洗牌由第四名玩家洗牌；切牌由上局第一名玩家切牌。",
                    "The 4th of the last deal shuffles; its 1st cuts.",
                    "seed 004 二 5、6",
                ),
                ConductLine(
                    "报牌：手中牌数小于或等于7张时应主动通报手中所剩牌数。",
                    "Announce your cards left, unasked, when you hold 7 or fewer.",
                    "seed 004 二 7",
                ),
                ConductLine(
                    "若后期发现出错牌，不能收回错牌。",
                    "A wrong play found later is not taken back.",
                    "seed 004 二 8",
                ),
            ),
        ),
        "tractor-3deck": TableConduct(  # seed 001 三副牌拖拉机竞赛规则
            "tractor-3deck",
            (
                ConductLine(
                    "每次出牌时间不超过10秒；不得无故拖延比赛时间，领先方上洗手间须征得对手同意。",
                    "Each play within 10 seconds; no stalling — the leading side leaves the table only with the "
                    "opponents' consent.",
                    "seed 001 九(五)",
                ),
                ConductLine(
                    "不得以声音、暗示、动作、表情等不正当手段传递信息；一经发现，轻则该轮自动下台或升级，重则取消参赛资格。",
                    "No signals by voice, hints, gestures or looks: at the least the declarers step down for the "
                    "round, at worst disqualification.",
                    "seed 001 九(四)",
                ),
                ConductLine(
                    "每轮出的牌反扣在自己台前，不得查阅已出过的牌（查已得分除外）；防家所得分放在底牌上面。",
                    "Played cards lie face down in front of you and may not be looked through (points won "
                    "excepted); the defenders keep their points on the bottom cards.",
                    "seed 001 九(二)(三)",
                ),
                ConductLine(
                    "每轮比赛最后10分钟由大会统一再打一副牌。",
                    "In the last 10 minutes of a round the organisers announce one more deal for every table.",
                    "seed 001 三",
                ),
                ConductLine(
                    "端正牌风：不得大声喧哗，不得指责同伴；服从裁判，尊重对手；保持赛场安静，不得在赛场抽烟。",
                    "Play fair: no loud talk, no blaming your partner; obey the referee, respect the opponents; "
                    "keep the hall quiet, no smoking.",
                    "seed 001 一",
                ),
            ),
        ),
        "doudizhu": TableConduct(  # seed 004's three-player texts, the national rules of record
            "doudizhu",
            (
                ConductLine(
                    "叫分：逆时针依次叫1、2、3分或不叫，叫分须高于上家，叫分最高者为地主；无人叫分则重新洗牌发牌。",
                    "Bidding: counter-clockwise, bid 1, 2 or 3 (higher than before) or pass; the highest bidder is "
                    "landlord. If nobody bids, the cards are dealt again.",
                    "seed 004 一 6、7",
                ),
                ConductLine(
                    "地主拿起底牌，首先出牌，然后按逆时针顺序轮流出牌。",
                    "The landlord takes the bottom cards and leads; play runs counter-clockwise.",
                    "seed 004 游戏流程 2、3",
                ),
                ConductLine(
                    "比赛中禁止玩家之间交流和传递信息，严禁任何作弊行为，一经发现将取消比赛资格。",
                    "No talking or signals between players, no cheating of any kind: disqualification.",
                    "seed 004 五 1; 其他注意事项",
                ),
            ),
        ),
    }
)
"""Profile name → its conduct text (docs/rules.md §7)."""


_BIDDING = TABLE_CONDUCT["doudizhu"].lines[0]

_LANDLORD_DRAWN = {
    LandlordRotation.COUNTER_CLOCKWISE: ConductLine(
        "地主：每轮抽签确定本桌第一局的地主座位，以后每局按逆时针轮流坐庄（东→西→南→东），不叫分。",
        "Landlord: the seat of the table's first landlord is drawn by lot each round; then the landlord "
        "passes on each deal counter-clockwise (E → W → S → E). No bidding.",
        "seed 004 二 3 轮流坐庄",
    ),
    LandlordRotation.NONE: ConductLine(
        "地主：每轮抽签确定每个桌子的地主座位，不叫分。",
        "Landlord: the landlord's seat is drawn by lot each round. No bidding.",
        "seed 004 二 3",
    ),
}
"""A Dou Dizhu table whose landlords are drawn by lot (``landlord_by: lot``, docs/rules.md §10) does not
bid: this line stands where the profile's bidding line would, so the table reads the rule it is scored by."""


def table_conduct(profile: str, options: RuleOptions | None = None) -> TableConduct:
    """The conduct text of ``profile``; a profile without one (none today) has no lines.

    With the stage's ``options``, a Dou Dizhu table whose landlords are drawn by lot reads the drawn
    landlord's line (:data:`_LANDLORD_DRAWN`) instead of the bidding line: the text stays the profile's,
    with the one rule its options change."""
    conduct = TABLE_CONDUCT.get(profile, TableConduct(profile, ()))
    if options is None or options.landlord_by is not LandlordBy.LOT or _BIDDING not in conduct.lines:
        return conduct
    drawn = _LANDLORD_DRAWN[options.landlord_rotation]
    return TableConduct(profile, tuple(drawn if line == _BIDDING else line for line in conduct.lines))
