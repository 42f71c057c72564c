"""The request of a page that htmx may ask for a fragment: the middleware (in the settings) sets
``request.htmx`` on every request; :class:`HtmxHttpRequest` says so to the type checker."""

from __future__ import annotations

from urllib.parse import unquote

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails, HtmxMiddleware

__all__ = ["HtmxHttpRequest", "HtmxMetaMiddleware"]


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class _MetaDetails(HtmxDetails):
    """django-htmx's details, read from the request's ``META``: its ``request.headers`` is a mapping
    of every header built on first use, for the one or two a page asks (whether it is htmx's)."""

    def _get_header_value(self, name: str) -> str | None:
        meta = self.request.META
        key = "HTTP_" + name.upper().replace("-", "_")
        value = meta.get(key) or None
        if value and meta.get(key + "_URI_AUTOENCODED") == "true":
            value = unquote(value)
        return value


class HtmxMetaMiddleware(HtmxMiddleware):
    """django-htmx's middleware, whose ``request.htmx`` reads the headers from ``META`` (the same values)."""

    def __call__(self, request: HttpRequest):  # type: ignore[no-untyped-def]
        if self.async_mode:
            return self.__acall__(request)
        request.htmx = _MetaDetails(request)  # type: ignore[attr-defined]
        return self.get_response(request)

    async def __acall__(self, request: HttpRequest):  # type: ignore[no-untyped-def]
        request.htmx = _MetaDetails(request)  # type: ignore[attr-defined]
        return await self.get_response(request)  # type: ignore[misc]
