"""A stage's records (and a round's draw) are made again only for the matches whose stored result
(the match row's result columns; the draw: its snapshot) changed since the worker last read the stage
(built the draw); the rest keep theirs, and the answer is the one a first read gives — whatever wrote the
change (a deal, or a write that moves no version at all)."""

from __future__ import annotations

import pytest

from tests.tournament.standings.events import play_out, swiss_event
from tournament.matches.models import Match, MatchStatus, Stage
from tournament.matches.services import deal_delete
from tournament.standings import public, selectors
from tournament.standings.cache import LocalMemo
from tournament.standings.public import draw_list, standings_get

pytestmark = pytest.mark.django_db


@pytest.fixture
def decoded(monkeypatch):
    """The matches whose record each read of the records made, as (round, N/S pair); a fresh worker memory."""
    monkeypatch.setattr(selectors, "read_records", LocalMemo(8))
    made: list[tuple[int, int]] = []
    real = selectors.result_record

    def counting(*, round, ns, ew, values):
        made.append((round, ns))
        return real(round=round, ns=ns, ew=ew, values=values)

    monkeypatch.setattr(selectors, "result_record", counting)
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


@pytest.fixture
def draw_decoded(monkeypatch):
    """How many of a round's snapshots each draw build read back; a fresh worker memory."""
    monkeypatch.setattr(public, "read_draw_snapshots", LocalMemo(4))
    made: list[int] = []
    real = public.snapshot_from_values

    def counting(keys, values):
        made.append(1)
        return real(keys, values)

    monkeypatch.setattr(public, "snapshot_from_values", counting)
    return made


def fresh_draw(tournament_id: int, round_id: int) -> tuple:
    """A round's draw as a worker that never built it builds it."""
    held = public.read_draw_snapshots
    public.read_draw_snapshots = LocalMemo(4)
    try:
        return draw_list(tournament_id=tournament_id, round_id=round_id)
    finally:
        public.read_draw_snapshots = held


def test_a_draw_build_after_a_deal_reads_back_that_table_alone(draw_decoded):
    event = swiss_event()
    tournament_id, round_id = event.tournament.pk, event.second.pk
    first = draw_list(tournament_id=tournament_id, round_id=round_id)
    assert len(draw_decoded) == len(first) == 4  # every table, the first time
    draw_decoded.clear()
    assert draw_list(tournament_id=tournament_id, round_id=round_id) == first
    assert draw_decoded == []

    match = event.second.matches.exclude(ew_pair=None).order_by("table__number").first()
    play_out(match, deals=1)
    again = draw_list(tournament_id=tournament_id, round_id=round_id)
    assert len(draw_decoded) == 1
    assert again == fresh_draw(tournament_id, round_id) and again != first
    assert again[0].levels != first[0].levels and again[1:] == first[1:]


def test_a_draw_build_reads_again_a_snapshot_written_behind_every_version(draw_decoded):
    event = swiss_event()
    tournament_id, round_id = event.tournament.pk, event.second.pk
    first_table, second_table = event.second.matches.exclude(ew_pair=None).order_by("table__number")[:2]
    play_out(first_table, deals=2)
    before = draw_list(tournament_id=tournament_id, round_id=round_id)
    Match.objects.filter(pk=second_table.pk).update(state=Match.objects.get(pk=first_table.pk).state)
    draw_decoded.clear()
    again = draw_list(tournament_id=tournament_id, round_id=round_id)
    assert draw_decoded == []  # its texts are now the first table's: the snapshot read from them holds
    assert again == fresh_draw(tournament_id, round_id) and again[1].levels == before[0].levels != before[1].levels
