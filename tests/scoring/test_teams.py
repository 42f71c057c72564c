"""Teams and the team total (docs/rules.md §11): the hand-worked examples of the rules page, every
tie-break (small points, the best member's place, lots), best k and short teams, withdrawn members,
Dou Dizhu players, and the roster's errors."""

from __future__ import annotations

import pytest

from scoring.doudizhu_standings import PlayerRound, rank_players
from scoring.errors import ErrorCode, ScoringError
from scoring.options import RuleOptions
from scoring.profiles import PROFILES
from scoring.seats import Side
from scoring.stage_ranking import rank_stage
from scoring.standings import MatchRecord
from scoring.teams import (
    MemberStanding,
    Team,
    members_of_players,
    members_of_standings,
    team_total_rank,
    teams_check,
)


def member(name: str, place: int, points: int, small: int) -> MemberStanding:
    return MemberStanding(member=name, place=place, points=points, small_points=small)


# The stage's ranking of the rules page's example (place, pair, match points, small points).
NINE = [
    member("S1", 1, 6, 14),
    member("R1", 2, 6, 9),
    member("F1", 3, 4, 7),
    member("S2", 4, 4, 2),
    member("R2", 5, 4, 1),
    member("F2", 6, 2, 3),
    member("R3", 7, 2, -5),
    member("S3", 8, 0, -12),
    member("F3", 9, 0, -19),
]
DEPARTMENTS = [
    Team("Sales", ("S1", "S2", "S3")),
    Team("R&D", ("R1", "R2", "R3")),
    Team("Finance", ("F1", "F2", "F3")),
]


def summary(total) -> list[tuple]:  # type: ignore[no-untyped-def]
    return [(row.rank, row.team, row.points, row.small_points) for row in total.rows]


def test_rules_example_all_members_count() -> None:
    """docs/rules.md §11: with team_count all, R&D 12, Sales 10, Finance 6."""
    total = team_total_rank(teams=DEPARTMENTS, members=NINE)
    assert summary(total) == [(1, "R&D", 12, 5), (2, "Sales", 10, 4), (3, "Finance", 6, -9)]
    assert [row.best_place for row in total.rows] == [2, 1, 3]
    assert not any(row.short or row.shared for row in total.rows)
    assert [m.member for m in total.row("Sales").counted] == ["S1", "S2", "S3"]


def test_rules_example_best_two_count_and_small_points_break_the_tie() -> None:
    """docs/rules.md §11: with team_count 2, Sales and R&D have 10 each; Sales's small points (16 against
    10) put it first."""
    total = team_total_rank(teams=DEPARTMENTS, members=NINE, team_count=2)
    assert summary(total) == [(1, "Sales", 10, 16), (2, "R&D", 10, 10), (3, "Finance", 6, 10)]
    assert [m.member for m in total.row("R&D").counted] == ["R1", "R2"]
    assert total.team_count == 2


def test_best_counted_members_place_breaks_a_tie_on_points_and_small_points() -> None:
    """docs/rules.md §11's second example: P (best member 2nd) before Q (best member 3rd)."""
    members = [
        member("x1", 1, 6, 9),
        member("p1", 2, 4, 3),
        member("q1", 3, 4, 2),
        member("x2", 4, 4, 0),
        member("q2", 5, 2, 2),
        member("x3", 6, 2, 0),
        member("p2", 7, 2, 1),
    ]
    teams = [Team("Q", ("q1", "q2")), Team("P", ("p1", "p2")), Team("X", ("x1", "x2", "x3"))]
    total = team_total_rank(teams=teams, members=members, team_count=2)
    assert summary(total) == [(1, "X", 10, 9), (2, "P", 6, 4), (3, "Q", 6, 4)]
    assert (total.row("P").best_place, total.row("Q").best_place) == (2, 3)
    assert total.row("P").lots is None


def _full_tie() -> tuple[list[Team], list[MemberStanding]]:
    """Two teams level on everything: their best members share 1st place (a full tie among pairs, no
    lots drawn in the stage)."""
    members = [member("a1", 1, 4, 5), member("b1", 1, 4, 5), member("a2", 3, 2, 0), member("b2", 3, 2, 0)]
    return [Team("A", ("a1", "a2")), Team("B", ("b1", "b2"))], members


