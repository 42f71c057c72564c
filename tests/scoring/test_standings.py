"""Standings of Swiss and round-robin stages (docs/rules.md §4–5): match points, small points, levels,
deal points, head-to-head, Buchholz, wins and seeded lots, byes and forfeits."""

from __future__ import annotations

import dataclasses

import pytest

from scoring.errors import ScoringError
from scoring.finishing_order import FinishingOrder
from scoring.match import replay
from scoring.options import RuleOptions
from scoring.profiles import PROFILES, options_for
from scoring.seats import Side
from scoring.standings import METRICS, MatchRecord, assign_tiers, parse_results, rank, standings_json

NS, EW = Side.NS, Side.EW
DEFAULT = RuleOptions()


def won(round_: int, a: str, b: str, levels: tuple[int, int] = (14, 8), passed_a: bool = False) -> MatchRecord:
    """``a`` (NS) beat ``b`` (EW)."""
    return MatchRecord(round=round_, ns=a, ew=b, winner=NS, levels=levels, passed_a=passed_a)


def table(standings, *columns: str) -> list[tuple]:  # type: ignore[no-untyped-def]
    return [(row.rank, row.entrant, *(getattr(row, column) for column in columns)) for row in standings.rows]


def test_match_points_win_2_draw_1_loss_0() -> None:
    """docs/rules.md §5 (national 2017): win 2, draw 1, loss 0."""
    results = [
        won(1, "A", "B"),
        MatchRecord(round=1, ns="C", ew="D", winner=None, levels=(9, 9)),
    ]
    out = rank(results=results, options=DEFAULT)
    assert {row.entrant: row.match_points for row in out.rows} == {"A": 2, "C": 1, "D": 1, "B": 0}


def test_match_points_are_configurable() -> None:
    options = options_for(profile="classic", overrides={"match_points": {"win": 3, "draw": 1, "loss": 0}})
    assert rank(results=[won(1, "A", "B")], options=options).rows[0].match_points == 3


def test_small_points_count_a_passed_a_as_15() -> None:
    """docs/rules.md §5: small points = winner's level minus loser's, a passed A counting 15."""
    out = rank(results=[won(1, "A", "B", levels=(14, 9), passed_a=True)], options=DEFAULT)
    assert table(out, "small_points", "levels_sum") == [(1, "A", 6, 15), (2, "B", -6, 9)]


def test_small_points_split_13() -> None:
    """docs/rules.md §5: events also use '13 ± difference'."""
    options = options_for(profile="classic", overrides={"small_points": "split_13"})
    out = rank(results=[won(1, "A", "B", levels=(12, 9))], options=options)
    assert table(out, "small_points") == [(1, "A", 16), (2, "B", 10)]


def test_small_points_break_equal_match_points() -> None:
    results = [won(1, "A", "X", levels=(10, 9)), won(1, "B", "Y", levels=(14, 2), passed_a=True)]
    assert [row.entrant for row in rank(results=results, options=DEFAULT).rows][:2] == ["B", "A"]


def test_deal_points_for_points_formats() -> None:
    """Seed 004's points format: deal points sum per entrant (a tie-breaker of points-6)."""
    results = [
        MatchRecord(round=1, ns="A", ew="B", winner=NS, points=(9, 6)),
        MatchRecord(round=1, ns="C", ew="D", winner=NS, points=(12, 3)),
    ]
    out = rank(results=results, options=PROFILES["points-6"])
    assert table(out, "match_points", "deal_points") == [
        (1, "C", 2, 12),
        (2, "A", 2, 9),
        (3, "B", 0, 6),
        (4, "D", 0, 3),
    ]


