"""Readings docs/rules.md writes down where the rules core and the page used to disagree or the page was
silent: every option value is in the option index (``tribute_variant: seed_002`` was missing), "first to
reach" after a reset (§2), head-to-head counted once (§5) and who leads each deal of the six-deal format
(§3). Each test names the seed text the reading rests on."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import sys
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from scoring.cli import main
from scoring.finishing_order import FinishingOrder
from scoring.options import RuleOptions
from scoring.profiles import PROFILES
from scoring.seats import Seat
from scoring.tribute import tribute_for

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
TEXT = DOC.read_text(encoding="utf-8")


def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str, data: Any) -> Any:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(data)))
    main([command])
    return json.loads(capsys.readouterr().out)


def index_rows() -> dict[str, str]:
    """The option index's rows (both tables): option name → the row's text."""
    index = TEXT[TEXT.index("## Option index") :]
    return {match.group(1): match.group(0) for match in re.finditer(r"^\| `(\w+)` \|.*$", index, re.MULTILINE)}


ENUM_OPTIONS = [
    (field.name, type(getattr(RuleOptions(), field.name)))
    for field in dataclasses.fields(RuleOptions)
    if isinstance(getattr(RuleOptions(), field.name), Enum)
]


@pytest.mark.parametrize(("name", "kind"), ENUM_OPTIONS, ids=[name for name, _kind in ENUM_OPTIONS])
def test_the_option_index_lists_every_value_of_every_option(name: str, kind: type[Enum]) -> None:
    """docs/rules.md "Option index": ``tribute_variant: seed_002`` (seed 002 四(1) 赢家可以任选输家的牌) is in the
    profiles, so it is in the index — and so is every value of every option."""
    rows = index_rows()
    assert name in rows, f"{name} is not in the option index"
    for member in kind:
        assert f"`{member.value}`" in rows[name], f"{name}: {member.value} is not in the option index"


def test_every_option_is_in_the_index() -> None:
    assert {field.name for field in dataclasses.fields(RuleOptions)} <= set(index_rows())


def test_the_seed_002_tribute_has_its_row_and_its_profiles() -> None:
    """docs/rules.md §6: the seed_002 row, and the profiles that use it (seed 004's tribute text is seed
    002's word for word)."""
    section = TEXT[TEXT.index("## 6. Tribute") : TEXT.index("## 7. Penalties")]
    assert "| `seed_002` |" in section and "赢家可以任选输家的牌，输家也可以任选赢家所还牌" in section
    assert {name for name, options in PROFILES.items() if options.tribute_variant.value == "seed_002"} == {
        "timed-40",
        "points-6",
    }


def test_first_to_reach_after_a_reset_goes_to_the_side_that_never_won_a_deal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/rules.md §2 "First to reach, after a reset": seed 002 当时间到时双方打同一级数，先到本级的队伍获胜 read
    literally — E/W has been at 2 since the start, N/S got back to 2 at its third failed A (seed 003
    三次打不过从头开始打2)."""
    climb = [{"order": ["N", "S"]}] * 4  # 2 → 5 → 8 → J → A
    fail = [{"order": ["N", "E", "W", "S"]}] * 3  # 1-4 at its own A: three failures, back to 2
    data = {
        "profile": "classic",
        "rules": {"a_failure_limit": 3, "time_cap_minutes": 60},
        "time_called_during_deal": 7,
        "deals": climb + fail,
    }
    out = cli(capsys, monkeypatch, "replay", data)
    assert out["levels"] == {"NS": 2, "EW": 2} and out["deals"][-1]["reset"] is True
    assert (out["status"], out["winner"], out["reason"]) == ("finished", "EW", "first_to_reach")
    assert all(deal["winner"] == "NS" for deal in out["deals"])  # E/W never won a deal


def test_head_to_head_is_counted_once_not_again_inside_a_smaller_tie(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/rules.md §5 "Each tie-breaker is applied once": A beat B, but once head-to-head among A, B, C and
    D leaves A and B level, it is not counted again between the two; the next key (wins) decides, else
    they share."""

    def won(rnd: int, ns: str, ew: str) -> dict[str, Any]:
        return {"round": rnd, "NS": ns, "EW": ew, "winner": "NS", "levels": {"NS": 9, "EW": 5}}

    data = {
        "profile": "classic",
        "rules": {"tie_breakers": ["match_points", "head_to_head", "wins", "lots"]},
        "results": [
            won(1, "A", "B"),
            won(1, "C", "D"),
            {"round": 1, "NS": "E", "EW": "F", "winner": None, "levels": {"NS": 5, "EW": 5}},
            won(2, "C", "A"),
            won(2, "B", "D"),
            {"round": 2, "NS": "E", "EW": None, "bye": True},
            won(3, "D", "E"),
            won(3, "A", "F"),
            won(4, "D", "F"),
            won(4, "B", "E"),
        ],
    }
    rows = cli(capsys, monkeypatch, "standings", data)["rows"]
    top = [(row["rank"], row["entrant"], row["match_points"], row["head_to_head"], row["shared"]) for row in rows[:4]]
    assert top == [(1, "C", 4, 4, False), (2, "A", 4, 2, True), (2, "B", 4, 2, True), (4, "D", 4, 0, False)]


def test_the_six_deal_formats_later_deals_are_led_by_the_tribute() -> None:
    """docs/rules.md §3 "Who leads each of the six deals": seed 004 出牌规则 每局摸到翻牌的玩家先出牌 read with
    its tribute rules (seed 002's: 贡上游牌第一名的输家先出牌; seed 002 第一局，摸到翻牌的玩家先出牌。其它局出牌：
    进贡上游玩家的输家先出牌) — the turned card leads a match's first deal, the tribute every later one."""
    variant = PROFILES["points-6"].tribute_variant
    after_double_down = FinishingOrder.parse("E W")
    guidance = tribute_for(order=after_double_down, variant=variant, larger_tribute_from=Seat.S)
    assert guidance.leader is Seat.S  # the payer of the larger card, to 上游 E
    equal = tribute_for(order=after_double_down, variant=variant, equal_cards=True)
    assert equal.leader is None  # seed 002: the winners choose; whoever's card 上游 took leads
    anti = tribute_for(order=FinishingOrder.parse("N E S W"), variant=variant, anti_tribute=True)
    assert anti.leader is Seat.N  # 抗贡: 由第一名出牌
