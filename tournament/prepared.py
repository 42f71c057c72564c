"""Statements compiled once per process, for the few reads every deal's write runs.

Django turns a queryset into SQL on every evaluation: for the match a deal locks, read with its
round, stage, event, table and pairs and the access check's conditions, that compiling cost more
CPU than anything else in the request (several milliseconds, for a statement whose text never
changes; only the match's and the user's ids do). :func:`prepared_rows` compiles such a queryset once
per process and statement ``name``, keeps the SQL and what Django needs to build the rows back
into model instances (the compiler's select list, related populators, annotations), and runs it
again with new values: the same statement, the same instances (``select_related`` objects cached,
annotations set), none of the compiling.

:func:`prepared_values` does the same for a ``values_list`` queryset: the rows as tuples, each column
converted as Django converts it (a JSON value read back), no model instance built — for a read of a
few columns of several joined tables, building the instances cost more than reading the rows.

``build`` is called once, with a marker in place of each of ``values`` (a number for a number, its
digits for a text: a token's key, an instant of the year 2999 for an instant: the time a page is
read as of); it must use them
only as the statement's parameters (a filter's value), never to choose its shape — what changes
the shape (a superuser's query has no access conditions) belongs in ``name``. A marker that does
not come through as a parameter is refused at once (:class:`ValueError`), as is a locking
statement outside a transaction (as Django refuses ``select_for_update`` there).
"""

from __future__ import annotations

import hashlib
import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from django.db import connections, models
from django.db.models.query import QuerySet, get_related_populators
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

__all__ = ["prepared_rows", "prepared_values"]

M = TypeVar("M", bound=models.Model)

_related_populators: Any = get_related_populators
"""Django 5.2's (the type stubs describe a later Django's, which takes a fetch mode too)."""

MARK = 7_340_000_000_000_000_000
"""The first marker: far above any id a table will hold, inside a 64-bit integer column's range."""

MARK_TIME = datetime(2999, 1, 1, tzinfo=UTC)
"""The first instant's marker (one microsecond apart for each value): no clock of a match reads it."""

Value = int | str | datetime
"""A statement's value: an id, a text, an instant (passed as the database takes an instant)."""


@dataclass(frozen=True, slots=True)
class _Prepared:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, str, bool], ...]
    """(parameter's position, name of the value that goes there, whether it goes as the database's
    form of an instant: SQLite's text, where Django adapted the marker so)."""
    compiler: SQLCompiler
    locks: bool
    rows_to_instances: _Instances | None
    """None for a ``values_list`` statement (:func:`prepared_values`): its rows are tuples."""
    converters: dict[int, Any]
    """The columns' converters (a ``values_list`` statement's; a model's are in ``rows_to_instances``)."""
    planned: _Planned | None
    """The statement planned once per connection (PostgreSQL), for a caller that asks it."""


@dataclass(frozen=True, slots=True)
class _Planned:
    """A statement prepared on the server (``PREPARE``) the first time a connection runs it, in the
    same round trip as its first ``EXECUTE``; then only executed: PostgreSQL plans it again for
    every statement sent as text, and for a read of a few rows joined over seven tables the plan
    cost the server three times the read. A server session must stay with its connection (Django's
    own persistent connections do; a pooler that hands sessions round per transaction would not)."""

    name: str
    first: str
    """``PREPARE … ; EXECUTE …``: one string, one round trip (and one statement for the counts)."""
    again: str
    """``EXECUTE …``."""


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
_PLANS: weakref.WeakKeyDictionary[Any, dict[str, bool]] = weakref.WeakKeyDictionary()
"""By the driver's connection, the planned statements it holds (True), or whose first run failed
(False: whether its ``PREPARE`` took is not known, so that connection sends it as text from then
on). A connection closed and opened again is a new key: its statements are prepared again."""
_PLACEHOLDER = re.compile(r"%%|%s")


def _planned(sql: str, count: int) -> _Planned:
    """``sql`` (the driver's ``%s`` placeholders, ``%%`` a percent sign) as a server-side statement of
    ``count`` parameters, named after its text."""
    numbers = iter(range(1, count + 1))
    body = _PLACEHOLDER.sub(lambda found: found.group(0) if found.group(0) == "%%" else f"${next(numbers)}", sql)
    name = "prepared_" + hashlib.blake2b(sql.encode(), digest_size=10).hexdigest()
    again = f"EXECUTE {name} ({', '.join(['%s'] * count)})" if count else f"EXECUTE {name}"
    return _Planned(name=name, first=f"PREPARE {name} AS {body}; {again}", again=again)


def _marker(value: Value, index: int) -> Value:
    if isinstance(value, datetime):
        return MARK_TIME + timedelta(microseconds=index)
    return MARK + index if isinstance(value, int) else str(MARK + index)


