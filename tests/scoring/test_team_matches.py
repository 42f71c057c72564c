"""Team matches (docs/rules.md §11): the two tables' seating, line-ups, the decider (tables / total) with
the rules page's hand-worked examples, the knockout's tie-break deal, absent pairs and byes, and team
standings with every tie-break (team match points, tables won, small points, head-to-head, Buchholz,
lots)."""

from __future__ import annotations

import dataclasses

import pytest

from scoring.errors import ErrorCode, ScoringError
from scoring.options import ByeResult, RuleOptions, SmallPoints
from scoring.profiles import PROFILES
from scoring.seats import Side
from scoring.standings import MatchRecord
from scoring.team_matches import (
    LineUp,
    Outcome,
    Table,
    TeamMatchReason,
    TeamMatchRecord,
    TeamMatchResult,
    TeamMatchStatus,
    table_small_points,
    team_match_decide,
    team_match_seat,
    team_results_decide,
    team_standings_rank,
)
from scoring.team_options import TeamDecider, TeamOptions
from scoring.teams import Team

NS, EW = Side.NS, Side.EW
RULES = RuleOptions()
TABLES = TeamOptions(team_match=True)
TOTAL = TeamOptions(team_match=True, team_decider=TeamDecider.TOTAL)
SALES = Team("Sales", ("S1", "S2", "S3"))
RND = Team("R&D", ("R1", "R2"))


def table(
    ns: str, ew: str, winner: Side | None = None, levels: tuple[int, int] = (2, 2), **more: object
) -> MatchRecord:
    return MatchRecord(round=1, ns=ns, ew=ew, winner=winner, levels=levels, **more)  # type: ignore[arg-type]


def decide(
    a: MatchRecord | None,
    b: MatchRecord | None,
    *,
    team: TeamOptions = TABLES,
    rules: RuleOptions = RULES,
    stage: str = "swiss",
    extra_deal: Side | None = None,
) -> TeamMatchResult:
    record = TeamMatchRecord(round=1, x="Sales", y="R&D", a=a, b=b, extra_deal=extra_deal)
    return team_match_decide(record, options=rules, team_options=team, stage=stage)


def test_table_small_points_follow_the_stage_s_small_points() -> None:
    passed = table("S1", "R1", NS, (14, 9), passed_a=True)
    assert table_small_points(passed, RULES) == (6, -6)
    split = dataclasses.replace(RULES, small_points=SmallPoints.SPLIT_13)
    assert table_small_points(passed, split) == (19, 7)
    assert table_small_points(table("S1", "R1", forfeit=EW, winner=NS), RULES) == (13, -13)
    assert table_small_points(table("S1", "R1", double_forfeit=True), RULES) == (-13, -13)
    points = PROFILES["points-6"]
    assert table_small_points(table("S1", "R1", NS, points=(10, 6)), points) == (4, -4)
    with pytest.raises(ScoringError, match="needs its points"):
        table_small_points(table("S1", "R1", NS), points)


# -- seating and line-ups ----------------------------------------------------------------------------


def test_seating_table_a_x1_ns_v_y1_ew_table_b_y2_ns_v_x2_ew() -> None:
    seating = team_match_seat(x=LineUp.default(SALES), y=LineUp.default(RND))
    assert (seating.a.ns, seating.a.ew, seating.a.ns_team, seating.a.ew_team) == ("S1", "R1", "Sales", "R&D")
    assert (seating.b.ns, seating.b.ew, seating.b.ns_team, seating.b.ew_team) == ("R2", "S2", "R&D", "Sales")
    assert seating.a.played and seating.b.played
    assert seating.table_of("S2") is seating.b
    assert seating.table_of("R1").table is Table.A
    assert repr(seating.a) == "TableSeating(a: S1 (Sales) N/S v R1 (R&D) E/W)"
    assert repr(LineUp("Sales", "S3", "S1")) == "LineUp('Sales': 1 S3, 2 S1)"


def test_a_line_up_may_name_any_of_the_team_s_pairs() -> None:
    line_up = LineUp("Sales", "S3", "S1").check(SALES)
    seating = team_match_seat(x=LineUp.default(RND), y=line_up)
    assert (seating.a.ns, seating.a.ew) == ("R1", "S3")
    assert (seating.b.ns, seating.b.ew) == ("S1", "R2")


