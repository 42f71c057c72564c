"""The ranking of a Swiss or round-robin stage, groups included (docs/rules.md §4–5).

One answer to "where does each pair stand in this stage", asked by the public standings, the
advancement into the next stage, the next round's draw, prizes, the API and the workbook.

- **Groups.** A round robin played in groups is ranked group by group with
  :func:`scoring.standings.rank` (its pairs meet only their group, so head-to-head and ranks are
  within the group). The stage as a whole — what prizes and the workbook's "place" over a grouped
  stage mean — is ordered **by group place first** (every group's winner before any runner-up),
  **then across groups by the stage's per-pair tie-breakers** (match points, small points, …;
  head-to-head does not apply between pairs that never met), then by lots.
- **Lots (抽签).** Drawing lots is always the last tie-breaker (docs/rules.md §5): with a recorded seed
  every full tie is broken, reproducibly (the lot is in the row); without one full ties stay shared.
- **Withdrawn pairs** keep their results (their opponents' points stand) but are placed after
  every active pair of their group, marked ``withdrawn``; they never advance.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from scoring.options import RuleOptions
from scoring.standings import MatchRecord, StandingRow, Standings, rank

__all__ = ["RankedRow", "StageRanking", "rank_stage"]

_ACROSS_GROUPS = ("match_points", "small_points", "levels_sum", "deal_points", "buchholz", "wins")
"""The tie-breakers that compare pairs of different groups (per-pair totals)."""


@dataclass(frozen=True, slots=True)
class RankedRow:
    row: StandingRow
    """The pair's statistics; ``row.rank`` / ``row.shared`` are its place within its group (the
    stage's place when not grouped)."""
    group: int | None
    place: int
    """Place in the whole stage: by group place, then across groups (= ``row.rank`` ungrouped)."""
    place_shared: bool
    withdrawn: bool

    @property
    def entrant(self) -> str:
        return self.row.entrant


@dataclass(frozen=True, slots=True)
class StageRanking:
    rows: tuple[RankedRow, ...]
    """Group by group (group 1 first), each in rank order; ungrouped: the stage's ranking."""
    tie_breakers: tuple[str, ...]
    lots_seed: int | None

    @property
    def grouped(self) -> bool:
        return any(row.group is not None for row in self.rows)

    def by_place(self) -> tuple[RankedRow, ...]:
        """Every pair in stage order (prizes, the workbook)."""
        return tuple(sorted(self.rows, key=lambda row: row.place))

    def standings(self) -> Standings:
        """The stage order as :class:`~scoring.standings.Standings` whose ``rank`` is the place."""
        rows = tuple(
            ranked.row
            if (ranked.row.rank, ranked.row.shared) == (ranked.place, ranked.place_shared)
            else dataclasses.replace(ranked.row, rank=ranked.place, shared=ranked.place_shared)
            for ranked in self.by_place()
        )
        return Standings(rows=rows, tie_breakers=self.tie_breakers, lots_seed=self.lots_seed)

    def groups(self) -> list[list[RankedRow]]:
        """The active pairs of each group in rank order (ungrouped: one group)."""
        out: dict[int | None, list[RankedRow]] = {}
        for row in self.rows:
            if not row.withdrawn:
                out.setdefault(row.group, []).append(row)
        return [out[key] for key in sorted(out, key=lambda group: group or 0)]

    def cut_undecided(self, count: int) -> bool:
        """Whether a shared rank straddles the top ``count`` of a group (the stage when not
        grouped): the cut then needs lots."""
        for members in self.groups():
            if 0 < count < len(members) and members[count].row.rank == members[count - 1].row.rank:
                return True
        return False

    def advancing(self, count: int) -> list[str]:
        """The top ``count`` active pairs of each group, seeded by group place, then group."""
        groups = self.groups()
        return [group[place].entrant for place in range(count) for group in groups if place < len(group)]


def _with_lots(options: RuleOptions) -> tuple[str, ...]:
    order = tuple(options.tie_breakers)
    return order if "lots" in order else (*order, "lots")