def test_head_to_head_breaks_a_tie_between_entrants_who_met() -> None:
    """docs/rules.md §5: head-to-head among the entrants still tied."""
    options = options_for(profile="classic", overrides={"tie_breakers": ["match_points", "head_to_head"]})
    results = [won(1, "B", "A"), won(2, "A", "C"), won(2, "B", "D"), won(3, "C", "B"), won(3, "A", "D")]
    # A: 4 match points (beat C, D), B: 4 (beat A, D, lost to C), C: 2 — B beat A
    out = rank(results=results, options=options)
    assert table(out, "match_points", "head_to_head")[:2] == [(1, "B", 4, 2), (2, "A", 4, 0)]
    assert out.rows[2].head_to_head is None  # C was not tied with anyone


def test_head_to_head_is_none_for_tied_entrants_who_never_met() -> None:
    """The column reads the same for every pair it could not separate — none, not a 0 that
    looks like a lost meeting — while a pair that met (and lost to) another tied one shows its 0."""
    options = options_for(profile="classic", overrides={"tie_breakers": ["match_points", "head_to_head", "wins"]})
    never_met = [won(1, "A", "X"), won(1, "B", "Y")]  # A and B tied on 2, never met
    out = rank(results=never_met, options=options)
    assert [(row.entrant, row.head_to_head) for row in out.rows[:2]] == [("A", None), ("B", None)]
    assert out.rows[0].shared and out.rows[1].shared  # nothing told them apart
    # three tied on 2: A beat B, C met neither
    met = [won(1, "A", "B"), won(2, "B", "X"), won(1, "C", "Y")]
    rows = {row.entrant: row.head_to_head for row in rank(results=met, options=options).rows}
    assert (rows["A"], rows["B"], rows["C"]) == (2, 0, None)


def test_buchholz_and_wins() -> None:
    """docs/rules.md §5: opponents' match points (Buchholz), then number of wins."""
    options = options_for(profile="classic", overrides={"tie_breakers": ["match_points", "buchholz", "wins"]})
    results = [won(1, "A", "X"), won(1, "B", "Y"), won(2, "X", "Z")]
    out = {row.entrant: row for row in rank(results=results, options=options).rows}
    assert (out["A"].buchholz, out["B"].buchholz, out["X"].buchholz) == (2, 0, 2)
    assert out["A"].rank == out["X"].rank == 1 and out["B"].rank == 3
    only_wins = options_for(profile="classic", overrides={"tie_breakers": ["wins"]})
    draws = [MatchRecord(round=1, ns="A", ew="B", winner=None), won(2, "C", "D")]
    assert rank(results=draws, options=only_wins).rows[0].entrant == "C"


def test_full_ties_share_a_rank_until_lots_are_drawn() -> None:
    """Full ties share a rank until lots are drawn; lots are seeded and recorded."""
    results = [won(1, "A", "B"), won(1, "C", "D")]
    shared = rank(results=results, options=DEFAULT)
    assert table(shared, "shared", "lots") == [
        (1, "A", True, None),
        (1, "C", True, None),
        (3, "B", True, None),
        (3, "D", True, None),
    ]
    drawn = rank(results=results, options=DEFAULT, lots_seed=11)
    assert [row.rank for row in drawn.rows] == [1, 2, 3, 4] and not any(row.shared for row in drawn.rows)
    assert all(row.lots is not None for row in drawn.rows) and drawn.lots_seed == 11
    again = rank(results=results, options=DEFAULT, lots_seed=11)
    assert again == drawn  # reproducible from the recorded seed
    winners = {rank(results=results, options=DEFAULT, lots_seed=seed).rows[0].entrant for seed in range(20)}
    assert winners == {"A", "C"}


def test_lots_only_for_ties() -> None:
    results = [won(1, "A", "B", levels=(14, 2), passed_a=True), won(1, "C", "D")]
    out = rank(results=results, options=DEFAULT, lots_seed=5)
    assert [row.lots for row in out.rows] == [None, None, None, None]