def test_absent_pairs_forfeit_their_table() -> None:
    """docs/rules.md §11: a team with one pair present plays its table and forfeits the other."""
    seating = team_match_seat(x=LineUp.default(SALES), y=LineUp.default(RND), absent={"R2"})
    assert seating.a.played
    assert seating.b.forfeit is NS and not seating.b.double_forfeit
    assert seating.b.team_of(NS) == "R&D"
    both = team_match_seat(x=LineUp.default(SALES), y=LineUp.default(RND), absent={"S1", "R1", "S2"})
    assert both.a.double_forfeit
    assert both.b.forfeit is EW
    assert "NS absent, EW absent" in repr(both.a)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: LineUp("Sales", "S1", "S1"), "both pair 1 and pair 2"),
        (lambda: LineUp("Sales", "S1", "R1").check(SALES), "'R1', who is not one of its pairs"),
        (lambda: LineUp("Sales", "S1", "S2").check(RND), "not team 'R&D''s"),
        (lambda: LineUp.default(Team("Solo", ("x",))), "fewer than two pairs"),
        (lambda: team_match_seat(x=LineUp.default(SALES), y=LineUp.default(SALES)), "cannot play itself"),
        (lambda: team_match_seat(x=LineUp("A", "p", "q"), y=LineUp("B", "q", "r")), "the same pair"),
    ],
)
def test_bad_line_ups_are_refused(make, words: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ScoringError) as caught:
        make()
    assert caught.value.code is ErrorCode.BAD_INPUT
    assert words in caught.value.message
    assert caught.value.message_zh


# -- the decider: the rules page's examples ----------------------------------------------------------

# Sales drawn first: S1 N/S at table a, S2 E/W at table b.
A_SALES_PASSES_A = table("S1", "R1", NS, (14, 9), passed_a=True)  # Sales +6
B_RND_AT_Q = table("R2", "S2", NS, (12, 5))  # R&D +7


def test_one_table_each_is_decided_by_small_points() -> None:
    """docs/rules.md §11: Sales +6 at table a, R&D +7 at table b: R&D wins on small points 1 to −1."""
    result = decide(A_SALES_PASSES_A, B_RND_AT_Q)
    assert result.status is TeamMatchStatus.FINISHED
    assert (result.winner, result.reason) == ("R&D", TeamMatchReason.SMALL_POINTS)
    assert result.tables_won == (1, 1)
    assert result.small_points == (-1, 1)
    assert [t.winner for t in result.tables if t is not None] == ["Sales", "R&D"]
    assert result.outcome_of("R&D") is Outcome.WIN and result.outcome_of("Sales") is Outcome.LOSS
    total = decide(A_SALES_PASSES_A, B_RND_AT_Q, team=TOTAL)
    assert (total.winner, total.reason) == ("R&D", TeamMatchReason.TOTAL)


def test_more_tables_won_wins_under_tables_and_the_deciders_can_differ() -> None:
    """docs/rules.md §11: Sales wins table a at 10 against 10 (first to reach), table b is drawn at 8–8:
    Sales wins under `tables`; under `total` it is a draw (0 against 0)."""
    a = table("S1", "R1", NS, (10, 10))
    b = table("R2", "S2", None, (8, 8))
    by_tables = decide(a, b)
    assert (by_tables.winner, by_tables.reason, by_tables.tables_won) == ("Sales", TeamMatchReason.TABLES, (1, 0))
    by_total = decide(a, b, team=TOTAL)
    assert (by_total.winner, by_total.reason, by_total.small_points) == (None, TeamMatchReason.DRAW, (0, 0))
    assert by_total.outcome_of("Sales") is Outcome.DRAW


def test_two_tables_won_beat_a_larger_total_under_tables_only() -> None:
    """Sales wins both tables by 1; under `tables` that is a win even were R&D's total larger — under
    `total` the sum alone counts (here Sales +2 as well)."""
    result = decide(table("S1", "R1", NS, (6, 5)), table("R2", "S2", EW, (5, 6)))
    assert (result.winner, result.reason, result.tables_won, result.small_points) == (
        "Sales",
        TeamMatchReason.TABLES,
        (2, 0),
        (2, -2),
    )


def test_equal_tables_and_equal_small_points_are_a_draw_in_swiss() -> None:
    result = decide(table("S1", "R1", NS, (8, 5)), table("R2", "S2", NS, (9, 6)))
    assert (result.winner, result.reason, result.status) == (None, TeamMatchReason.DRAW, TeamMatchStatus.FINISHED)
    assert result.deciding_table is None


