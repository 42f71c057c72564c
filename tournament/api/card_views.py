"""API of the referee's dispute assistant (read-only; changes no result)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.cards import classify
from scoring.cards_beats import beats
from scoring.options import WildReading
from tournament.api.schema import StrictQueryParams
from tournament.matches.selectors import card_rules
from tournament.registration.roles import user_may_use_referee_tools


class RefereeToolsPermission(permissions.BasePermission):
    message = "Referees and organisers only."

    def has_permission(self, request: Request, view: Any) -> bool:
        return user_may_use_referee_tools(request.user)


# The notation's shape, documented in the schema; the rules core judges the text itself (its codes:
# bad_card, bad_level, too_many_copies, not_a_play; docs/rules.md §8), so no second validator here.
CARD = r"(?:[2-9]|10|[TtJjQqKkAa])[SsHhCcDd]|[SsBb][Jj]"
CARDS_PATTERN = rf"^[\s,]*(?:{CARD})(?:[\s,]+(?:{CARD}))*[\s,]*$"
LEVEL_PATTERN = r"^\s*(?:[2-9]|1[0-4]|[TtJjQqKkAa])\s*$"


@extend_schema_field({"type": "string", "maxLength": 3, "pattern": LEVEL_PATTERN})
class LevelField(serializers.CharField):
    """A level as 2–14 or its label (2–10, J, Q, K, A); the rules core validates it. Lengths
    count what was sent (the core trims), as the schema says."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(trim_whitespace=False, **kwargs)


@extend_schema_field({"type": "string", "maxLength": 200, "pattern": CARDS_PATTERN})
class CardsField(serializers.CharField):
    """A set of cards in notation (commas and/or spaces between them): ``KS,KD,5H``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=200, trim_whitespace=False, **kwargs)


MATCH_HELP = (
    "Optional: the match being disputed; wild cards are read by its stage's rules (wild_reading, docs/rules.md §8). "
    "Without it, the rules of the caller's table this round (else the default, largest)."
)


class ClassifyInput(serializers.Serializer[None]):
    level = LevelField(max_length=3)
    cards = CardsField()
    match = serializers.IntegerField(required=False, min_value=1, help_text=MATCH_HELP)


class BeatsInput(serializers.Serializer[None]):
    level = LevelField(max_length=3)
    play = CardsField()
    previous = CardsField()
    declared = serializers.CharField(max_length=40, required=False, allow_blank=True)
    previous_declared = serializers.CharField(max_length=40, required=False, allow_blank=True)
    match = serializers.IntegerField(required=False, min_value=1, help_text=MATCH_HELP)


class ReadingOutput(serializers.Serializer[object]):
    type = serializers.CharField()
    rank = serializers.CharField()
    size = serializers.IntegerField()


class ClassificationOutput(serializers.Serializer[object]):
    readings = ReadingOutput(many=True)
    default = ReadingOutput(allow_null=True)
    wild_reading = serializers.ChoiceField(choices=[value.value for value in WildReading])


class VerdictOutput(serializers.Serializer[object]):
    beats = serializers.BooleanField()
    play = ReadingOutput()
    previous = ReadingOutput()
    reason = serializers.CharField()
    reason_zh = serializers.CharField()
    wild_reading = serializers.ChoiceField(choices=[value.value for value in WildReading])


class CardClassifyView(StrictQueryParams, APIView):
    permission_classes = [RefereeToolsPermission]

    @extend_schema(
        request=ClassifyInput,
        responses=ClassificationOutput,
        summary="Every reading of a set of cards as one play (docs/rules.md §8)",
    )
    def post(self, request: Request) -> Response:
        data = ClassifyInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        wild_reading = card_rules(user=request.user, match_id=values.get("match")).wild_reading
        classification = classify(cards=values["cards"], level=values["level"], wild_reading=wild_reading)
        return Response({**classification.to_json(), "wild_reading": wild_reading.value})


class CardBeatsView(StrictQueryParams, APIView):
    permission_classes = [RefereeToolsPermission]

    @extend_schema(
        request=BeatsInput,
        responses=VerdictOutput,
        summary="Does this play beat the previous one? (docs/rules.md §8)",
    )
    def post(self, request: Request) -> Response:
        data = BeatsInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        wild_reading = card_rules(user=request.user, match_id=values.get("match")).wild_reading
        verdict = beats(
            play=values["play"],
            previous=values["previous"],
            level=values["level"],
            declared=values.get("declared") or None,
            previous_declared=values.get("previous_declared") or None,
            wild_reading=wild_reading,
        )
        return Response({**verdict.to_json(), "reason_zh": verdict.reason_zh, "wild_reading": wild_reading.value})
