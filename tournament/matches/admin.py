from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from tournament.matches.models import (
    Adjustment,
    ChiefReferee,
    Deal,
    Match,
    Referee,
    RefereeAssignment,
    RefereeSignInLink,
    Round,
    RoundEntry,
    Stage,
    Table,
)


@admin.register(Stage)
class StageAdmin(SimpleHistoryAdmin):
    list_display = ["name", "tournament", "order", "format", "advance_count"]
    list_filter = ["tournament", "format"]


@admin.register(Round)
class RoundAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "status", "time_cap_minutes", "started_at", "ends_at", "time_called_at", "draw_seed"]
    list_filter = ["status", "stage__tournament"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["number", "area", "tournament"]
    list_filter = ["tournament", "area"]


class DealInline(admin.TabularInline):
    model = Deal
    extra = 0
    fields = ["number", "game_number", "outcome", "flagged", "entered_by", "entered_at", "version"]
    readonly_fields = ["entered_at"]


@admin.register(Match)
class MatchAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "round", "table", "status", "winner", "result_reason", "version"]
    list_filter = ["status", "round__stage__tournament"]
    raw_id_fields = ["ns_pair", "ew_pair", "table", "round"]
    inlines = [DealInline]


@admin.register(RoundEntry)
class RoundEntryAdmin(admin.ModelAdmin):
    list_display = ["round", "pair", "match", "side"]
    raw_id_fields = ["round", "pair", "match"]


@admin.register(Deal)
class DealAdmin(SimpleHistoryAdmin):
    list_display = ["match", "number", "game_number", "outcome", "flagged", "entered_by", "entered_at"]
    raw_id_fields = ["match"]


@admin.register(Adjustment)
class AdjustmentAdmin(SimpleHistoryAdmin):
    list_display = ["kind", "pair", "match", "after_deal", "levels", "points", "flagged", "reason", "created_by"]
    list_filter = ["kind", "tournament"]
    raw_id_fields = ["pair", "match"]


@admin.register(RefereeAssignment)
class RefereeAssignmentAdmin(SimpleHistoryAdmin):
    list_display = ["round", "table", "referee"]
    raw_id_fields = ["round", "table"]


@admin.register(ChiefReferee)
class ChiefRefereeAdmin(SimpleHistoryAdmin):
    list_display = ["tournament", "user"]
    list_filter = ["tournament"]
    raw_id_fields = ["user"]


@admin.register(Referee)
class RefereeAdmin(SimpleHistoryAdmin):
    """Made by organisers on their pages; here for a developer to look."""

    list_display = ["name", "tournament", "phone", "employee_number", "active"]
    list_filter = ["tournament", "active"]
    raw_id_fields = ["user"]


@admin.register(RefereeSignInLink)
class RefereeSignInLinkAdmin(SimpleHistoryAdmin):
    """Only the token's hash is stored: a link cannot be read back here, only seen used or not."""

    list_display = ["referee", "created_at", "expires_at", "used_at", "revoked_at"]
    readonly_fields = ["referee", "token_hash", "created_at", "expires_at", "used_at", "revoked_at"]
