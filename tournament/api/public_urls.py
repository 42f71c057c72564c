"""The public, read-only API under ``/api/public/`` (no login; see ``public_views``)."""

from django.urls import path

from tournament.api import doudizhu_public_views as ddz
from tournament.api import public_views as views

app_name = "public"

T = "tournaments/<int:tournament_id>"

urlpatterns = [
    # Dou Dizhu (docs/rules.md §10): tables of three, players
    path(f"{T}/rounds/<int:round_id>/tables/", ddz.RoundTables.as_view(), name="round_tables"),
    path(f"{T}/stages/<int:stage_id>/players/", ddz.PlayerStandings.as_view(), name="player_standings"),
    path(f"{T}/players/<int:pair_id>/", ddz.PlayerDetail.as_view(), name="player"),
    path(f"{T}/tables/<int:match_id>/", ddz.TableDetail.as_view(), name="table"),
    path(f"{T}/find-seat/", ddz.FindSeat.as_view(), name="find_seat"),
    path("tournaments/", views.TournamentList.as_view(), name="tournaments"),
    path(f"{T}/", views.TournamentDetail.as_view(), name="tournament"),
    path(f"{T}/rounds/", views.RoundList.as_view(), name="rounds"),
    path(f"{T}/rounds/<int:round_id>/draw/", views.DrawList.as_view(), name="draw"),
    path(f"{T}/find/", views.FindTable.as_view(), name="find"),
    path(f"{T}/stages/<int:stage_id>/standings/", views.StandingsList.as_view(), name="standings"),
    path(f"{T}/stages/<int:stage_id>/bracket/", views.BracketDetail.as_view(), name="bracket"),
    path(f"{T}/stages/<int:stage_id>/teams/", views.TeamStandingsList.as_view(), name="team_standings"),
    path(
        f"{T}/stages/<int:stage_id>/team-matches/",
        views.TeamMatchStandingsList.as_view(),
        name="team_match_standings",
    ),
    path(f"{T}/pairs/<int:pair_id>/", views.PairDetail.as_view(), name="pair"),
    path(f"{T}/pairs/<int:pair_id>/matches/", views.PairMatchList.as_view(), name="pair_matches"),
    path(f"{T}/matches/<int:match_id>/", views.MatchDetail.as_view(), name="match"),
]
