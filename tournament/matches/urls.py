from django.urls import path

from tournament.matches import (
    board_views,
    card_views,
    claim_views,
    clock_views,
    correction_views,
    deadline_views,
    event_views,
    player_views,
    referee_views,
    views,
)

app_name = "matches"

urlpatterns = [
    path("t/<int:tournament_id>/manage/event/", event_views.event_settings, name="event"),
    path("t/<int:tournament_id>/manage/event/status/", event_views.event_status, name="event_status"),
    path("t/<int:tournament_id>/manage/event/delete/", event_views.event_delete, name="event_delete"),
    path("referee/cards/", card_views.card_dispute, name="card_dispute"),
    path("referee/", views.referee_home, name="referee_home"),
    path("referee/matches/<int:match_id>/", views.match_detail, name="match"),
    path("referee/matches/<int:match_id>/deals/", views.deal_create, name="deal_create"),
    path("referee/matches/<int:match_id>/undo/", views.deal_undo, name="deal_undo"),
    path("referee/matches/<int:match_id>/deals/<int:number>/edit/", views.deal_edit, name="deal_edit"),
    path("referee/matches/<int:match_id>/deals/<int:number>/delete/", views.deal_delete, name="deal_delete"),
    path("referee/matches/<int:match_id>/start/", views.match_start, name="match_start"),
    path("referee/matches/<int:match_id>/sign-off/", views.match_sign_off, name="sign_off"),
    path("referee/matches/<int:match_id>/unlock/", views.match_unlock, name="unlock"),
    path("referee/matches/<int:match_id>/clear/", correction_views.match_clear, name="clear"),
    path("referee/matches/<int:match_id>/adjustments/", views.adjustments, name="adjustments"),
    path(
        "referee/matches/<int:match_id>/adjustments/<int:adjustment_id>/delete/",
        views.adjustment_delete,
        name="adjustment_delete",
    ),
    path("referee/matches/<int:match_id>/audit/", views.match_audit, name="audit"),
    path("t/<int:tournament_id>/manage/rounds/<int:round_id>/clock/", views.round_clock, name="round_clock"),
    path("t/<int:tournament_id>/manage/rounds/<int:round_id>/clock/start/", views.round_start, name="round_start"),
    path(
        "t/<int:tournament_id>/manage/rounds/<int:round_id>/no-shows/",
        views.round_no_shows,
        name="round_no_shows",
    ),
    path(
        "t/<int:tournament_id>/manage/rounds/<int:round_id>/clock/set/", views.round_clock_set, name="round_clock_set"
    ),
    path(
        "t/<int:tournament_id>/manage/rounds/<int:round_id>/clock/change/",
        clock_views.round_clock_change,
        name="round_clock_change",
    ),
    path(
        "t/<int:tournament_id>/manage/rounds/<int:round_id>/clock/tables/<int:match_id>/change/",
        clock_views.table_clock_change,
        name="table_clock_change",
    ),
    path(
        "t/<int:tournament_id>/manage/rounds/<int:round_id>/board/", board_views.progress_board, name="progress_board"
    ),
]

urlpatterns += [
    path("referee/sign-in/<str:token>/", referee_views.referee_sign_in, name="referee_sign_in"),
    path("t/<int:tournament_id>/manage/referees/", referee_views.referee_list, name="referees"),
    path("t/<int:tournament_id>/manage/referees/<int:referee_id>/", referee_views.referee_detail, name="referee"),
    path("t/<int:tournament_id>/manage/referees/links/", referee_views.referee_links, name="referee_links"),
    path(
        "t/<int:tournament_id>/manage/referees/links/reset/",
        referee_views.referee_links_reset_all,
        name="referee_links_reset_all",
    ),
    path(
        "t/<int:tournament_id>/manage/referees/<int:referee_id>/link/",
        referee_views.referee_link_reset,
        name="referee_link_reset",
    ),
    path(
        "t/<int:tournament_id>/manage/referees/<int:referee_id>/active/",
        referee_views.referee_active,
        name="referee_active",
    ),
    path(
        "t/<int:tournament_id>/manage/referees/<int:referee_id>/chief/",
        referee_views.referee_chief,
        name="referee_chief",
    ),
]

urlpatterns += [
    path(
        "t/<int:tournament_id>/manage/rounds/<int:round_id>/deadline/",
        deadline_views.round_deadline,
        name="round_deadline",
    ),
    path("table/", player_views.table_find, name="table_find"),
    path("table/<str:token>/", player_views.table, name="table"),
    path("table/<str:token>/me/", player_views.table_identify, name="table_identify"),
    path("table/<str:token>/leave/", player_views.table_leave, name="table_leave"),
    path("table/<str:token>/deals/", player_views.table_deal, name="table_deal"),
    path("table/<str:token>/claims/<int:claim_id>/confirm/", player_views.table_confirm, name="table_confirm"),
    path("table/<str:token>/claims/<int:claim_id>/dispute/", player_views.table_dispute, name="table_dispute"),
    path("table/<str:token>/claims/<int:claim_id>/withdraw/", player_views.table_withdraw, name="table_withdraw"),
    path("table/<str:token>/manifest.webmanifest", player_views.table_manifest, name="table_manifest"),
    path("entry-sw.js", claim_views.service_worker, name="entry_sw"),
    path("referee/manifest.webmanifest", claim_views.referee_manifest, name="referee_manifest"),
    path(
        "referee/matches/<int:match_id>/claims/<int:claim_id>/confirm/", claim_views.claim_confirm, name="claim_confirm"
    ),
    path("referee/matches/<int:match_id>/claims/<int:claim_id>/settle/", claim_views.claim_settle, name="claim_settle"),
    path("referee/matches/<int:match_id>/table-codes/lift/", claim_views.table_codes_lift, name="table_codes_lift"),
    path(
        "t/<int:tournament_id>/manage/rounds/<int:round_id>/table-cards/", claim_views.table_cards, name="table_cards"
    ),
    path(
        "t/<int:tournament_id>/manage/rounds/<int:round_id>/table-cards/revoke/",
        claim_views.table_links_revoke,
        name="table_links_revoke",
    ),
]
