"""The site's home page: the events by status (the registration app's) and the series their results count
in (the exports app's), the one page that shows both."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.exports.series import series_listed
from tournament.registration.views import home_groups


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "registration/home.html", {"groups": home_groups(request), "series": series_listed()})
