"""The demo event of ``make demo``: a realistic company championship, built through the services.

Everything here goes through the same service functions as an organiser's or referee's clicks
(roster import, registration, check-in, …), so the demo also shows that those paths work.
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.db import transaction
from openpyxl import Workbook

from tournament.draw.pairing import Referee
from tournament.draw.referee_assignments import round_referees_assign
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_advance, stage_create
from tournament.exports.services import export_job_start
from tournament.matches.models import Match, MatchStatus, Round
from tournament.matches.referees import referee_create, referee_link_issue
from tournament.matches.services import deal_record, match_sign_off
from tournament.people import Actor
from tournament.registration import services
from tournament.registration.announcements import announcement_post
from tournament.registration.models import Tournament
from tournament.registration.roles import ORGANISERS_GROUP
from tournament.registration.roster import roster_import
from tournament.registration.teams import teams_from_departments
from tournament.site.demo_doudizhu import doudizhu_demo_build
from tournament.site.demo_league import LeagueSummary, league_demo_build
from tournament.site.demo_rosters import name_draw, workbook_upload
from tournament.site.demo_teams import team_demo_build

DEMO_NAME = "联鑫钢铁第五届掼蛋争霸赛"
DEMO_PASSWORD = "guandan-demo"
REFEREE_NAMES = ("周建国", "吴秀英", "郑志强")  # the event's referees (裁判)
DEPARTMENTS = ["炼钢厂", "轧钢厂", "财务部", "销售公司", "设备部", "物流中心"]
SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡"
    "余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯"
    "龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
GIVEN = (
    "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红建国志文斌波辉宇鹏飞浩然"
    "俊杰晓东海燕雪梅立新永春子涵思远嘉怡欣悦"
)
ANNOUNCEMENTS = (  # oldest first
    "瑞士移位三轮成绩已确认，前八名进入淘汰赛，淘汰赛对阵见“对阵图”。",
    "1/4 决赛正在进行，未上场的选手请在二楼观赛区等候；半决赛 15:30 开始，颁奖仪式 17:30 在一楼大厅举行。",
)
PAIRS = 48
SWISS_ROUNDS = 3
# Finishing orders a referee taps, weighted toward the common ones (3- and 4-seat orders).
ORDERS = [
    ["N", "S"],
    ["E", "W"],
    ["N", "E", "S"],
    ["E", "N", "W"],
    ["S", "W", "N"],
    ["W", "S", "E"],
    ["N", "E", "W", "S"],
    ["E", "S", "N", "W"],
]


@dataclass
class DemoSummary:
    tournament: Tournament
    logins: list[tuple[str, str, str]]
    referee_links: list[tuple[str, str]]  # (name, one-time sign-in token) of the event's referees
    doudizhu: Tournament | None = None
    teams: Tournament | None = None
    league: LeagueSummary | None = None


def _user(username: str, group: str, *, staff: bool = False) -> None:
    user, _created = get_user_model().objects.get_or_create(username=username)
    user.set_password(DEMO_PASSWORD)
    user.is_staff = staff
    user.save()
    user.groups.add(Group.objects.get_or_create(name=group)[0])


def _roster(rng: random.Random, pairs: int) -> io.BytesIO:
    """The organiser's Excel roster: ``pairs`` pairs, each from one of six departments."""
    book = Workbook()
    sheet = book.active
    sheet.append(["姓名", "工号", "部门", "搭档工号", "手机"])
    names: set[str] = set()
    number = 10001
    for index in range(pairs):
        department = DEPARTMENTS[index % len(DEPARTMENTS)]
        for partner_offset in (1, -1):
            name = name_draw(rng, names, (SURNAMES, GIVEN))
            phone = f"13{rng.randrange(10**8, 10**9)}"
            sheet.append([name, str(number), department, str(number + partner_offset), phone])
            number += 1
    return workbook_upload(book)


