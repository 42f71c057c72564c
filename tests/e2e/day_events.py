"""Small events for the organiser's-day browser tests, built through the services as an organiser
and referees would (what a test looks at is done in the browser; what it stands on is built here)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.factories import organiser
from tests.tournament.draw.conftest import confirm, make_field
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_advance, stage_create
from tournament.matches.models import Round, Stage
from tournament.registration.models import Tournament


@dataclass
class Day:
    tournament: Tournament
    boss: Any
    swiss: Stage
    knockout: Stage


def boss_of(tournament: Tournament) -> Any:
    boss = organiser(username=f"boss-{tournament.pk}", first_name="赵主任")
    tournament.organisers.add(boss)
    return boss


def played(round_: Round) -> Round:
    """Every table of a published round won by the lower-numbered pair's side and signed off."""
    for match in round_.matches.exclude(ew_pair=None).order_by("table__number"):
        confirm(match, "NS" if match.ns_pair_id < match.ew_pair_id else "EW")
    return round_


def swiss_then_knockout(*, pairs: int = 6, swiss_rounds: int = 1) -> Day:
    """A Swiss stage (4 advancing) played and signed off, and a fixed-bracket knockout with a
    third-place match after it, not yet fed."""
    tournament = make_field(pairs)
    boss = boss_of(tournament)
    swiss = stage_create(tournament=tournament, name="瑞士移位", format="swiss", advance_count=4)
    for number in range(1, swiss_rounds + 1):
        played(round_publish(round_=round_draw(stage=swiss, seed=number)))
    knockout = stage_create(
        tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed", "third_place": True}
    )
    return Day(tournament=tournament, boss=boss, swiss=swiss, knockout=knockout)


def finished_day(*, pairs: int = 6) -> Day:
    """:func:`swiss_then_knockout` played to the end: semi-finals, then the final and the
    third-place match, all signed off (the event is finished)."""
    day = swiss_then_knockout(pairs=pairs)
    stage_advance(stage=day.swiss, next_stage=day.knockout, user=day.boss)
    played(round_publish(round_=round_draw(stage=day.knockout, seed=1)))
    played(round_publish(round_=day.knockout.rounds.get(number=2)))
    day.tournament.refresh_from_db()
    return day
