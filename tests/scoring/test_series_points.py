"""The series points table, ranking and rating (docs/rules.md §12.3, §12.4)."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.series import EventPlacing, PointsTable, RatedMatch, ratings_rebuild, series_ranking

TABLE = PointsTable((10, 8, 6), others=1)


def test_the_rules_example_ranks_wang_li_zhang():
    placings = [
        EventPlacing("e1", "王芳", 1),
        EventPlacing("e1", "李强", 1),
        EventPlacing("e1", "张伟", 3),
        EventPlacing("e2", "王芳", 1),
        EventPlacing("e2", "张伟", 1),
        EventPlacing("e2", "李强", 2),
    ]
    rows = series_ranking(placings=placings, table=TABLE)
    assert [(row.player, row.points, row.firsts) for row in rows] == [("王芳", 20, 2), ("李强", 18, 1), ("张伟", 16, 1)]


def test_ties_go_to_more_firsts_then_more_events_then_lots():
    placings = [
        EventPlacing("e1", "A", 1),  # 10, one first
        EventPlacing("e1", "B", 3),
        EventPlacing("e2", "B", 3),
        EventPlacing("e3", "B", 5),
        EventPlacing("e4", "B", 5),  # 6 + 6 + 1 + 1 = 14 … no: give B 10 without a first
        EventPlacing("e2", "C", 2),
        EventPlacing("e3", "C", 4),
        EventPlacing("e4", "C", 4),  # 8 + 1 + 1 = 10, no first, three events
        EventPlacing("e3", "D", 2),
        EventPlacing("e4", "D", 7),
        EventPlacing("e5", "D", 7),  # 8 + 1 + 1 = 10, three events
    ]
    rows = series_ranking(placings=placings, table=TABLE, lots_seed=3)
    by = {row.player: row for row in rows}
    assert by["A"].points == by["C"].points == by["D"].points == 10
    order = [row.player for row in rows]
    assert order[0] == "B"  # 14 points
    assert order.index("A") < order.index("C") and order.index("A") < order.index("D")  # a first place
    assert by["C"].lots and by["D"].lots and not by["A"].lots
    # lots: the same seed, the same order; another seed may swap them, never A or B
    assert [row.player for row in series_ranking(placings=placings, table=TABLE, lots_seed=3)] == order
    for seed in range(20):
        assert [row.player for row in series_ranking(placings=placings, table=TABLE, lots_seed=seed)][:2] == ["B", "A"]


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"places": {"1": 10, "3": 6}, "others": 1}, "without a gap"),
        ({"places": {"1": 10, "2": -1}, "others": 0}, "never negative"),
        ({"places": {"1": 10}, "others": -1}, "never negative"),
        ({"places": {"1": 5, "2": 8}, "others": 1}, "would earn more"),
        ({"places": {"1": 5}, "others": 6}, "would earn more"),
        ({"places": {}, "others": 1}, "1st place at least"),
        ({"places": {"1": 1.5}, "others": 0}, "whole numbers"),
        ({"places": {"x": 1}, "others": 0}, "not a whole number"),
        ([10, 8], "points table"),
    ],
)
def test_a_bad_points_table_is_refused_in_both_languages(data, said):
    with pytest.raises(ScoringError) as refused:
        PointsTable.from_json(data)
    assert refused.value.code == "bad_input" and said in refused.value.message
    assert refused.value.message_zh != "输入有误" and refused.value.message_zh


def test_a_points_table_reads_back_what_it_wrote():
    assert PointsTable.from_json(TABLE.to_json()) == TABLE
    assert [TABLE.points(place) for place in (1, 2, 3, 4, 40)] == [10, 8, 6, 1, 1]


def test_a_player_placed_twice_in_one_event_is_refused():
    with pytest.raises(ScoringError):
        series_ranking(placings=[EventPlacing("e1", "A", 1), EventPlacing("e1", "A", 2)], table=TABLE)


def test_the_rating_rewards_winners_counts_matches_and_rebuilds_the_same():
    matches = [
        RatedMatch(("a", "b"), ("c", "d")),
        RatedMatch(("a", "c"), ("b", "d")),
        RatedMatch(("a", "d"), ("b", "c"), drawn=True),
    ]
    ratings = ratings_rebuild(matches)
    assert ratings["a"].matches == 3 and ratings["d"].matches == 3
    assert ratings["a"].shown > ratings["b"].shown > ratings["d"].shown
    assert ratings["a"].shown == pytest.approx(ratings["a"].mu - 3 * ratings["a"].sigma)
    assert ratings_rebuild(matches) == ratings  # from scratch: the same numbers
    assert ratings["a"].sigma < 25 / 3  # more certain after playing


def test_a_match_of_one_player_on_both_sides_is_refused():
    with pytest.raises(ScoringError):
        ratings_rebuild([RatedMatch(("a", "b"), ("b", "c"))])
