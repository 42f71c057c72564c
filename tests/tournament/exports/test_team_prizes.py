"""Team prizes (团体奖, docs/rules.md §4 and §11): named by the organiser, awarded from the team total."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.teams import TeamTotal, TeamTotalRow, assign_team_tiers
from tests.factories import MatchFactory, PairFactory, RoundFactory, StageFactory, TournamentFactory, organiser
from tests.tournament.test_standings_selectors import enter
from tournament.draw.stages import stage_teams_set
from tournament.errors import UserError
from tournament.exports.models import TeamPrizeTier
from tournament.exports.prizes import (
    TierData,
    team_prize_lots_draw,
    team_prize_stage,
    team_prize_tiers_set,
    team_prizes_award,
)
from tournament.matches.models import RoundStatus
from tournament.registration.teams import team_create

pytestmark = pytest.mark.django_db

WIN = ("NS", "NS", "NS", "NES")  # timed-40: N/S passes A


def _event(*, third: bool = True):
    """Sales beats R&D at two tables of three, Finance (if ``third``) loses both of its matches' tables."""
    event = TournamentFactory()
    stage = StageFactory(tournament=event)
    round_ = RoundFactory(stage=stage, number=1, status=RoundStatus.PUBLISHED)
    a1, b1, a2, b2, b3, a3 = (PairFactory(tournament=event) for _ in range(6))
    for ns, ew in ((a1, b1), (a2, b2), (b3, a3)):
        enter(MatchFactory(round=round_, ns_pair=ns, ew_pair=ew), *WIN)
    sales = team_create(tournament=event, name="销售部", pairs=[a1, a2, a3])
    rnd = team_create(tournament=event, name="研发部", pairs=[b1, b2, b3])
    if third:
        f1, f2, x1, x2 = (PairFactory(tournament=event) for _ in range(4))
        for ns, ew in ((x1, f1), (x2, f2)):
            enter(MatchFactory(round=round_, ns_pair=ns, ew_pair=ew), *WIN)
        team_create(tournament=event, name="财务部", pairs=[f1, f2])
    return event, stage, sales, rnd


def test_the_rules_core_hands_team_tiers_down_the_team_total_and_refuses_to_split_a_tie():
    def row(rank, team, shared=False):
        return TeamTotalRow(
            rank=rank, team=team, shared=shared, points=0, small_points=0, best_place=None, lots=None,
            counted=(), members=2, short=False,
        )  # fmt: skip

    total = TeamTotal(rows=(row(1, "A"), row(2, "B"), row(3, "C")), team_count=None, lots_seed=None)
    assert assign_team_tiers(total=total, tiers=[("冠军", 1), ("亚军", 1)]) == {"A": "冠军", "B": "亚军"}
    tied = TeamTotal(rows=(row(1, "A"), row(2, "B", True), row(2, "C", True)), team_count=None, lots_seed=None)
    with pytest.raises(Exception, match="draw lots"):
        assign_team_tiers(total=tied, tiers=[("冠军", 1), ("亚军", 1)])


def test_team_prizes_follow_the_team_total_best_first():
    event, stage, _sales, _rnd = _event()
    team_prize_tiers_set(tournament=event, tiers=[TierData("团体冠军", 1), TierData("团体亚军", 1)])
    assert team_prizes_award(tournament=event).stage is None  # no stage ranks teams yet
    stage_teams_set(stage=stage, team_total=True)
    awards = team_prizes_award(tournament=event)
    assert awards.stage == stage and awards.problem is None
    assert [(award.tier, award.line.rank, award.line.name) for award in awards.awards] == [
        ("团体冠军", 1, "销售部"),
        ("团体亚军", 2, "研发部"),
    ]
    assert awards.unawarded == ()


def test_more_places_than_teams_are_said_not_dropped():
    event, stage, _sales, _rnd = _event(third=False)
    stage_teams_set(stage=stage, team_total=True)
    team_prize_tiers_set(tournament=event, tiers=[TierData("团体冠军", 1), TierData("优秀团体", 3)])
    assert team_prizes_award(tournament=event).unawarded == (("优秀团体", 2),)


