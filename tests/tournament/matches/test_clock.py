"""The match clock (docs/rules.md §2): the organiser starts a round or a match, the cap comes
from the rules, a warning shows near the end, time is called at the cap exactly once — by the
scheduled task, the periodic sweep or the first write to the match (a page shows it without
storing it) — and each match then finishes as its rules say (last deal, higher level, first to
reach, extra deal)."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.urls import reverse

from tests.factories import english_client, organiser, referee, round_match, table_match
from tournament.matches import tasks
from tournament.matches.clock import match_call_time, match_start, round_call_time, round_start, time_calls_due
from tournament.matches.errors import MatchRefused
from tournament.matches.models import Match, MatchStatus, Round, RoundStatus
from tournament.matches.selectors import match_clock
from tournament.matches.services import adjustment_record, deal_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    """Pages in English for the assertions."""
    return english_client()

T0 = dt.datetime(2026, 5, 1, 9, 0, tzinfo=dt.timezone.utc)


def play(match: Match, *orders: str) -> Match:
    for order in orders:
        deal_record(match_id=match.pk, outcome={"order": list(order)})
    match.refresh_from_db()
    return match


def transitions(history, field: str) -> int:
    """How many history rows changed ``field`` from empty to set (how often time was called)."""
    count, previous = 0, None
    for row in history.order_by("history_date", "history_id"):
        value = getattr(row, field)
        if value is not None and previous is None:
            count += 1
        previous = value
    return count


@pytest.fixture
def frozen(time_machine):
    time_machine.move_to(T0, tick=False)
    return time_machine


def test_starting_a_round_starts_every_match_clock_with_the_rules_cap(frozen):
    match = table_match(profile="timed-40")
    other = round_match(round_=match.round)
    forfeited = round_match(round_=match.round)
    adjustment_record(match_id=forfeited.pk, pair_id=forfeited.ew_pair_id, kind="forfeit", reason="absent")

    round_ = round_start(round_id=match.round_id)

    assert (round_.status, round_.started_at) == (RoundStatus.RUNNING, T0)
    assert round_.ends_at == T0 + dt.timedelta(minutes=40)
    for started in (match, other):
        started.refresh_from_db()
        assert (started.started_at, started.clock_ends_at, started.status) == (T0, round_.ends_at, MatchStatus.RUNNING)
    forfeited.refresh_from_db()
    assert forfeited.started_at is None  # already decided: no clock
    frozen.shift(dt.timedelta(minutes=5))
    again = round_start(round_id=match.round_id)
    assert again.started_at == T0  # starting twice changes nothing


def test_starting_a_round_costs_the_same_queries_for_3_or_30_tables_and_audits_each_match(frozen):
    """A round of 2,500 tables started match by match took seven queries a table."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.factories import UserFactory

    def started(tables: int) -> tuple[int, Match]:
        first = table_match(profile="timed-40")
        for _ in range(tables - 1):
            round_match(round_=first.round)
        with CaptureQueriesContext(connection) as queries:
            round_start(round_id=first.round_id, user=user)
        return len(queries), first

    user = UserFactory()
    small, _first = started(3)
    large, first = started(30)
    assert large == small
    matches = Match.objects.filter(round_id=first.round_id)
    assert matches.filter(status=MatchStatus.RUNNING, started_at=T0).count() == 30
    for match in matches:
        row = match.history.order_by("-history_id").first()
        assert (row.history_type, row.history_user, row.started_at) == ("~", user, T0)


def test_a_custom_cap_and_an_untimed_profile(frozen):
    custom = table_match(profile="timed-90", time_cap_minutes=45)
    assert round_start(round_id=custom.round_id).ends_at == T0 + dt.timedelta(minutes=45)
    untimed = table_match(profile="classic")
    round_ = round_start(round_id=untimed.round_id)
    untimed.refresh_from_db()
    assert round_.ends_at is None and untimed.clock_ends_at is None and untimed.started_at == T0
    frozen.shift(dt.timedelta(hours=5))
    assert round_call_time(round_id=round_.pk) is False
    assert match_clock(match=untimed).timed is False