def test_a_drawn_knockout_team_match_waits_for_the_tie_break_deal_at_table_a() -> None:
    """docs/rules.md §11: 1–1 and 3 − 3 in a knockout: a tie-break deal at table a (S1 N/S v R1 E/W);
    R1 goes up in it, so R&D goes through."""
    a, b = table("S1", "R1", NS, (8, 5)), table("R2", "S2", NS, (9, 6))
    waiting = decide(a, b, stage="knockout")
    assert (waiting.status, waiting.winner, waiting.deciding_table) == (
        TeamMatchStatus.NEEDS_EXTRA_DEAL,
        None,
        Table.A,
    )
    decided = decide(a, b, stage="knockout", extra_deal=EW)
    assert (decided.status, decided.winner, decided.reason) == (
        TeamMatchStatus.FINISHED,
        "R&D",
        TeamMatchReason.EXTRA_DEAL,
    )
    assert decide(a, b, stage="knockout", extra_deal=NS).winner == "Sales"
    assert decide(a, b, stage="knockout", team=TOTAL, extra_deal=NS).winner == "Sales"


def test_the_tie_break_deal_is_at_table_b_when_table_a_was_a_walkover() -> None:
    a = table("S1", "R1", NS, forfeit=EW)  # R1 absent: Sales +13
    b = table("R2", "S2", NS, (14, 2), passed_a=True)  # R&D 15 − 2 = +13
    waiting = decide(a, b, stage="knockout")
    assert (waiting.status, waiting.deciding_table) == (TeamMatchStatus.NEEDS_EXTRA_DEAL, Table.B)
    assert decide(a, b, stage="knockout", extra_deal=NS).winner == "R&D"  # R2 sits N/S at table b
    assert decide(a, b, stage="knockout", extra_deal=EW).winner == "Sales"


def test_a_decided_knockout_team_match_needs_no_tie_break_deal() -> None:
    result = decide(A_SALES_PASSES_A, B_RND_AT_Q, stage="knockout")
    assert (result.status, result.winner, result.deciding_table) == (TeamMatchStatus.FINISHED, "R&D", None)


@pytest.mark.parametrize(
    ("a", "b", "stage", "words"),
    [
        (A_SALES_PASSES_A, B_RND_AT_Q, "knockout", "not drawn"),
        (table("S1", "R1", NS, (8, 5)), table("R2", "S2", NS, (9, 6)), "swiss", "only a knockout"),
        (A_SALES_PASSES_A, None, "knockout", "still playing"),
        (table("S1", "R1", forfeit=NS), table("R2", "S2", forfeit=EW), "knockout", "forfeited"),
    ],
)
def test_a_tie_break_deal_where_none_is_due_is_refused(
    a: MatchRecord, b: MatchRecord | None, stage: str, words: str
) -> None:
    with pytest.raises(ScoringError) as caught:
        decide(a, b, stage=stage, extra_deal=NS)
    assert words in caught.value.message
    assert "加赛" in caught.value.message_zh


def test_a_team_match_is_finished_when_both_tables_are() -> None:
    for a, b in ((A_SALES_PASSES_A, None), (None, B_RND_AT_Q), (None, None)):
        result = decide(a, b)
        assert (result.status, result.winner, result.reason) == (TeamMatchStatus.IN_PROGRESS, None, None)
    partial = decide(A_SALES_PASSES_A, None)
    assert partial.tables_won == (1, 0) and partial.small_points == (6, -6)


def test_points_format_tables_count_their_points() -> None:
    """points-6: the sum of the points (here their difference: Sales +4 at table a, R&D +1 at table b)."""
    rules = PROFILES["points-6"]
    result = decide(table("S1", "R1", NS, points=(10, 6)), table("R2", "S2", NS, points=(9, 8)), rules=rules)
    assert (result.winner, result.reason, result.small_points) == ("Sales", TeamMatchReason.SMALL_POINTS, (3, -3))


# -- absent pairs, forfeits and byes -------------------------------------------------------------------


