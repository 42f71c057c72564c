"""Stage standings come from stored snapshots through the rules core."""

from __future__ import annotations

import pytest

from tests.factories import MatchFactory, PairFactory, RoundFactory, StageFactory
from tournament.matches.models import Match, MatchStatus, RoundEntry
from tournament.matches.services import deal_record
from tournament.standings.selectors import stage_standings

pytestmark = pytest.mark.django_db


def enter(match, *orders):
    RoundEntry.objects.create(round=match.round, pair=match.ns_pair, match=match, side="NS")
    RoundEntry.objects.create(round=match.round, pair=match.ew_pair, match=match, side="EW")
    for order in orders:
        deal_record(match_id=match.pk, outcome={"order": list(order)})


def test_finished_matches_rank_pairs_and_running_ones_do_not_count():
    stage = StageFactory()
    round_ = RoundFactory(stage=stage, number=1)
    won = MatchFactory(round=round_)
    enter(won, "NS", "NS", "NS", "NES")  # timed-40: +5 a 1-2 (seed 002), NS passes A
    running = MatchFactory(round=round_)
    enter(running, "EW")
    bye_pair = PairFactory(tournament=stage.tournament)
    bye = Match.objects.create(round=round_, ns_pair=bye_pair, status=MatchStatus.FINISHED)
    RoundEntry.objects.create(round=round_, pair=bye_pair, match=bye, side="NS")

    result = stage_standings(stage=stage)
    by_pair = {int(row.entrant): row for row in result.standings.rows}
    assert by_pair[won.ns_pair_id].match_points == 2 and by_pair[won.ns_pair_id].small_points == 13
    assert by_pair[won.ew_pair_id].losses == 1
    assert by_pair[running.ns_pair_id].played == 0
    assert by_pair[bye_pair.pk].byes == 1
    assert result.standings.rows[0].entrant == str(won.ns_pair_id)
    assert len(result.rows_with_pairs()) == 5
