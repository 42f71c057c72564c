"""Statements compiled once per process, for the few reads every deal's write runs.

Django turns a queryset into SQL on every evaluation: for the match a deal locks, read with its
round, stage, event, table and pairs and the access check's conditions, that compiling cost more
CPU than anything else in the request (several milliseconds, for a statement whose text never
changes; only the match's and the user's ids do). :func:`prepared_rows` compiles such a queryset once
per process and statement ``name``, keeps the SQL and what Django needs to build the rows back
into model instances (the compiler's select list, related populators, annotations), and runs it
again with new values: the same statement, the same instances (``select_related`` objects cached,
annotations set), none of the compiling.

``build`` is called once, with a marker in place of each of ``values`` (a number for a number, its
digits for a text: a token's key); it must use them
only as the statement's parameters (a filter's value), never to choose its shape — what changes
the shape (a superuser's query has no access conditions) belongs in ``name``. A marker that does
not come through as a parameter is refused at once (:class:`ValueError`), as is a locking
statement outside a transaction (as Django refuses ``select_for_update`` there).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import connections, models
from django.db.models.query import QuerySet, get_related_populators
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

__all__ = ["prepared_rows"]

M = TypeVar("M", bound=models.Model)

_related_populators: Any = get_related_populators
"""Django 5.2's (the type stubs describe a later Django's, which takes a fetch mode too)."""

MARK = 7_340_000_000_000_000_000
"""The first marker: far above any id a table will hold, inside a 64-bit integer column's range."""


@dataclass(frozen=True, slots=True)
class _Prepared:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, str], ...]
    """(parameter's position, name of the value that goes there)."""
    compiler: SQLCompiler
    locks: bool
    rows_to_instances: _Instances


@dataclass(frozen=True, slots=True)
class _Instances:
    """What turns a statement's rows into model instances, worked out once with the statement: the
    columns' converters, the model's fields and the related objects' populators (Django works them
    out again on every evaluation; for a pair's page of three matches, each with its round, stage,
    event, table and pairs, that was a fifth of reading them)."""

    model: type[models.Model]
    names: tuple[str, ...]
    start: int
    end: int
    converters: dict[int, Any]
    composite: bool
    populators: tuple[Any, ...]
    annotations: tuple[tuple[str, int], ...]


_PREPARED: dict[tuple[str, str], _Prepared] = {}


def _prepare(name: str, build: Callable[..., QuerySet[Any]], values: dict[str, int | str], alias: str) -> _Prepared:
    names = sorted(values)
    markers: dict[str, int | str] = {}
    for index, value in enumerate(names):
        markers[value] = MARK + index if isinstance(values[value], int) else str(MARK + index)
    queryset = build(**markers)
    if queryset.__dict__["_prefetch_related_lookups"] or queryset._iterable_class is not models.query.ModelIterable:
        raise ValueError(f"prepared_rows({name!r}): model instances only (no values(), no prefetch)")
    compiler = queryset.query.get_compiler(using=alias)
    sql, params = compiler.as_sql()
    slots = tuple(
        (position, value) for position, param in enumerate(params) for value, mark in markers.items() if param == mark
    )
    missing = set(names) - {value for _position, value in slots}
    if missing:
        raise ValueError(f"prepared_rows({name!r}): {sorted(missing)} are not parameters of the statement")
    locks = bool(queryset.query.select_for_update) and connections[alias].features.has_select_for_update
    return _Prepared(
        sql=sql,
        params=tuple(params),
        slots=slots,
        compiler=compiler,
        locks=locks,
        rows_to_instances=_how(compiler, alias),
    )


def _how(compiler: SQLCompiler, using: str) -> _Instances:
    """How ``compiler``'s rows become model instances, as Django's ``ModelIterable`` and
    ``results_iter`` work it out for each evaluation."""
    select, klass_info, annotations = compiler.select, compiler.klass_info, compiler.annotation_col_map
    assert klass_info is not None  # a model's query always has one
    fields = klass_info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    columns = [column[0] for column in select[0 : compiler.col_count]]
    return _Instances(
        model=klass_info["model"],
        names=tuple(column[0].target.attname for column in select[start:end]),
        start=start,
        end=end,
        converters=compiler.get_converters(columns),
        composite=bool(compiler.has_composite_fields(columns)),
        populators=tuple(_related_populators(klass_info, select, using)),
        annotations=tuple((annotations or {}).items()),
    )


def prepared_rows(
    name: str, build: Callable[..., QuerySet[M]], *, using: str = "default", **values: int | str
) -> list[M]:
    """The model instances ``build(**values)`` would give, from the statement compiled once under
    ``name`` (module docstring)."""
    connection = connections[using]
    key = (name, connection.vendor)
    prepared = _PREPARED.get(key)
    if prepared is None:
        prepared = _PREPARED[key] = _prepare(name, build, values, using)
    if prepared.locks and connection.get_autocommit() and connection.features.supports_transactions:
        raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
    params = list(prepared.params)
    for position, value in prepared.slots:
        params[position] = values[value]
    with connection.cursor() as cursor:
        cursor.execute(prepared.sql, params)
        rows = cursor.fetchall()
    return _instances(prepared.compiler, prepared.rows_to_instances, rows, using)


def _instances(compiler: SQLCompiler, how: _Instances, rows: list[Any], using: str) -> list[Any]:
    """Rows into model instances as Django's ``ModelIterable`` builds them (its related objects,
    its annotations), converted as ``results_iter`` converts them."""
    if how.composite:  # a composite primary key's columns to tuples: Django's own way
        converted: Any = compiler.results_iter([rows])
    elif how.converters:
        converted = compiler.apply_converters(rows, how.converters)
    else:
        converted = rows
    model, names, start, end, populators = how.model, list(how.names), how.start, how.end, how.populators
    instances = []
    for row in converted:
        instance = model.from_db(using, names, row[start:end])
        for populator in populators:
            populator.populate(row, instance)
        for attribute, position in how.annotations:
            setattr(instance, attribute, row[position])
        instances.append(instance)
    return instances
