"""Tribute guidance between deals (docs/rules.md §6; seeds 000 §5, 002 §4, 003 §3.5)."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.finishing_order import FinishingOrder
from scoring.options import TributeVariant
from scoring.seats import Seat
from scoring.tribute import Transfer, TributeKind, tribute_for

STANDARD = TributeVariant.STANDARD


def order(text: str) -> FinishingOrder:
    return FinishingOrder.parse(text)


def test_single_tribute_after_a_1_3_finish() -> None:
    """docs/rules.md §6: 下游 gives their highest card to 上游, who returns a card ≤ 10; the payer leads."""
    guidance = tribute_for(order=order("N E S W"), variant=STANDARD)
    assert guidance.kind is TributeKind.SINGLE
    assert guidance.tributes == (Transfer(Seat.W, Seat.N),)
    assert guidance.returns == (Transfer(Seat.N, Seat.W, 10),)
    assert guidance.leader is Seat.W
    assert "smallest" in guidance.note and "红心级牌除外" in guidance.note_zh


def test_single_tribute_after_a_1_4_finish_comes_from_the_partner() -> None:
    """The rule names places: after 1-4, 下游 is 上游's partner and still pays 上游."""
    guidance = tribute_for(order=order("N E W S"), variant=STANDARD)
    assert guidance.tributes == (Transfer(Seat.S, Seat.N),) and guidance.leader is Seat.S


def test_anti_tribute() -> None:
    """docs/rules.md §6 (seeds 000, 002): the paying side holds both big jokers — no tribute, 上游 leads."""
    guidance = tribute_for(order=order("E W"), variant=STANDARD, anti_tribute=True)
    assert guidance.kind is TributeKind.ANTI_TRIBUTE and guidance.tributes == () and guidance.leader is Seat.E


def test_double_tribute_with_the_larger_card_known() -> None:
    """docs/rules.md §6 (seed 002 §4): 上游 takes the larger card, 二游 the smaller; each returns to whoever
    paid them; the payer to 上游 leads."""
    guidance = tribute_for(order=order("N S"), variant=STANDARD, larger_tribute_from=Seat.W)
    assert guidance.tributes == (Transfer(Seat.W, Seat.N), Transfer(Seat.E, Seat.S))
    assert guidance.returns == (Transfer(Seat.N, Seat.W, 10), Transfer(Seat.S, Seat.E, 10))
    assert guidance.leader is Seat.W


def test_double_tribute_before_the_cards_are_compared() -> None:
    guidance = tribute_for(order=order("E W"), variant=STANDARD)
    assert guidance.kind is TributeKind.DOUBLE and guidance.leader is None
    assert {transfer.giver for transfer in guidance.tributes} == {Seat.N, Seat.S}
    assert all(transfer.receiver is None for transfer in guidance.tributes)
    assert guidance.to_json()["leader"] is None


def test_equal_cards_go_clockwise() -> None:
    """Seed 003 §3.5 (贡左还右): each payer gives to the opponent on their left (上家) and receives the
    return from the right; the payer to 上游 leads."""
    guidance = tribute_for(order=order("N S"), variant=STANDARD, equal_cards=True)
    assert guidance.tributes == (Transfer(Seat.W, Seat.N), Transfer(Seat.E, Seat.S))
    assert all(t.receiver is t.giver.left_hand_opponent for t in guidance.tributes)
    assert guidance.leader is Seat.W


def test_equal_cards_seed_000_go_counter_clockwise_and_uppers_left_neighbour_leads() -> None:
    """Seed 000 §5: 按照逆时针方向进贡 … 由上游的上家先出牌; only 上游's return must be ≤ 10."""
    guidance = tribute_for(order=order("N S"), variant=TributeVariant.SEED_000, equal_cards=True)
    assert guidance.tributes == (Transfer(Seat.E, Seat.N), Transfer(Seat.W, Seat.S))
    assert guidance.leader is Seat.N.left_hand_opponent is Seat.E
    assert guidance.returns == (Transfer(Seat.N, Seat.E, 10), Transfer(Seat.S, Seat.W, None))


