"""The API's patterns come first in the root URL map (a deal is not tried against every page's
pattern before its own): that changes no answer only while no other address begins with "api/"."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, get_resolver


def _routes(entry: URLPattern | URLResolver, prefix: str = ""):
    if isinstance(entry, URLResolver):
        for inner in entry.url_patterns:
            yield from _routes(inner, prefix + str(entry.pattern))
    else:
        yield prefix + str(entry.pattern)


def test_the_api_is_tried_first_and_no_other_address_could_be_its():
    entries = get_resolver().url_patterns
    first = next(index for index, entry in enumerate(entries) if str(entry.pattern) == "api/")
    assert all(str(entry.pattern) == "" and isinstance(entry, URLPattern) for entry in entries[:first])  # home
    others = [route for entry in entries if str(entry.pattern) != "api/" for route in _routes(entry)]
    assert others and not [route for route in others if route.startswith(("api", "<", "^"))]
