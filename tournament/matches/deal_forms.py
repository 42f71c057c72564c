"""The deal forms of every game: what a referee enters for one deal (the match page, a correction,
the preview from the query string). Shape only; the rules core decides.

Guandan: the finishing order as tapped and 抗贡. Tractor: the declarer, the defenders' points, the
bottom and the faults. Dou Dizhu (docs/rules.md §10): stake scoring (the default) takes the landlord's
seat, the bid (1–3), the bombs played (a stepper, 0–14), spring, and who won; ``cards_left`` scoring the
landlord's seat and each seat's cards left. The form carries both sets of fields; the page shows the
ones of the table's ``deal_scoring`` (from the summary's ``next_deal``) and the rules core refuses the
other. :data:`DEAL_FORMS` holds each game's three (``tournament.games``' kinds, by their game).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.doudizhu_deals import FARMER_CARDS, LANDLORD_CARDS, MAX_BID, MAX_BOMBS
from scoring.options import Game
from scoring.tractor import Infraction
from tournament import labels
from tournament.audit import REASON_MAX
from tournament.bounds import column_max
from tournament.form_fields import choice_field
from tournament.games import DOUDIZHU, GUANDAN, TRACTOR
from tournament.labels import CAPTURE_LABELS, INFRACTION_LABELS
from tournament.matches.forms import ReasonForm, VersionForm
from tournament.matches.models import Match
from tournament.matches.selectors import guandan_outcome, parse_taps, taps_complete


class OrderField(forms.CharField):
    """Seats by finishing place as tapped ("NES", "NS" for 双下); cleaned to a list of letters."""

    def clean(self, value: Any) -> list[str]:
        text = super().clean(value)
        taps = parse_taps(text)
        if not taps_complete(taps):
            raise forms.ValidationError(_("Tap the seats in finishing order."))
        return taps


class DealEntryFields(forms.Form):
    """What every game's deal form answers for the shared match page (``tournament.games``): whether
    the deal entered so far is complete, the seats tapped so far, and the deal in the rules core's
    input shape (``outcome``). ``next_deal`` is the rules core's rotation before the deal."""

    def __init__(self, *args: Any, next_deal: dict[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)

    def complete(self) -> bool:
        """A whole deal was entered (the page then previews it)."""
        return self.is_bound and self.is_valid()

    def taps(self) -> list[str]:
        """Seats tapped so far (a game entered by taps); none otherwise."""
        return []

    def outcome(self) -> dict[str, Any]:
        raise NotImplementedError


class GuandanDealFields(DealEntryFields):
    """A Guandan deal: the finishing order and whether 抗贡 was recorded for it (docs/rules.md §6)."""

    order = OrderField(max_length=8, widget=forms.HiddenInput)
    anti_tribute = forms.BooleanField(label=_("Anti-tribute (抗贡)"), required=False)

    def taps(self) -> list[str]:
        return parse_taps(self.data.get("order")) if self.is_bound else []

    def complete(self) -> bool:
        """The taps make a finishing order (docs/rules.md §1), whatever else the form still lacks (a reason)."""
        return taps_complete(self.taps())

    def outcome(self) -> dict[str, Any]:
        """The deal in the rules core's input shape (``scoring.match.parse_deal``)."""
        return guandan_outcome(order=self.cleaned_data["order"], anti_tribute=self.cleaned_data["anti_tribute"])


class DealForm(GuandanDealFields, VersionForm):
    idempotency_key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)


class CorrectionForm(GuandanDealFields, ReasonForm):
    pass


SIDES = ("NS", "EW")


