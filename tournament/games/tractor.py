"""Three-deck Tractor (拖拉机, seed 001): pairs at four-seat tables, a deal is the declarer and the
defenders' points."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from scoring.deals import parse_deal
from scoring.options import Game, RuleOptions
from tournament import deal_texts
from tournament.columns import Column
from tournament.games.base import GameKind
from tournament.games.deal_words import DEAL_WORDS
from tournament.games.entrants import PAIRS

SCORE_SHEET_TRACTOR = (
    Column("deal", "副", "Deal", 5),
    Column("declarer", "庄家", "Declarer", 10),
    Column("level", "打几", "Level played", 8),
    Column("defender_points", "防家得分", "Defenders' points", 12),
    Column("bottom", "抠底", "Bottom capture", 9),
    Column("penalty_points", "罚分", "Penalty points", 8),
    Column("ns_after", "南北级数", "N/S level", 9),
    Column("ew_after", "东西级数", "E/W level", 9),
    Column("referee", "裁判", "Referee", 10),
)


def _score_sheet(options: RuleOptions) -> tuple[Column, ...]:
    return SCORE_SHEET_TRACTOR


def _initial(outcome: dict[str, Any]) -> dict[str, Any]:
    """A stored Tractor outcome as the deal form's initial values."""
    initial: dict[str, Any] = {
        "declarer": outcome.get("declarer") or "",
        "defender_points": outcome.get("defender_points"),
        "revoke": outcome.get("revoke") or "",
        "wrong_bottom": bool(outcome.get("wrong_bottom")),
        "wrong_count": outcome.get("wrong_count") or "",
    }
    bottom = outcome.get("bottom")
    if isinstance(bottom, dict):
        initial.update(bottom_points=bottom.get("points"), capture=bottom.get("capture"))
    for penalty in outcome.get("penalties") or []:
        name = f"penalty_{str(penalty.get('side', '')).lower()}_{penalty.get('kind')}"
        initial[name] = initial.get(name, 0) + 1
    return initial


TRACTOR = GameKind(
    game=Game.TRACTOR,
    label=_("Tractor"),
    entrants=PAIRS,
    parse_deal=parse_deal,
    bound_by="defender_points",
    initial=_initial,
    outcome_text=deal_texts.tractor_outcome_text,
    deal_text=deal_texts.tractor_deal_text,
    deal_texts=deal_texts.tractor_deal_texts,
    record_text=deal_texts.tractor_record_text,
    entry_template="matches/_tractor_entry.html",
    preview_template="matches/_tractor_preview.html",
    deal_name=_("Deal %(number)s"),
    deal_words=DEAL_WORDS,
    deal_heading=_("Declarer · defenders' points"),
    invalid_entry=_("Check the deal."),
    card_rulings=False,
    declarer_rotates=True,
    counts_a_failures=False,
    pays_tribute=False,
    shown_rules=("game", "time_cap_minutes", "at_time_up", "time_up_tie"),
    event_overrides=("time_cap_minutes", "time_up_tie"),
    score_sheet_columns=_score_sheet,
    default_profile="tractor-3deck",
    match_totals=("levels",),
)
