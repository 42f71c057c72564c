"""Manual edits of a draft round (swap two pairs, move a match), publishing, un-publishing, deleting."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import DepartmentFactory, organiser
from tests.tournament.draw.conftest import confirm, make_field, win
from tournament.draw.edits import match_table_move, round_pairs_swap
from tournament.draw.pairing import Referee
from tournament.draw.referee_assignments import round_referees_assign
from tournament.draw.selectors import round_warnings
from tournament.draw.services import (
    bracket_after_result,
    round_delete,
    round_draw,
    round_publish,
    round_unpublish,
    stage_bracket,
)
from tournament.draw.stages import stage_create
from tournament.errors import UserError
from tournament.matches.clock import round_start
from tournament.matches.models import Match, MatchStatus, Round, RoundEntry, RoundStatus, Table
from tournament.matches.referees import referee_create
from tournament.matches.services import deal_record
from tournament.registration.models import Pair, PairStatus, Player
from tournament.registration.services import pair_withdraw

pytestmark = pytest.mark.django_db


def swiss(pairs: int, **options):
    return stage_create(tournament=make_field(pairs), name="预赛", format="swiss", options=options)


def seats(round_) -> dict[int, tuple[int, str]]:
    return {e.pair_id: (e.match_id, e.side) for e in RoundEntry.objects.filter(round=round_)}


def assert_consistent(round_):
    """Every pair once, and its round entry names the match and side it really sits at."""
    found: dict[int, tuple[int, str]] = {}
    for match in round_.matches.all():
        for pair_id, side in ((match.ns_pair_id, "NS"), (match.ew_pair_id, "EW")):
            if pair_id is not None:
                assert pair_id not in found
                found[pair_id] = (match.pk, side)
    assert found == seats(round_)


def codes(warnings) -> set[str]:
    return {w.code for w in warnings}


def test_swapping_pairs_keeps_every_pair_once_whatever_sides_and_byes_are_involved():
    stage = swiss(9)
    round_ = round_draw(stage=stage, seed=4)
    pairs = list(seats(round_))
    rng = random.Random(1)
    for _ in range(25):
        first, second = rng.sample(pairs, 2)
        before = seats(round_)
        round_pairs_swap(round_=round_, first_pair_id=first, second_pair_id=second)
        after = seats(round_)
        if before[first][0] != before[second][0]:
            assert after[first] == before[second] and after[second] == before[first]
        else:  # one table: the two pairs change seats
            assert after[first][1] == before[second][1]
        assert_consistent(round_)
    assert round_.matches.filter(ew_pair__isnull=True).count() == 1


def test_a_swap_that_makes_a_rematch_is_warned_and_audited():
    boss = organiser()
    stage = swiss(8)
    first = round_publish(round_=round_draw(stage=stage, seed=1))
    met = {}
    for match in first.matches.all():
        met[match.ns_pair_id], met[match.ew_pair_id] = match.ew_pair_id, match.ns_pair_id
        win(match)
    second = round_draw(stage=stage, seed=2)
    match = second.matches.first()
    old_opponent = met[match.ns_pair_id]
    warnings = round_pairs_swap(
        round_=second, first_pair_id=match.ew_pair_id, second_pair_id=old_opponent, user=boss
    )
    assert "rematch" in codes(warnings)
    history = Match.history.filter(round_id=second.pk, history_change_reason__startswith="swap")
    assert history.count() == 2 and {row.history_user for row in history} == {boss}
    second.refresh_from_db()
    (edit,) = second.draw_options["edits"]
    assert edit["kind"] == "swap" and edit["by"] == boss.pk
    assert edit["before"][str(match.pk)] != edit["after"][str(match.pk)]
    assert second.history.first().history_change_reason.startswith("swap")


def test_swapping_a_table_round_warns_of_seat_imbalance():
    stage = swiss(4)
    first = round_publish(round_=round_draw(stage=stage, seed=1))
    ns_before = set(first.matches.values_list("ns_pair_id", flat=True))
    for match in first.matches.all():
        win(match)
    second = round_draw(stage=stage, seed=2)
    # The seat rule sits last round's N/S pairs E/W now; turning a table round undoes that.
    match = second.matches.first()
    assert match.ew_pair_id in ns_before
    warnings = round_pairs_swap(round_=second, first_pair_id=match.ns_pair_id, second_pair_id=match.ew_pair_id)
    assert "seat_imbalance" in codes(warnings)


def test_a_pair_that_withdrew_after_the_draw_is_warned_at_its_table_only():
    stage = swiss(6)
    left_out = Pair.objects.filter(tournament=stage.tournament).order_by("pk").last()
    left_out.status = PairStatus.WITHDRAWN  # before the draw: not drawn, so no table names it
    left_out.save(update_fields=["status"])
    round_ = round_draw(stage=stage, seed=4)
    match = round_.matches.filter(ew_pair__isnull=False).first()
    pair_withdraw(pair=match.ew_pair)
    warnings = round_warnings(round_=round_)
    withdrawn = {pk: [w.entrants for w in found if w.code == "withdrawn"] for pk, found in warnings.items()}
    assert {pk: entrants for pk, entrants in withdrawn.items() if entrants} == {match.pk: [(match.ew_pair_id,)]}


def test_swapping_into_the_bye_and_into_one_department_is_warned():
    stage = swiss(5, department_rounds=1)
    round_ = round_draw(stage=stage, seed=3)
    bye = round_.matches.get(ew_pair__isnull=True)
    match = round_.matches.filter(ew_pair__isnull=False).first()
    department = DepartmentFactory(tournament=stage.tournament)
    Player.objects.filter(pairs__in=[match.ns_pair_id, bye.ns_pair_id]).update(department=department)
    warnings = round_pairs_swap(round_=round_, first_pair_id=bye.ns_pair_id, second_pair_id=match.ew_pair_id)
    assert {"same_department", "bye"} <= codes(warnings)
    assert round_.matches.get(ew_pair__isnull=True).ns_pair_id == match.ew_pair_id


def test_moving_a_match_to_a_taken_table_swaps_the_tables_and_is_audited():
    boss = organiser()
    stage = swiss(8)
    round_ = round_draw(stage=stage, seed=1)
    top = round_.matches.get(table__number=1)
    third = round_.matches.get(table__number=3)
    ref = referee_create(tournament=round_.stage.tournament, name="裁判甲").user
    round_referees_assign(round_=round_, referees=[Referee(ref.pk)], tables_per_referee=4)
    warnings = match_table_move(match=top, table_number=3, user=boss)
    assert {"tables_swapped", "referee_assigned"} <= codes(warnings)
    top.refresh_from_db()
    third.refresh_from_db()
    assert (top.table.number, third.table.number) == (3, 1)
    moved = Match.history.filter(history_change_reason__startswith="move")
    assert moved.count() == 2 and {row.history_user for row in moved} == {boss}
    match_table_move(match=top, table_number=40)
    assert Table.objects.filter(tournament=stage.tournament, number=40).exists()
    round_.refresh_from_db()
    assert [edit["kind"] for edit in round_.draw_options["edits"]] == ["move", "move"]


def test_edits_are_refused_once_published_and_where_the_structure_decides():
    stage = swiss(5)
    round_ = round_publish(round_=round_draw(stage=stage, seed=1))
    a, b = list(seats(round_))[:2]
    with pytest.raises(UserError):
        round_pairs_swap(round_=round_, first_pair_id=a, second_pair_id=b)
    with pytest.raises(UserError):
        match_table_move(match=round_.matches.filter(ew_pair__isnull=False).first(), table_number=9)
    robin = stage_create(tournament=make_field(4), name="循环", format="round_robin")
    draft = round_draw(stage=robin, seed=1)
    a, b = list(seats(draft))[:2]
    with pytest.raises(UserError) as error:
        round_pairs_swap(round_=draft, first_pair_id=a, second_pair_id=b)
    assert error.value.code == "round_robin"
    bye = swiss(5)
    draft = round_draw(stage=bye, seed=1)
    with pytest.raises(UserError) as error:
        match_table_move(match=draft.matches.get(ew_pair__isnull=True), table_number=9)
    assert error.value.code == "bye"


def test_a_first_round_swap_in_a_fixed_bracket_moves_bracket_positions_and_later_rounds_follow():
    stage = stage_create(
        tournament=make_field(6, seeds=True), name="淘汰赛", format="knockout", options={"bracket": "fixed"}
    )
    first = round_draw(stage=stage, seed=1)
    bye = first.matches.filter(ew_pair__isnull=True).first()
    match = first.matches.filter(ew_pair__isnull=False).first()
    record = stage.options["bracket_record"]
    round_pairs_swap(round_=first, first_pair_id=match.ns_pair_id, second_pair_id=match.ew_pair_id)
    stage.refresh_from_db()
    assert stage.options["bracket_record"] == record  # turning a table round keeps the seeds
    round_pairs_swap(round_=first, first_pair_id=match.ns_pair_id, second_pair_id=match.ew_pair_id)
    match.refresh_from_db()
    round_pairs_swap(round_=first, first_pair_id=bye.ns_pair_id, second_pair_id=match.ns_pair_id)
    stage.refresh_from_db()
    bracket = stage_bracket(stage=stage)
    assert bracket is not None
    position = bracket.slots.index(match.ns_pair_id)
    assert bracket.slots[position ^ 1] is None  # now holds the bye
    round_publish(round_=first)  # consistent with the edited bracket
    nxt = None
    for m in first.matches.filter(ew_pair__isnull=False):
        nxt = bracket_after_result(match=confirm(m)) or nxt
    assert nxt is not None
    assert match.ns_pair_id in set(RoundEntry.objects.filter(round=nxt).values_list("pair_id", flat=True))
    a, b = list(seats(nxt))[:2]
    with pytest.raises(UserError) as error:
        round_pairs_swap(round_=nxt, first_pair_id=a, second_pair_id=b)
    assert error.value.code == "bracket_decides"


def test_unpublishing_is_allowed_only_until_a_result_is_entered():
    stage = swiss(4)
    round_ = round_publish(round_=round_draw(stage=stage, seed=1))
    round_start(round_id=round_.pk, now=timezone.now() - timedelta(minutes=5))
    round_unpublish(round_=round_, reason="wrong check-in list")
    round_.refresh_from_db()
    assert round_.status == RoundStatus.DRAFT and round_.started_at is None and round_.ends_at is None
    assert not round_.matches.filter(started_at__isnull=False).exists()
    assert not round_.matches.filter(clock_ends_at__isnull=False).exists()
    assert round_.history.first().history_change_reason == "wrong check-in list"
    with pytest.raises(UserError):
        round_unpublish(round_=round_)
    round_publish(round_=round_)
    match = round_.matches.first()
    deal_record(match_id=match.pk, outcome={"order": ["N", "S"]})
    with pytest.raises(UserError) as error:
        round_unpublish(round_=round_)
    assert error.value.code == "has_results"
    assert Round.objects.get(pk=round_.pk).status != RoundStatus.DRAFT


def test_only_a_draft_is_deleted_and_a_published_round_stays():
    stage = swiss(4)
    draft = round_draw(stage=stage, seed=1)
    round_delete(round_=draft)
    assert not stage.rounds.exists()
    published = round_publish(round_=round_draw(stage=stage, seed=1))
    with pytest.raises(UserError):
        round_delete(round_=published)
    with pytest.raises(UserError):
        round_publish(round_=published)
    assert published.matches.filter(status=MatchStatus.PENDING).count() == 2
