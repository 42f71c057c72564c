"""The referee API's Dou Dizhu bodies (docs/rules.md §10): a deal is the landlord's seat and the outcome.

Shape only; the rules core validates the deal (``invalid_deal`` with its message). Stake scoring:
``{"landlord": "E", "bid": 3, "bombs": 1, "spring": false, "winner": "landlord"}``; ``cards_left``
scoring: ``{"landlord": "S", "cards_left": {"E": 5, "S": 0, "W": 7}}``.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from scoring.doudizhu_deals import LANDLORD_CARDS, MAX_BID, MAX_BOMBS
from tournament.api.match_serializers import VERSION_MAX, ReasonField
from tournament.api.schema import StrictInput

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
