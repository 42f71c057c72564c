"""The event's life: status moves, automatic moves, the rules lock, delete vs archive,
an archived event refusing every write."""

from __future__ import annotations

import inspect

import pytest
from django.urls import reverse

from tests.factories import (
    MatchFactory,
    PairFactory,
    RoundFactory,
    StageFactory,
    TournamentFactory,
    organiser,
)
from tournament.draw import edits as draw_edits
from tournament.draw import services as draw_services
from tournament.draw import stages as draw_stages
from tournament.errors import UserError
from tournament.matches import clock as match_clock
from tournament.matches import referees as referee_services
from tournament.matches import services as match_services
from tournament.matches.event import match_event, match_id_event
from tournament.matches.models import Deal, RoundStatus, Stage
from tournament.registration import lifecycle, services
from tournament.registration.lifecycle import EventArchived, event_guarded
from tournament.registration.models import Tournament, TournamentStatus
from tournament.rules import rules_for_stage

pytestmark = pytest.mark.django_db
S = TournamentStatus


def test_the_organiser_moves_the_status_one_step_and_back_one_step():
    tournament = TournamentFactory(status=S.DRAFT)
    for status in (S.REGISTRATION, S.CHECK_IN, S.REGISTRATION, S.CHECK_IN, S.RUNNING, S.FINISHED):
        lifecycle.tournament_status_set(tournament=tournament, status=status)
        assert Tournament.objects.get(pk=tournament.pk).status == status


@pytest.mark.parametrize(
    ("start", "target"),
    [(S.DRAFT, S.RUNNING), (S.REGISTRATION, S.FINISHED), (S.RUNNING, S.CHECK_IN), (S.DRAFT, S.ARCHIVED)],
)
def test_a_jump_or_a_step_back_into_the_past_is_refused(start, target):
    tournament = TournamentFactory(status=start)
    with pytest.raises(UserError):
        lifecycle.tournament_status_set(tournament=tournament, status=target)
    assert Tournament.objects.get(pk=tournament.pk).status == start


def test_an_unknown_status_is_a_field_error():
    tournament = TournamentFactory()
    with pytest.raises(UserError) as caught:
        lifecycle.tournament_status_set(tournament=tournament, status="party")
    assert "status" in caught.value.fields


def test_publishing_the_first_round_puts_the_event_in_progress():
    tournament = TournamentFactory(status=S.CHECK_IN)
    stage = StageFactory(tournament=tournament)
    round_ = RoundFactory(stage=stage, status=RoundStatus.DRAFT)
    draw_services.round_publish(round_=round_)
    assert Tournament.objects.get(pk=tournament.pk).status == S.RUNNING


def test_publishing_does_not_reopen_a_finished_event():
    tournament = TournamentFactory(status=S.FINISHED)
    round_ = RoundFactory(stage=StageFactory(tournament=tournament), status=RoundStatus.DRAFT)
    draw_services.round_publish(round_=round_)
    assert Tournament.objects.get(pk=tournament.pk).status == S.FINISHED


def _final(tournament):
    """A two-pair knockout as the last stage: its one match is the final."""
    stage = StageFactory(tournament=tournament, format="knockout", rule_overrides={"time_up_tie": "extra_deal"})
    round_ = RoundFactory(stage=stage, number=1, status=RoundStatus.PUBLISHED)
    return MatchFactory(round=round_)


def _play_out(match):
    """Deals until the match is over (NS first in every deal: 2→A in 4 deals, then an A pass)."""
    for _ in range(20):
        match.refresh_from_db()
        if match.status == "finished":
            break
        match_services.deal_record(match_id=match.pk, outcome={"order": ["N", "S", "E", "W"]})
    match_services.match_sign_off(match_id=match.pk)