def _prepare(
    name: str, build: Callable[..., QuerySet[Any]], values: dict[str, Value], alias: str, *, tuples: bool = False
) -> _Prepared:
    names = sorted(values)
    markers = {value: _marker(values[value], index) for index, value in enumerate(names)}
    adapt = connections[alias].ops.adapt_datetimefield_value
    queryset = build(**markers)
    iterable = models.query.ValuesListIterable if tuples else models.query.ModelIterable
    if queryset.__dict__["_prefetch_related_lookups"] or queryset._iterable_class is not iterable:
        what = "values_list() rows" if tuples else "model instances"
        raise ValueError(f"prepared {name!r}: {what} only (no other values(), no prefetch)")
    compiler = queryset.query.get_compiler(using=alias)
    sql, params = compiler.as_sql()
    slots = tuple(
        (position, value, param != mark)
        for position, param in enumerate(params)
        for value, mark in markers.items()
        if param == mark or (isinstance(mark, datetime) and param == adapt(mark))
    )
    missing = set(names) - {value for _position, value, _adapted in slots}
    if missing:
        raise ValueError(f"prepared_rows({name!r}): {sorted(missing)} are not parameters of the statement")
    locks = bool(queryset.query.select_for_update) and connections[alias].features.has_select_for_update
    return _Prepared(
        sql=sql,
        params=tuple(params),
        slots=slots,
        compiler=compiler,
        locks=locks,
        rows_to_instances=None if tuples else _how(compiler, alias),
        converters=compiler.get_converters([column[0] for column in compiler.select[0 : compiler.col_count]])
        if tuples
        else {},
        planned=_planned(sql, len(params)) if connections[alias].vendor == "postgresql" else None,
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
    name: str,
    build: Callable[..., QuerySet[M]],
    *,
    using: str = "default",
    server_plan: bool = False,
    **values: Value,
) -> list[M]:
    """The model instances ``build(**values)`` would give, from the statement compiled once under
    ``name`` (module docstring). ``server_plan``: planned once per connection by PostgreSQL too
    (:class:`_Planned`), for a read of many joined tables that the server planned for longer than
    it ran it; elsewhere, or on another database, the text as for any statement."""
    prepared, rows = _run(name, build, using=using, server_plan=server_plan, tuples=False, values=values)
    assert prepared.rows_to_instances is not None  # a model's statement
    return _instances(prepared.compiler, prepared.rows_to_instances, rows, using)


def prepared_values(
    name: str,
    build: Callable[..., QuerySet[Any]],
    *,
    using: str = "default",
    server_plan: bool = False,
    **values: Value,
) -> list[tuple[Any, ...]]:
    """The rows ``build(**values)`` — a ``values_list`` queryset — would give, as tuples, from the
    statement compiled once under ``name`` (module docstring; ``server_plan`` as :func:`prepared_rows`'s)."""
    prepared, rows = _run(name, build, using=using, server_plan=server_plan, tuples=True, values=values)
    if not prepared.converters:
        return [tuple(row) for row in rows]
    return [tuple(row) for row in prepared.compiler.apply_converters(rows, prepared.converters)]


def _run(
    name: str,
    build: Callable[..., QuerySet[Any]],
    *,
    using: str,
    server_plan: bool,
    tuples: bool,
    values: dict[str, Value],
) -> tuple[_Prepared, list[Any]]:
    """The statement of ``name`` (compiled now if it was not yet) run with ``values``: its rows as
    the driver gave them."""
    connection = connections[using]
    key = (name, connection.vendor)
    prepared = _PREPARED.get(key)
    if prepared is None:
        prepared = _PREPARED[key] = _prepare(name, build, values, using, tuples=tuples)
    if prepared.locks and connection.get_autocommit() and connection.features.supports_transactions:
        raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
    params = list(prepared.params)
    for position, value, adapted in prepared.slots:
        given = values[value]
        params[position] = (
            connection.ops.adapt_datetimefield_value(given) if adapted and isinstance(given, datetime) else given
        )
    with connection.cursor() as cursor:
        if server_plan and prepared.planned is not None:
            _planned_execute(cursor, prepared, prepared.planned, connection.connection, params)
        else:
            cursor.execute(prepared.sql, params)
        rows = cursor.fetchall()
    return prepared, rows


def _planned_execute(cursor: Any, prepared: _Prepared, planned: _Planned, driver: Any, params: list[Any]) -> None:
    """Execute ``prepared`` on ``driver``'s connection as ``planned``: prepared there with its first run."""
    plans = _PLANS.get(driver)
    if plans is None:
        plans = _PLANS[driver] = {}
    held = plans.get(planned.name)
    if held:
        cursor.execute(planned.again, params)
    elif held is False:
        cursor.execute(prepared.sql, params)
    else:
        plans[planned.name] = False  # until it ran: a failure midway leaves it unknown
        cursor.execute(planned.first, params)
        plans[planned.name] = True


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
