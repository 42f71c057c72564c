"""A JSON body nested a thousand levels deep (or larger than a request body may be) is bad input,
400, on every JSON endpoint — the anonymous token login included — never a RecursionError (500)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import referee, table_match
from tournament.api.parsers import MAX_DEPTH, json_depth

pytestmark = pytest.mark.django_db

DEEP_ARRAY = "[" * 1000 + "]" * 1000
DEEP_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000


def _client(user=None) -> APIClient:
    client = APIClient(raise_request_exception=False)
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.mark.parametrize("body", [DEEP_ARRAY, DEEP_OBJECT], ids=["array", "object"])
def test_every_json_endpoint_refuses_a_deep_body_with_400(body):
    ref = referee(username="ref")
    match = table_match(referee_user=ref)
    anonymous = _client()
    device = _client(ref)
    answers = {
        "token": anonymous.post(reverse("api:token"), body, content_type="application/json"),
        "classify": device.post("/api/cards/classify/", body, content_type="application/json"),
        "deals": device.post(reverse("api:deals", args=[match.pk]), body, content_type="application/json"),
    }
    for name, response in answers.items():
        assert response.status_code == 400, (name, response.status_code)
        assert response.json()["error"]["code"] == "parse_error", name


def test_a_body_at_the_depth_bound_is_read_and_one_level_more_is_not():
    def body(levels: int) -> str:  # an object holding arrays: ``levels`` deep in all
        return '{"username": "x", "password": ' + "[" * (levels - 1) + "]" * (levels - 1) + "}"

    client = _client()
    at_bound = client.post(reverse("api:token"), body(MAX_DEPTH), content_type="application/json")
    assert at_bound.status_code == 400 and at_bound.json()["error"]["code"] == "bad_input"
    over = client.post(reverse("api:token"), body(MAX_DEPTH + 1), content_type="application/json")
    assert over.status_code == 400 and over.json()["error"]["code"] == "parse_error"
    assert json_depth(json.loads(body(MAX_DEPTH))) == MAX_DEPTH


def test_a_body_larger_than_a_request_body_may_be_is_400(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = '{"username": "' + "x" * 2000 + '", "password": "y"}'
    refused = _client().post(reverse("api:token"), body, content_type="application/json")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "parse_error"
