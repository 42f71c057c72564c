"""Tribute checks (docs/rules.md §6; seeds 000, 002, 003)."""

from __future__ import annotations

import pytest

from scoring.cards import CardError, parse_cards
from scoring.cards_tribute import anti_tribute_check, return_check, tribute_check
from scoring.options import TributeVariant

# --- the tribute card: the payer's highest, heart level cards excluded -------------------------------


def test_big_joker_must_be_paid() -> None:
    assert tribute_check(card="BJ", hand="BJ,SJ,AS,3D", level=5).ok
    check = tribute_check(card="SJ", hand="BJ,SJ,AS,3D", level=5)
    assert not check.ok and "BJ" in check.reason and check.reason_zh


def test_heart_level_cards_are_excluded() -> None:
    hand = "5H,AS,KD,3C"
    assert tribute_check(card="AS", hand=hand, level=5).ok
    wild = tribute_check(card="5H", hand=hand, level=5)
    assert not wild.ok and "heart level card" in wild.reason


def test_level_cards_of_other_suits_rank_above_a() -> None:
    hand = "5S,AS,KD,5H"
    assert tribute_check(card="5S", hand=hand, level=5).ok
    assert not tribute_check(card="AS", hand=hand, level=5).ok


def test_any_suit_of_the_highest_rank_will_do() -> None:
    assert tribute_check(card="AD", hand="AS,AD,KD", level=9).ok
    assert tribute_check(card="AS", hand=parse_cards("AS,AD,KD"), level=9).ok


def test_tribute_card_must_be_in_the_hand() -> None:
    check = tribute_check(card="AC", hand="AS,AD,KD", level=9)
    assert not check.ok and "not in the hand" in check.reason


# --- the return card -------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(TributeVariant))
def test_return_of_ten_or_lower(variant: TributeVariant) -> None:
    hand = "TS,JD,3C,AS"
    assert return_check(card="TS", hand=hand, level=2, variant=variant).ok
    assert return_check(card="3C", hand=hand, level=2, variant=variant).ok
    assert not return_check(card="JD", hand=hand, level=2, variant=variant).ok


@pytest.mark.parametrize("variant", list(TributeVariant))
def test_level_card_is_not_a_ten_or_lower(variant: TributeVariant) -> None:
    """Level cards rank above A by points (牌点), so a 5 at level 5 is not a "≤ 10" card."""
    hand = "5S,3C,AS"
    check = return_check(card="5S", hand=hand, level=5, variant=variant)
    assert not check.ok and "level card" in check.reason
    assert not return_check(card="5H", hand="5H,3C", level=5, variant=variant).ok


def test_no_card_of_ten_or_lower_returns_the_smallest() -> None:
    hand = "JS,QD,AS,BJ"
    assert return_check(card="JS", hand=hand, level=2, variant=TributeVariant.STANDARD).ok
    check = return_check(card="QD", hand=hand, level=2, variant=TributeVariant.STANDARD)
    assert not check.ok and "smallest" in check.reason


def test_seed_000_only_binds_the_top_returner() -> None:
    hand = "TS,JD,3C"
    assert not return_check(card="JD", hand=hand, level=2, variant=TributeVariant.SEED_000).ok
    assert return_check(
        card="JD", hand=hand, level=2, variant=TributeVariant.SEED_000, returner_is_top=False
    ).ok
    assert not return_check(
        card="JD", hand=hand, level=2, variant=TributeVariant.STANDARD, returner_is_top=False
    ).ok


def test_variant_may_be_given_by_value() -> None:
    assert return_check(card="TS", hand="TS", level=2, variant="national_2017").ok  # type: ignore[arg-type]


def test_return_card_must_be_in_the_hand() -> None:
    assert not return_check(card="3S", hand="TS", level=2, variant=TributeVariant.STANDARD).ok


# --- anti-tribute ----------------------------------------------------------------------------------


def test_anti_tribute() -> None:
    assert anti_tribute_check(payer_hands=["BJ,BJ,3S"]).ok
    assert not anti_tribute_check(payer_hands=["BJ,SJ,SJ"]).ok
    assert anti_tribute_check(payer_hands=["BJ,3S", "BJ,4D"]).ok  # double-down: together (seeds 000, 002)
    assert not anti_tribute_check(payer_hands=["BJ,3S", "SJ,4D"]).ok
    assert anti_tribute_check(payer_hands=["BJ,BJ", "4D"]).to_json()["ok"] is True


def test_anti_tribute_needs_one_or_two_hands() -> None:
    for hands in ([], ["3S", "4S", "5S"]):
        with pytest.raises(CardError):
            anti_tribute_check(payer_hands=hands)


def test_bad_cards_in_a_hand() -> None:
    with pytest.raises(CardError) as err:
        tribute_check(card="AS", hand="AS,ZZ", level=2)
    assert err.value.code == "bad_card"
    with pytest.raises(CardError) as err:
        tribute_check(card="AS", hand="AS,AS,AS", level=2)
    assert err.value.code == "too_many_copies"