def test_a_team_with_one_pair_present_plays_one_table_and_forfeits_the_other() -> None:
    """docs/rules.md §11: R2 absent. R1 (E/W) passes A against S1 at 7 (R&D +8); table b is a walkover
    for Sales (+13): one table each, Sales +5, Sales wins."""
    a = table("S1", "R1", EW, (7, 14), passed_a=True)
    b = table("R2", "S2", EW, forfeit=NS)
    result = decide(a, b)
    assert (result.winner, result.reason, result.tables_won, result.small_points) == (
        "Sales",
        TeamMatchReason.SMALL_POINTS,
        (1, 1),
        (5, -5),
    )
    assert result.tables[1] is not None and result.tables[1].forfeited == ("R&D",)


def test_a_team_with_no_pair_present_forfeits_the_team_match() -> None:
    result = decide(table("S1", "R1", forfeit=EW, winner=NS), table("R2", "S2", forfeit=NS, winner=EW))
    assert (result.winner, result.reason, result.double_forfeit) == ("Sales", TeamMatchReason.FORFEIT, False)
    # Sales absent too at table a: a double forfeit there; R&D still forfeited both tables
    mixed = decide(table("S1", "R1", double_forfeit=True), table("R2", "S2", forfeit=NS, winner=EW))
    assert (mixed.winner, mixed.reason) == ("Sales", TeamMatchReason.FORFEIT)


def test_neither_team_present_is_a_double_forfeit_even_in_a_knockout() -> None:
    gone = table("S1", "R1", double_forfeit=True), table("R2", "S2", double_forfeit=True)
    for stage in ("swiss", "knockout"):
        result = decide(*gone, stage=stage)
        assert (result.status, result.winner, result.reason, result.double_forfeit) == (
            TeamMatchStatus.FINISHED,
            None,
            TeamMatchReason.FORFEIT,
            True,
        )
        assert result.outcome_of("Sales") is Outcome.LOSS and result.outcome_of("R&D") is Outcome.LOSS


def test_each_team_missing_one_pair_is_decided_like_any_other() -> None:
    """X1 and Y2 absent: each team forfeits one table (13 each way): 1–1, 0 against 0 — a draw in a
    Swiss; in a knockout the tie-break deal is at table a."""
    a = table("S1", "R1", forfeit=NS, winner=EW)
    b = table("R2", "S2", forfeit=NS, winner=EW)
    assert decide(a, b).reason is TeamMatchReason.DRAW
    assert decide(a, b, stage="knockout").deciding_table is Table.A


def test_a_bye_counts_as_two_tables_of_the_bye_result() -> None:
    bye = TeamMatchRecord(round=2, x="Sales", y=None)
    result = team_match_decide(bye, options=dataclasses.replace(RULES, bye_margin=3), team_options=TABLES)
    assert (result.winner, result.reason, result.tables_won, result.small_points) == (
        "Sales",
        TeamMatchReason.BYE,
        (2, 0),
        (6, 0),
    )
    drawn = team_match_decide(bye, options=dataclasses.replace(RULES, bye_result=ByeResult.DRAW), team_options=TABLES)
    assert (drawn.winner, drawn.outcome_of("Sales"), drawn.tables_won) == (None, Outcome.DRAW, (0, 0))
    knockout = team_match_decide(
        bye, options=dataclasses.replace(RULES, bye_result=ByeResult.LOSS), team_options=TABLES, stage="knockout"
    )
    assert knockout.winner == "Sales"
    with pytest.raises(ScoringError, match="bye, which has no tables"):
        team_match_decide(dataclasses.replace(bye, a=A_SALES_PASSES_A), options=RULES, team_options=TABLES)