def test_byes_count_as_configured() -> None:
    """docs/rules.md §5: a bye is a configured result (default a win)."""
    results = [MatchRecord(round=1, ns="A", ew=None), won(1, "B", "C")]
    out = rank(results=results, options=DEFAULT, lots_seed=1)
    bye_row = next(row for row in out.rows if row.entrant == "A")
    assert (bye_row.match_points, bye_row.wins, bye_row.byes, bye_row.played) == (2, 1, 1, 0)
    options = options_for(profile="classic", overrides={"bye_result": "draw", "bye_margin": 4})
    row = next(r for r in rank(results=results, options=options).rows if r.entrant == "A")
    assert (row.match_points, row.draws, row.small_points) == (1, 1, 0)
    loss = options_for(profile="classic", overrides={"bye_result": "loss", "bye_margin": 4})
    row = next(r for r in rank(results=results, options=loss).rows if r.entrant == "A")
    assert (row.match_points, row.losses, row.small_points) == (0, 1, -4)
    win = options_for(profile="classic", overrides={"bye_margin": 4})
    assert next(r for r in rank(results=results, options=win).rows if r.entrant == "A").small_points == 4


def test_forfeits() -> None:
    """docs/rules.md §5: forfeit — the other side wins by the configured margin; double forfeit — both lose."""
    results = [
        MatchRecord(round=1, ns="A", ew="B", forfeit=EW),
        MatchRecord(round=1, ns="C", ew="D", double_forfeit=True),
    ]
    out = {row.entrant: row for row in rank(results=results, options=DEFAULT).rows}
    assert (out["A"].match_points, out["A"].small_points, out["A"].wins) == (2, 13, 1)
    assert (out["B"].match_points, out["B"].small_points, out["B"].losses) == (0, -13, 1)
    assert (out["C"].match_points, out["D"].match_points, out["C"].losses, out["D"].losses) == (0, 0, 1, 1)
    assert out["A"].levels_sum == 0  # a walkover reaches no level


def test_registered_entrants_without_results_are_ranked_too() -> None:
    """Z has not played: 0 match points, 0 small points — above B, who lost by 6 levels."""
    out = rank(entrants=["A", "B", "Z"], results=[won(1, "A", "B")], options=DEFAULT)
    assert table(out, "played", "small_points") == [(1, "A", 1, 6), (2, "Z", 0, 0), (3, "B", 1, -6)]


@pytest.mark.parametrize(
    ("entrants", "results", "words"),
    [
        (None, [won(1, "A", "B"), won(1, "A", "C")], "two results in round 1"),
        (["A", "B"], [won(1, "A", "C")], "not in the list of entrants"),
        (["A", "A"], [], "listed twice"),
        (None, [won(1, "A", "A")], "cannot play itself"),
    ],
)
def test_bad_results(entrants: list[str] | None, results: list[MatchRecord], words: str) -> None:
    with pytest.raises(ScoringError, match=words):
        rank(entrants=entrants, results=results, options=DEFAULT)


def test_match_record_from_a_replayed_match() -> None:
    deals = [FinishingOrder.parse(text) for text in ("N S", "N S", "N S", "N S", "S N")]
    result = replay(options=PROFILES["classic"], deals=deals)
    record = MatchRecord.from_result(round=2, ns="A", ew="B", result=result)
    assert record == MatchRecord(round=2, ns="A", ew="B", winner=NS, levels=(14, 2), passed_a=True)
    from scoring.adjustments import Forfeit

    walkover = replay(options=PROFILES["classic"], deals=[], adjustments=[Forfeit(side=EW)])
    assert MatchRecord.from_result(round=1, ns="A", ew="B", result=walkover).forfeit is EW
    double = replay(options=PROFILES["classic"], deals=[], adjustments=[Forfeit(side=None)])
    assert MatchRecord.from_result(round=1, ns="A", ew="B", result=double).double_forfeit


def test_prize_tiers() -> None:
    """docs/rules.md §4 (seed 003): tiers by count from the final ranking; a shared rank across a boundary
    must be drawn first."""
    results = [won(1, "A", "B"), won(1, "C", "D", levels=(13, 2)), won(1, "E", "F", levels=(12, 2))]
    out = rank(results=results, options=DEFAULT)
    assert assign_tiers(standings=out, tiers=[("一等奖", 1), ("二等奖", 2)]) == {
        "C": "一等奖",
        "E": "二等奖",
        "A": "二等奖",
    }
    tied = rank(results=[won(1, "A", "B"), won(1, "C", "D")], options=DEFAULT)
    with pytest.raises(ScoringError, match="draw lots first"):
        assign_tiers(standings=tied, tiers=[("冠军", 1)])


