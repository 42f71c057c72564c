"""The stored snapshot read back: ``MatchResult.to_json`` writes ``"schema": 1`` and
:class:`scoring.snapshot.MatchSnapshot` is its one reader — for both games, for snapshots stored
before the version was written, and for a match never folded (``{}``)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.match import replay_json
from scoring.snapshot import SCHEMA, DealSnapshot, MatchSnapshot, SidePair


def folded(**data: Any) -> dict[str, Any]:
    return replay_json(data).to_json()


GUANDAN = folded(profile="classic", deals=[{"order": ["N", "S"]}, {"order": ["E", "N", "W"]}])
POINTS = folded(
    profile="classic",
    rules={"format": "fixed_deals_points", "deals": 3},
    deals=[{"order": ["N", "S"]}, {"order": ["E", "W"]}],
)
BEST_OF = folded(profile="classic", rules={"format": "best_of", "games": 3}, deals=[{"order": ["N", "S"]}] * 4)
TRACTOR = folded(
    profile="tractor-3deck",
    deals=[
        {"declarer": "N", "defender_points": 40},
        {"defender_points": 100, "bottom": {"points": 20, "capture": "pair"}},
        {"defender_points": 150, "wrong_bottom": True},
    ],
)
EVERY = [GUANDAN, POINTS, BEST_OF, TRACTOR]


def test_the_snapshot_carries_its_schema() -> None:
    assert all(state["schema"] == SCHEMA == 1 for state in EVERY)


@pytest.mark.parametrize("state", EVERY, ids=["guandan", "points", "best_of", "tractor"])
def test_every_record_reads_back_as_written(state: dict[str, Any]) -> None:
    snapshot = MatchSnapshot.from_json(state)
    assert snapshot.folded and snapshot.status == state["status"] and snapshot.winner == state["winner"]
    assert [deal.to_json() for deal in snapshot.deals] == state["deals"]
    assert list(snapshot.adjustments) == state["adjustments"]
    assert (snapshot.next_deal.to_json() if snapshot.next_deal else None) == state["next_deal"]
    for key in ("levels", "a_failures", "points", "games"):
        pair = getattr(snapshot, key)
        assert (pair.to_json() if pair is not None else None) == state.get(key)
    assert snapshot.last_regular_deal == state["last_regular_deal"]
    assert snapshot.next_declarer == state.get("next_declarer")


def test_a_snapshot_stored_without_the_version_is_version_1() -> None:
    for state in EVERY:
        unversioned = {key: value for key, value in state.items() if key != "schema"}
        assert MatchSnapshot.from_json(unversioned) == MatchSnapshot.from_json(state)


def test_a_match_never_folded_is_the_start_of_a_match() -> None:
    snapshot = MatchSnapshot.from_json({})
    assert not snapshot.folded and snapshot.deals == () and snapshot.next_deal is None
    assert snapshot.levels_or_start == SidePair(2, 2)
    assert snapshot.next_deal_or_start is not None
    assert snapshot.next_deal_or_start.to_json() == {"number": 1, "level": 2, "sets_level": None, "extra": False}
    assert MatchSnapshot.from_json(None) == snapshot


def test_a_finished_match_has_no_next_deal_even_from_the_start_default() -> None:
    state = folded(profile="timed-40", deals=[{"order": ["N", "S"]}] * 3 + [{"order": ["N", "E", "S"]}])
    snapshot = MatchSnapshot.from_json(state)
    assert snapshot.finished and snapshot.next_deal is None and snapshot.next_deal_or_start is None


def test_an_unknown_schema_is_refused_not_guessed() -> None:
    with pytest.raises(ValueError, match="schema 2"):
        MatchSnapshot.from_json({**GUANDAN, "schema": 2})


def test_records_stored_before_a_field_existed_read_as_its_no() -> None:
    guandan = {key: value for key, value in GUANDAN["deals"][0].items() if key != "anti_tribute"}
    tractor = {key: value for key, value in TRACTOR["deals"][0].items() if key not in ("wrong_bottom", "wrong_count")}
    assert DealSnapshot.from_json(guandan) == DealSnapshot.from_json(GUANDAN["deals"][0])
    old = DealSnapshot.from_json(tractor)
    assert old is not None and old.tractor and (old.wrong_bottom, old.wrong_count) == (False, None)


def test_a_flagged_deal_has_no_record() -> None:
    assert DealSnapshot.from_json({}) is None


def test_a_snapshot_fetched_in_part_reads_the_rest_as_never_folded() -> None:
    part = MatchSnapshot.from_json({"levels": GUANDAN["levels"], "points": None})
    assert part.levels == SidePair(GUANDAN["levels"]["NS"], GUANDAN["levels"]["EW"])
    assert (part.points, part.deals, part.status) == (None, (), None)
