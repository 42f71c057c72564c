"""``make demo`` builds a realistic event through the services, and running it twice is safe."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from tournament.demo import DEMO_NAME, DEMO_PASSWORD, demo_build
from tournament.matches.models import Deal, Match, MatchStatus, RefereeAssignment, Round, RoundStatus
from tournament.registration.models import Pair, PairStatus, Tournament
from tournament.standings.selectors import stage_standings

pytestmark = pytest.mark.django_db


def test_the_demo_command_builds_the_company_event(capsys):
    call_command("demo")
    out = capsys.readouterr().out
    assert "organiser" in out and DEMO_PASSWORD in out
    tournament = Tournament.objects.get(name=DEMO_NAME)
    assert tournament.pairs.count() == 48
    assert tournament.departments.count() == 6
    assert tournament.pairs.filter(status=PairStatus.CHECKED_IN).count() == 46
    rounds = Round.objects.filter(stage__tournament=tournament).order_by("number")
    assert [r.status for r in rounds] == [RoundStatus.PUBLISHED] * 3
    assert not Match.objects.filter(round=rounds[0]).exclude(status=MatchStatus.FINISHED).exists()
    current = Match.objects.filter(round=rounds[2])
    assert current.filter(status=MatchStatus.FINISHED).exists() and current.filter(status=MatchStatus.PENDING).exists()
    assert RefereeAssignment.objects.filter(round=rounds[2]).count() == current.exclude(table=None).count()
    assert Deal.objects.filter(match__round__stage__tournament=tournament).count() > 100
    standings = stage_standings(stage=rounds[0].stage).standings
    assert standings.rows[0].match_points >= 4  # someone won both completed rounds
    points = [row.match_points for row in standings.rows]
    assert points == sorted(points, reverse=True)
    assert authenticate(username="organiser", password=DEMO_PASSWORD) is not None
    assert authenticate(username="referee2", password=DEMO_PASSWORD) is not None


def test_running_the_demo_twice_is_safe():
    other = Tournament.objects.create(name="另一个赛事", rule_profile="classic")
    demo_build(pairs=8, swiss_rounds=2)
    demo_build(pairs=8, swiss_rounds=2)
    assert Tournament.objects.filter(name=DEMO_NAME).count() == 1
    assert Tournament.objects.filter(pk=other.pk).exists()
    assert Pair.objects.filter(tournament__name=DEMO_NAME).count() == 8
