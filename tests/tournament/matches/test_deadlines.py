"""Self-scheduled rounds (docs/rules.md §12.1): a round opened with a deadline; at the deadline every match
without a confirmed result is lost by both, unless its deadline (or the round's) was extended in time; a
knockout's next opponent then has a bye; a result after the deadline is refused, but an organiser's
correction takes it."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from tests.factories import PairFactory, TournamentFactory
from tournament.celery import app
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.errors import UserError
from tournament.matches import player_entry as pe
from tournament.matches import tasks
from tournament.matches.deadlines import (
    deadline_board,
    deadline_text,
    event_aware,
    match_deadline_extend,
    match_reminder,
    round_deadline_extend,
    round_open_self_scheduled,
)
from tournament.matches.models import Adjustment, AdjustmentKind, Match, MatchStatus, Round, RoundStatus
from tournament.matches.services import adjustment_delete, deal_record, match_sign_off, match_unlock
from tournament.registration.models import EntryMode
from tournament.standings.selectors import stage_bracket_state_get

pytestmark = pytest.mark.django_db

SHANGHAI = ZoneInfo("Asia/Shanghai")
MONDAY = datetime(2026, 3, 2, 9, 0, tzinfo=SHANGHAI)
FRIDAY = datetime(2026, 3, 6, 18, 0, tzinfo=SHANGHAI)


@pytest.fixture(autouse=True)
def celery_eager():
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


def win(match: Match, side: str = "NS") -> Match:
    order = ["N", "S"] if side == "NS" else ["E", "W"]
    match.refresh_from_db()
    while match.status not in (MatchStatus.FINISHED, MatchStatus.CONFIRMED):
        deal_record(match_id=match.pk, outcome={"order": order})
        match.refresh_from_db()
    return match


def knockout_of_eight():
    tournament = TournamentFactory(rule_profile="timed-40", entry_mode=EntryMode.PLAYERS_OPPONENTS_CONFIRM)
    for number in range(1, 9):
        PairFactory(tournament=tournament, seed=number)
    stage = stage_create(
        tournament=tournament, name="淘汰赛", format="knockout", options={"bracket": "fixed", "seeding": "seeds"}
    )
    return tournament, stage, round_publish(round_=round_draw(stage=stage, seed=8))


def played(round_: Round) -> list[Match]:
    return list(round_.matches.filter(ew_pair__isnull=False).order_by("table__number"))


def snapshot(round_: Round) -> list[tuple]:
    round_.refresh_from_db()
    rows = [(round_.deadline, round_.status, round_.started_at, round_.deadline_done_at)]
    rows += list(round_.matches.order_by("pk").values_list("pk", "status", "deadline", "version", "winner"))
    return [*rows, Adjustment.objects.count()]


def test_a_deadline_in_the_past_is_refused_and_nothing_changes():
    _tournament, _stage, round_ = knockout_of_eight()
    before = snapshot(round_)
    with time_machine.travel(FRIDAY + timedelta(minutes=1), tick=False), pytest.raises(UserError) as refused:
        round_open_self_scheduled(round_id=round_.pk, deadline=FRIDAY)
    assert refused.value.code == "deadline_in_past"
    assert snapshot(round_) == before


def test_a_season_round_one_reported_one_extended_two_unreported_with_byes_after(django_capture_on_commit_callbacks):
    _tournament, stage, round_ = knockout_of_eight()
    with time_machine.travel(MONDAY, tick=False):
        round_open_self_scheduled(round_id=round_.pk, deadline=FRIDAY)
    round_.refresh_from_db()
    assert round_.status == RoundStatus.RUNNING and round_.ends_at is None and round_.deadline == FRIDAY
    first, second, third, fourth = played(round_)
    board = deadline_board(round_=round_, now=MONDAY)
    assert board is not None and board.days_left == 4
    assert {row.state for row in board.rows} == {"not_yet"}
    assert all(len(row.not_reported) == 2 for row in board.rows)

    with time_machine.travel(MONDAY + timedelta(days=1), tick=False):
        win(first, "NS")  # reported and confirmed (by a referee here), awaiting sign-off
        first.refresh_from_db()
        assert first.clock_ends_at is None  # no clock in a self-scheduled round
        match_sign_off(match_id=first.pk)
        win(second, "EW")  # reported, the sign-off still to come at the deadline
        deal_record(match_id=third.pk, outcome={"order": ["N", "S"]})  # played, no result yet
        # a player's entry awaiting the opponents: "reported"
        fourth_seats = {seat.seat: seat for seat in pe.table_players(match=fourth)}
        pe.deal_claim_enter(
            match_id=fourth.pk,
            outcome={"order": ["E", "W"]},
            player_id=fourth_seats["E"].player.pk,
            number=1,
            idempotency_key=uuid.uuid4().hex,
        )
        assert match_reminder(match=third) is not None and match_reminder(match=first) is None
    board = deadline_board(round_=round_, now=MONDAY + timedelta(days=1))
    states = {row.match.pk: row.state for row in board.rows}
    assert states == {first.pk: "confirmed", second.pk: "confirmed", third.pk: "played", fourth.pk: "reported"}

    # Friday morning: match 3 gets until Sunday (audited with its reason)
    sunday = FRIDAY + timedelta(days=2)
    with time_machine.travel(FRIDAY - timedelta(hours=8), tick=False):
        match_deadline_extend(match_id=third.pk, deadline=sunday, reason="一位选手出差")
    third.refresh_from_db()
    assert third.history.first().history_change_reason == "一位选手出差"

    # the deadline: the beat's sweep (and the task scheduled for it) record the double forfeits
    with time_machine.travel(FRIDAY + timedelta(seconds=30), tick=False):
        assert tasks.deadline_sweep.delay().get() == {"forfeited": 1}
        assert tasks.deadline_sweep.delay().get() == {"forfeited": 0}  # once
    fourth.refresh_from_db()
    assert fourth.status == MatchStatus.CONFIRMED and fourth.winner == ""
    assert fourth.adjustments.filter(kind=AdjustmentKind.FORFEIT).count() == 2
    assert fourth.claims.get().status == "refused"
    assert fourth.history.first().history_change_reason == "deadline: lost by both"
    third.refresh_from_db()
    second.refresh_from_db()
    assert third.status == MatchStatus.RUNNING  # extended: waits
    assert second.status == MatchStatus.FINISHED and second.winner == "EW"  # reported in time: stands
    match_sign_off(match_id=second.pk)  # its sign-off may follow

    # after the deadline a result for match 4 is refused, clearly
    with time_machine.travel(FRIDAY + timedelta(hours=1), tick=False), pytest.raises(UserError) as late:
        deal_record(match_id=fourth.pk, outcome={"order": ["N", "S"]})
    assert late.value.code == "match_locked"

    # match 3 is not played by Sunday either: lost by both at its own deadline
    with time_machine.travel(sunday + timedelta(minutes=1), tick=False):
        with pytest.raises(UserError) as late:
            deal_record(match_id=third.pk, outcome={"order": ["N", "S"]})
        assert late.value.code == "deadline_passed" and "correction" in late.value.message
        with django_capture_on_commit_callbacks(execute=True):  # the bracket hears of it after the commit
            assert tasks.round_deadline_task.delay(round_.pk).get()["forfeited"] == 1
    round_.refresh_from_db()
    assert round_.status == RoundStatus.FINISHED and round_.deadline_done_at is not None

    # the knockout: matches 3 and 4 lost by both put their four pairs out; the winners of matches 1 and 2
    # would each have met one of them in the semi-final: both go on with a bye, straight into the final
    state = stage_bracket_state_get(stage=stage)
    out = {
        first.ew_pair_id,
        second.ns_pair_id,
        third.ns_pair_id,
        third.ew_pair_id,
        fourth.ns_pair_id,
        fourth.ew_pair_id,
    }
    assert {int(pair) for pair in state.out_in} == out
    assert {int(pair) for pair in state.still_in} == {first.ns_pair_id, second.ew_pair_id}
    final = Round.objects.get(stage=stage, status=RoundStatus.DRAFT)
    assert {(m.ns_pair_id, m.ew_pair_id) for m in final.matches.all()} <= {
        (first.ns_pair_id, second.ew_pair_id),
        (second.ew_pair_id, first.ns_pair_id),
    }
    assert final.matches.count() == 1


def test_an_extension_after_the_deadline_is_refused_and_nothing_changes():
    _tournament, _stage, round_ = knockout_of_eight()
    with time_machine.travel(MONDAY, tick=False):
        round_open_self_scheduled(round_id=round_.pk, deadline=FRIDAY)
    match = played(round_)[0]
    before = snapshot(round_)
    with time_machine.travel(FRIDAY + timedelta(minutes=5), tick=False):
        for extend in (
            lambda: round_deadline_extend(round_id=round_.pk, deadline=FRIDAY + timedelta(days=3), reason="晚了"),
            lambda: match_deadline_extend(match_id=match.pk, deadline=FRIDAY + timedelta(days=3), reason="晚了"),
        ):
            with pytest.raises(UserError) as refused:
                extend()
            assert refused.value.code == "deadline_passed"
    assert snapshot(round_) == before


@pytest.mark.parametrize(
    ("deadline", "reason", "code"),
    [
        (FRIDAY - timedelta(days=1), "提前", "deadline_not_later"),
        (MONDAY - timedelta(days=1), "过去", "deadline_in_past"),
        (FRIDAY + timedelta(days=1), "  ", "reason_required"),
    ],
)
def test_a_bad_extension_is_refused_and_nothing_changes(deadline, reason, code):
    _tournament, _stage, round_ = knockout_of_eight()
    with time_machine.travel(MONDAY, tick=False):
        round_open_self_scheduled(round_id=round_.pk, deadline=FRIDAY)
        before = snapshot(round_)
        with pytest.raises(UserError) as refused:
            round_deadline_extend(round_id=round_.pk, deadline=deadline, reason=reason)
    assert refused.value.code == code
    assert snapshot(round_) == before


def test_a_round_extended_in_time_forfeits_nothing_at_the_first_deadline():
    _tournament, _stage, round_ = knockout_of_eight()
    with time_machine.travel(MONDAY, tick=False):
        round_open_self_scheduled(round_id=round_.pk, deadline=FRIDAY)
        round_deadline_extend(round_id=round_.pk, deadline=FRIDAY + timedelta(days=7), reason="春节")
    with time_machine.travel(FRIDAY + timedelta(hours=1), tick=False):
        assert tasks.deadline_sweep.delay().get() == {"forfeited": 0}
    assert not Adjustment.objects.exists()
    with time_machine.travel(FRIDAY + timedelta(days=7, minutes=1), tick=False):
        assert tasks.deadline_sweep.delay().get() == {"forfeited": 4}


def test_a_players_confirmation_after_the_deadline_is_refused_and_a_correction_takes_the_result():
    _tournament, _stage, round_ = knockout_of_eight()
    with time_machine.travel(MONDAY, tick=False):
        round_open_self_scheduled(round_id=round_.pk, deadline=FRIDAY)
    match = played(round_)[0]
    seats = {seat.seat: seat for seat in pe.table_players(match=match)}
    with time_machine.travel(FRIDAY - timedelta(hours=1), tick=False):
        claim = pe.deal_claim_enter(
            match_id=match.pk,
            outcome={"order": ["N", "S"]},
            player_id=seats["N"].player.pk,
            number=1,
            idempotency_key=uuid.uuid4().hex,
        ).claim
    with time_machine.travel(FRIDAY + timedelta(seconds=1), tick=False):
        with pytest.raises(UserError) as late:
            pe.deal_claim_confirm(match_id=match.pk, claim_id=claim.pk, player_id=seats["E"].player.pk)
        assert late.value.code == "deadline_passed"
        claim.refresh_from_db()
        assert claim.status == "pending" and not match.deals.exists()  # nothing changed
        tasks.deadline_sweep.delay()
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED and match.winner == ""
    # the organiser's correction, with a reason: reopened, the forfeits removed, the result entered
    with time_machine.travel(FRIDAY + timedelta(days=1), tick=False):
        match_unlock(match_id=match.pk, reason="赛前已打完，裁判证实", dependents_seen=True)
        for row in match.adjustments.all():
            adjustment_delete(match_id=match.pk, adjustment_id=row.pk, reason="截止前已比赛")
        match = win(match, "NS")
        match_sign_off(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED and match.winner == "NS"


def test_opening_a_started_round_is_refused():
    _tournament, _stage, round_ = knockout_of_eight()
    with time_machine.travel(MONDAY, tick=False):
        round_open_self_scheduled(round_id=round_.pk, deadline=FRIDAY)
        with pytest.raises(UserError) as again:
            round_open_self_scheduled(round_id=round_.pk, deadline=FRIDAY + timedelta(days=1))
    assert again.value.code == "round_not_open"
    round_.refresh_from_db()
    assert round_.deadline == FRIDAY


def test_the_deadline_is_read_in_the_events_time_zone():
    tournament = TournamentFactory(time_zone="Europe/Berlin")
    moment = event_aware(datetime(2026, 3, 6, 18, 0), tournament)
    assert moment == datetime(2026, 3, 6, 17, 0, tzinfo=ZoneInfo("UTC"))
    assert deadline_text(moment, tournament) == "2026-03-06 18:00 (Europe/Berlin)"
