"""Corrections, deletions, adjustments and sign-off through the services (docs/rules.md §1–3, §7):
the match is always the rules core's fold of its deals and adjustments, impossible entries are
flagged, every change is in the history with its author and reason."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.finishing_order import FinishingOrder
from scoring.match import replay
from scoring.profiles import PROFILES
from tests.factories import PairFactory, organiser, referee, table_match
from tournament.errors import UserError
from tournament.matches.errors import MatchRefused, StaleVersion
from tournament.matches.models import Adjustment, Deal, Match, MatchStatus
from tournament.matches.services import (
    adjustment_delete,
    adjustment_record,
    deal_correct,
    deal_delete,
    deal_record,
    deal_undo,
    match_sign_off,
    match_unlock,
)
from tournament.matches.signals import match_confirmed, match_unlocked

pytestmark = pytest.mark.django_db


def play(match: Match, *orders: str, user=None) -> Match:
    for order in orders:
        deal_record(match_id=match.pk, outcome={"order": list(order)}, user=user)
    match.refresh_from_db()
    return match


def core(profile: str, *orders: str) -> dict:
    return replay(options=PROFILES[profile], deals=[FinishingOrder.parse(list(o)) for o in orders]).to_json()


def flags(match: Match) -> list[bool]:
    return list(match.deals.order_by("number").values_list("flagged", flat=True))


def test_a_correction_that_shortens_the_match_flags_what_follows_and_blocks_sign_off():
    ref = referee(username="ref")
    # timed-40 (seed 002: +5/+3/+1): N/S 7, 12; E/W 7; N/S 13 (1-4), A; deal 6 a failed A attempt
    match = play(table_match(), "NS", "NS", "EW", "NEW", "NS", "EW", user=ref)
    assert match.status == MatchStatus.RUNNING
    # deal 4 was really a double-down: N/S reach A at deal 4 and pass it at deal 5
    match = deal_correct(match_id=match.pk, number=4, outcome={"order": ["N", "S"]}, reason="misread", user=ref)
    match.refresh_from_db()
    assert (match.status, match.winner, match.result_reason) == (MatchStatus.FINISHED, "NS", "passed_a")
    assert flags(match) == [False] * 5 + [True]
    assert match.state == core("timed-40", "NS", "NS", "EW", "NS", "NS")
    assert Deal.objects.get(match=match, number=6).record == {}
    with pytest.raises(MatchRefused) as refused:
        match_sign_off(match_id=match.pk, user=ref)
    assert refused.value.code == "flagged_deals"
    with pytest.raises(MatchRefused):
        deal_record(match_id=match.pk, outcome={"order": ["E", "W"]})
    match = deal_delete(match_id=match.pk, number=6, reason="never played", user=ref)
    assert match_sign_off(match_id=match.pk, user=ref).status == MatchStatus.CONFIRMED

    corrected = Deal.history.filter(match_id=match.pk, number=4).order_by("history_date")
    assert [row.outcome["order"] for row in corrected] == [["N", "E", "W"], ["N", "S"]]
    assert corrected.last().history_change_reason == "misread" and corrected.last().history_user == ref
    assert Deal.history.filter(match_id=match.pk, history_type="-", history_change_reason="never played").exists()


def test_a_correction_that_lengthens_the_match_reopens_it_and_play_goes_on():
    match = play(table_match(profile="classic"), "NS", "NS", "NS", "NS", "NES")
    assert match.status == MatchStatus.FINISHED and match.finished_at is not None
    match = deal_correct(match_id=match.pk, number=5, outcome={"order": ["N", "E", "W"]}, reason="S was last")
    match.refresh_from_db()
    assert (match.status, match.winner, match.finished_at) == (MatchStatus.RUNNING, "", None)
    match = play(match, "NS")
    assert match.state == core("classic", "NS", "NS", "NS", "NS", "NEW", "NS")
    assert match.status == MatchStatus.FINISHED
    assert Match.history.filter(id=match.pk, history_change_reason="S was last").count() == 1


def test_deleting_a_middle_deal_moves_later_deals_adjustments_and_the_time_call():
    boss = organiser(username="boss")
    match = play(table_match(), "NS", "EW", "EW", "NS")
    adjustment_record(
        match_id=match.pk, pair_id=match.ew_pair_id, kind="penalty", levels=1, reason="slow play", user=boss
    )
    Match.objects.filter(pk=match.pk).update(time_called_during_deal=5)
    match.refresh_from_db()
    match = deal_delete(match_id=match.pk, number=2, reason="entered twice", user=boss)
    match.refresh_from_db()
    assert list(match.deals.order_by("number").values_list("number", "outcome")) == [
        (1, {"order": ["N", "S"]}),
        (2, {"order": ["E", "W"]}),
        (3, {"order": ["N", "S"]}),
    ]
    assert Adjustment.objects.get(match=match).after_deal == 3
    assert match.time_called_during_deal == 4
    assert flags(match) == [False] * 3
    assert match.state["adjustments"][0]["after_deal"] == 3


def test_undo_needs_a_deal_and_respects_the_version():
    match = table_match()
    with pytest.raises(MatchRefused):
        deal_undo(match_id=match.pk, reason="wrong table")
    match = play(match, "NS")
    with pytest.raises(StaleVersion):
        deal_undo(match_id=match.pk, reason="wrong table", expected_version=0)
    deal_undo(match_id=match.pk, reason="wrong table", expected_version=1)
    match.refresh_from_db()
    assert (match.deals.count(), match.version, match.state["levels"]) == (0, 2, {"NS": 2, "EW": 2})


def test_corrections_are_refused_without_a_reason_with_a_bad_order_or_a_stale_version():
    match = play(table_match(), "NS")
    with pytest.raises(UserError) as no_reason:
        deal_correct(match_id=match.pk, number=1, outcome={"order": ["E", "W"]}, reason="  ")
    assert no_reason.value.code == "reason_required" and no_reason.value.status == 400
    with pytest.raises(ScoringError) as bad:
        deal_correct(match_id=match.pk, number=1, outcome={"order": ["N", "E"]}, reason="x")
    assert bad.value.code == "invalid_order"
    with pytest.raises(StaleVersion):
        deal_correct(match_id=match.pk, number=1, outcome={"order": ["E", "W"]}, reason="x", expected_version=0)
    with pytest.raises(MatchRefused):
        deal_correct(match_id=match.pk, number=2, outcome={"order": ["E", "W"]}, reason="x")
    assert Deal.objects.get(match=match).outcome == {"order": ["N", "S"]}


# -- adjustments (docs/rules.md §7) ---------------------------------------------------------------------


def test_a_level_penalty_is_folded_into_the_replay_capped_at_a():
    match = play(table_match(), "EW", "EW")  # E/W at Q (+5 a 1-2, seed 002)
    adjustment_record(match_id=match.pk, pair_id=match.ns_pair_id, kind="penalty", levels=5, reason="signalling")
    match.refresh_from_db()
    assert match.state["levels"] == {"NS": 2, "EW": 14}
    assert match.state["adjustments"][0]["amount"] == 2  # never past A
    match = play(match, "EW")
    assert match.state["deals"][-1]["a_attempt"] is True


def test_late_arrival_follows_the_rules_table():
    """timed-40's table (seed 001 adapted): 16–20 min forfeits the first deal as if the opponents finished
    1-2 — +5 under seed 002's upgrades (docs/rules.md §7) — and 21+ the match."""
    match = table_match()
    adjustment_record(match_id=match.pk, pair_id=match.ns_pair_id, kind="late_arrival", minutes_late=18, reason="bus")
    match.refresh_from_db()
    assert match.state["adjustments"][0]["effect"] == "first_deal_forfeited"
    assert match.state["levels"] == {"NS": 2, "EW": 7} and match.state["next_deal"]["sets_level"] == "EW"
    late = table_match()
    adjustment_record(match_id=late.pk, pair_id=late.ew_pair_id, kind="late_arrival", minutes_late=25, reason="x")
    late.refresh_from_db()
    assert (late.status, late.winner, late.result_reason) == (MatchStatus.FINISHED, "NS", "forfeit")


