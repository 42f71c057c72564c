"""Properties of the team rules (docs/rules.md §11): rankings do not depend on the order of their input;
the team total's order follows its tie-breaks; a table's small points are the standings' own; swapping
the two teams mirrors a team match; a knockout team match is never left drawn."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.options import RuleOptions, SmallPoints
from scoring.profiles import PROFILES
from scoring.seats import Side
from scoring.standings import MatchRecord, rank
from scoring.team_matches import (
    TeamMatchRecord,
    TeamMatchStatus,
    table_small_points,
    team_match_decide,
    team_results_decide,
    team_standings_rank,
)
from scoring.team_options import TeamDecider, TeamOptions
from scoring.teams import MemberStanding, Team, team_total_rank

FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SIDES = st.sampled_from([Side.NS, Side.EW])


@st.composite
def tables(draw: st.DrawFn, ns: str = "N", ew: str = "E", *, points: bool = False) -> MatchRecord:
    """A finished table: played (won or drawn), a walkover, or a double forfeit."""
    kind = draw(st.sampled_from(["played", "played", "played", "drawn", "forfeit", "double"]))
    if kind == "forfeit":
        side = draw(SIDES)
        return MatchRecord(round=1, ns=ns, ew=ew, forfeit=side, winner=side.other)
    if kind == "double":
        return MatchRecord(round=1, ns=ns, ew=ew, double_forfeit=True)
    if points:
        scores = (draw(st.integers(0, 18)), draw(st.integers(0, 18)))
        winner = None if scores[0] == scores[1] else (Side.NS if scores[0] > scores[1] else Side.EW)
        return MatchRecord(round=1, ns=ns, ew=ew, winner=winner, points=scores)
    if kind == "drawn":
        level = draw(st.integers(2, 14))
        return MatchRecord(round=1, ns=ns, ew=ew, winner=None, levels=(level, level))
    winner = draw(SIDES)
    loser_level = draw(st.integers(2, 14))
    passed = draw(st.booleans())
    winner_level = 14 if passed else draw(st.integers(loser_level, 14))
    levels = (winner_level, loser_level) if winner is Side.NS else (loser_level, winner_level)
    return MatchRecord(round=1, ns=ns, ew=ew, winner=winner, levels=levels, passed_a=passed)


@st.composite
def team_fields(draw: st.DrawFn) -> tuple[list[Team], list[MemberStanding]]:
    """Teams of 2–4 members and a stage ranking of them (places may be shared)."""
    sizes = draw(st.lists(st.integers(2, 4), min_size=1, max_size=6))
    teams, members = [], []
    for number, size in enumerate(sizes):
        names = tuple(f"t{number}m{k}" for k in range(size))
        teams.append(Team(f"T{number}", names))
        for name in names:
            members.append(
                MemberStanding(
                    member=name,
                    place=draw(st.integers(1, 3 * len(sizes))),
                    points=draw(st.integers(0, 6)),
                    small_points=draw(st.integers(-5, 5)),
                )
            )
    return teams, members


@FAST
@given(team_fields(), st.randoms(use_true_random=False), st.none() | st.integers(1, 3), st.none() | st.integers(0, 99))
def test_team_total_does_not_depend_on_input_order(field, rng, count, seed) -> None:  # type: ignore[no-untyped-def]
    teams, members = field
    first = team_total_rank(teams=teams, members=members, team_count=count, lots_seed=seed)
    shuffled_teams, shuffled_members = list(teams), list(members)
    rng.shuffle(shuffled_teams)
    rng.shuffle(shuffled_members)
    assert team_total_rank(teams=shuffled_teams, members=shuffled_members, team_count=count, lots_seed=seed) == first


@FAST
@given(team_fields(), st.none() | st.integers(1, 3), st.none() | st.integers(0, 99))
def test_team_total_order_follows_its_tie_breaks(field, count, seed) -> None:  # type: ignore[no-untyped-def]
    teams, members = field
    rows = team_total_rank(teams=teams, members=members, team_count=count, lots_seed=seed).rows
    keys = [(-row.points, -row.small_points, row.best_place or 10**6) for row in rows]
    assert keys == sorted(keys)
    for before, after in itertools.pairwise(rows):
        same = (before.points, before.small_points, before.best_place) == (
            after.points,
            after.small_points,
            after.best_place,
        )
        if seed is None:
            assert (after.rank == before.rank) == same
        else:
            assert after.rank == before.rank + 1
        if same and seed is not None:
            assert before.lots is not None and after.lots is not None and before.lots < after.lots
    for row in rows:
        assert row.points == sum(m.points for m in row.counted)
        assert len(row.counted) == (row.members if count is None else min(count, row.members))
        assert row.short == (count is not None and row.members < count)


@FAST
@given(tables(), st.sampled_from(list(SmallPoints)))
def test_a_table_s_small_points_are_the_standings_own(record: MatchRecord, small: SmallPoints) -> None:
    options = RuleOptions(small_points=small)
    rows = {row.entrant: row.small_points for row in rank(results=[record], options=options).rows}
    assert table_small_points(record, options) == (rows["N"], rows["E"])


@FAST
@given(tables(points=True))
def test_points_formats_count_the_difference_of_the_points(record: MatchRecord) -> None:
    options = PROFILES["points-6"]
    ns, ew = table_small_points(record, options)
    if record.double_forfeit:
        assert ns == ew == -options.forfeit_margin  # both lose
        return
    assert ns == -ew
    if record.points is not None and not record.forfeit and not record.double_forfeit:
        assert ns == record.points[0] - record.points[1]


def _flip(record: MatchRecord) -> MatchRecord:
    """The same table seen from the other side: N/S and E/W swapped."""

    def other(side: Side | None) -> Side | None:
        return None if side is None else side.other

    return MatchRecord(
        round=record.round,
        ns=record.ew or "",
        ew=record.ns,
        winner=other(record.winner),
        levels=(record.levels[1], record.levels[0]),
        passed_a=record.passed_a,
        points=None if record.points is None else (record.points[1], record.points[0]),
        forfeit=other(record.forfeit),
        double_forfeit=record.double_forfeit,
    )


@FAST
@given(tables(), tables(), st.sampled_from(list(TeamDecider)), st.sampled_from(["swiss", "knockout"]), SIDES)
def test_swapping_the_teams_mirrors_the_team_match(a, b, decider, stage, extra) -> None:  # type: ignore[no-untyped-def]
    """X against Y with tables a, b is Y against X with each table seen from the other side (Y's pair 1
    is then N/S at table a): the same winner, the same per-team figures."""
    team = TeamOptions(team_match=True, team_decider=decider)
    rules = RuleOptions()
    forward = team_match_decide(
        TeamMatchRecord(round=1, x="X", y="Y", a=a, b=b), options=rules, team_options=team, stage=stage
    )
    backward = team_match_decide(
        TeamMatchRecord(round=1, x="Y", y="X", a=_flip(a), b=_flip(b)), options=rules, team_options=team, stage=stage
    )
    assert (forward.winner, forward.reason, forward.status) == (backward.winner, backward.reason, backward.status)
    assert forward.tables_won == backward.tables_won[::-1]
    assert forward.small_points == backward.small_points[::-1]
    if forward.status is TeamMatchStatus.NEEDS_EXTRA_DEAL:
        assert forward.deciding_table == backward.deciding_table
        decided = team_match_decide(
            TeamMatchRecord(round=1, x="X", y="Y", a=a, b=b, extra_deal=extra),
            options=rules,
            team_options=team,
            stage=stage,
        )
        mirrored = team_match_decide(
            TeamMatchRecord(round=1, x="Y", y="X", a=_flip(a), b=_flip(b), extra_deal=extra.other),
            options=rules,
            team_options=team,
            stage=stage,
        )
        assert decided.winner == mirrored.winner is not None


@FAST
@given(tables(), tables(), st.sampled_from(list(TeamDecider)))
def test_a_knockout_team_match_is_never_left_drawn(a, b, decider) -> None:  # type: ignore[no-untyped-def]
    result = team_match_decide(
        TeamMatchRecord(round=1, x="X", y="Y", a=a, b=b),
        options=RuleOptions(),
        team_options=TeamOptions(team_match=True, team_decider=decider),
        stage="knockout",
    )
    assert result.winner is not None or result.double_forfeit or result.status is TeamMatchStatus.NEEDS_EXTRA_DEAL


@st.composite
def team_rounds(draw: st.DrawFn) -> list[TeamMatchRecord]:
    """Up to four rounds of six teams paired at random (a team once per round)."""
    names = [f"T{k}" for k in range(6)]
    records = []
    for round_number in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(names))
        for x, y in zip(order[0::2], order[1::2], strict=True):
            records.append(TeamMatchRecord(round=round_number, x=x, y=y, a=draw(tables()), b=draw(tables())))
    return records


@FAST
@given(team_rounds(), st.randoms(use_true_random=False), st.none() | st.integers(0, 99))
def test_team_standings_do_not_depend_on_the_order_of_results(records, rng, seed) -> None:  # type: ignore[no-untyped-def]
    team = TeamOptions(team_match=True)
    results = team_results_decide(records, options=RuleOptions(), team_options=team)
    first = team_standings_rank(results=results, team_options=team, lots_seed=seed)
    shuffled = list(results)
    rng.shuffle(shuffled)
    assert team_standings_rank(results=shuffled, team_options=team, lots_seed=seed) == first
    keys = [(-row.match_points, -row.tables_won, -row.small_points) for row in first.rows]
    assert keys == sorted(keys)
    assert (
        sum(row.wins for row in first.rows)
        == sum(row.losses for row in first.rows) - sum(1 for result in results if result.double_forfeit) * 2
    )
