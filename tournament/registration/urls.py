from django.urls import path

from tournament.registration import announcement_views, team_views, views

app_name = "registration"

urlpatterns = [
    path("t/new/", views.tournament_create, name="tournament_create"),
    path("t/<int:tournament_id>/manage/pairs/", views.pair_list, name="pairs"),
    path("t/<int:tournament_id>/manage/pairs/<int:pair_id>/edit/", views.pair_edit, name="pair_edit"),
    path(
        "t/<int:tournament_id>/manage/pairs/<int:pair_id>/withdraw/",
        views.pair_withdraw,
        name="pair_withdraw",
    ),
    path("t/<int:tournament_id>/manage/departments/", views.department_list, name="departments"),
    path("t/<int:tournament_id>/manage/teams/", team_views.team_list, name="teams"),
    path(
        "t/<int:tournament_id>/manage/teams/departments/",
        team_views.teams_from_departments,
        name="teams_from_departments",
    ),
    path("t/<int:tournament_id>/manage/teams/<int:team_id>/add/", team_views.team_member_add, name="team_member_add"),
    path("t/<int:tournament_id>/manage/teams/<int:team_id>/seed/", team_views.team_seed_set, name="team_seed_set"),
    path(
        "t/<int:tournament_id>/manage/teams/<int:team_id>/remove/<int:pair_id>/",
        team_views.team_member_remove,
        name="team_member_remove",
    ),
    path("t/<int:tournament_id>/manage/teams/<int:team_id>/delete/", team_views.team_delete, name="team_delete"),
    path("t/<int:tournament_id>/manage/check-in/", views.check_in, name="checkin"),
    path("t/<int:tournament_id>/manage/check-in/<int:pair_id>/", views.check_in_toggle, name="checkin_toggle"),
    path("t/<int:tournament_id>/manage/import/", views.roster_upload, name="roster_import"),
    path(
        "t/<int:tournament_id>/manage/announcements/",
        announcement_views.announcement_list,
        name="announcements",
    ),
    path(
        "t/<int:tournament_id>/manage/announcements/<int:announcement_id>/",
        announcement_views.announcement_change,
        name="announcement_edit",
    ),
    path(
        "t/<int:tournament_id>/manage/announcements/<int:announcement_id>/withdraw/",
        announcement_views.announcement_remove,
        name="announcement_withdraw",
    ),
    path("t/<int:tournament_id>/announcements.atom", announcement_views.announcement_feed, name="announcement_feed"),
    path("roster-template.xlsx", views.roster_template_download, name="roster_template"),
]
