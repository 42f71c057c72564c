"""Table conduct (docs/rules.md §7 "Table conduct"): one text per profile in the rules core, Chinese first
with its English, naming the rulebook article of each rule; the profiles command prints it."""

from __future__ import annotations

import pytest

from scoring.cli import main
from scoring.conduct import TABLE_CONDUCT, table_conduct
from scoring.profiles import PROFILES, options_for


def text(profile: str) -> str:
    return " ".join(line.zh + " " + line.en for line in table_conduct(profile).lines)


def test_every_profile_has_its_conduct_text_chinese_first() -> None:
    assert set(TABLE_CONDUCT) == set(PROFILES)
    for name, conduct in TABLE_CONDUCT.items():
        assert conduct.profile == name and conduct.lines
        for line in conduct.lines:
            assert line.zh and line.en and line.source.startswith("seed ")
            assert any("\u4e00" <= char <= "\u9fff" for char in line.zh)


@pytest.mark.parametrize(
    ("profile", "words"),
    [
        # seed 002 五(2)b 每位玩家的出牌用时应控制在25秒以内; 临近截止时间…30秒以内; 五(5) 小于或等于7张时应主动通报
        ("timed-40", ["25秒", "30秒", "7张", "翻一张牌", "25 seconds", "30 seconds", "7 or fewer"]),
        # seed 003 3.1) 南家切牌并翻出一张牌; 3.3) 剩余牌不超过10张，应准确、清楚报出剩余张数
        ("timed-90", ["翻出一张牌", "10张", "10 or fewer"]),
        # seed 004 出牌规则 每局摸到翻牌的玩家先出牌 (docs/rules.md §3: the first deal; the tribute after); 报牌 7张
        ("points-6", ["翻牌", "7张", "进贡"]),
        # seed 001 九(五) 每次出牌时间不超过10秒
        ("tractor-3deck", ["10秒", "10 seconds", "下台"]),
        # seed 000 八 抽出一张牌，以抽出的牌点数确定第一个摸牌人
        ("classic", ["抽出一张牌"]),
        ("doudizhu", ["取消比赛资格", "逆时针"]),
    ],
)
def test_each_profiles_text_says_its_rulebooks_rules(profile: str, words: list[str]) -> None:
    for word in words:
        assert word in text(profile), f"{profile}: {word}"


def test_the_profiles_command_prints_each_profiles_conduct(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["profiles"]) == 0
    out = json.loads(capsys.readouterr().out)
    conduct = out["profiles"]["timed-40"]["conduct"]
    assert conduct["title_zh"] == "牌桌规范" and conduct["title_en"] == "Table conduct"
    assert conduct["lines"][0] == table_conduct("timed-40").lines[0].to_json()


def test_an_unknown_profile_has_no_lines() -> None:
    assert table_conduct("no-such-profile").lines == ()


def test_a_dou_dizhu_stage_drawing_its_landlords_by_lot_reads_the_drawn_landlord_not_the_bidding() -> None:
    """docs/rules.md §7 "Table conduct" and §10: seed 004 二 3 轮流坐庄 (每轮比赛开始前，通过抽签的方式确定每个桌子的
    地主座位) — a table whose landlord is drawn does not bid, so its conduct text says how the landlord is
    found instead of the bidding line; the other lines stay the profile's."""
    profile = table_conduct("doudizhu")
    assert "叫分" in profile.lines[0].zh
    assert table_conduct("doudizhu", options_for(profile="doudizhu")) == profile
    drawn = table_conduct("doudizhu", options_for(profile="doudizhu", overrides={"landlord_by": "lot"}))
    assert "轮流坐庄" in drawn.lines[0].zh and "counter-clockwise" in drawn.lines[0].en
    assert drawn.lines[1:] == profile.lines[1:]
    stored_before = options_for(profile="doudizhu", overrides={"landlord_by": "lot", "landlord_rotation": "none"})
    assert "抽签" in table_conduct("doudizhu", stored_before).lines[0].zh
    assert "轮流" not in table_conduct("doudizhu", stored_before).lines[0].zh
    assert table_conduct("timed-40", options_for(profile="timed-40")) == table_conduct("timed-40")
