"""A deal's answer is built directly (``match_serializers.match_detail_json`` and ``deal_json``), not
through DRF's serializers: the JSON the serializers give for the deal and the match read afresh, in
their fields' order, for every game, a match running and finished, with its clock started, time
called, an adjustment."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from tests.factories import organiser, referee, table_match
from tests.tournament.api.test_referee_api import device
from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round
from tournament.api.match_serializers import DealOutput, MatchDetailOutput
from tournament.matches.models import AdjustmentKind, Deal, Match
from tournament.matches.services import adjustment_record

pytestmark = pytest.mark.django_db


def _as_the_serializers_answer(match_id: int, number: int) -> dict:
    match = Match.objects.select_related("round__stage__tournament", "table", "ns_pair", "ew_pair").get(pk=match_id)
    deal = Deal.objects.get(match_id=match_id, number=number)
    body = {"deal": DealOutput(deal).data, "match": MatchDetailOutput(match).data, "replayed": False}
    return json.loads(JSONRenderer().render(body))


def _enter(phone, match: Match, body: dict) -> dict:
    """Enter ``body`` with the clock held still, and check its answer against the serializers'."""
    with time_machine.travel(timezone.now(), tick=False):
        version = phone.get(reverse("api:match", args=[match.pk])).data["version"]  # a due time call counted
        answer = phone.post(reverse("api:deals", args=[match.pk]), {**body, "expected_version": version}, format="json")
        assert answer.status_code == 201, answer.data
        # the same JSON (PostgreSQL's jsonb gives a stored outcome's keys in an order of its own: the
        # answer's outcome is the one sent), with the serializers' fields in their order
        expected = _as_the_serializers_answer(match.pk, answer.data["deal"]["number"])
        assert json.loads(answer.content) == expected
        assert list(answer.data["match"]) == list(MatchDetailOutput().fields) == list(expected["match"])
        assert list(answer.data["deal"]) == list(DealOutput().fields)
        shown, read = answer.data["match"]["deals"], expected["match"]["deals"]
        assert [list(deal) for deal in shown] == [list(deal) for deal in read]
    return answer.data


@pytest.fixture
def ref():
    return referee(username="ref")


@pytest.mark.parametrize("cap", [None, 30])
def test_a_guandan_match_from_its_first_deal_to_its_end(ref, cap):
    match = table_match(referee_user=ref, time_cap_minutes=cap)
    phone = device(ref)
    answer = _enter(phone, match, {"order": ["N", "S"], "idempotency_key": "first"})
    assert answer["match"]["clock"]["started_at"] is not None  # the first deal started the clock
    for _number in range(40):
        answer = _enter(phone, match, {"order": ["N", "S"]})
        if answer["match"]["status"] != "running":
            break
    assert answer["match"]["status"] == "finished" and answer["match"]["winner"] == "NS"


def test_with_an_adjustment_and_time_called(ref):
    boss = organiser(username="boss")
    match = table_match(referee_user=ref, organiser_user=boss, time_cap_minutes=30)
    phone = device(ref)
    _enter(phone, match, {"order": ["E", "W"]})
    adjustment_record(
        match_id=match.pk, pair_id=match.ns_pair_id, kind=AdjustmentKind.PENALTY, reason="phone", levels=1
    )
    _enter(phone, match, {"order": ["N", "E", "S"], "anti_tribute": False})
    with time_machine.travel(timezone.now() + timedelta(minutes=31), tick=False):  # the cap passed: time called
        answer = _enter(phone, match, {"order": ["S", "W", "N"]})
    assert answer["match"]["time_called_during_deal"] is not None and answer["match"]["clock"]["time_called"]


def test_a_tractor_match(ref):
    match = table_match(profile="tractor-3deck", referee_user=ref)
    phone = device(ref)
    answer = _enter(phone, match, {"declarer": "N", "defender_points": 0})
    answer = _enter(phone, match, {"defender_points": -40, "penalties": [{"side": "EW", "kind": "exposed_card"}]})
    answer = _enter(phone, match, {"defender_points": 125, "bottom": {"points": 10, "capture": "pair"}})
    assert answer["match"]["points"] is not None or answer["match"]["levels"]


def test_a_dou_dizhu_table(ref, celery_eager):
    boss = organiser(username="boss")
    _tournament, stage = doudizhu_event(players=9, boss=boss)
    table = drawn_round(stage, referee_user=ref, user=boss).matches.order_by("table__number").first()
    phone = device(ref)
    for deal in (
        {"landlord": "E", "bid": 3, "bombs": 1, "spring": False, "winner": "landlord"},
        {"landlord": "S", "bid": 2, "bombs": 0, "spring": False, "winner": "farmers"},
        {"landlord": "W", "bid": 1, "bombs": 2, "spring": True, "winner": "landlord"},
    ):
        answer = _enter(phone, table, deal)
    assert answer["match"]["seats"] and answer["match"]["ns_pair"] is None
