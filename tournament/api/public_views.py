"""The public API: read-only, anonymous, paginated, throttled — what the public pages show.

Thin views over the cached read models of ``tournament.standings.public`` (invalidated by events,
never by time). No authentication is read and no session is touched: every caller is anonymous,
throttled per address by :class:`PublicRateThrottle` (``PUBLIC_API_THROTTLE_RATE``, generous:
a venue's phones may share one address). Unknown or unpublished things are 404 in the API's
error shape.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions
from rest_framework.exceptions import NotFound
from rest_framework.pagination import BasePagination
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.api import public_serializers as out
from tournament.api.schema import StrictPagination, StrictQueryParams
from tournament.games import game_kind
from tournament.registration.models import Tournament, TournamentStatus
from tournament.standings.public_cache import (
    bracket_cached,
    draw_cached,
    frame_cached,
    match_cached,
    overview_cached,
    pair_cached,
    standings_cached,
)
from tournament.standings.public_types import TournamentOverview
from tournament.standings.seating import table_find
from tournament.standings.team_public import team_standings_cached
from tournament.standings.team_ranking import TeamMatchTable
from tournament.standings.teams import StageTeamTotal
from tournament.throttling import AtomicRateThrottle

TAG = "public"


class PublicRateThrottle(AtomicRateThrottle):
    """Per client address, counted atomically in the shared cache; the rate is a setting
    (``PUBLIC_API_THROTTLE_RATE``)."""

    scope = "public"

    def get_rate(self) -> str:
        return str(getattr(settings, "PUBLIC_API_THROTTLE_RATE", "1200/minute"))


class PublicPagination(StrictPagination):
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500


class PublicView(StrictQueryParams, generics.GenericAPIView[Any]):  # cached values, not one model's rows
    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]
    throttle_classes = [PublicRateThrottle]
    pagination_class: type[BasePagination] | None = PublicPagination
    filter_backends: list[Any] = []

    def overview(self) -> TournamentOverview:
        """The tournament with its current round's progress (moves with every table started or finished)."""
        overview = overview_cached(tournament_id=self.kwargs["tournament_id"])
        if overview is None:
            raise NotFound()
        return overview

    def frame(self) -> TournamentOverview:
        """The tournament's stages and rounds without the progress: what every other endpoint
        needs, cached under the seating version, so results flowing in leave it as it is."""
        frame = frame_cached(tournament_id=self.kwargs["tournament_id"])
        if frame is None:
            raise NotFound()
        return frame

    entrants = "pairs"
    """The entrant kind (``tournament.games.entrants``) whose events the endpoint's :meth:`kind_frame`
    serves: a Dou Dizhu event's tables, standings and players are its own endpoints
    (``doudizhu_public_views``), so those of two sides answer 404 for it, and the other way round."""

    def kind_frame(self) -> TournamentOverview:
        """The frame of an event of the endpoint's entrant kind; another kind's event answers 404."""
        frame = self.frame()
        if game_kind(frame.game).entrants.key != self.entrants:
            raise NotFound()
        return frame


class PublicListView(PublicView, generics.ListAPIView[Any]):
    """A paginated list of cached values (``items``)."""

    def items(self) -> Any:
        raise NotImplementedError

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):  # the schema generator asks without a request
            return ()
        return self.items()

    @extend_schema(tags=[TAG])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.list(request, *args, **kwargs)


class TournamentList(PublicListView):
    """Every tournament but the drafts (the organisers', not public), newest first."""

    serializer_class = out.TournamentListOut

    def items(self) -> Any:
        public = Tournament.objects.exclude(status=TournamentStatus.DRAFT)
        return public.order_by("-created_at", "-id").only("id", "name", "game", "status", "venue", "starts_on")


class TournamentDetail(PublicView):
    """A tournament with its stages and the round being played (its time cap and progress)."""

    serializer_class = out.TournamentOut
    pagination_class = None

    @extend_schema(tags=[TAG])
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(self.get_serializer(self.overview()).data)


class RoundList(PublicListView):
    """The tournament's published rounds, stage by stage."""

    serializer_class = out.RoundOut

    def items(self) -> Any:
        return self.frame().rounds


class DrawList(PublicListView):
    """A published round's draw: table, referees' area, N/S and E/W pairs, live result."""

    serializer_class = out.DrawRowOut

    def items(self) -> Any:
        round_id = self.kwargs["round_id"]
        if self.kind_frame().round(round_id) is None:
            raise NotFound()
        return draw_cached(tournament_id=self.kwargs["tournament_id"], round_id=round_id)


