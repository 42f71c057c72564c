"""A stage's records are read back from the stored snapshots only for the matches whose stored result
changed since the worker last read the stage; the rest keep their records, and the answer is the one
a first read gives — whatever wrote the change (a deal, or a write that moves no version at all)."""

from __future__ import annotations

import pytest

from tests.tournament.standings.events import play_out, swiss_event
from tournament.matches.models import Match, MatchStatus, Stage
from tournament.matches.services import deal_delete
from tournament.standings import selectors
from tournament.standings.cache import LocalMemo
from tournament.standings.public import standings_get

pytestmark = pytest.mark.django_db


@pytest.fixture
def decoded(monkeypatch):
    """The matches read back (decoded) by each read of the records, by match id; a fresh worker memory."""
    monkeypatch.setattr(selectors, "read_records", LocalMemo(8))
    made: list[tuple[int, int]] = []
    real = selectors._record_rows

    def counting(matches, *, decode):
        rows = real(matches, decode=decode)
        made.extend((row.round, row.ns) for row in rows if row.record is not None)
        return rows

    monkeypatch.setattr(selectors, "_record_rows", counting)
    return made


def first_read(stage: Stage) -> list:
    """The records as a worker that never read the stage reads them."""
    held = selectors.read_records
    selectors.read_records = LocalMemo(8)
    try:
        return selectors.stage_match_records(stage=stage)
    finally:
        selectors.read_records = held


def test_a_read_after_one_match_finished_decodes_that_match_alone(decoded):
    event = swiss_event()
    stage = Stage.objects.get(pk=event.first.stage_id)
    records = selectors.stage_match_records(stage=stage)
    assert len(records) == len(decoded) == 4  # round 1's four tables, all read back the first time
    decoded.clear()
    assert selectors.stage_match_records(stage=stage) == records
    assert decoded == []  # nothing changed: nothing read back

    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    assert play_out(match).status == MatchStatus.FINISHED
    again = selectors.stage_match_records(stage=stage)
    assert decoded == [(2, match.ns_pair_id)]  # the one match that finished
    assert again == first_read(stage) and len(again) == 5
    assert again[:4] == records  # in stage order: round 1's tables first

    tournament_id = event.tournament.pk
    built = standings_get(tournament_id=tournament_id, stage_id=stage.pk)
    selectors.read_records = LocalMemo(8)
    assert standings_get(tournament_id=tournament_id, stage_id=stage.pk) == built  # the same as a full build


def test_a_stored_result_written_behind_every_version_is_read_again(decoded):
    event = swiss_event()
    stage = Stage.objects.get(pk=event.first.stage_id)
    records = selectors.stage_match_records(stage=stage)
    won_by_ns, won_by_ew = (
        event.first.matches.exclude(ew_pair=None).order_by("table__number").values_list("pk", flat=True)[:2]
    )
    # The second table's result stored at the first one, its version left as it was (a bulk update, a
    # repair by hand): a memory keyed on the version would keep the first table's old record.
    Match.objects.filter(pk=won_by_ns).update(state=Match.objects.get(pk=won_by_ew).state)
    decoded.clear()
    again = selectors.stage_match_records(stage=stage)
    assert len(decoded) == 1
    assert again == first_read(stage) and again != records
    assert again[0].winner == records[1].winner != records[0].winner


def test_a_result_taken_back_leaves_the_records_and_comes_back_the_same(decoded):
    event = swiss_event()
    stage = Stage.objects.get(pk=event.first.stage_id)
    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    finished = play_out(match)
    records = selectors.stage_match_records(stage=stage)
    last = finished.deals.order_by("-number").first()
    deal_delete(match_id=match.pk, number=last.number, reason="entered at the wrong table")
    assert Match.objects.get(pk=match.pk).status == MatchStatus.RUNNING
    assert selectors.stage_match_records(stage=stage) == records[:4] == first_read(stage)
    play_out(Match.objects.get(pk=match.pk))
    assert selectors.stage_match_records(stage=stage) == records == first_read(stage)
