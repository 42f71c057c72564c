from django.urls import path

from tournament.draw import views

app_name = "draw"

urlpatterns = [
    path("t/<int:tournament_id>/manage/stages/", views.stage_list, name="stages"),
    path("t/<int:tournament_id>/manage/stages/<int:stage_id>/", views.stage_detail, name="stage"),
    path("t/<int:tournament_id>/manage/stages/<int:stage_id>/draw/", views.round_generate, name="round_generate"),
    path("t/<int:tournament_id>/manage/stages/<int:stage_id>/delete/", views.stage_delete, name="stage_delete"),
    path("t/<int:tournament_id>/manage/stages/<int:stage_id>/teams/", views.stage_teams, name="stage_teams"),
    path("t/<int:tournament_id>/manage/stages/<int:stage_id>/advance/", views.stage_advance, name="stage_advance"),
    path(
        "t/<int:tournament_id>/manage/stages/<int:stage_id>/advancement/",
        views.stage_advancement_flag,
        name="stage_advancement_flag",
    ),
    path("t/<int:tournament_id>/manage/rounds/<int:round_id>/", views.round_detail, name="round"),
    path("t/<int:tournament_id>/manage/rounds/<int:round_id>/correction/", views.round_flag, name="round_flag"),
    path("t/<int:tournament_id>/manage/rounds/<int:round_id>/swap/", views.round_swap, name="round_swap"),
    path("t/<int:tournament_id>/manage/rounds/<int:round_id>/move/", views.round_move, name="round_move"),
    path("t/<int:tournament_id>/manage/rounds/<int:round_id>/publish/", views.round_publish, name="round_publish"),
    path(
        "t/<int:tournament_id>/manage/rounds/<int:round_id>/unpublish/", views.round_unpublish, name="round_unpublish"
    ),
    path("t/<int:tournament_id>/manage/rounds/<int:round_id>/delete/", views.round_delete, name="round_delete"),
    path("t/<int:tournament_id>/manage/rounds/<int:round_id>/referees/", views.round_referees, name="referees"),
    path("t/<int:tournament_id>/manage/rounds/<int:round_id>/sheet/", views.round_sheet, name="sheet"),
    path(
        "t/<int:tournament_id>/manage/rounds/<int:round_id>/team-matches/",
        views.round_team_matches,
        name="round_team_matches",
    ),
    path("t/<int:tournament_id>/manage/tables/", views.table_areas, name="tables"),
]