class FindTable(PublicListView):
    """Find my table: the seats in the current round of players matching ``q`` (part of a name,
    or a whole employee number)."""

    serializer_class = out.SeatOut
    query_params_allowed = frozenset({"q"})

    def items(self) -> Any:
        query = out.FindQuery(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        rounds = self.kind_frame().current_rounds
        return table_find(tournament_id=self.kwargs["tournament_id"], rounds=rounds, query=query.data["q"])

    @extend_schema(tags=[TAG], parameters=[out.FindQuery])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.list(request, *args, **kwargs)


class StandingsList(PublicListView):
    """A ranked stage's standings: rank, movement since the round before, and every tie-break
    value in the order the stage's rules apply them (titles from the rules core)."""

    serializer_class = out.StandingOut

    def table(self) -> Any:
        if not hasattr(self, "_table"):
            stage = self.kind_frame().stage(self.kwargs["stage_id"])
            if stage is None or stage.is_knockout:
                raise NotFound()
            self._table = standings_cached(tournament_id=self.kwargs["tournament_id"], stage_id=stage.id)
            if self._table is None:
                raise NotFound()
        return self._table

    def items(self) -> Any:
        return self.table().lines

    def get_serializer_context(self) -> dict[str, Any]:
        context = dict(super().get_serializer_context())
        if not getattr(self, "swagger_fake_view", False) and "stage_id" in self.kwargs:
            context["columns"] = self.table().columns
        return context


class TeamStandingsList(PublicListView):
    """A stage's team standings (集体比赛, docs/rules.md §11): each team's counted members' match points
    (Dou Dizhu: points) summed, ranked by small points (deals won), the best member's place, lots —
    the same answer as the team standings page. 404 when the stage does not rank teams."""

    serializer_class = out.TeamStandingOut

    def items(self) -> Any:
        frame = self.frame()
        stage = frame.stage(self.kwargs["stage_id"])
        if stage is None or not stage.team_total:
            raise NotFound()
        total = team_standings_cached(overview=frame, stage_id=stage.id)
        if not isinstance(total, StageTeamTotal):
            raise NotFound()
        return total.lines


class TeamMatchStandingsList(PublicListView):
    """A team match stage's team standings (团体对抗, docs/rules.md §11): each team's team match points,
    tables won, small points, head-to-head, Buchholz and lots, ranked by the rules core — the same
    answer as the team standings page. 404 when the stage is not played between teams."""

    serializer_class = out.TeamMatchStandingOut

    def items(self) -> Any:
        frame = self.frame()
        stage = frame.stage(self.kwargs["stage_id"])
        if stage is None or not stage.team_match:
            raise NotFound()
        table = team_standings_cached(overview=frame, stage_id=stage.id)
        if not isinstance(table, TeamMatchTable):
            raise NotFound()
        return table.lines


class BracketDetail(PublicView):
    """A knockout stage's bracket: rounds (drawn or to come), byes, winners, live levels, third place."""

    serializer_class = out.BracketOut
    pagination_class = None

    @extend_schema(tags=[TAG])
    def get(self, request: Request, tournament_id: int, stage_id: int) -> Response:
        stage = self.frame().stage(stage_id)
        if stage is None or not stage.is_knockout:
            raise NotFound()
        bracket = bracket_cached(tournament_id=tournament_id, stage_id=stage_id)
        if bracket is None:
            raise NotFound()
        return Response(self.get_serializer(bracket).data)


class MatchDetail(PublicView):
    """A match of a published round with its deal-by-deal history (the rules core's records)."""

    serializer_class = out.MatchOut
    pagination_class = None

    @extend_schema(tags=[TAG])
    def get(self, request: Request, tournament_id: int, match_id: int) -> Response:
        self.kind_frame()
        match = match_cached(tournament_id=tournament_id, match_id=match_id)
        if match is None:
            raise NotFound()
        return Response(self.get_serializer(match).data)


class PairDetail(PublicView):
    """A pair: its players (names and departments only) and its rank in each ranked stage."""

    serializer_class = out.PairOut
    pagination_class = None

    @extend_schema(tags=[TAG])
    def get(self, request: Request, tournament_id: int, pair_id: int) -> Response:
        self.kind_frame()
        pair = pair_cached(tournament_id=tournament_id, pair_id=pair_id)
        if pair is None:
            raise NotFound()
        return Response(self.get_serializer(pair).data)


class PairMatchList(PublicListView):
    """A pair's match history: every match of a published round, each with its deals."""

    serializer_class = out.MatchOut

    def items(self) -> Any:
        self.kind_frame()
        pair = pair_cached(tournament_id=self.kwargs["tournament_id"], pair_id=self.kwargs["pair_id"])
        if pair is None:
            raise NotFound()
        return pair.matches
