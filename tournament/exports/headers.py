"""Every header, sheet name and value label of the exported files, in Chinese and English.

Sheet headers are data, not UI text: an organiser's workbook is in Chinese by default whatever the
language of the page, and in English on request. So they live here, in one table per sheet, rather
than in the gettext catalogue. The registration sheet's headers are the roster importer's own
(``roster.COLUMNS``), so an exported roster can be imported again; the standings' tie-break titles
are the rules core's (``scoring.standings.METRICS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from types import MappingProxyType
from typing import TYPE_CHECKING

from django.utils import translation

from scoring.standings import METRICS, StandingRow
from tournament import labels
from tournament.columns import DEFAULT_LANGUAGE as DEFAULT_LANGUAGE  # the sheets' column type, named here too
from tournament.columns import LANGUAGES as LANGUAGES
from tournament.columns import Column as Column
from tournament.columns import Language as Language
from tournament.columns import styles as styles
from tournament.columns import titles as titles
from tournament.columns import widths as widths
from tournament.registration.roster import COLUMNS as ROSTER_COLUMNS

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def _roster(key: str, en: str, width: float) -> Column:
    # The importer matches headers case-insensitively; English titles are its English aliases.
    assert en.lower() in ROSTER_COLUMNS[key], f"{en!r} is not a header roster_import accepts"
    return Column(key, ROSTER_COLUMNS[key][0], en, width)


# Columns that several sheets have, defined once (a sheet lists them among its own).
ROUND = Column("round", "轮次", "Round", 6)
TABLE_NUMBER = Column("table", "桌号", "Table", 6)
MATCH_PLACE = (Column("match", "比赛编号", "Match no.", 9), Column("stage", "阶段", "Stage", 10), ROUND, TABLE_NUMBER)
"""A match by its number (as the results sheet numbers it) and where it was played: the first columns
of the sheets of matches and deals (every game's), and of adjustments after their time."""

RANKED = (Column("rank", "名次", "Rank", 6), Column("shared", "并列", "Shared", 6))
"""A ranking's first columns: the place, and whether another shares it."""

LEVELS_AFTER = (
    Column("ns_after", "南北级数", "N/S level after", 9),
    Column("ew_after", "东西级数", "E/W level after", 9),
)
"""Both sides' levels after a deal or an adjustment (Guandan, Tractor)."""

ENTERED = (
    Column("flagged", "待核对", "Needs referee", 8),
    Column("entered_by", "录入人", "Entered by", 12),
    Column("entered_at", "录入时间", "Entered at", 17, "datetime"),
)
"""A deal's entry: whether the referee must look at it again, who entered it and when."""

PAIR_NUMBER = Column("pair", "对号", "Pair no.", 8)
PLAYER_NUMBER = Column("player", "选手编号", "Player no.", 8)
SEED = Column("seed", "种子", "Seed", 6)
STATUS = Column("status", "状态", "Status", 10)
PROVISIONAL = Column("provisional", "待确认", "Awaiting sign-off", 8)
LOTS = Column("lots", "抽签", "Lots", 6)
AREA = Column("area", "区域", "Area", 8)
NOTE = Column("note", "备注", "Note", 8)
NS_PAIR = Column("ns_pair", "南北对号", "N/S pair no.", 9)
EW_PAIR = Column("ew_pair", "东西对号", "E/W pair no.", 9)
TEAM = Column("team", "团体", "Team", 16)
POINTS = Column("points", "积分", "Points", 8)
SMALL_POINTS = Column("small_points", "小分", "Small points", 8)
BYES = Column("byes", "轮空", "Byes", 6)

REGISTRATION = (
    _roster("name", "Name", 16),
    _roster("employee_number", "Employee number", 14),
    _roster("department", "Department", 18),
    _roster("partner", "Partner employee number", 14),
    _roster("phone", "Phone", 15),
    PAIR_NUMBER,
    SEED,
    STATUS,
)

DRAW = (
    TABLE_NUMBER,
    AREA,
    NS_PAIR,
    Column("north", "北", "North", 14),
    Column("south", "南", "South", 14),
    Column("ns_departments", "南北部门", "N/S department", 18),
    EW_PAIR,
    Column("east", "东", "East", 14),
    Column("west", "西", "West", 14),
    Column("ew_departments", "东西部门", "E/W department", 18),
    NOTE,
)

RESULTS = (
    *MATCH_PLACE,
    NS_PAIR,
    Column("ns_name", "南北", "N/S", 22),
    EW_PAIR,
    Column("ew_name", "东西", "E/W", 22),
    Column("status", "状态", "Status", 12),
    Column("ns_level", "南北级数", "N/S level", 9),
    Column("ew_level", "东西级数", "E/W level", 9),
    Column("ns_points", "南北局分", "N/S points", 9),
    Column("ew_points", "东西局分", "E/W points", 9),
    Column("ns_games", "南北胜局", "N/S games", 9),
    Column("ew_games", "东西胜局", "E/W games", 9),
    Column("winner", "胜方", "Winner", 22),
    Column("reason", "胜负原因", "Decided by", 12),
    Column("deals", "副数", "Deals", 6),
    Column("started", "开始时间", "Started", 17, "datetime"),
    Column("finished", "结束时间", "Finished", 17, "datetime"),
    Column("minutes", "用时(分钟)", "Minutes", 9, "decimal1"),
)

DEAL_CHANGES = (
    Column("change", "变更", "Change", 10),
    Column("change_reason", "变更原因", "Reason", 30),
)
"""The deal log's last columns: a corrected deal's reasons, a deleted or undone deal, an adjustment's
effect (``exports.deal_log``)."""

DEAL_NUMBER = Column("deal", "副", "Deal", 5)
LEVEL_PLAYED = Column("level", "打几", "Level played", 7)
UPGRADE = Column("upgrade", "升级", "Upgrade", 6)
EXTRA_DEAL = Column("extra", "加赛", "Extra deal", 7)

DEALS = (
    *MATCH_PLACE,
    DEAL_NUMBER,
    Column("game", "局", "Game", 5),
    LEVEL_PLAYED,
    Column("sets_level", "台上", "Setting side", 7),
    Column("order", "名次顺序", "Finishing order", 12),
    Column("winner_side", "上游方", "1st out side", 8),
    UPGRADE,
    Column("a_attempt", "打A", "A attempt", 7),
    Column("passed_a", "过A", "Passed A", 7),
    Column("reset", "三次不过降2", "Reset to 2", 8),
    EXTRA_DEAL,
    Column("anti_tribute", "抗贡", "Anti-tribute", 7),
    *LEVELS_AFTER,
    *ENTERED,
    *DEAL_CHANGES,
)

DEALS_TRACTOR = (
    # a Tractor event's deal log (seed 001, docs/rules.md §9): declarer and defenders' points, no finishing order
    *MATCH_PLACE,
    DEAL_NUMBER,
    LEVEL_PLAYED,
    Column("declarer", "庄家", "Declarer", 7),
    Column("declarer_seat", "庄家座位", "Declarer's seat", 8),
    Column("defender_points", "防家得分", "Defenders' points", 9),
    Column("bottom", "抠底", "Bottom capture", 12),
    Column("penalty_points", "罚分", "Penalty points", 7),
    Column("total_points", "防家计分", "Defenders' total", 9),
    Column("tractor_result", "结果", "Result", 12),
    UPGRADE,
    Column("revoke", "藏张", "Revoke", 6),
    Column("wrong_bottom", "留错底牌", "Wrong bottom", 8),
    Column("wrong_count", "牌张数目不符", "Wrong card count", 10),
    EXTRA_DEAL,
    *LEVELS_AFTER,
    *ENTERED,
    *DEAL_CHANGES,
)
"""No 过A column: a Tractor side that keeps its A wins the game, which its result says (守A获胜)."""

PAIR_NAME = Column("pair_name", "对名", "Pair", 22)

STANDINGS_FIXED = (
    *RANKED,
    PAIR_NUMBER,
    PAIR_NAME,
    Column("departments", "部门", "Department", 18),
    Column("played", "场数", "Played", 6),
    Column("wins", "胜", "Won", 5),
    Column("draws", "平", "Drawn", 5),
    Column("losses", "负", "Lost", 5),
    Column("byes", "轮空", "Byes", 5),
)

STANDINGS_STAGE = (
    Column("group", "组别", "Group", 6),
    Column("place", "阶段名次", "Stage place", 8),
    Column("withdrawn", "退赛", "Withdrawn", 6),
    PROVISIONAL,
)
"""After the metrics: a grouped round robin's group (``rank`` is then within it), the place in the
whole stage (by group place, then across groups — what prizes award), whether the pair withdrew, and
whether a result counted for it awaits sign-off (the event's policy, marked as on the pages)."""

# Each tie-breaker of the rules core is a column, read from the standings row's attribute of its name.
assert set(METRICS) <= {field.name for field in fields(StandingRow)}, "every tie-breaker needs a row attribute"


def metric_column(name: str) -> Column:
    metric = METRICS[name]
    return Column(name, metric.title_zh, metric.title, 10)


ADJUSTMENTS = (
    Column("created_at", "时间", "When", 17, "datetime"),
    *MATCH_PLACE,
    PAIR_NUMBER,
    PAIR_NAME,
    Column("kind", "类别", "Kind", 10),
    Column("effect", "处理结果", "Effect", 12),
    Column("levels", "对方升级", "Levels to opponents", 9),
    Column("points", "扣分", "Points deducted", 8),
    Column("minutes_late", "迟到(分钟)", "Minutes late", 9),
    Column("reason", "原因", "Reason", 30),
    Column("created_by", "录入人", "Entered by", 12),
    *LEVELS_AFTER,
)

TEAM_STANDINGS = (
    *RANKED,
    Column("team_number", "队号", "Team no.", 8),
    TEAM,
    POINTS,
    SMALL_POINTS,
    Column("best_place", "最佳名次", "Best place", 8),
    LOTS,
    Column("counted", "计分人数", "Counted", 8),
    Column("short", "人数不足", "Short", 8),
    PROVISIONAL,
    Column("members", "计分成员", "Counted members", 40),
)
"""A stage's team total (docs/rules.md §11), as the team standings page: points are match points
(Dou Dizhu: points), small points the first tie-break (Dou Dizhu: deals won), the counted members by
their numbers and places. The two summed columns are titled by :func:`team_standings_columns`."""


def team_standings_columns(*, points: StrOrPromise, second: StrOrPromise) -> tuple[Column, ...]:
    """:data:`TEAM_STANDINGS` with its two summed columns titled in the words the team total gives
    (``StageTeamTotal.words``, the words its pages print: a pair's match points and small points, a Dou
    Dizhu player's points and deals won), in both of the workbook's languages."""
    titled = {"points": _both(points), "small_points": _both(second)}
    return tuple(
        Column(column.key, *titled[column.key], column.width, column.style) if column.key in titled else column
        for column in TEAM_STANDINGS
    )


def _both(word: StrOrPromise) -> tuple[str, str]:
    """A page's (lazy) word in Chinese and in English."""
    with translation.override("zh-hans"):
        zh = str(word)
    with translation.override("en"):
        return zh, str(word)


TEAM_MATCH_STANDINGS = (
    *RANKED,
    TEAM,
    Column("played", "场次", "Played", 6),
    Column("wins", "胜", "Won", 6),
    Column("draws", "平", "Drawn", 6),
    Column("losses", "负", "Lost", 6),
    BYES,
    Column("match_points", "团体场分", "Team match points", 10),
    Column("tables_won", "胜桌数", "Tables won", 8),
    SMALL_POINTS,
    Column("head_to_head", "相互间", "Head-to-head", 8),
    Column("buchholz", "对手分", "Opponents' team match points", 8),
    LOTS,
)
"""A team match stage's team standings (docs/rules.md §11), in the order of its tie-breaks."""

TEAM_MATCH_RESULTS = (
    ROUND,
    Column("number", "场次", "Team match", 8),
    Column("team_x", "团体甲", "Team X", 16),
    Column("team_y", "团体乙", "Team Y", 16),
    Column("table_a", "A 桌比赛编号", "Table a match no.", 10),
    Column("table_b", "B 桌比赛编号", "Table b match no.", 10),
    Column("tables_x", "甲胜桌", "X tables won", 8),
    Column("tables_y", "乙胜桌", "Y tables won", 8),
    Column("small_x", "甲小分", "X small points", 8),
    Column("small_y", "乙小分", "Y small points", 8),
    STATUS,
    Column("winner", "胜方", "Winner", 16),
    Column("reason", "依据", "Decided by", 12),
)
"""Every team match of a team match stage, round by round: the two tables (their match numbers, as on
the results sheet) and the result the rules core decides."""

PRIZE_PLACE = (Column("tier", "奖项", "Prize", 12), RANKED[0])
"""An award's prize and the place it was won with."""

AWARDS = (
    *PRIZE_PLACE,
    PAIR_NUMBER,
    Column("player1", "选手1", "Player 1", 14),
    Column("department1", "部门1", "Department 1", 16),
    Column("player2", "选手2", "Player 2", 14),
    Column("department2", "部门2", "Department 2", 16),
)

# An event of individuals (Dou Dizhu's three-seat tables): the same sheets without a pair's columns —
# a player's number and name instead of a pair's, no partner, no second player, no levels.
REGISTRATION_PLAYERS = (
    _roster("name", "Name", 16),
    _roster("employee_number", "Employee number", 14),
    _roster("department", "Department", 18),
    _roster("phone", "Phone", 15),
    PLAYER_NUMBER,
    SEED,
    STATUS,
)

ADJUSTMENTS_PLAYERS = (
    *(column for column in ADJUSTMENTS if column.key in ("created_at", "match", "stage", "round", "table")),
    PLAYER_NUMBER,
    Column("player_name", "选手", "Player", 16),
    *(
        column
        for column in ADJUSTMENTS
        if column.key in ("kind", "effect", "points", "minutes_late", "reason", "created_by")
    ),
)

AWARDS_PLAYERS = (
    *PRIZE_PLACE,
    PLAYER_NUMBER,
    Column("player1", "选手", "Player", 14),
    Column("department1", "部门", "Department", 16),
)

SHEETS_OF_KIND: Mapping[str, Mapping[str, tuple[Column, ...]]] = MappingProxyType(
    {
        "pairs": MappingProxyType({"registration": REGISTRATION, "adjustments": ADJUSTMENTS, "awards": AWARDS}),
        "players": MappingProxyType(
            {"registration": REGISTRATION_PLAYERS, "adjustments": ADJUSTMENTS_PLAYERS, "awards": AWARDS_PLAYERS}
        ),
    }
)
"""The columns of the registration, adjustments and awards sheets for each entrant kind, by its key
(``tournament.games.entrants``): the writers fill a row by column key and keep the kind's columns."""

# Labels of the values and of the score sheets' printed lines.
WORDS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        # sides and seats
        "NS": ("南北", "N/S"),
        "EW": ("东西", "E/W"),
        "N": ("北", "North"),
        "S": ("南", "South"),
        "E": ("东", "East"),
        "W": ("西", "West"),
        # how a match was decided (scoring.outcome.Reason)
        "passed_a": ("过A", "Passed A"),
        "higher_level": ("级数高", "Higher level"),
        "first_to_reach": ("先到该级", "First to reach"),
        "setting_side": ("台上方", "Setting side"),
        "extra_deal": ("加赛", "Extra deal"),
        "draw": ("平局", "Draw"),
        "points": ("局分", "Points"),
        "games": ("胜局", "Games"),
        "forfeit": ("弃权", "Forfeit"),
        "bye": ("轮空", "Bye"),
        "walkover": ("不战而胜", "Walkover"),
        # a table of a team match on the draw; a team match's state and how it was decided
        "team_table": (
            "团体对抗 {number} · {letter} 桌：{x} 对 {y}",
            "Team match {number} · table {letter}: {x} v {y}",
        ),
        "team_match:in_progress": ("进行中", "In progress"),
        "team_match:finished": ("已结束", "Finished"),
        "team_match:needs_extra_deal": ("待加赛", "Needs a tie-break deal"),
        "team_reason:tables": ("胜桌数", "Tables won"),
        "team_reason:small_points": ("小分", "Small points"),
        "team_reason:total": ("总小分", "Total small points"),
        "team_reason:extra_deal": ("加赛", "Extra deal"),
        "team_reason:draw": ("平局", "Draw"),
        "team_reason:forfeit": ("弃权", "Forfeit"),
        "team_reason:bye": ("轮空", "Bye"),
        # a Tractor deal's verdict (scoring.tractor.TractorResult) and its bottom capture
        "declarers_up": ("庄家升级", "Declarers up"),
        "defenders_take_over": ("防家上台", "Defenders take over"),
        "defenders_up": ("防家上台升级", "Defenders take over and up"),
        "replayed": ("重打", "Replayed"),
        "kept_a": ("守A获胜", "Kept A: game won"),
        # true/false cells
        "yes": ("是", "Yes"),
        "no": ("否", "No"),
        # the deal log's changes (exports.deal_log) and what an adjustment did (scoring.adjustments.Effect)
        "corrected": ("更正", "Corrected"),
        "deleted": ("已删除", "Deleted"),
        "minutes_late": ("{what} {minutes} 分钟", "{what} {minutes} min"),
        "effect_warning": ("警告", "Warning"),
        "effect_opponents_upgrade": ("对方升级", "Opponents up"),
        "effect_points_deducted": ("扣分", "Points deducted"),
        "effect_next_deal_points": ("下一副扣分", "Points off next deal"),
        "effect_first_deal_forfeited": ("首局判负", "First deal forfeited"),
        "effect_forfeit": ("判负", "Forfeit"),
        "both": ("双方", "Both sides"),
        "bottom": ("{points}×{multiplier}={total}", "{points}×{multiplier}={total}"),
        # match status
        "pending": ("未开始", "Not started"),
        "running": ("进行中", "Running"),
        "finished": ("已结束待确认", "Finished"),
        "confirmed": ("已确认", "Confirmed"),
        # pair status
        "registered": ("已报名", "Registered"),
        "checked_in": ("已签到", "Checked in"),
        "withdrawn": ("已退赛", "Withdrawn"),
        # adjustment kinds
        "late_arrival": ("迟到", "Late arrival"),
        "penalty": ("处罚", "Penalty"),
        "warning": ("警告", "Warning"),
        # score sheets
        "score_sheet": ("记分表", "Score sheet"),
        "table": ("桌号", "Table"),
        "round": ("第{round}轮", "Round {round}"),
        "pair": ("对号", "Pair no."),
        "time_cap": ("限时 {minutes} 分钟", "Time cap {minutes} min"),
        "result": ("结果", "Result"),
        "winner": ("胜方", "Winner"),
        "final_levels": ("终局级数", "Final levels"),
        "signature": ("签名", "Signature"),
        "referee": ("裁判", "Referee"),
        "started": ("开始时间", "Started"),
        "finished_at": ("结束时间", "Finished"),
        "no_tiers": ("尚未设置奖项。", "No prize tiers defined yet."),
        "unawarded": (
            "奖项“{tier}”：{places} 个名额未授出（所有排名的对子均已获奖）",
            "Prize “{tier}”: {places} not awarded (every ranked pair already has a prize)",
        ),
        # correction flags (exports.workbook_flags)
        "flag_advancement": ("晋级名单已变更", "Advancement changed"),
        "flag_round": ("第{round}轮按更正前的排名抽签", "Round {round} drawn from changed standings"),
        "flag_open": ("待组织者决定", "Awaiting the organiser"),
        "flag_kept": ("维持原状（附理由）", "Kept, with a reason"),
        "flag_redrawn": ("已重新晋级", "Advanced again"),
        "flag_redrawn_round": ("已重新抽签", "Drawn again"),
        "flag_note": ("更正标记：{kind}（{status}）", "Correction flag: {kind} ({status})"),
        "flag_note_pairs": ("；移出 {out}；移入 {into}", "; out: {out}; in: {into}"),
        "flag_note_reason": ("；理由：{reason}", "; reason: {reason}"),
        "flag_note_tie": (
            "；晋级线上并列，由抽签决定（种子 {seed}）",
            "; a tie at the cut, decided by lots (seed {seed})",
        ),
        "flag_note_see": ("。详见“更正标记”表。", ". See the sheet “Correction flags”."),
        "pair_ref": ("{number}号 {name}", "No. {number} {name}"),
        "pair_moved": (
            "{number}号 第{before}名（{before_points}分）→第{after}名（{after_points}分）",
            "No. {number} place {before} ({before_points} pts) → place {after} ({after_points} pts)",
        ),
        # downloaded file names
        "file_workbook": ("{tournament} 赛事工作簿", "{tournament} workbook"),
        "file_round_draw": ("{tournament} {stage}第{round}轮对阵表", "{tournament} {stage} round {round} draw"),
        "file_score_sheets": (
            "{tournament} {stage}第{round}轮记分表",
            "{tournament} {stage} round {round} score sheets",
        ),
    }
)

