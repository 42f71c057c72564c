"""The games the site runs and who plays them, told apart in one place (docs/design.md: games plug in
through one registry; kinds are objects, not flags).

``base`` defines a game (:class:`GameKind`) and an entrant kind (:class:`EntrantKind`) and holds the
registry; ``entrants`` the kinds (pairs at four-seat tables, players at three-seat tables); one module
per game (``guandan``, ``tractor``, ``doudizhu``) what is its own at the core layer: its deal's reader,
its texts, its sheet columns, its entrant kind. Code that does not depend on the
game asks :func:`game_of` / :func:`entrants_of` for the object and uses it, or looks its ``key`` up in
its layer's table; it never tests which game or kind it holds.

Adding a game is one more module here and one more row in :data:`GAMES`; adding an entrant kind is one
more :class:`EntrantKind` in ``entrants`` and one more row in each layer's table keyed by its ``key``.
"""

from __future__ import annotations

from tournament.games.base import (
    GAMES,
    EntrantKind,
    GameKind,
    UnknownGame,
    entrants_of,
    game_kind,
    game_of,
)
from tournament.games.doudizhu import DOUDIZHU
from tournament.games.entrants import ENTRANT_KINDS, PAIRS, PLAYERS, STAGE_ENTRANT_KINDS, TEAMS, stage_entrants_of
from tournament.games.guandan import GUANDAN
from tournament.games.tractor import TRACTOR

GAMES.update({kind.game: kind for kind in (GUANDAN, TRACTOR, DOUDIZHU)})

__all__ = [
    "DOUDIZHU",
    "ENTRANT_KINDS",
    "GAMES",
    "GUANDAN",
    "PAIRS",
    "PLAYERS",
    "STAGE_ENTRANT_KINDS",
    "TEAMS",
    "TRACTOR",
    "EntrantKind",
    "GameKind",
    "UnknownGame",
    "entrants_of",
    "game_kind",
    "game_of",
    "stage_entrants_of",
]