@pytest.mark.parametrize(
    "tiers",
    [[TierData("", 1)], [TierData("团体奖", 0)], [TierData("团体奖", 1), TierData("团体奖", 2)]],
)
def test_bad_team_tiers_are_refused_and_nothing_changes(tiers):
    event, _stage, _sales, _rnd = _event(third=False)
    team_prize_tiers_set(tournament=event, tiers=[TierData("团体冠军", 1)])
    with pytest.raises(UserError):
        team_prize_tiers_set(tournament=event, tiers=tiers)
    assert list(TeamPrizeTier.objects.filter(tournament=event).values_list("name", "team_count")) == [("团体冠军", 1)]
    assert TeamPrizeTier.history.filter(tournament=event).count() == 1  # audited, one creation


def test_a_shared_team_rank_across_a_boundary_asks_for_the_stages_lots_then_they_decide():
    event, stage, _sales, _rnd = _event(third=False)
    stage_teams_set(stage=stage, team_total=True, team_count=1)  # each team's best pair: level
    team_prize_tiers_set(tournament=event, tiers=[TierData("团体冠军", 1)])
    awards = team_prizes_award(tournament=event)
    assert awards.problem is not None and awards.awards == () and "抽签" in awards.problem.message_zh
    seed = team_prize_lots_draw(tournament=event)
    stage.refresh_from_db()
    assert stage.settings.lots_seed == seed
    first = team_prizes_award(tournament=event)
    assert first.problem is None and len(first.awards) == 1
    assert [a.line.team_id for a in team_prizes_award(tournament=event).awards] == [first.awards[0].line.team_id]
    with pytest.raises(UserError):
        team_prize_lots_draw(tournament=event)  # once per stage


def test_the_prize_stage_ranks_teams_first_else_the_last_stage_that_does():
    event, stage, _sales, _rnd = _event(third=False)
    later = StageFactory(tournament=event, order=stage.order + 1)
    assert team_prize_stage(tournament=event) is None
    stage_teams_set(stage=stage, team_total=True)
    assert team_prize_stage(tournament=event) == stage
    stage_teams_set(stage=later, team_total=True)
    assert team_prize_stage(tournament=event) == later


def test_the_prizes_page_saves_team_prizes_and_lists_the_winners(client):
    event, stage, _sales, _rnd = _event()
    stage_teams_set(stage=stage, team_total=True)
    boss = organiser(username="boss")
    event.organisers.add(boss)
    client.force_login(boss)
    client.cookies["django_language"] = "en"
    url = reverse("exports:prizes", args=[event.pk])
    form = {
        "action": "team_tiers",
        "team_tiers-TOTAL_FORMS": "2",
        "team_tiers-INITIAL_FORMS": "0",
        "team_tiers-0-name": "Team champion",
        "team_tiers-0-pair_count": "1",
        "team_tiers-1-name": "Team runner-up",
        "team_tiers-1-pair_count": "0",
    }
    page = client.post(url, form).content.decode()
    assert "Team prize 2 needs at least 1 team" in page or "Ensure this value" in page
    assert not TeamPrizeTier.objects.filter(tournament=event).exists()
    form["team_tiers-1-pair_count"] = "1"
    assert client.post(url, form).status_code == 302
    page = client.get(url).content.decode()
    awards = page[page.index('class="list team-awards"') :]
    order = [awards.index(text) for text in ("Team champion", "销售部", "Team runner-up", "研发部")]
    assert order == sorted(order)
    assert "财务部" not in awards  # third: no prize
    client.cookies["django_language"] = "zh-hans"
    assert "团体奖" in client.get(url).content.decode()


def test_the_prizes_page_has_no_team_section_without_teams(client):
    event = TournamentFactory()
    StageFactory(tournament=event)
    boss = organiser(username="boss")
    event.organisers.add(boss)
    client.force_login(boss)
    assert 'id="team-prizes"' not in client.get(reverse("exports:prizes", args=[event.pk])).content.decode()
