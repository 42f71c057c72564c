"""Forms validate shape only; the services hold the rules and raise field errors."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.bounds import column_max
from tournament.locale import ui_is_chinese
from tournament.registration.models import Game, Pair
from tournament.registration.services import PlayerData


def profile_choices() -> list[tuple[str, str]]:
    """Each rule profile of a game this site runs events of, with the rulebook's own description, in
    the user's language (a Dou Dizhu profile exists in the rules core before its events do)."""
    from scoring.profiles import PROFILE_INFO, PROFILES

    chinese = ui_is_chinese()
    return [
        (name, f"{info.title_zh if chinese else info.title} ({name})")
        for name, info in PROFILE_INFO.items()
        if PROFILES[name].game.value in Game.values
    ]


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"), choices=Game.choices, initial=Game.GUANDAN)
    rule_profile = forms.ChoiceField(label=_("Rule profile"), choices=profile_choices, initial="timed-40")
    venue = forms.CharField(label=_("Venue"), max_length=120, required=False)
    starts_on = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )


class PairForm(forms.Form):
    first_name = forms.CharField(label=_("Player 1 name"), max_length=60)
    first_employee_number = forms.CharField(
        label=_("Player 1 employee number"), max_length=32, required=False
    )
    first_department = forms.CharField(label=_("Player 1 department"), max_length=80, required=False)
    first_phone = forms.CharField(label=_("Player 1 phone"), max_length=32, required=False)
    second_name = forms.CharField(label=_("Player 2 name"), max_length=60)
    second_employee_number = forms.CharField(
        label=_("Player 2 employee number"), max_length=32, required=False
    )
    second_department = forms.CharField(label=_("Player 2 department"), max_length=80, required=False)
    second_phone = forms.CharField(label=_("Player 2 phone"), max_length=32, required=False)
    seed = forms.IntegerField(label=_("Seed"), min_value=1, max_value=column_max(Pair, "seed"), required=False)

    def player(self, prefix: str) -> PlayerData:
        data = self.cleaned_data
        return PlayerData(
            name=data[f"{prefix}_name"],
            employee_number=data[f"{prefix}_employee_number"],
            department=data[f"{prefix}_department"],
            phone=data[f"{prefix}_phone"],
        )


class DepartmentForm(forms.Form):
    name = forms.CharField(label=_("Department"), max_length=80)


class RosterImportForm(forms.Form):
    file = forms.FileField(label=_("Roster workbook (.xlsx)"))