def test_national_2017_larger_card_payer_leads() -> None:
    guidance = tribute_for(
        order=order("S N"), variant=TributeVariant.NATIONAL_2017, larger_tribute_from=Seat.E
    )
    assert guidance.leader is Seat.E and guidance.returns[1].max_rank == 10
    single = tribute_for(order=order("S E N W"), variant=TributeVariant.NATIONAL_2017)
    assert "smallest" not in single.note


def test_bad_comparisons() -> None:
    with pytest.raises(ScoringError, match="only applies to a double tribute"):
        tribute_for(order=order("N E S"), variant=STANDARD, equal_cards=True)
    with pytest.raises(ScoringError, match="did not pay tribute"):
        tribute_for(order=order("N S"), variant=STANDARD, larger_tribute_from=Seat.S)
    with pytest.raises(ScoringError, match="not both"):
        tribute_for(order=order("N S"), variant=STANDARD, larger_tribute_from=Seat.E, equal_cards=True)


def test_guidance_json() -> None:
    out = tribute_for(order=order("N E S W"), variant=STANDARD).to_json()
    assert out["kind"] == "single" and out["leader"] == "W"
    assert out["tributes"] == [{"from": "W", "to": "N", "max_rank": None}]
    assert out["returns"] == [{"from": "N", "to": "W", "max_rank": 10}]
    assert repr(Transfer(Seat.N, Seat.W, 10)) == "Transfer(N→W (≤10))"


def test_seed_002_equal_double_tribute_lets_the_winners_choose() -> None:
    """Seed 002 四(1) (docs/rules.md §6): 若输家两人贡牌大小一样，则赢家可以任选输家的牌，输家也可以任选赢家所还牌
    — no seating rule: receivers and returns are chosen at the table, returns ≤ 10, the payer to 上游
    leads."""
    guidance = tribute_for(order=order("N S"), variant=TributeVariant.SEED_002, equal_cards=True)
    assert guidance.kind is TributeKind.DOUBLE and guidance.leader is None
    assert guidance.tributes == (Transfer(Seat.E, None), Transfer(Seat.W, None))
    assert guidance.returns == (Transfer(Seat.N, None, 10), Transfer(Seat.S, None, 10))
    assert "choose" in guidance.note and "任选" in guidance.note_zh
    standard = tribute_for(order=order("N S"), variant=STANDARD, equal_cards=True)
    assert standard.leader is not None and all(t.receiver is not None for t in standard.tributes)


def test_seed_002_is_standard_outside_equal_double_tributes() -> None:
    """Unequal double tribute and single tribute read as docs/rules.md §6's standard text (seed 002 四)."""
    for kwargs in ({"larger_tribute_from": Seat.W}, {}):
        assert tribute_for(order=order("N S"), variant=TributeVariant.SEED_002, **kwargs) == tribute_for(
            order=order("N S"), variant=STANDARD, **kwargs
        )
    assert tribute_for(order=order("N E S W"), variant=TributeVariant.SEED_002) == tribute_for(
        order=order("N E S W"), variant=STANDARD
    )


def test_seed_002_profiles_use_it() -> None:
    """timed-40 follows seed 002; points-6 follows seed 004, whose 进贡规则 are seed 002's word for word."""
    from scoring.profiles import PROFILES

    assert PROFILES["timed-40"].tribute_variant is TributeVariant.SEED_002
    assert PROFILES["points-6"].tribute_variant is TributeVariant.SEED_002


@pytest.mark.parametrize(
    "kwargs",
    [
        {"order": "N E S W"},
        {"order": "E W", "anti_tribute": True},
        {"order": "N S", "larger_tribute_from": Seat.W},
        {"order": "E W"},
        {"order": "N S", "equal_cards": True},
        {"order": "N S", "equal_cards": True, "variant": TributeVariant.SEED_002},
    ],
)
def test_the_chinese_notes_name_seats_in_chinese(kwargs) -> None:  # type: ignore[no-untyped-def]
    """A Chinese page says 北/东/南/西, not N/E/S/W; the English note keeps the letters."""
    options = {"variant": STANDARD, **kwargs, "order": order(kwargs["order"])}
    guidance = tribute_for(**options)
    assert not any(letter in guidance.note_zh for letter in "NESW")
    assert any(seat in guidance.note_zh for seat in "北东南西")
    assert any(letter in guidance.note for letter in "NESW")
