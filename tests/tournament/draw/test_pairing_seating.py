"""Seats at a table, and referees for tables."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.draw.pairing import DrawError, Entrant, Referee, TableArea, referees_assign, seat_pair


def test_seat_goes_to_the_greater_need_then_alternates_then_rank() -> None:
    wants_ns = Entrant(id="a", seats_ns=1, seats_ew=2)
    neutral = Entrant(id="b", seats_ns=1, seats_ew=1)
    ns, ew, warnings = seat_pair(neutral, wants_ns)
    assert (ns.id, ew.id, warnings) == ("a", "b", ())
    sat_ns_last = Entrant(id="c", seats_ns=1, seats_ew=1, last_seat="NS")
    sat_ew_last = Entrant(id="d", seats_ns=1, seats_ew=1, last_seat="EW")
    assert seat_pair(sat_ns_last, sat_ew_last)[0].id == "d"
    assert seat_pair(Entrant(id="x"), Entrant(id="y"))[0].id == "x"  # first round: higher-ranked N/S
    # Both want N/S: the greater need wins, the other is pushed to 2 and warned.
    strong = Entrant(id="s", seats_ew=2)
    weak = Entrant(id="w", seats_ns=1, seats_ew=2)
    ns, ew, warnings = seat_pair(weak, strong)
    assert (ns.id, ew.id) == ("s", "w")
    assert [(w.code, w.entrants) for w in warnings] == [("seat_imbalance", ("w",))]
    assert warnings[0].message_zh


@settings(deadline=None, max_examples=200)
@given(a_ns=st.integers(0, 5), a_ew=st.integers(0, 5), b_ns=st.integers(0, 5), b_ew=st.integers(0, 5))
def test_imbalance_grows_past_one_only_when_both_want_the_same_seat(a_ns: int, a_ew: int, b_ns: int, b_ew: int) -> None:
    a = Entrant(id="a", seats_ns=a_ns, seats_ew=a_ew)
    b = Entrant(id="b", seats_ns=b_ns, seats_ew=b_ew)
    ns, ew, warnings = seat_pair(a, b)
    assert ns.seat_need >= ew.seat_need
    after = {ns.id: ns.seats_ns + 1 - ns.seats_ew, ew.id: ew.seats_ns - ew.seats_ew - 1}
    before = {x.id: x.seats_ns - x.seats_ew for x in (a, b)}
    same_wish = (a.seat_need > 0 and b.seat_need > 0) or (a.seat_need < 0 and b.seat_need < 0)
    for pid in ("a", "b"):
        if abs(after[pid]) > 1 and abs(after[pid]) > abs(before[pid]):
            assert same_wish
            assert any(pid in w.entrants for w in warnings)


def test_referees_get_runs_of_tables_up_to_their_limit() -> None:
    referees = [Referee(id="r1"), Referee(id="r2"), Referee(id="r3", max_tables=1)]
    result = referees_assign(tables=list(range(1, 8)), referees=referees, tables_per_referee=3)
    assert [(a.table, a.referee) for a in result] == [
        (1, "r1"),
        (2, "r1"),
        (3, "r1"),
        (4, "r2"),
        (5, "r2"),
        (6, "r2"),
        (7, "r3"),
    ]
    even = referees_assign(tables=list(range(1, 6)), referees=referees[:2], tables_per_referee=4)
    assert [a.referee for a in even] == ["r1", "r1", "r1", "r2", "r2"]  # loads differ by at most one
    short = referees_assign(tables=list(range(1, 5)), referees=[Referee(id="r1")], tables_per_referee=2)
    assert [a.referee for a in short] == ["r1", "r1", None, None]
    assert [w.code for a in short for w in a.warnings] == ["table_without_referee"] * 2
    with pytest.raises(DrawError):
        referees_assign(tables=[1], referees=referees, tables_per_referee=0)


def test_referees_by_area() -> None:
    tables = [TableArea(1, "A"), TableArea(2, "A"), TableArea(3, "B"), TableArea(4, "B"), TableArea(5, "B")]
    referees = [Referee(id="ra", area="A"), Referee(id="rb", area="B")]
    result = referees_assign(tables=tables, referees=referees, tables_per_referee=2, by_area=True)
    assert [(a.table, a.referee) for a in result] == [(1, "ra"), (2, "ra"), (3, "rb"), (4, "rb"), (5, None)]
    roomy = referees_assign(tables=tables, referees=referees, tables_per_referee=3, by_area=True)
    assert [(a.table, a.referee) for a in roomy] == [(1, "ra"), (2, "ra"), (3, "rb"), (4, "rb"), (5, "rb")]
    spill = [Referee(id="ra", area="A"), Referee(id="rb", area="B", max_tables=2)]
    result = referees_assign(tables=tables, referees=spill, tables_per_referee=3, by_area=True)
    assert [(a.table, a.referee, [w.code for w in a.warnings]) for a in result][-1] == (
        5,
        "ra",
        ["referee_outside_area"],
    )


@settings(deadline=None, max_examples=100)
@given(
    tables=st.integers(0, 60),
    limits=st.lists(st.one_of(st.none(), st.integers(0, 6)), max_size=12),
    per=st.integers(1, 8),
)
def test_referee_limits_are_never_exceeded(tables: int, limits: list[int | None], per: int) -> None:
    referees = [Referee(id=k, max_tables=m) for k, m in enumerate(limits)]
    result = referees_assign(tables=range(1, tables + 1), referees=referees, tables_per_referee=per)
    assert [a.table for a in result] == list(range(1, tables + 1))
    load: dict[int | str, int] = {}
    for a in result:
        if a.referee is not None:
            load[a.referee] = load.get(a.referee, 0) + 1
    for r in referees:
        assert load.get(r.id, 0) <= min(per, r.max_tables if r.max_tables is not None else per)
    capacity = sum(min(per, r.max_tables if r.max_tables is not None else per) for r in referees)
    assert sum(load.values()) == min(tables, capacity)
    # Each referee's tables are consecutive numbers.
    for r in referees:
        mine = [a.table for a in result if a.referee == r.id]
        assert mine == list(range(mine[0], mine[0] + len(mine))) if mine else True