def test_standings_json_and_its_errors() -> None:
    out = standings_json(
        {
            "profile": "timed-40",
            "entrants": ["A", "B", "C", "D", "E"],
            "lots_seed": 3,
            "results": [
                {
                    "round": 1,
                    "NS": "A",
                    "EW": "B",
                    "winner": "NS",
                    "levels": {"NS": 14, "EW": 9},
                    "passed_a": True,
                },
                {"round": 1, "NS": "C", "EW": "D", "winner": None, "levels": {"NS": 8, "EW": 8}},
                {"round": 1, "NS": "E", "EW": None, "bye": True},
                {"round": 2, "NS": "A", "EW": "C", "forfeit": "EW"},
                {"round": 2, "NS": "B", "EW": "D", "forfeit": "both"},
            ],
        }
    ).to_json()
    assert [row["entrant"] for row in out["rows"]] == ["A", "E", "C", "D", "B"]
    assert out["rows"][0] == {
        "rank": 1,
        "entrant": "A",
        "shared": False,
        "played": 2,
        "wins": 2,
        "draws": 0,
        "losses": 0,
        "byes": 0,
        "match_points": 4,
        "small_points": 19,
        "levels_sum": 15,
        "deal_points": 0,
        "buchholz": 1,
        "head_to_head": None,
        "lots": None,
    }
    for bad in (
        [],
        {"results": "none"},
        {"results": [], "colour": 1},
        {"results": [], "entrants": "A"},
        {"results": [], "lots_seed": "x"},
        {"entrants": []},
        {"results": [{"round": 0, "NS": "A", "EW": "B"}]},
        {"results": [{"round": 1, "NS": "A", "EW": None}]},
        {"results": [{"round": 1, "NS": "A", "EW": "B", "bye": True}]},
        {"results": [{"round": 1, "NS": "A", "EW": "B", "winner": "NS", "passed_a": True}]},
        {"results": [{"round": 1, "NS": "A", "EW": "B", "winner": "EW", "forfeit": "EW"}]},
        {"results": [{"round": 1, "NS": "A", "EW": "B", "levels": {"NS": 15, "EW": 2}}]},
        {"results": [{"round": 1, "NS": "A", "EW": "B", "points": {"NS": 1}}]},
        {"results": [{"round": 1, "NS": "A", "EW": "B", "passed_a": "yes"}]},
        {"results": [{"round": 1, "NS": "A", "EW": "B", "table": 3}]},
        {"results": ["A beat B"]},
        {"results": [], "profile": "bridge"},
    ):
        with pytest.raises(ScoringError):
            standings_json(bad)
    with pytest.raises(ScoringError):
        parse_results(None)


def test_the_registry_names_every_tie_breaker() -> None:
    assert set(METRICS) == {
        "match_points",
        "small_points",
        "levels_sum",
        "deal_points",
        "head_to_head",
        "buchholz",
        "wins",
        "lots",
    }
    assert all(metric.title_zh for metric in METRICS.values())
    assert dataclasses.is_dataclass(MatchRecord)


def test_a_stored_snapshot_gives_the_same_record_as_the_result() -> None:
    """The database keeps ``MatchResult.to_json()``; standings read it back identically."""
    from scoring.match import parse_deals, replay
    from scoring.profiles import options_for
    from scoring.standings import MatchRecord

    for profile, orders in (
        ("classic", [["N", "S"]] * 4 + [["N", "E", "S"]]),
        ("points-6", [["E", "W"], ["N", "S", "E"], ["W", "N", "E"], ["S", "N"], ["E", "W"], ["N", "E", "S"]]),
    ):
        options = options_for(profile=profile)
        result = replay(options=options, deals=parse_deals(options=options, data=[{"order": o} for o in orders]))
        from_json = MatchRecord.from_result_json(round=1, ns="A", ew="B", result=result.to_json())
        assert from_json.winner is result.winner
        assert from_json.levels == result.levels and from_json.points == result.points
        assert from_json == MatchRecord.from_result(round=1, ns="A", ew="B", result=result)


