"""Querysets compiled once per process, run with new values.

Django compiles a queryset's SQL afresh every time it runs: for a pair's matches with their rounds,
stages, tournaments, tables and pairs (every column of six models) that is some 5 ms of a worker,
more than PostgreSQL takes to answer it, on every first view of a pair's page. A
:class:`PreparedQuery` compiles its queryset once (with placeholder values no row has), keeps the
SQL and the compiler's description of the rows, and then only swaps the values in, runs the SQL and
builds the model instances as Django's own iteration does (the model and its ``select_related``
objects, the columns' converters applied).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, NamedTuple, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

__all__ = ["PreparedQuery"]

M = TypeVar("M", bound=Model)

PLACEHOLDERS = (-987_654_301, -987_654_302, -987_654_303)
"""The values a prepared queryset is compiled with: ids no row has, each found again among the
compiled parameters and replaced by the value of its place."""


class _Compiled(NamedTuple):
    compiler: Any
    sql: str
    params: tuple[Any, ...]


class PreparedQuery(Generic[M]):
    """``build(*values)``'s queryset of model instances, compiled once per database and process
    (module docstring). ``build`` must use each value only as a query parameter (a filter's value),
    never to choose the query's shape."""

    def __init__(self, build: Callable[..., QuerySet[M]], *, values: int) -> None:
        self.build = build
        self.placeholders = PLACEHOLDERS[:values]
        self._compiled: dict[tuple[str, str], _Compiled] = {}
        self._db: str | None = None

    def _compile(self) -> _Compiled:
        key = (self._db, connections[self._db].vendor) if self._db is not None else None
        compiled = self._compiled.get(key) if key is not None else None
        if compiled is None:
            queryset = self.build(*self.placeholders)
            self._db = db = queryset.db
            compiler = queryset.query.get_compiler(using=db)
            sql, params = compiler.as_sql()
            found = {param for param in params if type(param) is int and param in self.placeholders}
            if found != set(self.placeholders):
                raise ValueError("a prepared queryset must use each of its values as a parameter")
            compiled = self._compiled[(db, connections[db].vendor)] = _Compiled(compiler, sql, tuple(params))
        return compiled

    def __call__(self, *values: int) -> list[M]:
        compiler, sql, params = self._compile()
        db = compiler.using
        given = dict(zip(self.placeholders, values, strict=True))
        with connections[db].cursor() as cursor:
            cursor.execute(sql, [given.get(param, param) if type(param) is int else param for param in params])
            rows = cursor.fetchall()
        # As django.db.models.query.ModelIterable builds its objects from the rows.
        select, klass_info = compiler.select, compiler.klass_info
        converters = compiler.get_converters([column[0] for column in select[0 : compiler.col_count]])
        if converters:
            rows = list(compiler.apply_converters(rows, converters))
        model: type[M] = klass_info["model"]
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        names = [column[0].target.attname for column in select[start:end]]
        populators = get_related_populators(klass_info, select, db)  # type: ignore[call-arg]  # stubs of Django 6
        objects = []
        for row in rows:
            instance = model.from_db(db, names, row[start:end])
            for populator in populators:
                populator.populate(row, instance)
            objects.append(instance)
        return objects