def demo_build(*, seed: int = 2026, pairs: int = PAIRS, swiss_rounds: int = SWISS_ROUNDS) -> DemoSummary:
    """(Re)build the demo event; other tournaments are left alone."""
    rng = random.Random(seed)
    _user("organiser", ORGANISERS_GROUP, staff=True)
    organiser = get_user_model().objects.get(username="organiser")
    with transaction.atomic():
        Tournament.objects.filter(name=DEMO_NAME).delete()
        tournament = services.tournament_create(
            name=DEMO_NAME, rule_profile="timed-40", venue="集团职工活动中心", organiser=organiser
        )
        roster_import(tournament=tournament, file=_roster(rng, pairs), user=organiser)
        entrants = list(tournament.pairs.order_by("id"))
        for pair in entrants[:-2]:  # two pairs have not arrived yet
            services.pair_check_in(pair=pair)
        # The event's own referees, as its organiser makes them; each signs in with a one-time link.
        made = [referee_create(tournament=tournament, name=name, user=organiser) for name in REFEREE_NAMES]
        referee_links = [(referee.name, referee_link_issue(referee=referee, user=organiser).token) for referee in made]
        referees = [referee.user for referee in made]
        # Seed 004's shape: Swiss preliminaries (40-minute games), then the top 8 in a knockout
        # played to seed 003's 90-minute rules with a third-place match.
        # Department against department (docs/rules.md §11): one team per department, ranked by the
        # best four pairs' results in the Swiss beside the pairs' own ranking.
        teams_from_departments(tournament=tournament, user=organiser)
        swiss = stage_create(
            tournament=tournament,
            name="预赛（瑞士移位）",
            format="swiss",
            options={"department_rounds": 1, "team_total": True, "team_count": 4},
            advance_count=min(8, len(entrants) // 2),
        )
        for number in range(1, swiss_rounds + 1):
            round_ = round_publish(round_=round_draw(stage=swiss, seed=seed + number, user=organiser), user=organiser)
            _assign_referees(round_, referees, organiser)
            _play_round(round_, rng, organiser, finish=True)
        knockout = stage_create(
            tournament=tournament,
            name="淘汰赛",
            format="knockout",
            rule_profile="timed-90",
            options={"bracket": "fixed", "third_place": True},
        )
        stage_advance(stage=swiss, next_stage=knockout, user=organiser)
        quarter_finals = round_publish(round_=round_draw(stage=knockout, seed=seed, user=organiser), user=organiser)
        _assign_referees(quarter_finals, referees, organiser, replace=True)  # a new day's tables
        # The quarter-finals are under way: some confirmed, one being played, one not started.
        _play_round(quarter_finals, rng, organiser, finish=False)
        # The organiser's notices to the players, newest first on the event's page (docs/rules.md §12.2).
        for text in ANNOUNCEMENTS:
            announcement_post(tournament=tournament, text=text, user=organiser)
        # the third game: Dou Dizhu for individuals at three-seat tables
        doudizhu = doudizhu_demo_build(seed=seed, organiser=organiser, departments=DEPARTMENTS, names=(SURNAMES, GIVEN))
        # department against department: a team match Swiss of the departments' teams, one round in play
        teams = team_demo_build(seed=seed, organiser=organiser, roster=_roster, orders=ORDERS)
        # the lunch-break league: two events played out in a series, the third's round self-scheduled
        league = league_demo_build(seed=seed, organiser=organiser, names=(SURNAMES, GIVEN), orders=ORDERS)
    export_job_start(tournament=tournament, user=organiser)  # the organiser's workbook, ready to download
    logins = [("organiser", "organiser", DEMO_PASSWORD)]
    return DemoSummary(
        tournament=tournament,
        logins=logins,
        referee_links=referee_links,
        doudizhu=doudizhu,
        teams=teams,
        league=league,
    )


def _assign_referees(round_: Round, referees: Sequence[User], user: Actor | None, *, replace: bool = False) -> None:
    """The automatic plan: the tables the draw carried over keep their referees unless ``replace``."""
    tables = round_.matches.exclude(table=None).count()
    round_referees_assign(
        round_=round_,
        referees=[Referee(id=referee.pk) for referee in referees],
        tables_per_referee=max(1, -(-tables // len(referees))),
        replace=replace,
        user=user,
    )


def _play_round(round_: Round, rng: random.Random, user: Actor | None, *, finish: bool) -> None:
    """Play a round out (every result signed off), or leave it under way: a third of the tables
    confirmed, a third being played, a third not started."""
    matches = list(round_.matches.filter(status=MatchStatus.PENDING).order_by("table__number"))
    for index, match in enumerate(matches):
        if finish or index % 3 == 0:
            _play_match(match, rng, user, max_deals=None)
            match_sign_off(match_id=match.pk, user=user)
        elif index % 3 == 1:
            _play_match(match, rng, user, max_deals=rng.randrange(2, 9))


def _play_match(match: Match, rng: random.Random, user: Actor | None, *, max_deals: int | None) -> None:
    """Enter random deals the way a referee would, until the match ends (or ``max_deals``)."""
    played = 0
    while max_deals is None or played < max_deals:
        entry = deal_record(match_id=match.pk, outcome={"order": rng.choice(ORDERS)}, user=user)
        played += 1
        if entry.match.status != MatchStatus.RUNNING:
            return
