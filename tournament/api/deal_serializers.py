"""The API's deal bodies of every game: a new deal, a preview, a correction (each with ``outcome()``, the
deal in the rules core's input shape) and a preview's answer. :data:`DEAL_BODIES` holds each game's
four (``tournament.games``' kinds, by their game); the match views take the one of the match's game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from scoring.doudizhu_deals import LANDLORD_CARDS, MAX_BID, MAX_BOMBS
from scoring.options import Game
from scoring.tractor import Capture, Infraction
from tournament.api.match_serializers import VERSION_MAX, ReasonField, SidesOutput
from tournament.api.schema import StrictInput
from tournament.games import DOUDIZHU, GUANDAN, TRACTOR
from tournament.matches.selectors import guandan_outcome

SEAT_CHOICES = ["N", "E", "S", "W"]


class OrderField(serializers.ListField):
    """Seats by finishing place: ["N", "E", "S"] (the missing seat is last) or ["N", "S"] (双下)."""

    child = serializers.ChoiceField(choices=SEAT_CHOICES)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_length=2, max_length=4, **kwargs)


class GuandanDealBody(StrictInput):
    """A Guandan deal: the finishing order and whether 抗贡 was recorded for it (docs/rules.md §1, §6)."""

    order = OrderField()
    anti_tribute = serializers.BooleanField(
        required=False,
        default=False,
        help_text="抗贡 (docs/rules.md §6): the side due to pay tribute before this deal held both big jokers, so no "
        "tribute was paid and 上游 led. Refused (invalid_deal) on a game's first deal.",
    )

    def outcome(self) -> dict[str, Any]:
        """The validated deal as the rules core reads it (``scoring.match.parse_deal``)."""
        values = self.validated_data
        return guandan_outcome(order=values["order"], anti_tribute=values.get("anti_tribute", False))


@extend_schema_serializer(component_name="DealInput")
class GuandanDealInput(GuandanDealBody):
    expected_version = serializers.IntegerField(
        min_value=0,
        max_value=VERSION_MAX,
        help_text="The match version the device last saw; a stale one is answered 409.",
    )
    idempotency_key = serializers.CharField(
        max_length=64,
        required=False,
        allow_blank=True,
        help_text="A retried request with the same key returns the first result (or send an Idempotency-Key header).",
    )


SEATS = frozenset(SEAT_CHOICES)
KEY_MAX = 64
PLAIN_FIELDS = frozenset({"order", "anti_tribute", "expected_version", "idempotency_key"})


def _plain_key(key: object) -> bool:
    """A key the serializer's ``CharField`` keeps as it is (no spaces to strip, no NUL, no surrogate)."""
    return (
        type(key) is str
        and len(key) <= KEY_MAX
        and key == key.strip()
        and "\x00" not in key
        and not any("\ud800" <= character <= "\udfff" for character in key)
    )


def guandan_deal_plain(data: object) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """:class:`GuandanDealInput`'s validated values and ``outcome()`` for a body in the shape every phone
    sends (a JSON object: ``order`` a list of 2–4 seats, ``expected_version`` a number in range, perhaps
    ``anti_tribute`` true or false and an ``idempotency_key`` text), read without the serializer, whose
    fields are copied for every request; None for anything else — the serializer reads it then (a
    body it converts, like ``"3"`` for 3, or refuses). tests/tournament/api/test_plain_deal_body.py
    checks both give the same."""
    if type(data) is not dict or not data.keys() <= PLAIN_FIELDS:
        return None
    order, version = data.get("order"), data.get("expected_version")
    if type(order) is not list or not 2 <= len(order) <= 4 or not all(type(s) is str and s in SEATS for s in order):
        return None
    if type(version) is not int or not 0 <= version <= VERSION_MAX:
        return None
    anti_tribute = data.get("anti_tribute", False)
    if type(anti_tribute) is not bool or ("idempotency_key" in data and not _plain_key(data["idempotency_key"])):
        return None
    values: dict[str, Any] = {"order": list(order), "anti_tribute": anti_tribute, "expected_version": version}
    if "idempotency_key" in data:
        values["idempotency_key"] = data["idempotency_key"]
    return values, guandan_outcome(order=values["order"], anti_tribute=anti_tribute)


class PreviewInput(GuandanDealBody):
    pass


class TractorBottomInput(StrictInput):
    points = serializers.IntegerField(
        min_value=0, max_value=300, help_text="The bottom's card points (multiple of 5; three decks hold 300)."
    )
    capture = serializers.ChoiceField(
        choices=[capture.value for capture in Capture],
        help_text="抠底: single ×2, pair ×3, triple ×4, tractor_2_pairs ×5, tractor_3_pairs ×6, tractor_2_triples ×7.",
    )


class TractorPenaltyInput(StrictInput):
    side = serializers.ChoiceField(choices=["NS", "EW"])
    kind = serializers.ChoiceField(choices=[infraction.value for infraction in Infraction], help_text="20 points each.")


