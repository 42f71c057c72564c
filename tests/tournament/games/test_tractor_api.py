"""The referee API takes a Tractor deal body for a Tractor match (explicit serializer, in the
schema), previews it through the rules core, and a full match ends in the rules core's result."""

from __future__ import annotations

import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.match import replay_json
from tests.factories import referee, table_match
from tournament.matches.models import Deal, MatchStatus

pytestmark = pytest.mark.django_db

FULL_MATCH = [
    {"declarer": "N", "defender_points": 0},
    {"defender_points": -40, "penalties": [{"side": "EW", "kind": "exposed_card"}]},
    {"defender_points": 125},
    {"defender_points": 300},
    {"declarer": "NS", "defender_points": 20, "bottom": {"points": 10, "capture": "pair"}},
    {"defender_points": 5},
]


def device(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def version(client, match) -> int:
    return client.get(reverse("api:match", args=[match.pk])).data["version"]


def enter(client, match, deal: dict):
    data = {**deal, "expected_version": version(client, match)}
    return client.post(reverse("api:deals", args=[match.pk]), data, format="json")


def test_a_full_tractor_match_through_the_api(ref, match):
    client = device(ref)
    expected = replay_json({"profile": "tractor-3deck", "deals": FULL_MATCH}).to_json()
    detail = client.get(reverse("api:match", args=[match.pk])).data
    assert detail["next_deal"]["number"] == 1
    for deal in FULL_MATCH:
        response = enter(client, match, deal)
        assert response.status_code == 201, response.data
    body = response.data["match"]
    assert body["status"] == MatchStatus.FINISHED
    assert (body["winner"], body["result_reason"]) == (expected["winner"], expected["reason"])
    assert body["levels"] == expected["levels"]
    assert [deal["record"] for deal in body["deals"]] == expected["deals"]
    assert body["deals"][2]["outcome"] == {"defender_points": 125}
    response = client.post(
        reverse("api:sign_off", args=[match.pk]), {"expected_version": body["version"]}, format="json"
    )
    assert response.status_code == 200 and response.data["status"] == MatchStatus.CONFIRMED


def test_next_deal_names_the_declarer(ref, match):
    client = device(ref)
    enter(client, match, {"declarer": "N", "defender_points": 125})
    next_deal = client.get(reverse("api:match", args=[match.pk])).data["next_deal"]
    assert next_deal["declarer"] == "EW" and next_deal["declarer_seat"] in ("E", "W")


def test_preview_writes_nothing_and_reads_the_table(ref, match):
    client = device(ref)
    url = reverse("api:deal_preview", args=[match.pk])
    body = {"declarer": "N", "defender_points": 360}
    response = client.post(url, body, format="json")
    assert response.status_code == 200, response.data
    assert response.data["record"]["result"] == "defenders_up" and response.data["record"]["upgrade"] == 4
    assert response.data["record"]["next_declarer"] == "EW"
    assert response.data["tribute"] is None
    assert Deal.objects.count() == 0


def test_bad_tractor_bodies(ref, match):
    client = device(ref)
    # a Guandan order is not a Tractor deal
    response = client.post(
        reverse("api:deals", args=[match.pk]), {"order": ["N", "S"], "expected_version": 0}, format="json"
    )
    assert response.status_code == 400
    # no declarer for the first deal: the rules core's bad_input
    response = enter(client, match, {"defender_points": 60})
    assert response.status_code == 400 and response.data["error"]["code"] == "bad_input"
    # not a multiple of 5
    response = enter(client, match, {"declarer": "N", "defender_points": 62})
    assert response.status_code == 400
    # an unknown capture kind is the serializer's
    response = enter(client, match, {"declarer": "N", "defender_points": 60, "bottom": {"points": 5, "capture": "x"}})
    assert response.status_code == 400
    assert Deal.objects.count() == 0


def test_correct_and_delete_a_tractor_deal(ref, match):
    client = device(ref)
    enter(client, match, {"declarer": "N", "defender_points": 60})
    enter(client, match, {"defender_points": 60})
    url = reverse("api:deal", args=[match.pk, 1])
    response = client.put(
        url,
        {"declarer": "N", "defender_points": 0, "reason": "miscount", "expected_version": version(client, match)},
        format="json",
    )
    assert response.status_code == 200, response.data
    assert response.data["levels"] == {"NS": 2 + 3 + 1, "EW": 2}
    response = client.delete(url, {"reason": "wrong table", "expected_version": version(client, match)}, format="json")
    assert response.status_code == 200
    # deal 2 (no declarer of its own) is now the first deal: impossible, flagged
    assert response.data["flagged"] == 1


def test_a_guandan_match_still_takes_an_order(ref):
    match = table_match(referee_user=ref)
    client = device(ref)
    response = client.post(
        reverse("api:deals", args=[match.pk]), {"order": ["N", "S"], "expected_version": 0}, format="json"
    )
    assert response.status_code == 201
    response = client.post(
        reverse("api:deals", args=[match.pk]),
        {"declarer": "N", "defender_points": 60, "expected_version": 1},
        format="json",
    )
    assert response.status_code == 400


def test_the_schema_describes_both_deal_bodies():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    assert "TractorDealInput" in components and "DealInput" in components
    assert set(components["TractorDealInput"]["properties"]) >= {
        "declarer",
        "defender_points",
        "bottom",
        "penalties",
        "revoke",
        "expected_version",
    }
    body = schema["paths"]["/api/matches/{match_id}/deals/"]["post"]["requestBody"]["content"]["application/json"]
    refs = {item["$ref"].rsplit("/", 1)[1] for item in components[body["schema"]["$ref"].rsplit("/", 1)[1]]["oneOf"]}
    assert refs == {"DealInput", "TractorDealInput", "DoudizhuDealInput"}
    assert "TractorDealRecordOutput" in components


def test_other_referees_cannot_reach_it(match):
    client = device(referee(username="other"))
    body = {"declarer": "N", "defender_points": 60, "expected_version": 0}
    assert client.post(reverse("api:deals", args=[match.pk]), body, format="json").status_code == 404
