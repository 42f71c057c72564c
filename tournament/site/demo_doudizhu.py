"""The demo's Dou Dizhu event: 27 players at three-seat tables, a points stage of 3 rounds
with a cut to 9 after round 2, then a final table of 3 under way — built through the services like
the rest of the demo (the individual roster import, check-in, the draw, deal entry, sign-off,
advancement)."""

from __future__ import annotations

import io
import random

from django.contrib.auth.models import User
from openpyxl import Workbook

from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_advance, stage_create
from tournament.matches.models import Match, MatchStatus, Round
from tournament.matches.services import deal_record, match_sign_off
from tournament.people import Actor
from tournament.registration import services
from tournament.registration.models import Tournament
from tournament.registration.roster import roster_import
from tournament.site.demo_rosters import name_draw, workbook_upload

DOUDIZHU_NAME = "联鑫钢铁职工斗地主个人赛"
PLAYERS = 27
ROUNDS = 3
CUT_AFTER, KEEP = 2, 9
FINALISTS = 3


def _roster(rng: random.Random, players: int, departments: list[str], names: tuple[str, str]) -> io.BytesIO:
    """The individual roster: one row per player, no partner column."""
    book = Workbook()
    sheet = book.active
    sheet.append(["姓名", "工号", "部门", "手机"])
    taken: set[str] = set()
    for index in range(players):
        name = name_draw(rng, taken, names)
        sheet.append(
            [name, str(30001 + index), departments[index % len(departments)], f"13{rng.randrange(10**8, 10**9)}"]
        )
    return workbook_upload(book)


def _deal(rng: random.Random) -> dict[str, object]:
    """A plausible deal: a landlord seat, a bid, rarely bombs or a spring, either side winning."""
    return {
        "landlord": rng.choice("ESW"),
        "bid": rng.choice((1, 2, 2, 3, 3)),
        "bombs": rng.choice((0, 0, 0, 1, 1, 2)),
        "spring": rng.random() < 0.08,
        "winner": rng.choice(("landlord", "farmers")),
    }


def _play(round_: Round, rng: random.Random, user: Actor | None, *, deals: int | None = None) -> None:
    """Play every table of ``round_`` out and sign it off (or, with ``deals``, enter only that many)."""
    for match in round_.matches.order_by("table__number"):
        _play_table(match, rng, user, deals=deals)


def _play_table(match: Match, rng: random.Random, user: Actor | None, *, deals: int | None) -> None:
    played = 0
    while deals is None or played < deals:
        entry = deal_record(match_id=match.pk, outcome=_deal(rng), user=user)
        played += 1
        if entry.match.status != MatchStatus.RUNNING:
            break
    if deals is None:
        match_sign_off(match_id=match.pk, user=user)


def doudizhu_demo_build(*, seed: int, organiser: User, departments: list[str], names: tuple[str, str]) -> Tournament:
    """(Re)build the Dou Dizhu demo event (call inside the demo's transaction)."""
    rng = random.Random(seed + 20)
    Tournament.objects.filter(name=DOUDIZHU_NAME).delete()
    tournament = services.tournament_create(
        name=DOUDIZHU_NAME, game="doudizhu", rule_profile="doudizhu", venue="集团职工活动中心", organiser=organiser
    )
    roster_import(tournament=tournament, file=_roster(rng, PLAYERS, departments, names), user=organiser)
    for entrant in tournament.pairs.all():
        services.pair_check_in(pair=entrant)
    points = stage_create(
        tournament=tournament,
        name="积分赛",
        format="points",
        options={"rounds": ROUNDS, "cuts": [{"after_round": CUT_AFTER, "keep": KEEP}]},
        advance_count=FINALISTS,
        user=organiser,
    )
    for number in range(1, ROUNDS + 1):
        round_ = round_publish(round_=round_draw(stage=points, seed=seed + number, user=organiser), user=organiser)
        _play(round_, rng, organiser)
    final = stage_create(
        tournament=tournament, name="决赛", format="points", options={"rounds": 1, "final": True}, user=organiser
    )
    final = stage_advance(stage=points, next_stage=final, user=organiser)
    final_round = round_publish(round_=round_draw(stage=final, seed=seed, user=organiser), user=organiser)
    _play(final_round, rng, organiser, deals=1)  # the final table is under way
    return tournament
