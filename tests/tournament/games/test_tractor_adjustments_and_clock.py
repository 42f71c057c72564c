"""Late arrival per seed 001 §2 through the adjustment flow, and the round's "last 10 minutes:
one more deal for every table" (seed 001 §3) as the clock's behaviour for Tractor."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from tests.factories import english_client
from tournament.matches.clock import round_start, time_calls_due
from tournament.matches.models import Adjustment, MatchStatus, Round
from tournament.matches.services import deal_record

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 5, 1, 9, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def boss_client(boss):
    client = english_client()
    client.force_login(boss)
    return client


def late(client, match, side: str, minutes: int):
    match.refresh_from_db()
    data = {"kind": "late_arrival", "side": side, "minutes_late": minutes, "reason": "late", "version": match.version}
    return client.post(reverse("matches:adjustments", args=[match.pk]), data)


@pytest.mark.parametrize(
    ("minutes", "total"),
    [(3, 100), (5, 100), (6, 120), (10, 120), (11, 130), (15, 130)],
)
def test_late_arrival_warning_then_points_in_the_first_deal(boss_client, match, minutes, total):
    """≤5 min a warning; 6–10 min −20 points in the first deal; 11–15 −30 (the late pair declares here, so
    its deduction adds to the defenders' points)."""
    assert late(boss_client, match, "NS", minutes).status_code == 302
    deal_record(match_id=match.pk, outcome={"declarer": "N", "defender_points": 100})
    match.refresh_from_db()
    assert match.deals.get().record["total_points"] == total
    effect = match.state["adjustments"][0]["effect"]
    assert effect == ("warning" if minutes <= 5 else "next_deal_points")


def test_late_defenders_lose_their_points(boss_client, match):
    late(boss_client, match, "EW", 12)
    deal_record(match_id=match.pk, outcome={"declarer": "N", "defender_points": 130})
    match.refresh_from_db()
    record = match.deals.get().record
    assert (record["penalty_points"], record["total_points"], record["result"]) == (-30, 100, "declarers_up")


def test_late_arrival_16_to_20_forfeits_the_first_deal(boss_client, match):
    assert late(boss_client, match, "NS", 18).status_code == 302
    match.refresh_from_db()
    assert match.state["levels"] == {"NS": 2, "EW": 3}
    assert match.state["adjustments"][0]["effect"] == "first_deal_forfeited"
    assert match.state["next_deal"]["declarer"] == "EW"  # the opponents won the first deal: they declare
    page = boss_client.get(reverse("matches:match", args=[match.pk]))
    assert page.context["entry_form"].initial["declarer"] == "EW"
    deal_record(match_id=match.pk, outcome={"defender_points": 60})  # no declarer needed now
    match.refresh_from_db()
    assert match.state["levels"] == {"NS": 2, "EW": 4}


def test_late_arrival_21_minutes_forfeits_the_round(boss_client, match):
    assert late(boss_client, match, "EW", 21).status_code == 302
    match.refresh_from_db()
    assert (match.status, match.winner, match.result_reason) == (MatchStatus.FINISHED, "NS", "forfeit")
    assert Adjustment.objects.get().kind == "late_arrival"


def test_the_api_records_a_late_arrival_too(boss, match):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(boss)
    body = {"side": "NS", "kind": "late_arrival", "reason": "late", "minutes_late": 8, "expected_version": 0}
    response = client.post(reverse("api:adjustments", args=[match.pk]), body, format="json")
    assert response.status_code == 201, response.data
    assert response.data["version"] == 1


def test_the_last_10_minutes_one_more_deal_for_every_table(time_machine, ref, boss, make_tractor_match):
    time_machine.move_to(T0, tick=False)
    match = make_tractor_match(referee_user=ref, organiser_user=boss, time_cap_minutes=50)
    match.round.warning_minutes = 5
    match.round.save()
    round_start(round_id=match.round_id)
    client = english_client()
    client.force_login(ref)
    deal_record(match_id=match.pk, outcome={"declarer": "N", "defender_points": 60})  # N/S 3
    time_machine.shift(dt.timedelta(minutes=46))
    body = client.get(reverse("matches:match", args=[match.pk])).content.decode()
    assert "Then one more deal for every table" in body
    time_machine.shift(dt.timedelta(minutes=5))  # the cap: the announcement (seed 001 §3)
    response = client.get(reverse("matches:match", args=[match.pk]))
    clock = response.context["summary"].clock
    assert clock.time_called and clock.one_more_deal and clock.last_deal == 3
    assert "One more deal for every table" in response.content.decode()
    assert "deal 3 is the last" in response.content.decode()
    api = client.get(reverse("api:match", args=[match.pk])).data["clock"]
    assert (api["one_more_deal"], api["last_deal"]) == (True, 3)
    # deal 2 was being played when time was called, then one more: deal 3 ends the match
    deal_record(match_id=match.pk, outcome={"defender_points": 60})  # N/S 4
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING
    deal_record(match_id=match.pk, outcome={"defender_points": 180})  # E/W take over and go up: E/W 3
    match.refresh_from_db()
    assert (match.status, match.winner, match.result_reason) == (MatchStatus.FINISHED, "NS", "higher_level")
    boss_client = english_client()
    boss_client.force_login(boss)
    args = [match.round.stage.tournament_id, match.round_id]
    page = boss_client.get(reverse("matches:round_clock", args=args)).content.decode()
    assert "One more deal announced for every table" in page
    assert Round.objects.get(pk=match.round_id).time_called_at is None  # shown by the page, not stored …
    time_calls_due()
    assert Round.objects.get(pk=match.round_id).time_called_at is not None  # … stored by the sweep


def test_a_late_arrival_recorded_after_deal_1_counts_in_deal_1(boss_client, match):
    """The referee entered deal 1 before recording that N/S (declaring) were 12 minutes late:
    no undo and re-entry — the 30 points go to the defenders of deal 1 when it is refolded."""
    deal_record(match_id=match.pk, outcome={"declarer": "N", "defender_points": 100})
    assert late(boss_client, match, "NS", 12).status_code == 302
    match.refresh_from_db()
    record = match.deals.get().record
    assert (record["penalty_points"], record["total_points"]) == (30, 130)
    assert Adjustment.objects.get().after_deal == 0


def test_the_late_arrival_form_offers_one_pair_at_a_time(boss_client, match):
    """"Both pairs (forfeit)" belongs to a forfeit, not to a late arrival (each pair late has
    its own minutes); a late arrival posted against both is refused and nothing is written."""
    response = boss_client.get(reverse("matches:adjustments", args=[match.pk]))
    late_form, other_form = response.context["late_form"], response.context["form"]
    assert [value for value, _label in late_form.fields["side"].choices] == ["NS", "EW"]
    assert "both" in [value for value, _label in other_form.fields["side"].choices]
    assert "late_arrival" not in [value for value, _label in other_form.fields["kind"].choices]
    assert late(boss_client, match, "both", 12).status_code == 400
    assert not Adjustment.objects.exists()
