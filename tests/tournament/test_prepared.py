"""A statement compiled once per process gives what the queryset gives: the same rows, its related
objects and annotations, fresh values each time; it refuses what it cannot keep."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.factories import organiser, referee, table_match
from tournament import prepared
from tournament.matches import access
from tournament.matches.fold import deal_entry_reads
from tournament.matches.models import Adjustment, Match
from tournament.prepared import prepared_rows, prepared_values

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_statements(monkeypatch):
    monkeypatch.setattr(prepared, "_PREPARED", {})


def _with_event(*, match: int) -> QuerySet[Match]:
    rows = Match.objects.select_related("round__stage__tournament", "table", "ns_pair", "ew_pair").order_by()
    return rows.annotate(has_adjustments=Exists(Adjustment.objects.filter(match=OuterRef("pk")))).filter(pk=match)


def test_the_rows_are_the_querysets_with_their_related_objects_and_annotations():
    first, second = table_match(), table_match()
    for match in (first, second, first):  # compiled at the first, the values change
        (got,) = prepared_rows("test:with_event", _with_event, match=match.pk)
        (expected,) = _with_event(match=match.pk)
        assert got.pk == match.pk and got.__dict__.keys() == expected.__dict__.keys()
        for name in ("state", "version", "status", "ns_pair_id", "has_adjustments"):
            assert getattr(got, name) == getattr(expected, name)
        assert Match.round.is_cached(got) and got.round.stage.tournament == expected.round.stage.tournament
        assert got.table.number == expected.table.number and got.ew_pair.name == expected.ew_pair.name
    assert prepared_rows("test:with_event", _with_event, match=0) == []


def test_it_is_compiled_once():
    match = table_match()
    calls = []

    def build(*, match: int) -> QuerySet[Match]:
        calls.append(match)
        return Match.objects.order_by().filter(pk=match)

    for _ in range(3):
        assert [row.pk for row in prepared_rows("test:once", build, match=match.pk)] == [match.pk]
    assert calls == [prepared.MARK]


def test_an_instant_is_a_value_as_the_database_takes_it():
    """An instant compared with a column (SQLite's text of it, PostgreSQL's own): the rows of each instant."""
    early, late = table_match(), table_match()
    start = timezone.now()
    Match.objects.filter(pk=early.pk).update(started_at=start - timedelta(minutes=30))
    Match.objects.filter(pk=late.pk).update(started_at=start - timedelta(minutes=5))

    def build(*, now: datetime) -> QuerySet[Match]:
        return Match.objects.order_by("pk").filter(started_at__lte=now).values_list("pk", flat=False)

    for now in (start - timedelta(minutes=10), start, start - timedelta(hours=1)):
        expected = list(build(now=now))
        assert prepared_values("test:instant", build, now=now) == expected
    assert [pk for (pk,) in prepared_values("test:instant", build, now=start)] == [early.pk, late.pk]


def test_a_value_that_shapes_the_statement_is_refused():
    with pytest.raises(ValueError, match="not parameters"):
        prepared_rows("test:shape", lambda *, match: Match.objects.order_by()[: match - prepared.MARK + 1], match=1)


@pytest.mark.django_db(transaction=True)
def test_a_lock_outside_a_transaction_is_refused_as_django_refuses_it():
    """Where the database locks rows (PostgreSQL); SQLite has no FOR UPDATE, and Django lets it be."""
    match = table_match()
    build = lambda *, match: Match.objects.select_for_update(of=("self",)).order_by().filter(pk=match)  # noqa: E731
    with transaction.atomic():
        assert prepared_rows("test:lock", build, match=match.pk)
    if not connection.features.has_select_for_update:
        assert prepared_rows("test:lock", build, match=match.pk)
        return
    with pytest.raises(TransactionManagementError):
        prepared_rows("test:lock", build, match=match.pk)


def test_the_locked_access_check_scopes_by_the_caller_as_before():
    """The referee API's lock: the referee's own table, not another; an organiser every match of
    theirs; each caller's values in the one statement compiled for their kind."""
    ref, other, boss = referee(username="ref"), referee(username="other"), organiser(username="boss")
    match = table_match(referee_user=ref, organiser_user=boss)
    elsewhere = table_match(referee_user=other)
    with transaction.atomic():
        locked = access.match_for_user(user=ref, match_id=match.pk, lock=True, annotate=deal_entry_reads())
        assert locked.pk == match.pk and locked.has_adjustments is False and locked.has_open_claims is False
        assert access.match_for_user(user=other, match_id=elsewhere.pk, lock=True).pk == elsewhere.pk
        assert access.match_for_user(user=boss, match_id=match.pk, lock=True).pk == match.pk
        for user, match_id in ((ref, elsewhere.pk), (other, match.pk), (boss, elsewhere.pk)):
            with pytest.raises(access.Http404):
                access.match_for_user(user=user, match_id=match_id, lock=True)


@pytest.fixture
def no_plans():
    """No statement planned on the test's connection, before and after (the server's and the note alike)."""

    def forget() -> None:
        prepared._PLANS.clear()
        with connection.cursor() as cursor:
            cursor.execute("DEALLOCATE ALL")

    forget()
    yield
    forget()


@pytest.mark.postgres
def test_a_statement_planned_on_the_server_is_prepared_with_its_first_run_then_only_executed(no_plans):
    first, second = table_match(), table_match()
    statements = []
    for match in (first, second, first):
        with CaptureQueriesContext(connection) as queries:
            (got,) = prepared_rows("test:planned", _with_event, server_plan=True, match=match.pk)
        statements += [query["sql"] for query in queries.captured_queries]
        (expected,) = _with_event(match=match.pk)
        assert got.pk == match.pk and got.__dict__.keys() == expected.__dict__.keys()
        assert got.round.stage.tournament == expected.round.stage.tournament and got.has_adjustments is False
    assert len(statements) == 3  # one statement each: the first prepares and executes in one
    assert statements[0].startswith("PREPARE prepared_") and "; EXECUTE prepared_" in statements[0]
    assert all(sql.startswith("EXECUTE prepared_") for sql in statements[1:])
    assert prepared_rows("test:planned", _with_event, server_plan=True, match=0) == []


@pytest.mark.postgres
def test_a_new_connection_prepares_it_again_and_a_failed_first_run_falls_back_to_the_text(no_plans):
    match = table_match()
    assert prepared_rows("test:planned", _with_event, server_plan=True, match=match.pk)
    with connection.cursor() as cursor:  # as a connection opened anew: no statement there, none noted
        cursor.execute("DEALLOCATE ALL")
    del prepared._PLANS[connection.connection]
    with CaptureQueriesContext(connection) as queries:
        (got,) = prepared_rows("test:planned", _with_event, server_plan=True, match=match.pk)
    assert got.pk == match.pk and queries.captured_queries[0]["sql"].startswith("PREPARE")
    plans = prepared._PLANS[connection.connection]
    plans.update(dict.fromkeys(plans, False))  # its first run failed midway: prepared or not, unknown
    with CaptureQueriesContext(connection) as queries:
        assert prepared_rows("test:planned", _with_event, server_plan=True, match=match.pk)
    assert queries.captured_queries[0]["sql"].startswith('SELECT "matches_match"')


def test_on_another_database_a_statement_is_sent_as_text():
    if connection.vendor == "postgresql":
        pytest.skip("PostgreSQL plans it (the tests above)")
    match = table_match()
    with CaptureQueriesContext(connection) as queries:
        assert prepared_rows("test:planned", _with_event, server_plan=True, match=match.pk)
    assert queries.captured_queries[0]["sql"].startswith('SELECT "matches_match"')
