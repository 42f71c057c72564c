"""The rules core's one answer for a bracket's state (scoring.bracket) and a stage's ranking with
groups, lots and withdrawn pairs (scoring.stage_ranking) — docs/rules.md §4–5."""

from __future__ import annotations

from scoring.bracket import KnockoutResult, bracket_state
from scoring.profiles import options_for
from scoring.seats import Side
from scoring.stage_ranking import rank_stage
from scoring.standings import MatchRecord, bracket_placings, rank

NS, EW = Side.NS, Side.EW


def ko(rnd: int, ns: str, ew: str | None, winner: Side | None = NS, *, confirmed: bool = True, third: bool = False):
    return KnockoutResult(round=rnd, ns=ns, ew=ew, winner=winner, confirmed=confirmed, third_place=third)


def test_only_a_confirmed_final_names_the_champion() -> None:
    semis = [ko(1, "A", "D"), ko(1, "B", "C")]
    entered = bracket_state(entrants="ABCD", results=[*semis, ko(2, "A", "B", EW, confirmed=False)])
    assert entered.champion is None and entered.still_in == ("A", "B") and entered.pending == 1
    signed = bracket_state(entrants="ABCD", results=[*semis, ko(2, "A", "B", EW)])
    assert signed.champion == "B" and signed.out_in == {"D": 1, "C": 1, "A": 2} and signed.pending == 0


def test_a_withdrawn_finalist_loses_the_final_by_walkover_and_is_second() -> None:
    semis = [ko(1, "A", "D"), ko(1, "B", "C")]
    for results in (semis, [*semis, ko(2, "B", None)]):  # final not drawn, or drawn as a walkover row
        state = bracket_state(entrants="ABCD", results=results, withdrawn={"A"})
        assert state.champion == "B" and state.out_in["A"] == 2
        options = options_for(profile="timed-90")
        records = [MatchRecord(round=r.round, ns=r.ns, ew=r.ew, winner=r.winner) for r in semis]
        placings = bracket_placings(
            standings=rank(entrants=list("ABCD"), results=records, options=options), state=state
        )
        assert [(row.entrant, row.rank, row.shared) for row in placings.rows[:2]] == [("B", 1, False), ("A", 2, False)]


def test_a_champion_who_withdraws_after_the_final_keeps_the_title() -> None:
    results = [ko(1, "A", "D"), ko(1, "B", "C"), ko(2, "A", "B")]
    state = bracket_state(entrants="ABCD", results=results, withdrawn={"A"})
    assert state.champion == "A" and state.out_in == {"D": 1, "C": 1, "B": 2}


def test_a_withdrawn_pair_loses_a_drawn_match_it_has_not_played() -> None:
    state = bracket_state(
        entrants="ABCD", results=[ko(1, "A", "D", None, confirmed=False), ko(1, "B", "C")], withdrawn="D"
    )
    assert state.out_in == {"D": 1, "C": 1} and state.pending == 0 and state.still_in == ("A", "B")


def test_the_third_place_match_is_not_a_round_and_a_walkover_there_makes_the_present_pair_third() -> None:
    # Three pairs in a bracket of four: A has a bye, C beats B; final A v C; B's third place is a walkover.
    results = [ko(1, "A", None), ko(1, "C", "B"), ko(2, "A", "C"), ko(2, "B", None, None, third=True)]
    state = bracket_state(entrants="ABC", results=results)
    assert state.third_place_match == (2, "B") and state.champion == "A" and state.third == "B"
    # Unflagged, a match between two losers of the round before is recognised as the third-place match.
    four = [ko(1, "A", "D"), ko(1, "B", "C"), ko(2, "A", "B"), ko(2, "D", "C", EW, confirmed=False)]
    state = bracket_state(entrants="ABCD", results=four)
    assert state.third_place_match == (2, "D") and state.champion == "A" and state.third is None


def test_the_third_place_pairs_are_due_when_two_remain() -> None:
    state = bracket_state(entrants="ABCD", results=[ko(1, "A", "D"), ko(1, "B", "C")])
    assert state.third_place_due == ("C", "D") and state.champion is None
    assert (
        bracket_state(entrants="ABCD", results=[ko(1, "A", "D"), ko(1, "B", "C")], withdrawn="C").third_place_due
        is None
    )


def cycle_records() -> list[MatchRecord]:
    """Group 1 = A, B, C beat each other in a cycle (a full tie); group 2 = D beats E beats F."""
    win = {"levels": (14, 2), "passed_a": True, "winner": NS}
    return [
        MatchRecord(round=1, ns="A", ew="B", **win),
        MatchRecord(round=2, ns="B", ew="C", **win),
        MatchRecord(round=3, ns="C", ew="A", **win),
        MatchRecord(round=1, ns="D", ew="E", **win),
        MatchRecord(round=2, ns="E", ew="F", **win),
        MatchRecord(round=3, ns="D", ew="F", **win),
    ]


def test_groups_rank_within_the_group_and_the_stage_by_group_place_then_across_groups() -> None:
    groups = {"A": 1, "B": 1, "C": 1, "D": 2, "E": 2, "F": 2}
    options = options_for(profile="classic")
    ranking = rank_stage(entrants=list("ABCDEF"), results=cycle_records(), options=options, groups=groups)
    group_2 = [(row.entrant, row.row.rank) for row in ranking.rows if row.group == 2]
    assert group_2 == [("D", 1), ("E", 2), ("F", 3)]
    assert all(row.row.rank == 1 and row.row.shared for row in ranking.rows if row.group == 1)
    assert ranking.cut_undecided(1) and not ranking.cut_undecided(3)
    # D (2 wins) is ahead of group 1's joint winners (1 win each) across groups; E is 2nd in its group.
    places = {row.entrant: row.place for row in ranking.rows}
    assert places["D"] == 1 and places["A"] == places["B"] == places["C"] == 2 and places["E"] == 5
    with_lots = rank_stage(
        entrants=list("ABCDEF"), results=cycle_records(), options=options, groups=groups, lots_seed=5
    )
    again = rank_stage(entrants=list("ABCDEF"), results=cycle_records(), options=options, groups=groups, lots_seed=5)
    assert with_lots == again and not with_lots.cut_undecided(1)
    group_1 = [row for row in with_lots.rows if row.group == 1]
    assert [row.row.rank for row in group_1] == [1, 2, 3] and all(row.row.lots is not None for row in group_1)
    assert with_lots.advancing(1)[1] == "D"


def test_lots_apply_even_when_the_organiser_left_them_out_of_the_tie_breakers() -> None:
    options = options_for(profile="classic", overrides={"tie_breakers": ["match_points"]})
    records = cycle_records()[:3]
    ranking = rank_stage(entrants=list("ABC"), results=records, options=options, lots_seed=9)
    assert [row.row.rank for row in ranking.rows] == [1, 2, 3] and ranking.tie_breakers == ("match_points",)


def test_a_withdrawn_pair_is_placed_after_the_active_pairs_of_its_group() -> None:
    options = options_for(profile="classic")
    records = cycle_records()[3:]
    ranking = rank_stage(entrants=list("DEF"), results=records, options=options, withdrawn={"D"})
    assert [(row.entrant, row.row.rank, row.withdrawn) for row in ranking.rows] == [
        ("E", 1, False),
        ("F", 2, False),
        ("D", 3, True),
    ]
    assert ranking.advancing(2) == ["E", "F"]
    assert [row.entrant for row in ranking.standings().rows] == ["E", "F", "D"]
