"""The referee API: my tables, a match, enter / preview / correct / delete / undo a deal, start,
sign off, unlock, clear a next match for a correction, adjustments, start a round.

Thin views (HackSoft style): an input serializer checks the shape, ``tournament.matches.access``
scopes the match by the caller (out of scope is 404, as on the pages), a service writes, an output
serializer answers. Referee devices authenticate with a token (``POST /api/auth/token/``).

Errors: ``{"error": {"code", "message", …}}``, mapped in one place (``tournament.errors``), so the
views raise and never catch. The rules core's codes come through as they are
(``invalid_order`` 400, ``match_finished`` 409); a stale ``expected_version`` is ``stale_version``
409 with the match's current state; a refused write (``match_locked``, ``not_finished``,
``flagged_deals`` …) is 409 with the current state, bad input 400.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import ForeignKey, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics, permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament import games
from tournament.api.deal_serializers import DEAL_BODIES
from tournament.api.match_serializers import (
    VERSION_MAX,
    AdjustmentInput,
    DealEntryOutput,
    DeletionInput,
    DependentsOutput,
    ErrorOutput,
    MatchDetailOutput,
    MatchOutput,
    UnlockInput,
    VersionInput,
    deal_json,
    match_detail_json,
)
from tournament.api.schema import StrictQueryParams
from tournament.audit import REASON_MAX
from tournament.bounds import INT_MAX
from tournament.errors import UserError
from tournament.matches import access, clearing, clock, corrections, selectors, services
from tournament.matches.errors import REFUSALS
from tournament.matches.fold import deal_entry_reads, match_game
from tournament.matches.models import Match
from tournament.parsing import int_parse

ERRORS = {
    400: OpenApiResponse(ErrorOutput, description="Bad input (e.g. invalid_order)."),
    404: OpenApiResponse(ErrorOutput, description="Not a match you may reach."),
    409: OpenApiResponse(ErrorOutput, description="stale_version, match_finished, match_locked …: with the state."),
}


def _detail(match_id: int) -> dict[str, Any]:
    match = Match.objects.select_related("round__stage__tournament", "table", "ns_pair", "ew_pair").get(pk=match_id)
    return dict(MatchDetailOutput(clock.match_as_of(match)).data)


def _detail_written(entry: services.DealEntry, *, read: Match) -> dict[str, Any]:
    """:func:`_detail` of the match as a deal's write just stored it (its row was locked, saved and
    committed: nothing newer to read), with the table and pairs of ``read`` — the same match as the
    view read it a moment before — where they are the same rows, and the deals and flags the write
    folded: a deal's answer reads nothing again (every table enters results)."""
    written = entry.match
    for name in ("table", "ns_pair", "ew_pair"):
        field = Match._meta.get_field(name)
        if not isinstance(field, ForeignKey):  # never: each is a foreign key
            continue
        if field.is_cached(read) and getattr(read, field.attname) == getattr(written, field.attname):
            field.set_cached_value(written, field.get_cached_value(read))
    if entry.deals is None or entry.flagged is None:  # a retry: its deals are read
        return dict(MatchDetailOutput(written).data)
    return match_detail_json(written, deals=entry.deals, flagged=entry.flagged)


GAME_BODY = (
    " The body is the one of the match's game (Guandan, Tractor or Dou Dizhu, by the match's rules); each "
    "has only its own fields, and another game's body is refused (400 bad_input)."
)


def _either(name: str, body: str) -> PolymorphicProxySerializer:
    """A body in the shape of the match's game (docs/rules.md §9): one of the games' serializers
    (:data:`~tournament.api.deal_serializers.DEAL_BODIES`, ``body`` is ``"deal"``, ``"preview"``,
    ``"correction"`` or ``"preview_output"``)."""
    return PolymorphicProxySerializer(
        component_name=name,
        serializers=[getattr(DEAL_BODIES[game], body) for game in games.GAMES],
        resource_type_field_name=None,
    )


