"""Card notation, classification and "beats": every example of docs/rules.md §8 and seeds 000/002/003,
the worked examples (tests/data/cards.json), all ten types at several levels."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from scoring.cards import (
    BIG_JOKER,
    SMALL_JOKER,
    Card,
    CardError,
    Classification,
    PlayType,
    Reading,
    Suit,
    classify,
    format_cards,
    parse_cards,
    parse_declaration,
    parse_level,
    reading_beats,
)
from scoring.cards_beats import beats

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "cards.json").read_text("utf-8")
)


def readings(cards: str, level: int) -> list[tuple[str, str, int]]:
    return [(r.type.value, r.label, r.size) for r in classify(cards=cards, level=level).readings]


def does_beat(play: str, previous: str, level: int, **declared: str) -> bool:
    return beats(play=play, previous=previous, level=level, **declared).beats


# --- the shared vectors ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", VECTORS["classify"], ids=lambda c: f"{c['cards']}@{c['level']}")
def test_vector_classify(case: dict[str, Any]) -> None:
    got = classify(cards=case["cards"], level=case["level"])
    assert [[r.type.value, r.label, r.size] for r in got.readings] == case["readings"]
    expected_default = case["readings"][0] if case["readings"] else None
    as_json = got.to_json()
    assert as_json["default"] == (
        dict(zip(("type", "rank", "size"), expected_default, strict=True)) if expected_default else None
    )


@pytest.mark.parametrize("case", VECTORS["beats"], ids=lambda c: f"{c['play']}>{c['previous']}@{c['level']}")
def test_vector_beats(case: dict[str, Any]) -> None:
    assert does_beat(case["play"], case["previous"], case["level"]) is case["beats"]


# --- notation -------------------------------------------------------------------------------------


def test_card_notation_and_repr() -> None:
    assert Card.parse("KS") == Card(13, Suit.SPADES)
    assert Card.parse("10h") == Card.parse("TH") == Card(10, Suit.HEARTS)
    assert repr(Card.parse("10H")) == "Card('TH')"
    assert repr(Card.parse("KS")) == "Card('KS')"
    assert Card.parse("SJ") == Card(SMALL_JOKER) and str(Card(BIG_JOKER)) == "BJ"
    assert Card.parse(" 2d ").suit is Suit.DIAMONDS
    assert format_cards(parse_cards("KS, 10D  sj")) == "KS,TD,SJ"


def test_reading_and_classification_repr() -> None:
    got = classify(cards="KS,KD,5H,2C,2D", level=5)
    assert repr(got.readings[0]) == "Reading(full_house K ×5)"
    assert (
        repr(got)
        == "Classification(KS,KD,5H,2C,2D @ 5: [Reading(full_house K ×5), Reading(full_house 2 ×5)])"
    )


@pytest.mark.parametrize(
    "text, token", [("KS,XX", "XX"), ("1S", "1S"), ("KX", "KX"), ("KS,QS,11D", "11D"), ("J", "J")]
)
def test_bad_card_names_the_token(text: str, token: str) -> None:
    with pytest.raises(CardError) as err:
        parse_cards(text)
    assert err.value.code == "bad_card"
    assert repr(token) in err.value.message and repr(token) in err.value.message_zh


def test_no_cards_is_bad_card() -> None:
    for text in ("", " , "):
        with pytest.raises(CardError) as err:
            parse_cards(text)
        assert err.value.code == "bad_card"
    with pytest.raises(CardError, match="No cards"):
        classify(cards=[], level=2)


@pytest.mark.parametrize("text", ["KS,KS,KS", "SJ,SJ,SJ", "BJ,BJ,BJ,SJ", "TS,10S,TS", "5H,5H,5H"])
def test_more_than_two_decks_is_too_many_copies(text: str) -> None:
    with pytest.raises(CardError) as err:
        parse_cards(text)
    assert err.value.code == "too_many_copies"
    assert err.value.message_zh
    with pytest.raises(CardError):
        classify(cards=[Card.parse(t) for t in text.split(",")], level=5)


def test_two_decks_allow_two_of_each_and_four_jokers() -> None:
    assert len(parse_cards("KS,KS,SJ,SJ,BJ,BJ")) == 6


def test_bad_card_objects_are_refused() -> None:
    with pytest.raises(CardError):
        Card(15, Suit.SPADES)
    with pytest.raises(CardError):
        Card(SMALL_JOKER, Suit.HEARTS)
    with pytest.raises(CardError):
        Card(10)


def test_levels() -> None:
    assert [parse_level(x) for x in ("2", "10", "T", "j", "A", " k ")] == [2, 10, 10, 11, 14, 13]
    assert parse_level(7) == 7
    for bad in ("1", "15", "X", "", 0, 15):
        with pytest.raises(CardError) as err:
            parse_level(bad)
        assert err.value.code == "bad_level"
    with pytest.raises(CardError):
        classify(cards="KS", level=1)


# --- rank order (docs/rules.md §8) ---------------------------------------------------------------------


@pytest.mark.parametrize("level", [2, 7, 10, 13, 14])
def test_single_rank_order(level: int) -> None:
    """Big joker > small joker > level card > A > K > … > 3 > 2 (the level card out of its place)."""
    faces = [r for r in range(2, 15) if r != level]
    order = [*faces, level, SMALL_JOKER, BIG_JOKER]
    singles = [Card(rank, Suit.SPADES) if rank < SMALL_JOKER else Card(rank) for rank in order]
    for low, high in itertools.pairwise(singles):
        assert does_beat(str(high), str(low), level), (high, low)
        assert not does_beat(str(low), str(high), level), (low, high)


def test_equal_singles_do_not_beat() -> None:
    assert not does_beat("KS", "KD", 5)
    assert not does_beat("5S", "5D", 5)


# --- all ten types at several levels --------------------------------------------------------------

TYPE_EXAMPLES = [
    ("9S", ("single", "9", 1)),
    ("SJ", ("single", "SJ", 1)),
    ("9S,9D", ("pair", "9", 2)),
    ("SJ,SJ", ("pair", "SJ", 2)),
    ("BJ,BJ", ("pair", "BJ", 2)),
    ("9S,9D,9C", ("triple", "9", 3)),
    ("9S,9D,9C,4S,4D", ("full_house", "9", 5)),
    ("3S,3D,3C,SJ,SJ", ("full_house", "3", 5)),
    ("6S,7D,8C,9S,TD", ("straight", "10", 5)),
    ("9S,9D,TC,TS,JD,JC", ("tube", "J", 6)),
    ("9S,9D,9C,TS,TD,TC", ("plate", "10", 6)),
    ("9S,9D,9C,9S", ("bomb", "9", 4)),
    ("6S,7S,8S,9S,TS", ("straight_flush", "10", 5)),
    ("SJ,BJ,SJ,BJ", ("four_jokers", "BJ", 4)),
]


@pytest.mark.parametrize("level", [2, 5, 11, 14])
@pytest.mark.parametrize("cards, expected", TYPE_EXAMPLES)
def test_every_type_at_several_levels(cards: str, expected: tuple[str, str, int], level: int) -> None:
    """Spades, diamonds and clubs only, so no card is wild: exactly one reading at every level."""
    assert readings(cards, level) == [expected]


def test_all_ten_types_are_covered() -> None:
    assert {expected[0] for _, expected in TYPE_EXAMPLES} == {t.value for t in PlayType}


@pytest.mark.parametrize(
    "cards",
    [
        "9S,TD",
        "SJ,BJ",
        "9S,9D,TC",
        "9S,9D,9C,TS",
        "9S,9D,9C,TS,JD",
        "3S,4D,5C,6S,8D",
        "3S,3D,4C,4S",
        "3S,3D,4C,4S,5D,5C,6S,6D",
        "JS,JD,JC,QS,QD,QC,KS,KD,KC",
        "6S,7S,8S,9S,TS,JS",
        "3S,3D,3C,4S,4D,4C,5S,5D,5C",
        "9S,9D,9C,SJ,BJ",
        "SJ,SJ,BJ",
        "SJ,SJ,BJ,BJ,9S",
    ],
)
def test_not_a_play(cards: str) -> None:
    got = classify(cards=cards, level=2)
    assert got.readings == () and got.default is None
    assert got.to_json() == {"readings": [], "default": None}


# --- sequences: A low and high, no wrap-around, the level card in its natural place -----------------


@pytest.mark.parametrize(
    "cards, expected",
    [
        ("AS,2D,3C,4S,5D", ("straight", "5", 5)),
        ("TS,JD,QC,KS,AD", ("straight", "A", 5)),
        ("AS,AD,2C,2S,3D,3C", ("tube", "3", 6)),
        ("QS,QD,KC,KS,AD,AC", ("tube", "A", 6)),
        ("AS,AD,AC,2S,2D,2C", ("plate", "2", 6)),
        ("KS,KD,KC,AS,AD,AC", ("plate", "A", 6)),
        ("AS,2S,3S,4S,5S", ("straight_flush", "5", 5)),
        ("TD,JD,QD,KD,AD", ("straight_flush", "A", 5)),
    ],
)
def test_ace_low_and_high(cards: str, expected: tuple[str, str, int]) -> None:
    assert readings(cards, 9) == [expected]


@pytest.mark.parametrize(
    "cards",
    [
        "JS,QD,KC,AS,2D",
        "QS,KD,AC,2S,3D",
        "KS,AD,2C,3S,4D",
        "KS,KD,AC,AS,2D,2C",
        "KS,KD,KC,AS,AD,AC,2S,2D,2C",
        "JS,QS,KS,AS,2S",
    ],
)
def test_no_wrap_around(cards: str) -> None:
    assert readings(cards, 9) == []


def test_sequence_ends_are_lowest_and_highest() -> None:
    assert does_beat("6S,7D,8C,9S,TD", "AS,2D,3C,4S,5D", 9)
    assert not does_beat("AS,2D,3C,4S,5D", "6S,7D,8C,9S,TD", 9)
    assert does_beat("TS,JD,QC,KS,AD", "9S,TD,JC,QS,KD", 9)
    assert does_beat("QS,QD,KC,KS,AD,AC", "JS,JD,QC,QS,KD,KC", 9)
    assert not does_beat("AS,AD,2C,2S,3D,3C", "2S,2D,3C,3S,4D,4C", 9)
    assert does_beat("KS,KD,KC,AS,AD,AC", "QS,QD,QC,KS,KD,KC", 9)
    assert not does_beat("AS,AD,AC,2S,2D,2C", "2S,2D,2C,3S,3D,3C", 9)


def test_level_card_in_its_natural_place_in_sequences() -> None:
    """At level 7 the 7 is above A as a single, but 5-6-7-8-9 is a straight to 9, below 10-J-Q-K-A."""
    assert readings("5S,6D,7C,8S,9D", 7) == [("straight", "9", 5)]
    assert does_beat("TS,JD,QC,KS,AD", "7S,8D,9C,TS,JD", 7)
    assert readings("6S,6D,7C,7S,8D,8C", 7) == [("tube", "8", 6)]
    assert readings("7S,7D,7C,8S,8D,8C", 7) == [("plate", "8", 6)]
    assert does_beat("7S,7D", "AS,AD", 7)


def test_two_and_four_consecutive_pairs_are_not_tubes() -> None:
    """Seed 000: 3344 and AA223344 are not tubes; JJJQQQKKKAAA is not a plate."""
    for cards in ("3S,3D,4S,4D", "AS,AD,2S,2D,3S,3D,4S,4D", "JS,JD,QS,QD"):
        assert readings(cards, 9) == []
    assert readings("JS,JD,JC,QS,QD,QC,KS,KD,KC,AS,AD,AC", 9) == []


def test_non_bombs_only_beat_the_same_type() -> None:
    assert not does_beat("9S,9D,9C", "3S,3D", 5)
    assert not does_beat("9S,9D,9C,TS,TD,TC", "3S,3D,4S,4D,5C,5D", 6)
    assert not does_beat("6S,7D,8C,9S,TD", "3S,3D,3C,4S,4D", 5)
    assert does_beat("4S,4D,4C,2S,2D", "3S,3D,3C,AS,AD", 5)  # full house compares the triple only


# --- jokers and wild cards --------------------------------------------------------------------------


def test_joker_pairs() -> None:
    assert readings("SJ,BJ", 5) == []
    assert does_beat("BJ,BJ", "SJ,SJ", 5)
    assert does_beat("SJ,SJ", "5S,5D", 5)
    assert not does_beat("SJ,SJ", "BJ,BJ", 5)


def test_wild_cards_never_stand_for_jokers() -> None:
    for cards in ("SJ,5H", "BJ,5H", "SJ,SJ,BJ,5H", "SJ,BJ,5H,5H", "SJ,SJ,5H", "BJ,BJ,5H"):
        assert readings(cards, 5) == [], cards


def test_full_house_with_a_joker_pair_and_wilds() -> None:
    assert readings("3S,3D,5H,SJ,SJ", 5) == [("full_house", "3", 5)]
    assert readings("3S,5H,5H,BJ,BJ", 5) == [("full_house", "3", 5)]
    assert readings("3S,3D,5H,SJ,BJ", 5) == []


def test_lone_wild_is_just_a_level_card() -> None:
    """Seed 003 §2.2: 作单牌时只能算级牌."""
    assert readings("5H", 5) == [("single", "5", 1)]
    assert does_beat("5H", "AS", 5)
    assert not does_beat("5H", "SJ", 5)
    with pytest.raises(CardError) as err:
        beats(play="5H", previous="2S", level=5, declared="single:3")
    assert err.value.code == "bad_declaration"


def test_two_wilds_alone_are_a_pair_of_any_rank_level_first() -> None:
    got = readings("5H,5H", 5)
    assert got[0] == ("pair", "5", 2)
    assert [label for _, label, _ in got] == [
        "5",
        "A",
        "K",
        "Q",
        "J",
        "10",
        "9",
        "8",
        "7",
        "6",
        "4",
        "3",
        "2",
    ]


def test_heart_non_level_cards_are_not_wild() -> None:
    assert readings("KH,QS", 5) == []
    assert readings("KH,KS", 5) == [("pair", "K", 2)]


# --- seed 003's wild card examples (level 5) and seed 000's ------------------------------------------


def test_seed_003_examples() -> None:
    assert readings("JS,5H", 5) == [("pair", "J", 2)]
    assert readings("KS,KD,5H,2C,2D", 5) == [("full_house", "K", 5), ("full_house", "2", 5)]
    assert readings("8S,8D,8C,5H,QS", 5) == [("full_house", "8", 5)]
    assert readings("7H,8H,5H,TH,JH", 5) == [("straight_flush", "J", 5), ("straight", "J", 5)]
    assert readings("3S,3D,5H,5H", 5) == [("bomb", "3", 4)]


def test_seed_003_declared_smaller_full_house() -> None:
    """K+K+♥5+2+2 defaults to KKK22 but may be declared KK222."""
    assert does_beat("KS,KD,5H,2C,2D", "QS,QD,QC,3S,3D", 5)
    assert not does_beat("KS,KD,5H,2C,2D", "QS,QD,QC,3S,3D", 5, declared="full_house:2")
    verdict = beats(
        play="3S,3D,3C,4S,4D", previous="KS,KD,5H,2C,2D", level=5, previous_declared="full_house:2"
    )
    assert verdict.beats and verdict.previous.label == "2"
    assert not does_beat("3S,3D,3C,4S,4D", "KS,KD,5H,2C,2D", 5)


def test_seed_000_examples() -> None:
    """X555 is 5555; X4567 is 34567 or 45678 (the default is the largest, docs/rules.md §8 / seed 003)."""
    assert readings("9H,5S,5D,5C", 9) == [("bomb", "5", 4)]
    assert readings("9H,4S,5D,6C,7S", 9) == [("straight", "8", 5), ("straight", "7", 5)]
    verdict = beats(play="9H,4S,5D,6C,7S", previous="2S,3D,4C,5S,6D", level=9, declared="straight:7")
    assert verdict.beats and verdict.play.label == "7"


def test_straight_flush_with_a_wild_may_be_declared_a_straight() -> None:
    play = "7H,8H,5H,TH,JH"
    assert does_beat(play, "6S,7D,8C,9S,TD", 5)
    verdict = beats(play=play, previous="6S,7D,8C,9S,TD", level=5, declared="straight")
    assert verdict.beats and verdict.play.type is PlayType.STRAIGHT
    assert not does_beat(play, "8S,8D,8C,8H,8S,8D", 5)
    assert not does_beat(play, "8D,9D,TD,JD,QD", 5)


def test_natural_straight_flush_is_only_a_straight_flush() -> None:
    assert readings("7H,8H,9H,TH,JH", 5) == [("straight_flush", "J", 5)]
    with pytest.raises(CardError) as err:
        beats(play="7H,8H,9H,TH,JH", previous="6S,7D,8C,9S,TD", level=5, declared="straight:J")
    assert err.value.code == "bad_declaration"
    assert readings("3H,4H,5H,6H,7H", 2) == [("straight_flush", "7", 5)]


def test_wild_in_its_own_place_in_a_straight_flush() -> None:
    """The ♥5 standing for itself makes a heart straight flush; standing for ♠5 a straight."""
    assert readings("3H,4H,5H,6H,7H", 5) == [("straight_flush", "7", 5), ("straight", "7", 5)]


def test_plate_or_tube_from_the_same_set() -> None:
    """Only plates and tubes share a set among non-bomb types; the plate is listed first."""
    assert readings("3S,3D,4S,4D,5H,5H", 5) == [("plate", "4", 6), ("tube", "5", 6), ("tube", "4", 6)]
    verdict = beats(play="3S,3D,4S,4D,5H,5H", previous="2S,2D,3C,3H,4C,4H", level=5)
    assert verdict.beats and verdict.play == Reading(PlayType.TUBE, 5, 6, 5)
    assert "not the default" in verdict.reason


# --- bombs, straight flushes, four jokers -----------------------------------------------------------


@pytest.mark.parametrize("size", range(4, 11))
def test_bombs_of_4_to_10_cards(size: int) -> None:
    naturals = ["8S", "8S", "8D", "8D", "8C", "8C", "8H", "8H"]
    cards = [*naturals[: min(size, 8)], *["2H"] * (size - min(size, 8))]
    assert readings(",".join(cards), 2) == [("bomb", "8", size)]


def test_bombs_compare_by_count_then_rank_level_above_a() -> None:
    assert does_beat("5S,5D,5C,5S", "AS,AD,AC,AS", 5)
    assert not does_beat("AS,AD,AC,AS", "5S,5D,5C,5S", 5)
    assert does_beat("3S,3D,3C,3H,3S", "5S,5D,5C,5C", 5)  # count first
    assert does_beat("2S,2D,2C,2H,2S", "AS,AD,AC,AS", 9)
    assert not does_beat("KS,KD,KC,KH", "AS,AD,AC,AH", 9)
    assert does_beat("9S,9D,9C,9S", "AS,AD,AC,AH", 9)  # level bomb above an A bomb of the same size
    assert does_beat("9S,9D,9C,9S,9H", "AS,AD,AC,AH,AS", 9)


def test_straight_flush_against_bombs() -> None:
    flush = "6D,7D,8D,9D,TD"
    assert does_beat(flush, "AS,AD,AC,AH,AS", 9)  # beats bombs of 4–5
    assert does_beat(flush, "9S,9D,9C,9S", 9)
    assert does_beat("3S,3D,3C,3H,3S,3D", flush, 9)  # bombs of 6+ beat it
    assert not does_beat(flush, "3S,3D,3C,3H,3S,3D", 9)
    assert does_beat("7C,8C,9C,TC,JC", flush, 9)
    assert not does_beat("AC,2C,3C,4C,5C", flush, 9)
    assert does_beat(flush, "AS,AD,AC,KS,KD", 9)


def test_four_jokers_beat_everything() -> None:
    jokers = "SJ,SJ,BJ,BJ"
    for other in ("8S,8S,8D,8D,8C,8C,2H,2H,8H,8H", "TD,JD,QD,KD,AD", "BJ", "3S,4D,5C,6S,7D"):
        assert does_beat(jokers, other, 2)
        assert not does_beat(other, jokers, 2)
    assert not does_beat(jokers, jokers, 2)


def test_bombs_beat_every_non_bomb_type() -> None:
    for other in (
        "BJ",
        "BJ,BJ",
        "AS,AD,AC",
        "AS,AD,AC,KS,KD",
        "TS,JD,QC,KS,AD",
        "QS,QD,KC,KS,AD,AC",
        "KS,KD,KC,AS,AD,AC",
    ):
        assert does_beat("2S,2D,2C,2S", other, 9)
        assert does_beat("AC,2C,3C,4C,5C", other, 9)
        assert not does_beat(other, "2S,2D,2C,2S", 9)


# --- beats: the API -----------------------------------------------------------------------------------


def test_verdict_json_and_reasons() -> None:
    verdict = beats(play="KS,5H", previous="QS,QD", level=5)
    assert verdict.to_json() == {
        "beats": True,
        "play": {"type": "pair", "rank": "K", "size": 2},
        "previous": {"type": "pair", "rank": "Q", "size": 2},
        "reason": "pair of K beats pair of Q: same type, higher rank.",
    }
    assert "对子K" in verdict.reason_zh
    assert verdict.play_readings == (Reading(PlayType.PAIR, 13, 2, 5),)
    lost = beats(play="KS,KD,5H,2C,2D", previous="AS,AD,AC,3S,3D", level=5)
    assert not lost.beats and lost.play.label == "K" and "No other reading" in lost.reason
    assert "level card" in beats(play="5S", previous="AS", level=5).reason


@pytest.mark.parametrize(
    "play, previous",
    [("KS,QS", "QS,QD"), ("QS,QD", "KS,QS"), ("SJ,BJ", "3S"), ("3S", "5H,SJ")],
)
def test_beats_refuses_a_set_with_no_reading(play: str, previous: str) -> None:
    with pytest.raises(CardError) as err:
        beats(play=play, previous=previous, level=5)
    assert err.value.code == "not_a_play"
    assert err.value.message_zh


def test_declarations() -> None:
    assert parse_declaration("straight:10") == (PlayType.STRAIGHT, 10)
    assert parse_declaration(" Straight : t ") == (PlayType.STRAIGHT, 10)
    assert parse_declaration("full-house:K") == (PlayType.FULL_HOUSE, 13)
    assert parse_declaration("三带二:K") == (PlayType.FULL_HOUSE, 13)
    assert parse_declaration("pair:sj") == (PlayType.PAIR, SMALL_JOKER)
    assert parse_declaration("four_jokers") == (PlayType.FOUR_JOKERS, None)
    for bad in ("foo:K", "pair:Z", "", ":K", "pair:1"):
        with pytest.raises(CardError) as err:
            parse_declaration(bad)
        assert err.value.code == "bad_declaration"


def test_declared_reading_must_exist() -> None:
    got = classify(cards="KS,KD,5H,2C,2D", level=5)
    assert got.reading("full_house:2").label == "2"
    assert got.reading(Reading(PlayType.FULL_HOUSE, 2, 5, 5)).label == "2"
    for bad in ("full_house:Q", "bomb:K", "straight"):
        with pytest.raises(CardError) as err:
            got.reading(bad)
        assert err.value.code == "bad_declaration"
        assert "full_house:K, full_house:2" in err.value.message


def test_declared_reading_that_does_not_beat() -> None:
    verdict = beats(play="3S,3D,4S,4D,5H,5H", previous="2S,2D,3C,3H,4C,4H", level=5, declared="plate:4")
    assert not verdict.beats and verdict.play.type is PlayType.PLATE
    assert "same type" in verdict.reason


def test_reading_beats_is_the_rule_table() -> None:
    level = 5
    bomb4, bomb5 = Reading(PlayType.BOMB, 14, 4, level), Reading(PlayType.BOMB, 2, 5, level)
    bomb6 = Reading(PlayType.BOMB, 2, 6, level)
    flush = Reading(PlayType.STRAIGHT_FLUSH, 5, 5, level)
    jokers = Reading(PlayType.FOUR_JOKERS, BIG_JOKER, 4, level)
    single = Reading(PlayType.SINGLE, BIG_JOKER, 1, level)
    chain = [single, bomb4, bomb5, flush, bomb6, jokers]
    for i, low in enumerate(chain):
        for high in chain[i + 1 :]:
            assert reading_beats(high, low) and not reading_beats(low, high), (high, low)


def test_classification_is_a_frozen_value() -> None:
    got = classify(cards="KS,KD", level=5)
    assert isinstance(got, Classification)
    with pytest.raises(AttributeError):
        got.level = 6  # type: ignore[misc]
    assert classify(cards=[Card(13, Suit.SPADES), Card(13, Suit.DIAMONDS)], level=5) == got