def test_a_full_tie_shares_the_rank_without_a_seed() -> None:
    teams, members = _full_tie()
    total = team_total_rank(teams=teams, members=members)
    assert [(row.rank, row.team, row.shared, row.lots) for row in total.rows] == [
        (1, "A", True, None),
        (1, "B", True, None),
    ]


def test_lots_break_a_full_tie_reproducibly_and_are_recorded() -> None:
    teams, members = _full_tie()
    first = team_total_rank(teams=teams, members=members, lots_seed=7)
    again = team_total_rank(teams=list(reversed(teams)), members=list(reversed(members)), lots_seed=7)
    assert first == again
    assert [row.rank for row in first.rows] == [1, 2]
    assert not any(row.shared for row in first.rows)
    assert sorted(row.lots for row in first.rows if row.lots is not None) == [1, 2]
    order = [row.team for row in first.rows]
    assert [row.lots for row in first.rows] == sorted(row.lots for row in first.rows if row.lots is not None)
    # some seed draws the other order: the lots decide, not the names
    orders = {tuple(r.team for r in team_total_rank(teams=teams, members=members, lots_seed=s).rows) for s in range(20)}
    assert orders == {("A", "B"), ("B", "A")}
    assert tuple(order) in orders


def test_lots_are_only_recorded_for_teams_that_needed_them() -> None:
    teams, members = _full_tie()
    teams.append(Team("C", ("c1", "c2")))
    members += [member("c1", 5, 0, -3), member("c2", 6, 0, -7)]
    total = team_total_rank(teams=teams, members=members, lots_seed=3)
    assert total.row("C").lots is None
    assert total.row("C").rank == 3


def test_a_team_with_fewer_members_than_k_counts_what_it_has_and_is_short() -> None:
    teams = [Team("Big", ("b1", "b2", "b3")), Team("Small", ("s1", "s2"))]
    members = [
        member("s1", 1, 6, 10),
        member("s2", 2, 6, 8),
        member("b1", 3, 4, 5),
        member("b2", 4, 4, 1),
        member("b3", 5, 2, 0),
    ]
    total = team_total_rank(teams=teams, members=members, team_count=3)
    assert summary(total) == [(1, "Small", 12, 18), (2, "Big", 10, 6)]
    assert (total.row("Small").short, total.row("Big").short) == (True, False)
    assert total.row("Small").members == 2


def test_best_k_takes_the_most_points_not_the_better_place() -> None:
    """A withdrawn pair is placed after every active pair (docs/rules.md §4) but keeps its results; under
    best k it counts by its points."""
    entrants = ["A1", "A2", "A3", "B1", "B2", "C1"]
    results = [
        MatchRecord(round=1, ns="A1", ew="C1", winner=Side.NS, levels=(10, 8)),
        MatchRecord(round=1, ns="A2", ew="B1", winner=Side.EW, levels=(9, 12)),
        MatchRecord(round=1, ns="A3", ew="B2", winner=Side.NS, levels=(6, 5)),
    ]
    options = RuleOptions()
    ranking = rank_stage(entrants=entrants, results=results, options=options, withdrawn=["A1"])
    members = members_of_standings(ranking.standings(), options=options)
    places = {m.member: m.place for m in members}
    assert places["A1"] == 6  # withdrawn: last, with its win
    total = team_total_rank(
        teams=[Team("A", ("A1", "A2", "A3")), Team("B", ("B1", "B2")), Team("C", ("C1", "X9"))],
        members=members,
        team_count=2,
    )
    assert [m.member for m in total.row("A").counted] == ["A3", "A1"]  # 2 and 2 match points
    assert total.row("A").points == 4
    assert total.row("A").best_place == min(places["A3"], places["A1"])
    # C's second member is not in the stage: C counts C1 only and is short
    assert [m.member for m in total.row("C").counted] == ["C1"]
    assert total.row("C").short


def test_members_of_standings_reads_match_points_and_small_points_of_the_stage() -> None:
    options = PROFILES["timed-40"]
    results = [
        MatchRecord(round=1, ns="A", ew="B", winner=Side.NS, levels=(14, 9), passed_a=True),
        MatchRecord(round=1, ns="C", ew="D", winner=Side.EW, levels=(7, 10)),
    ]
    ranking = rank_stage(entrants=["A", "B", "C", "D"], results=results, options=options)
    members = {m.member: m for m in members_of_standings(ranking.standings(), options=options)}
    assert members["A"] == MemberStanding(member="A", place=1, points=2, small_points=6)
    assert members["B"] == MemberStanding(member="B", place=4, points=0, small_points=-6)
    total = team_total_rank(teams=[Team("AC", ("A", "C")), Team("BD", ("B", "D"))], members=members.values())
    assert summary(total) == [(1, "AC", 2, 3), (2, "BD", 2, -3)]


