"""The application's one error type and its one mapping to an HTTP status.

Everything a user can get wrong ends here as a :class:`UserError` — a stable ``code``, a message in
the user's language and an HTTP ``status`` (400 bad input, 409 the state refuses it, 413 too large,
429 too many) — whatever raised it:

- the application's own errors are :class:`UserError` (or subclasses: ``StaleVersion``,
  ``MatchRefused`` in ``tournament.matches.errors``, the roster importer's errors …; a reason
  refused by ``tournament.audit.reason_clean`` is a plain one);
- the rules core's :class:`~scoring.errors.ScoringError` and :class:`~scoring.cards.CardError` (the
  core imports no Django, so they are mapped here, not subclassed): 400, or 409 for
  ``match_finished``;
- Django's :class:`~django.core.exceptions.ValidationError`: 400 ``bad_input`` with the field errors.
  The application raises it only at the form boundary (a form's ``clean``); services and selectors
  refuse with a :class:`UserError` (``UserError.of_fields`` when the refusal is of named fields), and
  :func:`user_error_on_form` puts one on a bound form. The mapping stays for Django's own (a model
  field given a value it cannot read), so that one too answers 400, not 500.

:func:`user_error` is the mapping; the API's exception handler (``tournament.api.errors``) and the
pages (:class:`UserErrorMiddleware`, and views that re-render a form with the message) both use it,
so a new endpoint cannot turn bad input into a 500 by forgetting a ``try``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from scoring.cards import CardError
from scoring.errors import ErrorCode, ScoringError
from tournament.locale import in_ui_language

__all__ = [
    "USER_ERRORS",
    "UserError",
    "UserErrorMiddleware",
    "scoring_message",
    "user_error",
    "user_error_of",
    "user_error_on_form",
]


class UserError(Exception):
    """Bad input or a refused action, fit to show the person who caused it.

    ``code`` is stable (the API returns it); ``message`` is in the user's language; ``status`` the
    HTTP status; ``fields`` per-field messages (a form's or serializer's errors); ``message_en``
    the English message when the rules core gave one; ``extra`` more of the answer (e.g. the
    match's current state with a 409); ``headers`` HTTP headers of the answer (``Retry-After``).
    """

    status = 400

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: int | None = None,
        fields: dict[str, Any] | None = None,
        message_en: str | None = None,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        if status is not None:
            self.status = status
        self.fields = fields
        self.message_en = message_en
        self.extra = extra or {}
        self.headers = headers or {}

    @classmethod
    def of_fields(
        cls, fields: Mapping[str, str | Sequence[str]], *, code: str = "bad_input", status: int | None = None
    ) -> UserError:
        """A refusal of named fields' values: ``fields`` maps each field to its message(s); the
        error's message is all of them in order (what a caller without a form shows)."""
        listed = {
            name: [str(messages)] if isinstance(messages, str) else [str(m) for m in messages]
            for name, messages in fields.items()
        }
        message = " ".join(message for messages in listed.values() for message in messages)
        return cls(code, message, status=status, fields=listed)

    @property
    def messages(self) -> list[str]:
        """Every message: each field's in order, else the one message."""
        listed = [str(message) for messages in (self.fields or {}).values() for message in messages]
        return listed or [self.message]

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.message_en is not None:
            body["message_en"] = self.message_en
        if self.fields:
            body["fields"] = self.fields
        body.update(self.extra)
        return body


def scoring_message(error: ScoringError | CardError) -> str:
    """The rules core's message in the active language (Chinese first)."""
    return in_ui_language(en=error.message, zh=error.message_zh)


USER_ERRORS: tuple[type[Exception], ...]  # every exception :func:`user_error` maps (for an ``except``)


def user_error(error: BaseException) -> UserError | None:
    """``error`` as the user's error (code, message, status), or None if it is not one (a bug)."""
    if isinstance(error, UserError):
        return error
    if isinstance(error, (ScoringError, CardError)):
        code = str(getattr(error.code, "value", error.code))
        status = 409 if isinstance(error, ScoringError) and error.code is ErrorCode.MATCH_FINISHED else 400
        extra = {"deal": error.deal} if isinstance(error, ScoringError) else None
        return UserError(code, scoring_message(error), status=status, message_en=error.message, extra=extra)
    if isinstance(error, ValidationError):
        fields = error.message_dict if hasattr(error, "error_dict") else None
        messages = [message for message in error.messages if message] or [_("The input is not valid.")]
        single_code = getattr(error, "code", None)  # set only on a single error (a list or dict has none)
        return UserError(str(single_code or "bad_input"), " ".join(messages), fields=fields)
    return None


USER_ERRORS = (UserError, ScoringError, CardError, ValidationError)


def user_error_of(error: BaseException) -> UserError:
    """:func:`user_error` for an exception caught as one of :data:`USER_ERRORS`."""
    mapped = user_error(error)
    if mapped is None:  # pragma: no cover - USER_ERRORS and user_error are kept together above
        raise TypeError(f"not a user's error: {error!r}")
    return mapped


def user_error_on_form(form: Any, error: UserError) -> None:
    """Show ``error`` on a bound ``form``: each field's messages on that field when the form has
    it, the rest (or the one message) above the form; the error's code goes with each message."""
    shown: list[tuple[str | None, Any]] = [*error.fields.items()] if error.fields else [(None, [error.message])]
    for field, messages in shown:
        target = field if field in form.fields else None
        form.add_error(target, [ValidationError(str(message), code=error.code) for message in messages])


def form_errors_text(form: Any) -> str:
    """A bound form's messages in one line: for a one-line form posted from a list (a flash
    message above the list it came from, not the form re-rendered)."""
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


class UserErrorMiddleware:
    """Pages: a user's error that no view caught answers its status with a page saying what was
    wrong, never a 500 (views that can re-render their form with the message still do so)."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse = self.get_response(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        error = user_error(exception)
        if error is None:
            return None
        return render(request, "user_error.html", {"error": error}, status=error.status)
