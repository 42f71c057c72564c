"""The desk's entry form is the entrant kind's: its players' fields and their labels come from the kind
(``EntrantKind.members``, ``EntrantKind.entry_labels``), not from a test of the game."""

from __future__ import annotations

from django.utils import translation

from tournament.games import PAIRS, PLAYERS
from tournament.registration.forms import PairForm


def test_a_pair_is_entered_as_two_numbered_players() -> None:
    with translation.override("en"):
        form = PairForm(kind=PAIRS)
        assert form.prefixes == ("first", "second")
        assert (str(form.fields["first_name"].label), str(form.fields["second_name"].label)) == (
            "Player 1 name",
            "Player 2 name",
        )


def test_a_player_is_entered_alone_without_a_number() -> None:
    with translation.override("en"):
        form = PairForm(kind=PLAYERS)
        assert form.prefixes == ("first",) and not any(name.startswith("second_") for name in form.fields)
        labels = [str(form.fields[f"first_{key}"].label) for key in ("name", "employee_number", "department", "phone")]
        assert labels == ["Name", "Employee number", "Department", "Phone"]
