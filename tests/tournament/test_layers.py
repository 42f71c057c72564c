"""The apps form layers and imports run one way, down (docs/design.md, "Layers").

Every module of ``scoring/`` and ``tournament/`` is read with ``ast`` (nothing is imported) and put in
a layer by where it lives: ``scoring``; the core, every module directly in ``tournament/`` and the
game registry ``tournament/games``; one layer per app (``tournament/<app>``) — the whole app, its
views, URL map, template tags and management commands included; and on top the site,
``tournament/site`` (the root URL map, the servers' entry points, the demo and its command). An import
may name its own layer or a lower one, never a higher one, and an import inside a function may not
leave its own layer (a function-level import hides a circle; a layer that must react to a higher one
publishes a signal or takes a callable instead). Imports under ``if TYPE_CHECKING:`` count too: a
type names what a module depends on. So the core imports no app, no two apps import each other, by
any route (a page that shows what a higher app computes lives in that app: the event's home page in
the standings, its settings page in the matches), and nothing imports the site.
"""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]

LAYERS: tuple[str, ...] = (
    "scoring",
    "core",
    "registration",
    "matches",
    "standings",
    "draw",
    "exports",
    "api",
    "site",
)
"""Lowest first: a module may import its own layer and those before it."""

APPS = ("registration", "matches", "standings", "draw", "exports", "api")
"""The Django apps of the domain, lowest first (each a package ``tournament/<app>`` with an ``apps.py``)."""

SITE = "site"
"""The project's top, ``tournament/site``: a Django app too (Django finds the ``demo`` command in it),
the one package that puts the apps together."""


def layer_of(module: str) -> str | None:
    """The layer of a module of this project (None: a third-party or standard module), by its place
    in the tree alone: a module directly in ``tournament/`` is the core's, whatever its name."""
    parts = module.split(".")
    if parts[0] == "scoring":
        return "scoring"
    if parts[0] != "tournament":
        return None
    if len(parts) > 1 and parts[1] in (*APPS, SITE):
        return parts[1]
    return "core"


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    path: str
    line: int
    in_function: bool


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for top in ("scoring", "tournament"):
        for path in (ROOT / top).rglob("*.py"):
            if "migrations" not in path.parts:
                found[_module_of(path)] = path
    return found


