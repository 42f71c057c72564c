"""The referee's Dou Dizhu deal form (docs/rules.md §10): shape only; the rules core decides.

Stake scoring (the default): the landlord's seat, the bid (1–3), the bombs played (a stepper, 0–14),
spring, and who won. ``cards_left`` scoring: the landlord's seat and each seat's cards left. The form
carries both sets of fields; the page shows the ones of the table's ``deal_scoring`` (from the summary's
``next_deal``) and the rules core refuses the other.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.doudizhu_deals import FARMER_CARDS, LANDLORD_CARDS, MAX_BID, MAX_BOMBS
from tournament.audit import REASON_MAX
from tournament.bounds import column_max
from tournament.matches.forms import DealEntryFields
from tournament.matches.models import Match

THREE_SEATS = ("E", "S", "W")
WINNERS = (("landlord", _("Landlord (地主)")), ("farmers", _("Farmers (农民)")))


class DoudizhuDealFields(DealEntryFields):
    """One Dou Dizhu deal as the referee enters it."""

    landlord = forms.ChoiceField(label=_("Landlord (地主)"), choices=[(seat, seat) for seat in THREE_SEATS])
    bid = forms.TypedChoiceField(
        label=_("Bid (叫分)"), coerce=int, choices=[(n, str(n)) for n in range(1, MAX_BID + 1)], required=False
    )
    bombs = forms.IntegerField(label=_("Bombs and rockets (炸弹)"), min_value=0, max_value=MAX_BOMBS, required=False)
    spring = forms.BooleanField(label=_("Spring (春天 / 反春)"), required=False)
    winner = forms.ChoiceField(label=_("Won by"), choices=WINNERS, required=False)
    cards_left_e = forms.IntegerField(label=_("E cards left"), min_value=0, max_value=LANDLORD_CARDS, required=False)
    cards_left_s = forms.IntegerField(label=_("S cards left"), min_value=0, max_value=LANDLORD_CARDS, required=False)
    cards_left_w = forms.IntegerField(label=_("W cards left"), min_value=0, max_value=LANDLORD_CARDS, required=False)

    FARMER_CARDS = FARMER_CARDS

    def __init__(self, *args: Any, next_deal: dict[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, next_deal=next_deal, **kwargs)
        # a correction starts from the deal as recorded: its cards left say how the table scores
        self.by_cards_left = (next_deal or {}).get("deal_scoring") == "cards_left" or any(
            name.startswith("cards_left_") for name in self.initial
        )
        self.bid_fixed = (next_deal or {}).get("landlord_by") == "lot"

    @property
    def cards_left_fields(self) -> list[forms.BoundField]:
        return [self[f"cards_left_{seat.lower()}"] for seat in THREE_SEATS]

    def deal_fields(self) -> list[forms.BoundField]:
        """Every deal field (carried as hidden inputs from the preview to the confirm)."""
        names = ["landlord", "bid", "bombs", "spring", "winner"] + [f"cards_left_{s.lower()}" for s in THREE_SEATS]
        return [self[name] for name in names]

    def clean(self) -> dict[str, Any]:
        super().clean()  # Django's: the cleaned data, kept on the form
        data = self.cleaned_data
        counted = [data.get(f"cards_left_{seat.lower()}") for seat in THREE_SEATS]
        if any(value is not None for value in counted):
            if any(value is None for value in counted):
                self.add_error("cards_left_e", _("Give every seat's cards left."))
        elif not data.get("winner"):
            self.add_error("winner", _("Who won the deal?"))
        return data

    def outcome(self) -> dict[str, Any]:
        """The deal in the rules core's input shape (``scoring.doudizhu_deals.parse_doudizhu_deal``)."""
        data = self.cleaned_data
        counted = {seat: data.get(f"cards_left_{seat.lower()}") for seat in THREE_SEATS}
        if all(value is not None for value in counted.values()):
            return {"landlord": data["landlord"], "cards_left": counted}
        return {
            "landlord": data["landlord"],
            "bid": data.get("bid") or 1,
            "bombs": data.get("bombs") or 0,
            "spring": bool(data.get("spring")),
            "winner": data["winner"],
        }


class DoudizhuDealForm(DoudizhuDealFields):
    version = forms.IntegerField(min_value=0, max_value=column_max(Match, "version"), widget=forms.HiddenInput)
    idempotency_key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)


class DoudizhuCorrectionForm(DoudizhuDealFields):
    version = forms.IntegerField(min_value=0, max_value=column_max(Match, "version"), widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX)