def _knockout(results, third_place=frozenset(), lots_seed=None):
    from scoring.profiles import options_for
    from scoring.standings import knockout_placings

    options = options_for(profile="timed-90")
    entrants = sorted({e for r in results for e in (r.ns, r.ew) if e})
    base = rank(entrants=entrants, results=results, options=options, lots_seed=lots_seed)
    return knockout_placings(standings=base, results=results, third_place=third_place)


def test_a_knockout_ranks_by_how_far_each_pair_went() -> None:
    """docs/rules.md §4: final winner 1st, loser 2nd, third-place match 3rd/4th, quarter-final losers
    share 5th — whatever their points (the 3rd-place winner also has two wins, like the runner-up)."""
    from scoring.seats import Side
    from scoring.standings import MatchRecord

    def won(rnd, ns, ew, winner=Side.NS):
        return MatchRecord(round=rnd, ns=ns, ew=ew, winner=winner, levels=(14, 2), passed_a=True)

    results = [
        won(1, "A", "H"),
        won(1, "B", "G"),
        won(1, "C", "F"),
        won(1, "D", "E"),
        won(2, "A", "D"),
        won(2, "B", "C", winner=Side.EW),
        won(3, "C", "A", winner=Side.EW),
        won(3, "B", "D"),  # final A beats C; third place B beats D
    ]
    rows = _knockout(results, third_place=frozenset({"B", "D"})).rows
    assert [row.entrant for row in rows[:4]] == ["A", "C", "B", "D"]
    assert [row.rank for row in rows] == [1, 2, 3, 4, 5, 5, 5, 5]
    assert all(row.shared for row in rows[4:]) and not any(row.shared for row in rows[:4])
    assert rows[2].wins == 2 and rows[1].wins == 2  # the statistics are kept


def test_knockout_placing_ties_are_broken_by_reproducible_lots() -> None:
    from scoring.seats import Side
    from scoring.standings import MatchRecord

    results = [MatchRecord(round=1, ns=ns, ew=ew, winner=Side.NS) for ns, ew in (("A", "D"), ("B", "C"))]
    first = _knockout(results, lots_seed=7).rows
    again = _knockout(results, lots_seed=7).rows
    assert [r.entrant for r in first] == [r.entrant for r in again]
    assert [r.rank for r in first] == [1, 2, 3, 4] and {r.lots for r in first} == {1, 2}


def test_the_prize_order_goes_on_after_the_prize_stage_with_the_stage_before():
    """A knockout's four placings, then the preliminary's order of the pairs that did not advance; a tie
    there stays a tie (docs/rules.md §4, prize tiers)."""
    from dataclasses import replace

    from scoring.standings import StandingRow, Standings, prize_order

    def row(entrant: str, rank: int, shared: bool = False) -> StandingRow:
        blank = dict.fromkeys(StandingRow.__dataclass_fields__, 0)
        return replace(StandingRow(**blank), entrant=entrant, rank=rank, shared=shared, head_to_head=None, lots=None)

    knockout = Standings((row("c", 1), row("a", 2), row("d", 3), row("b", 4)), (), None)
    swiss = Standings(
        (row("a", 1), row("b", 2), row("c", 3), row("e", 4, True), row("d", 4, True), row("f", 4, True)), (), None
    )
    order = prize_order(stages=[knockout, swiss])
    assert [(r.entrant, r.rank, r.shared) for r in order.rows] == [
        ("c", 1, False), ("a", 2, False), ("d", 3, False), ("b", 4, False), ("e", 5, True), ("f", 5, True),
    ]
