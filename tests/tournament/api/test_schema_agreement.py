"""The API and its schema agree; schemathesis checks it end to end
(tests/tournament/public/test_public_schemathesis.py), these pin the pieces."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from tests.factories import TournamentFactory
from tournament.api.schema import StrictQueryParams

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
