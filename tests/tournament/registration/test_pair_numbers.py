"""Each event numbers its pairs 1…N: by registration, continued by an import, per event."""

from __future__ import annotations

import io

import pytest
from django.db import IntegrityError, transaction
from openpyxl import Workbook

from tests.factories import TournamentFactory
from tests.migrating import empty_database, migrate
from tournament.registration.models import Pair
from tournament.registration.roster import roster_import
from tournament.registration.services import PlayerData, pair_register


def _register(tournament, first: str, second: str) -> Pair:
    return pair_register(tournament=tournament, first=PlayerData(name=first), second=PlayerData(name=second))


def _roster(*pairs: tuple[str, str]) -> io.BytesIO:
    book = Workbook()
    sheet = book.active
    sheet.append(["姓名", "工号", "部门", "搭档工号", "手机"])
    for first, second in pairs:
        sheet.append([f"甲{first}", first, "", second, ""])
        sheet.append([f"乙{second}", second, "", first, ""])
    buffer = io.BytesIO()
    book.save(buffer)
    buffer.seek(0)
    return buffer


@pytest.mark.django_db
def test_pairs_are_numbered_from_one_in_each_event_and_an_import_continues_the_list():
    spring, autumn = TournamentFactory(), TournamentFactory()
    assert _register(spring, "张", "李").number == 1
    assert _register(autumn, "王", "赵").number == 1  # each event its own 1…N, not a shared id
    assert _register(spring, "孙", "周").number == 2
    roster_import(tournament=spring, file=_roster(("101", "102"), ("201", "202")))
    numbers = list(Pair.objects.filter(tournament=spring).order_by("id").values_list("number", flat=True))
    assert numbers == [1, 2, 3, 4]


@pytest.mark.django_db
def test_two_pairs_of_an_event_cannot_share_a_number():
    tournament = TournamentFactory()
    _register(tournament, "张", "李")
    with pytest.raises(IntegrityError), transaction.atomic():
        Pair.objects.create(tournament=tournament, number=1, name="重号")


@pytest.mark.django_db(transaction=True)
def test_the_migration_numbers_existing_pairs_per_event_in_registration_order():
    before = [("registration", "0006_provisional_results")]
    after = [("registration", "0007_pair_number")]

    with empty_database():  # forward only, on a database of its own (tests/migrating.py says why)
        apps = migrate(before)
        Tournament = apps.get_model("registration", "Tournament")
        OldPair = apps.get_model("registration", "Pair")
        first, second = (Tournament.objects.create(name=name, rule_profile="timed-40") for name in ("一", "二"))
        ids = [
            OldPair.objects.create(tournament=event, name=f"对{n}").pk
            for n, event in enumerate([first, second, first, second, first])
        ]
        apps = migrate(after)
        NewPair = apps.get_model("registration", "Pair")
        numbers = {pair.pk: (pair.tournament_id, pair.number) for pair in NewPair.objects.all()}
        assert [numbers[pk] for pk in ids] == [
            (first.pk, 1),
            (second.pk, 1),
            (first.pk, 2),
            (second.pk, 2),
            (first.pk, 3),
        ]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_registrations_at_the_same_moment_take_different_numbers():
    """Four organisers' desks register at once (real connections): the tournament row lock hands out 1…4."""
    from tests.tournament.matches.test_concurrency_postgres import together

    tournament = TournamentFactory()
    results = together(*[lambda n=n: _register(tournament, f"甲{n}", f"乙{n}").number for n in range(4)])
    assert sorted(value for kind, value in results if kind == "ok") == [1, 2, 3, 4], results