class TractorDealFields(StrictInput):
    """A Tractor deal in the rules core's input shape (``scoring.match.parse_deal``)."""

    declarer = serializers.ChoiceField(
        choices=["NS", "EW", *SEAT_CHOICES],
        required=False,
        allow_null=True,
        help_text="The declaring side or seat (庄家): required for the first deal; later deals follow the rotation "
        "(the match's next_deal.declarer) and a different one is refused.",
    )
    defender_points = serializers.IntegerField(
        min_value=-995,
        max_value=995,
        help_text="The defenders' card points, a multiple of 5, may be negative (before bottom and penalties).",
    )
    bottom = TractorBottomInput(required=False, allow_null=True)
    penalties = TractorPenaltyInput(many=True, required=False)
    revoke = serializers.ChoiceField(
        choices=["NS", "EW"],
        required=False,
        allow_null=True,
        help_text="The side that revoked (藏张, seed 001 §17): ends the deal. The declarers' revoke: they fall and "
        "the defenders go up only from 120 points; the defenders' revoke: the declarers go up by the table.",
    )
    wrong_bottom = serializers.BooleanField(
        required=False,
        default=False,
        help_text="The declarers buried the wrong number of bottom cards (seed 001 §9.1): they fall (下台).",
    )
    wrong_count = serializers.ChoiceField(
        choices=["NS", "EW", "both"],
        required=False,
        allow_null=True,
        help_text="A wrong card count found mid-deal (seed 001 §18): in one side's hands like its revoke; in both "
        "sides' hands the deal is replayed (result 'replayed').",
    )

    def outcome(self) -> dict[str, Any]:
        """The validated deal as the rules core reads it (absent and null fields left out)."""
        data = self.validated_data
        outcome: dict[str, Any] = {}
        if data.get("declarer"):
            outcome["declarer"] = data["declarer"]
        outcome["defender_points"] = data["defender_points"]
        if data.get("bottom"):
            outcome["bottom"] = dict(data["bottom"])
        if data.get("penalties"):
            outcome["penalties"] = [dict(penalty) for penalty in data["penalties"]]
        if data.get("revoke"):
            outcome["revoke"] = data["revoke"]
        if data.get("wrong_bottom"):
            outcome["wrong_bottom"] = True
        if data.get("wrong_count"):
            outcome["wrong_count"] = data["wrong_count"]
        return outcome


class TractorDealInput(TractorDealFields):
    expected_version = serializers.IntegerField(min_value=0, max_value=VERSION_MAX)
    idempotency_key = serializers.CharField(max_length=64, required=False, allow_blank=True)


class TractorPreviewInput(TractorDealFields):
    pass


class TractorCorrectionInput(TractorDealFields):
    reason = ReasonField()
    expected_version = serializers.IntegerField(min_value=0, max_value=VERSION_MAX)


class CorrectionInput(GuandanDealBody):
    reason = ReasonField()
    expected_version = serializers.IntegerField(min_value=0, max_value=VERSION_MAX)


class DealRecordOutput(serializers.Serializer[object]):
    """One deal as the rules core recorded it (``scoring replay``'s per-deal object)."""

    number = serializers.IntegerField()
    order = serializers.ListField(child=serializers.CharField())
    level = serializers.IntegerField()
    sets_level = serializers.CharField(allow_null=True)
    winner = serializers.CharField()
    partner_place = serializers.IntegerField()
    upgrade = serializers.IntegerField()
    a_attempt = serializers.BooleanField()
    passed_a = serializers.BooleanField()
    reset = serializers.BooleanField()
    levels_after = SidesOutput()
    a_failures_after = SidesOutput()
    game = serializers.IntegerField()
    extra = serializers.BooleanField()
    anti_tribute = serializers.BooleanField(
        required=False, help_text="抗贡 was recorded for this deal (docs/rules.md §6)."
    )
    points = serializers.IntegerField(required=False)
    points_after = SidesOutput(required=False)


class TractorDealRecordOutput(serializers.Serializer[object]):
    """One Tractor deal as the rules core recorded it (seed 001's table)."""

    number = serializers.IntegerField()
    declarer = serializers.CharField()
    declarer_seat = serializers.CharField(allow_null=True)
    level = serializers.IntegerField()
    defender_points = serializers.IntegerField()
    bottom = serializers.JSONField(allow_null=True)
    penalty_points = serializers.IntegerField()
    total_points = serializers.IntegerField()
    result = serializers.ChoiceField(choices=["declarers_up", "defenders_take_over", "defenders_up", "replayed"])
    winner = serializers.CharField(allow_null=True, help_text="null for a replayed deal (seed 001 §18).")
    upgrade = serializers.IntegerField()
    revoke = serializers.CharField(allow_null=True)
    wrong_bottom = serializers.BooleanField()
    wrong_count = serializers.ChoiceField(choices=["NS", "EW", "both"], allow_null=True)
    passed_a = serializers.BooleanField()
    levels_after = SidesOutput()
    next_declarer = serializers.CharField()
    next_declarer_seat = serializers.CharField(allow_null=True)
    extra = serializers.BooleanField()


class TributeOutput(serializers.Serializer[object]):
    kind = serializers.CharField()
    tributes = serializers.JSONField()
    returns = serializers.JSONField()
    leader = serializers.CharField(allow_null=True)
    note = serializers.CharField()
    note_zh = serializers.CharField()


