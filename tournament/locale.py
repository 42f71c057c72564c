"""Chinese first: the interface language is zh-hans unless the user chose English with the switch.

Django's LocaleMiddleware would follow the browser's Accept-Language, so a referee's phone set to
English would get an English UI; the events this serves expect Chinese, so only the explicit
choice (the language cookie set by the header's switch) changes it.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


def ui_is_chinese() -> bool:
    """Whether the active interface language is Chinese (the default)."""
    return (translation.get_language() or settings.LANGUAGE_CODE).startswith("zh")


def in_ui_language(*, en: str, zh: str) -> str:
    """The text of a rules-core or draw message in the interface language (they carry both)."""
    return zh if ui_is_chinese() else en


class ChineseFirstLocaleMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = chosen if chosen in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
