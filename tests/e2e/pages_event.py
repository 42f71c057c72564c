"""One event that has what the main pages show, built through the services as organisers
and referees would: a finished Swiss round (signed off), a second round under way with a failed A
attempt, a forfeit, a referee with a table in each round, an organiser; and a small knockout."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.factories import organiser, referee
from tests.tournament.standings.events import knockout_event, swiss_event
from tournament.matches.models import Match, RefereeAssignment
from tournament.matches.services import adjustment_record, deal_record, match_sign_off

PASSWORD = "pages-browser-pass-1"


@dataclass
class PagesEvent:
    tournament_id: int
    first_round_id: int
    second_round_id: int
    finished: Match
    """A match of the finished first round, at the referee's table."""
    running: Match
    """A match of round 2 under way: N/S at A after three deals, then a failed A attempt."""
    forfeited: Match
    """A match of round 2 that E/W forfeited."""
    knockout_id: int
    referee: Any
    organiser: Any


def user_with_password(make: Any, username: str) -> Any:
    user = make(username=username)
    user.set_password(PASSWORD)
    user.save()
    return user


def pages_event() -> PagesEvent:
    event = swiss_event()
    for match in event.first.matches.exclude(ew_pair=None):
        match_sign_off(match_id=match.pk)  # every table confirmed: round 1 is finished
    event.first.refresh_from_db()
    played = list(event.second.matches.exclude(ew_pair=None).order_by("table__number"))
    running, forfeited = played[0], played[1]
    for order in (["N", "S"], ["N", "S"], ["N", "S"], ["N", "E", "W"]):  # timed-40: A, then A failed
        deal_record(match_id=running.pk, outcome={"order": order})
    adjustment_record(match_id=forfeited.pk, pair_id=forfeited.ew_pair_id, kind="forfeit", reason="未到场")
    finished = event.first.matches.exclude(ew_pair=None).order_by("table__number").first()
    ref = user_with_password(referee, "pages-ref")
    RefereeAssignment.objects.create(round=event.first, table=finished.table, referee=ref)
    RefereeAssignment.objects.create(round=event.second, table=running.table, referee=ref)
    boss = user_with_password(organiser, "pages-boss")
    event.tournament.organisers.add(boss)
    knockout, _rounds = knockout_event()
    return PagesEvent(
        tournament_id=event.tournament.pk,
        first_round_id=event.first.pk,
        second_round_id=event.second.pk,
        finished=finished,
        running=Match.objects.get(pk=running.pk),
        forfeited=Match.objects.get(pk=forfeited.pk),
        knockout_id=knockout.pk,
        referee=ref,
        organiser=boss,
    )


