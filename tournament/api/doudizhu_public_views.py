"""The public API of a Dou Dizhu event (docs/rules.md §10): three-seat tables, players' standings with the cut,
a player's rounds and deals, a table with its deals, and find my seat. Read-only, anonymous, throttled
like the rest of the public API; the answers are the public pages' cached values
(``tournament.standings.doudizhu_public``). The two-side endpoints (draw, standings, pair, match, find)
answer 404 for a Dou Dizhu event and these answer 404 for the other games.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.api.public_serializers import FindQuery
from tournament.api.public_views import TAG, PublicView
from tournament.standings import doudizhu_public as ddz
from tournament.standings.cache import public_cached


class ThreeSeatOut(serializers.Serializer[object]):
    seat = serializers.CharField()
    pair_id = serializers.IntegerField(help_text="The player (an individual event's entrant).")
    name = serializers.CharField()
    points = serializers.IntegerField()


class ThreeSeatTableOut(serializers.Serializer[object]):
    match_id = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    area = serializers.CharField()
    status = serializers.CharField()
    seats = ThreeSeatOut(many=True)
    deals = serializers.IntegerField(help_text="Deals played so far.")


class ThreeSeatByeOut(serializers.Serializer[object]):
    pair_id = serializers.IntegerField()
    name = serializers.CharField()


class ThreeSeatRoundOut(serializers.Serializer[object]):
    tables = ThreeSeatTableOut(many=True)
    byes = ThreeSeatByeOut(many=True)


class PlayerStandingLineOut(serializers.Serializer[object]):
    rank = serializers.IntegerField()
    shared = serializers.BooleanField()
    pair_id = serializers.IntegerField()
    name = serializers.CharField()
    rounds = serializers.IntegerField()
    points = serializers.IntegerField()
    deals_won = serializers.IntegerField()
    landlord_wins = serializers.IntegerField()
    best_round = serializers.IntegerField(allow_null=True)
    byes = serializers.IntegerField()
    eliminated_after = serializers.IntegerField(allow_null=True, help_text="The round after whose cut they left.")
    stage_rank = serializers.IntegerField(allow_null=True, help_text="The final: the rank in the stage before.")
    lots = serializers.IntegerField(allow_null=True, help_text="The lot that decided a full tie, if one did.")
    withdrawn = serializers.BooleanField()
    provisional = serializers.BooleanField(
        help_text="The points count a table awaiting sign-off (待确认): they may still change, as the standings show."
    )


class PlayerStandingsOut(serializers.Serializer[object]):
    stage_id = serializers.IntegerField()
    stage_name = serializers.CharField()
    final = serializers.BooleanField()
    cuts = serializers.JSONField()
    pending_cut = serializers.CharField()
    lines = PlayerStandingLineOut(many=True)


class PlayerDealOut(serializers.Serializer[object]):
    number = serializers.IntegerField()
    landlord = serializers.CharField()
    was_landlord = serializers.BooleanField()
    won = serializers.BooleanField()
    text = serializers.CharField()
    points = serializers.IntegerField()


class PlayerRoundOut(serializers.Serializer[object]):
    stage_name = serializers.CharField()
    round_number = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.CharField(help_text="E / S / W; empty for a bye.")
    match_id = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField()
    deals = PlayerDealOut(many=True)


class DoudizhuPlayerOut(serializers.Serializer[object]):
    pair_id = serializers.IntegerField()
    name = serializers.CharField()
    department = serializers.CharField()
    rounds = PlayerRoundOut(many=True)


class ThreeSeatDealOut(serializers.Serializer[object]):
    number = serializers.IntegerField()
    text = serializers.CharField()
    points = serializers.ListField(child=serializers.IntegerField(), help_text="E, S, W.")
    multiple = serializers.IntegerField(allow_null=True)


class ThreeSeatTablePageOut(serializers.Serializer[object]):
    match_id = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    round_name = serializers.CharField()
    status = serializers.CharField()
    seats = ThreeSeatOut(many=True)
    deals = ThreeSeatDealOut(many=True)
    forfeited = serializers.ListField(child=serializers.CharField())


class SeatFoundOut(serializers.Serializer[object]):
    pair_id = serializers.IntegerField()
    name = serializers.CharField()
    round_name = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    area = serializers.CharField()
    seat = serializers.CharField()
    bye = serializers.BooleanField()


class DoudizhuView(PublicView):
    pagination_class = None
    entrants = "players"

    def cached(self, key: str, build: Any) -> Any:
        value = public_cached(tournament_id=self.kwargs["tournament_id"], key=f"api:ddz:{key}", build=build)
        if value is None:
            raise NotFound()
        return value


class RoundTables(DoudizhuView):
    """A published round's tables of three (seats E/S/W with each player's points) and its byes."""

    serializer_class = ThreeSeatRoundOut

    @extend_schema(tags=[TAG])
    def get(self, request: Request, tournament_id: int, round_id: int) -> Response:
        if self.kind_frame().round(round_id) is None:
            raise NotFound()
        tables = self.cached(f"tables:{round_id}", lambda: ddz.round_tables_get(round_id=round_id))
        byes = [{"pair_id": pair_id, "name": name} for pair_id, name in tables.byes]
        return Response(ThreeSeatRoundOut({"tables": tables.tables, "byes": byes}).data)


class PlayerStandings(DoudizhuView):
    """A points stage's standings: points, deals won, as landlord, best round, byes, who was cut."""

    serializer_class = PlayerStandingsOut

    @extend_schema(tags=[TAG])
    def get(self, request: Request, tournament_id: int, stage_id: int) -> Response:
        if self.kind_frame().stage(stage_id) is None:
            raise NotFound()
        table = self.cached(f"standings:{stage_id}", lambda: ddz.standings_table_get(stage_id=stage_id))
        return Response(PlayerStandingsOut(table).data)


class PlayerDetail(DoudizhuView):
    """A player: every round (table, seat, points) with every deal."""

    serializer_class = DoudizhuPlayerOut

    @extend_schema(tags=[TAG])
    def get(self, request: Request, tournament_id: int, pair_id: int) -> Response:
        self.kind_frame()
        view = self.cached(
            f"player:{pair_id}", lambda: ddz.player_page_get(tournament_id=tournament_id, pair_id=pair_id)
        )
        return Response(DoudizhuPlayerOut(view).data)


class TableDetail(DoudizhuView):
    """A table of three with its deals (points per seat)."""

    serializer_class = ThreeSeatTablePageOut

    @extend_schema(tags=[TAG])
    def get(self, request: Request, tournament_id: int, match_id: int) -> Response:
        self.kind_frame()
        view = self.cached(
            f"table:{match_id}", lambda: ddz.table_page_get(tournament_id=tournament_id, match_id=match_id)
        )
        return Response(ThreeSeatTablePageOut(view).data)


class FindSeat(DoudizhuView):
    """Find my seat: the table and seat letter in the current round of players matching ``q``."""

    serializer_class = SeatFoundOut
    query_params_allowed = frozenset({"q"})

    @extend_schema(tags=[TAG], parameters=[FindQuery], responses=SeatFoundOut(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        frame = self.kind_frame()
        query = FindQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        rounds = [round_.id for round_ in frame.current_rounds]
        found = ddz.seat_find(tournament_id=tournament_id, round_ids=rounds, query=query.data["q"])
        return Response(SeatFoundOut(found, many=True).data)
