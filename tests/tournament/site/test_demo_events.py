"""The small demo (``demo_build(pairs=8, swiss_rounds=1)``) has its Dou Dizhu event, its team event and its
league series. Building it is the slow part, so it is built once for this module's tests, which read it;
what a test writes is undone before the next (each runs in a savepoint of the build's transaction)."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from tournament.exports.models import Series
from tournament.exports.series import series_standings_get
from tournament.matches.deadlines import deadline_board
from tournament.matches.models import ClaimStatus, DealClaim, Match, MatchSeat, MatchStatus, RoundStatus, TeamMatch
from tournament.matches.player_entry import deal_claim_confirm, pin_proves
from tournament.registration.models import Player, Tournament, TournamentStatus
from tournament.site.demo import ANNOUNCEMENTS, demo_build
from tournament.site.demo_doudizhu import DOUDIZHU_NAME
from tournament.site.demo_league import LEAGUE_NAMES, SERIES_NAME
from tournament.site.demo_teams import TEAMS_NAME
from tournament.standings.selectors import stage_standings
from tournament.standings.team_matches import stage_team_matches_get

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def small_demo(django_db_setup, django_db_blocker):
    """The small demo, built once for the module in a transaction rolled back after its last test, as
    Django's ``setUpTestData``: each test's own transaction (pytest-django's ``django_db``) is a
    savepoint inside it, rolled back after the test, so every test starts from the demo as built (the
    cache is not rolled back: the one test that writes, the series', confirms a deal of the league's third
    event, which no other test here reads). Built
    under the settings the suite's function-scoped fixtures give each test (tests/conftest.py), which are
    not yet in force for a module's fixture."""
    suite_settings = override_settings(
        PUBLIC_REBUILD_SECONDS=0, PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]
    )
    with django_db_blocker.unblock(), suite_settings, transaction.atomic():
        yield demo_build(pairs=8, swiss_rounds=1)
        transaction.set_rollback(True)


def test_the_demo_has_a_small_dou_dizhu_event(small_demo):
    event = Tournament.objects.get(name=DOUDIZHU_NAME)
    assert event.game == "doudizhu" and event.pairs.count() == 27
    assert all(entrant.members.count() == 1 for entrant in event.pairs.all())
    points, final = event.stages.order_by("order")
    assert [r.status for r in points.rounds.order_by("number")] == [RoundStatus.FINISHED] * 3
    assert MatchSeat.objects.filter(round__stage=points, round__number=3).count() == 9  # the cut to 9
    ranking = stage_standings(stage=points).players
    assert ranking is not None and len(ranking.eliminated_after) == 18
    final_round = final.rounds.get()
    assert final_round.matches.count() == 1
    finalists = set(MatchSeat.objects.filter(round=final_round).values_list("pair_id", flat=True))
    assert finalists == {int(row.player) for row in ranking.players.rows[:3]}
    assert final_round.matches.get().status == MatchStatus.RUNNING


def test_the_dou_dizhu_demo_prints_its_round_sheets(small_demo, client):
    """Every round of the Dou Dizhu demo has its draw sheet and its score sheets, page and .xlsx."""
    event = Tournament.objects.get(name=DOUDIZHU_NAME)
    client.force_login(event.organisers.first())
    rounds = [round_ for stage in event.stages.order_by("order") for round_ in stage.rounds.order_by("number")]
    assert len(rounds) == 4
    for round_ in rounds:
        for name in ("exports:round_draw", "exports:score_sheets"):
            url = reverse(name, args=[event.pk, round_.pk])
            assert client.get(url).status_code == 200, url
            assert client.get(url, {"format": "xlsx"}).status_code == 200, url


def test_the_demo_has_a_team_event_of_the_departments_one_round_in_play(small_demo):
    event = Tournament.objects.get(name=TEAMS_NAME)
    assert event.teams.count() == event.departments.count() == 6
    assert all(team.members.count() == 2 for team in event.teams.all())
    (stage,) = event.stages.all()
    first, second = stage.rounds.order_by("number")
    assert first.status == RoundStatus.FINISHED and second.status == RoundStatus.PUBLISHED
    assert not Match.objects.filter(round=first).exclude(status=MatchStatus.CONFIRMED).exists()
    assert TeamMatch.objects.filter(round=second).count() == 3
    assert {MatchStatus.CONFIRMED, MatchStatus.RUNNING, MatchStatus.PENDING} <= set(
        second.matches.values_list("status", flat=True)
    )
    played = stage_team_matches_get(stage=stage)
    assert all(line.result.finished for line in played.of_round(1))
    met = {frozenset((line.x, line.y)) for line in played.matches}
    assert len(met) == 6  # no two teams met twice
    assert sum(row.match_points for row in played.standings.rows) >= 3 * 2  # round 1's three team matches


def test_the_demo_has_a_series_an_announcement_and_a_self_scheduled_round(small_demo, client):
    """The series' standings count two finished events of the league, the championship's page shows the
    organiser's announcements, and the league's third event plays a round by a deadline, some of its
    matches entered and some still open."""
    summary = small_demo
    assert summary.league is not None
    league = summary.league
    series = Series.objects.get(name=SERIES_NAME)
    standings = series_standings_get(series=series)
    assert [event.name for event in standings.counted] == list(LEAGUE_NAMES[:2])
    assert all(event.status == TournamentStatus.FINISHED for event in standings.counted)
    assert [event.name for event in standings.events] == list(LEAGUE_NAMES)  # the third counts once finished
    assert standings.lines[0].row.points >= 10 + 4  # a winner, who played the other event too
    assert 16 < len(standings.lines) <= 18  # the regulars who played: 16 an event, partners changing
    assert reverse("exports:series", args=[series.pk]) in client.get(reverse("home")).content.decode()
    page = client.get(reverse("exports:series", args=[series.pk]))
    assert page.status_code == 200 and standings.lines[0].name in page.content.decode()
    # the championship's public page shows its announcements, newest first
    public = client.get(reverse("standings:tournament", args=[summary.tournament.pk])).content.decode()
    assert public.index(ANNOUNCEMENTS[1]) < public.index(ANNOUNCEMENTS[0])
    # the self-scheduled quarter-finals: a deadline ahead, matches entered and matches still open
    opened = league.open_round
    assert opened.deadline is not None and opened.deadline > timezone.now()
    assert opened.stage.tournament.name == LEAGUE_NAMES[2]
    board = deadline_board(round_=opened)
    assert board is not None and not board.passed
    assert [row.state for row in board.rows] == ["confirmed", "reported", "played", "not_yet"]
    assert board.rows[-1].extended
    event_page = client.get(reverse("standings:tournament", args=[opened.stage.tournament_id])).content.decode()
    assert "deadline-reminder" in event_page and "18:00" in event_page
    visit = league.table_visit
    table = reverse("matches:table", args=[visit.token])
    assert client.get(table).status_code == 200
    # the printed employee number says who the visitor is, the printed PIN confirms the entry awaiting them
    player = Player.objects.get(tournament=opened.stage.tournament, employee_number=visit.employee_number)
    claim = DealClaim.objects.get(match__round=opened, match__table__number=2, status=ClaimStatus.PENDING)
    assert player.name == visit.name and claim.side == "NS"
    deal_claim_confirm(match_id=claim.match_id, claim_id=claim.pk, player_id=player.pk)
    assert pin_proves(player_id=player.pk, code=visit.pin)
