"""``make demo`` builds a realistic event through the services, and running it twice is safe."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from tournament.exports.models import ExportJob
from tournament.matches.models import (
    Deal,
    Match,
    MatchStatus,
    RefereeAssignment,
    RoundStatus,
)
from tournament.matches.referees import referee_link_redeem
from tournament.registration.models import Pair, PairStatus, Tournament
from tournament.site.demo import DEMO_NAME, DEMO_PASSWORD, demo_build
from tournament.standings.selectors import stage_standings
from tournament.standings.teams import stage_team_total_get

pytestmark = pytest.mark.django_db


def test_the_demo_command_builds_the_company_event(capsys, django_capture_on_commit_callbacks, celery_eager):
    # make demo runs without a broker, so its export runs inline; so here, even in CI.
    with django_capture_on_commit_callbacks(execute=True):  # the export is queued after the commit
        call_command("demo")
    out = capsys.readouterr().out
    assert "organiser" in out and DEMO_PASSWORD in out
    tournament = Tournament.objects.get(name=DEMO_NAME)
    assert tournament.pairs.count() == 48
    assert tournament.departments.count() == 6
    assert tournament.pairs.filter(status=PairStatus.CHECKED_IN).count() == 46
    swiss, knockout = tournament.stages.order_by("order")
    rounds = list(swiss.rounds.order_by("number"))
    assert [r.status for r in rounds] == [RoundStatus.FINISHED] * 3
    assert not Match.objects.filter(round__stage=swiss).exclude(status=MatchStatus.CONFIRMED).exists()
    assert RefereeAssignment.objects.filter(round=rounds[0]).count() == rounds[0].matches.exclude(table=None).count()
    assert Deal.objects.filter(match__round__stage__tournament=tournament).count() > 100
    standings = stage_standings(stage=swiss).standings
    assert standings.rows[0].match_points == 6  # 48 pairs, 3 rounds: someone won them all
    points = [row.match_points for row in standings.rows]
    assert points == sorted(points, reverse=True)
    # Department against department: a team per department, ranked by its best four pairs in the Swiss.
    teams = stage_team_total_get(stage=swiss)
    assert len(teams.lines) == tournament.departments.count() and teams.team_count == 4
    assert all(line.counted == 4 for line in teams.lines)
    assert [line.points for line in teams.lines] == sorted((line.points for line in teams.lines), reverse=True)
    # The top 8 went on to a fixed knockout bracket whose quarter-finals are under way.
    quarter_finals = knockout.rounds.get()
    assert quarter_finals.status == RoundStatus.PUBLISHED
    statuses = set(quarter_finals.matches.values_list("status", flat=True))
    assert {MatchStatus.CONFIRMED, MatchStatus.RUNNING, MatchStatus.PENDING} <= statuses
    top8 = {int(row.entrant) for row in standings.rows[:8]}
    assert set(quarter_finals.entries.values_list("pair_id", flat=True)) == top8
    assert ExportJob.objects.get(tournament=tournament).status == "done"
    assert authenticate(username="organiser", password=DEMO_PASSWORD) is not None
    # The event's own referees, each printed with a one-time link that signs them in to their tables.
    links = re.findall(r"^  (\S+)  /referee/sign-in/([^/]+)/$", out, re.M)
    assert [name for name, _token in links] == list(tournament.referees.order_by("pk").values_list("name", flat=True))
    name, token = links[1]
    account = referee_link_redeem(token=token)
    assert account.referee_profile.name == name and account.referee_profile.tournament_id == tournament.pk
    assert RefereeAssignment.objects.filter(referee=account, round__stage=knockout).exists()


def test_running_the_demo_twice_is_safe():
    other = Tournament.objects.create(name="另一个赛事", rule_profile="classic")
    demo_build(pairs=8, swiss_rounds=2)
    demo_build(pairs=8, swiss_rounds=2)
    assert Tournament.objects.filter(name=DEMO_NAME).count() == 1
    assert Tournament.objects.filter(pk=other.pk).exists()
    assert Pair.objects.filter(tournament__name=DEMO_NAME).count() == 8
