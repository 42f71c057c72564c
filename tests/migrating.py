"""What the migration tests share: migrating to named nodes, and an empty database of the test's own.

Migrating is slow here, and nearly all of it is Django rendering the historical models (each operation
re-renders every model related to the one it changes: about 0.1 s of a core per operation). Going
*backward* from today's schema to an old node costs the most: Django first works out the state before
every migration it unapplies, cloning the whole project state at each step (a test that went back to
the early migrations and forward again spent 45 % of its one to two minutes going back).

So a test of what a migration does to old rows starts from an empty database of its own
(``empty_database``) and goes only forward: from nothing to the node before the change is a few early
migrations. Going back is tested once, over every migration of the project's apps
(tests/tournament/test_migrations_reverse.py), not again by every data test.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from django.contrib.contenttypes.models import ContentType
from django.db import connection, connections
from django.db.migrations.executor import MigrationExecutor
from django.db.utils import load_backend


def migrate(targets: list[tuple[str, str | None]]):
    """Migrate the default database to ``targets`` (forward or back; ``(app, None)``: before the app's
    first migration); the models as they stood there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([target for target in targets if target[1] is not None]).apps


def leaf_nodes() -> list[tuple[str, str]]:
    """Today's schema: the last migration of every app."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@contextmanager
def empty_database() -> Iterator[None]:
    """Inside, the default connection is to a new, empty database (no tables at all), dropped after.

    The test database stays as it is (at today's schema, for the tests that follow), and the tests of
    two parallel test processes never share the new database (a random name). The connection is a new
    one swapped in, not the test database's connection renamed: SQLite's in-memory test database lives
    only as long as its connection."""
    main = connections["default"]
    settings_dict = dict(main.settings_dict)
    if main.vendor == "postgresql":
        name = f"{settings_dict['NAME']}_empty_{uuid.uuid4().hex[:8]}"
        with main._nodb_cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{name}"')
    else:
        handle, name = tempfile.mkstemp(prefix="migrations-", suffix=".sqlite3")
        os.close(handle)
    settings_dict["NAME"] = name
    ours = load_backend(settings_dict["ENGINE"]).DatabaseWrapper(settings_dict, "default")
    connections["default"] = ours
    try:
        yield
    finally:
        ours.close()
        connections["default"] = main
        if main.vendor == "postgresql":
            with main._nodb_cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        else:
            os.remove(name)
        ContentType.objects.clear_cache()  # the ids it cached were the empty database's
