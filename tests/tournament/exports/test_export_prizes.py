"""Prize tiers: defined by the organiser, awarded from the final ranking (docs/rules.md §4)."""

from __future__ import annotations

import pytest

from tests.factories import StageFactory, TournamentFactory
from tests.tournament.exports.conftest import build, read_book
from tournament.errors import UserError
from tournament.exports.models import PrizeRanking, PrizeTier
from tournament.exports.prizes import (
    TierData,
    prize_lots_draw,
    prize_stage_set,
    prize_tiers_award,
    prize_tiers_set,
)
from tournament.matches.models import StageFormat
from tournament.standings.selectors import stage_standings

pytestmark = pytest.mark.django_db

SEED_003 = [TierData("第一名", 1), TierData("第二名", 2), TierData("第三名", 3), TierData("优胜", 10)]


def test_tiers_are_saved_in_order_and_replace_the_old_ones(event):
    tiers = prize_tiers_set(tournament=event.tournament, tiers=SEED_003)
    assert [(tier.name, tier.pair_count, tier.order) for tier in tiers] == [
        ("第一名", 1, 1),
        ("第二名", 2, 2),
        ("第三名", 3, 3),
        ("优胜", 10, 4),
    ]
    assert PrizeTier.objects.filter(tournament=event.tournament).count() == 4
    assert PrizeTier.history.filter(tournament=event.tournament, history_type="-").count() == 2  # audited


@pytest.mark.parametrize(
    "tiers",
    [
        [TierData("", 1)],
        [TierData("一等奖", 0)],
        [TierData("一等奖", 1), TierData("一等奖", 2)],
        [TierData("奖" * 41, 1)],
    ],
)
def test_bad_tiers_are_refused_and_nothing_changes(event, tiers):
    with pytest.raises(UserError):
        prize_tiers_set(tournament=event.tournament, tiers=tiers)
    assert list(PrizeTier.objects.filter(tournament=event.tournament).values_list("name", flat=True)) == [
        "一等奖",
        "二等奖",
    ]


def test_a_shared_rank_across_a_tier_boundary_asks_for_lots_then_lots_decide_reproducibly(event):
    standings = stage_standings(stage=event.stage).standings
    assert standings.rows[0].shared and standings.rows[1].rank == 1  # two pairs share 1st
    award_list = prize_tiers_award(tournament=event.tournament)
    assert award_list.problem is not None and award_list.awards == ()
    assert "抽签" in award_list.problem.message_zh

    ranking = prize_lots_draw(tournament=event.tournament, user=event.boss)
    event.stage.refresh_from_db()
    seed = event.stage.settings.lots_seed  # the stage's own lots, recorded with it
    assert seed is not None and ranking.lots_drawn_by == event.boss
    first = prize_tiers_award(tournament=event.tournament)
    assert first.problem is None
    assert [award.tier for award in first.awards] == ["一等奖", "二等奖", "二等奖"]
    again = prize_tiers_award(tournament=event.tournament)
    assert [award.pair.id for award in again.awards] == [award.pair.id for award in first.awards]
    lots_ranking = stage_standings(stage=event.stage).standings
    assert lots_ranking.lots_seed == seed and first.lots_seed == seed
    assert [award.pair.id for award in first.awards] == [int(row.entrant) for row in lots_ranking.rows[:3]]


def test_the_award_list_in_the_workbook_has_names_and_departments(event):
    prize_lots_draw(tournament=event.tournament)
    award_list = prize_tiers_award(tournament=event.tournament)
    rows = read_book(build(tournament=event.tournament))["获奖名单"]
    assert len(rows) - 1 == 3
    for row, award in zip(rows[1:], award_list.awards, strict=True):
        first, second = award.pair.players
        assert row[0] == award.tier and row[1] == award.rank and row[2] == award.pair.number
        assert row[4] == first.department and row[6] == second.department
        assert row[3] and row[5]


def test_tiers_that_end_on_a_group_boundary_need_no_lots(event):
    prize_tiers_set(tournament=event.tournament, tiers=[TierData("并列第一", 2)])
    award_list = prize_tiers_award(tournament=event.tournament)
    assert award_list.problem is None
    assert [award.rank for award in award_list.awards] == [1, 1]


def test_prizes_come_from_the_last_stage_unless_another_is_chosen(event):
    final = StageFactory(tournament=event.tournament, name="决赛", format=StageFormat.KNOCKOUT, order=2)
    assert prize_tiers_award(tournament=event.tournament).stage == final
    prize_lots_draw(tournament=event.tournament)
    final.refresh_from_db()
    assert final.settings.lots_seed is not None
    ranking = prize_stage_set(tournament=event.tournament, stage=event.stage)
    assert ranking.lots_drawn_at is None  # the lots were drawn for the final's ranking: they stay the final's
    assert prize_tiers_award(tournament=event.tournament).lots_seed is None
    assert prize_tiers_award(tournament=event.tournament).stage == event.stage
    with pytest.raises(UserError):
        prize_stage_set(tournament=event.tournament, stage=StageFactory(tournament=TournamentFactory()))
    assert PrizeRanking.objects.get(tournament=event.tournament).stage == event.stage


def test_lots_are_drawn_once_per_stage(event):
    prize_lots_draw(tournament=event.tournament)
    with pytest.raises(UserError) as refused:
        prize_lots_draw(tournament=event.tournament)
    assert refused.value.code == "lots_drawn"
