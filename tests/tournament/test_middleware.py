"""The cheaper middleware (tournament/middleware.py, tournament/htmx.py) answers as the one it replaces."""

from __future__ import annotations

import pytest
from csp.constants import HEADER, HEADER_REPORT_ONLY, NONCE
from csp.middleware import CSPMiddleware
from csp.utils import build_policy
from django.contrib import messages
from django.contrib.messages import get_messages
from django.contrib.messages.middleware import MessageMiddleware
from django.http import HttpResponse
from django.test import RequestFactory, override_settings
from django.utils.module_loading import import_string
from django_htmx.middleware import HtmxDetails

from tournament import middleware as middleware_module
from tournament.htmx import HtmxMetaMiddleware
from tournament.middleware import MessagesMiddleware, PolicyOnceMiddleware

pytestmark = pytest.mark.django_db


def _answers(middleware: type[CSPMiddleware], response: HttpResponse | None = None, nonce: bool = False):
    request = RequestFactory().get("/t/1/")
    handler = middleware(lambda request: response or HttpResponse("page"))
    handler.process_request(request)
    if nonce:
        str(request.csp_nonce)  # a template asked for the nonce
    answered = handler.process_response(request, response or HttpResponse("page"))
    return {name: value for name, value in answered.items() if name.startswith("Content-Security")}


def test_the_policy_is_the_one_django_csp_sends():
    assert _answers(PolicyOnceMiddleware) == _answers(CSPMiddleware) == {HEADER: build_policy()}


def test_a_changed_setting_is_a_new_policy_not_the_one_built_before():
    middleware = PolicyOnceMiddleware(lambda request: HttpResponse())
    request = RequestFactory().get("/")
    middleware.process_request(request)
    assert "frame-ancestors 'none'" in middleware.process_response(request, HttpResponse())[HEADER]
    policy = {"DIRECTIVES": {"default-src": ["'self'"]}}
    with override_settings(CONTENT_SECURITY_POLICY=policy, CONTENT_SECURITY_POLICY_REPORT_ONLY=policy):
        answered = middleware.process_response(request, HttpResponse())
        assert answered[HEADER] == answered[HEADER_REPORT_ONLY] == "default-src 'self'"
    assert HEADER_REPORT_ONLY not in middleware.process_response(request, HttpResponse())


def test_a_response_that_changes_its_policy_or_a_nonce_is_built_by_django_csp():
    widened = HttpResponse()
    widened._csp_update = {"style-src": ["'unsafe-inline'"]}  # type: ignore[attr-defined]
    answers = _answers(PolicyOnceMiddleware, widened)
    assert "'unsafe-inline'" in answers[HEADER]
    widened_again = HttpResponse()
    widened_again._csp_update = {"style-src": ["'unsafe-inline'"]}  # type: ignore[attr-defined]
    assert answers == _answers(CSPMiddleware, widened_again)
    with override_settings(CONTENT_SECURITY_POLICY={"DIRECTIVES": {"script-src": ["'self'", NONCE]}}):
        answers = _answers(PolicyOnceMiddleware, nonce=True)
    assert "'nonce-" in answers[HEADER]


def test_a_nonce_asked_after_the_header_is_written_is_refused_as_django_csp_refuses_it():
    middleware = PolicyOnceMiddleware(lambda request: HttpResponse())
    request = RequestFactory().get("/")
    middleware.process_request(request)
    middleware.process_response(request, HttpResponse())
    with pytest.raises(Exception, match="csp_nonce"):
        str(request.csp_nonce)


DETAILS = (
    "boosted",
    "current_url",
    "current_url_abs_path",
    "history_restore_request",
    "prompt",
    "ptag",
    "request_type",
    "source",
    "target",
    "trigger",
    "trigger_name",
    "triggering_event",
)


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"HTTP_HX_REQUEST": "true"},
        {"HTTP_HX_REQUEST": "false"},
        {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": "http://testserver/t/1/?q=%E7%8E%8B"},
        {"HTTP_HX_CURRENT_URL": "%2Ft%2F1%2F", "HTTP_HX_CURRENT_URL_URI_AUTOENCODED": "true"},
        {"HTTP_HX_BOOSTED": "true", "HTTP_HX_TARGET": "results", "HTTP_HX_TRIGGER_NAME": "q"},
        {"HTTP_HX_PROMPT": "%E7%8E%8B", "HTTP_HX_PROMPT_URI_AUTOENCODED": "true"},
        {"HTTP_TRIGGERING_EVENT": '{"a": 1}'},
    ],
)
def test_htmx_details_read_from_meta_are_django_htmxs(headers):
    request = RequestFactory().get("/t/1/find/", **headers)
    HtmxMetaMiddleware(lambda request: HttpResponse())(request)
    ours = {name: getattr(request.htmx, name) for name in DETAILS} | {"": bool(request.htmx)}
    assert "headers" not in request.__dict__  # no mapping of every header was built
    theirs = HtmxDetails(request)
    assert ours == {name: getattr(theirs, name) for name in DETAILS} | {"": bool(theirs)}


@override_settings(MESSAGE_STORAGE="django.contrib.messages.storage.cookie.CookieStorage")
def test_a_message_is_stored_and_read_back_once(rf):
    """The storage class imported once still stores: a message added on one request is read on the
    next (from its cookie) and then gone."""
    middleware = MessagesMiddleware(lambda request: HttpResponse())
    request = rf.get("/")
    middleware.process_request(request)
    messages.info(request, "saved")
    cookies = middleware.process_response(request, HttpResponse()).cookies
    assert cookies, "the message was stored in its cookie"
    again = rf.get("/")
    again.COOKIES = {name: morsel.value for name, morsel in cookies.items()}
    middleware.process_request(again)
    assert [str(message) for message in get_messages(again)] == ["saved"]
    gone = middleware.process_response(again, HttpResponse()).cookies
    assert gone and all(morsel.value == "" for morsel in gone.values()), "read once, its cookie is deleted"


@override_settings(MESSAGE_STORAGE="django.contrib.messages.storage.cookie.CookieStorage")
def test_the_messages_storage_is_made_only_for_a_page_that_adds_or_reads_one(rf, monkeypatch):
    """A page that neither adds nor shows a message makes no storage and stores nothing, as Django's
    storage stores nothing then; one that shows the messages makes it and answers as Django's."""
    made: list[object] = []

    def counted(path: str):
        real = import_string(path)

        def make(request):
            made.append(request)
            return real(request)

        return make

    monkeypatch.setattr(middleware_module, "_storage_class", counted)
    middleware = MessagesMiddleware(lambda request: HttpResponse())
    untouched = rf.get("/t/1/")
    middleware.process_request(untouched)
    assert not middleware.process_response(untouched, HttpResponse()).cookies and made == []
    answers = []
    for reader in (middleware, MessageMiddleware(lambda request: HttpResponse())):
        shown = rf.get("/t/1/")
        reader.process_request(shown)
        assert not get_messages(shown) and list(get_messages(shown)) == []
        answers.append(reader.process_response(shown, HttpResponse()).cookies.output())
    assert answers[0] == answers[1] and len(made) == 1  # read: the storage made, its cookie as Django's
