"""The Django choices that stand for a rules-core enum take their values from it: one definition
of the games, the sides and the three seats (the choices add only the labels)."""

from __future__ import annotations

import pytest

from scoring.options import Game as CoreGame
from scoring.seats import Side as CoreSide
from scoring.three_seats import ThreeSeat as CoreThreeSeat
from tournament.matches.models import Side, ThreeSeat
from tournament.registration.models import Game


@pytest.mark.parametrize(
    ("choices", "core_values"),
    [
        (Game, [game.value for game in CoreGame]),
        (Side, [side.code for side in CoreSide]),
        (ThreeSeat, [seat.value for seat in CoreThreeSeat]),
    ],
)
def test_every_core_member_is_a_choice_and_nothing_else(choices, core_values):
    assert list(choices.values) == core_values
    assert all(choice == value for choice, value in zip(choices, core_values, strict=True))
