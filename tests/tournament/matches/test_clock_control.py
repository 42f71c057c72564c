"""The organiser's hand on a running clock: pause, resume, extend, change the cap, call
time now — for a round (set-based) or one table — each with a reason on the history rows, refused
where it makes no sense, with the time-up task moved (and a stale one doing nothing) and the
periodic sweep honouring pauses and extensions."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest

from tests.factories import organiser, round_match, table_match
from tournament.errors import UserError
from tournament.matches import clock as clock_writes
from tournament.matches import services, tasks
from tournament.matches.errors import MatchRefused
from tournament.matches.models import Match, MatchStatus, Round, RoundStatus
from tournament.matches.selectors import match_clock

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 5, 1, 9, 0, tzinfo=dt.timezone.utc)
MIN = dt.timedelta(minutes=1)


@pytest.fixture
def frozen(time_machine):
    time_machine.move_to(T0, tick=False)
    return time_machine


@pytest.fixture
def started(frozen):
    """A round of two tables under a 40-minute cap, started at T0."""
    match = table_match(profile="timed-40")
    other = round_match(round_=match.round)
    clock_writes.round_start(round_id=match.round_id)
    return match.round, match, other


def scheduled(callbacks, task) -> list[dict]:
    """Run the commit callbacks with ``task.apply_async`` mocked; what it was asked to schedule."""
    with mock.patch.object(task, "apply_async") as schedule:
        for callback in callbacks:
            callback()
    return [call.kwargs for call in schedule.call_args_list]


def fresh(*rows):
    for row in rows:
        row.refresh_from_db()
    return rows


def test_a_round_paused_for_ten_minutes_ends_ten_minutes_later(frozen, started, django_capture_on_commit_callbacks):
    round_, match, other = started
    boss = organiser(username="boss")
    frozen.shift(10 * MIN)
    clock_writes.round_pause(round_id=round_.pk, reason="fire alarm", user=boss)
    fresh(round_, match, other)
    assert round_.paused_at == T0 + 10 * MIN and match.paused_at == round_.paused_at == other.paused_at
    clock = match_clock(match=match)
    assert clock.paused and clock.minutes_left == 30 and not clock.time_called

    frozen.shift(45 * MIN)  # past the old cap while paused: time is not called, by the sweep or a task
    assert clock_writes.time_calls_due() == 0
    assert tasks.round_time_up.run(round_.pk, ends_at=(T0 + 40 * MIN).isoformat())["called"] is False
    assert match_clock(match=match).minutes_left == 30  # a paused clock stands still

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        clock_writes.round_resume(round_id=round_.pk, reason="all clear", user=boss)
    new_end = T0 + 85 * MIN  # 40 + the 45-minute pause
    assert scheduled(callbacks, tasks.round_time_up) == [
        {"args": [round_.pk], "kwargs": {"ends_at": new_end.isoformat()}, "eta": new_end}
    ]
    fresh(round_, match, other)
    assert (round_.ends_at, round_.paused_at) == (new_end, None)
    assert (match.clock_ends_at, match.paused_at, other.clock_ends_at) == (new_end, None, new_end)

    # the history rows keep the author and the reason of each change
    reasons = list(
        match.history.order_by("history_date", "history_id").values_list("history_change_reason", "history_user")
    )
    assert reasons[-2:] == [("fire alarm", boss.pk), ("all clear", boss.pk)]
    assert round_.history.filter(history_change_reason="fire alarm", history_user=boss).exists()

    frozen.shift(29 * MIN)
    assert clock_writes.time_calls_due() == 0
    frozen.shift(1 * MIN)
    # a stale task (scheduled for the old cap) neither calls time early nor schedules itself
    with mock.patch.object(tasks.round_time_up, "apply_async") as again:
        frozen.move_to(new_end - MIN)
        assert tasks.round_time_up.run(round_.pk, ends_at=(T0 + 40 * MIN).isoformat())["called"] is False
    again.assert_not_called()
    frozen.move_to(new_end)
    # the new task is lost: the sweep still calls time at the new cap
    assert clock_writes.time_calls_due() == 2
    fresh(match)
    assert match.time_called_at == new_end and match.time_called_during_deal == 1


def test_extending_a_round_moves_every_table_and_the_task(started, django_capture_on_commit_callbacks):
    round_, match, other = started
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        clock_writes.round_extend(round_id=round_.pk, minutes=5, reason="late start")
    new_end = T0 + 45 * MIN
    assert scheduled(callbacks, tasks.round_time_up)[0]["eta"] == new_end
    fresh(round_, match, other)
    assert round_.ends_at == match.clock_ends_at == other.clock_ends_at == new_end
    assert match.history.latest("history_date", "history_id").history_change_reason == "late start"


def test_a_round_change_is_a_few_queries_whatever_the_number_of_tables(started, django_assert_max_num_queries):
    round_ = started[0]
    for _ in range(20):
        round_match(round_=round_)
    clock_writes.round_start(round_id=round_.pk)  # start the new tables
    with django_assert_max_num_queries(12):
        clock_writes.round_extend(round_id=round_.pk, minutes=5, reason="late start")
    assert Match.objects.filter(round=round_, clock_ends_at=T0 + 45 * MIN).count() == 22


def test_changing_the_cap_of_a_started_round_keeps_the_pause_given(frozen, started):
    round_, match, _ = started
    frozen.shift(10 * MIN)
    clock_writes.round_pause(round_id=round_.pk, reason="dispute")
    frozen.shift(5 * MIN)
    clock_writes.round_resume(round_id=round_.pk, reason="settled")
    clock_writes.round_cap_change(round_id=round_.pk, minutes=50, reason="final round longer")
    fresh(round_, match)
    assert round_.time_cap_minutes == 50
    assert round_.ends_at == match.clock_ends_at == T0 + 55 * MIN  # 50 + 5 paused


def test_a_cap_already_past_calls_time_at_once(frozen, started):
    round_, match, _ = started
    frozen.shift(30 * MIN)
    round_ = clock_writes.round_cap_change(round_id=round_.pk, minutes=20, reason="running late")
    fresh(match)
    assert round_.status == RoundStatus.TIME_CALLED and round_.time_called_at == T0 + 30 * MIN
    assert match.time_called_during_deal == 1


def test_calling_time_now_for_a_round_calls_every_table(frozen, started):
    round_, match, other = started
    frozen.shift(12 * MIN)
    clock_writes.round_pause(round_id=round_.pk, reason="dispute")
    round_ = clock_writes.round_call_now(round_id=round_.pk, reason="the hall closes")
    fresh(match, other)
    assert (round_.status, round_.time_called_at, round_.paused_at) == (RoundStatus.TIME_CALLED, T0 + 12 * MIN, None)
    assert match.time_called_at == other.time_called_at == T0 + 12 * MIN
    assert match.time_called_during_deal == 1 and match.paused_at is None


def test_one_table_paused_extended_and_resumed_on_its_own(frozen, started, django_capture_on_commit_callbacks):
    round_, match, other = started
    frozen.shift(20 * MIN)
    clock_writes.match_pause(match_id=match.pk, reason="card dispute")
    frozen.shift(6 * MIN)
    clock_writes.match_extend(match_id=match.pk, minutes=2, reason="dispute took long")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        clock_writes.match_resume(match_id=match.pk, reason="ruled")
    new_end = T0 + 48 * MIN  # 40 + 6 paused + 2
    assert scheduled(callbacks, tasks.match_time_up) == [
        {"args": [match.pk], "kwargs": {"ends_at": new_end.isoformat()}, "eta": new_end}
    ]
    fresh(round_, match, other)
    assert match.clock_ends_at == new_end and round_.ends_at == other.clock_ends_at == T0 + 40 * MIN

    frozen.move_to(T0 + 40 * MIN)  # the round's time: the other table only
    clock_writes.round_call_time(round_id=round_.pk)
    fresh(match, other)
    assert other.time_called_at is not None and match.time_called_at is None
    frozen.move_to(new_end)
    assert tasks.match_time_up.run(match.pk, ends_at=new_end.isoformat())["called"] is True


def test_a_table_paused_on_its_own_stays_paused_when_the_round_resumes(frozen, started):
    round_, match, other = started
    clock_writes.match_pause(match_id=match.pk, reason="dispute at table 1")
    frozen.shift(5 * MIN)
    clock_writes.round_pause(round_id=round_.pk, reason="fire alarm")
    frozen.shift(5 * MIN)
    clock_writes.round_resume(round_id=round_.pk, reason="all clear")
    fresh(match, other)
    assert match.paused_at == T0 and other.paused_at is None
    assert other.clock_ends_at == T0 + 45 * MIN
    clock_writes.match_resume(match_id=match.pk, reason="ruled")
    fresh(match)
    assert match.clock_ends_at == T0 + 50 * MIN


def test_calling_time_now_at_one_table(frozen, started):
    _, match, other = started
    frozen.shift(15 * MIN)
    match = clock_writes.match_call_now(match_id=match.pk, reason="slow play")
    other.refresh_from_db()
    assert match.time_called_at == T0 + 15 * MIN and match.time_called_during_deal == 1
    assert other.time_called_at is None
    assert match.history.filter(history_change_reason="slow play").exists()


@pytest.mark.parametrize(
    ("operation", "code"),
    [
        (lambda r: clock_writes.round_resume(round_id=r.pk, reason="x"), "not_paused"),
        (lambda r: clock_writes.round_extend(round_id=r.pk, minutes=0, reason="x"), "minutes_out_of_range"),
        (lambda r: clock_writes.round_extend(round_id=r.pk, minutes=5, reason="  "), "reason_required"),
        (lambda r: clock_writes.round_cap_change(round_id=r.pk, minutes="ten", reason="x"), "minutes_out_of_range"),
    ],
)
def test_refused_round_operations_change_nothing(started, operation, code):
    round_, match, _ = started
    with pytest.raises(UserError) as refused:  # MatchRefused, or the reason refused by tournament.audit
        operation(round_)
    assert refused.value.code == code
    fresh(round_, match)
    assert round_.ends_at == match.clock_ends_at == T0 + 40 * MIN and round_.paused_at is None


def test_a_paused_round_cannot_be_paused_again_nor_a_called_one_extended(frozen, started):
    round_, _, _ = started
    clock_writes.round_pause(round_id=round_.pk, reason="alarm")
    with pytest.raises(MatchRefused) as refused:
        clock_writes.round_pause(round_id=round_.pk, reason="again")
    assert refused.value.code == "already_paused"
    clock_writes.round_call_now(round_id=round_.pk, reason="end")
    for operation in (clock_writes.round_extend, clock_writes.round_cap_change):
        with pytest.raises(MatchRefused) as refused:
            operation(round_id=round_.pk, minutes=5, reason="more")
        assert refused.value.code == "time_called"
    with pytest.raises(MatchRefused) as refused:
        clock_writes.round_call_now(round_id=round_.pk, reason="again")
    assert refused.value.code == "time_called"


def test_a_round_not_started_or_untimed_is_refused(frozen):
    match = table_match(profile="timed-40")
    with pytest.raises(MatchRefused) as refused:
        clock_writes.round_pause(round_id=match.round_id, reason="x")
    assert refused.value.code == "clock_not_started"
    untimed = table_match(profile="classic")
    clock_writes.round_start(round_id=untimed.round_id)
    assert Round.objects.get(pk=untimed.round_id).ends_at is None
    with pytest.raises(MatchRefused) as refused:
        clock_writes.round_extend(round_id=untimed.round_id, minutes=5, reason="x")
    assert refused.value.code == "untimed"
    # giving an untimed round a cap starts its countdown from the round's start
    round_ = clock_writes.round_cap_change(round_id=untimed.round_id, minutes=30, reason="the hall closes at 10")
    untimed.refresh_from_db()
    assert round_.ends_at == untimed.clock_ends_at == T0 + 30 * MIN


def test_a_finished_match_cannot_be_extended_and_a_running_one_not_resumed(frozen, started):
    _, match, other = started
    services.adjustment_record(match_id=match.pk, pair_id=match.ew_pair_id, kind="forfeit", reason="absent")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    with pytest.raises(MatchRefused) as refused:
        clock_writes.match_extend(match_id=match.pk, minutes=5, reason="more")
    assert refused.value.code == "match_over"
    with pytest.raises(MatchRefused) as refused:
        clock_writes.match_resume(match_id=other.pk, reason="x")
    assert refused.value.code == "not_paused"
    clock_writes.match_pause(match_id=other.pk, reason="x")
    with pytest.raises(MatchRefused) as refused:
        clock_writes.match_pause(match_id=other.pk, reason="y")
    assert refused.value.code == "already_paused"


# -- one table's cap ----------------------------------------------------------------------


def test_one_table_gets_its_own_cap_and_keeps_it_when_the_round_cap_changes(
    frozen, started, django_capture_on_commit_callbacks
):
    round_, match, other = started
    boss = organiser(username="boss")
    frozen.shift(10 * MIN)
    clock_writes.match_extend(match_id=match.pk, minutes=3, reason="dispute")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        match = clock_writes.match_cap_change(match_id=match.pk, minutes=30, reason="started late", user=boss)
    assert (match.time_cap_minutes, match.clock_ends_at) == (30, T0 + 33 * MIN)  # the extension is kept
    new_end = T0 + 33 * MIN
    assert scheduled(callbacks, tasks.match_time_up) == [
        {"args": [match.pk], "kwargs": {"ends_at": new_end.isoformat()}, "eta": new_end}
    ]
    row = match.history.order_by("-history_id").first()
    assert (row.history_change_reason, row.history_user, row.time_cap_minutes) == ("started late", boss, 30)
    clock_writes.round_cap_change(round_id=round_.pk, minutes=50, reason="slow hall")
    fresh(round_, match, other)
    assert round_.ends_at == other.clock_ends_at == T0 + 50 * MIN
    assert match.clock_ends_at == T0 + 33 * MIN  # its own cap stands


def test_a_table_cap_already_past_calls_time_there_at_once(frozen, started):
    round_, match, other = started
    services.deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    frozen.shift(25 * MIN)
    match = clock_writes.match_cap_change(match_id=match.pk, minutes=20, reason="ruling")
    other.refresh_from_db()
    assert match.time_called_at == T0 + 25 * MIN and match.time_called_during_deal == 2
    assert other.time_called_at is None and Round.objects.get(pk=round_.pk).time_called_at is None


def test_a_paused_table_cap_change_moves_its_deadline_but_calls_nothing(frozen, started):
    _, match, _ = started
    frozen.shift(25 * MIN)
    clock_writes.match_pause(match_id=match.pk, reason="dispute")
    match = clock_writes.match_cap_change(match_id=match.pk, minutes=20, reason="ruling")
    assert match.clock_ends_at == T0 + 20 * MIN and match.time_called_at is None
    match = clock_writes.match_resume(match_id=match.pk, reason="ruled", now=T0 + 26 * MIN)
    assert match.clock_ends_at == T0 + 21 * MIN


def test_a_table_cap_change_is_refused_where_it_makes_no_sense(frozen, started):
    _, match, other = started
    cases = [
        (dict(match_id=match.pk, minutes=40, reason="same"), "cap_unchanged"),
        (dict(match_id=match.pk, minutes=0, reason="x"), "minutes_out_of_range"),
        (dict(match_id=match.pk, minutes=30, reason=" "), "reason_required"),
    ]
    for arguments, code in cases:
        with pytest.raises(UserError) as refused:
            clock_writes.match_cap_change(**arguments)
        assert refused.value.code == code
    clock_writes.match_call_now(match_id=other.pk, reason="slow play")
    with pytest.raises(MatchRefused) as refused:
        clock_writes.match_cap_change(match_id=other.pk, minutes=30, reason="more")
    assert refused.value.code == "time_called"
    waiting = table_match(profile="timed-40")
    with pytest.raises(MatchRefused) as refused:
        clock_writes.match_cap_change(match_id=waiting.pk, minutes=30, reason="x")
    assert refused.value.code == "clock_not_started"
    fresh(match)
    assert match.clock_ends_at == T0 + 40 * MIN and match.time_cap_minutes is None


def test_an_untimed_table_gets_its_first_deadline_from_its_start(frozen):
    match = table_match(profile="classic")
    clock_writes.round_start(round_id=match.round_id)
    frozen.shift(5 * MIN)
    match = clock_writes.match_cap_change(match_id=match.pk, minutes=30, reason="the hall closes")
    assert match.clock_ends_at == T0 + 30 * MIN


# -- calling time for a whole round, set-based ---------------------------------------------


def test_calling_time_now_costs_the_same_queries_for_3_or_30_tables(frozen):
    """A round of 2,500 tables was called table by table, a dozen queries each."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    boss = organiser(username="boss")

    def called(tables: int) -> tuple[int, Match]:
        first = table_match(profile="timed-40")
        for _ in range(tables - 1):
            round_match(round_=first.round)
        clock_writes.round_start(round_id=first.round_id)
        services.deal_record(match_id=first.pk, outcome={"order": ["N", "S"]})
        services.deal_record(match_id=first.pk, outcome={"order": ["E", "W"]})
        with CaptureQueriesContext(connection) as queries:
            clock_writes.round_call_now(round_id=first.round_id, reason="the hall closes", user=boss)
        return len(queries), first

    small, _first = called(3)
    large, first = called(30)
    assert large == small
    matches = Match.objects.filter(round_id=first.round_id)
    assert matches.filter(time_called_at=T0).count() == 30
    first.refresh_from_db()
    assert first.time_called_during_deal == 3  # two deals entered: the third is being played
    assert set(matches.exclude(pk=first.pk).values_list("time_called_during_deal", flat=True)) == {1}
    assert first.snapshot.last_regular_deal == 3  # the fold knows it (the rules core's state)
    for match in matches:
        row = match.history.order_by("-history_id").first()
        assert (row.history_change_reason, row.history_user, row.time_called_at) == ("the hall closes", boss, T0)


