"""A Dou Dizhu deal in words names its seats in the page's language: 东/南/西 on a Chinese page (never
"E 地主 · 剩余牌数 E 0 S 9 W 7"), E/S/W on an English one (docs/rules.md §10)."""

from __future__ import annotations

from django.utils import translation

from scoring.doudizhu_snapshot import TableDealSnapshot
from tournament.deal_texts import doudizhu_outcome_text, doudizhu_record_text

CARDS_LEFT = {"landlord": "E", "cards_left": {"E": 0, "S": 9, "W": 7}}
STAKE = {"landlord": "S", "bid": 3, "bombs": 1, "winner": "landlord"}
RECORD = TableDealSnapshot(
    number=1, landlord="S", winner="landlord", multiple=6, stake=6, points=(-6, 12, -6), points_after=(-6, 12, -6)
)


def test_chinese_pages_name_the_seats_in_chinese():
    with translation.override("zh-hans"):
        assert doudizhu_outcome_text(CARDS_LEFT) == "东 地主 · 剩余牌数 东 0 南 9 西 7"
        assert doudizhu_outcome_text(STAKE).startswith("南 地主 · ")
        record = doudizhu_record_text(RECORD)
        assert "东 -6 南 +12 西 -6" in record and "E " not in record


def test_english_pages_keep_the_letters():
    with translation.override("en"):
        assert doudizhu_outcome_text(CARDS_LEFT) == "E landlord · cards left E 0 S 9 W 7"
        assert "E -6 S +12 W -6" in doudizhu_record_text(RECORD)
