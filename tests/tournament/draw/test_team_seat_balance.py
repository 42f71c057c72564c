"""Which team is X (drawn first, docs/rules.md §11) is the draw's choice, made for the pairs' seats: X seats
its pair 1 N/S and its pair 2 E/W, so the team owed X is the one whose pair 1 sat E/W more often. Over a
Swiss of team matches every pair sits N/S and E/W in turn, and the draw's seat-balance warning (which
still applies to team rounds: a pair can be seated against what it is owed) stays quiet."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.factories import PairFactory, TournamentFactory
from tests.tournament.team_play import x_wins, y_wins
from tournament.draw.selectors import round_warnings
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.draw.team_matches import team_line_up_set, team_seat_need
from tournament.matches.models import RoundEntry, TeamMatch
from tournament.registration.teams import team_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("first", "second", "need", "last"),
    [
        ((), (), 0, None),  # nothing played: owed nothing
        (("NS",), ("EW",), -1, "NS"),  # was X once: owed Y
        (("NS", "EW"), ("EW", "NS"), 0, "EW"),
        (("EW", "EW"), ("NS", "NS"), 2, "EW"),  # twice Y: owed X, as much as its pair 1 is owed N/S
        (("NS",), ("NS",), 0, "NS"),  # line-up changed: the pairs owe opposite ways, the team nothing
        ((), ("NS",), 1, "EW"),  # a substitute beside a pair owed E/W: owed X (its pair 2 sits E/W)
        ((), ("EW", "EW", "NS"), -1, "EW"),  # pair 2 owed N/S (Y seats it there); last seated as Y
    ],
)
def test_a_team_is_owed_what_its_line_up_is_owed(first, second, need, last):
    assert team_seat_need(first=first, second=second) == (need, last)


def _event(teams: int):
    event = TournamentFactory()
    for number in range(teams):
        team_create(tournament=event, name=f"队{number + 1}", pairs=[PairFactory(tournament=event) for _ in range(2)])
    return event, stage_create(tournament=event, name="团体瑞士移位", format="swiss", options={"team_match": True})


def _seats(stage) -> dict[int, Counter[str]]:
    seats: dict[int, Counter[str]] = {}
    for pair_id, side in RoundEntry.objects.filter(round__stage=stage, match__ew_pair__isnull=False).values_list(
        "pair_id", "side"
    ):
        seats.setdefault(pair_id, Counter())[side] += 1
    return seats


def _seat_warned(round_) -> set[int]:
    """The pairs the round's seat-balance warnings name."""
    warnings = [w for found in round_warnings(round_=round_).values() for w in found if w.code == "seat_imbalance"]
    return {int(pair) for w in warnings for pair in w.entrants}


def _play(round_) -> None:
    """Team X wins the first team match, team Y the second, … (so a score group holds teams owed both ways)."""
    rows = TeamMatch.objects.filter(round=round_, team_y__isnull=False).select_related("table_a", "table_b")
    for index, row in enumerate(rows.order_by("number")):
        (x_wins if index % 2 == 0 else y_wins)(row)


def test_the_team_owed_x_is_drawn_first_and_every_pair_sits_both_ways_in_turn():
    _made, stage = _event(4)
    first = round_publish(round_=round_draw(stage=stage, seed=3))
    was_x = set(TeamMatch.objects.filter(round=first).values_list("team_x_id", flat=True))
    _play(first)
    second = round_draw(stage=stage, seed=4)
    assert _seat_warned(second) == set()
    # round 2 meets winner with winner, loser with loser: one of each was X in round 1, and the other is X now
    rows = list(TeamMatch.objects.filter(round=second))
    assert len(rows) == 2 and all(row.team_x_id not in was_x and row.team_y_id in was_x for row in rows)
    _play(round_publish(round_=second))
    assert {pair: (seats["NS"], seats["EW"]) for pair, seats in _seats(stage).items()} == dict.fromkeys(
        _seats(stage), (1, 1)
    )
    third = round_draw(stage=stage, seed=5)
    assert _seat_warned(third) == set()


def test_a_changed_line_up_is_still_warned_of_when_it_seats_a_pair_against_its_due():
    _made, stage = _event(4)
    first = round_publish(round_=round_draw(stage=stage, seed=3))
    _play(first)
    second = round_draw(stage=stage, seed=4)
    assert _seat_warned(second) == set()
    # team X of round 2 was Y in round 1 (its pair 1 sat E/W, its pair 2 N/S): with its pairs swapped each
    # sits where it sat before, and the warning names both
    row = TeamMatch.objects.filter(round=second).select_related("team_x").first()
    one, two = (m.pair for m in row.team_x.members.select_related("pair").order_by("position"))
    team_line_up_set(round_=second, team=row.team_x, first=two, second=one)
    assert _seat_warned(second) == {one.pk, two.pk}
