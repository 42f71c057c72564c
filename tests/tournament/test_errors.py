"""One application error type and one mapping to HTTP: every error a user can
cause — the application's own, the rules core's, Django's ValidationError — answers a 4xx with a
code and a readable message, on the API and on the pages alike."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.test import RequestFactory

from scoring.cards import CardError, parse_level
from scoring.errors import ErrorCode, ScoringError
from tournament.api.errors import api_exception_handler
from tournament.errors import USER_ERRORS, UserError, UserErrorMiddleware, user_error
from tournament.matches.errors import MatchRefused


@pytest.mark.parametrize(
    ("error", "code", "status"),
    [
        (ScoringError(ErrorCode.INVALID_ORDER, "N and E are not partners."), "invalid_order", 400),
        (ScoringError(ErrorCode.MATCH_FINISHED, "The match is over."), "match_finished", 409),
        (CardError("bad_card", "Not a card: 'ZZ'.", "不是牌：'ZZ'。"), "bad_card", 400),
        (ValidationError({"seed": ["Too big."]}), "bad_input", 400),
        (ValidationError("A draft round exists already.", code="draft_exists"), "draft_exists", 400),
        (MatchRefused("match_locked", "Signed off."), "match_locked", 409),
        (MatchRefused("reason_required", "Give a reason.", conflict=False), "reason_required", 400),
        (UserError("too_large", "The file is too large.", status=413), "too_large", 413),
    ],
)
def test_each_family_of_user_errors_maps_to_one_code_message_and_status(error, code, status):
    mapped = user_error(error)
    assert isinstance(error, USER_ERRORS)
    assert mapped is not None and (mapped.code, mapped.status) == (code, status)
    assert mapped.message


def test_a_bug_is_not_a_user_error():
    assert user_error(KeyError("x")) is None
    assert not isinstance(KeyError("x"), USER_ERRORS)


def test_the_rules_core_message_is_in_the_user_language():
    error = ScoringError(ErrorCode.INVALID_ORDER, "N and E are not partners.", 3, message_zh="N 和 E 不是搭档。")
    from django.utils import translation

    with translation.override("zh-hans"):
        mapped = user_error(error)
    assert mapped is not None
    assert mapped.message == "N 和 E 不是搭档。" and mapped.message_en == "N and E are not partners."
    assert mapped.to_json()["deal"] == 3


def test_the_api_answers_a_django_validation_error_with_400_and_its_fields():
    """Before: DRF's handler knew nothing of Django's ValidationError, so a service refusing a
    value through it became a 500."""
    response = api_exception_handler(ValidationError({"seed": ["Ensure this value is at most 2147483647."]}), {})
    assert response is not None and response.status_code == 400
    assert response.data["error"]["code"] == "bad_input"
    assert response.data["error"]["fields"] == {"seed": ["Ensure this value is at most 2147483647."]}


def test_the_api_answers_a_rules_core_error_from_any_view_with_its_code():
    with pytest.raises(CardError) as caught:
        parse_level("Z")
    response = api_exception_handler(caught.value, {})
    assert response is not None and response.status_code == 400
    assert response.data["error"]["code"] == "bad_level"


@pytest.mark.parametrize(
    ("error", "status"),
    [(ValidationError("The round is finished.", code="round_finished"), 400), (MatchRefused("x", "Busy."), 409)],
)
def test_a_page_that_lets_a_user_error_through_answers_its_status_with_the_message(error, status, db):
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    middleware = UserErrorMiddleware(lambda request: None)
    response = middleware.process_exception(request, error)
    assert response is not None and response.status_code == status
    message = error.messages[0] if isinstance(error, ValidationError) else error.message
    assert message in response.content.decode()


def test_a_page_bug_is_left_to_django():
    request = RequestFactory().get("/")
    assert UserErrorMiddleware(lambda request: None).process_exception(request, KeyError("x")) is None
