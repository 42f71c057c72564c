"""A Dou Dizhu points stage ranked in the rules core (docs/rules.md §10; seed 004 淘汰积分最低的一部分选手, 决赛):
its cuts applied in turn as their rounds count, a cut across a shared rank waiting for lots, a final ranked
by the final's points; and the order every stage's standings have, with the landlord wins and the best
round in fields of their own."""

from __future__ import annotations

from scoring.doudizhu_standings import (
    TIE_BREAKERS,
    CutState,
    PlayerRound,
    as_standings,
    points_stage_ranking,
    rank_players,
)


def r(round: int, player: str, points: int, won: int = 0, landlord: int = 0) -> PlayerRound:
    return PlayerRound(round=round, player=player, points=points, deals_won=won, landlord_wins=landlord)


SIX = ["a", "b", "c", "d", "e", "f"]
ROUND_1 = [r(1, name, points) for name, points in zip(SIX, [9, 6, 3, 0, -3, -15], strict=True)]
ROUND_2 = [r(2, "a", -20), r(2, "b", -20), r(2, "c", 20)]


def test_cuts_apply_in_turn_once_their_round_counts() -> None:
    cuts = [(2, 1), (1, 3)]
    before = points_stage_ranking(players=SIX, rounds=ROUND_1, counted_rounds=set(), cuts=cuts)
    assert before.eliminated_after == {} and before.cuts == (CutState(1, 3), CutState(2, 1))
    after_1 = points_stage_ranking(players=SIX, rounds=ROUND_1, counted_rounds={1}, cuts=cuts)
    assert after_1.eliminated_after == {"d": 1, "e": 1, "f": 1} and not after_1.still_in("d")
    assert after_1.cuts[0].to_json() == {"after_round": 1, "keep": 3, "applied": True, "kept": 3, "eliminated": 3}
    assert after_1.cuts[1].to_json() == {"after_round": 2, "keep": 1, "applied": False}
    both = points_stage_ranking(players=SIX, rounds=[*ROUND_1, *ROUND_2], counted_rounds={1, 2}, cuts=cuts)
    assert [(row.player, row.eliminated_after_round) for row in both.players.rows] == [
        ("c", None),
        ("a", 2),
        ("b", 2),
        ("d", 1),
        ("e", 1),
        ("f", 1),
    ]
    assert not both.final and both.pending_cut == ""


def test_a_cut_across_a_shared_rank_waits_for_lots_and_stops_the_later_cuts() -> None:
    rounds = [r(1, "a", 3), r(1, "b", 0), r(1, "c", 0), r(2, "a", 1), r(2, "b", 1)]
    waiting = points_stage_ranking(players=["a", "b", "c"], rounds=rounds, counted_rounds={1, 2}, cuts=[(1, 2), (2, 1)])
    assert "draw lots first" in waiting.pending_cut
    assert waiting.eliminated_after == {} and not any(cut.applied for cut in waiting.cuts)
    drawn = points_stage_ranking(
        players=["a", "b", "c"], rounds=rounds, counted_rounds={1, 2}, cuts=[(1, 2), (2, 1)], cut_lots_seeds={1: 3}
    )
    assert drawn.pending_cut == "" and len(drawn.eliminated_after) == 2


def test_a_final_ranks_by_its_own_points_once_every_finalist_is_known() -> None:
    stage = rank_players(rounds=[r(1, "a", 30), r(1, "b", 20), r(1, "c", 10), r(1, "d", 0)])
    final = [r(1, "a", -2), r(1, "b", 4), r(1, "c", -2)]
    ranking = points_stage_ranking(players=["a", "b", "c"], rounds=final, counted_rounds={1}, stage_before=stage)
    assert ranking.final and [(row.player, row.stage_rank) for row in ranking.players.rows] == [
        ("b", 2),
        ("a", 1),
        ("c", 3),
    ]
    stranger = points_stage_ranking(
        players=["a", "b", "z"], rounds=[*final[:2], r(1, "z", 0)], counted_rounds={1}, stage_before=stage
    )
    assert not stranger.final  # a player the stage before does not know: ranked as a stage of its own


def test_a_final_is_decided_once_every_round_of_it_counts() -> None:
    stage = rank_players(rounds=[r(1, "a", 30), r(1, "b", 20), r(1, "c", 10), r(1, "d", 0)])
    final = [r(1, "a", -2), r(1, "b", 4), r(1, "c", -2)]

    def ranked(counted: set[int], stage_rounds: int | None) -> bool:
        return points_stage_ranking(
            players=["a", "b", "c"], rounds=final, counted_rounds=counted, stage_before=stage, stage_rounds=stage_rounds
        ).decided

    assert ranked({1}, 1)
    assert not ranked(set(), 1)  # the final table is still being played
    assert not ranked({1}, 2)  # a second round of the final to come
    assert not ranked({1}, None)
    # a stage that is not a final is never decided by itself, however many of its rounds count
    assert not points_stage_ranking(players=SIX, rounds=ROUND_1, counted_rounds={1}, stage_rounds=1).decided


def test_the_standings_keep_landlord_wins_and_the_best_round_in_their_own_fields() -> None:
    rounds = [r(1, "a", 4, won=2, landlord=1), r(1, "b", -5), r(2, "a", 6, won=1, landlord=1)]
    standings = as_standings(rank_players(rounds=rounds))
    first, second = standings.rows
    assert (first.entrant, first.match_points, first.wins, first.landlord_wins, first.best_round) == ("a", 10, 3, 2, 6)
    assert (first.small_points, first.deal_points) == (0, 0)
    assert (second.landlord_wins, second.best_round) == (0, -5)
    assert first.to_json()["landlord_wins"] == 2 and first.to_json()["best_round"] == 6
    assert standings.tie_breakers == TIE_BREAKERS
