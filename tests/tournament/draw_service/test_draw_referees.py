"""Referees to tables: up to N each, optionally by area, every change audited."""

from __future__ import annotations

import pytest

from tests.factories import organiser, referee
from tests.tournament.draw_service.conftest import make_field
from tournament.draw.edits import round_referees_assign, table_areas_set
from tournament.draw.pairing import Referee
from tournament.draw.services import round_draw
from tournament.draw.stages import stage_create
from tournament.matches.models import RefereeAssignment, Table

pytestmark = pytest.mark.django_db


def draft(pairs: int):
    stage = stage_create(tournament=make_field(pairs), name="预赛", format="swiss")
    return round_draw(stage=stage, seed=1)


def plan_of(round_) -> dict[int, int]:
    return dict(RefereeAssignment.objects.filter(round=round_).values_list("table__number", "referee_id"))


def test_each_referee_takes_at_most_n_consecutive_tables_and_changes_are_audited():
    boss = organiser()
    round_ = draft(20)  # 10 tables
    refs = [referee() for _ in range(3)]
    round_referees_assign(
        round_=round_, referees=[Referee(r.pk) for r in refs], tables_per_referee=4, user=boss
    )
    plan = plan_of(round_)
    assert sorted(plan) == list(range(1, 11))
    for r in refs:
        tables = sorted(t for t, who in plan.items() if who == r.pk)
        assert 1 <= len(tables) <= 4 and tables == list(range(tables[0], tables[-1] + 1))
    assert RefereeAssignment.history.filter(history_type="+", history_user=boss).count() == 10
    round_referees_assign(round_=round_, referees=[Referee(r.pk) for r in refs[:2]], tables_per_referee=4)
    assert len(plan_of(round_)) == 8  # two tables nobody can take
    assert RefereeAssignment.history.filter(history_type="-").count() >= 2
    round_.refresh_from_db()
    assert round_.draw_options["referees"]["tables_per_referee"] == 4


def test_referees_are_kept_to_their_area_while_they_can_be():
    round_ = draft(16)  # 8 tables
    table_areas_set(tournament=round_.stage.tournament, first=1, last=4, area="一楼")
    table_areas_set(tournament=round_.stage.tournament, first=5, last=8, area="二楼")
    assert Table.objects.filter(tournament=round_.stage.tournament, area="二楼").count() == 4
    upstairs, downstairs = referee(), referee()
    plan = round_referees_assign(
        round_=round_,
        referees=[Referee(upstairs.pk, area="二楼"), Referee(downstairs.pk, area="一楼")],
        tables_per_referee=4,
        by_area=True,
    )
    assert not [w for item in plan for w in item.warnings]
    assignments = plan_of(round_)
    assert {assignments[t] for t in range(1, 5)} == {downstairs.pk}
    assert {assignments[t] for t in range(5, 9)} == {upstairs.pk}
