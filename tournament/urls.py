from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament.matches import card_views
from tournament.registration import views as registration_views

urlpatterns = [
    path("", registration_views.home, name="home"),
    path("", include("tournament.registration.urls")),
    path("referee/cards/", card_views.card_dispute, name="card_dispute"),
    path("api/", include("tournament.api.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
