"""Small events for the public pages' tests, built through the services (as organisers and
referees would): a Swiss stage with a finished and a running round, and a knockout with byes."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.matches.models import Match, MatchStatus, Round
from tournament.matches.services import deal_record, match_sign_off
from tournament.registration.models import Pair, Tournament
from tournament.registration.services import PlayerData, pair_register, tournament_create

SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭"


@dataclass
class SwissEvent:
    tournament: Tournament
    pairs: list[Pair]
    first: Round
    second: Round


def pairs_register(tournament: Tournament, count: int, *, start: int = 0) -> list[Pair]:
    """``count`` pairs of two named players each; employee numbers 20001, 20002, …"""
    pairs = []
    for index in range(start, start + count):
        first = PlayerData(
            name=f"{SURNAMES[index % len(SURNAMES)]}{'一二三四五六七八九十'[index % 10]}甲",
            employee_number=str(20001 + 2 * index),
            department="炼钢厂" if index % 2 else "财务部",
        )
        second = PlayerData(name=f"队友{index + 1:02d}", employee_number=str(20002 + 2 * index))
        pairs.append(pair_register(tournament=tournament, first=first, second=second))
    return pairs


def play_out(match: Match, *, winner: str = "NS", deals: int | None = None, loser_first: int = 0) -> Match:
    """Enter deals until the match ends (or ``deals`` of them): ``winner``'s side finishes 1-2,
    after ``loser_first`` deals that the other side wins (so margins differ)."""
    order = ["N", "S"] if winner == "NS" else ["E", "W"]
    for _deal in range(loser_first):
        deal_record(match_id=match.pk, outcome={"order": ["E", "W"] if winner == "NS" else ["N", "S"]})
    played = 0
    while deals is None or played < deals:
        entry = deal_record(match_id=match.pk, outcome={"order": order})
        played += 1
        match = entry.match
        if match.status not in (MatchStatus.PENDING, MatchStatus.RUNNING):
            break
    return match


def swiss_event(*, pairs: int = 8, name: str = "第一届公开赛") -> SwissEvent:
    """Round 1 played out (N/S wins at odd tables), round 2 published with nothing entered."""
    tournament = tournament_create(name=name, rule_profile="timed-40", venue="活动中心", organiser=None)
    registered = pairs_register(tournament, pairs)
    stage = stage_create(tournament=tournament, name="预赛", format="swiss")
    first = round_publish(round_=round_draw(stage=stage, seed=7))
    for index, match in enumerate(first.matches.exclude(ew_pair=None).order_by("table__number")):
        play_out(match, winner="NS" if index % 2 == 0 else "EW", loser_first=index % 3)
    second = round_publish(round_=round_draw(stage=stage, seed=8))
    return SwissEvent(tournament=tournament, pairs=registered, first=first, second=second)


def knockout_event(*, pairs: int = 5) -> tuple[Tournament, list[Round]]:
    """A knockout re-drawn each round (seed 004): 5 pairs → a bye in round 1, then 3 → a bye, then
    a final. Rounds 1 and 2 are played out; the final is published and running."""
    tournament = tournament_create(name="淘汰赛", rule_profile="timed-40", organiser=None)
    pairs_register(tournament, pairs)
    stage = stage_create(tournament=tournament, name="决赛阶段", format="knockout")
    rounds = []
    for _number in range(3):
        round_ = round_publish(round_=round_draw(stage=stage, seed=11))
        rounds.append(round_)
        matches = list(round_.matches.exclude(ew_pair=None).order_by("table__number"))
        if round_.matches.count() == 1 and len(matches) == 1:
            play_out(matches[0], deals=2)  # the final, under way
            break
        for match in matches:
            play_out(match)
            match_sign_off(match_id=match.pk)  # winners go on once signed off
    return tournament, rounds