def test_confirming_the_last_stages_final_finishes_the_event(django_capture_on_commit_callbacks):
    tournament = TournamentFactory(status=S.RUNNING)
    match = _final(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        _play_out(match)
    assert Tournament.objects.get(pk=tournament.pk).status == S.FINISHED


def test_a_final_of_an_earlier_stage_does_not_finish_the_event(django_capture_on_commit_callbacks):
    tournament = TournamentFactory(status=S.RUNNING)
    match = _final(tournament)
    StageFactory(tournament=tournament, order=match.round.stage.order + 1)
    with django_capture_on_commit_callbacks(execute=True):
        _play_out(match)
    assert Tournament.objects.get(pk=tournament.pk).status == S.RUNNING


def test_an_edit_before_the_first_draw_changes_the_rules_of_the_event_and_its_stages():
    tournament = TournamentFactory(rule_profile="timed-40")
    stage = StageFactory(tournament=tournament, rule_overrides={"a_failure_limit": 2})
    lifecycle.tournament_update(
        tournament=tournament,
        name="  新名字 ",
        venue="体育馆",
        rule_profile="timed-40",
        rule_overrides={"time_cap_minutes": 55, "a_failure_limit": 5},
    )
    tournament.refresh_from_db()
    assert tournament.name == "新名字" and tournament.venue == "体育馆"
    assert tournament.rule_overrides == {"time_cap_minutes": 55, "a_failure_limit": 5}
    rules = rules_for_stage(Stage.objects.get(pk=stage.pk))
    assert rules.time_cap_minutes == 55
    assert rules.a_failure_limit == 2  # the stage's own override stays on top of the event's


def test_after_the_first_draw_the_rules_are_locked_but_the_name_is_not():
    tournament = TournamentFactory()
    stage = StageFactory(tournament=tournament)
    stored = dict(stage.rules)
    RoundFactory(stage=stage, status=RoundStatus.DRAFT)
    with pytest.raises(UserError) as caught:
        lifecycle.tournament_update(
            tournament=tournament, name=tournament.name, rule_overrides={"time_cap_minutes": 55}
        )
    assert "rules are locked" in caught.value.fields["rule_profile"][0]
    assert Stage.objects.get(pk=stage.pk).rules == stored
    lifecycle.tournament_update(tournament=tournament, name="改名")
    assert Tournament.objects.get(pk=tournament.pk).name == "改名"


def test_bad_rule_overrides_are_a_field_error_and_change_nothing():
    tournament = TournamentFactory()
    with pytest.raises(UserError) as caught:
        lifecycle.tournament_update(tournament=tournament, name="x", rule_overrides={"time_up_tie": "coin"})
    assert "rule_overrides" in caught.value.fields
    assert Tournament.objects.get(pk=tournament.pk).rule_overrides == {}


def test_dates_must_be_in_order():
    import datetime

    tournament = TournamentFactory()
    with pytest.raises(UserError) as caught:
        lifecycle.tournament_update(
            tournament=tournament, name="x", starts_on=datetime.date(2026, 5, 2), ends_on=datetime.date(2026, 5, 1)
        )
    assert "ends_on" in caught.value.fields


def test_an_event_without_results_is_deleted_one_with_results_is_not():
    empty = TournamentFactory()
    PairFactory(tournament=empty)
    lifecycle.tournament_delete(tournament=empty)
    assert not Tournament.objects.filter(pk=empty.pk).exists()

    match = MatchFactory()
    played = match.round.stage.tournament
    match_services.deal_record(match_id=match.pk, outcome={"order": ["N", "S", "E", "W"]})
    with pytest.raises(UserError) as caught:
        lifecycle.tournament_delete(tournament=played)
    assert caught.value.code == "has_results"
    assert Deal.objects.filter(match=match).exists()
    lifecycle.tournament_archive(tournament=played)
    assert Tournament.objects.get(pk=played.pk).status == S.ARCHIVED


def test_an_archived_event_refuses_every_write_with_a_clear_error():
    match = MatchFactory(round__status=RoundStatus.PUBLISHED)
    tournament = match.round.stage.tournament
    pair = match.ns_pair
    lifecycle.tournament_archive(tournament=tournament)
    calls = [
        lambda: services.pair_check_in(pair=pair),
        lambda: services.pair_withdraw(pair=pair),
        lambda: services.pair_create(tournament=tournament, players=[]),
        lambda: match_services.deal_record(match_id=match.pk, outcome={"order": ["N", "S", "E", "W"]}),
        lambda: match_clock.round_start(round_id=match.round_id),
        lambda: draw_services.round_draw(stage=match.round.stage),
        lambda: draw_services.round_unpublish(round_=match.round),
        lambda: lifecycle.tournament_update(tournament=tournament, name="x"),
        lambda: lifecycle.tournament_delete(tournament=tournament),
        lambda: lifecycle.tournament_status_set(tournament=tournament, status=S.FINISHED),
    ]
    for call in calls:
        with pytest.raises(EventArchived) as caught:
            call()
        assert caught.value.code == "event_archived" and caught.value.status == 409
        assert "archived" in caught.value.message
    assert not Deal.objects.exists()
    lifecycle.tournament_unarchive(tournament=tournament)
    services.pair_check_in(pair=pair)  # writable again


def test_a_write_by_match_id_is_guarded_in_one_query():
    """Every deal entered is such a write (result entry while every table enters results)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    match = MatchFactory(round__status=RoundStatus.PUBLISHED)
    tournament = match.round.stage.tournament

    def service(*, match_id: int) -> str:
        return "written"

    write = lifecycle.event_write("match_id", of=match_id_event)(service)
    with CaptureQueriesContext(connection) as queries:
        assert write(match_id=match.pk) == "written"
    assert len(queries) == 1
    lifecycle.tournament_archive(tournament=tournament)
    with CaptureQueriesContext(connection) as queries, pytest.raises(EventArchived) as caught:
        write(match_id=match.pk)
    assert len(queries) == 1 and tournament.name in caught.value.message
    assert write(match_id=match.pk + 1000) == "written"  # no such match: the service itself says so


def test_the_guard_names_the_argument_that_says_which_event():
    """A write service says which argument holds its event; one without it is a bug, refused when it
    is decorated (no call slips past the guard because it found nothing to check)."""
    match = MatchFactory(round__status=RoundStatus.PUBLISHED)
    tournament = match.round.stage.tournament

    def service(*, match: object, user: object = None) -> str:
        return "written"

    with pytest.raises(TypeError, match="match_id"):
        lifecycle.event_write("match_id", of=match_id_event)(service)
    with pytest.raises(TypeError, match="match"):
        lifecycle.event_write("match", of=match_event)(lambda match: "positional")
    write = lifecycle.event_write("match", of=match_event)(service)
    with pytest.raises(TypeError, match="match="):
        write(user=None)  # type: ignore[call-arg]  # the event's argument left out: refused, not let through
    assert write(match=match) == "written"
    lifecycle.tournament_archive(tournament=tournament)
    with pytest.raises(EventArchived):
        write(match=match)


@pytest.mark.parametrize(
    "module",
    [services, draw_stages, draw_services, draw_edits, match_services, match_clock, referee_services],
    ids=["registration", "draw stages", "draw", "draw edits", "matches", "clock", "referees"],
)
def test_the_write_services_are_guarded(module):
    """The one guard is on every write of these modules (reads and the clock's own calls aside)."""
    unguarded_ok = {
        "department_get_or_create",
        "tournament_create",
        "stage_entrants",
        "registration_open_check",  # a check, called inside guarded writes
        "stage_advancing_now",  # a read: who a recorded advancement would advance now
        "stage_feeder",  # reads: the stage a later one takes its entrants from, whether it waits,
        "stage_entrants_missing",
        "stage_draw_ready_check",  # the check the draw makes,
        "advance_count_default",  # and the count the advance step is filled with
        "stage_bracket",
        "stage_bracket_winners",
        "bracket_after_result",
        "round_has_results",
        "round_write",
        "draw_message",
        "warning_message",
        "match_rules",
        "scoring_adjustments",
        "match_fold",
        "match_replay",
        "match_outcomes",
        "match_adjustment_rows",
        "time_cap_minutes",
        "match_call_time",
        "round_call_time",
        "time_calls_due",  # the periodic sweep: the clock's own calls, as the tasks make them
        # reads: a due time call shown, not stored
        "match_as_of",
        "matches_as_of",
        "round_as_of",
        # the clock's own steps on a match its (guarded) caller has locked, in the caller's transaction
        "clock_start",
        "time_call_due",
        "time_call_if_due",
        # referees: reads, and the sign-in (a referee of an archived event signs in to read)
        "token_hash",
        "referee_link_find",
        "referee_link_refusal",
        "referee_link_redeem",
        "referee_list",
        "referee_accounts_list",
        "referee_is_chief",
        "referee_tables_now",
    }
    writes = [
        name
        for name, function in inspect.getmembers(module, inspect.isfunction)
        if function.__module__ == module.__name__ and not name.startswith("_") and name not in unguarded_ok
    ]
    assert writes
    assert [name for name in writes if not event_guarded(getattr(module, name))] == []


def test_home_groups_events_by_status_and_hides_drafts_from_the_public(client):
    TournamentFactory(name="进行中的赛", status=S.RUNNING)
    TournamentFactory(name="草稿赛", status=S.DRAFT)
    TournamentFactory(name="旧赛", status=S.ARCHIVED)
    TournamentFactory(name="斗地主赛", status=S.RUNNING, game="doudizhu", rule_profile="doudizhu")
    html = client.get("/").content.decode()
    assert html.index("进行中") < html.index("进行中的赛") < html.index("已归档") < html.index("旧赛")
    assert "草稿赛" not in html
    # each event counted in its own entrants: pairs, or players for Dou Dizhu
    assert "0 对" in html[html.index("进行中的赛") :] and "斗地主 · 0 位选手" in html


def test_registration_closes_when_the_event_is_finished(client):
    boss = organiser(username="boss")
    client.force_login(boss)
    tournament = TournamentFactory(status=S.RUNNING)
    tournament.organisers.add(boss)
    first = services.PlayerData(name="张一", employee_number="E1")
    second = services.PlayerData(name="李二", employee_number="E2")
    services.pair_register(tournament=tournament, first=first, second=second)  # a late entry, still open
    lifecycle.tournament_status_set(tournament=tournament, status=S.FINISHED)
    third = services.PlayerData(name="王三", employee_number="E3")
    fourth = services.PlayerData(name="赵四", employee_number="E4")
    with pytest.raises(UserError) as refused:
        services.pair_register(tournament=tournament, first=third, second=fourth)
    assert refused.value.code == "registration_closed"
    pairs_page = client.get(reverse("registration:pairs", args=[tournament.pk])).content.decode()
    assert "报名已截止" in pairs_page and 'name="first_name"' not in pairs_page
    posted = client.post(
        reverse("registration:pairs", args=[tournament.pk]),
        {"first_name": "王三", "second_name": "赵四"},
        follow=True,
    )
    assert posted.status_code in (200, 409) and tournament.pairs.count() == 1
    imported = client.get(reverse("registration:roster_import", args=[tournament.pk])).content.decode()
    assert "报名已截止" in imported and 'type="file"' not in imported
