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
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

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


class StrictQueryParams:
    """Refuse query parameters the view does not document (``query_params_allowed``, plus the
    pagination's)."""

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
        super().initial(request, *args, **kwargs)  # type: ignore[misc]


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
