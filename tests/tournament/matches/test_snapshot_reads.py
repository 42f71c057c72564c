"""One reader of the stored snapshot (``tournament.matches.snapshot_reads``): the queries that fetch
a few of its keys, its codes read back as the rules core's enums, and the adjustment records matched
to their rows through the fold's own adjustments."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring.outcome import Reason, Status
from tests.factories import table_match
from tournament.matches.models import Match
from tournament.matches.services import adjustment_record, deal_record
from tournament.matches.snapshot_reads import (
    RESULT_KEYS,
    adjustment_effects_get,
    snapshot_from_values,
    snapshot_lookups,
    snapshot_outcome,
)

ROOT = Path(__file__).resolve().parents[3]


def test_no_query_names_a_snapshot_key_outside_its_reader():
    # the models' module defines the columns the database generates from the snapshot (Match.snapshot_winner…)
    models = ROOT / "tournament/matches/models/core.py"
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in ROOT.joinpath("tournament").rglob("*.py")
        if "migrations" not in path.parts and path.name != "snapshot_reads.py" and path != models
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "state__" in line
    ]
    assert offenders == []


def test_a_key_the_snapshot_does_not_have_is_refused():
    assert snapshot_lookups("levels", "points") == ("state__levels", "state__points")
    with pytest.raises(ValueError, match="next_number"):
        snapshot_lookups("next_number")


@pytest.mark.django_db
def test_keys_fetched_alone_read_as_the_whole_snapshot_does():
    match = table_match()
    for order in ("NS", "NES"):
        deal_record(match_id=match.pk, outcome={"order": list(order)})
    match.refresh_from_db()
    values = Match.objects.filter(pk=match.pk).values_list(*snapshot_lookups(*RESULT_KEYS)).get()
    fetched = snapshot_from_values(RESULT_KEYS, values)
    whole = match.snapshot
    assert (fetched.winner, fetched.levels, fetched.reason, fetched.points) == (
        whole.winner,
        whole.levels,
        whole.reason,
        whole.points,
    )
    assert snapshot_outcome(whole) == (Status.IN_PROGRESS, None, None)


@pytest.mark.django_db
def test_a_double_forfeit_and_a_penalty_each_find_their_record():
    penalised = table_match(profile="timed-40")
    deal_record(match_id=penalised.pk, outcome={"order": list("NS")})
    penalty = adjustment_record(
        match_id=penalised.pk, pair_id=penalised.ew_pair_id, kind="penalty", levels=1, reason="signalling"
    )
    warning = adjustment_record(match_id=penalised.pk, pair_id=penalised.ns_pair_id, kind="warning", reason="noise")
    both = table_match(profile="timed-40")
    first = adjustment_record(match_id=both.pk, pair_id=both.ns_pair_id, kind="forfeit", reason="absent")
    second = adjustment_record(match_id=both.pk, pair_id=both.ew_pair_id, kind="forfeit", reason="absent")

    effects = adjustment_effects_get(tournament_id=penalised.round.stage.tournament_id)
    assert set(effects) == {penalty.pk}  # a warning changes nothing: no record
    assert (effects[penalty.pk].effect, effects[penalty.pk].amount, effects[penalty.pk].after_deal) == (
        "opponents_upgrade",
        1,
        1,
    )
    both_effects = adjustment_effects_get(tournament_id=both.round.stage.tournament_id)
    assert set(both_effects) == {first.pk, second.pk}  # one record for the two rows
    assert both_effects[first.pk] == both_effects[second.pk]
    assert warning.pk not in both_effects
    both.refresh_from_db()
    assert snapshot_outcome(both.snapshot) == (Status.FINISHED, None, Reason.FORFEIT)
