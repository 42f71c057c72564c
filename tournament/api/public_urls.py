"""The public, read-only API under ``/api/public/`` (no login; see ``public_views``)."""

from django.urls import path

from tournament.api import public_views as views

app_name = "public"

T = "tournaments/<int:tournament_id>"

urlpatterns = [
    path("tournaments/", views.TournamentList.as_view(), name="tournaments"),
    path(f"{T}/", views.TournamentDetail.as_view(), name="tournament"),
    path(f"{T}/rounds/", views.RoundList.as_view(), name="rounds"),
    path(f"{T}/rounds/<int:round_id>/draw/", views.DrawList.as_view(), name="draw"),
    path(f"{T}/find/", views.FindTable.as_view(), name="find"),
    path(f"{T}/stages/<int:stage_id>/standings/", views.StandingsList.as_view(), name="standings"),
    path(f"{T}/stages/<int:stage_id>/bracket/", views.BracketDetail.as_view(), name="bracket"),
    path(f"{T}/pairs/<int:pair_id>/", views.PairDetail.as_view(), name="pair"),
    path(f"{T}/pairs/<int:pair_id>/matches/", views.PairMatchList.as_view(), name="pair_matches"),
    path(f"{T}/matches/<int:match_id>/", views.MatchDetail.as_view(), name="match"),
]
