"""Third-party middleware made cheaper per request, with the same answers.

Every request of the public pool goes through the middleware stack (a find of one's table misses
every kept response and is built by Django: tournament.standings.public_responses), so what each
layer does on every request counts: these subclasses keep their parent's behaviour and skip work
that gives the same result each time.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.contrib.messages.middleware import MessageMiddleware
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.functional import SimpleLazyObject, empty
from django.utils.module_loading import import_string

__all__ = ["MessagesMiddleware", "PolicyOnceMiddleware"]

_PER_RESPONSE = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
)
"""The attributes a view's decorator (``csp_update`` …) sets on its response to change its policy."""
_POLICIES = (
    (HEADER, "CONTENT_SECURITY_POLICY", "_csp_exempt", False),
    (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", "_csp_exempt_ro", True),
)
"""Per header: its setting, the response's attribute that exempts it, whether it only reports."""


class PolicyOnceMiddleware(CSPMiddleware):
    """django-csp's middleware, whose headers are built once per policy setting, not twice per response.

    django-csp builds both headers from the settings on every response (dataclasses turned into
    dicts, each directive copied, joined: a tenth of a find's time in Django). Unless the response
    changes its policy (a view decorated with ``csp_update`` …: the API's documentation) or the
    request asked for a nonce, the headers are the settings' alone, so each is built once per
    setting (a test's ``override_settings`` is a new setting) and set as django-csp sets it;
    otherwise django-csp builds them as before.
    """

    def __init__(self, get_response: Any) -> None:
        super().__init__(get_response)
        self._built: dict[str, tuple[Any, str]] = {}

    def _policy(self, name: str, setting: Any, report_only: bool) -> str:
        built = self._built.get(name)
        if built is None or built[0] is not setting:
            built = (setting, build_policy(report_only=report_only))
            self._built[name] = built
        return built[1]

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(
            getattr(response, name, None) is not None for name in _PER_RESPONSE
        ):
            return super().process_response(request, response)
        if response.status_code in (500, 404) and settings.DEBUG:  # django-csp leaves Django's debug pages alone
            return response
        for header, name, exempt, report_only in _POLICIES:
            setting = getattr(settings, name, None)
            policy = self._policy(name, setting, report_only)
            if not policy or header in response or getattr(response, exempt, False) is not False:
                continue
            prefixes = (setting or {}).get("EXCLUDE_URL_PREFIXES", None) or ()
            if not request.path_info.startswith(tuple(prefixes)):
                response[header] = policy
        # as django-csp: a nonce asked for once the header is written is an error, not a silent gap
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response


@cache
def _storage_class(path: str) -> Any:
    return import_string(path)


class MessagesMiddleware(MessageMiddleware):
    """Django's messages middleware, whose storage is made when a message is first added or read.

    Django's makes the storage on every request (its class imported by name, a cookie signer and a
    session storage made), though most pages neither add nor show one; a storage nobody touched
    stores nothing in its ``update``, so the response is the same without it. The class is imported
    once per setting.
    """

    def process_request(self, request: HttpRequest) -> None:
        storage = _storage_class(settings.MESSAGE_STORAGE)
        request._messages = SimpleLazyObject(lambda: storage(request))  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        messages = getattr(request, "_messages", None)
        if isinstance(messages, SimpleLazyObject) and messages._wrapped is empty:
            return response  # never added nor read: nothing to store
        return super().process_response(request, response)
