"""Every migration of the project's apps can be unapplied: migrating back to before the first of them
drops every table they made, and migrating forward again makes the same tables.

The tests of what a migration does to old rows go only forward, on an empty database of their own
(tests/migrating.py says why); this test is where going back is tested, over every migration at once,
on the test database itself (empty: the tests before it left no rows)."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.migrating import leaf_nodes, migrate

pytestmark = pytest.mark.django_db(transaction=True)

APPS = ("registration", "matches", "exports")


def _tables() -> set[str]:
    return {name for name in connection.introspection.table_names() if name.startswith(APPS)}


def test_every_migration_of_the_apps_unapplies_and_applies_again():
    today = _tables()
    assert {name.split("_", 1)[0] for name in today} == set(APPS)
    try:
        migrate([("registration", None)])  # matches and exports depend on it: all three go back
        assert _tables() == set()
    finally:
        migrate(leaf_nodes())
    assert _tables() == today
