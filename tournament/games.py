"""The games the site runs, told apart in one place (docs/design.md: games plug in through one registry).

Guandan and Tractor differ in their deal — how a referee enters it, how the API takes it, how it
reads in the deal history and on the sheets — and in nothing else: registration, the draw, the
clock, corrections, the audit, standings and the public pages are shared. Each game the site runs
events of has one :class:`GameEntry` here, keyed by the rules core's game (``scoring.options.Game``,
the ``game`` of a stage's stored rules); views, serializers, the workbook and the round sheets ask
:func:`game_entry` instead of testing the game themselves.

Adding a game is adding an entry (its forms, serializers, templates, texts and columns). Dou Dizhu
(docs/rules.md §10, docs/doudizhu.md) differs more: individuals (``individual``: an entrant is one player)
at three-seat tables (``three_seats``: the match page, the draw and the standings read the table's
seats instead of two sides). A game the rules core knows without an entry here raises
:class:`UnknownGame` with a readable message.

Forms, serializers and the workbook's deal sheet are named by their dotted path and imported on
first use: they import the match selectors, which ask this registry, so naming them here instead of
importing them keeps the registry a leaf module every layer may import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

from scoring.options import Game, MatchFormat, RuleOptions
from tournament import deal_texts
from tournament.columns import Column


class UnknownGame(LookupError):
    """A game the rules core knows but the site has no pages for (yet): a bug or a missing entry,
    never a user's input (forms offer only the games with an entry)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        known = ", ".join(entry.game.value for entry in GAMES.values())
        super().__init__(f"No game entry for {game!r} in tournament.games (the site runs: {known}).")


PAIR, PAIRS = _("Pair"), _("Pairs")
"""What an entrant is called in a pairs event (对)."""


@dataclass(frozen=True, slots=True)
class GameEntry:
    """What one game's Django side is made of. Dotted paths are imported on first use (see the module)."""

    game: Game
    label: Promise
    deal_fields_path: str
    """The deal's fields alone: the entry previewed from the query string (no JavaScript needed)."""
    deal_form_path: str
    """The deal's fields with the match version and an idempotency key: a new deal."""
    correction_form_path: str
    """The deal's fields with the match version and a reason: a correction."""
    bound_by: str
    """The field whose presence in a request means a deal was entered (else the form starts empty)."""
    api_deal_path: str
    api_preview_path: str
    api_correction_path: str
    api_preview_output_path: str
    """The API's bodies: a new deal, a preview, a correction (each with ``outcome()``), a preview's answer."""
    initial: Callable[[dict[str, Any]], dict[str, Any]]
    """A stored outcome (``Deal.outcome``) as the entry form's initial values (a correction starts there)."""
    outcome_text: Callable[[Any], str]
    """A deal as entered, in words (the audit, a deal's edit page)."""
    deal_text: Callable[[Any, Any], str]
    """A deal in the deal lists, ``(outcome, record)``: the referee's and the public page's one text
    (Tractor: the declarer and the points the rules core read the table with)."""
    record_text: Callable[[Any], str]
    """A deal's verdict as the rules core recorded it, in words ("" when the levels say it all)."""
    entry_template: str
    preview_template: str
    deal_heading: Promise
    """The deal history's column of the deal as entered."""
    invalid_entry: Promise
    """The page's message when a deal's fields do not validate."""
    card_rulings: bool
    """Whether the card assistant (docs/rules.md §8, Guandan's card combinations) applies."""
    declarer_rotates: bool
    """A declarer (庄家) rotates by the rules core's ``next_deal.declarer`` (Tractor, seed 001 §8)."""
    counts_a_failures: bool
    """The sides' table shows failed A attempts (docs/rules.md §1)."""
    pays_tribute: bool
    """Tribute is paid before a deal from the last finishing order (docs/rules.md §6; Guandan only)."""
    shown_rules: tuple[str, ...]
    """The rule options a page shows first for the game (then any that differ from the profile)."""
    score_sheet_columns: Callable[[RuleOptions], tuple[Column, ...]]
    """The paper score sheet's grid columns for a stage's rules."""
    default_profile: str
    """The rule profile a new event of the game starts with on the create form."""
    match_totals: tuple[str, ...]
    """What a match of the game is counted in, the results sheet's per-side columns: levels, and for
    Guandan also points (局分, a points format) and games won (胜局, best of); Tractor has levels only."""
    individual: bool = False
    """Entrants are individuals (选手, one member), not pairs (对)."""
    three_seats: bool = False
    """Three players a table at seats E/S/W (docs/rules.md §10), not two sides: the match body, the draw
    (``tournament.draw.three_seats``) and the standings are the three-seat ones."""
    match_body_template: str = "matches/_match_body.html"
    """The match page's body (the sides and levels, or a three-seat table's seats and points)."""
    entrant_label: Promise = PAIR
    entrants_label: Promise = PAIRS

    @property
    def stage_formats(self) -> tuple[str, ...]:
        """The stage formats an event of the game may have."""
        return ("points",) if self.three_seats else ("swiss", "round_robin", "knockout")

    @property
    def deal_fields(self) -> type[Any]:
        return _load_class(self.deal_fields_path)

    @property
    def deal_form(self) -> type[Any]:
        return _load_class(self.deal_form_path)

    @property
    def correction_form(self) -> type[Any]:
        return _load_class(self.correction_form_path)

    @property
    def api_deal(self) -> type[Any]:
        return _load_class(self.api_deal_path)

    @property
    def api_preview(self) -> type[Any]:
        return _load_class(self.api_preview_path)

    @property
    def api_correction(self) -> type[Any]:
        return _load_class(self.api_correction_path)

    @property
    def api_preview_output(self) -> type[Any]:
        return _load_class(self.api_preview_output_path)


