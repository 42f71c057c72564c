"""Deals played: one answer (``tournament.matches.snapshot_reads``) — the deals the rules core
applied, as the snapshot holds them — asked by the match pages' time-up notice, the progress
board, the public draw and the workbook alike. A deal a correction made impossible is flagged: it
is not played (the board once counted it)."""

from __future__ import annotations

import pytest

from tests.factories import table_match
from tournament.matches.board import round_board
from tournament.matches.models import Match, MatchStatus
from tournament.matches.services import deal_correct, deal_record
from tournament.matches.snapshot_reads import deals_played_count, match_deals_played

pytestmark = pytest.mark.django_db


def test_a_flagged_deal_is_not_played_anywhere():
    match = table_match()
    # timed-40: N/S 7, 12; E/W 7; N/S 13; N/S A; E/W
    for order in ("NS", "NS", "EW", "NEW", "NS", "EW"):
        deal_record(match_id=match.pk, outcome={"order": list(order)})
    # deal 4 was a double-down: N/S pass A at deal 5, deal 6 can no longer have been played
    deal_correct(match_id=match.pk, number=4, outcome={"order": ["N", "S"]}, reason="misread")
    match = Match.objects.select_related("round__stage").get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED
    assert list(match.deals.order_by("number").values_list("flagged", flat=True)) == [False] * 5 + [True]

    assert match_deals_played(match) == len(match.snapshot.deals) == 5
    assert Match.objects.annotate(played=deals_played_count()).get(pk=match.pk).played == 5
    (row,) = round_board(round_=match.round).rows
    assert row.deals == 5


def test_a_match_not_played_yet_has_played_no_deal():
    match = table_match()
    assert match_deals_played(match) == 0
    assert Match.objects.annotate(played=deals_played_count()).get(pk=match.pk).played == 0
