"""Guandan (掼蛋, docs/rules.md §1–§8): pairs at four-seat tables, a deal is a finishing order."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from scoring.deals import parse_deal
from scoring.options import Game, MatchFormat, RuleOptions
from tournament import deal_texts
from tournament.columns import Column
from tournament.games.base import GameKind
from tournament.games.deal_words import DEAL_WORDS
from tournament.games.entrants import PAIRS

SCORE_SHEET_LEVELS = (
    Column("deal", "副", "Deal", 5),
    Column("level", "打几", "Level played", 8),
    Column("sets_level", "台上", "Setting side", 8),
    Column("first", "上游", "1st out", 8),
    Column("second", "二游", "2nd", 8),
    Column("third", "三游", "3rd", 8),
    Column("last", "下游", "Last", 8),
    Column("ns_after", "南北级数", "N/S level", 9),
    Column("ew_after", "东西级数", "E/W level", 9),
    Column("referee", "裁判", "Referee", 10),
)

SCORE_SHEET_POINTS = (
    Column("deal", "副", "Deal", 5),
    Column("first", "上游", "1st out", 8),
    Column("second", "二游", "2nd", 8),
    Column("third", "三游", "3rd", 8),
    Column("last", "下游", "Last", 8),
    Column("ns_points", "南北得分", "N/S points", 9),
    Column("ew_points", "东西得分", "E/W points", 9),
    Column("referee", "裁判", "Referee", 10),
)


def _score_sheet(options: RuleOptions) -> tuple[Column, ...]:
    if options.format is MatchFormat.FIXED_DEALS_POINTS:
        return SCORE_SHEET_POINTS
    return SCORE_SHEET_LEVELS


def _initial(outcome: dict[str, Any]) -> dict[str, Any]:
    """The finishing order is tapped again; only 抗贡 starts as recorded (docs/rules.md §6)."""
    return {"anti_tribute": bool(outcome.get("anti_tribute"))}


GUANDAN = GameKind(
    game=Game.GUANDAN,
    label=_("Guandan"),
    entrants=PAIRS,
    parse_deal=parse_deal,
    bound_by="order",
    initial=_initial,
    outcome_text=deal_texts.guandan_outcome_text,
    deal_text=deal_texts.guandan_deal_text,
    deal_texts=deal_texts.guandan_deal_texts,
    record_text=deal_texts.guandan_record_text,
    entry_template="matches/_guandan_entry.html",
    preview_template="matches/_preview.html",
    deal_name=_("Deal %(number)s"),
    deal_words=DEAL_WORDS,
    deal_heading=_("Finishing order"),
    invalid_entry=_("Tap the seats in finishing order."),
    card_rulings=True,
    declarer_rotates=False,
    counts_a_failures=True,
    pays_tribute=True,
    shown_rules=(
        "format",
        "deals",
        "games",
        "time_cap_minutes",
        "at_time_up",
        "time_up_tie",
        "upgrades",
        "points_table",
        "a_pass",
        "a_failure_limit",
        "a_reset",
        "tribute_variant",
        "wild_reading",
    ),
    event_overrides=("time_cap_minutes", "a_failure_limit", "time_up_tie"),
    score_sheet_columns=_score_sheet,
    default_profile="timed-40",
    match_totals=("levels", "points", "games"),
)
