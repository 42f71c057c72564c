"""One error shape for the whole API: ``{"error": {"code", "message", …}}`` with a 4xx status.

The rules core's errors keep their own codes (``invalid_order``, ``bad_card`` …); DRF's own
errors are mapped to stable codes (``bad_input``, ``not_authenticated``, ``not_found`` …).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from scoring.cards import CardError
from scoring.errors import ScoringError
from tournament.rules import scoring_message


class RulesError(exceptions.APIException):
    """A rules-core error raised from a view: 400 (or ``status_code``) with the core's code."""

    status_code = status.HTTP_400_BAD_REQUEST

    def __init__(self, error: ScoringError | CardError, *, status_code: int | None = None) -> None:
        self.error = error
        if status_code is not None:
            self.status_code = status_code
        super().__init__(detail=error.message, code=str(getattr(error.code, "value", error.code)))


class ApiError(exceptions.APIException):
    """An error of the API's own (not the rules core's): a stable code, a message in the user's
    language, and extra fields (e.g. the match's current state with a 409)."""

    def __init__(self, *, code: str, message: str, status_code: int, extra: dict[str, Any] | None = None) -> None:
        self.status_code = status_code
        self.extra = extra or {}
        super().__init__(detail=message, code=code)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Http404):  # scoped lookups answer 404 (DESIGN.md principle 5): same shape
        exc = exceptions.NotFound()
    if isinstance(exc, (ScoringError, CardError)):
        exc = RulesError(exc)
    if isinstance(exc, RulesError):
        body: dict[str, Any] = {
            "code": str(getattr(exc.error.code, "value", exc.error.code)),
            "message": scoring_message(exc.error),
            "message_en": exc.error.message,
        }
        if isinstance(exc.error, ScoringError):
            body["deal"] = exc.error.deal
        return Response({"error": body}, status=exc.status_code)
    if isinstance(exc, ApiError):
        code = exc.get_codes()
        return Response(
            {"error": {"code": code, "message": str(exc.detail), **exc.extra}}, status=exc.status_code
        )
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "error": {"code": "bad_input", "message": _first_message(exc.detail), "fields": exc.detail}
        }
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
