from django.urls import path

from tournament.standings import calendar_views, event_views, views

app_name = "standings"

urlpatterns = [
    path("t/<int:tournament_id>/", event_views.tournament_detail, name="tournament"),
    path("t/<int:tournament_id>/draw/", views.draw, name="draw"),
    path("t/<int:tournament_id>/draw/<int:round_id>/", views.draw, name="draw_round"),
    path("t/<int:tournament_id>/find/", views.find, name="find"),
    path("t/<int:tournament_id>/standings/", views.standings, name="standings"),
    path("t/<int:tournament_id>/standings/<int:stage_id>/", views.standings, name="stage_standings"),
    path("t/<int:tournament_id>/teams/", views.team_standings, name="team_standings"),
    path("t/<int:tournament_id>/teams/<int:stage_id>/", views.team_standings, name="stage_team_standings"),
    path("t/<int:tournament_id>/bracket/", views.bracket, name="bracket"),
    path("t/<int:tournament_id>/bracket/<int:stage_id>/", views.bracket, name="stage_bracket"),
    path("t/<int:tournament_id>/pairs/<int:pair_id>/", views.pair, name="pair"),
    path("t/<int:tournament_id>/pairs/<int:pair_id>/ranks/", views.pair_ranks, name="pair_ranks"),
    path("t/<int:tournament_id>/matches/<int:match_id>/", views.match, name="match"),
    path("t/<int:tournament_id>/team-matches/<int:team_match_id>/", views.team_match, name="team_match"),
    path("t/<int:tournament_id>/screen/", views.screen, name="screen"),
    path("t/<int:tournament_id>/calendar.ics", calendar_views.tournament_calendar, name="calendar"),
    path(
        "t/<int:tournament_id>/pairs/<int:pair_id>/calendar.ics",
        calendar_views.pair_calendar_view,
        name="pair_calendar",
    ),
]
