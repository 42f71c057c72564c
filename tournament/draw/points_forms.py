"""The organiser's form for a Dou Dizhu points stage (docs/rules.md §10): rounds, cuts, final table.

Shape only: ``tournament.draw.three_seats.points_stage_options`` and ``stage_create`` hold the rules.
Cuts are typed as the organiser says them: "1:18, 2:9" (after round 1 keep 18, after round 2 keep 9).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.bounds import column_max
from tournament.draw.forms import stage_profile_choices
from tournament.draw.three_seats import MAX_ROUNDS
from tournament.form_fields import choice_field
from tournament.matches.models import Stage, StageFormat
from tournament.parsing import int_or_none
from tournament.registration.models import Tournament


class PointsStageForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    rule_profile = forms.ChoiceField(label=_("Rule profile"), required=False)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=MAX_ROUNDS, initial=3)
    cuts = forms.CharField(
        label=_("Cuts"),
        max_length=100,
        required=False,
        help_text=_('After which rounds the lowest are eliminated, as "round:players kept": e.g. "1:18, 2:9".'),
    )
    final = forms.BooleanField(
        label=_("Final table (ranked by its own points, then by the stage before)"), required=False
    )
    advance_count = forms.IntegerField(
        label=_("Players advancing to the next stage"),
        min_value=2,
        max_value=column_max(Stage, "advance_count"),
        required=False,
    )

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "rule_profile").choices = stage_profile_choices(tournament)

    def clean_cuts(self) -> list[dict[str, int]]:
        text = (self.cleaned_data.get("cuts") or "").replace("，", ",").replace("：", ":")
        cuts = []
        for part in filter(None, (piece.strip() for piece in text.split(","))):
            after_text, _sep, keep_text = part.partition(":")
            after, keep = int_or_none(after_text.strip(), low=0), int_or_none(keep_text.strip(), low=0)
            if after is None or keep is None:
                raise forms.ValidationError(_('Write each cut as "round:players kept", e.g. "1:18".'))
            cuts.append({"after_round": after, "keep": keep})
        return cuts

    def general_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields]

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        given: dict[str, Any] = {"rounds": data["rounds"], "cuts": data["cuts"]}
        if data["final"]:
            given["final"] = True
        return {
            "name": data["name"],
            "format": StageFormat.POINTS,
            "rule_profile": data["rule_profile"],
            "rule_overrides": {},
            "options": given,
            "advance_count": data["advance_count"],
        }