def test_a_draft_round_cannot_be_started():
    match = table_match(round_status=RoundStatus.DRAFT)
    with pytest.raises(MatchRefused):
        round_start(round_id=match.round_id)


def test_the_warning_shows_in_the_last_minutes(frozen, client):
    ref = referee(username="ref")
    match = table_match(profile="timed-40", referee_user=ref)
    match.round.warning_minutes = 5
    match.round.save()
    round_start(round_id=match.round_id)
    client.force_login(ref)
    frozen.shift(dt.timedelta(minutes=34))
    assert not client.get(reverse("matches:referee_home")).context["rows"][0].clock.warning
    frozen.shift(dt.timedelta(minutes=1, seconds=30))
    response = client.get(reverse("matches:match", args=[match.pk]))
    clock = response.context["summary"].clock
    assert clock.warning and clock.minutes_left == 5  # 4 min 30 s, rounded up
    assert "Final minutes" in response.content.decode()
    frozen.shift(dt.timedelta(minutes=5))  # the page refreshes its clock every 30 s
    refreshed = client.get(reverse("matches:match", args=[match.pk]), {"panel": "clock"}, HTTP_HX_REQUEST="true")
    assert "Time called" in refreshed.content.decode() and "<table" not in refreshed.content.decode()


def test_time_is_called_once_at_the_cap_and_each_match_finishes_by_its_rules(
    frozen, django_capture_on_commit_callbacks
):
    """timed-90 (seed 003): higher level wins; equal levels play one extra deal."""
    ahead = table_match(profile="timed-90", stage_format="knockout")
    round_ = ahead.round
    tied = round_match(round_=round_)
    passed = round_match(round_=round_)
    idle = round_match(round_=round_)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        round_start(round_id=round_.pk)
    scheduled = [callback for callback in callbacks if "_schedule" in callback.__qualname__]
    assert len(scheduled) == 1  # one task, scheduled for the cap; in eager mode it ran at once …
    round_.refresh_from_db()
    assert round_.time_called_at is None  # … and did nothing: the cap is not reached

    frozen.shift(dt.timedelta(minutes=30))
    play(ahead, "NS")
    play(tied, "NS")
    play(passed, "NS", "NS", "NS", "NS", "NES")
    assert passed.status == MatchStatus.FINISHED

    frozen.shift(dt.timedelta(minutes=60, seconds=1))  # past the 90-minute cap
    assert tasks.round_time_up.apply(args=[round_.pk]).get() == {"round": round_.pk, "called": True}
    round_.refresh_from_db()
    assert (round_.status, round_.time_called_at) == (RoundStatus.TIME_CALLED, T0 + dt.timedelta(minutes=90, seconds=1))
    called = {m.pk: m.time_called_during_deal for m in Match.objects.filter(round=round_)}
    assert called == {ahead.pk: 2, tied.pk: 2, passed.pk: None, idle.pk: 1}  # the deal being played

    # a duplicate delivery, the sweep, a second call: no further effect
    assert tasks.round_time_up.apply(args=[round_.pk]).get()["called"] is False
    assert tasks.clock_sweep.apply().get() == {"tables_called": 0, "claims_confirmed": 0}
    for match in Match.objects.filter(round=round_):
        assert match_call_time(match_id=match.pk) is False
    assert transitions(round_.history, "time_called_at") == 1
    for match in (ahead, tied, idle):
        assert transitions(Match.history.filter(id=match.pk), "time_called_during_deal") == 1

    # the deal in play when time was called is the last regular deal (finish_current_deal)
    ahead = play(ahead, "NEW")  # N/S 6 – E/W 2
    assert (ahead.status, ahead.winner, ahead.result_reason) == (MatchStatus.FINISHED, "NS", "higher_level")
    tied = play(tied, "EW")  # 5 – 5: one extra deal (加赛一牌)
    assert (tied.status, tied.state["status"], tied.state["next_deal"]["extra"]) == (
        MatchStatus.RUNNING,
        "needs_extra_deal",
        True,
    )
    tied = play(tied, "WNE")
    assert (tied.status, tied.winner, tied.result_reason) == (MatchStatus.FINISHED, "EW", "extra_deal")
    idle = play(idle, "NES")
    assert (idle.winner, idle.result_reason) == ("NS", "higher_level")
    passed.refresh_from_db()
    assert (passed.winner, passed.result_reason, passed.time_called_during_deal) == ("NS", "passed_a", None)


