"""What the OpenAPI schema and the server agree on, in one place (schemathesis found
undocumented 4xx codes and unknown query parameters accepted).

- :func:`error_responses` (a drf-spectacular postprocessing hook) documents on every operation the
  4xx answers every API view can give through the one error mapping (``tournament.errors``): 400
  bad input (including an unknown query parameter), 403 without a login on the views that need one,
  404 out of scope or unknown, 429 throttled where a throttle applies, 415 for a body that is not
  JSON or a form.
- :class:`StrictQueryParams` refuses a query parameter the view does not document (400
  ``unknown_parameter``) instead of silently ignoring it; every API view has it (a test walks the
  URLs), so a new endpoint cannot forget.
- :class:`StrictPagination` refuses a ``page_size`` that is not a number in range instead of
  falling back to the default.
- :class:`StrictInput`, the base of the request bodies, refuses a field it does not have (400
  ``bad_input``) where DRF would drop it, and the schema says so (``additionalProperties: false``,
  :class:`tournament.api.openapi.ApiSchema`): a body of another game (a Tractor deal sent to a
  Guandan match, or fields of both) is refused by both. In a form body (multipart or urlencoded,
  where there is no null) the text ``null`` is null for a nullable field, as in JSON.
- :func:`request_bodies_required` marks a request body required where what it holds has required
  fields (drf-spectacular leaves it unsaid for a union of the games' bodies).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.views import APIView

from tournament.errors import UserError
from tournament.parsing import int_parse

ERROR_SCHEMA = {"$ref": "#/components/schemas/ErrorOutput"}
ERROR_COMPONENT = {
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
            "required": ["code", "message"],
        }
    },
    "required": ["error"],
}
DESCRIPTIONS = {
    "400": "bad_input (with the fields), unknown_parameter, or the rules core's code.",
    "403": "not_authenticated or permission_denied.",
    "404": "not_found: unknown, unpublished or out of the caller's scope.",
    "415": "unsupported_media_type: send JSON.",
    "429": "throttled or locked_out: wait (Retry-After).",
}


def error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault("ErrorOutput", ERROR_COMPONENT)
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            codes = ["400", "404"]
            if any(requirement for requirement in operation.get("security", [])):
                codes.append("403")
            if path.startswith("/api/public/") or path == "/api/auth/token/":
                codes.append("429")
            if method in {"post", "put", "patch", "delete"}:
                codes.append("415")
            responses = operation.setdefault("responses", {})
            for code in codes:
                responses.setdefault(
                    code,
                    {"content": {"application/json": {"schema": ERROR_SCHEMA}}, "description": DESCRIPTIONS[code]},
                )
    return result


class StrictQueryParams(APIView):
    """Refuse query parameters the view does not document (``query_params_allowed``, plus the
    pagination's). A view's first base, before DRF's view it refines (``(StrictQueryParams, APIView)``)."""

    query_params_allowed: frozenset[str] = frozenset()

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        allowed = set(self.query_params_allowed)
        paginator = getattr(self, "paginator", None)
        if paginator is not None:
            names = (getattr(paginator, "page_query_param", None), getattr(paginator, "page_size_query_param", None))
            allowed.update(name for name in names if name)
        unknown = sorted(set(request.query_params) - allowed)
        if unknown:
            message = _("Unknown query parameter: %(names)s.") % {"names": ", ".join(unknown)}
            raise UserError("unknown_parameter", message)
        super().initial(request, *args, **kwargs)


class StrictPagination(PageNumberPagination):
    """DRF's page numbers, but a bad ``page_size`` is a 400 (DRF ignores it), and only one value
    of each parameter."""

    def get_page_size(self, request: Request) -> int | None:
        if self.page_size_query_param and self.page_size_query_param in request.query_params:
            values = request.query_params.getlist(self.page_size_query_param)
            if len(values) != 1:
                raise UserError("bad_input", _("Give page_size once."))
            return int_parse(values[0], name=self.page_size_query_param, low=1, high=self.max_page_size or 1000)
        return self.page_size

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """The parameters with the ranges the server holds them to (DRF documents bare integers)."""
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"] = {**parameter["schema"], "minimum": 1}
            elif parameter["name"] == self.page_size_query_param:
                parameter["schema"] = {**parameter["schema"], "minimum": 1, "maximum": self.max_page_size or 1000}
        return parameters


# A request body: a field it does not have is refused, not dropped; "null" in a form body is null for
# a nullable field (module docstring). A comment, not a docstring: the schema would show it as the
# description of every body without one of its own.
class StrictInput(serializers.Serializer[None]):

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(name) for name in set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: [_("There is no such field.")] for name in unknown})
        if isinstance(data, QueryDict):
            nulls = [name for name, field in self.fields.items() if field.allow_null and data.get(name) == "null"]
            if nulls:
                data = data.copy()
                for name in nulls:
                    data[name] = ""  # DRF reads a nullable field's empty form value as null
        return super().to_internal_value(data)


def _has_required(schema: dict[str, Any], components: dict[str, Any]) -> bool:
    """Whether every value ``schema`` allows is an object with a required field."""
    ref = schema.get("$ref", "")
    if ref:
        return _has_required(components.get(ref.rsplit("/", 1)[-1], {}), components)
    if "oneOf" in schema:
        return all(_has_required(member, components) for member in schema["oneOf"])
    return bool(schema.get("required"))


def request_bodies_required(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    components = result.get("components", {}).get("schemas", {})
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if not body or body.get("required"):
                continue
            schemas = [media.get("schema", {}) for media in body.get("content", {}).values()]
            if schemas and all(_has_required(schema, components) for schema in schemas):
                body["required"] = True
    return result