def _deal_body(match: Match, request: Request, body: str) -> tuple[Any, dict[str, Any]]:
    """The validated body and the deal as the rules core reads it, by the match's game's serializer
    (a new deal in its plainest shape without it, where the game reads that: ``deal_plain``)."""
    bodies = DEAL_BODIES[match_game(match).game]
    if body == "deal" and bodies.deal_plain is not None:
        plain = bodies.deal_plain(request.data)
        if plain is not None:
            return plain
    serializer = getattr(bodies, body)(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data, serializer.outcome()


class MatchAccess(permissions.IsAuthenticated):
    message = "Log in (a session or a token)."


class MatchView(StrictQueryParams, APIView):
    """Base: the match in the caller's scope (404 otherwise), as it stands now (a due time call
    shown, not stored: the services store it when they write)."""

    permission_classes = [MatchAccess]

    def match(self, request: Request, match_id: int) -> Match:
        return clock.match_as_of(access.match_for_user(user=request.user, match_id=match_id))

    def error_extra(self, error: UserError) -> dict[str, Any]:
        """A refusal because of the match's state (409) comes with that state (the device redraws)."""
        match_id = self.kwargs.get("match_id")
        if error.status != status.HTTP_409_CONFLICT or match_id is None:
            return {}
        extra: dict[str, Any] = {"match": _detail(match_id)}
        if error.code == "successor_started":  # the way forward: clear those (POST /api/matches/<id>/clear/)
            match = Match.objects.select_related("round__stage").get(pk=match_id)
            extra["started_successors"] = [m.match_id for m in corrections.correction_started_successors(match=match)]
        return extra

    def answer(self, match_id: int, code: int = status.HTTP_200_OK) -> Response:
        return Response(_detail(match_id), status=code)


@extend_schema_view(
    get=extend_schema(
        summary="My tables this round",
        parameters=[
            OpenApiParameter(
                "round",
                {"type": "integer", "minimum": 1, "maximum": INT_MAX},
                description="A round's matches (organisers, chief referees)",
            )
        ],
    )
)
class MyTablesView(StrictQueryParams, generics.ListAPIView[Any]):  # its serializer takes a match, or many
    """My tables this round: the matches at the tables assigned to me in rounds being played.
    With ``?round=<id>`` an organiser or chief referee lists a round's matches instead."""

    permission_classes = [MatchAccess]
    serializer_class = MatchOutput
    filter_backends: list[Any] = []
    query_params_allowed = frozenset({"round"})

    def get_queryset(self) -> QuerySet[Match]:
        round_param = self.request.query_params.get("round")
        if round_param:
            round_id = int_parse(round_param, name="round")
            matches = access.matches_for_user(user=self.request.user).filter(round_id=round_id)
            return selectors.with_flag_counts(matches.order_by("table__number", "id"))
        return selectors.referee_tables(user=self.request.user)

    def paginate_queryset(self, queryset: Any) -> Any:
        page = super().paginate_queryset(queryset)
        return None if page is None else clock.matches_as_of(list(page))  # a due time call shown, not stored


class MatchDetailView(MatchView):
    @extend_schema(summary="A match: state, clock and deals", responses={200: MatchDetailOutput, **ERRORS})
    def get(self, request: Request, match_id: int) -> Response:
        return self.answer(self.match(request, match_id).pk)


class MatchStartView(MatchView):
    @extend_schema(
        summary="Start the match clock (no effect if already started)",
        request=None,
        responses={200: MatchDetailOutput, **ERRORS},
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = self.match(request, match_id)
        clock.match_start(match_id=match.pk, user=request.user)
        return self.answer(match.pk)


class DealListView(MatchView):
    @extend_schema(
        summary="Enter the next deal",
        description=(
            "docs/rules.md §1–3: the rules core records the deal. `expected_version` must be the match's version "
            "(else 409 with the current state); a retry with the same idempotency key returns the first answer."
            + GAME_BODY
        ),
        request=_either("DealBody", "deal"),
        responses={201: DealEntryOutput, **ERRORS},
    )
    def post(self, request: Request, match_id: int) -> Response:
        # The access check takes the match's lock: the match is read once, under it, with its event
        # (the archived guard reads its status there) and whether it has adjustments or open
        # players' entries to read (every table's deals come this way, so each statement saved counts).
        refusal: Exception | None = None
        with transaction.atomic():
            match = access.match_for_user(user=request.user, match_id=match_id, lock=True, annotate=deal_entry_reads())
            values, outcome = _deal_body(match, request, "deal")
            key = values.get("idempotency_key") or request.headers.get("Idempotency-Key") or None
            try:
                entry = services.deal_record(
                    match_id=match.pk,
                    outcome=outcome,
                    user=request.user,
                    expected_version=values["expected_version"],
                    idempotency_key=key,
                    locked=match,
                )
            except REFUSALS as error:  # refused: what the service stored with it (a due time call) stays
                refusal = error
        if refusal is not None:
            raise refusal
        match_data = _detail_written(entry, read=match)
        body = {"deal": deal_json(entry.deal), "match": match_data, "replayed": entry.replayed}
        return Response(body, status=status.HTTP_201_CREATED)


class DealPreviewView(MatchView):
    @extend_schema(
        summary="What a deal would do (nothing is written)",
        description="The rules core's record of the deal, the match after it and the tribute before the next deal "
        "(docs/rules.md §6)." + GAME_BODY,
        request=_either("PreviewBody", "preview"),
        responses={200: _either("PreviewAnswer", "preview_output"), **ERRORS},
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = self.match(request, match_id)
        _values, outcome = _deal_body(match, request, "preview")
        preview = selectors.deal_preview(match=match, outcome=outcome)
        if preview.error:
            raise UserError("refused", preview.error)
        tribute = preview.tribute.to_json() if preview.tribute else None
        return Response({"record": preview.record, "result": preview.result, "tribute": tribute})


class DealDetailView(MatchView):
    query_params_allowed = frozenset({"reason", "expected_version"})  # a DELETE may carry them so

    @extend_schema(
        summary="Correct a deal (with a reason); the match is replayed",
        description=GAME_BODY.strip(),
        request=_either("CorrectionBody", "correction"),
        responses={200: MatchDetailOutput, **ERRORS},
    )
    def put(self, request: Request, match_id: int, number: int) -> Response:
        match = self.match(request, match_id)
        values, outcome = _deal_body(match, request, "correction")
        services.deal_correct(
            match_id=match.pk,
            number=number,
            outcome=outcome,
            reason=values["reason"],
            user=request.user,
            expected_version=values["expected_version"],
        )
        return self.answer(match.pk)

    @extend_schema(
        summary="Delete a deal (with a reason); later deals move up and the match is replayed",
        description="The reason and the expected version as query parameters (or, for clients that "
        "send a body with a DELETE, as a body in DeletionInput's shape).",
        parameters=[
            OpenApiParameter(
                "reason",
                {"type": "string", "minLength": 1, "maxLength": REASON_MAX},
                required=True,
                description="Why the deal is deleted (kept in the history).",
            ),
            OpenApiParameter(
                "expected_version",
                {"type": "integer", "minimum": 0, "maximum": VERSION_MAX},
                required=True,
                description="The match version the device last saw; a stale one is answered 409.",
            ),
        ],
        responses={200: MatchDetailOutput, **ERRORS},
    )
    def delete(self, request: Request, match_id: int, number: int) -> Response:
        match = self.match(request, match_id)
        data = DeletionInput(data=request.data or request.query_params)
        data.is_valid(raise_exception=True)
        services.deal_delete(
            match_id=match.pk,
            number=number,
            reason=data.validated_data["reason"],
            user=request.user,
            expected_version=data.validated_data["expected_version"],
        )
        return self.answer(match.pk)


class DealUndoView(MatchView):
    @extend_schema(
        summary="Undo the last deal (with a reason, like a correction or a deletion)",
        request=DeletionInput,
        responses={200: MatchDetailOutput, **ERRORS},
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = self.match(request, match_id)
        data = DeletionInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.deal_undo(
            match_id=match.pk,
            reason=data.validated_data["reason"],
            user=request.user,
            expected_version=data.validated_data["expected_version"],
        )
        return self.answer(match.pk)


class SignOffView(MatchView):
    @extend_schema(
        summary="Confirm the final result (locks the match)",
        request=VersionInput,
        responses={200: MatchDetailOutput, **ERRORS},
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = self.match(request, match_id)
        data = VersionInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.match_sign_off(
            match_id=match.pk, user=request.user, expected_version=data.validated_data["expected_version"]
        )
        return self.answer(match.pk)


class UnlockView(MatchView):
    def _unlockable(self, request: Request, match_id: int) -> Match:
        match = self.match(request, match_id)
        if not access.user_may_unlock(user=request.user, match=match):
            raise Http404
        return match

    @extend_schema(
        summary="What depends on a signed-off match, before unlocking it (organisers, chief referee)",
        responses={200: DependentsOutput, **ERRORS},
    )
    def get(self, request: Request, match_id: int) -> Response:
        dependents = corrections.match_dependents(match=self._unlockable(request, match_id))
        return Response({**dependents.to_json(), "any": dependents.any})

    @extend_schema(
        summary="Unlock a signed-off match for a correction (organisers, chief referee), with a reason",
        request=UnlockInput,
        responses={200: MatchDetailOutput, **ERRORS},
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = self._unlockable(request, match_id)
        data = UnlockInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.match_unlock(
            match_id=match.pk,
            reason=data.validated_data["reason"],
            user=request.user,
            dependents_seen=data.validated_data["dependents_seen"],
        )
        return self.answer(match.pk)


class MatchClearView(MatchView):
    @extend_schema(
        summary="Clear a started knockout match a correction waits for (organisers, chief referee)",
        description="When a corrected match's new winner cannot move into the next match because "
        "it has started (409 successor_started at the sign-off), this deletes that match's deals and "
        "adjustments with a reason (kept in the history) and resets its clock; then the correction can be "
        "signed off and the bracket follows. Refused: match_locked (signed off: unlock it first), "
        "not_started, not_blocking (no correction of an earlier match waits for it).",
        request=DeletionInput,
        responses={200: MatchDetailOutput, **ERRORS},
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = self.match(request, match_id)
        if not access.user_may_unlock(user=request.user, match=match):
            raise Http404
        data = DeletionInput(data=request.data)
        data.is_valid(raise_exception=True)
        clearing.match_clear(
            match_id=match.pk,
            reason=data.validated_data["reason"],
            user=request.user,
            expected_version=data.validated_data["expected_version"],
        )
        return self.answer(match.pk)


class AdjustmentListView(MatchView):
    @extend_schema(
        summary="Record a forfeit, late arrival, penalty or warning (chief referee, organisers)",
        description="docs/rules.md §7; the rules core decides what it does and refuses what cannot apply.",
        request=AdjustmentInput,
        responses={201: MatchDetailOutput, **ERRORS},
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = self.match(request, match_id)
        if not access.user_may_adjust(user=request.user, match=match):
            raise Http404
        data = AdjustmentInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        pair_id = match.ns_pair_id if values["side"] == "NS" else match.ew_pair_id
        if pair_id is None:
            raise UserError("bad_input", _("This match has no E/W pair."))
        services.adjustment_record(
            match_id=match.pk,
            pair_id=pair_id,
            kind=values["kind"],
            reason=values["reason"],
            user=request.user,
            levels=values["levels"],
            points=values["points"],
            minutes_late=values["minutes_late"],
            absent_player_id=values["absent_player"],
            expected_version=values["expected_version"],
        )
        return self.answer(match.pk, status.HTTP_201_CREATED)


class RoundStartView(StrictQueryParams, APIView):
    permission_classes = [MatchAccess]

    @extend_schema(
        summary="Start a round: its clock and every match's (organisers)",
        request=None,
        responses={200: MatchOutput(many=True), **ERRORS},
    )
    def post(self, request: Request, round_id: int) -> Response:
        round_ = access.rounds_for_overseer(user=request.user).filter(pk=round_id).first()
        if round_ is None or not access.user_may_start_round(user=request.user, round_=round_):
            raise Http404
        clock.round_start(round_id=round_.pk, user=request.user)
        matches = round_.matches.select_related("round__stage__tournament", "table", "ns_pair", "ew_pair")
        return Response(MatchOutput(matches.order_by("table__number", "id"), many=True).data)
