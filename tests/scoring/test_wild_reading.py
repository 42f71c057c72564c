"""The default reading of wild cards (option ``wild_reading``, docs/rules.md §8): ``largest`` (seed 003) or
``stated_example`` (seed 000: ♥X+4567 reads 34567 unless 45678 is declared), in the rules core and
through ``python -m scoring cards`` with ``--profile`` / ``--wild-reading``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.cards import Card, Suit, classify
from scoring.cards_beats import beats
from scoring.cli import main
from scoring.options import WildReading
from scoring.profiles import PROFILES

STATED = WildReading.STATED_EXAMPLE


def default(cards: str, level: int, wild_reading: WildReading) -> tuple[str, str, int] | None:
    reading = classify(cards=cards, level=level, wild_reading=wild_reading).default
    return (reading.type.value, reading.label, reading.size) if reading is not None else None


def test_seed_000_stated_example() -> None:
    """Seed 000 三: X4567,相当于34567(或45678须出牌时说明) — at level 9, ♥9+4567 reads 34567."""
    assert default("9H,4S,5D,6C,7S", 9, STATED) == ("straight", "7", 5)
    assert default("9H,4S,5D,6C,7S", 9, WildReading.LARGEST) == ("straight", "8", 5)
    # X555 相当于 5555: one reading either way
    assert default("9H,5S,5D,5C", 9, STATED) == default("9H,5S,5D,5C", 9, WildReading.LARGEST) == ("bomb", "5", 4)


def test_stated_example_keeps_the_largest_type() -> None:
    """The wild card takes the lowest place of the best type: a wild straight flush stays a straight
    flush (the lower one), a full house takes the lower triple, a plate stays a plate."""
    assert default("9H,4H,5H,6H,7H", 9, STATED) == ("straight_flush", "7", 5)
    assert default("KS,KD,5H,2C,2D", 5, STATED) == ("full_house", "2", 5)
    assert default("3S,3D,4S,4D,5H,5H", 5, STATED) == ("plate", "4", 6)


def test_wild_cards_alone_read_as_themselves() -> None:
    """Two heart level cards alone are a pair of the level under either rule (seed 003: 逢人配和其他牌
    配合使用才能变化)."""
    assert default("5H,5H", 5, STATED) == ("pair", "5", 2)
    assert default("5H", 5, STATED) == ("single", "5", 1)


def test_beats_reads_the_previous_play_by_the_default() -> None:
    """Seed 000: an undeclared ♥9+4567 led before is 34567, so 45678 beats it; under seed 003's rule it
    is 45678 and 45678 does not."""
    previous, play = "9H,4S,5D,6C,7S", "4D,5S,6D,7C,8S"
    assert beats(play=play, previous=previous, level=9, wild_reading=STATED).beats
    assert not beats(play=play, previous=previous, level=9).beats
    declared = beats(play=play, previous=previous, level=9, wild_reading=STATED, previous_declared="straight:8")
    assert not declared.beats


def test_beats_tries_the_default_first_then_the_others() -> None:
    """Undeclared, the play is its default reading unless only another beats (a player may declare)."""
    verdict = beats(play="9H,4S,5D,6C,7S", previous="2S,3D,4C,5S,6D", level=9, wild_reading=STATED)
    assert verdict.beats and verdict.play.label == "7" and "not the default" not in verdict.reason
    higher = beats(play="9H,4S,5D,6C,7S", previous="3S,4D,5C,6S,7D", level=9, wild_reading=STATED)
    assert higher.beats and higher.play.label == "8" and "not the default" in higher.reason


def test_profiles_choose_their_rulebooks_reading() -> None:
    assert PROFILES["classic"].wild_reading is STATED  # seed 000
    assert PROFILES["timed-90"].wild_reading is WildReading.LARGEST  # seed 003
    assert PROFILES["timed-40"].wild_reading is WildReading.LARGEST


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    status = main(list(argv))
    return status, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("flags", "rank"),
    [
        ((), "8"),
        (("--profile", "classic"), "7"),
        (("--profile", "timed-90"), "8"),
        (("--wild-reading", "stated_example"), "7"),
        (("--profile", "classic", "--wild-reading", "largest"), "8"),  # the flag wins over the profile
        (("--profile", "timed-40", "--wild-reading", "stated_example"), "7"),
    ],
)
def test_cli_classify_default_follows_the_flags(
    capsys: pytest.CaptureFixture[str], flags: tuple[str, ...], rank: str
) -> None:
    status, out = run(capsys, "cards", "classify", *flags, "--level", "9", "9H,4S,5D,6C,7S")
    assert status == 0 and out["default"] == {"type": "straight", "rank": rank, "size": 5}
    assert [reading["rank"] for reading in out["readings"]] == ["8", "7"]  # always largest first


def test_cli_beats_follows_the_profile(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("cards", "beats", "--level", "9", "--play", "4D,5S,6D,7C,8S", "--previous", "9H,4S,5D,6C,7S")
    assert run(capsys, *argv)[1]["beats"] is False
    status, out = run(capsys, *argv, "--profile", "classic")
    assert status == 0 and out["beats"] is True and out["previous"]["rank"] == "7"


@pytest.mark.parametrize(
    ("flags", "code"),
    [
        (("--profile", "nope"), "unknown_profile"),
        (("--profile", "tractor-3deck"), "bad_input"),
        (("--wild-reading", "lowest"), "bad_input"),
    ],
)
def test_cli_bad_reading_flags_exit_2(capsys: pytest.CaptureFixture[str], flags: tuple[str, ...], code: str) -> None:
    status, out = run(capsys, "cards", "classify", *flags, "--level", "9", "9H,4S")
    assert status == 2 and out["error"]["code"] == code


RANKS = list(range(2, 15))


@given(st.sampled_from(RANKS), st.lists(st.sampled_from(RANKS), min_size=1, max_size=5), st.integers(0, 2))
def test_stated_default_is_a_reading_of_the_same_type_and_never_larger(
    level: int, ranks: list[int], wilds: int
) -> None:
    """For any set, the stated_example default is one of its readings, of the largest reading's type
    and size, and never above the largest."""
    suits = [Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS]
    cards = [Card(rank, suits[i % 3]) for i, rank in enumerate(ranks)] + [Card(level, Suit.HEARTS)] * wilds
    largest = classify(cards=cards, level=level)
    stated = classify(cards=cards, level=level, wild_reading=STATED)
    assert largest.readings == stated.readings
    if not largest.readings:
        assert stated.default is None
        return
    assert largest.default is not None and stated.default is not None
    assert stated.default in stated.readings
    assert (stated.default.type, stated.default.size) == (largest.default.type, largest.default.size)
    assert stated.default.order_key <= largest.default.order_key
    if wilds == 0:
        assert stated.default == largest.default  # natural cards have one default