def _imports(module: str, path: Path, known: dict[str, Path]) -> list[Import]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[Import] = []

    def add(target: str, node: ast.stmt, in_function: bool) -> None:
        if layer_of(target) is not None:
            found.append(Import(module, target, str(path.relative_to(ROOT)), node.lineno, in_function))

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if isinstance(child, ast.Import):
                for alias in child.names:
                    add(alias.name, child, in_function)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                    target = ".".join([*base, child.module] if child.module else base)
                else:
                    target = child.module or ""
                for alias in child.names:  # ``from tournament import games`` imports tournament.games
                    name = f"{target}.{alias.name}"
                    add(name if name in known else target, child, in_function)
            walk(child, inner)

    walk(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


@functools.cache
def _all_imports() -> list[Import]:
    known = _modules()
    return [found for module, path in sorted(known.items()) for found in _imports(module, path, known)]


def _rank(layer: str | None) -> int:
    assert layer is not None
    return LAYERS.index(layer)


def test_every_module_has_a_layer():
    assert {layer_of(module) for module in _modules()} <= set(LAYERS)
    assert layer_of("tournament.matches.models") == "matches"
    assert layer_of("tournament.matches.views") == "matches"
    assert layer_of("tournament.standings.templatetags.public_tags") == "standings"
    assert layer_of("tournament.exports.management.commands.series_rating_rebuild") == "exports"
    assert layer_of("tournament.games.guandan") == "core"
    assert layer_of("tournament.settings") == "core"
    assert layer_of("tournament.site.demo_doudizhu") == "site"
    assert layer_of("tournament.site.management.commands.demo") == "site"
    assert layer_of("django.db") is None


def test_the_apps_are_the_ones_listed():
    """A new app is placed in the order before it is used (else its imports would go unchecked)."""
    found = {path.parent.name for path in (ROOT / "tournament").glob("*/apps.py")}
    assert found == {*APPS, SITE}
    assert list(APPS) == [layer for layer in LAYERS if layer in APPS]
    assert LAYERS[-1] == SITE


def test_the_core_imports_no_app():
    """A module directly in ``tournament/`` (errors, labels, parsing, settings, …) or in the game
    registry imports only the rules core and the core: every app imports the core, so one import of an
    app here closes a circle. What puts the apps together (the root URL map, the servers' entry
    points, the demo) is the site's."""
    upward = sorted(
        f"{found.path}:{found.line} {found.source} imports {found.target}"
        for found in _all_imports()
        if layer_of(found.source) == "core" and layer_of(found.target) not in ("scoring", "core")
    )
    assert upward == []


def test_what_django_runs_starts_at_the_site():
    """The root URL map and the servers' application are the site's, and so is the demo command: the
    top of the graph is one package, ``tournament/site``, which nothing imports."""
    assert settings.ROOT_URLCONF == "tournament.site.urls"
    assert settings.WSGI_APPLICATION == "tournament.site.wsgi.application"
    assert f"tournament.{SITE}" in settings.INSTALLED_APPS
    assert (ROOT / "tournament" / SITE / "asgi.py").is_file()
    assert (ROOT / "tournament" / SITE / "management" / "commands" / "demo.py").is_file()
    importing_the_site = sorted(
        f"{found.path}:{found.line} {found.source}"
        for found in _all_imports()
        if layer_of(found.target) == SITE and layer_of(found.source) != SITE
    )
    assert importing_the_site == []


def test_no_two_apps_import_each_other():
    """The apps' own graph (every ``tournament.<app>`` import, at the top of a module or inside a
    function, views and template tags included) has no cycle: listed by the imports that close one."""
    edges: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for found in _all_imports():
        source, target = layer_of(found.source), layer_of(found.target)
        if source in APPS and target in APPS and source != target:
            edges[str(source)][str(target)].append(f"{found.path}:{found.line}")
    order: list[str] = []
    state: dict[str, str] = {}

    def visit(app: str, path: tuple[str, ...]) -> None:
        if state.get(app) == "done":
            return
        cycle = path[path.index(app) :] if app in path else ()
        assert not cycle, "apps importing each other: " + "; ".join(
            f"{source} → {target} ({edges[source][target][0]})"
            for source, target in zip(cycle, (*cycle[1:], app), strict=True)
        )
        for target in sorted(edges[app]):
            visit(target, (*path, app))
        state[app] = "done"
        order.append(app)

    for app in APPS:
        visit(app, ())
    assert sorted(order) == sorted(APPS)


def test_no_import_runs_up_a_layer():
    upward = [
        f"{found.path}:{found.line} {found.source} ({layer_of(found.source)}) imports {found.target} "
        f"({layer_of(found.target)})"
        for found in _all_imports()
        if _rank(layer_of(found.target)) > _rank(layer_of(found.source))
    ]
    assert upward == []


def test_the_layers_have_no_cycle():
    edges: dict[str, set[str]] = defaultdict(set)
    for found in _all_imports():
        source, target = layer_of(found.source), layer_of(found.target)
        if source != target:
            edges[str(source)].add(str(target))
    done: set[str] = set()

    def visit(layer: str, path: tuple[str, ...]) -> None:
        assert layer not in path, f"a cycle of layers: {' → '.join((*path, layer))}"
        if layer in done:
            return
        for target in sorted(edges[layer]):
            visit(target, (*path, layer))
        done.add(layer)

    for layer in LAYERS:
        visit(layer, ())


def test_no_import_inside_a_function_leaves_its_layer():
    hidden = [
        f"{found.path}:{found.line} {found.source} imports {found.target}"
        for found in _all_imports()
        if found.in_function and layer_of(found.target) != layer_of(found.source)
    ]
    assert hidden == []


def test_the_django_side_imports_at_the_top():
    """No import hides in a function of ``tournament/``, within a layer either (a late import dodges
    a circle between two modules): an app's ``AppConfig.ready`` importing its own receivers and
    tasks is the one place, as Django asks."""
    hidden = [
        f"{found.path}:{found.line} {found.source} imports {found.target}"
        for found in _all_imports()
        if found.in_function
        and found.source.startswith("tournament.")
        and not (found.source.endswith(".apps") and found.target.startswith(found.source.rpartition(".")[0]))
    ]
    assert hidden == []