class PreviewOutput(serializers.Serializer[object]):
    record = DealRecordOutput()
    result = serializers.JSONField(help_text="The match after this deal, in ``scoring replay``'s shape.")
    tribute = TributeOutput(allow_null=True)


class TractorPreviewOutput(serializers.Serializer[object]):
    record = TractorDealRecordOutput()
    result = serializers.JSONField(help_text="The match after this deal, in ``scoring replay``'s shape.")
    tribute = serializers.JSONField(allow_null=True, help_text="Always null: Tractor has no tribute.")


THREE_SEATS = ["E", "S", "W"]


class CardsLeftInput(StrictInput):
    E = serializers.IntegerField(min_value=0, max_value=LANDLORD_CARDS)
    S = serializers.IntegerField(min_value=0, max_value=LANDLORD_CARDS)
    W = serializers.IntegerField(min_value=0, max_value=LANDLORD_CARDS)


class DoudizhuDealFields(StrictInput):
    """A Dou Dizhu deal in the rules core's input shape."""

    landlord = serializers.ChoiceField(choices=THREE_SEATS, help_text="The landlord's seat (地主).")
    bid = serializers.IntegerField(min_value=1, max_value=MAX_BID, required=False, help_text="叫分, 1–3 (default 1).")
    bombs = serializers.IntegerField(
        min_value=0, max_value=MAX_BOMBS, required=False, help_text="Bombs and the rocket played (default 0)."
    )
    spring = serializers.BooleanField(required=False, help_text="春天/反春: the winning side's spring.")
    winner = serializers.ChoiceField(choices=["landlord", "farmers"], required=False)
    cards_left = CardsLeftInput(required=False, help_text="cards_left scoring: each seat's cards left, one 0.")

    def outcome(self) -> dict[str, Any]:
        """The validated deal (absent fields left out: the rules core's defaults apply)."""
        data = self.validated_data
        outcome: dict[str, Any] = {"landlord": data["landlord"]}
        for name in ("bid", "bombs", "spring", "winner"):
            if name in data:
                outcome[name] = data[name]
        if "cards_left" in data:
            outcome["cards_left"] = dict(data["cards_left"])
        return outcome


class DoudizhuDealInput(DoudizhuDealFields):
    expected_version = serializers.IntegerField(min_value=0, max_value=VERSION_MAX)
    idempotency_key = serializers.CharField(max_length=64, required=False, allow_blank=True)


class DoudizhuPreviewInput(DoudizhuDealFields):
    pass


class DoudizhuCorrectionInput(DoudizhuDealFields):
    reason = ReasonField()
    expected_version = serializers.IntegerField(min_value=0, max_value=VERSION_MAX)


class DoudizhuDealRecordOutput(serializers.Serializer[object]):
    """One Dou Dizhu deal as the rules core recorded it (``scoring replay``'s per-deal object)."""

    number = serializers.IntegerField()
    landlord = serializers.CharField()
    winner = serializers.ChoiceField(choices=["landlord", "farmers"])
    multiple = serializers.IntegerField(required=False, help_text="Stake scoring: bid × 2^bombs × spring, capped.")
    stake = serializers.IntegerField(required=False)
    points = serializers.JSONField(help_text='Per seat: {"E": 4, "S": -2, "W": -2}.')
    points_after = serializers.JSONField()


class DoudizhuPreviewOutput(serializers.Serializer[object]):
    record = DoudizhuDealRecordOutput()
    result = serializers.JSONField(help_text="The table after this deal, in ``scoring replay``'s shape.")
    tribute = serializers.JSONField(allow_null=True, help_text="Always null: Dou Dizhu has no tribute.")


@dataclass(frozen=True, slots=True)
class DealBodies:
    """One game's API bodies: a new deal, a preview, a correction (each with ``outcome()``), a preview's answer."""

    deal: type[serializers.Serializer[Any]]
    preview: type[serializers.Serializer[Any]]
    correction: type[serializers.Serializer[Any]]
    preview_output: type[serializers.Serializer[Any]]
    deal_plain: Callable[[object], tuple[dict[str, Any], dict[str, Any]] | None] | None = None
    """A new deal's body in its plainest shape read without the serializer (None: not that shape)."""


DEAL_BODIES: dict[Game, DealBodies] = {
    GUANDAN.game: DealBodies(
        deal=GuandanDealInput,
        preview=PreviewInput,
        correction=CorrectionInput,
        preview_output=PreviewOutput,
        deal_plain=guandan_deal_plain,
    ),
    TRACTOR.game: DealBodies(
        deal=TractorDealInput,
        preview=TractorPreviewInput,
        correction=TractorCorrectionInput,
        preview_output=TractorPreviewOutput,
    ),
    DOUDIZHU.game: DealBodies(
        deal=DoudizhuDealInput,
        preview=DoudizhuPreviewInput,
        correction=DoudizhuCorrectionInput,
        preview_output=DoudizhuPreviewOutput,
    ),
}
"""The API's deal bodies of each game (``tournament.games``), by its game."""
