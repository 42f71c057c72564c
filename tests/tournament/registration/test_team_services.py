"""Teams (docs/rules.md §11): made by hand or one per department, members and substitutes, and every
refusal leaving the event as it was."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from tests.factories import DepartmentFactory, PairFactory, PlayerFactory, TournamentFactory
from tournament.draw.stages import stage_create, stage_teams_set
from tournament.errors import UserError
from tournament.registration import services
from tournament.registration.models import Pair, PairMember, Team, TeamMember
from tournament.registration.teams import (
    team_create,
    team_delete,
    team_member_add,
    team_member_remove,
    team_rename,
    team_substitute_add,
    teams_from_departments,
    teams_ready_check,
)

pytestmark = pytest.mark.django_db


def _snapshot(tournament):
    return (
        sorted(Team.objects.filter(tournament=tournament).values_list("number", "name")),
        sorted(TeamMember.objects.filter(team__tournament=tournament).values_list("team_id", "pair_id", "substitute")),
    )


def _pair_in(tournament, department):
    pair = PairFactory(tournament=tournament, with_players=False)
    for slot in (1, 2):
        PairMember.objects.create(
            pair=pair, player=PlayerFactory(tournament=tournament, department=department), slot=slot
        )
    return pair


def test_a_team_is_made_with_its_members_in_order_and_numbered():
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(3)]
    sales = team_create(tournament=event, name=" 销售部 ", pairs=pairs[:2])
    rnd = team_create(tournament=event, name="研发部")
    team_member_add(team=rnd, pair=pairs[2])
    assert (sales.number, sales.name, rnd.number) == (1, "销售部", 2)
    assert list(sales.members.values_list("pair_id", "position")) == [(pairs[0].pk, 1), (pairs[1].pk, 2)]
    assert sales.history.count() == 1 and TeamMember.history.count() == 3


def test_a_pair_in_two_teams_is_refused_and_nothing_changes():
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(3)]
    sales = team_create(tournament=event, name="销售部", pairs=pairs[:2])
    rnd = team_create(tournament=event, name="研发部")
    before = _snapshot(event)
    with pytest.raises(UserError) as refused:
        team_member_add(team=rnd, pair=pairs[0])
    assert refused.value.code == "team_member_taken" and "销售部" in refused.value.message
    with pytest.raises(UserError):
        team_member_add(team=sales, pair=pairs[0])  # already in this very team
    with pytest.raises(UserError):  # a new team naming a taken pair is not made at all
        team_create(tournament=event, name="财务部", pairs=[pairs[2], pairs[1]])
    assert _snapshot(event) == before


def test_the_database_holds_one_team_per_pair():
    event = TournamentFactory()
    pair = PairFactory(tournament=event)
    first = team_create(tournament=event, name="甲", pairs=[pair])
    second = team_create(tournament=event, name="乙")
    with pytest.raises(IntegrityError), transaction.atomic():
        TeamMember.objects.create(team=second, pair=pair, position=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Team.objects.create(tournament=event, number=first.number, name="丙")


def test_a_substitute_of_another_team_is_refused():
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(4)]
    sales = team_create(tournament=event, name="销售部", pairs=pairs[:2])
    rnd = team_create(tournament=event, name="研发部", pairs=pairs[2:])
    spare = PairFactory(tournament=event)
    team_substitute_add(team=sales, pair=spare)
    before = _snapshot(event)
    with pytest.raises(UserError) as refused:
        team_substitute_add(team=rnd, pair=spare)
    assert "substitute of another team" in refused.value.message
    with pytest.raises(UserError):
        team_substitute_add(team=rnd, pair=pairs[0])
    assert _snapshot(event) == before
    assert TeamMember.objects.get(pair=spare).substitute


def test_names_are_refused_when_empty_taken_or_of_another_event():
    event, other = TournamentFactory(), TournamentFactory()
    team_create(tournament=event, name="销售部")
    for name in ("", "  ", "销售部", "x" * 81, "A\u202eB"):
        with pytest.raises(UserError):
            team_create(tournament=event, name=name)
    with pytest.raises(UserError):
        team_create(tournament=event, name="外人", pairs=[PairFactory(tournament=other)])
    assert Team.objects.filter(tournament=event).count() == 1
    team = Team.objects.get(tournament=event)
    assert team_rename(team=team, name="市场部").name == "市场部"


def test_a_withdrawn_pair_joins_no_team():
    event = TournamentFactory()
    pair = services.pair_withdraw(pair=PairFactory(tournament=event))
    team = team_create(tournament=event, name="甲")
    with pytest.raises(UserError):
        team_member_add(team=team, pair=pair)


def test_one_team_per_department_in_one_click_and_again_only_adds_newcomers():
    event = TournamentFactory()
    sales, rnd, alone = (DepartmentFactory(tournament=event, name=name) for name in ("销售部", "研发部", "财务部"))
    sales_pairs = [_pair_in(event, sales) for _ in range(3)]
    rnd_pairs = [_pair_in(event, rnd) for _ in range(2)]
    _pair_in(event, alone)  # one pair: no team of one
    done = teams_from_departments(tournament=event)
    assert sorted(team.name for team in done.created) == ["研发部", "销售部"]
    assert done.skipped == ["财务部"] and done.added == 5
    team = Team.objects.get(tournament=event, department=sales)
    assert [m.pair_id for m in team.members.all()] == [pair.pk for pair in sales_pairs]
    assert Team.objects.get(department=rnd).members.count() == len(rnd_pairs)
    late = _pair_in(event, sales)
    again = teams_from_departments(tournament=event)
    assert again.created == [] and again.added == 1 and [t.name for t in again.extended] == ["销售部"]
    assert team.members.last().pair_id == late.pk


def test_one_click_without_departments_is_refused():
    event = TournamentFactory()
    PairFactory(tournament=event)
    with pytest.raises(UserError) as refused:
        teams_from_departments(tournament=event)
    assert refused.value.code == "no_departments"
    assert not Team.objects.exists()


def test_dou_dizhu_players_are_a_teams_members():
    event = TournamentFactory(rule_profile="doudizhu")
    department = DepartmentFactory(tournament=event, name="工会")
    for name in ("甲", "乙", "丙"):
        services.player_enter(tournament=event, player=services.PlayerData(name=name, department=department.name))
    done = teams_from_departments(tournament=event)
    (team,) = done.created
    assert team.members.count() == 3
    assert set(Pair.objects.filter(team_membership__team=team).values_list("name", flat=True)) == {"甲", "乙", "丙"}


def test_a_team_of_one_is_refused_where_a_stage_ranks_teams():
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(3)]
    team = team_create(tournament=event, name="甲", pairs=pairs[:2])
    single = team_create(tournament=event, name="乙", pairs=pairs[2:])
    with pytest.raises(UserError) as refused:
        teams_ready_check(tournament=event)
    assert refused.value.code == "team_too_small" and "乙" in refused.value.message
    with pytest.raises(UserError):
        stage_create(tournament=event, name="预赛", format="swiss", options={"team_total": True})
    assert not event.stages.exists()
    team_delete(team=single)
    stage = stage_create(tournament=event, name="预赛", format="swiss", options={"team_total": True, "team_count": 2})
    assert stage.settings.team_total and stage.settings.team_count == 2
    before = _snapshot(event)
    with pytest.raises(UserError) as refused:
        team_member_remove(team=team, pair=pairs[0])
    assert refused.value.code == "team_too_small"
    with pytest.raises(UserError):
        team_delete(team=team)
    assert _snapshot(event) == before
    stage_teams_set(stage=stage, team_total=False)
    team_member_remove(team=team, pair=pairs[0])
    assert team.members.count() == 1


def test_a_team_of_a_stage_of_team_matches_keeps_two_members_and_is_not_deleted():
    """A stage of team matches ranks teams as a team total does: taking a team down to one pair, or
    deleting a team that plays (its team matches hold it: the database refused with a 500), is refused
    with the reason, nothing changed."""
    from tournament.draw.services import round_draw

    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(4)]
    team = team_create(tournament=event, name="甲", pairs=pairs[:2])
    team_create(tournament=event, name="乙", pairs=pairs[2:])
    stage = stage_create(tournament=event, name="团体瑞士", format="swiss", options={"team_match": True})
    round_draw(stage=stage, seed=1)
    before = _snapshot(event)
    with pytest.raises(UserError) as refused:
        team_member_remove(team=team, pair=pairs[0])
    assert refused.value.code == "team_too_small" and "团体瑞士 plays team matches" in refused.value.message
    with pytest.raises(UserError) as refused:
        team_delete(team=team)
    assert refused.value.code == "team_too_small"
    assert _snapshot(event) == before


def test_team_options_of_a_stage_are_checked_by_the_rules_core():
    event = TournamentFactory()
    team_create(tournament=event, name="甲", pairs=[PairFactory(tournament=event) for _ in range(2)])
    for options in (
        {"team_count": 2},
        {"team_total": True, "team_count": 0},
        {"team_total": "yes"},
        {"team_decider": "total"},
        {"team_match": True, "team_decider": "most"},
    ):
        with pytest.raises(UserError):
            stage_create(tournament=event, name="预赛", format="swiss", options=options)
    assert not event.stages.exists()
    stage = stage_create(
        tournament=event, name="预赛", format="swiss", options={"team_total": True, "team_count": "all"}
    )
    assert stage.options == {"team_total": True}


def _history_counts():
    return Team.history.count(), TeamMember.history.count()


@pytest.fixture
def team_match_event():
    """Two teams of two pairs, a stage of team matches, and two pairs in no team."""
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(6)]
    team_create(tournament=event, name="甲", pairs=pairs[:2])
    team_create(tournament=event, name="乙", pairs=pairs[2:4])
    stage_create(tournament=event, name="团体瑞士", format="swiss", options={"team_match": True})
    return event, pairs


def test_while_a_stage_plays_team_matches_no_team_is_made_of_fewer_than_two(team_match_event):
    event, pairs = team_match_event
    before, history = _snapshot(event), _history_counts()
    for members in ([pairs[4]], []):
        with pytest.raises(UserError) as refused:
            team_create(tournament=event, name="丙", pairs=members)
        assert (refused.value.code, refused.value.status) == ("team_too_small", 409)
        assert list(refused.value.fields) == ["members"]  # the teams page's field of the numbers
        assert "团体瑞士 plays team matches" in refused.value.message
        assert _snapshot(event) == before and _history_counts() == history
    team = team_create(tournament=event, name="丙", pairs=pairs[4:6])
    assert team.members.count() == 2


def test_while_a_stage_plays_team_matches_a_short_team_is_not_filled_short_or_taken_apart(team_match_event):
    """A team of one from before (made in the database, as no write makes one now) is neither given a
    member or a substitute that leaves it short nor taken apart: each refused, nothing changed. It can
    be deleted (it played nothing), and a team of two keeps its two."""
    event, pairs = team_match_event
    lone = Team.objects.create(tournament=event, number=3, name="丙")
    empty = Team.objects.create(tournament=event, number=4, name="丁")
    TeamMember.objects.create(team=lone, pair=pairs[4], position=1)
    full = Team.objects.get(tournament=event, name="甲")
    before, history = _snapshot(event), _history_counts()
    refusals = [
        lambda: team_member_add(team=empty, pair=pairs[5]),
        lambda: team_substitute_add(team=empty, pair=pairs[5]),
        lambda: team_member_remove(team=lone, pair=pairs[4]),
        lambda: team_member_remove(team=full, pair=pairs[0]),
    ]
    for refused_write in refusals:
        with pytest.raises(UserError) as refused:
            refused_write()
        assert (refused.value.code, refused.value.status) == ("team_too_small", 409)
        assert "团体瑞士 plays team matches" in refused.value.message
        assert _snapshot(event) == before and _history_counts() == history
    team_member_add(team=lone, pair=pairs[5])  # two now: filled
    team_delete(team=empty)
    assert sorted(Team.objects.filter(tournament=event).values_list("name", flat=True)) == ["丙", "乙", "甲"]


def test_a_team_total_lets_a_team_be_filled_one_member_at_a_time_but_not_dropped_below_two():
    """Only a team total: a team is made by name and filled member by member (named, not ranked, while
    short), and taken apart while short; once it has two it is ranked and keeps them."""
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(4)]
    team_create(tournament=event, name="甲", pairs=pairs[:2])
    stage_create(tournament=event, name="预赛", format="swiss", options={"team_total": True})
    filling = team_create(tournament=event, name="乙")
    team_substitute_add(team=filling, pair=pairs[2])
    team_member_remove(team=filling, pair=pairs[2])  # short already: taken apart
    team_member_add(team=filling, pair=pairs[2])
    team_member_add(team=filling, pair=pairs[3])
    before = _snapshot(event)
    with pytest.raises(UserError) as refused:
        team_member_remove(team=filling, pair=pairs[3])
    assert refused.value.code == "team_too_small" and "预赛 ranks teams" in refused.value.message
    assert _snapshot(event) == before


def test_a_stage_of_team_matches_is_refused_on_its_field_while_a_team_is_short():
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(3)]
    team_create(tournament=event, name="甲", pairs=pairs[:2])
    team_create(tournament=event, name="乙", pairs=pairs[2:])
    with pytest.raises(UserError) as refused:
        stage_create(tournament=event, name="团体瑞士", format="swiss", options={"team_match": True})
    assert refused.value.code == "team_too_small" and list(refused.value.fields) == ["team_match"]
    assert "乙" in refused.value.message and not event.stages.exists()


def test_one_click_from_departments_does_not_leave_a_department_team_short_under_team_matches(team_match_event):
    event, _pairs = team_match_event
    department = DepartmentFactory(tournament=event, name="工会")
    Team.objects.create(tournament=event, number=3, name="工会队", department=department)
    _pair_in(event, department)
    before = _snapshot(event)
    with pytest.raises(UserError) as refused:
        teams_from_departments(tournament=event)
    assert refused.value.code == "team_too_small" and "工会队" in refused.value.message
    assert _snapshot(event) == before
