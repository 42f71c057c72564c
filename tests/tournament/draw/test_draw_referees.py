"""Referees to tables: up to N each, optionally by area, every change audited."""

from __future__ import annotations

import pytest

from tests.factories import organiser
from tests.tournament.draw.conftest import make_field, win
from tournament.draw.edits import table_areas_set
from tournament.draw.pairing import Referee
from tournament.draw.referee_assignments import round_referees_assign, round_tables_assign
from tournament.draw.services import round_delete, round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.matches.models import RefereeAssignment, Table
from tournament.matches.referees import referee_active_set, referee_create

pytestmark = pytest.mark.django_db


def draft(pairs: int):
    stage = stage_create(tournament=make_field(pairs), name="预赛", format="swiss")
    return round_draw(stage=stage, seed=1)


def event_referees(round_, count: int) -> list:
    """``count`` referees of the round's event (their accounts): only an event's own referees take its tables."""
    tournament = round_.stage.tournament
    made = [referee_create(tournament=tournament, name=f"裁判{tournament.referees.count() + 1}") for _ in range(count)]
    return [referee.user for referee in made]


def plan_of(round_) -> dict[int, int]:
    return dict(RefereeAssignment.objects.filter(round=round_).values_list("table__number", "referee_id"))


def test_each_referee_takes_at_most_n_consecutive_tables_and_changes_are_audited():
    boss = organiser()
    round_ = draft(20)  # 10 tables
    refs = event_referees(round_, 3)
    round_referees_assign(
        round_=round_, referees=[Referee(r.pk) for r in refs], tables_per_referee=4, user=boss
    )
    plan = plan_of(round_)
    assert sorted(plan) == list(range(1, 11))
    for r in refs:
        tables = sorted(t for t, who in plan.items() if who == r.pk)
        assert 1 <= len(tables) <= 4 and tables == list(range(tables[0], tables[-1] + 1))
    assert RefereeAssignment.history.filter(history_type="+", history_user=boss).count() == 10
    kept = round_referees_assign(round_=round_, referees=[Referee(r.pk) for r in refs[:2]], tables_per_referee=4)
    assert kept == () and len(plan_of(round_)) == 10  # no table without a referee: the plan changes nothing
    round_referees_assign(round_=round_, referees=[Referee(r.pk) for r in refs[:2]], tables_per_referee=4, replace=True)
    assert len(plan_of(round_)) == 8  # planned afresh: two tables nobody can take
    assert RefereeAssignment.history.filter(history_type="-").count() >= 2
    round_.refresh_from_db()
    assert round_.draw_options["referees"]["tables_per_referee"] == 4


def test_referees_are_kept_to_their_area_while_they_can_be():
    round_ = draft(16)  # 8 tables
    table_areas_set(tournament=round_.stage.tournament, first=1, last=4, area="一楼")
    table_areas_set(tournament=round_.stage.tournament, first=5, last=8, area="二楼")
    assert Table.objects.filter(tournament=round_.stage.tournament, area="二楼").count() == 4
    upstairs, downstairs = event_referees(round_, 2)
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


def test_the_plan_fills_only_the_tables_without_a_referee_and_counts_what_each_holds():
    round_ = draft(16)  # 8 tables
    first, second = event_referees(round_, 2)
    round_tables_assign(round_=round_, referee=second, first=1, last=3)  # by hand
    plan = round_referees_assign(round_=round_, referees=[Referee(first.pk), Referee(second.pk)], tables_per_referee=4)
    assignments = plan_of(round_)
    assert {assignments[t] for t in (1, 2, 3)} == {second.pk}  # the hand-made ones are kept
    assert sorted(item.table for item in plan) == [4, 5, 6, 7, 8]
    assert sum(who == second.pk for who in assignments.values()) == 4  # three held + one more
    assert sum(who == first.pk for who in assignments.values()) == 4


def test_referees_carry_over_by_table_to_the_next_round_and_a_redraw():
    boss = organiser()
    round_ = draft(8)  # 4 tables
    stage = round_.stage
    first, second, third = event_referees(round_, 3)
    round_tables_assign(round_=round_, referee=first, first=1, last=2, user=boss)
    round_tables_assign(round_=round_, referee=second, first=3, last=4, user=boss)
    round_publish(round_=round_)
    for match in round_.matches.exclude(ew_pair=None):
        win(match)
    following = round_draw(stage=stage, seed=2)
    assert plan_of(following) == {1: first.pk, 2: first.pk, 3: second.pk, 4: second.pk}
    assert RefereeAssignment.history.filter(
        round=following, history_change_reason="referees carried over from the previous round"
    ).count() == 4

    # A referee made inactive is not carried over; a redraw of the draft carries over again.
    round_tables_assign(round_=following, referee=third, first=4)
    referee_active_set(referee=second.referee_profile, active=False)
    round_delete(round_=following, reason="redraw")
    redrawn = round_draw(stage=stage, seed=3)
    assert plan_of(redrawn) == {1: first.pk, 2: first.pk}