def test_a_walkover_is_a_forfeit_win_for_the_team_that_came_not_a_bye() -> None:
    """The rules page's example: R&D withdrew before its knockout semi-final against Sales — Sales wins by
    forfeit, two tables to none and 13 + 13 small points; R&D lost a team match (no bye for either)."""
    walkover = TeamMatchRecord(round=2, x="Sales", y="R&D", walkover="R&D")
    for stage in ("swiss", "knockout"):
        result = team_match_decide(walkover, options=RULES, team_options=TABLES, stage=stage)
        assert (result.status, result.winner, result.reason, result.tables_won, result.small_points) == (
            TeamMatchStatus.FINISHED,
            "Sales",
            TeamMatchReason.FORFEIT,
            (2, 0),
            (26, -26),
        )
        assert (result.outcome_of("Sales"), result.outcome_of("R&D")) == (Outcome.WIN, Outcome.LOSS)
        assert result.bye_outcome is None and result.deciding_table is None
        assert [(o.table, o.winner, o.small_points, o.forfeited) for o in result.tables if o is not None] == [
            (Table.A, "Sales", (13, -13), ("R&D",)),
            (Table.B, "Sales", (13, -13), ("R&D",)),
        ]
    # team X did not come: team Y wins; split_13 counts 13 ± the margin per table
    split = dataclasses.replace(RULES, small_points=SmallPoints.SPLIT_13, forfeit_margin=5)
    x_gone = team_match_decide(
        TeamMatchRecord(round=2, x="Sales", y="R&D", walkover="Sales"), options=split, team_options=TOTAL
    )
    assert (x_gone.winner, x_gone.tables_won, x_gone.small_points) == ("R&D", (0, 2), (16, 36))


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (TeamMatchRecord(round=2, x="Sales", y="R&D", walkover="Finance"), "did not come, got 'Finance'"),
        (TeamMatchRecord(round=2, x="Sales", y=None, walkover="Sales"), "did not come, got 'Sales'"),
        (TeamMatchRecord(round=2, x="Sales", y="R&D", walkover="R&D", a=A_SALES_PASSES_A), "no table"),
        (TeamMatchRecord(round=2, x="Sales", y="R&D", walkover="R&D", extra_deal=NS), "no tie-break deal"),
    ],
)
def test_a_walkover_naming_no_team_of_the_match_or_with_tables_is_refused(record, words: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ScoringError, match=words) as refused:
        team_match_decide(record, options=RULES, team_options=TABLES, stage="knockout")
    assert refused.value.code is ErrorCode.BAD_INPUT


def test_a_walkover_counts_as_played_in_the_team_standings() -> None:
    """A walkover is a played team match: a win with its tables and small points for the team that came,
    a loss for the one that did not, each the other's opponent (Buchholz) — neither has a bye."""
    records = [
        TeamMatchRecord(round=1, x="A", y="B", walkover="B"),
        TeamMatchRecord(round=1, x="C", y=None),
    ]
    out = standings(records, teams=["A", "B", "C"])
    assert rows(out, "played", "wins", "losses", "byes", "tables_won", "small_points") == [
        (1, "A", 1, 1, 0, 0, 2, 26),
        (2, "C", 0, 1, 0, 1, 2, 0),
        (3, "B", 1, 0, 1, 0, 0, -26),
    ]
    assert (out.row("A").buchholz, out.row("B").buchholz) == (0, 2)


def test_results_read_like_the_domain() -> None:
    result = decide(A_SALES_PASSES_A, B_RND_AT_Q)
    assert repr(result) == (
        "TeamMatchResult(round 1 'Sales' v 'R&D': finished, won by 'R&D' (small_points), tables 1-1, small -1:1)"
    )
    assert repr(result.tables[0]) == "TableOutcome(a: won by Sales, small (6, -6))"
    assert result.to_json()["tables"]["b"] == {
        "table": "b",
        "winner": "R&D",
        "small_points": {"Sales": -7, "R&D": 7},
        "forfeited": [],
    }


def test_a_team_cannot_play_itself() -> None:
    with pytest.raises(ScoringError, match="cannot play itself"):
        team_match_decide(TeamMatchRecord(round=1, x="A", y="A"), options=RULES, team_options=TABLES)
    with pytest.raises(ScoringError, match="did not play"):
        decide(A_SALES_PASSES_A, B_RND_AT_Q).outcome_of("Finance")


# -- team standings -------------------------------------------------------------------------------------


def match(
    round_: int, x: str, y: str, a: tuple[Side | None, int, int], b: tuple[Side | None, int, int]
) -> TeamMatchRecord:
    """A team match whose tables are (winner side, NS level, EW level)."""
    return TeamMatchRecord(
        round=round_,
        x=x,
        y=y,
        a=MatchRecord(round=round_, ns=f"{x}1", ew=f"{y}1", winner=a[0], levels=(a[1], a[2])),
        b=MatchRecord(round=round_, ns=f"{y}2", ew=f"{x}2", winner=b[0], levels=(b[1], b[2])),
    )


def standings(records: list[TeamMatchRecord], *, team: TeamOptions = TABLES, **more: object):  # type: ignore[no-untyped-def]
    results = team_results_decide(records, options=RULES, team_options=team)
    return team_standings_rank(results=results, team_options=team, **more)  # type: ignore[arg-type]


def rows(table_, *columns: str) -> list[tuple]:  # type: ignore[no-untyped-def]
    return [(row.rank, row.team, *(getattr(row, column) for column in columns)) for row in table_.rows]


