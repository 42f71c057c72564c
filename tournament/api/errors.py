"""One error shape for the whole API: ``{"error": {"code", "message", …}}`` with a 4xx status.

The mapping itself is :func:`tournament.errors.user_error` (the one the pages use too): the
application's :class:`~tournament.errors.UserError`, the rules core's errors (their own codes:
``invalid_order``, ``bad_card`` …) and Django's ``ValidationError`` all answer 4xx here, so a view
needs no ``try`` for bad input. DRF's own errors are mapped to stable codes (``bad_input``,
``not_authenticated``, ``not_found`` …).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.defaults import page_not_found
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

from tournament.errors import user_error


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Http404):  # scoped lookups answer 404 (docs/design.md, roles): same shape
        exc = exceptions.NotFound()
    if isinstance(exc, RequestDataTooBig):  # DATA_UPLOAD_MAX_MEMORY_SIZE: bad input, in the API's shape
        exc = exceptions.ParseError(_("The request body is too large."))
    error = user_error(exc)
    if error is not None:  # a view may add to the answer (the match views: its state with a 409)
        body = error.to_json()
        view = context.get("view")
        extra = getattr(view, "error_extra", None)
        if extra is not None:
            body.update(extra(error))
        set_rollback()  # as DRF does for its own errors: nothing of a refused request is kept
        return Response({"error": body}, status=error.status, headers=error.headers)
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"error": {"code": "bad_input", "message": _first_message(exc.detail), "fields": exc.detail}}
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        response.data = {"error": {"code": code, "message": str(exc.detail)}}
    return response


def _first_message(detail: Any) -> str:
    if isinstance(detail, dict):
        for field, value in detail.items():
            return f"{field}: {_first_message(value)}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's 404 (``handler404``): JSON under ``/api/`` (a path that matches no route, e.g. a
    non-numeric id), the page elsewhere."""
    if request.path.startswith("/api/"):
        body = {"error": {"code": "not_found", "message": str(exceptions.NotFound.default_detail)}}
        return JsonResponse(body, status=404, json_dumps_params={"ensure_ascii": False})
    return page_not_found(request, exception)