SHEETS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "registration": ("参赛名单", "Registration"),
        "draw": ("{stage}第{round}轮对阵", "{stage} R{round} draw"),
        "draw_knockout": ("{stage}{round}对阵", "{stage} {round} draw"),
        "results": ("比赛结果", "Match results"),
        "deals": ("牌局记录", "Deal log"),
        "standings": ("{stage}排名", "{stage} standings"),
        "team_standings": ("{stage}团体排名", "{stage} teams"),
        "team_match_standings": ("{stage}团体对抗排名", "{stage} team standings"),
        "team_match_results": ("{stage}团体对抗成绩", "{stage} team matches"),
        "adjustments": ("调整与处罚", "Adjustments"),
        "awards": ("获奖名单", "Awards"),
        "score_sheets": ("记分表", "Score sheets"),
        "corrections": ("更正标记", "Correction flags"),
    }
)


def word(key: str, language: Language, **values: object) -> str:
    """The label of ``key`` (an unknown key is shown as itself rather than failing an export)."""
    labels = WORDS.get(key)
    if labels is None:
        return key
    text = labels[0] if language == "zh" else labels[1]
    return text.format(**values) if values else text


def round_title(*, number: int, knockout_pairs: int | None, language: Language, third_place: bool = False) -> str:
    """A round (or its third-place match) by its name in the workbook's language (``labels.round_name``,
    the one function every page uses too)."""
    with translation.override("zh-hans" if language == "zh" else "en"):
        return labels.round_name(number=number, knockout_pairs=knockout_pairs, third_place=third_place)


def sheet_name(key: str, language: Language, *, stage: str = "", round: int | str | None = None) -> str:
    """The sheet's name; a long stage name is shortened so the rest of the name still fits in 31."""
    template = SHEETS[key][0] if language == "zh" else SHEETS[key][1]
    rest = len(template.replace("{stage}", "").replace("{round}", str(round or "")))
    stage = stage[: max(31 - rest, 1)]
    return template.format(stage=stage, round=round)
