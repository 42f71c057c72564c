"""Whole public pages for anonymous visitors: the layout rendered once, its holes filled per request.

A public page's layout — header, language switch, the tournament's navigation, title — is the
same for every anonymous visitor at one cache version and language, but for a few holes that
differ per request: the page's own address (where the language switch returns to) and the page's
content (a cached fragment, or find my table's question and answer). So the layout is rendered
once per version, language and page with a marker in each hole and cached like any public value;
a request fills the markers in with one pass of a regular expression instead of a template
render, which was most of a public page's cost when thousands of phones open the same pages.

There is no CSRF token among the holes: public pages only read, and the language switch is a
link (:func:`tournament.locale.language_choose`), so an anonymous visitor gets no cookie and the
same bytes as everybody else. Visitors with a session cookie (signed in: their name and menus)
or pending messages get the page rendered as usual; both ways give the same HTML.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.html import conditional_escape
from django.utils.translation import get_language

from tournament.standings.cache import public_cached

_HOLE = re.compile("\x00hole:([a-z_]+)\x00")


def _marker(name: str) -> str:
    return f"\x00hole:{name}\x00"


def plain_visitor(cookies: Mapping[str, str]) -> bool:
    """A visitor with these cookies has nobody signed in and nothing pending: the page is the same
    as for every other such visitor (and may be kept whole: :mod:`tournament.standings.public_responses`)."""
    return settings.SESSION_COOKIE_NAME not in cookies and CookieStorage.cookie_name not in cookies


def page_render(
    request: HttpRequest,
    template: str,
    context: Mapping[str, Any],
    *,
    tournament_id: int,
    version: int | str,
    key: str,
    holes: Mapping[str, Any],
) -> HttpResponse:
    """``template`` rendered with ``context`` and ``holes`` (the values that differ per request,
    escaped as the template would escape them: pass HTML as a ``SafeString``).

    ``key`` names the page among the tournament's (the same key, the same template, title and
    context at one version); ``version`` is the tournament's version the context was built at (or a token naming
    what it was built from: :func:`tournament.standings.cache.public_cached`).
    """
    if not plain_visitor(request.COOKIES):
        return render(request, template, {**context, **holes})
    shell = shell_get(template, context, tournament_id=tournament_id, version=version, key=key, holes=holes)
    return HttpResponse(shell_fill(shell, request, holes))


def shell_get(
    template: str, context: Mapping[str, Any], *, tournament_id: int, version: int | str, key: str, holes: Iterable[str]
) -> str:
    """The layout of a page for a plain visitor (:func:`plain_visitor`) in the active language, with a
    marker in each of ``holes`` and in the language switch's return address (arguments as for
    :func:`page_render`)."""
    language = get_language() or ""

    def build() -> str:
        markers = {name: _marker(name) for name in ("next_path", *holes)}
        return render_to_string(template, {**context, **markers})

    return public_cached(tournament_id=tournament_id, key=f"shell:{language}:{key}", build=build, version=version)


def shell_fill(shell: str, request: HttpRequest, holes: Mapping[str, Any]) -> str:
    """``shell`` (:func:`shell_get`) with its holes filled for ``request``: the page's own address
    where the language switch returns to, as the template's ``urlencode`` filter would give it, and
    ``holes`` escaped as the template would escape them."""
    fills = {"next_path": quote(request.get_full_path(), safe="/"), **holes}
    return _HOLE.sub(lambda hole: str(conditional_escape(fills.get(hole.group(1), ""))), shell)
