"""Forms validate shape only; the services hold the rules."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.exports.models import ExportLanguage, PrizeTier
from tournament.exports.prizes import TierData
from tournament.matches.models import Stage


class ExportForm(forms.Form):
    language = forms.ChoiceField(
        label=_("Language of the sheets"), choices=ExportLanguage.choices, initial=ExportLanguage.ZH
    )


class PrizeTierForm(forms.Form):
    name = forms.CharField(label=_("Prize"), max_length=PrizeTier._meta.get_field("name").max_length, required=False)
    pair_count = forms.IntegerField(label=_("Pairs"), min_value=1, max_value=100000, required=False)

    def tier(self) -> TierData | None:
        """The tier typed in this row, or None for a row left empty."""
        name = self.cleaned_data.get("name") or ""
        count = self.cleaned_data.get("pair_count")
        if not name.strip() and count is None:
            return None
        return TierData(name=name, pair_count=count or 0)


PrizeTierFormSet = forms.formset_factory(PrizeTierForm, extra=3)


class TeamPrizeTierForm(PrizeTierForm):
    """A team prize (团体奖): a name and how many teams (kept in ``pair_count``, the tiers' one shape)."""

    pair_count = forms.IntegerField(label=_("Teams"), min_value=1, max_value=100000, required=False)


TeamPrizeTierFormSet = forms.formset_factory(TeamPrizeTierForm, extra=2)


class PrizeStageForm(forms.Form):
    stage = forms.ModelChoiceField(
        label=_("Ranking used for the prizes"),
        queryset=Stage.objects.none(),
        required=False,
        empty_label=_("The last stage"),
    )

    def __init__(self, *args: Any, tournament_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stage = self.fields["stage"]
        if isinstance(stage, forms.ModelChoiceField):  # always: declared above
            stage.queryset = Stage.objects.filter(tournament_id=tournament_id).order_by("order")
