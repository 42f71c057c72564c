"""The demo's lunch-break league (午间联赛, docs/rules.md §12): three short Guandan events of the company's
players — seed 004's company knockout of 8 pairs, six deals a match (``points-6``) — counted in one series
(系列赛 / 年度积分, §12.3), the partners changing from one event to the next. The first two are played out
(each finishes by itself when its final is signed off); the third plays its quarter-finals at times the
pairs choose (a self-scheduled round, §12.1): opened with a deadline some days ahead, the players
entering the deals on their phones and the opponents confirming — one match confirmed, one reported
(an entry awaits the opponents), one half played, one not yet played (its deadline extended for a
player who travels). Built through the services like the rest of the demo (the roster import,
check-in, the draw, the players' entry and confirmation, sign-off, the series' table and events, an
announcement)."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from openpyxl import Workbook

from tournament.draw.services import bracket_after_result, round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.exports.models import Series
from tournament.exports.series import series_create, series_event_add, series_points_set
from tournament.matches.deadlines import event_aware, match_deadline_extend, round_open_self_scheduled
from tournament.matches.models import Match, MatchStatus, Round, RoundStatus, Stage
from tournament.matches.player_entry import deal_claim_confirm, deal_claim_enter, seat_pin, table_players
from tournament.matches.services import deal_record, match_sign_off
from tournament.matches.table_links import table_token
from tournament.registration import services
from tournament.registration.announcements import announcement_post
from tournament.registration.lifecycle import tournament_status_set, tournament_update
from tournament.registration.models import EntryMode, Tournament, TournamentStatus
from tournament.registration.roster import roster_import
from tournament.site.demo_rosters import name_draw, workbook_upload

SERIES_NAME = "联鑫钢铁午间掼蛋联赛 · 年度积分"
LEAGUE_NAMES = ("联鑫钢铁午间掼蛋联赛第一站", "联鑫钢铁午间掼蛋联赛第二站", "联鑫钢铁午间掼蛋联赛第三站")
VENUE = "职工食堂二楼"
PLAYERS = 18  # the league's regulars: 16 of them play each event, in new pairs
PAIRS = 8
FIRST_NUMBER = 20001  # their employee numbers, which make them the same players across the events
POINTS = {"places": {"1": 10, "2": 8, "3": 6, "4": 5, "5": 4}, "others": 1}
"""The series points by final place: a knockout of 8 places 1–4 and shares 5th among the four quarter-finalists."""
DEADLINE_DAYS = 4  # the self-scheduled round's deadline: this many days ahead, at 18:00 in the event's time zone
DEPARTMENTS = ("炼钢厂", "轧钢厂", "财务部", "销售公司", "设备部", "物流中心")


@dataclass
class TableVisit:
    """What a visitor needs to play a player at a table: the table's link, and who can confirm the entry
    awaiting the opponents there — their name, seat, employee number (to say who they are) and seat PIN (to
    confirm, as on the seat slip)."""

    token: str
    name: str
    seat: str
    employee_number: str
    pin: str


@dataclass
class LeagueSummary:
    series: Series
    events: list[Tournament]
    open_round: Round  # the third event's self-scheduled quarter-finals
    table_visit: TableVisit  # table 2, where an entry awaits the opponents


def _players(rng: random.Random, names: tuple[str, str]) -> list[tuple[str, str, str]]:
    """The league's regulars: (name, employee number, department)."""
    taken: set[str] = set()
    regulars = []
    for index in range(PLAYERS):
        name = name_draw(rng, taken, names)
        regulars.append((name, str(FIRST_NUMBER + index), DEPARTMENTS[index % len(DEPARTMENTS)]))
    return regulars


def _roster(rng: random.Random, regulars: list[tuple[str, str, str]]) -> io.BytesIO:
    """One event's roster: 16 of the regulars, paired anew (two rows naming each other make a pair)."""
    playing = rng.sample(regulars, PAIRS * 2)
    book = Workbook()
    sheet = book.active
    sheet.append(["姓名", "工号", "部门", "搭档工号", "手机"])
    for index, (name, number, department) in enumerate(playing):
        partner = playing[index + 1 if index % 2 == 0 else index - 1][1]
        sheet.append([name, number, department, partner, f"139{int(number):08d}"])
    return workbook_upload(book)


def _event(
    name: str, starts_on: date, rng: random.Random, regulars: list[tuple[str, str, str]], organiser: User
) -> tuple[Tournament, Stage]:
    """An event of 8 checked-in pairs and its knockout, a fixed bracket drawn by lot with a third-place match."""
    tournament = services.tournament_create(
        name=name, rule_profile="points-6", venue=VENUE, starts_on=starts_on, organiser=organiser
    )
    roster_import(tournament=tournament, file=_roster(rng, regulars), user=organiser)
    for pair in tournament.pairs.all():
        services.pair_check_in(pair=pair)
    stage = stage_create(
        tournament=tournament,
        name="淘汰赛",
        format="knockout",
        options={"bracket": "fixed", "seeding": "random", "third_place": True},
        user=organiser,
    )
    return tournament, stage


