"""The API and its schema agree; schemathesis checks it end to end
(tests/tournament/standings/test_public_schemathesis.py), these pin the pieces."""

from __future__ import annotations

import jsonschema
import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, organiser, table_match
from tournament.api.schema import StrictQueryParams
from tournament.matches.models import Adjustment, Deal

pytestmark = pytest.mark.django_db


def _api_views(patterns=None, prefix=""):
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            yield from _api_views(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern) and (prefix + str(entry.pattern)).startswith("api/"):
            view = getattr(entry.callback, "cls", None) or getattr(entry.callback, "view_class", None)
            yield prefix + str(entry.pattern), view


SCHEMA_PAGES = {"api/schema/", "api/docs/"}


def test_every_api_view_refuses_unknown_query_parameters():
    """So a new endpoint cannot forget: every view under /api/ has the check."""
    views = [(route, view) for route, view in _api_views() if route not in SCHEMA_PAGES]
    assert len(views) > 20
    assert [route for route, view in views if not (view and issubclass(view, StrictQueryParams))] == []


def test_an_unknown_query_parameter_is_400_unknown_parameter():
    TournamentFactory()
    client = APIClient()
    assert client.get("/api/public/tournaments/").status_code == 200
    refused = client.get("/api/public/tournaments/", {"sort": "name"})
    assert refused.status_code == 400 and refused.data["error"]["code"] == "unknown_parameter"


@pytest.mark.parametrize("page_size", ["0", "501", "null", "³"])
def test_a_bad_page_size_is_refused_not_ignored(page_size):
    refused = APIClient().get("/api/public/tournaments/", {"page_size": page_size})
    assert refused.status_code == 400 and refused.data["error"]["code"] == "bad_input"


def test_an_address_under_api_that_matches_no_route_answers_json(client):
    response = client.get("/api/matches/null,null/")
    assert response.status_code == 404 and response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == "not_found"
    assert client.get("/no/such/page/")["Content-Type"].startswith("text/html")


def test_every_operation_documents_the_error_answers():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            assert {"400", "404"} <= set(responses), (method, path)
            if path.startswith("/api/public/"):
                assert "429" in responses
            else:
                assert "403" in responses or path == "/api/auth/token/", (method, path)
    assert schema["components"]["schemas"]["ErrorOutput"]


# -- the referee API's bodies: what the schema says is what the server holds to -----------------------


def _schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def _device(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.fixture
def boss():
    return organiser(username="boss")


@pytest.fixture
def guandan_match(boss):
    return table_match(organiser_user=boss)


def test_the_deal_bodies_are_required_and_a_delete_documents_its_reason_and_version():
    paths = _schema()["paths"]
    deal = paths["/api/matches/{match_id}/deals/{number}/"]
    assert deal["put"]["requestBody"]["required"] is True
    assert paths["/api/matches/{match_id}/deals/"]["post"]["requestBody"]["required"] is True
    assert paths["/api/matches/{match_id}/deals/preview/"]["post"]["requestBody"]["required"] is True
    query = {p["name"]: p for p in deal["delete"]["parameters"] if p["in"] == "query"}
    assert query["reason"]["required"] and query["expected_version"]["required"]
    assert query["reason"]["schema"]["minLength"] == 1


def test_every_reason_a_body_takes_has_a_minimum_length_and_an_empty_one_is_refused(boss, guandan_match):
    components = _schema()["components"]["schemas"]
    reasons = {
        name: body["properties"]["reason"]
        for name, body in components.items()
        if name.endswith("Input") and "reason" in body.get("properties", {})
    }
    assert {"CorrectionInput", "TractorCorrectionInput", "DeletionInput", "AdjustmentInput"} <= set(reasons)
    assert {name: reason.get("minLength") for name, reason in reasons.items()} == dict.fromkeys(reasons, 1)
    url = reverse("api:deal", args=[guandan_match.pk, 1])
    refused = _device(boss).put(url, {"order": ["N", "S"], "reason": "", "expected_version": 0}, format="json")
    assert refused.status_code == 400 and refused.data["error"]["code"] == "bad_input"


def test_a_null_absent_player_in_a_multipart_body_is_null(boss, guandan_match):
    """Form encodings have no null: a client (schemathesis among them) writes the text "null"."""
    body = {"side": "NS", "kind": "warning", "reason": "说话", "absent_player": "null", "minutes_late": "null"}
    body["expected_version"] = guandan_match.version
    created = _device(boss).post(reverse("api:adjustments", args=[guandan_match.pk]), body, format="multipart")
    assert created.status_code == 201, created.data
    assert Adjustment.objects.get(match=guandan_match).absent_player_id is None


def test_another_games_body_is_refused_by_the_schema_and_the_server(boss, guandan_match):
    schema = _schema()
    components = schema["components"]["schemas"]
    assert components["DealInput"]["additionalProperties"] is False
    assert components["TractorDealInput"]["additionalProperties"] is False
    union_schema = {**components["DealBody"], "components": {"schemas": components}}
    validator = jsonschema.Draft202012Validator
    mixed = {"order": ["N", "S"], "defender_points": 40, "expected_version": 0}
    assert not validator(union_schema).is_valid(mixed)  # neither game's body: the schema refuses it
    assert validator(union_schema).is_valid({"order": ["N", "S"], "expected_version": 0})
    client = _device(boss)
    url = reverse("api:deals", args=[guandan_match.pk])
    refused = client.post(url, mixed, format="json")
    assert refused.status_code == 400 and refused.data["error"]["code"] == "bad_input"
    assert "defender_points" in str(refused.data)
    tractor = client.post(url, {"declarer": "NS", "defender_points": 40, "expected_version": 0}, format="json")
    assert tractor.status_code == 400 and tractor.data["error"]["code"] == "bad_input"
    assert not Deal.objects.filter(match=guandan_match).exists()