def test_a_points_format_takes_point_penalties_and_refuses_level_penalties():
    match = play(table_match(profile="points-6"), "NS", "EW")
    with pytest.raises(ScoringError) as refused:
        adjustment_record(match_id=match.pk, pair_id=match.ns_pair_id, kind="penalty", levels=1, reason="x")
    assert refused.value.code == "bad_input"
    assert not Adjustment.objects.exists()
    adjustment_record(match_id=match.pk, pair_id=match.ns_pair_id, kind="penalty", points=2, reason="wrong tribute")
    match.refresh_from_db()
    assert match.state["points"] == {"NS": 1, "EW": 3}


def test_adjustments_that_cannot_apply_are_refused():
    match = play(table_match(), "NS", "EW")
    with pytest.raises(ScoringError):  # 25 minutes late forfeits the match before the deal it played
        adjustment_record(
            match_id=match.pk, pair_id=match.ns_pair_id, kind="late_arrival", minutes_late=25, reason="late"
        )
    with pytest.raises(MatchRefused):
        adjustment_record(match_id=match.pk, pair_id=PairFactory().pk, kind="warning", reason="x")
    with pytest.raises(MatchRefused):
        adjustment_record(match_id=match.pk, pair_id=match.ns_pair_id, kind="penalty", reason="x")
    assert not Adjustment.objects.exists()


def test_a_late_arrival_recorded_after_deal_1_applies_before_it_and_the_match_is_refolded():
    """No more undo, record, re-enter — the late arrival goes before deal 1 and the deals
    entered are replayed after it (docs/rules.md §7: 16–20 minutes, the first deal forfeited, timed-40's
    +5)."""
    match = play(table_match(), "NS")  # N/S 1-2
    before = match.state["levels"]
    late = adjustment_record(
        match_id=match.pk, pair_id=match.ew_pair_id, kind="late_arrival", minutes_late=18, reason="late"
    )
    match.refresh_from_db()
    assert late.after_deal == 0
    assert match.state["adjustments"][0]["effect"] == "first_deal_forfeited"
    assert match.state["levels"] == {"NS": before["NS"] + 5, "EW": 2}  # +5 for the forfeited deal
    assert match.deals.get().record["level"] == 7  # the deal entered was played at N/S's new level, 2 + 5


