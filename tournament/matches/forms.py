"""Forms of the referee's pages: they validate shape only; the services and the rules core decide. The
deal forms of every game are in ``deal_forms``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.audit import REASON_MAX
from tournament.bounds import column_max
from tournament.form_fields import choice_field
from tournament.matches.models import AdjustmentKind, Match


class VersionForm(forms.Form):
    version = forms.IntegerField(min_value=0, max_value=column_max(Match, "version"), widget=forms.HiddenInput)


class ReasonForm(VersionForm):
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX)


class UnlockForm(forms.Form):
    """The reason, and — when later rounds, stages or placings depend on the match — the
    acknowledgement that they were read (``match_unlock``'s ``dependents_seen``)."""

    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX)
    dependents_seen = forms.BooleanField(
        label=_("I have read what depends on this result"), required=False
    )

    def __init__(self, *args: Any, dependents: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if dependents:
            self.fields["dependents_seen"].required = True
        else:
            del self.fields["dependents_seen"]


def _sides(match: Match) -> list[tuple[str, str]]:
    return [("NS", f"{_('N/S')}: {match.ns_pair}"), ("EW", f"{_('E/W')}: {match.ew_pair}")]


def _side_pair_ids(match: Match, sides: tuple[str, ...]) -> list[int]:
    """The pairs at ``sides`` ("NS", "EW") of a match; a side without a pair (a bye's) has none."""
    at = {"NS": match.ns_pair_id, "EW": match.ew_pair_id}
    return [pair_id for pair_id in (at[side] for side in sides) if pair_id is not None]


class LateArrivalForm(VersionForm):
    """A pair's late arrival (docs/rules.md §7): one pair and its minutes; the rules' table decides what it
    costs. Both pairs late is two late arrivals (each its own band), never a "both pairs" forfeit."""

    kind = forms.CharField(widget=forms.HiddenInput, initial=AdjustmentKind.LATE_ARRIVAL)
    side = forms.ChoiceField(label=_("Pair"))
    minutes_late = forms.IntegerField(label=_("Minutes late"), min_value=0, max_value=600)
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        choice_field(self, "side").choices = _sides(match)

    def clean_kind(self) -> str:
        return AdjustmentKind.LATE_ARRIVAL

    def pair_ids(self) -> list[int]:
        return _side_pair_ids(self.match, (self.cleaned_data["side"],))


class AdjustmentForm(VersionForm):
    """A forfeit, penalty or warning against one pair, or a forfeit of both (docs/rules.md §7); a late
    arrival has its own form (:class:`LateArrivalForm`)."""

    BOTH = "both"

    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=[(value, label) for value, label in AdjustmentKind.choices if value != AdjustmentKind.LATE_ARRIVAL],
    )
    side = forms.ChoiceField(label=_("Pair"))
    absent_player = forms.TypedChoiceField(
        label=_("Absent player (forfeit)"), required=False, coerce=int, empty_value=None
    )
    levels = forms.IntegerField(label=_("Levels to the opponents"), required=False, min_value=0, max_value=12)
    points = forms.IntegerField(label=_("Points deducted"), required=False, min_value=0, max_value=99)
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        choice_field(self, "side").choices = [*_sides(match), (self.BOTH, _("Both pairs (forfeit)"))]
        players: list[tuple[int | str, str]] = [("", "—")]
        for pair in (match.ns_pair, match.ew_pair):
            if pair is not None:
                players += [(player.pk, f"{player.name} ({pair})") for player in pair.players.all()]
        choice_field(self, "absent_player").choices = players

    def clean(self) -> dict[str, Any]:
        super().clean()  # Django's: the cleaned data, kept on the form
        data = self.cleaned_data
        if data.get("side") == self.BOTH and data.get("kind") != AdjustmentKind.FORFEIT:
            self.add_error("side", _("Only a forfeit can be against both pairs."))
        return data

    def pair_ids(self) -> list[int]:
        side = self.cleaned_data["side"]
        return _side_pair_ids(self.match, ("NS", "EW") if side == self.BOTH else (side,))


