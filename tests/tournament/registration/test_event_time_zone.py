"""The event's time zone as the service sets it (``lifecycle.tournament_update``): a name not in the
list is refused, nothing changed; once set it stays when not sent again. The settings page's own tests
are with its code's (``tests/tournament/matches/test_event_views.py``)."""

from __future__ import annotations

import pytest

from tests.factories import TournamentFactory
from tournament.errors import UserError
from tournament.registration import lifecycle
from tournament.registration.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("zone", ["Mars/Olympus", "UTC+8", "Asia/Shanghai "])
def test_the_service_refuses_an_unknown_time_zone(zone):
    tournament = TournamentFactory(venue="一楼")
    with pytest.raises(UserError) as caught:
        lifecycle.tournament_update(tournament=tournament, name=tournament.name, venue="三楼", time_zone=zone)
    assert "time_zone" in caught.value.fields
    assert "Asia/Shanghai" in caught.value.message
    tournament.refresh_from_db()
    assert (tournament.time_zone, tournament.venue) == ("Asia/Shanghai", "一楼")


def test_a_time_zone_once_set_stays_when_not_sent_again():
    tournament = TournamentFactory()
    lifecycle.tournament_update(tournament=tournament, name=tournament.name, time_zone="America/New_York")
    assert Tournament.objects.get(pk=tournament.pk).time_zone == "America/New_York"
    assert lifecycle.tournament_update(tournament=tournament, name=tournament.name).time_zone == "America/New_York"
