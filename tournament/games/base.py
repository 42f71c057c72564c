"""What a game and an entrant kind are, and the registry that holds the games (docs/design.md: games
plug in through one registry; kinds are objects, not flags).

A :class:`GameKind` is what one game's Django side is made of at the core layer: its deal (parsed and
put in words), its sheet columns and templates, and the
:class:`EntrantKind` it is played by. An entrant kind says who sits at a table: a pair at a four-seat
table (``entrants.PAIRS``) or a player at a three-seat table (``entrants.PLAYERS``); a team of pairs
would be one more. The layers above keep one table each keyed by ``EntrantKind.key`` (the fold, the
draw, the public pages, the API's shapes, the sheets, the roster) and look a kind up there instead of
asking which game or kind they hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from django.utils.functional import Promise

from scoring.options import Game, RuleOptions
from tournament.columns import Column

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class UnknownGame(LookupError):
    """A game the rules core knows but the site has no pages for (yet): a bug or a missing entry,
    never a user's input (forms offer only the games with an entry)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        known = ", ".join(kind.key for kind in GAMES.values())
        super().__init__(f"No game entry for {game!r} in tournament.games (the site runs: {known}).")


@dataclass(frozen=True, slots=True)
class EntrantKind:
    """Who an entrant is and where it sits: the words pages use for it, how many players it is made
    of, the seats of its table and the stage formats its events may have."""

    key: str
    """The key of the layers' tables (``"pairs"``, ``"players"``)."""
    members: int
    """Players an entrant is made of (a pair: 2; a player: 1)."""
    seats: tuple[str, ...]
    """A table's seats, in order."""
    stage_formats: tuple[str, ...]
    """The stage formats an event of this kind may have."""
    label: Promise
    labels: Promise
    words: Mapping[str, Promise]
    """The pages' sentences that name the kind (``{{ entrants.words.add }}``), translated lazily."""
    match_body_template: str
    """The match page's body (the sides and levels, or a three-seat table's seats and points)."""
    seats_template: str
    """Who sits where and how they stand, as the table's own page shows it (the players' phones): the
    sides and their levels or points, or a three-seat table's seats, players and points."""
    entry_labels: Mapping[str, StrOrPromise] = field(default_factory=dict)
    """The entry form's labels of the first player's fields, by field (``name``, ``phone`` …) where the
    form's own ("Player 1 name") do not fit: an entrant of one player names them without a number."""


@dataclass(frozen=True, slots=True)
class GameKind:
    """What one game's Django side is made of at the core layer. The layers above keep their own part
    in a table keyed by the game (the deal forms: ``matches.deal_forms.DEAL_FORMS``; the API's bodies:
    ``api.deal_serializers.DEAL_BODIES``; the workbook's deal log: ``exports.workbook.DEAL_LOGS``)."""

    game: Game
    label: Promise
    entrants: EntrantKind
    """Who plays the game's matches, and at what table."""
    parse_deal: Callable[..., Any]
    """The rules core's reader of one deal as entered (``options=``, ``data=``, ``number=``)."""
    bound_by: str
    """The field whose presence in a request means a deal was entered (else the form starts empty)."""
    initial: Callable[[dict[str, Any]], dict[str, Any]]
    """A stored outcome (``Deal.outcome``) as the entry form's initial values (a correction starts there)."""
    outcome_text: Callable[[Any], str]
    """A deal as entered, in words (the audit, a deal's edit page)."""
    deal_text: Callable[[Any, Any], str]
    """A deal in the deal lists, ``(outcome, record)``: the referee's and the public page's one text
    (Tractor: the declarer and the points the rules core read the table with)."""
    deal_texts: Callable[[Sequence[Any]], list[str]]
    """:attr:`deal_text` of each record of a deal list, the records alone (the public deal history),
    the active language's words read once for the list, not once a deal."""
    record_text: Callable[[Any], str]
    """A deal's verdict as the rules core recorded it, in words ("" when the levels say it all)."""
    entry_template: str
    preview_template: str
    deal_name: Promise
    """One deal by its number, in the game's own word (``%(number)s``): 第 3 副 in Guandan, 第 3 局 in Dou Dizhu."""
    deal_words: Mapping[str, Promise]
    """The pages' sentences that name a deal, in the game's word (``tournament.games.deal_words``): undo,
    recorded, awaiting confirmation, the offline queue's messages …"""
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
    event_overrides: tuple[str, ...]
    """The rule options the event's page lets an organiser set over the profile (those changed on
    the day, or that the game's rulebooks leave to the event): never another game's."""
    score_sheet_columns: Callable[[RuleOptions], tuple[Column, ...]]
    """The paper score sheet's grid columns for a stage's rules."""
    default_profile: str
    """The rule profile a new event of the game starts with on the create form."""
    match_totals: tuple[str, ...]
    """What a match of the game is counted in, the results sheet's per-side columns: levels, and for
    Guandan also points (局分, a points format) and games won (胜局, best of); Tractor has levels only."""

    @property
    def key(self) -> str:
        """The game's stored value (``Tournament.game``), the key of a layer's table of games."""
        return self.game.value


GAMES: dict[Game, GameKind] = {}
"""One kind per game the site runs events of (filled by ``tournament.games``)."""


class HasGame(Protocol):
    """An event (``Tournament``): its stored game, the one answer to "which game"."""

    @property
    def game(self) -> str: ...


def game_kind(game: Game | str) -> GameKind:
    """The kind of ``game`` (the rules' ``Game`` or its value, e.g. ``Tournament.game``).

    Raises :class:`UnknownGame` for a game without an entry or no game at all.
    """
    try:
        return GAMES[Game(game)]
    except (KeyError, ValueError):
        raise UnknownGame(game) from None


def game_of(tournament: HasGame) -> GameKind:
    """The game an event is played at (``Tournament.game``)."""
    return game_kind(tournament.game)


def entrants_of(tournament: HasGame) -> EntrantKind:
    """Who an event's entrants are (its game's entrant kind)."""
    return game_of(tournament).entrants