def test_timed_40_equal_levels_go_to_the_side_that_reached_them_first(frozen):
    """seed 002: 同级先到者胜."""
    match = table_match(profile="timed-40")
    round_start(round_id=match.round_id)
    play(match, "NS")  # N/S reach 5 first
    frozen.shift(dt.timedelta(minutes=41))
    match_call_time(match_id=match.pk)
    match = play(match, "EW")  # E/W reach 5 in the last deal
    assert (match.status, match.winner, match.result_reason) == (MatchStatus.FINISHED, "NS", "first_to_reach")


def test_one_more_deal_when_time_is_up_during_a_deal(frozen):
    """seed 001 §3's option: if cards are in play, one more deal is played."""
    match = table_match(profile="timed-40", overrides={"at_time_up": "one_more_deal"})
    round_start(round_id=match.round_id)
    play(match, "NS")
    frozen.shift(dt.timedelta(minutes=40))
    match = play(match, "EW")  # entered after the cap: time was called during deal 2
    assert (match.time_called_during_deal, match.status) == (2, MatchStatus.RUNNING)
    match = play(match, "NEW")
    assert (match.status, match.winner, match.result_reason) == (MatchStatus.FINISHED, "NS", "higher_level")


def test_a_lost_task_loses_nothing_the_page_shows_time_called_and_the_sweep_calls_it(frozen, client):
    ref = referee(username="ref")
    match = table_match(profile="timed-40", referee_user=ref)
    round_start(round_id=match.round_id)  # its task is never run (on_commit not executed here)
    play(match, "NS", "EW")
    frozen.shift(dt.timedelta(minutes=45))
    client.force_login(ref)
    response = client.get(reverse("matches:match", args=[match.pk]))
    assert "Time called" in response.content.decode()
    assert response.context["match"].version == 3  # the version the call will store …
    match.refresh_from_db()
    assert (match.time_called_during_deal, match.version) == (None, 2)  # … not stored by a page
    assert tasks.clock_sweep.apply().get()["tables_called"] == 1
    match.refresh_from_db()
    assert match.time_called_during_deal == 3 and match.version == 3
    client.get(reverse("matches:match", args=[match.pk]))
    client.get(reverse("matches:referee_home"))
    assert tasks.clock_sweep.apply().get()["tables_called"] == 0
    match.refresh_from_db()
    assert match.version == 3  # no second call
    match = play(match, "NES")
    assert (match.status, match.result_reason) == (MatchStatus.FINISHED, "higher_level")


def test_a_deal_entered_after_the_cap_is_the_last_regular_deal(frozen):
    match = table_match(profile="timed-40")
    round_start(round_id=match.round_id)
    frozen.shift(dt.timedelta(minutes=50))
    match = play(match, "NES")  # nobody touched the match since the cap: this deal was in play
    assert (match.time_called_during_deal, match.status, match.winner) == (1, MatchStatus.FINISHED, "NS")