def _load_class(path: str) -> type[Any]:
    loaded: type[Any] = import_string(path)
    return loaded


def _guandan_initial(outcome: dict[str, Any]) -> dict[str, Any]:
    """The finishing order is tapped again; only 抗贡 starts as recorded (docs/rules.md §6)."""
    return {"anti_tribute": bool(outcome.get("anti_tribute"))}


def _tractor_initial(outcome: dict[str, Any]) -> dict[str, Any]:
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


# -- the paper score sheets' grids (``tournament.exports.round_sheets``) ---------------------------

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


DOUDIZHU_SCORE_SHEET = (
    Column("deal", "局", "Deal", 5),
    Column("landlord", "地主", "Landlord", 10),  # wide enough for the English title in one piece
    Column("bid", "叫分", "Bid", 6),
    Column("bombs", "炸弹", "Bombs", 8),
    Column("spring", "春天", "Spring", 8),
    Column("winner", "胜方", "Won by", 8),
    *(Column(f"points_{s}", f"{s}座", s, 7) for s in ("E", "S", "W")),
    Column("referee", "裁判", "Referee", 10),
)
"""The paper score sheet of a three-seat table."""


def _guandan_score_sheet(options: RuleOptions) -> tuple[Column, ...]:
    if options.format is MatchFormat.FIXED_DEALS_POINTS:
        return SCORE_SHEET_POINTS
    return SCORE_SHEET_LEVELS


def _tractor_score_sheet(options: RuleOptions) -> tuple[Column, ...]:
    return SCORE_SHEET_TRACTOR


GUANDAN = GameEntry(
    game=Game.GUANDAN,
    label=_("Guandan"),
    deal_fields_path="tournament.matches.forms.GuandanDealFields",
    deal_form_path="tournament.matches.forms.DealForm",
    correction_form_path="tournament.matches.forms.CorrectionForm",
    bound_by="order",
    api_deal_path="tournament.api.match_serializers.GuandanDealInput",
    api_preview_path="tournament.api.match_serializers.PreviewInput",
    api_correction_path="tournament.api.match_serializers.CorrectionInput",
    api_preview_output_path="tournament.api.match_serializers.PreviewOutput",
    initial=_guandan_initial,
    outcome_text=deal_texts.guandan_outcome_text,
    deal_text=deal_texts.guandan_deal_text,
    record_text=deal_texts.guandan_record_text,
    entry_template="matches/_guandan_entry.html",
    preview_template="matches/_preview.html",
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
    score_sheet_columns=_guandan_score_sheet,
    default_profile="timed-40",
    match_totals=("levels", "points", "games"),
)

