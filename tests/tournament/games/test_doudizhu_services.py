"""Dou Dizhu's Django side: individuals registered, three-seat rounds drawn and written, deals
recorded, corrected, undone and signed off through the one write path."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from scoring.doudizhu import replay_table
from scoring.doudizhu_deals import parse_doudizhu_deals
from scoring.errors import ScoringError
from scoring.profiles import options_for
from tests.tournament.games.doudizhu_event import doudizhu_event, drawn_round
from tournament.draw.pairing_three_seats import ALGORITHM
from tournament.errors import UserError
from tournament.matches import services
from tournament.matches.clock import match_call_time
from tournament.matches.models import Match, MatchSeat, MatchStatus
from tournament.matches.table_selectors import table_snapshot
from tournament.registration.services import PlayerData, pair_register, player_enter

pytestmark = pytest.mark.django_db

DEALS = [
    {"landlord": "E", "bid": 3, "bombs": 1, "spring": False, "winner": "landlord"},
    {"landlord": "S", "bid": 2, "winner": "farmers"},
    {"landlord": "W", "bid": 1, "bombs": 0, "spring": True, "winner": "landlord"},
]


def test_an_individual_entrant_is_one_player_and_pairs_are_refused(boss):
    tournament, _stage = doudizhu_event(players=3, boss=boss)
    entrant = tournament.pairs.first()
    assert entrant.members.count() == 1 and entrant.name == "选手1"
    with pytest.raises(UserError, match="alone"):
        pair_register(tournament=tournament, first=PlayerData(name="甲"), second=PlayerData(name="乙"))


def test_a_pairs_event_refuses_a_single_player(db):
    from tournament.registration.services import tournament_create

    guandan = tournament_create(name="掼蛋", rule_profile="timed-40")
    with pytest.raises(UserError):
        player_enter(tournament=guandan, player=PlayerData(name="甲"))


def test_a_round_seats_three_per_table_with_byes_and_records_its_draw(boss):
    _tournament, stage = doudizhu_event(players=11, boss=boss)
    round_ = drawn_round(stage, seed=99, user=boss)
    assert round_.draw_algorithm == ALGORITHM and round_.draw_seed == 99
    assert round_.draw_options["reseat"] == "lot"
    matches = list(round_.matches.all())
    assert len(matches) == 3 and all(m.ns_pair_id is None and m.ew_pair_id is None for m in matches)
    for match in matches:
        assert sorted(match.seats.values_list("seat", flat=True)) == ["E", "S", "W"]
    byes = MatchSeat.objects.filter(round=round_, match__isnull=True)
    assert byes.count() == 2
    assert MatchSeat.objects.filter(round=round_).count() == 11


def test_the_database_refuses_a_second_seat_for_a_player_or_a_lone_side_on_a_three_seat_match(table):
    """Which kind a match is, is its event's game (``Tournament.game``); the database still refuses an
    E/W side without an N/S one, so a three-seat table cannot be given half a pairing."""
    seat = table.seats.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchSeat.objects.create(round=table.round, match=None, seat="", pair=seat.pair)
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.filter(pk=table.pk).update(ew_pair=seat.pair)


def test_a_table_played_through_the_services_equals_the_rules_core(table, ref):
    key = "k-1"
    for index, deal in enumerate(DEALS):
        services.deal_record(
            match_id=table.pk, outcome=deal, user=ref, expected_version=index, idempotency_key=f"k-{index + 1}"
        )
    again = services.deal_record(match_id=table.pk, outcome=DEALS[0], user=ref, idempotency_key=key)
    assert again.replayed and again.deal.number == 1
    table.refresh_from_db()
    options = options_for(profile="doudizhu")
    expected = replay_table(options=options, deals=parse_doudizhu_deals(options=options, data=DEALS))
    assert table.state == expected.to_json()
    assert table.status == MatchStatus.FINISHED
    assert table_snapshot(table).points == expected.points
    assert sum(expected.points) == 0
    with pytest.raises(ScoringError) as refused:
        services.deal_record(match_id=table.pk, outcome=DEALS[0], user=ref)
    assert refused.value.code.value == "match_finished"


def test_corrections_undo_and_sign_off(table, ref):
    for deal in DEALS[:2]:
        services.deal_record(match_id=table.pk, outcome=deal, user=ref)
    services.deal_correct(
        match_id=table.pk, number=2, outcome={**DEALS[1], "winner": "landlord"}, reason="看错了", user=ref
    )
    table.refresh_from_db()
    assert table_snapshot(table).deals[1].landlord_won
    services.deal_undo(match_id=table.pk, user=ref, reason="录错了")
    table.refresh_from_db()
    assert len(table_snapshot(table).deals) == 1
    for deal in DEALS[1:]:
        services.deal_record(match_id=table.pk, outcome=deal, user=ref)
    table.refresh_from_db()
    services.match_sign_off(match_id=table.pk, user=ref, expected_version=table.version)
    table.refresh_from_db()
    assert table.status == MatchStatus.CONFIRMED


def test_an_invalid_deal_is_refused_with_nothing_written(table, ref):
    with pytest.raises(ScoringError) as refused:
        services.deal_record(match_id=table.pk, outcome={"landlord": "N", "winner": "landlord"}, user=ref)
    assert refused.value.code.value == "invalid_deal"
    assert not table.deals.exists()


def test_a_no_show_forfeits_the_round_for_that_seat(table, boss):
    seat = table.seats.get(seat="S")
    services.adjustment_record(
        match_id=table.pk, pair_id=seat.pair_id, kind="forfeit", reason="未到场", user=boss, expected_version=0
    )
    table.refresh_from_db()
    snapshot = table_snapshot(table)
    assert snapshot.forfeited == ("S",)
    assert snapshot.points == (0, -6, 0)
    assert table.status == MatchStatus.FINISHED


def test_time_called_makes_the_deal_in_play_the_tables_last(table, ref, client):
    from datetime import timedelta

    from django.urls import reverse
    from django.utils import timezone

    services.deal_record(match_id=table.pk, outcome=DEALS[0], user=ref)
    table.refresh_from_db()
    table.clock_ends_at = timezone.now() - timedelta(minutes=1)  # the cap has passed
    table.save(update_fields=["clock_ends_at"])
    match_call_time(match_id=table.pk)  # the task, the sweep or a write
    table.refresh_from_db()
    assert table.time_called_during_deal == 2 and table.status == MatchStatus.RUNNING
    client.force_login(ref)
    assert client.get(reverse("matches:match", args=[table.pk])).status_code == 200
    services.deal_record(match_id=table.pk, outcome=DEALS[1], user=ref)
    table.refresh_from_db()
    assert table.status == MatchStatus.FINISHED and table.table_snapshot.last_regular_deal == 2
    with pytest.raises(ScoringError):
        services.deal_record(match_id=table.pk, outcome=DEALS[2], user=ref)
