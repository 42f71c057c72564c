"""The API's JSON bodies, bounded: a body nested deeper than any request of the API is bad input
(400 ``parse_error``), never a server error. (Its size is Django's bound on a request body,
``DATA_UPLOAD_MAX_MEMORY_SIZE``, answered in the API's shape by ``api/errors.py``.)

Python's JSON decoder recurses once per level: a thousand ``[`` — anonymous, on the token login —
raised ``RecursionError`` (500). No body of this API is nested more than a few levels (a Tractor
deal's tricks are lists in a list), so :data:`MAX_DEPTH` is far above any real request and far
below the interpreter's recursion limit: deeper than the interpreter allows is caught where the
decoder gives up, and anything deeper than :data:`MAX_DEPTH` is refused once decoded (counted
without recursion), before a serializer or the rules core walks it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

__all__ = ["MAX_DEPTH", "BoundedJSONParser", "json_depth"]

MAX_DEPTH = 32
"""Arrays and objects inside each other a request body may hold."""


def json_depth(value: Any, *, stop_above: int = MAX_DEPTH) -> int:
    """How deep a decoded value's arrays and objects nest, without recursion (stops counting once
    above ``stop_above``)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            if deepest > stop_above:
                break
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with a bound on the body's nesting (module docstring)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        too_deep = _("The request body is nested too deeply (at most %(max)d levels).") % {"max": MAX_DEPTH}
        try:
            value = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:  # the decoder went deeper than the interpreter allows
            raise ParseError(too_deep) from exc
        if json_depth(value) > MAX_DEPTH:
            raise ParseError(too_deep)
        return value
