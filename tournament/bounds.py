"""The range of every integer column, in one place: forms, serializers and check constraints read it.

A value past a column's range is bad input, not a crash: PostgreSQL refuses a seed of 2^31 in an
``integer`` column (a ``DataError``, a 500 if nothing caught it) while SQLite stores 64 bits and
Python refuses 10^20 before the database sees it. So every integer a user can send is bounded by
the range its column has on PostgreSQL — in the form or serializer (a field error, a 400), and in
the database as a check constraint (so no other write path can store what PostgreSQL would refuse).
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import Q

__all__ = ["INT_MAX", "column_checks", "column_max", "column_range", "text_max"]

INT_MAX = 2**31 - 1  # PostgreSQL's ``integer``: ids, versions, table numbers, seeds


def _range(internal_type: str) -> tuple[int, int]:
    low, high = BaseDatabaseOperations.integer_field_ranges[internal_type]
    return int(low), int(high)


def column_range(model: type[models.Model], field: str) -> tuple[int, int]:
    """The smallest and largest value the column of ``model.field`` holds (PostgreSQL's ranges)."""
    return _range(model._meta.get_field(field).get_internal_type())


def column_max(model: type[models.Model], field: str) -> int:
    return column_range(model, field)[1]


def text_max(model: type[models.Model], field: str) -> int:
    """The longest text the column ``model.field`` holds (its ``max_length``)."""
    found = model._meta.get_field(field)
    if not isinstance(found, models.CharField) or found.max_length is None:
        raise TypeError(f"{model.__name__}.{field} is not a text column with a length")
    return found.max_length


def column_checks(prefix: str, **fields: str) -> list[models.CheckConstraint]:
    """One check constraint ``<prefix>_<field>_in_range`` per integer field (``field=internal type``,
    e.g. ``seed="PositiveIntegerField"``): the value fits the column (NULL passes, as in SQL)."""
    checks = []
    for field, internal_type in fields.items():
        low, high = _range(internal_type)
        bounds: dict[str, Any] = {f"{field}__lte": high, f"{field}__gte": low}
        checks.append(models.CheckConstraint(condition=Q(**bounds), name=f"{prefix}_{field}_in_range"))
    return checks
