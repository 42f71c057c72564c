"""Games and entrant kinds are objects, not flags (docs/design.md): no code outside the registry
(``tournament/games/``), the models and the migrations asks which game or which kind it holds.

The layers above look a kind up in their one table keyed by ``EntrantKind.key`` (``FOLDS``,
``PUBLIC_PAGES``, ``MATCH_SHAPES``, ``PRINT_PAGES``, ``ROSTERS`` …); this test reads every module with
``ast`` and every template as text, and fails on a flag (``three_seats``, ``individual``) or a game key
compared (``game == "doudizhu"``, ``in ("tractor", …)``, ``is Game.GUANDAN``); a template that asks
what its entrants are (``{% if total.players %}``, ``{% if row.seats %}``) instead of printing the
words or including the template the object gives (``total.words.points``, ``seats_template``) too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from scoring.options import Game
from tournament.games import ENTRANT_KINDS, GAMES, STAGE_ENTRANT_KINDS

ROOT = Path(__file__).resolve().parents[3]
FLAGS = frozenset({"three_seats", "individual", "is_individual"})
GAME_KEYS = frozenset(game.value for game in Game)
GAME_MEMBERS = frozenset(game.name for game in Game)
COMPARING = (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)
TEMPLATE_FORKS = re.compile(
    r"\.three_seats\b|\.individual\b|\bseats_three\b|(==|!=)\s*[\"'](" + "|".join(sorted(GAME_KEYS)) + r")[\"']"
    r"|\{%\s*(el)?if\s+(not\s+)?[\w.]+\.(players|seats)\s*%\}"
)


def _exempt(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    in_models = "models" in parts or path.name == "models.py"
    return parts[:2] == ("tournament", "games") or "migrations" in parts or in_models


def _is_game_key(node: ast.AST) -> bool:
    """A game named in code: its key as a string (``"doudizhu"``) or the enum's member (``Game.DOUDIZHU``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value in GAME_KEYS
    if isinstance(node, ast.Attribute) and node.attr in GAME_MEMBERS:
        return True
    if isinstance(node, ast.Attribute) and node.attr == "value":  # Game.TRACTOR.value
        return _is_game_key(node.value)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_game_key(element) for element in node.elts)
    return False


def forks_in(source: str) -> list[tuple[int, str]]:
    """The lines of ``source`` that read a flag of a kind or compare a game key, with what was found."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in FLAGS:
            found.append((node.lineno, f".{node.attr}"))
        elif isinstance(node, ast.Name) and node.id in FLAGS:
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.arg) and node.arg in FLAGS:
            found.append((node.lineno, f"argument {node.arg}"))
        elif isinstance(node, ast.keyword) and node.arg is not None and node.arg.split("__")[-1] in FLAGS:
            found.append((node.value.lineno, f"{node.arg}="))
        elif isinstance(node, ast.Constant) and node.value in FLAGS:
            found.append((node.lineno, repr(node.value)))
        elif (
            isinstance(node, ast.Compare)
            and any(isinstance(op, COMPARING) for op in node.ops)
            and any(_is_game_key(side) for side in (node.left, *node.comparators))
        ):
            found.append((node.lineno, "a game compared"))
    return found


def test_no_code_outside_the_registry_asks_which_game_or_kind():
    found = []
    for path in sorted((ROOT / "tournament").rglob("*.py")):
        if _exempt(path):
            continue
        where = path.relative_to(ROOT)
        found += [f"{where}:{line} {what}" for line, what in forks_in(path.read_text(encoding="utf-8"))]
    assert found == []


def test_no_template_asks_which_game_or_kind():
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if TEMPLATE_FORKS.search(line)
    ]
    assert found == []


@pytest.mark.parametrize(
    "source",
    [
        "if match.three_seats:\n    pass",
        "Match.objects.filter(three_seats=True)",
        "Match.objects.filter(round__three_seats=False)",
        "x = tournament.entry.individual",
        "def f(*, individual=False): pass",
        "if game == 'doudizhu': pass",
        "if tournament.game in ('guandan', 'tractor'): pass",
        "if rules.game is Game.TRACTOR: pass",
        "if options.game != Game.DOUDIZHU.value: pass",
    ],
)
def test_the_guard_sees_a_fork(source):
    assert forks_in(source)


@pytest.mark.parametrize(
    "line",
    [
        '<th>{% if total.players %}{% translate "Points" %}{% else %}{% translate "Match points" %}{% endif %}</th>',
        "{% if row.seats %}{% include 'matches/_three_seats.html' %}{% endif %}",
        "{% elif not slide.total.players %}",
        "{% if tournament.game == 'tractor' %}",
    ],
)
def test_the_template_guard_sees_a_fork(line):
    assert TEMPLATE_FORKS.search(line)


def test_the_template_guard_lets_a_list_be_printed():
    for line in (
        "{% for player in award.pair.players %}{{ player.name }}{% endfor %}",
        "<th>{{ total.words.points }}</th>",
        "{% include row.game.entrants.seats_template with summary=row %}",
    ):
        assert not TEMPLATE_FORKS.search(line)


def test_the_guard_lets_a_kinds_table_be():
    source = (
        "FOLDS = {'pairs': sides_fold, 'players': table_fold}\n"
        "fold = FOLDS[match_game(match).entrants.key]\n"
        "game = Game.GUANDAN\n"  # a default, not a question
    )
    assert forks_in(source) == []


def test_every_layers_table_has_a_row_for_every_entrant_kind():
    """Adding an entrant kind is one object in ``tournament.games.entrants`` and one row in each table."""
    from tournament.api.match_serializers import MATCH_SHAPES
    from tournament.draw.services import ROUND_DRAWS
    from tournament.draw.views import DRAW_PAGES
    from tournament.exports.round_sheets import PRINT_PAGES
    from tournament.matches.fold import FOLDS
    from tournament.matches.forms import ADJUSTMENT_FORMS
    from tournament.matches.selectors import SUMMARIES
    from tournament.matches.services import MATCH_ENTRANTS
    from tournament.matches.snapshot_reads import DEALS_PLAYED
    from tournament.registration.roster import ROSTERS
    from tournament.registration.services import REGISTRARS
    from tournament.standings.selectors import STAGE_DECIDED
    from tournament.standings.teams import TEAM_MEMBERS
    from tournament.standings.views import PUBLIC_PAGES

    tables = (
        FOLDS,
        SUMMARIES,
        MATCH_ENTRANTS,
        DEALS_PLAYED,
        ADJUSTMENT_FORMS,
        ROSTERS,
        REGISTRARS,
        PUBLIC_PAGES,
        DRAW_PAGES,
        PRINT_PAGES,
        MATCH_SHAPES,
        TEAM_MEMBERS,
    )
    assert all(table.keys() == ENTRANT_KINDS.keys() for table in tables)
    # a stage's tables have a row for every kind a stage is drawn between: a game's, and teams of pairs
    assert ROUND_DRAWS.keys() == STAGE_DECIDED.keys() == STAGE_ENTRANT_KINDS.keys() >= ENTRANT_KINDS.keys()
    assert {kind.entrants.key for kind in GAMES.values()} <= ENTRANT_KINDS.keys()