def _group_rows(rows: Sequence[StandingRow], withdrawn: Collection[str]) -> list[StandingRow]:
    """Active pairs first (ranks renumbered among them, shares kept), then the withdrawn."""
    if not any(row.entrant in withdrawn for row in rows):
        return list(rows)
    active = [row for row in rows if row.entrant not in withdrawn]
    out: list[StandingRow] = []
    previous: StandingRow | None = None
    for position, row in enumerate(active, 1):
        tied = previous is not None and previous.shared and row.shared and previous.rank == row.rank
        number = out[-1].rank if tied else position
        out.append(dataclasses.replace(row, rank=number))
        previous = row
    runs: dict[int, int] = {}
    for row in out:
        runs[row.rank] = runs.get(row.rank, 0) + 1
    out = [dataclasses.replace(row, shared=runs[row.rank] > 1) for row in out]
    gone = [row for row in rows if row.entrant in withdrawn]
    start = len(out)
    out.extend(dataclasses.replace(row, rank=start + k, shared=False) for k, row in enumerate(gone, 1))
    return out


def rank_stage(
    *,
    entrants: Sequence[str],
    results: Sequence[MatchRecord],
    options: RuleOptions,
    groups: Mapping[str, int] | None = None,
    withdrawn: Collection[str] = (),
    lots_seed: int | None = None,
) -> StageRanking:
    """Rank a stage (see the module docstring). ``groups``: pair → group for a round robin played
    in groups (None or empty: one field)."""
    ranking_options = dataclasses.replace(options, tie_breakers=_with_lots(options))
    group_of = dict(groups or {})
    members: dict[int | None, list[str]] = {}
    for entrant in entrants:
        members.setdefault(group_of.get(entrant), []).append(entrant)
    gone = set(withdrawn)
    per_group: list[tuple[int | None, list[StandingRow]]] = []
    for group in sorted(members, key=lambda key: (key is None, key or 0)):
        names = set(members[group])
        group_results = results if len(members) == 1 else [r for r in results if r.ns in names]
        ranked = rank(entrants=members[group], results=group_results, options=ranking_options, lots_seed=lots_seed)
        per_group.append((group, _group_rows(ranked.rows, gone)))

    across = [name for name in ranking_options.tie_breakers if name in _ACROSS_GROUPS]
    lots: dict[str, int] = {}
    if lots_seed is not None:
        shuffled = sorted(entrants)
        random.Random(lots_seed).shuffle(shuffled)
        lots = {entrant: number for number, entrant in enumerate(shuffled, 1)}

    def stage_key(group: int | None, row: StandingRow) -> tuple[object, ...]:
        if len(per_group) == 1:
            return (row.entrant in gone, row.rank)
        values = tuple(-getattr(row, name) for name in across)
        return (row.entrant in gone, row.rank, *values, lots.get(row.entrant, 0))

    flat = [(group, row) for group, rows in per_group for row in rows]
    # Each row's key made once (a 5,000-pair stage is ranked every few seconds during a round).
    keys = [stage_key(group, row) for group, row in flat]
    ordered = sorted(range(len(flat)), key=keys.__getitem__)
    places: dict[str, tuple[int, bool]] = {}
    position = 0
    while position < len(ordered):
        key = keys[ordered[position]]
        end = position
        while end < len(ordered) and keys[ordered[end]] == key:
            end += 1
        tied = end - position > 1 and (len(per_group) > 1 or flat[ordered[position]][1].shared)
        for index in ordered[position:end]:
            places[flat[index][1].entrant] = (position + 1, tied)
        position = end
    rows = tuple(
        RankedRow(
            row=row,
            group=group,
            place=places[row.entrant][0],
            place_shared=places[row.entrant][1],
            withdrawn=row.entrant in gone,
        )
        for group, row in flat
    )
    return StageRanking(rows=rows, tie_breakers=tuple(options.tie_breakers), lots_seed=lots_seed)
