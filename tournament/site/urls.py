from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament.locale import language_choose
from tournament.site import views as site_views

# Under /api/ an unknown address answers in the API's error shape (JSON), not the HTML page.
handler404 = "tournament.api.errors.not_found"

urlpatterns = [
    path("", site_views.home, name="home"),
    # The API before the pages: every referee's deal comes this way, and Django tries the patterns in
    # order (a deal was tried against every page's first); a page's request pays one failed "api/".
    # No page's address begins with "api/" (tests/tournament/api/test_api_first.py).
    path("api/", include("tournament.api.urls")),
    # The public pages next: nearly all requests are theirs (no path here overlaps another app's).
    path("", include("tournament.standings.urls")),
    path("", include("tournament.registration.urls")),
    path("", include("tournament.matches.urls")),
    path("", include("tournament.draw.urls")),
    path("", include("tournament.exports.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("language/<str:language>/", language_choose, name="language_choose"),
    path("admin/", admin.site.urls),
]