def test_a_stage_stored_with_the_flat_three_keeps_it_for_late_arrival():
    """Events keep their rules (docs/rules.md §7): a timed-40 stage created while the 16–20 band was +3
    stored that table with its rules; a late arrival there still gives +3."""
    match = table_match()
    stage = match.round.stage
    stage.rules["late_arrival"][3]["amount"] = 3
    stage.save(update_fields=["rules"])
    adjustment_record(match_id=match.pk, pair_id=match.ns_pair_id, kind="late_arrival", minutes_late=18, reason="bus")
    match.refresh_from_db()
    assert match.state["levels"] == {"NS": 2, "EW": 5}


def test_warnings_are_recorded_and_change_nothing_and_adjustments_can_be_removed_with_a_reason():
    boss = organiser(username="boss")
    match = play(table_match(), "NS")
    warning = adjustment_record(match_id=match.pk, pair_id=match.ew_pair_id, kind="warning", reason="talking")
    match.refresh_from_db()
    assert match.state["levels"] == {"NS": 7, "EW": 2} and not warning.flagged
    penalty = adjustment_record(match_id=match.pk, pair_id=match.ew_pair_id, kind="penalty", levels=1, reason="x")
    match = adjustment_delete(match_id=match.pk, adjustment_id=penalty.pk, reason="wrong pair", user=boss)
    match.refresh_from_db()
    assert match.state["levels"] == {"NS": 7, "EW": 2}
    removed = Adjustment.history.get(id=penalty.pk, history_type="-")
    assert (removed.history_user, removed.history_change_reason) == (boss, "wrong pair")


def test_a_correction_can_flag_an_adjustment_after_the_new_end():
    match = play(table_match(), "NS", "NS", "NS", "NEW")  # at A after 3 (+5, seed 002); deal 4: a failed attempt
    adjustment_record(match_id=match.pk, pair_id=match.ew_pair_id, kind="penalty", levels=1, reason="x")
    match = play(match, "NS")  # N/S pass A at deal 5
    assert match.result_reason == "passed_a" and not Adjustment.objects.get().flagged
    deal_correct(match_id=match.pk, number=4, outcome={"order": ["N", "E", "S"]}, reason="S was third")
    match.refresh_from_db()  # N/S passed A at deal 4: the penalty after it and deal 5 cannot have happened
    assert (match.status, match.result_reason) == (MatchStatus.FINISHED, "passed_a")
    assert Adjustment.objects.get().flagged and flags(match) == [False] * 4 + [True]
    assert match.state == core("timed-40", "NS", "NS", "NS", "NES")


# -- sign-off and unlock ----------------------------------------------------------------------------


def test_sign_off_locks_sends_the_signal_and_is_idempotent(django_capture_on_commit_callbacks):
    ref, boss = referee(username="ref"), organiser(username="boss")
    match = play(table_match(), "NS", "NS", "NS", "NES")
    received = []

    def listener(sender, match, **kwargs):
        received.append((sender, match.pk, match.status))

    match_confirmed.connect(listener)
    match_unlocked.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            confirmed = match_sign_off(match_id=match.pk, user=ref, expected_version=4)
        assert (confirmed.status, confirmed.signed_off_by, confirmed.version) == (MatchStatus.CONFIRMED, ref, 5)
        assert match_sign_off(match_id=match.pk, user=ref, expected_version=4).version == 5  # a retry
        for write in (
            lambda: deal_record(match_id=match.pk, outcome={"order": ["E", "W"]}),
            lambda: deal_correct(match_id=match.pk, number=1, outcome={"order": ["E", "W"]}, reason="x"),
            lambda: deal_delete(match_id=match.pk, number=1, reason="x"),
            lambda: adjustment_record(match_id=match.pk, pair_id=match.ns_pair_id, kind="warning", reason="x"),
        ):
            with pytest.raises(MatchRefused) as refused:
                write()
            assert refused.value.code == "match_locked"
        with django_capture_on_commit_callbacks(execute=True):
            unlocked = match_unlock(match_id=match.pk, reason="dispute", user=boss)
        assert (unlocked.status, unlocked.signed_off_by) == (MatchStatus.FINISHED, None)
        with pytest.raises(MatchRefused):
            match_unlock(match_id=match.pk, reason="again", user=boss)
    finally:
        match_confirmed.disconnect(listener)
        match_unlocked.disconnect(listener)
    assert received == [(Match, match.pk, MatchStatus.CONFIRMED), (Match, match.pk, MatchStatus.FINISHED)]


def test_a_bye_takes_no_deals():
    match = table_match()
    Match.objects.filter(pk=match.pk).update(ew_pair=None)
    with pytest.raises(MatchRefused) as refused:
        deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    assert refused.value.code == "bye"
