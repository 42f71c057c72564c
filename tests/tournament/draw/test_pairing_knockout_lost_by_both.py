"""A fixed knockout bracket with a match lost by both (docs/rules.md §7; seed 004 逾期未进行比赛或者未上报结果的，
将视为两组选手放弃比赛, and 差额小组自动轮空进入下轮抽签): nobody advances from it, so its next opponent gets a bye."""

from __future__ import annotations

from tournament.draw.pairing import Entrant, knockout_bracket, knockout_round


def test_a_fixed_bracket_gives_the_next_opponent_a_bye() -> None:
    """The fixed bracket: the match lost by both sends nobody on, so its next opponent advances alone."""
    entrants = [Entrant(id=f"p{i}", seed=i) for i in range(1, 9)]
    bracket = knockout_bracket(entrants=entrants, seed=1)
    # bracket order 1-8, 4-5, 2-7, 3-6: match 2 (p4 v p5) is lost by both
    winners: dict[tuple[int, int], str | None] = {(1, 1): "p1", (1, 2): None, (1, 3): "p2", (1, 4): "p3"}
    semis = knockout_round(bracket=bracket, winners=winners)
    assert semis.round_number == 2
    assert [(p.ns, p.ew) for p in semis.matches] == [("p2", "p3")]
    (bye,) = semis.byes
    assert bye.ns == "p1" and not bye.warnings  # a bye, not a walkover: nobody was there to lose
    assert "walkovers" not in semis.notes
