"""Dou Dizhu standings for individuals, cuts and the final (docs/rules.md §10): the tie-break order, byes and
forfeits, elimination, and property tests of the ordering."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.doudizhu import LatePlayer, replay_table
from scoring.doudizhu_deals import StakeDeal, Winner
from scoring.doudizhu_snapshot import TableSnapshot
from scoring.doudizhu_standings import (
    PlayerRound,
    RoundOutcome,
    bye_round,
    cut_players,
    final_ranking,
    rank_players,
    table_rounds,
    table_rounds_from_snapshot,
)
from scoring.errors import ScoringError
from scoring.profiles import PROFILES, options_for
from scoring.three_seats import ThreeSeat

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DDZ = PROFILES["doudizhu"]
E, S, W = ThreeSeat.E, ThreeSeat.S, ThreeSeat.W


def r(round: int, player: str, points: int, won: int = 0, landlord: int = 0) -> PlayerRound:
    return PlayerRound(round=round, player=player, points=points, deals_won=won, landlord_wins=landlord)


def order(rounds: list[PlayerRound], **kwargs: object) -> list[str]:
    return [row.player for row in rank_players(rounds=rounds, **kwargs).rows]  # type: ignore[arg-type]


def test_table_rounds_from_a_result() -> None:
    result = replay_table(
        options=DDZ,
        deals=[
            StakeDeal(landlord=E, winner=Winner.LANDLORD, bid=2),  # E +4, S −2, W −2
            StakeDeal(landlord=S, winner=Winner.FARMERS),  # E +1, S −2, W +1
            StakeDeal(landlord=W, winner=Winner.LANDLORD),  # E −1, S −1, W +2
        ],
    )
    rounds = table_rounds(round=1, seating={E: "ann", S: "bo", W: "cy"}, result=result)
    assert [(p.player, p.points, p.deals_won, p.landlord_wins) for p in rounds] == [
        ("ann", 4, 2, 1),
        ("bo", -5, 0, 0),
        ("cy", 1, 2, 1),
    ]
    stored = result.to_json()  # what the database keeps
    snapshot = TableSnapshot.from_json(stored)
    assert table_rounds_from_snapshot(round=1, seating={"E": "ann", "S": "bo", "W": "cy"}, snapshot=snapshot) == rounds


def test_a_forfeited_table_gives_forfeit_and_bye_outcomes() -> None:
    result = replay_table(options=DDZ, deals=[], adjustments=[LatePlayer(seat=W, minutes=None, reason="absent")])
    rounds = table_rounds(round=2, seating={E: "ann", S: "bo", W: "cy"}, result=result)
    assert [(p.points, p.outcome) for p in rounds] == [
        (0, RoundOutcome.TABLE_FORFEITED),
        (0, RoundOutcome.TABLE_FORFEITED),
        (-6, RoundOutcome.FORFEITED),
    ]
    with pytest.raises(ScoringError, match="three different players"):
        table_rounds(round=2, seating={E: "ann", S: "ann", W: "cy"}, result=result)


def test_the_tie_break_order() -> None:
    rounds = [
        r(1, "points", 10),
        r(1, "won", 5, won=3),
        r(1, "landlord", 5, won=2, landlord=2),
        r(1, "best", 5, won=2, landlord=1),
        r(1, "other", 1, won=2, landlord=1),
        r(2, "other", 4),  # 5 points too, but a best round of 4
        r(2, "best", 0),
    ]
    assert order(rounds) == ["points", "won", "landlord", "best", "other"]


def test_full_ties_share_a_rank_until_lots_are_drawn() -> None:
    rounds = [r(1, "a", 3), r(1, "b", 3), r(1, "c", -6)]
    rows = rank_players(rounds=rounds).rows
    assert [(row.player, row.rank, row.shared, row.lots) for row in rows] == [
        ("a", 1, True, None),
        ("b", 1, True, None),
        ("c", 3, False, None),
    ]
    drawn = rank_players(rounds=rounds, lots_seed=7)
    assert drawn == rank_players(rounds=rounds, lots_seed=7)  # reproducible from the seed
    assert [row.rank for row in drawn.rows] == [1, 2, 3] and not any(row.shared for row in drawn.rows)
    assert {row.player for row in drawn.rows[:2]} == {"a", "b"} and all(row.lots for row in drawn.rows[:2])


def test_byes_and_players_without_rounds() -> None:
    options = options_for(profile="doudizhu", overrides={"bye_points": 2})
    rows = rank_players(players=["a", "b", "c"], rounds=[bye_round(round=1, player="b", options=options)]).rows
    assert [(row.player, row.points, row.byes, row.best_round) for row in rows] == [
        ("b", 2, 1, 2),
        ("a", 0, 0, None),
        ("c", 0, 0, None),
    ]
    with pytest.raises(ScoringError, match="not in the list"):
        rank_players(players=["a"], rounds=[r(1, "z", 0)])
    with pytest.raises(ScoringError, match="two results in round 1"):
        rank_players(rounds=[r(1, "a", 0), r(1, "a", 1)])


def test_a_cut_keeps_the_top_k_and_the_eliminated_rank_below() -> None:
    rounds = [r(1, name, points) for name, points in [("a", 9), ("b", 6), ("c", 3), ("d", 0), ("e", -3), ("f", -15)]]
    cut = cut_players(standings=rank_players(rounds=rounds), keep=3, after_round=1)
    assert (cut.kept, cut.eliminated) == (("a", "b", "c"), ("d", "e", "f"))
    eliminated = dict.fromkeys(cut.eliminated, 1)
    # a (−11) and b (−14) are below d (0) on points now, but still in
    later = [*rounds, r(2, "a", -20), r(2, "b", -20), r(2, "c", 20)]
    standings = rank_players(rounds=later, eliminated_after=eliminated)
    assert [row.player for row in standings.rows] == ["c", "a", "b", "d", "e", "f"]
    assert [row.eliminated_after_round for row in standings.rows] == [None, None, None, 1, 1, 1]
    second = cut_players(standings=standings, keep=1, after_round=2)
    assert (second.kept, second.eliminated) == (("c",), ("a", "b"))
    both = {**eliminated, **dict.fromkeys(second.eliminated, 2)}
    standings = rank_players(rounds=later, eliminated_after=both)
    assert [(row.player, row.eliminated_after_round) for row in standings.rows] == [
        ("c", None),
        ("a", 2),  # cut later ranks above cut earlier
        ("b", 2),
        ("d", 1),
        ("e", 1),
        ("f", 1),
    ]


def test_a_cut_across_a_shared_rank_asks_for_lots() -> None:
    rounds = [r(1, "a", 3), r(1, "b", 0), r(1, "c", 0)]
    with pytest.raises(ScoringError, match="draw lots first"):
        cut_players(standings=rank_players(rounds=rounds), keep=2, after_round=1)
    cut = cut_players(standings=rank_players(rounds=rounds, lots_seed=3), keep=2, after_round=1)
    assert cut.kept[0] == "a" and len(cut.eliminated) == 1
    assert cut_players(standings=rank_players(rounds=rounds), keep=5, after_round=1).eliminated == ()
    with pytest.raises(ScoringError):
        cut_players(standings=rank_players(rounds=rounds), keep=0, after_round=1)


def test_the_final_ranks_by_its_own_points_then_the_stage_before() -> None:
    stage = rank_players(rounds=[r(1, "a", 30), r(1, "b", 20), r(1, "c", 10), r(1, "d", 0)])
    final = [r(4, "a", -2), r(4, "b", 4), r(4, "c", -2)]
    ranking = final_ranking(final=final, stage=stage)
    assert [(row.player, row.rank, row.points, row.stage_rank) for row in ranking.rows] == [
        ("b", 1, 4, 2),
        ("a", 2, -2, 1),  # tied with c on the final's points; a was ahead in the stage
        ("c", 3, -2, 3),
    ]
    with pytest.raises(ScoringError, match="not in these standings"):
        final_ranking(final=[r(4, "z", 0)], stage=stage)


# -- properties ---------------------------------------------------------------------------------------

PLAYERS = [f"p{n}" for n in range(9)]


@st.composite
def stage_rounds(draw: st.DrawFn) -> list[PlayerRound]:
    out = []
    for round_number in range(1, draw(st.integers(1, 4)) + 1):
        for player in draw(st.lists(st.sampled_from(PLAYERS), unique=True, max_size=9)):
            won = draw(st.integers(0, 7))
            out.append(
                r(round_number, player, draw(st.integers(-40, 40)), won=won, landlord=draw(st.integers(0, won)))
            )
    return out


@FAST
@given(stage_rounds(), st.none() | st.integers(0, 1000))
def test_standings_are_ordered_by_the_tie_breakers(rounds: list[PlayerRound], seed: int | None) -> None:
    rows = rank_players(players=PLAYERS, rounds=rounds, lots_seed=seed).rows
    assert sorted(row.player for row in rows) == PLAYERS
    for row in rows:
        mine = [item for item in rounds if item.player == row.player]
        assert row.points == sum(item.points for item in mine)
        assert row.best_round == (max(item.points for item in mine) if mine else None)
    keys = [
        (row.points, row.deals_won, row.landlord_wins, row.best_round is not None, row.best_round or 0) for row in rows
    ]
    assert keys == sorted(keys, reverse=True)
    for index, (row, following) in enumerate(itertools.pairwise(rows), 1):
        assert row.rank <= following.rank
        same = keys[index - 1] == keys[index]
        if seed is None:
            assert (following.rank == row.rank) == same  # a full tie shares, anything else does not
        else:
            assert following.rank == row.rank + 1  # lots break every tie
    assert not rows or rows[0].rank == 1


@FAST
@given(stage_rounds(), st.integers(1, 9), st.integers(0, 1000))
def test_a_cut_keeps_exactly_the_best_k(rounds: list[PlayerRound], keep: int, seed: int) -> None:
    standings = rank_players(players=PLAYERS, rounds=rounds, lots_seed=seed)
    cut = cut_players(standings=standings, keep=keep, after_round=1)
    assert len(cut.kept) == keep and set(cut.kept) | set(cut.eliminated) == set(PLAYERS)
    points = {row.player: row.points for row in standings.rows}
    assert all(points[kept] >= points[out] for kept in cut.kept for out in cut.eliminated)
    eliminated = dict.fromkeys(cut.eliminated, 1)
    after = rank_players(players=PLAYERS, rounds=rounds, lots_seed=seed, eliminated_after=eliminated)
    assert [row.player for row in after.rows[:keep]] == list(cut.kept)


def test_the_pairs_standings_refuse_dou_dizhu_options(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.scoring.test_cli import run_stdin

    status, out = run_stdin(capsys, monkeypatch, {"profile": "doudizhu", "results": []}, "standings")
    assert status == 2 and out["error"]["code"] == "bad_input" and "rank_players" in out["error"]["message"]
