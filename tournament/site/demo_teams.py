"""The demo's team event (团体对抗, docs/rules.md §11): the company's departments as teams of two pairs
in a team match Swiss of two rounds — round 1 played out and signed off, round 2 under way (one team
match signed off, one being played, one not started) — built through the services like the rest of the
demo (the roster import, check-in, teams from departments, the team draw, deal entry, the team match's
sign-off)."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

from django.contrib.auth.models import User

from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.matches.models import Match, MatchStatus, Round, TeamMatch
from tournament.matches.services import deal_record
from tournament.matches.team_matches import team_match_sign_off
from tournament.people import Actor
from tournament.registration import services
from tournament.registration.models import Tournament
from tournament.registration.roster import roster_import
from tournament.registration.teams import teams_from_departments

TEAMS_NAME = "联鑫钢铁部门团体对抗赛"
PAIRS = 12  # two pairs for each of the six departments
ROUNDS = 2


def team_demo_build(
    *, seed: int, organiser: User, roster: Callable[[random.Random, int], io.BytesIO], orders: list[list[str]]
) -> Tournament:
    """(Re)build the team demo event (call inside the demo's transaction); ``roster`` makes the company's
    roster of pairs (their departments in turn), ``orders`` the finishing orders a referee taps."""
    rng = random.Random(seed + 30)
    Tournament.objects.filter(name=TEAMS_NAME).delete()
    tournament = services.tournament_create(
        name=TEAMS_NAME, rule_profile="timed-40", venue="集团职工活动中心", organiser=organiser
    )
    roster_import(tournament=tournament, file=roster(rng, PAIRS), user=organiser)
    for pair in tournament.pairs.all():
        services.pair_check_in(pair=pair)
    teams_from_departments(tournament=tournament, user=organiser)
    stage = stage_create(tournament=tournament, name="团体瑞士移位", format="swiss", options={"team_match": True})
    for number in range(1, ROUNDS + 1):
        round_ = round_publish(round_=round_draw(stage=stage, seed=seed + number, user=organiser), user=organiser)
        _play(round_, rng, organiser, orders, finish=number < ROUNDS)
    return tournament


def _play(round_: Round, rng: random.Random, user: Actor | None, orders: list[list[str]], *, finish: bool) -> None:
    """Play a round's team matches out, or leave them under way: the first signed off, the second's
    table a finished and table b being played, the rest not started."""
    for index, row in enumerate(TeamMatch.objects.filter(round=round_, team_y__isnull=False).order_by("number")):
        if finish or index == 0:
            for table in (row.table_a, row.table_b):
                _play_table(table, rng, user, orders, deals=None)
            team_match_sign_off(team_match=row, user=user)
        elif index == 1:
            _play_table(row.table_a, rng, user, orders, deals=None)
            _play_table(row.table_b, rng, user, orders, deals=rng.randrange(2, 6))


def _play_table(
    match: Match | None, rng: random.Random, user: Actor | None, orders: list[list[str]], *, deals: int | None
) -> None:
    assert match is not None  # a team match against a team has both tables
    played = 0
    while deals is None or played < deals:
        entry = deal_record(match_id=match.pk, outcome={"order": rng.choice(orders)}, user=user)
        played += 1
        if entry.match.status != MatchStatus.RUNNING:
            return
