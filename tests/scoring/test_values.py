"""Small value types: seats, sides, levels, finishing orders (docs/rules.md §1; seed 003 §1)."""

from __future__ import annotations

import pytest

from scoring.errors import ErrorCode, ScoringError
from scoring.finishing_order import FinishingOrder
from scoring.levels import Level, level_label
from scoring.seats import Seat, Side, pair_json


def test_partners_sit_opposite_and_play_runs_counter_clockwise() -> None:
    """Seed 003 §1: E/W and S/N are partners; the opponent on your right is your 下家 (plays next)."""
    assert Seat.N.partner is Seat.S and Seat.E.partner is Seat.W
    assert [Seat.N.right_hand_opponent, Seat.W.right_hand_opponent] == [Seat.W, Seat.S]
    assert [Seat.S.right_hand_opponent, Seat.E.right_hand_opponent] == [Seat.E, Seat.N]
    assert all(seat.right_hand_opponent.left_hand_opponent is seat for seat in Seat)
    assert Seat.E.side is Side.EW and Side.NS.seats == (Seat.N, Seat.S) and Side.NS.other is Side.EW


def test_sides_are_indexes_and_json_names() -> None:
    levels = (5, 9)
    assert levels[Side.EW] == 9 and str(Side.EW) == "EW" and Side.EW.code == "EW"
    assert pair_json(levels) == {"NS": 5, "EW": 9}
    assert Side.parse("SN") is Side.NS and Seat.parse("W") is Seat.W
    assert repr(Side.NS) == "Side.NS" and repr(Seat.N) == "Seat.N"
    for bad in ("NE", 0, None):
        with pytest.raises(ScoringError):
            Side.parse(bad)
    with pytest.raises(ScoringError):
        Seat.parse("X")


def test_levels_are_2_to_14_shown_as_cards() -> None:
    """docs/rules.md §1: 2..10, J, Q, K, A encoded 2..14; a passed A counts 15 in standings."""
    assert [Level(n).label for n in (2, 10, 11, 12, 13, 14)] == ["2", "10", "J", "Q", "K", "A"]
    assert Level.parse("q") is Level.QUEEN and Level.parse(14) is Level.ACE and Level.parse("10") == 10
    assert repr(Level.ACE) == "Level(A)" and str(Level.JACK) == "J"
    assert level_label(15) == "A+" and level_label(9) == "9"
    for bad in (1, 15, "B", True, None):
        with pytest.raises(ScoringError):
            Level.parse(bad)


@pytest.mark.parametrize(
    ("given", "seats", "winner", "place"),
    [
        (["N", "E", "S", "W"], "N E S W", Side.NS, 3),
        (["N", "E", "S"], "N E S W", Side.NS, 3),
        (["E", "W"], "E W", Side.EW, 2),
        (["E", "W", "N", "S"], "E W", Side.EW, 2),
        (["W", "N", "S"], "W N S E", Side.EW, 4),
        ("S N", "S N", Side.NS, 2),
    ],
)
def test_finishing_orders(given: list[str] | str, seats: str, winner: Side, place: int) -> None:
    """2 seats only for partners (双下); with 3 seats the missing one is last; 4 must be all."""
    order = FinishingOrder.parse(given)
    assert str(order) == seats and order.winner is winner and order.partner_place == place
    assert repr(order) == f"FinishingOrder({seats!r})"
    assert FinishingOrder.parse(order.to_json()) is order  # interned


def test_double_down_places() -> None:
    order = FinishingOrder.parse(["N", "S"])
    assert order.double_down and order.last == (Seat.E, Seat.W)
    assert order.place_of(Seat.E) == 4 and order.place_of(Seat.S) == 2
    assert FinishingOrder.parse("N E S W").last == (Seat.W,)
    assert FinishingOrder.parse([Seat.N, Seat.S]) is order
    assert "上游" in order.describe_zh()


@pytest.mark.parametrize(
    ("given", "words"),
    [
        (["N", "X", "S"], "'X' is not a seat"),
        (["N", "n"], "'n' is not a seat"),
        (["N", "N", "S"], "Seat N appears twice"),
        (["N"], "got 1"),
        ([], "got 0"),
        (["N", "E"], "N and E are not partners"),
        (["N", "E", "S", "W", "N"], "appears twice"),
        (None, "list of seat letters"),
        (7, "list of seat letters"),
        ([["N"]], "is not a seat"),
    ],
)
def test_impossible_orders_are_invalid_order_errors(given: object, words: str) -> None:
    with pytest.raises(ScoringError) as caught:
        FinishingOrder.parse(given)  # type: ignore[arg-type]
    assert caught.value.code is ErrorCode.INVALID_ORDER
    assert words in caught.value.message and caught.value.message_zh


def test_errors_serialise() -> None:
    error = ScoringError("bad_input", "Nope.", 3, message_zh="不行。")
    assert error.to_json() == {"code": "bad_input", "message": "Nope.", "message_zh": "不行。", "deal": 3}
    assert repr(error) == "ScoringError('bad_input', 'Nope.', deal=3)"
    assert ScoringError("match_finished", "Done.").message_zh  # a generic Chinese sentence by default
