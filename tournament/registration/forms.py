"""Forms validate shape only; the services hold the rules and raise field errors."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from enum import Enum
from typing import TYPE_CHECKING, Any

from django import forms
from django.forms.renderers import BaseRenderer
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from scoring.options import CardsLeftWinner, DealScoring, LandlordBy, LandlordRotation, TimeUpTie
from scoring.profiles import PROFILE_INFO, PROFILES
from tournament.bounds import column_max
from tournament.form_fields import choice_field, date_field
from tournament.games import EntrantKind, game_kind
from tournament.labels import profile_title, rule_option, rule_value
from tournament.parsing import int_or_none
from tournament.registration.lifecycle import time_zone_names
from tournament.registration.models import EVENT_TIME_ZONE, EntryMode, Game, Pair, ProvisionalResults, Team
from tournament.registration.services import PlayerData

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def profile_choices(game: str | None = None) -> list[tuple[str, str]]:
    """Each rule profile of ``game`` (else of every game this site runs events of: a Dou Dizhu profile
    exists in the rules core before its events do), named by its title and rulebook in the user's
    language (``labels.profile_title``), never by its code."""
    games = {game} if game is not None else set(Game.values)
    return [(name, profile_title(name)) for name in PROFILE_INFO if PROFILES[name].game.value in games]


class TournamentForm(forms.Form):
    """A new event: its game is chosen first (the page's game links, ``?game=``), then one of that
    game's rule profiles — a Tractor event is never offered a Guandan profile."""

    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(choices=Game.choices, widget=forms.HiddenInput)
    rule_profile = forms.ChoiceField(label=_("Rule profile"))
    venue = forms.CharField(label=_("Venue"), max_length=120, required=False)
    starts_on = date_field(label=_("Date"))

    def __init__(self, *args: Any, game: str = Game.GUANDAN, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game_chosen = game if game in Game.values else Game.GUANDAN
        self.fields["game"].initial = self.game_chosen
        choice_field(self, "rule_profile").choices = profile_choices(self.game_chosen)
        self.fields["rule_profile"].initial = game_kind(self.game_chosen).default_profile


PLAYER_PREFIXES = ("first", "second")
"""The prefixes of an entrant's players' fields, in order."""


class PairForm(forms.Form):
    first_name = forms.CharField(label=_("Player 1 name"), max_length=60)
    first_employee_number = forms.CharField(label=_("Player 1 employee number"), max_length=32, required=False)
    first_department = forms.CharField(label=_("Player 1 department"), max_length=80, required=False)
    first_phone = forms.CharField(label=_("Player 1 phone"), max_length=32, required=False)
    second_name = forms.CharField(label=_("Player 2 name"), max_length=60)
    second_employee_number = forms.CharField(label=_("Player 2 employee number"), max_length=32, required=False)
    second_department = forms.CharField(label=_("Player 2 department"), max_length=80, required=False)
    second_phone = forms.CharField(label=_("Player 2 phone"), max_length=32, required=False)
    seed = forms.IntegerField(label=_("Seed"), min_value=1, max_value=column_max(Pair, "seed"), required=False)

    def __init__(self, *args: Any, kind: EntrantKind, **kwargs: Any) -> None:
        """``kind``: the event's entrant kind: the form has the fields of its players
        (``EntrantKind.members``), labelled as it says (``EntrantKind.entry_labels``: an entrant of one
        player, in Dou Dizhu, without a number)."""
        super().__init__(*args, **kwargs)
        self.prefixes = PLAYER_PREFIXES[: kind.members]
        for name in [name for name in self.fields if name.split("_")[0] in PLAYER_PREFIXES[kind.members :]]:
            del self.fields[name]
        for key, label in kind.entry_labels.items():
            self.fields[f"first_{key}"].label = label

    def players(self) -> list[PlayerData]:
        """The entrant's players, in order."""
        return [self.player(prefix) for prefix in self.prefixes]

    def player(self, prefix: str) -> PlayerData:
        data = self.cleaned_data
        return PlayerData(
            name=data[f"{prefix}_name"],
            employee_number=data[f"{prefix}_employee_number"],
            department=data[f"{prefix}_department"],
            phone=data[f"{prefix}_phone"],
        )


COMMON_TIME_ZONES = (
    "Asia/Shanghai",
    "Asia/Hong_Kong",
    "Asia/Taipei",
    "Asia/Macau",
    "Asia/Singapore",
    "Asia/Kuala_Lumpur",
    "Asia/Tokyo",
    "Asia/Seoul",
    "Australia/Sydney",
    "Europe/London",
    "Europe/Berlin",
    "America/New_York",
    "America/Los_Angeles",
    "UTC",
)
"""The zones offered first, before every zone: the events' own (China's) first, then the places
nearby and the cities where such events are most often held abroad."""


@functools.lru_cache(maxsize=8)
def _time_zone_options(language: str) -> str:
    """The time zone select's options in ``language``: the common zones, then every zone the machine
    knows, none selected. The groups' names are in the page's language; the zones' IANA names are
    English place names (Asia/Shanghai) on a Chinese page too, marked so that a screen reader reads
    them as English. Built once per process and language: some 600 options through the widget's
    templates cost the settings page more than everything else on it."""
    common = [name for name in COMMON_TIME_ZONES if name in time_zone_names()]
    groups = ((_("Common time zones"), common), (_("Every time zone"), time_zone_names()))
    return "".join(
        format_html('<optgroup label="{}">', label)
        + "".join(format_html('<option value="{}" lang="en">{}</option>', name, name) for name in names)
        + "</optgroup>"
        for label, names in groups
    )


class TimeZoneSelect(forms.Select):
    """The event's time zone: the common zones first, then every zone, the event's selected (its first
    option, in the common group when it is a common zone). The options are a ready string
    (``_time_zone_options``); only the event's is marked here."""

    def render(
        self, name: str, value: object, attrs: Mapping[str, object] | None = None, renderer: BaseRenderer | None = None
    ) -> SafeString:
        options = _time_zone_options(translation.get_language() or "")
        for chosen in self.format_value(value)[:1]:
            option = format_html('<option value="{}" lang="en">', chosen)
            options = options.replace(option, option[:-1] + " selected>", 1)
        final = self.build_attrs(self.attrs, {"name": name, **(attrs or {})})
        # in the order Django's own template writes them (name first); True: the attribute alone
        written = "".join(
            format_html(" {}", key) if value is True else format_html(' {}="{}"', key, value)
            for key, value in final.items()
            if value is not False and value is not None
        )
        # the options were escaped as they were built (format_html)
        return format_html("<select{}>{}</select>", mark_safe(written), mark_safe(options))


class TimeZoneField(forms.ChoiceField):
    """A time zone by its IANA name (``Asia/Shanghai``: the name organisers and calendars recognise, in
    either language), one this machine knows (``lifecycle.time_zone_names``); anything else is an
    invalid choice. The field lists no choices of its own: its widget has them ready, and a form built
    for every request would otherwise copy and check some 600 of them each time."""

    widget = TimeZoneSelect

    def valid_value(self, value: object) -> bool:
        return value in time_zone_names()


class DepartmentForm(forms.Form):
    name = forms.CharField(label=_("Department"), max_length=80)


class RosterImportForm(forms.Form):
    file = forms.FileField(label=_("Roster workbook (.xlsx)"))


def _enum_choices(name: str, enum: type[Enum]) -> Callable[[], list[tuple[str, StrOrPromise]]]:
    """An option's values in words, after "as the profile says" (empty)."""
    return lambda: [("", _("as the profile says")), *[(item.value, rule_value(name, item.value)) for item in enum]]


def _whole(label: StrOrPromise, low: int, high: int, help_text: StrOrPromise = "") -> Callable[[], forms.Field]:
    help_text = help_text or _("Empty: as the profile says.")
    return lambda: forms.IntegerField(label=label, min_value=low, max_value=high, required=False, help_text=help_text)


def _choice(name: str, enum: type[Enum]) -> Callable[[], forms.Field]:
    return lambda: forms.ChoiceField(label=rule_option(name), choices=_enum_choices(name, enum), required=False)


OVERRIDE_FIELDS: dict[str, Callable[[], forms.Field]] = {
    "time_cap_minutes": _whole(_("Time cap (minutes)"), 1, 600),
    "a_failure_limit": _whole(
        _("A-failure limit"),
        1,
        20,
        _("Failed attempts at A before a side goes back to 2. Empty: as the profile says."),
    ),
    "time_up_tie": lambda: forms.ChoiceField(
        label=_("Equal levels at time-up"), choices=_enum_choices("time_up_tie", TimeUpTie), required=False
    ),
    "deals": _whole(_("Deals per table"), 1, 12, _("Seed 004: usually 3, 5 or 7. Empty: as the profile says.")),
    "deal_scoring": _choice("deal_scoring", DealScoring),
    "cards_left_winner": _choice("cards_left_winner", CardsLeftWinner),
    "base": _whole(_("Base stake"), 1, 1000),
    "multiple_cap": _whole(_("Multiple cap"), 1, 4096),
    "landlord_by": _choice("landlord_by", LandlordBy),
    "landlord_rotation": _choice("landlord_rotation", LandlordRotation),
    "bye_points": _whole(_("Points for a bye"), 0, 1000),
}
"""A form field for each rule option an event's page may set over its profile (the game says which:
``GameKind.event_overrides``); the rules core checks the values when the event is saved."""


class TournamentEditForm(forms.Form):
    """The event's details and, until the first draw, its rules (``lifecycle.tournament_update``).

    The overrides offered are the ones organisers change on the day; an empty field means "as the
    profile says" (other overrides the event already has are kept as they are)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    venue = forms.CharField(label=_("Venue"), max_length=120, required=False)
    starts_on = date_field(label=_("First day"))
    ends_on = date_field(label=_("Last day"))
    # Not a scoring rule: it changes how deadlines and sessions read, never when they are.
    time_zone = TimeZoneField(
        label=_("Time zone"),
        initial=EVENT_TIME_ZONE,
        required=False,  # not sent: unchanged
        help_text=_("Deadlines and scheduled sessions are read and shown in it."),
    )
    rule_profile = forms.ChoiceField(label=_("Rule profile"))
    provisional_results = forms.ChoiceField(
        label=_("Results awaiting sign-off"),
        choices=ProvisionalResults.choices,
        initial=ProvisionalResults.MARKED,
        required=False,  # not sent: unchanged
        help_text=_(
            "Standings, placings, prizes, the big screen, the API and the workbook follow this. "
            "A knockout moves on signed-off results only."
        ),
    )
    # Who enters the deals: not a scoring rule, so it stays editable after the draw.
    entry_mode = forms.ChoiceField(label=_("Who enters the deals"), choices=EntryMode.choices, required=False)
    auto_confirm_minutes = forms.IntegerField(
        label=_("A players' entry counts by itself after (minutes)"),
        min_value=1,
        max_value=120,
        required=False,
        help_text=_("Unless the other side disputes it. Empty: only a confirmation makes it count."),
    )

    def __init__(self, *args: Any, game: str, locked: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "rule_profile").choices = profile_choices(game)  # the event's game's profiles
        # the game's own overrides, placed after the profile (never another game's: a Dou Dizhu event
        # is not offered Guandan's A-failure limit)
        self.offered: tuple[str, ...] = game_kind(game).event_overrides
        fields = list(self.fields.items())
        at = [name for name, _field in fields].index("rule_profile") + 1
        self.fields = dict(fields[:at] + [(name, OVERRIDE_FIELDS[name]()) for name in self.offered] + fields[at:])
        self.locked = locked
        if locked:
            for field in ("rule_profile", *self.offered):
                self.fields[field].disabled = True

    def overrides(self, current: dict[str, object]) -> dict[str, object]:
        """The event's overrides with the ones of this form replaced (empty: removed)."""
        overrides = {key: value for key, value in current.items() if key not in self.offered}
        for key in self.offered:
            value = self.cleaned_data.get(key)
            if value not in (None, ""):
                overrides[key] = value
        return overrides


class ConfirmForm(forms.Form):
    """A destructive action asks for the event's name, typed (a tap alone is too easy on a phone)."""

    name = forms.CharField(label=_("Type the event's name to confirm"), max_length=120)


class AnnouncementForm(forms.Form):
    """An announcement's text (the service cleans and bounds it)."""

    text = forms.CharField(
        label=_("Announcement"), max_length=500, widget=forms.Textarea(attrs={"rows": 3, "maxlength": 500})
    )


class TeamForm(forms.Form):
    """A new team: its name and, optionally, its first members by their numbers ("1, 5 9")."""

    name = forms.CharField(label=_("Team name"), max_length=80)
    members = forms.CharField(
        label=_("Members (numbers)"),
        max_length=2000,
        required=False,
        help_text=_("The numbers shown on the entrants' list, separated by commas or spaces, e.g. 3, 12, 17."),
    )

    def numbers(self) -> list[int]:
        text = str(self.cleaned_data.get("members") or "")
        out: list[int] = []
        for word in text.replace("，", ",").replace("、", ",").replace(",", " ").split():
            digits = word.lstrip("#＃")
            number = int_or_none(digits, low=0, high=999_999_999)
            if number is None:
                raise forms.ValidationError(_("%(word)s is not a number.") % {"word": word})
            out.append(number)
        return out

    def clean_members(self) -> str:
        members = str(self.cleaned_data.get("members") or "")
        self.cleaned_data["members"] = members
        self.numbers()
        return members


class TeamSeedForm(forms.Form):
    """A team's seed (1 = the top seed), or empty for none."""

    seed = forms.IntegerField(label=_("Seed"), min_value=1, max_value=column_max(Team, "seed"), required=False)


class TeamMemberForm(forms.Form):
    """One entrant added to a team by its number, as a member or a substitute."""

    number = forms.IntegerField(label=_("Number (#)"), min_value=1, max_value=column_max(Pair, "number"))
    substitute = forms.BooleanField(label=_("Substitute"), required=False)
