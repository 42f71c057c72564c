"""A match's result in columns of its own (``Match.snapshot_winner`` and the rest, generated from the
snapshot by the database): the standings read them instead of the snapshot, so they must say what the
snapshot says — after every write, whatever made it, and for the rows stored before the columns existed."""

from __future__ import annotations

import pytest

from scoring.match import replay_json
from scoring.profiles import options_for
from tests.factories import round_match, table_match
from tests.migrating import leaf_nodes, migrate
from tournament.matches.models import Match
from tournament.matches.services import deal_record
from tournament.matches.snapshot_reads import (
    RESULT_COLUMNS,
    RESULT_KEYS,
    result_record,
    snapshot_from_values,
    snapshot_lookups,
)
from tournament.standings.selectors import MatchRecord

BEFORE = [("matches", "0019_stage_rules_without_game")]
AFTER = [("matches", "0020_snapshot_result_columns")]

FORFEIT = {"status": "finished", "winner": "EW", "reason": "forfeit", "levels": {"NS": 2, "EW": 2}}
DOUBLE_FORFEIT = {"status": "finished", "winner": None, "reason": "forfeit", "levels": {"NS": 2, "EW": 2}}
POINTS = {"status": "finished", "winner": "NS", "reason": "time", "levels": {"NS": 9, "EW": 7}}
POINTS["points"] = {"NS": 6, "EW": 2}
PARTIAL = {"status": "in_progress", "levels": {"NS": 5}}  # one side only: the reader takes no pair


def stored_result(match_id: int) -> tuple:
    """The match's result columns as a standings read fetches them."""
    return Match.objects.filter(pk=match_id).values_list(*RESULT_COLUMNS).get()


def snapshot_record(match_id: int) -> MatchRecord:
    """The record the standings read before the columns: the snapshot's result keys fetched alone."""
    number, ns, ew, *values = (
        Match.objects.filter(pk=match_id)
        .values_list("round__number", "ns_pair_id", "ew_pair_id", *snapshot_lookups(*RESULT_KEYS))
        .get()
    )
    snapshot = snapshot_from_values(RESULT_KEYS, values)
    return MatchRecord.from_snapshot(round=number, ns=str(ns), ew=str(ew), snapshot=snapshot)


def column_record(match_id: int) -> MatchRecord:
    number, ns, ew = Match.objects.filter(pk=match_id).values_list("round__number", "ns_pair_id", "ew_pair_id").get()
    return result_record(round=number, ns=ns, ew=ew, values=stored_result(match_id))


@pytest.mark.django_db
def test_the_columns_follow_every_write_of_the_snapshot_and_read_as_it_does():
    match = table_match()
    assert stored_result(match.pk) == (None, None, None, None, None, None)  # never folded: the start
    assert column_record(match.pk) == snapshot_record(match.pk)
    for order in ("NS", "EW", "NES"):  # the one write path: the fold stores the snapshot
        deal_record(match_id=match.pk, outcome={"order": list(order)})
        levels = Match.objects.get(pk=match.pk).snapshot.levels
        assert stored_result(match.pk)[2:4] == (levels.NS, levels.EW)
        assert column_record(match.pk) == snapshot_record(match.pk)
    deals: list[dict] = []
    while not deals or not replay_json({"profile": "timed-40", "deals": deals}).is_finished:
        deals.append({"order": ["N", "S"]})
    finished = replay_json({"profile": "timed-40", "deals": deals}).to_json()
    # Any other write of the snapshot (a bulk update, a repair by hand) moves the columns with it: the
    # database computes them. A JSON null winner (a double forfeit) is no winner on every database.
    for state in (finished, FORFEIT, DOUBLE_FORFEIT, POINTS, PARTIAL, {}):
        Match.objects.filter(pk=match.pk).update(state=state)
        assert column_record(match.pk) == snapshot_record(match.pk), state
        if state is DOUBLE_FORFEIT:
            assert stored_result(match.pk) == (None, "forfeit", 2, 2, None, None)
    assert stored_result(match.pk) == (None, None, None, None, None, None)


@pytest.mark.django_db
def test_a_three_seat_table_has_no_result_of_two_sides():
    match = table_match()
    seats = round_match(round_=match.round)
    Match.objects.filter(pk=seats.pk).update(ns_pair=None, ew_pair=None, state={"points": [3, -1, -2]})
    assert stored_result(seats.pk) == (None, None, None, None, None, None)


@pytest.mark.django_db(transaction=True)
def test_old_rows_get_their_columns_from_their_snapshots():
    try:
        apps = migrate(BEFORE)
        Tournament = apps.get_model("registration", "Tournament")
        Pair = apps.get_model("registration", "Pair")
        Stage = apps.get_model("matches", "Stage")
        Round = apps.get_model("matches", "Round")
        OldMatch = apps.get_model("matches", "Match")
        tournament = Tournament.objects.create(name="旧赛事", rule_profile="timed-40")
        stage = Stage.objects.create(
            tournament=tournament, name="预赛", format="swiss", rules=options_for(profile="timed-40").to_stored()
        )
        round_ = Round.objects.create(stage=stage, number=1, status="running")
        a, b, c, d, e, f, g = (
            Pair.objects.create(tournament=tournament, name=name, number=n) for n, name in enumerate("ABCDEFG", 1)
        )
        old = {
            "points": OldMatch.objects.create(
                round=round_, ns_pair=a, ew_pair=b, status="finished", state=POINTS, winner="NS", result_reason="time"
            ),
            "forfeit": OldMatch.objects.create(
                round=round_,
                ns_pair=c,
                ew_pair=d,
                status="finished",
                state=FORFEIT,
                winner="EW",
                result_reason="forfeit",
            ),
            "double": OldMatch.objects.create(
                round=round_, ns_pair=f, ew_pair=g, status="finished", state=DOUBLE_FORFEIT, result_reason="forfeit"
            ),
            "bye": OldMatch.objects.create(round=round_, ns_pair=e, status="finished"),
            "seats": OldMatch.objects.create(round=round_, status="running", state={"points": [1, 0, -1]}),
        }
        ids = {name: row.pk for name, row in old.items()}
        migrate(AFTER)
        migrate(leaf_nodes())  # read with today's models
        assert stored_result(ids["points"]) == ("NS", "time", 9, 7, 6, 2)
        assert stored_result(ids["forfeit"]) == ("EW", "forfeit", 2, 2, None, None)
        assert stored_result(ids["double"]) == (None, "forfeit", 2, 2, None, None)
        assert stored_result(ids["bye"]) == (None, None, None, None, None, None)
        assert stored_result(ids["seats"]) == (None, None, None, None, None, None)
        for name in ("points", "forfeit", "double"):
            assert column_record(ids[name]) == snapshot_record(ids[name])
    finally:
        migrate(leaf_nodes())
