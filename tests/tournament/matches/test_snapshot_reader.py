"""The web application reads the stored snapshot through the rules core's reader only:
``Match.snapshot`` / ``Deal.snapshot`` (``scoring.snapshot``); a snapshot stored before the schema
version was written reads the same on every page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring.snapshot import SidePair
from tests.factories import table_match
from tournament.matches.models import Match
from tournament.matches.selectors import match_summary, next_tribute
from tournament.matches.services import deal_record
from tournament.standings.public import match_history_get

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


def played(*orders: str) -> Match:
    match = table_match()
    for order in orders:
        deal_record(match_id=match.pk, outcome={"order": list(order)})
    return Match.objects.select_related("round__stage__tournament", "ns_pair", "ew_pair", "table").get(pk=match.pk)


def test_the_stored_snapshot_carries_its_schema_and_reads_back_typed() -> None:
    match = played("NS", "EW")
    assert match.state["schema"] == 1
    assert match.snapshot.levels == SidePair(**match.state["levels"])
    assert [deal.snapshot.to_json() for deal in match.deals.order_by("number")] == match.state["deals"]


def test_a_snapshot_without_the_version_reads_as_version_1_everywhere() -> None:
    match = played("NS", "NES")
    summary, tribute = match_summary(match=match), next_tribute(match=match)
    match.state = {key: value for key, value in match.state.items() if key != "schema"}
    match.save(update_fields=["state"])
    old = Match.objects.select_related("round__stage__tournament", "ns_pair", "ew_pair", "table").get(pk=match.pk)
    assert "schema" not in old.state
    assert (match_summary(match=old).sides, match_summary(match=old).next_deal) == (summary.sides, summary.next_deal)
    assert next_tribute(match=old) == tribute
    history = match_history_get(tournament_id=old.round.stage.tournament_id, match_id=old.pk)
    assert history is not None and history.levels == tuple(summary.sides[i].level for i in (0, 1))


def test_the_reader_follows_a_new_state() -> None:
    match = played("NS")
    first = match.snapshot
    assert match.snapshot is first  # read once per state
    match.state = {}
    assert not match.snapshot.folded and match.snapshot.levels_or_start == SidePair(2, 2)


HAND_READS = re.compile(
    r"\.state\.get\(|\.state\[|\.state or \{\}|\(match\.state|deal\.record\b|\.record\.get\(|\.record\[|\[\"deals\"\]"
)


def test_nothing_outside_the_reader_indexes_the_stored_snapshot() -> None:
    """Only the writer (``fold._store`` / ``fold_store``) and the models' readers touch the JSON."""
    allowed = {ROOT / "tournament/matches/models/core.py", ROOT / "tournament/matches/fold.py"}
    offenders = []
    for path in [*ROOT.joinpath("tournament").rglob("*.py"), *ROOT.joinpath("templates").rglob("*.html")]:
        if path in allowed or "migrations" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if HAND_READS.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []
