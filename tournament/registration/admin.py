"""The organiser's fallback: every model in the Django admin, with its history."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from tournament.registration.models import Department, Pair, PairMember, Player, Team, TeamMember, Tournament


@admin.register(Tournament)
class TournamentAdmin(SimpleHistoryAdmin):
    list_display = ["name", "game", "rule_profile", "status", "starts_on"]
    list_filter = ["game", "status"]
    search_fields = ["name"]
    filter_horizontal = ["organisers"]


@admin.register(Department)
class DepartmentAdmin(SimpleHistoryAdmin):
    list_display = ["name", "tournament"]
    list_filter = ["tournament"]
    search_fields = ["name"]


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ["name", "employee_number", "department", "tournament"]
    list_filter = ["tournament"]
    search_fields = ["name", "employee_number"]
    list_select_related = ["department", "tournament"]


class PairMemberInline(admin.TabularInline):
    model = PairMember
    extra = 0
    max_num = 2
    raw_id_fields = ["player"]


@admin.register(Pair)
class PairAdmin(SimpleHistoryAdmin):
    list_display = ["name", "seed", "status", "tournament"]
    list_filter = ["tournament", "status"]
    search_fields = ["name"]
    inlines = [PairMemberInline]


@admin.register(PairMember)
class PairMemberAdmin(SimpleHistoryAdmin):
    list_display = ["pair", "slot", "player"]
    raw_id_fields = ["pair", "player"]


class TeamMemberInline(admin.TabularInline):
    model = TeamMember
    extra = 0
    raw_id_fields = ["pair"]


@admin.register(Team)
class TeamAdmin(SimpleHistoryAdmin):
    list_display = ["number", "name", "department", "tournament"]
    list_filter = ["tournament"]
    search_fields = ["name"]
    inlines = [TeamMemberInline]


@admin.register(TeamMember)
class TeamMemberAdmin(SimpleHistoryAdmin):
    list_display = ["team", "position", "pair", "substitute"]
    raw_id_fields = ["team", "pair"]
