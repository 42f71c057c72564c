"""An archived event refuses every team write (docs/rules.md §11), as it does the pairs' ones: the teams,
the team draw's line-ups, the sign-off of a team match, a knockout's tie-break deal and the team prizes
are refused with the one guard's error, and nothing changes."""

from __future__ import annotations

import pytest

from tests.factories import PairFactory, TournamentFactory
from tournament.draw import team_knockout, team_matches
from tournament.draw.services import round_draw, round_publish
from tournament.draw.stages import stage_create
from tournament.draw.team_knockout import team_match_extra_deal_record
from tournament.draw.team_matches import team_line_up_set
from tournament.exports import prizes
from tournament.exports.models import TeamPrizeTier
from tournament.exports.prizes import TierData, team_prize_lots_draw, team_prize_tiers_set
from tournament.matches import team_matches as match_team_matches
from tournament.matches.models import Match, MatchStatus, TeamLineUp, TeamMatch
from tournament.matches.services import deal_record
from tournament.matches.team_matches import team_match_sign_off
from tournament.registration import teams
from tournament.registration.lifecycle import EventArchived, event_guarded, tournament_archive, tournament_unarchive
from tournament.registration.models import Team, TeamMember

pytestmark = pytest.mark.django_db

NS_WINS = (("N", "S"), ("N", "S"), ("N", "S"), ("N", "E", "S"))  # timed-40: N/S passes A


def _refused(call) -> None:
    with pytest.raises(EventArchived) as caught:
        call()
    assert caught.value.code == "event_archived" and caught.value.status == 409


def _teams(event, count: int) -> list[Team]:
    return [
        teams.team_create(tournament=event, name=f"队{n + 1}", pairs=[PairFactory(tournament=event) for _ in range(2)])
        for n in range(count)
    ]


def _play(match, orders=NS_WINS) -> None:
    for order in orders:
        deal_record(match_id=match.pk, outcome={"order": list(order)})


def _members() -> list[tuple[int, int, int, bool]]:
    return sorted(TeamMember.objects.values_list("team_id", "pair_id", "position", "substitute"))


@pytest.mark.parametrize(
    ("module", "reads"),
    [
        (
            teams,
            {
                "teams_with_members",
                "teams_short",
                "teams_ready_check",
                "team_of_pairs",
                "pairs_free",
                "teams_withdrawn",
            },
        ),
        # the team draw's steps, called inside the guarded round draw
        (
            team_matches,
            {
                "stage_teams",
                "team_entrants",
                "team_seat_need",
                "default_line_ups",
                "team_draw_plan",
                "team_matches_write",
            },
        ),
        (team_knockout, set()),
        (match_team_matches, {"team_match_tables"}),
        (prizes, {"prize_stage", "prize_order_get", "prize_tiers_award", "team_prize_stage", "team_prizes_award"}),
    ],
    ids=["teams", "team draw", "team knockout", "team match", "prizes"],
)
def test_every_team_write_is_under_the_one_guard(module, reads):
    writes = [
        name
        for name, function in vars(module).items()
        if callable(function)
        and getattr(function, "__module__", "") == module.__name__
        and not name.startswith("_")
        and not isinstance(function, type)
        and name not in reads
    ]
    assert writes
    assert [name for name in writes if not event_guarded(getattr(module, name))] == []


def test_an_archived_event_refuses_every_write_of_its_teams():
    event = TournamentFactory()
    team, other = _teams(event, 2)
    free, spare = PairFactory(tournament=event), PairFactory(tournament=event)
    teams.team_substitute_add(team=other, pair=spare)
    before = _members()
    tournament_archive(tournament=event)
    member = team.members.first().pair
    for call in (
        lambda: teams.team_create(tournament=event, name="新队", pairs=[free]),
        lambda: teams.teams_from_departments(tournament=event),
        lambda: teams.team_rename(team=team, name="改名"),
        lambda: teams.team_seed_set(team=team, seed=1),
        lambda: teams.team_member_add(team=team, pair=free),
        lambda: teams.team_substitute_add(team=team, pair=free),
        lambda: teams.team_member_remove(team=team, pair=member),
        lambda: teams.team_member_remove(team=other, pair=spare),
        lambda: teams.team_delete(team=other),
    ):
        _refused(call)
    assert sorted(Team.objects.values_list("name", flat=True)) == ["队1", "队2"]
    assert _members() == before
    tournament_unarchive(tournament=event)
    teams.team_rename(team=team, name="改名")  # writable again
    assert Team.objects.get(pk=team.pk).name == "改名"


def test_an_archived_event_refuses_a_line_up_change_and_a_team_match_sign_off():
    event = TournamentFactory()
    made = _teams(event, 2)
    stage = stage_create(tournament=event, name="团体", format="swiss", options={"team_match": True})
    round_ = round_draw(stage=stage, seed=3)
    team = made[0]
    first, second = (member.pair for member in team.members.order_by("position"))
    tournament_archive(tournament=event)
    _refused(lambda: team_line_up_set(round_=round_, team=team, first=second, second=first))
    line_up = TeamLineUp.objects.get(round=round_, team=team)
    assert (line_up.first_id, line_up.second_id) == (first.pk, second.pk)

    tournament_unarchive(tournament=event)
    round_publish(round_=round_)
    row = TeamMatch.objects.get(round=round_)
    _play(row.table_a)
    _play(row.table_b)
    tournament_archive(tournament=event)
    _refused(lambda: team_match_sign_off(team_match=row))
    assert set(Match.objects.filter(round=round_).values_list("status", flat=True)) == {MatchStatus.FINISHED}
    tournament_unarchive(tournament=event)
    team_match_sign_off(team_match=row)
    assert set(Match.objects.filter(round=round_).values_list("status", flat=True)) == {MatchStatus.CONFIRMED}


def test_an_archived_event_refuses_a_table_still_playing_with_the_guards_error_first():
    """The guard speaks before the service looks at the tables: the event is read-only whatever they say."""
    event = TournamentFactory()
    _teams(event, 2)
    stage = stage_create(tournament=event, name="团体", format="swiss", options={"team_match": True})
    round_ = round_draw(stage=stage, seed=3)
    round_publish(round_=round_)
    tournament_archive(tournament=event)
    _refused(lambda: team_match_sign_off(team_match=TeamMatch.objects.get(round=round_)))


def test_an_archived_event_refuses_a_tie_break_deal():
    event = TournamentFactory()
    _teams(event, 2)
    stage = stage_create(tournament=event, name="决赛", format="knockout", options={"team_match": True})
    round_ = round_draw(stage=stage, seed=5)
    round_publish(round_=round_)
    row = TeamMatch.objects.get(round=round_)
    _play(row.table_a)
    _play(row.table_b)  # one table each by the same margin: level, waiting for its tie-break deal
    team_match_sign_off(team_match=row)
    tournament_archive(tournament=event)
    _refused(lambda: team_match_extra_deal_record(team_match=row, side="NS"))
    row.refresh_from_db()
    assert row.extra_deal == ""
    assert TeamMatch.history.filter(id=row.pk).exclude(extra_deal="").count() == 0


def test_an_archived_event_refuses_its_team_prizes():
    event = TournamentFactory()
    team_prize_tiers_set(tournament=event, tiers=[TierData(name="冠军", pair_count=1)])
    tournament_archive(tournament=event)
    _refused(lambda: team_prize_tiers_set(tournament=event, tiers=[TierData(name="一等奖", pair_count=2)]))
    _refused(lambda: team_prize_lots_draw(tournament=event))
    assert list(TeamPrizeTier.objects.filter(tournament=event).values_list("name", "team_count")) == [("冠军", 1)]