def test_rules_example_tables_won_before_small_points() -> None:
    """docs/rules.md §11: A and C both have 4 team match points; C won 4 tables, A 3: C first, although A
    has 9 small points against C's 5. D (1 table, −3) third, B (0, −11) last."""
    records = [
        match(1, "A", "B", (NS, 9, 4), (EW, 5, 8)),  # A +5, +3
        match(1, "C", "D", (NS, 6, 5), (EW, 4, 5)),  # C +1, +1
        match(2, "A", "D", (NS, 9, 4), (NS, 8, 4)),  # A +5, D +4
        match(2, "C", "B", (NS, 7, 5), (EW, 5, 6)),  # C +2, +1
    ]
    out = standings(records)
    assert rows(out, "match_points", "tables_won", "small_points") == [
        (1, "C", 4, 4, 5),
        (2, "A", 4, 3, 9),
        (3, "D", 0, 1, -3),
        (4, "B", 0, 0, -11),
    ]
    assert out.row("A").wins == 2 and out.row("A").played == 2
    assert out.row("C").buchholz == 0


def test_team_match_points_come_first_and_are_configurable() -> None:
    records = [
        match(1, "A", "B", (NS, 9, 4), (NS, 9, 4)),  # a draw: 5 − 5
        match(1, "C", "D", (NS, 6, 5), (EW, 4, 5)),  # C wins
    ]
    out = standings(records)
    assert rows(out, "match_points", "wins", "draws", "losses") == [
        (1, "C", 2, 1, 0, 0),
        (2, "A", 1, 0, 1, 0),
        (2, "B", 1, 0, 1, 0),
        (4, "D", 0, 0, 0, 1),
    ]
    assert out.row("A").shared
    three = TeamOptions(team_match=True, team_match_points=dataclasses.replace(TABLES.team_match_points, win=3))
    assert standings(records, team=three).row("C").match_points == 3


def test_small_points_break_a_tie_on_points_and_tables() -> None:
    records = [match(1, "A", "B", (NS, 9, 4), (EW, 5, 6)), match(1, "C", "D", (NS, 6, 5), (EW, 4, 5))]
    out = standings(records)
    assert rows(out, "match_points", "tables_won", "small_points") == [
        (1, "A", 2, 2, 6),
        (2, "C", 2, 2, 2),
        (3, "D", 0, 0, -2),
        (4, "B", 0, 0, -6),
    ]
    assert out.row("A").head_to_head is None  # not needed


def test_head_to_head_breaks_a_tie_on_points_tables_and_small_points() -> None:
    """A beat B on small points (+1); later A lost to C and B beat D the same way: A and B are level on
    team match points (2), tables (2) and small points (0); A won their meeting."""
    records = [
        match(1, "A", "B", (NS, 5, 2), (NS, 4, 2)),  # A +3, B +2: A wins 1–1 on small points
        match(1, "C", "D", (NS, 6, 5), (EW, 4, 5)),
        match(2, "A", "C", (NS, 4, 2), (NS, 5, 2)),  # A +2, C +3: C wins
        match(2, "B", "D", (NS, 5, 2), (NS, 4, 2)),  # B +3, D +2: B wins
    ]
    out = standings(records)
    a, b = out.row("A"), out.row("B")
    assert (a.match_points, a.tables_won, a.small_points) == (b.match_points, b.tables_won, b.small_points) == (2, 2, 0)
    assert (a.head_to_head, b.head_to_head) == (2, 0)
    assert a.rank < b.rank
    assert not a.shared


def test_buchholz_breaks_a_tie_where_head_to_head_cannot() -> None:
    """A and B never met; A's opponent C won later (2), B's opponent D did not (0)."""
    records = [
        match(1, "A", "C", (NS, 6, 5), (EW, 4, 5)),
        match(1, "B", "D", (NS, 6, 5), (EW, 4, 5)),
        match(2, "C", "D", (NS, 6, 5), (EW, 4, 5)),
    ]
    out = standings(records)
    assert rows(out, "match_points", "tables_won", "small_points", "head_to_head", "buchholz") == [
        (1, "A", 2, 2, 2, None, 2),
        (2, "B", 2, 2, 2, None, 0),
        (3, "C", 2, 2, 0, None, 2),
        (4, "D", 0, 0, -4, None, 4),
    ]