TRACTOR = GameEntry(
    game=Game.TRACTOR,
    label=_("Tractor"),
    deal_fields_path="tournament.matches.forms.TractorDealFields",
    deal_form_path="tournament.matches.forms.TractorDealForm",
    correction_form_path="tournament.matches.forms.TractorCorrectionForm",
    bound_by="defender_points",
    api_deal_path="tournament.api.match_serializers.TractorDealInput",
    api_preview_path="tournament.api.match_serializers.TractorPreviewInput",
    api_correction_path="tournament.api.match_serializers.TractorCorrectionInput",
    api_preview_output_path="tournament.api.match_serializers.TractorPreviewOutput",
    initial=_tractor_initial,
    outcome_text=deal_texts.tractor_outcome_text,
    deal_text=deal_texts.tractor_deal_text,
    record_text=deal_texts.tractor_record_text,
    entry_template="matches/_tractor_entry.html",
    preview_template="matches/_tractor_preview.html",
    deal_heading=_("Declarer · defenders' points"),
    invalid_entry=_("Check the deal."),
    card_rulings=False,
    declarer_rotates=True,
    counts_a_failures=False,
    pays_tribute=False,
    shown_rules=("game", "time_cap_minutes", "at_time_up", "time_up_tie"),
    score_sheet_columns=_tractor_score_sheet,
    default_profile="tractor-3deck",
    match_totals=("levels",),
)


def _doudizhu_initial(outcome: dict[str, Any]) -> dict[str, Any]:
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


def _doudizhu_score_sheet(options: RuleOptions) -> tuple[Column, ...]:
    return DOUDIZHU_SCORE_SHEET


DOUDIZHU = GameEntry(
    game=Game.DOUDIZHU,
    label=_("Dou Dizhu"),
    deal_fields_path="tournament.matches.doudizhu_forms.DoudizhuDealFields",
    deal_form_path="tournament.matches.doudizhu_forms.DoudizhuDealForm",
    correction_form_path="tournament.matches.doudizhu_forms.DoudizhuCorrectionForm",
    bound_by="landlord",
    api_deal_path="tournament.api.doudizhu_serializers.DoudizhuDealInput",
    api_preview_path="tournament.api.doudizhu_serializers.DoudizhuPreviewInput",
    api_correction_path="tournament.api.doudizhu_serializers.DoudizhuCorrectionInput",
    api_preview_output_path="tournament.api.doudizhu_serializers.DoudizhuPreviewOutput",
    initial=_doudizhu_initial,
    outcome_text=deal_texts.doudizhu_outcome_text,
    deal_text=deal_texts.doudizhu_deal_text,
    record_text=deal_texts.doudizhu_record_text,
    entry_template="matches/_doudizhu_entry.html",
    preview_template="matches/_doudizhu_preview.html",
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
    score_sheet_columns=_doudizhu_score_sheet,
    default_profile="doudizhu",
    match_totals=(),  # a three-seat table's points are on the game's own sheets, not the results sheet
    individual=True,
    three_seats=True,
    match_body_template="matches/_doudizhu_body.html",
    entrant_label=_("Player"),
    entrants_label=_("Players"),
)

GAMES: dict[Game, GameEntry] = {entry.game: entry for entry in (GUANDAN, TRACTOR, DOUDIZHU)}
"""One entry per game the site runs events of."""


def game_entry(game: Game | str) -> GameEntry:
    """The entry of ``game`` (the rules' ``Game`` or its value, e.g. ``Tournament.game``).

    Raises :class:`UnknownGame` for a game without an entry or no game at all.
    """
    try:
        return GAMES[Game(game)]
    except (KeyError, ValueError):
        raise UnknownGame(game) from None