def test_a_called_round_is_reopened_and_its_tables_play_on(frozen, started, django_capture_on_commit_callbacks):
    round_, match, other = started
    boss = organiser(username="boss")
    frozen.shift(10 * MIN)
    services.deal_record(match_id=match.pk, outcome={"order": ["N", "E", "S", "W"]})
    clock_writes.round_call_now(round_id=round_.pk, reason="tapped by mistake", user=boss)
    services.deal_record(match_id=match.pk, outcome={"order": ["N", "E", "S", "W"]})  # the deal being played
    fresh(match)
    assert match.status == MatchStatus.FINISHED  # time was called: the match ended with that deal

    frozen.shift(2 * MIN)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        round_ = clock_writes.round_reopen(round_id=round_.pk, minutes=15, reason="called by mistake", user=boss)
    fresh(match, other)
    assert (round_.status, round_.time_called_at, round_.ends_at) == (RoundStatus.RUNNING, None, T0 + 27 * MIN)
    assert (match.status, match.time_called_at, match.time_called_during_deal) == (MatchStatus.RUNNING, None, None)
    assert match.clock_ends_at == other.clock_ends_at == T0 + 27 * MIN and other.time_called_at is None
    assert match.history.latest().history_change_reason == "called by mistake"
    assert round_.history.latest().history_change_reason == "called by mistake"
    assert {"args": [round_.pk], "kwargs": {"ends_at": (T0 + 27 * MIN).isoformat()}, "eta": T0 + 27 * MIN} in (
        scheduled(callbacks, tasks.round_time_up)
    )
    # The deals go on from where they were; at the new deadline time is called again.
    services.deal_record(match_id=match.pk, outcome={"order": ["E", "N", "W", "S"]})
    frozen.move_to(T0 + 27 * MIN)
    clock_writes.round_call_time(round_id=round_.pk)
    fresh(match)
    assert match.time_called_at == T0 + 27 * MIN and match.time_called_during_deal == 4


def test_reopening_needs_a_called_unfinished_round(frozen, started):
    round_, match, _ = started
    with pytest.raises(MatchRefused) as refused:
        clock_writes.round_reopen(round_id=round_.pk, minutes=10, reason="why")
    assert refused.value.code == "time_not_called"
    clock_writes.round_call_now(round_id=round_.pk, reason="end")
    with pytest.raises(UserError):
        clock_writes.round_reopen(round_id=round_.pk, minutes=0, reason="why")
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.FINISHED)
    with pytest.raises(MatchRefused) as refused:
        clock_writes.round_reopen(round_id=round_.pk, minutes=10, reason="why")
    assert refused.value.code == "round_finished"
    fresh(match)
    assert match.time_called_at == T0
