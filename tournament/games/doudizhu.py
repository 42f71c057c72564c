"""Dou Dizhu (斗地主, docs/rules.md §10, docs/doudizhu.md): players at three-seat tables, a deal is the
landlord, the bid, the bombs and who won."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.doudizhu_deals import parse_doudizhu_deal
from scoring.options import Game, RuleOptions
from tournament import deal_texts
from tournament.columns import Column
from tournament.games.base import GameKind
from tournament.games.deal_words import DOUDIZHU_DEAL_WORDS
from tournament.games.entrants import PLAYERS

DOUDIZHU_SCORE_SHEET = (
    Column("deal", "局", "Deal", 5),
    Column("landlord", "地主", "Landlord", 10),  # wide enough for the English title in one piece
    Column("bid", "叫分", "Bid", 6),
    Column("bombs", "炸弹", "Bombs", 8),
    Column("spring", "春天", "Spring", 8),
    Column("winner", "胜方", "Won by", 8),
    *(Column(f"points_{s}", zh, s, 7) for s, zh in (("E", "东家"), ("S", "南家"), ("W", "西家"))),
    Column("referee", "裁判", "Referee", 10),
)
"""The paper score sheet of a three-seat table."""


def _score_sheet(options: RuleOptions) -> tuple[Column, ...]:
    return DOUDIZHU_SCORE_SHEET


def _initial(outcome: dict[str, Any]) -> dict[str, Any]:
    """A stored Dou Dizhu outcome as the deal form's initial values (a correction starts there)."""
    initial: dict[str, Any] = {
        "landlord": outcome.get("landlord") or "",
        "bid": outcome.get("bid", 1),
        "bombs": outcome.get("bombs", 0),
        "spring": bool(outcome.get("spring")),
        "winner": outcome.get("winner") or "",
    }
    cards_left = outcome.get("cards_left")
    if isinstance(cards_left, dict):
        initial.update({f"cards_left_{seat.lower()}": count for seat, count in cards_left.items()})
    return initial


DOUDIZHU = GameKind(
    game=Game.DOUDIZHU,
    label=_("Dou Dizhu"),
    entrants=PLAYERS,
    parse_deal=parse_doudizhu_deal,
    bound_by="landlord",
    initial=_initial,
    outcome_text=deal_texts.doudizhu_outcome_text,
    deal_text=deal_texts.doudizhu_deal_text,
    deal_texts=deal_texts.doudizhu_deal_texts,
    record_text=deal_texts.doudizhu_record_text,
    entry_template="matches/_doudizhu_entry.html",
    preview_template="matches/_doudizhu_preview.html",
    deal_name=pgettext_lazy("doudizhu", "Deal %(number)s"),
    deal_words=DOUDIZHU_DEAL_WORDS,
    deal_heading=_("Landlord · bid · bombs"),
    invalid_entry=_("Check the deal."),
    card_rulings=False,
    declarer_rotates=False,
    counts_a_failures=False,
    pays_tribute=False,
    shown_rules=(
        "game",
        "deals",
        "deal_scoring",
        "base",
        "multiple_cap",
        "landlord_by",
        "reseat",
        "bye_points",
        "forfeit_points",
        "late_forfeit_minutes",
        "time_cap_minutes",
    ),
    event_overrides=(
        "deals",
        "deal_scoring",
        "cards_left_winner",
        "base",
        "multiple_cap",
        "landlord_by",
        "landlord_rotation",
        "bye_points",
        "time_cap_minutes",
    ),
    score_sheet_columns=_score_sheet,
    default_profile="doudizhu",
    match_totals=(),  # a three-seat table's points are on the game's own sheets, not the results sheet
)
