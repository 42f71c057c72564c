"""No-shows: after the forfeit band, tables whose pair never checked in are offered to
the chief referee as forfeits, one tap each, through adjustment_record (audited)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.options import LateArrivalBand, LatePenalty, RuleOptions
from tests.factories import UserFactory, round_match, table_match
from tournament.matches import clock, services
from tournament.matches.errors import MatchRefused
from tournament.matches.models import Adjustment, AdjustmentKind, ChiefReferee, RoundStatus
from tournament.matches.no_shows import forfeit_after_minutes, no_show_forfeit, round_no_shows
from tournament.registration.services import pair_check_in

pytestmark = pytest.mark.django_db


def test_the_threshold_is_the_bound_before_the_forfeit_band():
    assert forfeit_after_minutes(RuleOptions()) == 20  # docs/rules.md §7: more than 20 minutes late
    custom = RuleOptions(
        late_arrival=(LateArrivalBand(7, LatePenalty.WARNING), LateArrivalBand(None, LatePenalty.FORFEIT_MATCH))
    )
    assert forfeit_after_minutes(custom) == 7
    assert forfeit_after_minutes(RuleOptions(late_arrival=(LateArrivalBand(None, LatePenalty.WARNING),))) is None


def _started_round(minutes_ago):
    match = table_match(round_status=RoundStatus.PUBLISHED)
    round_ = match.round
    clock.round_start(round_id=round_.pk, now=timezone.now() - timedelta(minutes=minutes_ago))
    round_.refresh_from_db()
    return round_, match


def test_nothing_is_offered_before_the_threshold():
    round_, _match = _started_round(10)
    offer = round_no_shows(round_=round_)
    assert offer.minutes == 20 and offer.elapsed == 10 and not offer.due and offer.tables == []


def test_after_the_threshold_tables_with_a_pair_not_checked_in_are_offered():
    round_, absent_table = _started_round(25)
    present_table = round_match(round_=round_)
    played_table = round_match(round_=round_)
    for pair in (absent_table.ns_pair, present_table.ns_pair, present_table.ew_pair, played_table.ns_pair):
        pair_check_in(pair=pair)
    services.deal_record(match_id=played_table.pk, outcome={"order": ["N", "S", "E", "W"]})
    offer = round_no_shows(round_=round_)
    assert offer.due
    assert [(t.match.pk, [p.pk for p in t.absent]) for t in offer.tables] == [
        (absent_table.pk, [absent_table.ew_pair_id])
    ]


def test_one_tap_forfeits_through_the_adjustments_and_is_not_offered_again():
    round_, match = _started_round(30)
    pair_check_in(pair=match.ns_pair)
    chief = UserFactory()
    [row] = no_show_forfeit(round_=round_, match_id=match.pk, user=chief)
    assert row.kind == AdjustmentKind.FORFEIT and row.pair_id == match.ew_pair_id and row.created_by == chief
    assert "No-show" in row.reason
    assert row.history.exists()  # audited like every adjustment
    assert round_no_shows(round_=round_).tables == []
    with pytest.raises(MatchRefused):
        no_show_forfeit(round_=round_, match_id=match.pk, user=chief)
    assert Adjustment.objects.filter(match=match).count() == 1


def test_both_pairs_absent_is_a_double_forfeit():
    round_, match = _started_round(30)
    rows = no_show_forfeit(round_=round_, match_id=match.pk)
    assert {row.pair_id for row in rows} == {match.ns_pair_id, match.ew_pair_id}


def test_the_chief_referee_page_offers_and_records(client):
    round_, match = _started_round(30)
    tournament = round_.stage.tournament
    chief = UserFactory()
    ChiefReferee.objects.create(tournament=tournament, user=chief)
    client.force_login(chief)
    url = reverse("matches:round_no_shows", args=[tournament.pk, round_.pk])
    html = client.get(url).content.decode()
    assert match.ew_pair.name in html
    assert client.post(url, {"match": match.pk}).status_code == 302
    assert Adjustment.objects.filter(match=match, kind=AdjustmentKind.FORFEIT).count() == 2
    assert client.post(url, {"match": "x"}).status_code == 302  # refused with a message, nothing written
    _other, other = _started_round(30)
    assert client.post(url, {"match": other.pk}).status_code == 302
    assert not Adjustment.objects.filter(match=other).exists()  # not a table of this round
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404


def test_a_finished_rounds_page_says_it_is_over_not_how_long_it_has_run(client):
    round_, _match = _started_round(33)
    tournament = round_.stage.tournament
    chief = UserFactory()
    ChiefReferee.objects.create(tournament=tournament, user=chief)
    client.force_login(chief)
    round_.status = RoundStatus.FINISHED
    round_.save(update_fields=["status"])
    html = client.get(reverse("matches:round_no_shows", args=[tournament.pk, round_.pk])).content.decode()
    assert "本轮已结束" in html and "33" not in html
