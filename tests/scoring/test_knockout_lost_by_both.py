"""A knockout match lost by both (docs/rules.md §7 "A knockout match lost by both"): both pairs are out and
the pair that would have met the match's winner gets a bye. Seed 004 掼蛋比赛赛制及规则: 逾期未进行比赛或者未上报
结果的，将视为两组选手放弃比赛 (a match not played or not reported: both pairs have given it up), and
差额小组自动轮空进入下轮抽签 (the pair without an opponent goes on with a bye)."""

from __future__ import annotations

from scoring.bracket import KnockoutResult, bracket_state
from scoring.seats import Side

NS = Side.NS


def ko(rnd: int, ns: str, ew: str | None, winner: Side | None = NS, *, confirmed: bool = True) -> KnockoutResult:
    return KnockoutResult(round=rnd, ns=ns, ew=ew, winner=winner, confirmed=confirmed)


def test_a_confirmed_result_without_a_winner_puts_both_out_and_leaves_nothing_pending() -> None:
    results = [ko(1, "A", "D"), ko(1, "B", "C", None)]
    state = bracket_state(entrants="ABCD", results=results)
    assert state.pending == 0
    assert state.out_in == {"D": 1, "B": 1, "C": 1}
    # A would have met the winner of B v C in the final: it goes on alone, and is champion
    assert state.still_in == ("A",) and state.champion == "A"


def test_an_entered_result_awaiting_sign_off_still_decides_nothing() -> None:
    state = bracket_state(entrants="ABCD", results=[ko(1, "A", "D"), ko(1, "B", "C", None, confirmed=False)])
    assert state.pending == 1 and state.still_in == ("A", "B", "C")


def test_a_final_lost_by_both_names_no_champion() -> None:
    results = [ko(1, "A", "D"), ko(1, "B", "C"), ko(2, "A", "B", None)]
    state = bracket_state(entrants="ABCD", results=results)
    assert state.pending == 0 and state.still_in == () and state.champion is None
    assert state.out_in == {"D": 1, "C": 1, "A": 2, "B": 2}


def test_in_a_re_drawn_knockout_the_pairs_still_in_are_drawn_without_them() -> None:
    """Seed 004's re-draw (每轮比赛结束后，重新抽签决定下轮对手): the next draw is among the pairs still in."""
    results = [ko(1, "A", "B"), ko(1, "C", "D", None), ko(1, "E", "F"), ko(1, "G", None)]
    state = bracket_state(entrants="ABCDEFG", results=results)
    assert state.pending == 0 and state.still_in == ("A", "E", "G")
