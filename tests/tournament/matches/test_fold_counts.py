"""One fold per write: a deal entry, correction, deletion or adjustment folds the match
through the rules core once, parses the deal it was given once, and checks the clock once, inside
the lock — also when time is called by that very write."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import Counter
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest

from scoring import match as scoring_match
from scoring.options import Game
from tests.factories import table_match
from tournament.games import GAMES, GUANDAN
from tournament.matches import fold as fold_module
from tournament.matches import services
from tournament.matches.clock import round_start
from tournament.matches.models import Match
from tournament.matches.services import adjustment_record, deal_correct, deal_delete, deal_record

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 5, 1, 9, 0, tzinfo=dt.timezone.utc)


class Spy:
    """Counts the rules core's folds and the parses of each deal, and the clock's locks."""

    def __init__(self) -> None:
        self.folds = 0
        self.parses: Counter[int] = Counter()
        self.locks = 0

    def reset(self) -> None:
        self.folds, self.parses, self.locks = 0, Counter(), 0


@pytest.fixture
def spy() -> Iterator[Spy]:
    counts = Spy()
    # the write parses its deal through its game's reader (fold.match_deal_parse), the fold any stored
    # deal through fold's parse_deal: both are spied on, so every parse is seen
    real_fold, real_parse, real_locked = scoring_match.replay_partial, fold_module.parse_deal, services.locked_match

    def fold(**kwargs: Any) -> Any:
        counts.folds += 1
        return real_fold(**kwargs)

    def parse(**kwargs: Any) -> Any:
        counts.parses[kwargs["number"]] += 1
        return real_parse(**kwargs)

    def locked(match_id: int) -> Match:
        counts.locks += 1
        return real_locked(match_id)

    with (
        mock.patch.object(fold_module, "replay_partial", fold),
        mock.patch.object(fold_module, "parse_deal", parse),
        mock.patch.dict(GAMES, {Game.GUANDAN: dataclasses.replace(GUANDAN, parse_deal=parse)}),
        mock.patch.object(services, "locked_match", locked),
    ):
        yield counts


def test_a_deal_entry_folds_once_and_parses_its_deal_once(spy: Spy) -> None:
    match = table_match()
    deal_record(match_id=match.pk, outcome={"order": list("NS")})
    assert (spy.folds, spy.parses[1], spy.locks) == (1, 1, 1)
    spy.reset()
    deal_record(match_id=match.pk, outcome={"order": list("EW")})
    assert (spy.folds, spy.parses[2], spy.locks) == (1, 1, 1)


def test_a_correction_a_deletion_and_an_adjustment_fold_once(spy: Spy) -> None:
    match = table_match()
    for order in ("NS", "EW", "NES"):
        deal_record(match_id=match.pk, outcome={"order": list(order)})
    spy.reset()
    deal_correct(match_id=match.pk, number=2, outcome={"order": list("NS")}, reason="typo")
    assert (spy.folds, spy.parses[2], spy.locks) == (1, 1, 1)
    spy.reset()
    adjustment_record(match_id=match.pk, pair_id=match.ew_pair_id, kind="penalty", levels=1, reason="x")
    assert (spy.folds, spy.locks) == (1, 1)
    spy.reset()
    deal_delete(match_id=match.pk, number=3, reason="doubled")
    assert (spy.folds, spy.locks) == (1, 1)
    match.refresh_from_db()
    assert (match.deals.count(), match.adjustments.get().flagged) == (2, False)


def test_a_deal_entered_after_the_cap_calls_time_in_the_same_fold(spy: Spy, time_machine: Any) -> None:
    time_machine.move_to(T0, tick=False)
    match = table_match(profile="timed-40")
    round_start(round_id=match.round_id)
    deal_record(match_id=match.pk, outcome={"order": list("NS")})
    time_machine.shift(dt.timedelta(minutes=45))
    spy.reset()
    deal_record(match_id=match.pk, outcome={"order": list("EW")})
    assert (spy.folds, spy.parses[2], spy.locks) == (1, 1, 1)  # before: 3 folds, 3 parses, 2 locks
    match.refresh_from_db()
    assert (match.time_called_during_deal, match.state["last_regular_deal"], match.version) == (2, 2, 3)


def test_a_deal_is_stored_with_its_record_in_one_write():
    """The new deal's row is inserted with the fold's record — no update after it, no
    read back — and its history row (the one the entry made) holds that record too."""
    from tournament.matches.models import Deal

    match = table_match(profile="timed-40")
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    with mock.patch.object(Deal.objects, "bulk_update") as update:
        entry = deal_record(match_id=match.pk, outcome={"order": ["E", "W"]})
    update.assert_not_called()
    stored = Deal.objects.get(pk=entry.deal.pk)
    assert stored.record == entry.deal.record and stored.record["number"] == 2 and not stored.flagged
    assert [row.record for row in stored.history.all()] == [stored.record]
