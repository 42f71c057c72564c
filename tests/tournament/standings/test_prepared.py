"""Querysets compiled once per process and run with new values (``tournament.standings.prepared``)."""

from __future__ import annotations

import pytest
from django.db.models.sql.compiler import SQLCompiler

from tests.tournament.standings.events import swiss_event
from tournament.matches.models import Match
from tournament.registration.models import Pair
from tournament.standings.prepared import PreparedQuery

pytestmark = pytest.mark.django_db


def by_pair(tournament_id: int, pair_id: int):
    return (
        Match.objects.filter(round__stage__tournament_id=tournament_id, ns_pair_id=pair_id)
        .select_related("round__stage", "table", "ns_pair", "ew_pair")
        .order_by("round__number")
    )


def test_a_prepared_query_gives_what_the_queryset_gives_compiled_once(monkeypatch):
    event = swiss_event()
    tournament_id = event.tournament.pk
    prepared = PreparedQuery(by_pair, values=2)
    pairs = list(Pair.objects.filter(tournament_id=tournament_id))
    compiled: list[object] = []
    as_sql = SQLCompiler.as_sql

    def counted(self, *args, **kwargs):
        compiled.append(self)
        return as_sql(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counted)
    for pair in pairs:
        got = prepared(tournament_id, pair.pk)
        compiled_before = len(compiled)
        expected = list(by_pair(tournament_id, pair.pk))
        assert len(compiled) == compiled_before + 1  # the ORM compiles every time
        assert [match.pk for match in got] == [match.pk for match in expected] and got
        for mine, theirs in zip(got, expected, strict=True):
            assert mine.state == theirs.state and mine.snapshot == theirs.snapshot  # JSON read back alike
            assert (mine.round.number, mine.round.stage.name, mine.table.number) == (
                theirs.round.number,
                theirs.round.stage.name,
                theirs.table.number,
            )
            assert (mine.ns_pair.name, mine.ew_pair and mine.ew_pair.name) == (
                theirs.ns_pair.name,
                theirs.ew_pair and theirs.ew_pair.name,
            )
    assert len(compiled) == 1 + len(pairs)  # the prepared query: once, whatever the values
    assert prepared(tournament_id + 1, event.first.matches.first().ns_pair_id) == []


def test_a_value_that_is_no_parameter_is_refused():
    prepared = PreparedQuery(lambda pair_id: Pair.objects.all()[: 1 if pair_id else 2], values=1)
    with pytest.raises(ValueError, match="parameter"):
        prepared(1)