def test_lots_break_a_full_tie_with_a_seed_and_it_is_shared_without() -> None:
    records = [match(1, "A", "C", (NS, 6, 5), (EW, 4, 5)), match(1, "B", "D", (NS, 6, 5), (EW, 4, 5))]
    shared = standings(records)
    assert rows(shared, "shared", "lots") == [
        (1, "A", True, None),
        (1, "B", True, None),
        (3, "C", True, None),
        (3, "D", True, None),
    ]
    drawn = standings(records, lots_seed=11)
    assert [row.rank for row in drawn.rows] == [1, 2, 3, 4]
    assert {row.team for row in drawn.rows[:2]} == {"A", "B"}
    assert all(row.lots is not None and not row.shared for row in drawn.rows)
    assert standings(list(reversed(records)), lots_seed=11) == drawn


def test_byes_forfeits_and_unfinished_team_matches_in_standings() -> None:
    records = [
        TeamMatchRecord(round=1, x="A", y=None),
        TeamMatchRecord(  # B absent altogether: C wins by forfeit
            round=1,
            x="B",
            y="C",
            a=MatchRecord(round=1, ns="B1", ew="C1", forfeit=NS, winner=EW),
            b=MatchRecord(round=1, ns="C2", ew="B2", forfeit=EW, winner=NS),
        ),
        TeamMatchRecord(  # D and E both absent
            round=1,
            x="D",
            y="E",
            a=MatchRecord(round=1, ns="D1", ew="E1", double_forfeit=True),
            b=MatchRecord(round=1, ns="E2", ew="D2", double_forfeit=True),
        ),
        TeamMatchRecord(round=2, x="A", y="C", a=MatchRecord(round=2, ns="A1", ew="C1", winner=NS, levels=(5, 3))),
    ]
    out = standings(records, teams=["A", "B", "C", "D", "E", "F"])
    # C and A: 2 team match points and 2 tables each, C's walkovers +26; among the teams on 0, F has lost
    # nothing; B, D and E are level until Buchholz: B met C (2), D and E met each other (0)
    assert rows(out, "match_points", "byes", "played", "tables_won", "small_points", "losses") == [
        (1, "C", 2, 0, 1, 2, 26, 0),
        (2, "A", 2, 1, 0, 2, 0, 0),
        (3, "F", 0, 0, 0, 0, 0, 0),
        (4, "B", 0, 0, 1, 0, -26, 1),
        (5, "D", 0, 0, 1, 0, -26, 1),
        (5, "E", 0, 0, 1, 0, -26, 1),
    ]
    assert (out.row("D").head_to_head, out.row("B").head_to_head) == (0, None)
    assert (out.row("A").match_points, out.row("A").byes, out.row("A").played) == (2, 1, 0)
    assert (out.row("C").match_points, out.row("C").tables_won, out.row("C").small_points) == (2, 2, 26)
    assert (out.row("B").losses, out.row("B").small_points) == (1, -26)
    assert (out.row("D").losses, out.row("E").losses, out.row("D").match_points) == (1, 1, 0)
    assert out.row("F").played == 0
    assert out.row("A").buchholz == 0  # round 2 is still playing; a bye has no opponent


def test_standings_refuse_a_team_twice_in_a_round_and_unknown_teams() -> None:
    records = [match(1, "A", "B", (NS, 6, 5), (EW, 4, 5)), match(1, "A", "C", (NS, 6, 5), (EW, 4, 5))]
    with pytest.raises(ScoringError, match="two team matches in round 1"):
        standings(records)
    with pytest.raises(ScoringError, match="not one of the stage's teams"):
        standings(records[:1], teams=["A", "C"])
    with pytest.raises(ScoringError, match="listed twice"):
        standings(records[:1], teams=["A", "B", "A"])


def test_standing_rows_read_like_the_domain() -> None:
    out = standings([match(1, "A", "B", (NS, 9, 4), (EW, 5, 8))])
    assert repr(out.rows[0]) == "TeamStandingRow(1 'A': 2 mp, 2 tables, small 8, buchholz 0)"
    assert out.to_json()["tie_breakers"] == [
        "match_points",
        "tables_won",
        "small_points",
        "head_to_head",
        "buchholz",
        "lots",
    ]


def test_an_unknown_stage_is_bad_input_not_a_crash() -> None:
    with pytest.raises(ScoringError, match="'stage' must be one of"):
        decide(A_SALES_PASSES_A, B_RND_AT_Q, stage="ladder")
