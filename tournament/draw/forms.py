"""Draw forms validate shape only; the services hold the rules and raise the errors."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from tournament.audit import REASON_MAX
from tournament.bounds import INT_MAX, column_max
from tournament.draw.pairing import Referee
from tournament.form_fields import choice_field
from tournament.matches.models import Round, RoundEntry, Stage, StageFormat, Table
from tournament.matches.stage_options import BRACKET_FIXED, BRACKET_REDRAW
from tournament.people import person_name
from tournament.registration.forms import profile_choices
from tournament.registration.models import Tournament

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def stage_profile_choices(tournament: Tournament | None) -> list[tuple[str, StrOrPromise]]:
    """A stage's rule profiles: "the tournament's rules", then the profiles of the event's own game
    (a Guandan event is never offered a Tractor or Dou Dizhu profile)."""
    game = tournament.game if tournament is not None else None
    return [("", _("The tournament's rules")), *profile_choices(game)]


class StageForm(forms.Form):
    """A new stage of a pairs event: its formats are those of the event's entrant kind."""

    name = forms.CharField(label=_("Name"), max_length=80)
    format = forms.ChoiceField(label=_("Format"), choices=StageFormat.choices)
    rule_profile = forms.ChoiceField(label=_("Rule profile"), required=False)
    best_of = forms.IntegerField(
        label=_("Games per match (best of)"),
        min_value=3,
        max_value=9,
        required=False,
        help_text=_("Leave empty for the rules' format; 3 for a best-of-three final."),
    )
    department_rounds = forms.IntegerField(
        label=_("Keep departments apart in the first rounds"), min_value=0, max_value=99, initial=0
    )
    bracket = forms.ChoiceField(
        label=_("Knockout draw"),
        choices=[(BRACKET_REDRAW, _("Draw again every round")), (BRACKET_FIXED, _("Fixed bracket"))],
        initial=BRACKET_REDRAW,
        required=False,
    )
    seeding = forms.ChoiceField(
        label=_("Bracket seeding"),
        choices=[("seeds", _("By seeds")), ("random", _("At random"))],
        initial="seeds",
        required=False,
    )
    third_place = forms.BooleanField(label=_("Play a third-place match"), required=False)
    groups = forms.IntegerField(
        label=_("Round-robin groups"),
        min_value=1,
        max_value=64,
        required=False,
        help_text=_("Round robin only: pairs are dealt into this many groups (snake order by seed)."),
    )
    advance_count = forms.IntegerField(
        label=_("Pairs advancing to the next stage"),
        min_value=2,
        max_value=column_max(Stage, "advance_count"),
        required=False,
    )
    team_match = forms.BooleanField(
        label=_("Team matches, each at two tables"),
        required=False,
        help_text=_(
            "Each team plays with two of its pairs (its line-up) per round. A knockout of teams is drawn"
            " once on a fixed bracket; a round robin of teams in one group."
        ),
    )
    team_decider = forms.ChoiceField(
        label=_("A team match is won by"),
        choices=[
            ("tables", _("Tables won (level: small points)")),
            ("total", _("Small points of both tables")),
        ],
        initial="tables",
        required=False,
    )

    KNOCKOUT_FIELDS = ("bracket", "seeding", "third_place")
    TEAM_FIELDS = ("team_match", "team_decider")

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "rule_profile").choices = stage_profile_choices(tournament)
        if tournament is not None:
            formats = tournament.entrants.stage_formats
            choice_field(self, "format").choices = [(v, label) for v, label in StageFormat.choices if v in formats]

    def general_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name not in (*self.KNOCKOUT_FIELDS, *self.TEAM_FIELDS)]

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        given: dict[str, Any] = {"department_rounds": data["department_rounds"] or 0}
        if data["format"] == StageFormat.KNOCKOUT:
            given.update(
                bracket=data["bracket"] or BRACKET_REDRAW,
                seeding=data["seeding"] or "seeds",
                third_place=data["third_place"],
            )
        if data["team_match"]:
            given.update(team_match=True, team_decider=data["team_decider"] or "tables")
            # a knockout of teams is drawn once (the service fixes its bracket): the bracket menu,
            # left at its first choice, would otherwise refuse the team knockout the organiser asked for
            given.pop("bracket", None)
        if data["format"] == StageFormat.ROUND_ROBIN and data["groups"]:
            given["groups"] = data["groups"]
        overrides = {"format": "best_of", "games": data["best_of"]} if data["best_of"] else {}
        return {
            "name": data["name"],
            "format": data["format"],
            "rule_profile": data["rule_profile"],
            "rule_overrides": overrides,
            "options": given,
            "advance_count": data["advance_count"],
        }


class RoundDrawForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Random seed"),
        min_value=0,
        max_value=INT_MAX,
        required=False,
        help_text=_("Optional: the same seed and entrants give the same tables."),
    )
    allow_rematches = forms.BooleanField(label=_("Allow rematches if there is no other way"), required=False)


class SwapForm(forms.Form):
    """Two pairs of the round by their numbers (#12, as the draw lists them): a list of 5,000 pairs
    in two menus was megabytes of page and seconds to build."""

    first = forms.IntegerField(label=_("Pair number (#)"), min_value=1, max_value=INT_MAX)
    second = forms.IntegerField(label=_("Swap with pair number (#)"), min_value=1, max_value=INT_MAX)

    def __init__(self, *args: Any, round_: Round, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.round = round_
        for field in self.fields.values():
            field.widget.attrs["inputmode"] = "numeric"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        numbers = {number for number in (data.get("first"), data.get("second")) if number is not None}
        if numbers:
            seated = set(
                RoundEntry.objects.filter(round=self.round, pair_id__in=numbers).values_list("pair_id", flat=True)
            )
            for name in ("first", "second"):
                if data.get(name) is not None and data[name] not in seated:
                    self.add_error(name, _("This pair is not in this round."))
        return data


class MoveForm(forms.Form):
    """A match moved from its table to another, both by number (``match``, the match's id, is
    still taken from programs that post it)."""

    from_table = forms.IntegerField(
        label=_("Match at table"), min_value=1, max_value=column_max(Table, "number"), required=False
    )
    match = forms.IntegerField(min_value=1, max_value=INT_MAX, required=False, widget=forms.HiddenInput)
    table = forms.IntegerField(label=_("To table"), min_value=1, max_value=column_max(Table, "number"))

    def __init__(self, *args: Any, round_: Round, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.round = round_
        for name in ("from_table", "table"):
            self.fields[name].widget.attrs["inputmode"] = "numeric"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        matches = self.round.matches.all()
        if data.get("match") is not None:
            found = matches.filter(pk=data["match"]).values_list("pk", flat=True).first()
        elif data.get("from_table") is not None:
            found = matches.filter(table__number=data["from_table"]).values_list("pk", flat=True).first()
        else:
            found = None
        if found is None:
            self.add_error("from_table", _("No match of this round is at that table."))
        data["match"] = found
        return data


class AdvanceForm(forms.Form):
    """Top K into the next stage; up to three overrides (a pair leaves, another takes its seed)."""

    OVERRIDES = 3

    next_stage = forms.TypedChoiceField(label=_("Into stage"), coerce=int)
    count = forms.IntegerField(label=_("Pairs advancing"), min_value=2, max_value=column_max(Stage, "advance_count"))
    reason = forms.CharField(label=_("Reason for the changes"), max_length=100, required=False)

    def __init__(
        self,
        *args: Any,
        stages: list[tuple[int, str]],
        pairs: list[tuple[int, str]],
        advancing: StrOrPromise | None = None,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        choice_field(self, "next_stage").choices = stages
        if advancing is not None:  # the entrant kind's words: "Players advancing" at an event of individuals
            self.fields["count"].label = advancing
        choices = [("", "—"), *pairs]
        for k in range(1, self.OVERRIDES + 1):
            self.fields[f"out_{k}"] = forms.TypedChoiceField(
                label=_("Instead of"), choices=choices, coerce=int, required=False, empty_value=None
            )
            self.fields[f"in_{k}"] = forms.TypedChoiceField(
                label=_("advance"), choices=choices, coerce=int, required=False, empty_value=None
            )

    def override_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"out_{k}"], self[f"in_{k}"]) for k in range(1, self.OVERRIDES + 1)]

    def overrides(self) -> list[tuple[int, int]]:
        rows = []
        for k in range(1, self.OVERRIDES + 1):
            leaving, joining = self.cleaned_data.get(f"out_{k}"), self.cleaned_data.get(f"in_{k}")
            if leaving is not None and joining is not None:
                rows.append((leaving, joining))
        return rows


