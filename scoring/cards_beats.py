"""Guandan card combinations: "does this play beat that one?", with the reason in words.

The referee's dispute assistant of docs/rules.md §8 (seeds 000, 002, 003): :func:`beats` reads both
sets with :func:`scoring.cards.classify` and compares the readings (:func:`scoring.cards.reading_beats`).
Notation and readings live in :mod:`scoring.cards`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from scoring.cards import (
    RANK_LABELS,
    Card,
    CardError,
    PlayType,
    Reading,
    _check_level,
    classify,
    format_cards,
    reading_beats,
)
from scoring.options import WildReading

__all__ = ["Verdict", "beats"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to "does this play beat that one?", with the readings used and the reason."""

    beats: bool
    play: Reading
    previous: Reading
    reason: str
    reason_zh: str
    play_readings: tuple[Reading, ...]
    previous_readings: tuple[Reading, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "beats": self.beats,
            "play": self.play.to_json(),
            "previous": self.previous.to_json(),
            "reason": self.reason,
        }

    def __repr__(self) -> str:
        verb = "beats" if self.beats else "does not beat"
        return f"Verdict({self.play!r} {verb} {self.previous!r})"


def beats(
    *,
    play: str | Iterable[Card],
    previous: str | Iterable[Card],
    level: int,
    declared: str | Reading | None = None,
    previous_declared: str | Reading | None = None,
    wild_reading: WildReading = WildReading.LARGEST,
) -> Verdict:
    """Whether ``play`` beats ``previous`` at ``level`` (docs/rules.md §8), with the reason in words.

    The previous play is read as declared, else by its default reading (``wild_reading``: the largest,
    or seed 000's stated example). The play is read as declared; undeclared, its default reading is
    tried first, then the others largest first, and the first that beats is used (a player may declare
    any reading, seed 003), else the verdict is "no" with the default reading. Raises ``not_a_play``
    when either set has no reading and ``bad_declaration`` when a declared reading is not one of the
    set's readings.
    """
    level = _check_level(level)
    play_set = classify(cards=play, level=level, wild_reading=wild_reading)
    previous_set = classify(cards=previous, level=level, wild_reading=wild_reading)
    for name, name_zh, classification in (
        ("play", "所出的牌", play_set),
        ("previous play", "上家的牌", previous_set),
    ):
        if not classification.readings:
            cards_text = format_cards(classification.cards)
            raise CardError(
                "not_a_play",
                f"The {name} {cards_text} is not a legal combination at level {RANK_LABELS[level]}.",
                f"{name_zh} {cards_text} 在打{RANK_LABELS[level]}时不是合法牌型。",
            )
    previous_default = previous_set.default
    assert previous_default is not None  # checked above: the set has readings
    previous_reading = previous_set.reading(previous_declared) if previous_declared is not None else previous_default
    candidates = (play_set.reading(declared),) if declared is not None else play_set.ordered
    for reading in candidates:
        if reading_beats(reading, previous_reading):
            reason, reason_zh = _reason(reading, previous_reading)
            if reading != candidates[0]:
                reason += f" (read as {reading.describe()}, not the default {candidates[0].describe()})"
                reason_zh += f"（按{reading.describe_zh()}，而非默认的{candidates[0].describe_zh()}）"
            return Verdict(True, reading, previous_reading, reason, reason_zh, play_set.readings, previous_set.readings)
    used = candidates[0]
    reason, reason_zh = _reason(used, previous_reading)
    if len(candidates) > 1:
        reason += " No other reading of the play beats it either."
        reason_zh += "其他配法也压不住。"
    return Verdict(False, used, previous_reading, reason, reason_zh, play_set.readings, previous_set.readings)


def _reason(play: Reading, previous: Reading) -> tuple[str, str]:
    """Why ``play`` does or does not beat ``previous``, in English and Chinese (docs/rules.md §8)."""
    a, b = play.describe(), previous.describe()
    a_zh, b_zh = play.describe_zh(), previous.describe_zh()
    won = reading_beats(play, previous)
    verb, verb_zh = ("beats", "压") if won else ("does not beat", "压不住")
    head, head_zh = f"{a} {verb} {b}", f"{a_zh}{verb_zh}{b_zh}"
    if play.type is PlayType.FOUR_JOKERS:
        return f"{head}: four jokers beat everything else.", f"{head_zh}：四大天王最大。"
    if previous.type is PlayType.FOUR_JOKERS:
        return f"{head}: nothing beats four jokers.", f"{head_zh}：四大天王最大，无牌可压。"
    if play.is_bomb_class and previous.is_bomb_class:
        return _bomb_reason(play, previous, head, head_zh)
    if play.is_bomb_class:
        return (
            f"{head}: a {play.type.words} beats every non-bomb play.",
            f"{head_zh}：{play.type.name_zh}可压所有非炸弹牌型。",
        )
    if previous.is_bomb_class:
        return (
            f"{head}: only a bomb, a straight flush or four jokers beats a {previous.type.words}.",
            f"{head_zh}：只有炸弹、同花顺或四大天王能压{previous.type.name_zh}。",
        )
    if play.type is not previous.type:
        return (
            f"{head}: outside bombs, a play only beats the same type ({play.type.words} against "
            f"{previous.type.words}).",
            f"{head_zh}：牌型不同（{play.type.name_zh}对{previous.type.name_zh}），不能相压。",
        )
    compared = " (a full house compares its triple only)" if play.type is PlayType.FULL_HOUSE else ""
    compared_zh = "（三带二只比三张）" if play.type is PlayType.FULL_HOUSE else ""
    if play.value > previous.value:
        return f"{head}: same type, higher rank{compared}.", f"{head_zh}：同牌型，点数大{compared_zh}。"
    if play.value == previous.value:
        return f"{head}: same type, same rank{compared}.", f"{head_zh}：同牌型，点数相同{compared_zh}。"
    return f"{head}: same type, lower rank{compared}.", f"{head_zh}：同牌型，点数小{compared_zh}。"


def _bomb_reason(play: Reading, previous: Reading, head: str, head_zh: str) -> tuple[str, str]:
    """Bombs against bombs and straight flushes (docs/rules.md §8; seed 003 §2.3)."""
    if play.type is PlayType.STRAIGHT_FLUSH and previous.type is PlayType.STRAIGHT_FLUSH:
        return f"{head}: straight flushes compare by their top card.", f"{head_zh}：同花顺比最大的一张。"
    if play.type is PlayType.BOMB and previous.type is PlayType.BOMB:
        if play.size != previous.size:
            return f"{head}: a bomb with more cards is bigger.", f"{head_zh}：炸弹张数多者大。"
        return (
            f"{head}: bombs of the same size compare by rank (a level bomb is above an A bomb).",
            f"{head_zh}：张数相同的炸弹比点数（级牌炸弹大于A炸弹）。",
        )
    bomb = play if play.type is PlayType.BOMB else previous
    if bomb.size >= 6:
        return (
            f"{head}: a bomb of 6 or more cards beats a straight flush.",
            f"{head_zh}：六张及以上的炸弹可压同花顺。",
        )
    return (
        f"{head}: a straight flush beats a bomb of 4 or 5 cards.",
        f"{head_zh}：同花顺可压五张及以下的炸弹。",
    )