class TractorDealFields(DealEntryFields):
    """A Tractor deal as the referee enters it (seed 001, docs/rules.md §9); the rules core judges it.

    The declarer is prefilled from the rotation (the state's ``next_declarer``) and required only for the
    first deal (抢庄); penalties are counted per side and kind, 20 points each.
    """

    declarer = forms.ChoiceField(label=_("Declarer (庄家)"), required=False)
    defender_points = forms.IntegerField(
        label=_("Defenders' points"), min_value=-995, max_value=995, help_text=_("A multiple of 5; may be negative.")
    )
    bottom_points = forms.IntegerField(
        label=_("Bottom points captured (抠底)"), required=False, min_value=0, max_value=300
    )
    capture = forms.ChoiceField(label=_("Captured with"), required=False)
    revoke = forms.ChoiceField(label=_("Revoke (藏张) by"), required=False)
    wrong_bottom = forms.BooleanField(
        label=_("The declarers buried the wrong number of bottom cards (留错底牌张数)"), required=False
    )
    wrong_count = forms.ChoiceField(label=_("Wrong card count (牌张数目不符) in the hands of"), required=False)

    def __init__(self, *args: Any, next_deal: dict[str, Any] | None = None, **kwargs: Any) -> None:
        next_deal = next_deal or {}
        self.rotation = next_deal.get("declarer_seat") or next_deal.get("declarer") or ""
        kwargs.setdefault("initial", {})
        kwargs["initial"] = {"declarer": self.rotation, **kwargs["initial"]}
        super().__init__(*args, next_deal=next_deal, **kwargs)
        sides = [("NS", str(_("N/S"))), ("EW", str(_("E/W")))]
        seats = [(seat, labels.seat_name(seat)) for seat in ("N", "E", "S", "W")]
        choice_field(self, "declarer").choices = [("", "—"), *sides, *seats]
        choice_field(self, "capture").choices = [("", "—"), *[(c.value, label) for c, label in CAPTURE_LABELS.items()]]
        choice_field(self, "revoke").choices = [("", "—"), *sides]
        both = ("both", str(_("both sides (the deal is replayed)")))
        choice_field(self, "wrong_count").choices = [("", "—"), *sides, both]
        for side in SIDES:
            for infraction, label in INFRACTION_LABELS.items():
                self.fields[self.penalty_field(side, infraction)] = forms.IntegerField(
                    label=label, required=False, min_value=0, max_value=9
                )

    @staticmethod
    def penalty_field(side: str, infraction: Infraction) -> str:
        return f"penalty_{side.lower()}_{infraction.value}"

    def penalty_rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The penalty counters, one row per side (for the template)."""
        return [
            (side, [self[self.penalty_field(side, infraction)] for infraction in INFRACTION_LABELS]) for side in SIDES
        ]

    def tractor_fields(self) -> list[forms.BoundField]:
        """Every deal field (to carry the entered deal as hidden inputs from the preview to the confirm)."""
        names = ["declarer", "defender_points", "bottom_points", "capture", "revoke", "wrong_bottom", "wrong_count"]
        names += [self.penalty_field(side, infraction) for side in SIDES for infraction in INFRACTION_LABELS]
        return [self[name] for name in names]

    def clean(self) -> dict[str, Any]:
        super().clean()  # Django's: the cleaned data, kept on the form
        data = self.cleaned_data
        if not data.get("declarer") and not self.rotation:
            self.add_error("declarer", _("Who declares the first deal (抢庄)?"))
        if (data.get("bottom_points") is None) != (not data.get("capture")):
            self.add_error("capture", _("Give both the bottom's points and how it was captured, or neither."))
        return data

    def outcome(self) -> dict[str, Any]:
        """The deal in the rules core's input shape (``scoring.match.parse_deal``)."""
        data = self.cleaned_data
        outcome: dict[str, Any] = {}
        if data.get("declarer"):
            outcome["declarer"] = data["declarer"]
        outcome["defender_points"] = data["defender_points"]
        if data.get("capture"):
            outcome["bottom"] = {"points": data["bottom_points"], "capture": data["capture"]}
        penalties = [
            {"side": side, "kind": infraction.value}
            for side in SIDES
            for infraction in INFRACTION_LABELS
            for _count in range(data.get(self.penalty_field(side, infraction)) or 0)
        ]
        if penalties:
            outcome["penalties"] = penalties
        if data.get("revoke"):
            outcome["revoke"] = data["revoke"]
        if data.get("wrong_bottom"):
            outcome["wrong_bottom"] = True
        if data.get("wrong_count"):
            outcome["wrong_count"] = data["wrong_count"]
        return outcome


class TractorDealForm(TractorDealFields):
    version = forms.IntegerField(min_value=0, max_value=column_max(Match, "version"), widget=forms.HiddenInput)
    idempotency_key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)


class TractorCorrectionForm(TractorDealFields):
    version = forms.IntegerField(min_value=0, max_value=column_max(Match, "version"), widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX)


THREE_SEATS = ("E", "S", "W")
WINNERS = (("landlord", _("Landlord (地主)")), ("farmers", _("Farmers (农民)")))


class DoudizhuDealFields(DealEntryFields):
    """One Dou Dizhu deal as the referee enters it."""

    landlord = forms.ChoiceField(label=_("Landlord (地主)"), choices=[(seat, seat) for seat in THREE_SEATS])
    bid = forms.TypedChoiceField(
        label=_("Bid (叫分)"), coerce=int, choices=[(n, str(n)) for n in range(1, MAX_BID + 1)], required=False
    )
    bombs = forms.IntegerField(label=_("Bombs and rockets (炸弹)"), min_value=0, max_value=MAX_BOMBS, required=False)
    spring = forms.BooleanField(label=_("Spring (春天) or counter-spring (反春)"), required=False)
    winner = forms.ChoiceField(label=_("Won by"), choices=WINNERS, required=False)
    cards_left_e = forms.IntegerField(label=_("E cards left"), min_value=0, max_value=LANDLORD_CARDS, required=False)
    cards_left_s = forms.IntegerField(label=_("S cards left"), min_value=0, max_value=LANDLORD_CARDS, required=False)
    cards_left_w = forms.IntegerField(label=_("W cards left"), min_value=0, max_value=LANDLORD_CARDS, required=False)

    FARMER_CARDS = FARMER_CARDS

    def __init__(self, *args: Any, next_deal: dict[str, Any] | None = None, **kwargs: Any) -> None:
        # the landlord whose turn it is (drawn by lot, then passed on in turn), chosen for the referee
        self.landlord_turn = (next_deal or {}).get("landlord") or ""
        if self.landlord_turn:
            kwargs["initial"] = {"landlord": self.landlord_turn, **(kwargs.get("initial") or {})}
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


@dataclass(frozen=True, slots=True)
class DealForms:
    """One game's deal forms."""

    fields: type[DealEntryFields]
    """The deal's fields alone: the entry previewed from the query string (no JavaScript needed)."""
    deal: type[DealEntryFields]
    """The deal's fields with the match version and an idempotency key: a new deal."""
    correction: type[DealEntryFields]
    """The deal's fields with the match version and a reason: a correction."""


DEAL_FORMS: dict[Game, DealForms] = {
    GUANDAN.game: DealForms(fields=GuandanDealFields, deal=DealForm, correction=CorrectionForm),
    TRACTOR.game: DealForms(fields=TractorDealFields, deal=TractorDealForm, correction=TractorCorrectionForm),
    DOUDIZHU.game: DealForms(fields=DoudizhuDealFields, deal=DoudizhuDealForm, correction=DoudizhuCorrectionForm),
}
"""The deal forms of each game (``tournament.games``), by its game."""