class SeatAdjustmentForm(VersionForm):
    """A player at a seat of a three-seat table (docs/rules.md §10): late (its minutes decide what it
    costs, its band), a no-show, or a point penalty (docs/rules.md §7: points off that player)."""

    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=[
            (AdjustmentKind.LATE_ARRIVAL, _("Late arrival")),
            (AdjustmentKind.FORFEIT, _("No-show (forfeits the round)")),
            (AdjustmentKind.PENALTY, _("Point penalty")),
        ],
    )
    side = forms.ChoiceField(label=_("Player"))
    points = forms.IntegerField(label=_("Points deducted"), required=False, min_value=0, max_value=99)
    reason = forms.CharField(label=_("Reason"), max_length=200)
    minutes_late = forms.IntegerField(label=_("Minutes late"), required=False, min_value=0, max_value=600)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        self.seats = {row.seat: row.pair for row in match.seats.select_related("pair")}
        choice_field(self, "side").choices = [(seat, f"{seat}: {pair}") for seat, pair in sorted(self.seats.items())]

    def clean(self) -> dict[str, Any]:
        super().clean()  # Django's: the cleaned data, kept on the form
        data = self.cleaned_data
        penalty = data.get("kind") == AdjustmentKind.PENALTY
        if penalty and not data.get("points"):
            self.add_error("points", _("Give the points deducted."))
        data.update(absent_player=None, levels=0, points=(data.get("points") or 0) if penalty else 0)
        return data

    def pair_ids(self) -> list[int]:
        return [self.seats[self.cleaned_data["side"]].pk]


@dataclass(frozen=True, slots=True)
class AdjustmentForms:
    """The adjustment page's forms of an entrant kind: a late arrival's own form (None: the other form
    takes it) and the form of the rest."""

    late: type[LateArrivalForm] | None
    other: type[AdjustmentForm] | type[SeatAdjustmentForm]


ADJUSTMENT_FORMS: dict[str, AdjustmentForms] = {
    "pairs": AdjustmentForms(late=LateArrivalForm, other=AdjustmentForm),
    "players": AdjustmentForms(late=None, other=SeatAdjustmentForm),
}
"""The adjustment forms of each entrant kind (``tournament.games.entrants``), by its key."""


class RoundClockForm(forms.Form):
    """A round's cap (empty: the rules') and the warning before the end (docs/rules.md §2)."""

    time_cap_minutes = forms.IntegerField(
        label=_("Time cap (minutes)"),
        required=False,
        min_value=1,
        max_value=600,
        help_text=_("Empty: as the rules say"),
    )
    warning_minutes = forms.IntegerField(label=_("Warning before the end (minutes)"), min_value=0, max_value=120)


class ClockChangeForm(forms.Form):
    """The organiser's change of a running clock: what, by how many minutes, and why.

    ``minutes`` is needed for "extend" (minutes more), "cap" (the new cap) and "reopen" (the minutes a
    called round plays on; a round only); the services check
    it and the state the change needs, and refuse with a readable message.
    """

    ACTIONS = (
        ("pause", _("Pause")),
        ("resume", _("Resume")),
        ("extend", _("Extend")),
        ("cap", _("Change the cap")),
        ("call", _("Call time now")),
        ("reopen", _("Reopen the round")),
    )

    action = forms.ChoiceField(label=_("Change"), choices=ACTIONS)
    minutes = forms.IntegerField(label=_("Minutes"), required=False, min_value=1, max_value=240)
    reason = forms.CharField(label=_("Reason"), max_length=100)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("action") in ("extend", "cap", "reopen") and data.get("minutes") is None:
            self.add_error("minutes", _("Give the number of minutes."))
        return data


class RefereeForm(forms.Form):
    """A referee of the event, as the organiser types it (the service trims and checks)."""

    name = forms.CharField(label=_("Full name"), max_length=60)
    phone = forms.CharField(label=_("Phone"), max_length=30, required=False)
    employee_number = forms.CharField(label=_("Employee number"), max_length=30, required=False)
