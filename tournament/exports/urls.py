from django.urls import path

from tournament.exports import placings_views, series_views, views

app_name = "exports"

urlpatterns = [
    # the public final placings with their prize tiers (the award list is this app's)
    path("t/<int:tournament_id>/placings/", placings_views.placings, name="placings"),
    path("t/<int:tournament_id>/placings/<int:stage_id>/", placings_views.placings, name="stage_placings"),
    path("t/<int:tournament_id>/manage/exports/", views.export_home, name="home"),
    path("t/<int:tournament_id>/manage/exports/<int:job_id>/", views.export_job_detail, name="job"),
    path("t/<int:tournament_id>/manage/exports/<int:job_id>/download/", views.export_job_download, name="download"),
    path(
        "t/<int:tournament_id>/manage/exports/rounds/<int:round_id>/draw-sheet/",
        views.round_draw_sheet,
        name="round_draw",
    ),
    path(
        "t/<int:tournament_id>/manage/exports/rounds/<int:round_id>/score-sheets/",
        views.score_sheets,
        name="score_sheets",
    ),
    path(
        "t/<int:tournament_id>/manage/exports/rounds/<int:round_id>/<str:kind>/start/",
        views.round_export_start,
        name="round_export_start",
    ),
    path("t/<int:tournament_id>/manage/prizes/", views.prizes, name="prizes"),
    path("series/new/", series_views.series_new, name="series_new"),
    path("series/<int:series_id>/", series_views.series_page, name="series"),
    path("series/<int:series_id>/series.xlsx", series_views.series_download, name="series_download"),
    path("series/<int:series_id>/manage/", series_views.series_manage, name="series_manage"),
]
