"""Referees managed by the organiser: accounts, one-time links, chief referees, tables by hand."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from tests.factories import TournamentFactory, organiser
from tests.tournament.draw.conftest import make_field
from tournament.draw.edits import table_areas_set
from tournament.draw.pairing import Referee as PlanReferee
from tournament.draw.referee_assignments import round_referees_assign, round_tables_assign
from tournament.draw.selectors import round_referee_loads
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.errors import UserError
from tournament.matches import access
from tournament.matches.models import ChiefReferee, Referee, RefereeAssignment, RefereeSignInLink
from tournament.matches.referees import (
    chief_referee_set,
    referee_accounts_list,
    referee_active_set,
    referee_create,
    referee_link_issue,
    referee_link_redeem,
    referee_list,
)

pytestmark = pytest.mark.django_db


def draft(pairs: int, tournament=None):
    stage = stage_create(tournament=make_field(pairs, tournament=tournament), name="预赛", format="swiss")
    return round_draw(stage=stage, seed=1)


def plan_of(round_) -> dict[int, int]:
    return dict(RefereeAssignment.objects.filter(round=round_).values_list("table__number", "referee_id"))


def test_a_referee_is_made_with_an_account_that_has_no_password_and_is_audited():
    boss = organiser()
    event = TournamentFactory()
    ref = referee_create(tournament=event, name=" 王  裁判 ", phone="13800000000", user=boss)
    assert ref.name == "王 裁判" and ref.phone == "13800000000" and ref.active
    assert not ref.user.has_usable_password() and ref.user.is_active
    assert ref.user.get_full_name() == "王 裁判"
    assert ref.history.get().history_user == boss
    assert [r.name for r in referee_list(tournament=event)] == ["王 裁判"]


def test_bad_referee_input_is_refused_with_field_errors_and_changes_nothing():
    event = TournamentFactory()
    referee_create(tournament=event, name="李", employee_number="E1")
    for kwargs, field in (
        ({"name": "  "}, "name"),
        ({"name": "李"}, "name"),
        ({"name": "张", "employee_number": "E1"}, "employee_number"),
    ):
        with pytest.raises(UserError) as caught:
            referee_create(tournament=event, **kwargs)
        assert field in caught.value.fields
    assert Referee.objects.count() == 1
    other = TournamentFactory()
    assert referee_create(tournament=other, name="李", employee_number="E1").tournament == other  # per event


def test_a_one_time_link_signs_in_once():
    ref = referee_create(tournament=TournamentFactory(), name="赵")
    issued = referee_link_issue(referee=ref)
    assert RefereeSignInLink.objects.get().token_hash != issued.token  # only the hash is kept
    assert referee_link_redeem(token=issued.token) == ref.user
    with pytest.raises(UserError) as caught:
        referee_link_redeem(token=issued.token)
    assert caught.value.code == "link_used"
    with pytest.raises(UserError) as caught:
        referee_link_redeem(token="not-a-token")
    assert caught.value.code == "link_invalid"
    assert RefereeSignInLink.history.filter(history_type="~", history_change_reason="signed in").count() == 1


def test_a_link_expires(settings):
    settings.REFEREE_LINK_HOURS = 2
    ref = referee_create(tournament=TournamentFactory(), name="钱")
    issued = referee_link_issue(referee=ref)
    assert issued.link.expires_at - issued.link.created_at == timedelta(hours=2)
    with time_machine.travel(timezone.now() + timedelta(hours=2, seconds=1)), pytest.raises(UserError) as caught:
        referee_link_redeem(token=issued.token)
    assert caught.value.code == "link_expired"
    assert RefereeSignInLink.objects.get().used_at is None


def test_a_reset_invalidates_the_old_link_and_signs_the_old_phone_out():
    ref = referee_create(tournament=TournamentFactory(), name="孙")
    old = referee_link_issue(referee=ref)
    phone = Client()
    phone.force_login(referee_link_redeem(token=old.token))
    assert phone.get("/referee/").status_code == 200
    unused = referee_link_issue(referee=ref)
    new = referee_link_issue(referee=ref)  # a reset: the unused one stops working too
    with pytest.raises(UserError) as caught:
        referee_link_redeem(token=unused.token)
    assert caught.value.code == "link_invalid"
    assert phone.get("/referee/").status_code == 302  # the phone's session no longer holds
    assert referee_link_redeem(token=new.token) == ref.user
    assert RefereeSignInLink.objects.filter(revoked_at__isnull=False).count() == 1


def test_a_deactivated_referee_cannot_sign_in_and_is_signed_out():
    ref = referee_create(tournament=TournamentFactory(), name="周")
    first = referee_link_issue(referee=ref)
    phone = Client()
    phone.force_login(referee_link_redeem(token=first.token))
    second = referee_link_issue(referee=ref)
    referee_active_set(referee=ref, active=False)
    ref.refresh_from_db()
    assert not ref.active and not ref.user.is_active
    with pytest.raises(UserError):
        referee_link_redeem(token=second.token)
    assert phone.get("/referee/").status_code == 302
    with pytest.raises(UserError) as caught:
        referee_link_issue(referee=ref)
    assert caught.value.code == "inactive"
    assert not referee_accounts_list(tournament=ref.tournament).filter(pk=ref.user_id).exists()
    referee_active_set(referee=ref, active=True)
    assert referee_link_redeem(token=referee_link_issue(referee=ref).token) == ref.user


def test_the_chief_referee_role_reaches_every_table_and_may_adjust():
    round_ = round_publish(round_=draft(8))
    event = round_.stage.tournament
    chief = referee_create(tournament=event, name="裁判长")
    match = round_.matches.exclude(ew_pair=None).first()
    assert not access.matches_for_user(user=chief.user).exists()
    chief_referee_set(referee=chief, chief=True)
    chief_referee_set(referee=chief, chief=True)  # naming twice changes nothing
    assert ChiefReferee.objects.filter(tournament=event, user=chief.user).count() == 1
    assert set(access.matches_for_user(user=chief.user)) == set(round_.matches.all())
    assert access.user_may_adjust(user=chief.user, match=match)
    assert access.user_may_audit(user=chief.user, match=match)
    assert access.user_may_unlock(user=chief.user, match=match)  # The chief referee reopens too
    assert list(access.rounds_for_overseer(user=chief.user)) == [round_]
    assert [r.is_chief for r in referee_list(tournament=event)] == [True]
    other_event_round = round_publish(round_=draft(4))
    assert not access.matches_for_user(user=chief.user).filter(round=other_event_round).exists()
    chief_referee_set(referee=chief, chief=False)
    assert not access.matches_for_user(user=chief.user).exists()
    assert ChiefReferee.history.filter(history_type="-").count() == 1


def test_tables_by_hand_by_range_area_and_single_table_replace_who_had_them():
    boss = organiser()
    round_ = draft(20)  # 10 tables
    event = round_.stage.tournament
    table_areas_set(tournament=event, first=7, last=10, area="二楼")
    one, two = referee_create(tournament=event, name="甲"), referee_create(tournament=event, name="乙")
    assert round_tables_assign(round_=round_, referee=one.user, first=1, last=6, user=boss) == 6
    assert round_tables_assign(round_=round_, referee=two.user, area="二楼", user=boss) == 4
    assert round_tables_assign(round_=round_, referee=two.user, first=3) == 1  # one table
    plan = plan_of(round_)
    assert plan == {1: one.user_id, 2: one.user_id, 3: two.user_id, 4: one.user_id, 5: one.user_id,
                    6: one.user_id, 7: two.user_id, 8: two.user_id, 9: two.user_id, 10: two.user_id}
    assert round_tables_assign(round_=round_, referee=None, first=9, last=10) == 2  # nobody
    assert 9 not in plan_of(round_)
    loads = {load.name: load for load in round_referee_loads(round_=round_)}
    assert (loads["甲"].tables, loads["甲"].count) == ("1–2, 4–6", 5)
    assert (loads["乙"].tables, loads["乙"].count, loads["乙"].areas) == ("3, 7–8", 3, "二楼")
    assert RefereeAssignment.history.filter(history_user=boss, history_type="+").count() == 10
    assert RefereeAssignment.history.filter(history_type="-").count() == 2


def test_tables_by_hand_refuse_another_events_referee_and_tables_and_bad_ranges():
    round_ = draft(8)  # 4 tables
    other_round = draft(16)  # another event with 8 tables
    stranger = referee_create(tournament=other_round.stage.tournament, name="外人")
    mine = referee_create(tournament=round_.stage.tournament, name="自己人")
    for kwargs, code in (
        ({"referee": stranger.user, "first": 1}, "not_event_referee"),
        ({"referee": mine.user, "first": 6, "last": 8}, "no_tables"),  # only the other event has 6–8
        ({"referee": mine.user, "first": 3, "last": 2}, "invalid_range"),
        ({"referee": mine.user}, "tables_required"),
        ({"referee": mine.user, "first": 1, "area": "一楼"}, "tables_required"),
        ({"referee": mine.user, "area": "无此区"}, "no_tables"),
    ):
        with pytest.raises(UserError) as caught:
            round_tables_assign(round_=round_, **kwargs)
        assert caught.value.code == code
    with pytest.raises(UserError):
        round_referees_assign(round_=round_, referees=[PlanReferee(stranger.user_id)], tables_per_referee=4)
    assert not RefereeAssignment.objects.exists()
    round_referees_assign(round_=round_, referees=[PlanReferee(mine.user_id)], tables_per_referee=4)
    assert set(plan_of(round_).values()) == {mine.user_id}  # the auto plan takes the event's own


def test_a_deleted_events_referee_accounts_go_with_it_and_are_offered_nowhere():
    gone, kept = TournamentFactory(), TournamentFactory()
    ref = referee_create(tournament=gone, name="临时")
    user_id = ref.user_id
    gone.delete()
    assert not get_user_model().objects.filter(pk=user_id).exists()
    assert not referee_accounts_list(tournament=kept).filter(pk=user_id).exists()