def test_points_formats_break_ties_by_deal_points() -> None:
    """In points-6 every deal is at 2, so small points say nothing; the team total's first tie-break is
    the counted members' deal points."""
    options = PROFILES["points-6"]
    results = [
        MatchRecord(round=1, ns="A", ew="B", winner=Side.NS, points=(10, 4)),
        MatchRecord(round=1, ns="C", ew="D", winner=Side.NS, points=(7, 6)),
    ]
    ranking = rank_stage(entrants=["A", "B", "C", "D"], results=results, options=options)
    members = members_of_standings(ranking.standings(), options=options)
    total = team_total_rank(teams=[Team("AD", ("A", "D")), Team("BC", ("B", "C"))], members=members)
    assert summary(total) == [(1, "AD", 2, 16), (2, "BC", 2, 11)]


def test_dou_dizhu_players_sum_points_and_break_ties_by_deals_won() -> None:
    rounds = [
        PlayerRound(round=1, player="a", points=4, deals_won=2),
        PlayerRound(round=1, player="b", points=-2, deals_won=1),
        PlayerRound(round=1, player="c", points=-2, deals_won=0),
        PlayerRound(round=1, player="d", points=2, deals_won=1),
        PlayerRound(round=1, player="e", points=0, deals_won=2),
        PlayerRound(round=1, player="f", points=-2, deals_won=0),
    ]
    players = rank_players(rounds=rounds)
    members = members_of_players(players)
    teams = [Team("ac", ("a", "c")), Team("be", ("b", "e")), Team("df", ("d", "f"))]
    total = team_total_rank(teams=teams, members=members, players=True)
    assert summary(total) == [(1, "ac", 2, 2), (2, "df", 0, 1), (3, "be", -2, 3)]
    row = total.to_json()["rows"][0]
    assert set(row) >= {"points", "deals_won"} and "match_points" not in row
    assert row["counted"][0] == {"member": "a", "place": 1, "points": 4, "deals_won": 2}


def test_the_order_of_teams_and_members_does_not_matter() -> None:
    forward = team_total_rank(teams=DEPARTMENTS, members=NINE, team_count=2, lots_seed=1)
    backward = team_total_rank(teams=DEPARTMENTS[::-1], members=NINE[::-1], team_count=2, lots_seed=1)
    assert forward == backward


def test_rows_read_like_the_domain() -> None:
    total = team_total_rank(teams=DEPARTMENTS, members=NINE, team_count=2)
    assert repr(total.rows[0]) == "TeamTotalRow(1 'Sales': 10 pts, small 16, best #1, counted S1 S2)"
    assert repr(DEPARTMENTS[0]) == "Team('Sales': S1, S2, S3)"
    assert repr(NINE[0]) == "MemberStanding('S1' #1, 6 pts, small 14)"


# -- the roster's errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("teams", "words"),
    [
        ([Team("A", ("a1", "a2")), Team("B", ("a2", "b1"))], "in team 'A' too"),
        ([Team("A", ("a1", "a1"))], "twice in that team"),
        ([Team("A", ("a1",))], "at least 2"),
        ([Team("A", ())], "at least 2"),
        ([Team("A", ("a1", "a2")), Team("A", ("b1", "b2"))], "Two teams are named 'A'"),
        ([Team("", ("a1", "a2"))], "needs a name"),
    ],
)
def test_a_roster_that_breaks_the_rules_is_refused(teams: list[Team], words: str) -> None:
    with pytest.raises(ScoringError) as caught:
        teams_check(teams)
    assert caught.value.code is ErrorCode.BAD_INPUT
    assert words in caught.value.message
    assert caught.value.message_zh
    with pytest.raises(ScoringError):
        team_total_rank(teams=teams, members=NINE)


def test_a_member_with_two_rows_in_the_ranking_is_refused() -> None:
    with pytest.raises(ScoringError, match="two rows"):
        team_total_rank(teams=DEPARTMENTS, members=[*NINE, member("S1", 10, 0, 0)])


def test_team_count_below_one_is_refused() -> None:
    with pytest.raises(ScoringError, match="team_count"):
        team_total_rank(teams=DEPARTMENTS, members=NINE, team_count=0)
