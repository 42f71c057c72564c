"""Whether time is due for a table: one answer (``tournament.matches.time_due``), in Python and as
an ORM filter, asked by the lock-holding writes, a round's set-based calls and its clock page alike
(docs/rules.md §2)."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import round_match, table_match
from tournament.matches.clock import match_as_of, round_call_time, round_start, time_calls_due
from tournament.matches.models import Match, MatchStatus
from tournament.matches.services import deal_record, match_sign_off, match_unlock
from tournament.matches.time_due import match_time_due, time_due_filter

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 5, 1, 9, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def frozen(time_machine):
    time_machine.move_to(T0, tick=False)
    return time_machine


def play(match: Match, *orders: str) -> Match:
    for order in orders:
        deal_record(match_id=match.pk, outcome={"order": list(order)})
    match.refresh_from_db()
    return match


def finished(match: Match) -> Match:
    """``match`` played to the end by N/S (double wins until they pass A), long before its cap."""
    while match.status != MatchStatus.FINISHED:
        match = play(match, "NS")
    return match


def reopened(match: Match) -> Match:
    """``match`` played to the end, signed off and reopened for a correction."""
    finished(match)
    match_sign_off(match_id=match.pk)
    match_unlock(match_id=match.pk, reason="a disputed deal", dependents_seen=True)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.reopened_at is not None
    return match


def test_a_table_reopened_for_correction_past_its_cap_is_never_called(frozen):
    """A correction replays what was played: its clock stays stopped. The round's set-based call,
    the sweep and the pages leave it alone (the round's call once selected it, writing a history row)."""
    match = table_match(profile="timed-40")
    round_ = match.round
    round_start(round_id=round_.pk)
    match = reopened(match)
    frozen.shift(dt.timedelta(minutes=41))
    history = Match.history.filter(id=match.pk).count()

    assert not match_time_due(match, now=dt.datetime.now(dt.timezone.utc))
    assert match_as_of(match) is match
    assert time_calls_due() == 0
    assert round_call_time(round_id=round_.pk) is True  # the round's time is called once …
    match.refresh_from_db()
    assert (match.time_called_at, match.time_called_during_deal) == (None, None)  # … not this table's
    assert Match.history.filter(id=match.pk).count() == history


def test_the_python_answer_and_the_orm_filter_agree(frozen):
    """Every state a table can be in past its cap: the same tables are due in memory and in SQL."""
    first = table_match(profile="timed-40")
    round_ = first.round
    tables = {"idle": first, **{name: round_match(round_=round_) for name in (
        "playing", "paused", "finished", "called", "signed_off", "reopened", "not_started",
    )}}  # fmt: skip
    round_start(round_id=round_.pk)
    play(tables["playing"], "NS")
    finished(tables["finished"])
    finished(tables["signed_off"])
    match_sign_off(match_id=tables["signed_off"].pk)
    reopened(tables["reopened"])
    Match.objects.filter(pk=tables["paused"].pk).update(paused_at=T0)
    Match.objects.filter(pk=tables["not_started"].pk).update(started_at=None, clock_ends_at=None)
    frozen.shift(dt.timedelta(minutes=41))
    now = dt.datetime.now(dt.timezone.utc)
    Match.objects.filter(pk=tables["called"].pk).update(time_called_at=now, time_called_during_deal=1)

    matches = {match.pk: match for match in Match.objects.filter(round=round_)}
    in_memory = {pk for pk, match in matches.items() if match_time_due(match, now=now)}
    in_sql = set(Match.objects.filter(round=round_).filter(time_due_filter(now=now)).values_list("pk", flat=True))
    assert in_memory == in_sql == {tables[name].pk for name in ("idle", "playing", "finished")}