def _play_out(tournament: Tournament, stage: Stage, rng: random.Random, orders: list[list[str]], user: User) -> None:
    """Play the knockout to its final: each round published, its matches played and signed off, and the
    bracket's next round (drawn at the last sign-off, as the sign-off's hook does) published in turn."""
    round_ = round_draw(stage=stage, seed=rng.randrange(10**6), user=user)
    while True:
        round_ = round_publish(round_=round_, user=user)
        for match in round_.matches.filter(status=MatchStatus.PENDING).order_by("table__number"):
            _referee_plays(match, rng, orders, user)
            match_sign_off(match_id=match.pk, user=user)
            # The hook of the sign-off, asked here too: the demo's one transaction holds the hooks
            # back until it commits, and it is idempotent (a bracket already advanced stays).
            bracket_after_result(match=match, user=user)
        following = stage.rounds.filter(status=RoundStatus.DRAFT).first()
        if following is None:
            break
        round_ = following
    # The final decided the event: finished, as the sign-off's hook does (a no-op once it has).
    tournament_status_set(tournament=tournament, status=TournamentStatus.FINISHED, user=user)


def _referee_plays(match: Match, rng: random.Random, orders: list[list[str]], user: User) -> None:
    while True:
        entry = deal_record(match_id=match.pk, outcome={"order": rng.choice(orders)}, user=user)
        if entry.match.status != MatchStatus.RUNNING:
            return


def _players_enter(match: Match, rng: random.Random, orders: list[list[str]], *, deals: int, confirmed: int) -> None:
    """The players' phones: a N/S player enters ``deals`` deals, an E/W player confirms the first ``confirmed``."""
    seats = {seat.seat: seat.player for seat in table_players(match=match)}
    for number in range(1, deals + 1):
        entry = deal_claim_enter(
            match_id=match.pk,
            outcome={"order": rng.choice(orders)},
            player_id=seats["N"].pk,
            number=number,
            idempotency_key=f"demo-league-{match.pk}-{number}",
        )
        if number <= confirmed:
            deal_claim_confirm(match_id=match.pk, claim_id=entry.claim.pk, player_id=seats["E"].pk)
            match.refresh_from_db(fields=["status"])
            if match.status == MatchStatus.FINISHED:  # six deals, or a seventh after a tie
                return


def _self_scheduled(
    tournament: Tournament, stage: Stage, rng: random.Random, orders: list[list[str]], user: User
) -> tuple[Round, TableVisit]:
    """The quarter-finals opened with a deadline: table 1 confirmed and signed off, table 2 reported (its
    last entry awaits the opponents), table 3 half played, table 4 not yet played (extended two days)."""
    # The players enter the deals on their phones and the opponents confirm (docs/player-entry.md).
    tournament_update(
        tournament=tournament,
        name=tournament.name,
        venue=tournament.venue,
        starts_on=tournament.starts_on,
        entry_mode=EntryMode.PLAYERS_OPPONENTS_CONFIRM,
        user=user,
    )
    round_ = round_publish(round_=round_draw(stage=stage, seed=rng.randrange(10**6), user=user), user=user)
    today = timezone.localdate(timezone.now())
    deadline = event_aware(datetime.combine(today + timedelta(days=DEADLINE_DAYS), time(18, 0)), tournament)
    round_ = round_open_self_scheduled(round_id=round_.pk, deadline=deadline, user=user)
    first, second, third, fourth = round_.matches.order_by("table__number")
    _players_enter(first, rng, orders, deals=7, confirmed=7)  # six deals, a seventh on a tie
    match_sign_off(match_id=first.pk, user=user)
    bracket_after_result(match=first, user=user)
    _players_enter(second, rng, orders, deals=4, confirmed=3)
    _players_enter(third, rng, orders, deals=2, confirmed=2)
    match_deadline_extend(
        match_id=fourth.pk, deadline=deadline + timedelta(days=2), reason="一位选手出差，延期两天", user=user
    )
    local = timezone.localtime(deadline, deadline.tzinfo)
    day = f"{local.month}月{local.day}日"
    announcement_post(
        tournament=tournament,
        text=(
            f"本站 1/4 决赛自行约赛：请与对手约好午休时间，在 {day} 18:00 前打完。"
            "一方用桌卡上的链接在手机上录入每一副，对方确认；逾期没有确认成绩的比赛，双方均判负。"
        ),
        user=user,
    )
    east = {seat.seat: seat.player for seat in table_players(match=second)}["E"]
    assert second.table_id is not None  # a match against a pair has a table
    token = table_token(round_=round_, table_id=second.table_id)
    return round_, TableVisit(token, east.name, "E", east.employee_number, seat_pin(player_id=east.pk))


def league_demo_build(*, seed: int, organiser: User, names: tuple[str, str], orders: list[list[str]]) -> LeagueSummary:
    """(Re)build the league's events and its series (call inside the demo's transaction)."""
    rng = random.Random(seed + 40)
    Series.objects.filter(name=SERIES_NAME).delete()
    Tournament.objects.filter(name__in=LEAGUE_NAMES).delete()
    regulars = _players(rng, names)
    today = timezone.localdate(timezone.now())
    events = []
    for index, name in enumerate(LEAGUE_NAMES):  # four weeks apart, the last one begun two days ago
        tournament, stage = _event(name, today - timedelta(days=28 * (2 - index) + 2), rng, regulars, organiser)
        events.append(tournament)
        if index < len(LEAGUE_NAMES) - 1:
            _play_out(tournament, stage, rng, orders, organiser)
    open_round, table_visit = _self_scheduled(events[-1], stage, rng, orders, organiser)
    series = series_create(name=SERIES_NAME, user=organiser)
    series_points_set(series=series, table=POINTS, user=organiser)
    for tournament in events:  # the third counts once it is finished
        series_event_add(series=series, tournament=tournament, user=organiser)
        tournament.refresh_from_db()  # its status moved by itself (an update, not this instance)
    return LeagueSummary(series=series, events=events, open_round=open_round, table_visit=table_visit)