def test_a_match_started_on_its_own_has_its_own_clock_and_task(frozen, django_capture_on_commit_callbacks):
    match = table_match(profile="timed-40")
    later = round_match(round_=match.round)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        match_start(match_id=match.pk)
    with mock.patch.object(tasks.match_time_up, "apply_async") as schedule:
        for callback in callbacks:
            callback()  # what the commit runs: the cache bump and the schedule
    ends_at = T0 + dt.timedelta(minutes=40)
    schedule.assert_called_once_with(args=[match.pk], kwargs={"ends_at": ends_at.isoformat()}, eta=ends_at)
    later.refresh_from_db()
    assert later.started_at is None

    frozen.shift(dt.timedelta(minutes=40))
    assert tasks.match_time_up.apply(args=[match.pk]).get()["called"] is True
    assert tasks.match_time_up.apply(args=[match.pk]).get()["called"] is False
    match.refresh_from_db()
    assert match.time_called_during_deal == 1


def test_the_first_deal_starts_a_clock_nobody_started(frozen):
    match = play(table_match(profile="timed-40"), "NS")
    assert (match.started_at, match.clock_ends_at) == (T0, T0 + dt.timedelta(minutes=40))


def test_a_task_delivered_early_schedules_itself_again(frozen):
    match = table_match(profile="timed-40")
    round_ = round_start(round_id=match.round_id)
    with mock.patch.object(tasks.round_time_up, "apply_async") as again:
        assert tasks.round_time_up.run(round_.pk) == {"round": round_.pk, "called": False}
    again.assert_called_once_with(args=[round_.pk], kwargs={"ends_at": round_.ends_at.isoformat()}, eta=round_.ends_at)
    assert tasks.round_time_up.run(0) == {"round": 0, "called": False}  # a deleted round


def test_the_organiser_starts_a_round_from_its_clock_page(frozen, client):
    boss = organiser(username="boss")
    ref = referee(username="ref")
    match = table_match(profile="timed-40", organiser_user=boss, referee_user=ref)
    tournament_id = match.round.stage.tournament_id
    page = reverse("matches:round_clock", args=[tournament_id, match.round_id])
    client.force_login(ref)
    assert client.get(page).status_code == 404
    assert client.post(reverse("matches:round_start", args=[tournament_id, match.round_id])).status_code == 404
    client.force_login(boss)
    assert "Start the round" in client.get(page).content.decode()
    response = client.post(reverse("matches:round_start", args=[tournament_id, match.round_id]))
    assert response.status_code == 302
    assert Round.objects.get(pk=match.round_id).status == RoundStatus.RUNNING
    frozen.shift(dt.timedelta(minutes=41))
    html = client.get(page).content.decode()  # the page shows time called …
    assert "Time called" in html
    assert Round.objects.get(pk=match.round_id).status == RoundStatus.RUNNING  # … the sweep stores it
    time_calls_due()
    assert Round.objects.get(pk=match.round_id).status == RoundStatus.TIME_CALLED


def test_referees_may_start_their_own_match(client):
    ref = referee(username="ref")
    match = table_match(profile="timed-40", referee_user=ref)
    client.force_login(ref)
    assert client.post(reverse("matches:match_start", args=[match.pk])).status_code == 302
    match.refresh_from_db()
    assert match.started_at is not None and match.status == MatchStatus.RUNNING


def test_the_organiser_sets_a_custom_cap_and_the_warning_before_the_start(frozen, client):
    boss = organiser(username="boss")
    match = table_match(profile="timed-90", organiser_user=boss)
    args = [match.round.stage.tournament_id, match.round_id]
    client.force_login(boss)
    saved = client.post(reverse("matches:round_clock_set", args=args), {"time_cap_minutes": 50, "warning_minutes": 5})
    assert saved.status_code == 302
    client.post(reverse("matches:round_start", args=args))
    round_ = Round.objects.get(pk=match.round_id)
    assert (round_.ends_at, round_.warning_minutes) == (T0 + dt.timedelta(minutes=50), 5)
    client.post(reverse("matches:round_clock_set", args=args), {"time_cap_minutes": 10, "warning_minutes": 5})
    assert Round.objects.get(pk=match.round_id).time_cap_minutes == 50  # a running clock does not change
    client.force_login(referee(username="ref"))
    assert client.post(reverse("matches:round_clock_set", args=args), {"warning_minutes": 1}).status_code == 404
