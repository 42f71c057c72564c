"""Chinese first: the interface language is zh-hans unless the user chose English with the switch.

Django's LocaleMiddleware would follow the browser's Accept-Language, so a referee's phone set to
English would get an English UI; the events this serves expect Chinese, so only the explicit
choice (the language cookie set by the header's switch) changes it.

The switch is a plain link (:func:`language_choose`), not Django's ``set_language`` form: a form
needs a CSRF token, which would give every public page a cookie and a per-visitor body, and so
keep it out of any shared cache. Choosing a language is harmless to trigger from elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


def ui_is_chinese() -> bool:
    """Whether the active interface language is Chinese (the default)."""
    return (translation.get_language() or settings.LANGUAGE_CODE).startswith("zh")


def in_ui_language(*, en: str, zh: str) -> str:
    """The text of a rules-core or draw message in the interface language (they carry both)."""
    return zh if ui_is_chinese() else en


@dataclass(frozen=True, slots=True)
class BothLanguages:
    """A text made in each interface language and shown in the active one. For a value built once and
    cached for every visitor (the public pages' overview): it must not keep the language of whoever
    happened to build it."""

    en: str
    zh: str

    def __str__(self) -> str:
        return in_ui_language(en=self.en, zh=self.zh)


def both_languages(make: Callable[[], str]) -> BothLanguages:
    """``make()`` in English and in Chinese (each under its own active language)."""
    with translation.override("en"):
        en = make()
    with translation.override("zh-hans"):
        zh = make()
    return BothLanguages(en=en, zh=zh)


def language_chosen(cookie: str | None) -> str:
    """The interface language of a request whose language cookie holds ``cookie``: the one chosen
    with the switch, else Chinese (the browser's Accept-Language is not asked)."""
    default: str = settings.LANGUAGE_CODE
    if cookie is None:  # no choice made (most visitors): no languages to look through
        return default
    return cookie if cookie in dict(settings.LANGUAGES) else default


class ChineseFirstLocaleMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        translation.activate(language_chosen(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)))
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        # The page depends on the language cookie, never on Accept-Language: say so to caches.
        patch_vary_headers(response, ("Cookie",))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


@never_cache
@require_safe
def language_choose(request: HttpRequest, language: str) -> HttpResponse:
    """The header's language switch: remember ``language`` in the language cookie and go back to
    ``next`` (a page of this site; the home page otherwise)."""
    if language not in dict(settings.LANGUAGES):
        raise Http404
    back = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = "/"
    response = HttpResponseRedirect(back)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response
