"""Forms of the referee's pages: they validate shape only; the services and the rules core decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.matches.models import AdjustmentKind, Match
from tournament.matches.selectors import parse_taps, taps_complete
from tournament.matches.services import REASON_MAX


class OrderField(forms.CharField):
    """Seats by finishing place as tapped ("NES", "NS" for 双下); cleaned to a list of letters."""

    def clean(self, value: Any) -> list[str]:
        text = super().clean(value)
        taps = parse_taps(text)
        if not taps_complete(taps):
            raise forms.ValidationError(_("Tap the seats in finishing order."))
        return taps


class VersionForm(forms.Form):
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


class DealForm(VersionForm):
    order = OrderField(max_length=8, widget=forms.HiddenInput)
    idempotency_key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)


class ReasonForm(VersionForm):
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX)


class CorrectionForm(ReasonForm):
    order = OrderField(max_length=8, widget=forms.HiddenInput)


class UnlockForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX)


class AdjustmentForm(VersionForm):
    """A forfeit, late arrival, penalty or warning against one pair (RULES.md §7)."""

    BOTH = "both"

    kind = forms.ChoiceField(label=_("Kind"), choices=AdjustmentKind.choices)
    side = forms.ChoiceField(label=_("Pair"))
    absent_player = forms.TypedChoiceField(
        label=_("Absent player (forfeit)"), required=False, coerce=int, empty_value=None
    )
    minutes_late = forms.IntegerField(label=_("Minutes late"), required=False, min_value=0, max_value=600)
    levels = forms.IntegerField(label=_("Levels to the opponents"), required=False, min_value=0, max_value=12)
    points = forms.IntegerField(label=_("Points deducted"), required=False, min_value=0, max_value=99)
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        sides = [("NS", f"{_('N/S')}: {match.ns_pair}"), ("EW", f"{_('E/W')}: {match.ew_pair}")]
        self.fields["side"].choices = [*sides, (self.BOTH, _("Both pairs (forfeit)"))]
        players = [("", "—")]
        for pair in (match.ns_pair, match.ew_pair):
            if pair is not None:
                players += [(player.pk, f"{player.name} ({pair})") for player in pair.players.all()]
        self.fields["absent_player"].choices = players

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("side") == self.BOTH and data.get("kind") != AdjustmentKind.FORFEIT:
            self.add_error("side", _("Only a forfeit can be against both pairs."))
        return data

    def pair_ids(self) -> list[int]:
        side = self.cleaned_data["side"]
        match = self.match
        if side == self.BOTH:
            return [match.ns_pair_id, match.ew_pair_id]  # type: ignore[list-item]
        return [match.ns_pair_id if side == "NS" else match.ew_pair_id]  # type: ignore[list-item]


class RoundClockForm(forms.Form):
    """A round's cap (empty: the rules') and the warning before the end (RULES.md §2)."""

    time_cap_minutes = forms.IntegerField(
        label=_("Time cap (minutes)"),
        required=False,
        min_value=1,
        max_value=600,
        help_text=_("Empty: as the rules say"),
    )
    warning_minutes = forms.IntegerField(label=_("Warning before the end (minutes)"), min_value=0, max_value=120)