class RefereePlanForm(forms.Form):
    """Which referees work this round (with their area) and how many tables each may take."""

    tables_per_referee = forms.IntegerField(label=_("Tables per referee"), min_value=1, max_value=500)
    by_area = forms.BooleanField(label=_("Keep referees to their area"), required=False)
    replace = forms.BooleanField(label=_("Plan every table afresh"), required=False)

    def __init__(self, *args: Any, referees: list[User], initial_areas: dict[int, str], **kwargs: Any) -> None:
        """``initial_areas``: the referees chosen last time and their areas (none yet: everyone)."""
        super().__init__(*args, **kwargs)
        self.referee_users = referees
        for user in referees:
            self.fields[f"use_{user.pk}"] = forms.BooleanField(
                label=person_name(user),
                required=False,
                initial=user.pk in initial_areas or not initial_areas,
            )
            name = person_name(user)
            self.fields[f"area_{user.pk}"] = forms.CharField(
                label=_("Area"),
                max_length=40,
                required=False,
                initial=initial_areas.get(user.pk, ""),
                # the column heading says "Area"; the field itself says whose (its row has no <label>)
                widget=forms.TextInput(attrs={"aria-label": _("Area of %(referee)s") % {"referee": name}}),
            )

    def referee_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"use_{u.pk}"], self[f"area_{u.pk}"]) for u in self.referee_users]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.referees():
            raise forms.ValidationError(_("Choose at least one referee."))
        return data

    def referees(self) -> list[Referee]:
        data = self.cleaned_data
        return [
            Referee(id=u.pk, area=(data.get(f"area_{u.pk}") or "").strip() or None)
            for u in self.referee_users
            if data.get(f"use_{u.pk}")
        ]


class TableAreaForm(forms.Form):
    first = forms.IntegerField(label=_("From table"), min_value=1, max_value=column_max(Table, "number"))
    last = forms.IntegerField(label=_("Up to table"), min_value=1, max_value=column_max(Table, "number"))
    area = forms.CharField(label=_("Area"), max_length=40, required=False)


class TablesByHandForm(forms.Form):
    """Give one referee (or nobody) tables by hand: a range (one table: "from" only) or an area."""

    referee = forms.TypedChoiceField(label=_("Referee"), coerce=int, empty_value=None)
    first = forms.IntegerField(
        label=_("From table"), min_value=1, max_value=column_max(Table, "number"), required=False
    )
    last = forms.IntegerField(
        label=_("Up to table"), min_value=1, max_value=column_max(Table, "number"), required=False
    )
    area = forms.CharField(label=_("or area"), max_length=40, required=False)

    def __init__(self, *args: Any, referees: list[User], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.referee_users = {user.pk: user for user in referees}
        # "Nobody" is a choice of its own, not the default: a forgotten choice must not remove referees.
        choice_field(self, "referee").choices = [
            ("", _("— choose —")),
            (0, _("Nobody (remove the referee)")),
            *((user.pk, person_name(user)) for user in referees),
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        has_range = data.get("first") is not None
        has_area = bool((data.get("area") or "").strip())
        if has_range == has_area and not self.errors:
            raise forms.ValidationError(_("Give either a range of tables or an area."))
        if data.get("last") is not None and data.get("first") is None:
            self.add_error("first", _("Give the first table."))
        return data

    def referee_user(self) -> User | None:
        referee_id = self.cleaned_data.get("referee")
        return None if not referee_id else self.referee_users[referee_id]


class AdvancementFlagForm(forms.Form):
    """The organiser's answer to "advancement changed" (``advancement_flags.advancement_flag_resolve``)."""

    choice = forms.ChoiceField(
        label=_("What to do"),
        choices=[
            ("redraw", _("Advance the pairs again and draw the stage again (only before any result)")),
            ("keep", _("Keep the stage as drawn")),
        ],
        widget=forms.RadioSelect,
    )
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX)


ROUND_FLAG_CHOICES = [
    ("redraw", _("Draw the round again from the corrected standings (only before any result)")),
    ("keep", _("Keep the round as drawn")),
]


class RoundFlagForm(forms.Form):
    """The organiser's answer to a round drawn from standings a correction changed
    (``round_flags.round_flag_resolve``)."""

    choice = forms.ChoiceField(label=_("What to do"), choices=ROUND_FLAG_CHOICES, widget=forms.RadioSelect)
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX)

    def __init__(self, *args: Any, played: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if played:  # a round with results can only be kept (``round_flag_resolve`` refuses a redraw)
            choice_field(self, "choice").choices = [choice for choice in ROUND_FLAG_CHOICES if choice[0] == "keep"]
            self.fields["choice"].initial = "keep"
