"""The request of a page that htmx may ask for a fragment: django-htmx's middleware (in the settings)
sets ``request.htmx`` on every request; this type says so to the type checker."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
