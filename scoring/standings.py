"""Standings of Swiss and round-robin stages: match results → ranked rows (docs/rules.md §5).

Tie-breakers are a registry of metrics (:data:`METRICS`, after Tabbycat's metric classes) that the
organiser orders through ``RuleOptions.tie_breakers``; entrants equal on every listed metric share a rank
(``shared``) until lots are drawn. The metrics:

- ``match_points`` (场分): win/draw/loss from ``RuleOptions.match_points`` (default 2/1/0);
- ``small_points`` (小分 / 级差分): own level minus the opponents' with a passed A counted as 15
  (``small_points: split_13`` gives 13 ± that difference instead);
- ``levels_sum``: the sum of the levels reached (a passed A counts 15);
- ``deal_points``: the sum of deal points of points formats (seed 004);
- ``head_to_head``: match points earned against the other entrants still tied at that point;
- ``buchholz``: the sum of the opponents' match points;
- ``wins``: matches won (forfeit wins and byes counted as wins included);
- ``lots``: a seeded random draw (``lots_seed``; the seed and every lot used are in the output, so the
  draw can be reproduced). Without a seed lots are not drawn and full ties stay shared.

Byes (轮空) count as ``bye_result`` (default a win) with ``bye_margin`` small points; a forfeit (弃权) is a
win for the other side by ``forfeit_margin`` small points; a double forfeit is a loss for both, each
−``forfeit_margin``. Byes and forfeits add nothing to ``levels_sum`` or ``deal_points``, and a bye has no
opponent for ``buchholz``.

JSON input of ``python -m scoring standings [FILE]`` (stdin when no FILE)::

    {
      "profile": "timed-40",                    # optional (default "classic"): scoring of results
      "rules": {"tie_breakers": ["match_points", "small_points", "lots"]},   # optional overrides
      "entrants": ["A", "B", "C", "D", "E"],    # optional: every registered entrant, even without results
      "lots_seed": 20240501,                    # optional: draw lots with this seed
      "disqualified": ["F"],                    # optional: ranked last, marked (docs/rules.md §7)
      "results": [
        {"round": 1, "NS": "A", "EW": "B", "winner": "NS", "levels": {"NS": 14, "EW": 9}, "passed_a": true},
        {"round": 1, "NS": "C", "EW": "D", "winner": null, "levels": {"NS": 8, "EW": 8}},   # a draw
        {"round": 1, "NS": "E", "EW": null, "bye": true},
        {"round": 2, "NS": "A", "EW": "C", "forfeit": "EW"},     # C forfeits: A wins
        {"round": 2, "NS": "B", "EW": "D", "forfeit": "both"},   # double forfeit: both lose
        {"round": 3, "NS": "A", "EW": "D", "winner": "EW", "points": {"NS": 6, "EW": 9}}   # points format
      ]
    }

``levels`` default to 2–2, ``passed_a`` to false (it means the winner passed A), ``points`` to none.
Output: ``{"tie_breakers": […], "lots_seed": n | null, "rows": [{"rank", "entrant", "shared", "played",
"wins", "draws", "losses", "byes", "match_points", "small_points", "levels_sum", "deal_points",
"buchholz", "head_to_head", "lots"}, …]}`` in ranking order (``head_to_head`` and ``lots`` are null where
they were not needed; ``head_to_head`` is null too for an entrant that met none of the others still
tied: it did not separate them, and a 0 would read as a lost meeting).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

from scoring.bracket import KnockoutResult, bracket_state
from scoring.errors import bad_input
from scoring.levels import ACE, LOWEST, PASSED_A_VALUE
from scoring.options import TIE_BREAKERS, ByeResult, RuleOptions, SmallPoints
from scoring.outcome import MatchResult, Reason
from scoring.profiles import options_for
from scoring.seats import PerSide, Side
from scoring.snapshot import MatchSnapshot

if TYPE_CHECKING:
    from scoring.bracket import BracketState

__all__ = [
    "METRICS",
    "MatchRecord",
    "Metric",
    "StandingRow",
    "Standings",
    "assign_tiers",
    "bracket_placings",
    "knockout_placings",
    "parse_results",
    "prize_order",
    "rank",
    "standings_json",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchRecord:
    """One pairing's result as standings need it. ``ew`` None: ``ns`` had a bye.

    ``winner`` None is a draw (or, with ``forfeit="both"``, a double forfeit). ``forfeit`` names the
    side that forfeited (``"NS"``/``"EW"``) or ``"both"``; ``passed_a``: the winner passed A.
    """

    round: int
    ns: str
    ew: str | None
    winner: Side | None = None
    levels: PerSide = (LOWEST, LOWEST)
    passed_a: bool = False
    points: PerSide | None = None
    forfeit: Side | None = None
    double_forfeit: bool = False
    disqualified: Side | None = None
    """The side the chief referee disqualified in this match (docs/rules.md §7): ranked last, marked."""

    @property
    def bye(self) -> bool:
        return self.ew is None

    @property
    def disqualified_entrant(self) -> str | None:
        if self.disqualified is None:
            return None
        return self.ns if self.disqualified is Side.NS else self.ew

    @classmethod
    def from_result(cls, *, round: int, ns: str, ew: str, result: MatchResult) -> MatchRecord:
        """A finished :class:`~scoring.outcome.MatchResult` (from :func:`scoring.match.replay`) as a
        standings record."""
        return cls.from_result_json(round=round, ns=ns, ew=ew, result=result.to_json())

    @classmethod
    def from_result_json(cls, *, round: int, ns: str, ew: str, result: Mapping[str, Any]) -> MatchRecord:
        """The same from a stored ``MatchResult.to_json()`` snapshot (what the database keeps)."""
        return cls.from_snapshot(round=round, ns=ns, ew=ew, snapshot=MatchSnapshot.from_json(result))

    @classmethod
    def from_snapshot(cls, *, round: int, ns: str, ew: str, snapshot: MatchSnapshot) -> MatchRecord:
        """The same from a stored snapshot read back (:class:`scoring.snapshot.MatchSnapshot`)."""
        winner = Side.parse(snapshot.winner) if snapshot.winner else None
        levels = snapshot.levels_or_start
        forfeit = snapshot.reason == Reason.FORFEIT.value
        disqualified = next(
            (
                Side.parse(row.get("side"))
                for row in snapshot.adjustments
                if row.get("kind") == "disqualification" and row.get("side") in ("NS", "EW")
            ),
            None,
        )
        return cls(
            round=round,
            ns=ns,
            ew=ew,
            winner=winner,
            levels=(levels.NS, levels.EW),
            passed_a=snapshot.reason == Reason.PASSED_A.value,
            points=(snapshot.points.NS, snapshot.points.EW) if snapshot.points else None,
            forfeit=winner.other if forfeit and winner is not None else None,
            double_forfeit=forfeit and winner is None,
            disqualified=disqualified,
        )


class _Tally:
    """Running totals of one entrant (mutable while aggregating, then read by the metrics)."""

    __slots__ = (
        "buchholz",
        "byes",
        "deal_points",
        "draws",
        "earned",
        "levels_sum",
        "losses",
        "match_points",
        "opponents",
        "played",
        "small_points",
        "wins",
    )

    def __init__(self) -> None:
        self.played = self.wins = self.draws = self.losses = self.byes = 0
        self.match_points = self.small_points = self.levels_sum = self.deal_points = self.buchholz = 0
        self.opponents: list[str] = []
        # The match points earned against each of ``opponents`` (head-to-head): two flat lists, not a
        # pair per meeting — a 5,000-pair stage is ranked every few seconds, and each small object
        # made is one more for the garbage collector to walk.
        self.earned: list[int] = []


@dataclass(frozen=True, slots=True)
class Metric:
    """A tie-breaker. ``total`` names the running total of one entrant it reads (``of_entrant``);
    ``of_group`` ranks the entrants still tied (head-to-head, lots). Higher values rank first."""

    name: str
    title: str
    title_zh: str
    total: str | None = None
    of_group: Callable[[Sequence[str], _Context], dict[str, int]] | None = None

    def __post_init__(self) -> None:
        assert self.total is None or self.total in _Tally.__slots__, self.total

    @property
    def of_entrant(self) -> Callable[[_Tally], int] | None:
        """The reader of one entrant's value (None for a metric of the tied group)."""
        return cast("Callable[[_Tally], int]", attrgetter(self.total)) if self.total is not None else None


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    entrant: str
    shared: bool
    """The rank is shared with another entrant (a full tie not broken by lots)."""
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    match_points: int
    small_points: int
    levels_sum: int
    deal_points: int
    buchholz: int
    head_to_head: int | None
    lots: int | None
    """The lot drawn for this entrant (the ``lots`` metric), None where none was needed."""
    disqualified: bool = False
    """Disqualified by the chief referee: ranked below every other entrant (docs/rules.md §7)."""
    landlord_wins: int | None = None
    """Dou Dizhu: the deals won as landlord, a points stage's third key (docs/rules.md §10); None in the
    games of pairs."""
    best_round: int | None = None
    """Dou Dizhu: the best single round, a points stage's fourth key (None before a player's first round,
    and in the games of pairs)."""

    def to_json(self) -> dict[str, Any]:
        """The row; ``"disqualified": true`` is added only for a disqualified entrant, a Dou Dizhu row's
        ``landlord_wins`` and ``best_round`` only for a Dou Dizhu row."""
        out = self._json()
        if self.disqualified:
            out["disqualified"] = True
        if self.landlord_wins is not None:
            out["landlord_wins"], out["best_round"] = self.landlord_wins, self.best_round
        return out

    def _json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "shared": self.shared,
            "played": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "match_points": self.match_points,
            "small_points": self.small_points,
            "levels_sum": self.levels_sum,
            "deal_points": self.deal_points,
            "buchholz": self.buchholz,
            "head_to_head": self.head_to_head,
            "lots": self.lots,
        }


@dataclass(frozen=True, slots=True)
class Standings:
    rows: tuple[StandingRow, ...]
    tie_breakers: tuple[str, ...]
    lots_seed: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "tie_breakers": list(self.tie_breakers),
            "lots_seed": self.lots_seed,
            "rows": [row.to_json() for row in self.rows],
        }


class _Context:
    """What group metrics need: every entrant's totals and the lots."""

    __slots__ = ("lots", "tallies")

    def __init__(self, tallies: dict[str, _Tally], lots: dict[str, int] | None) -> None:
        self.tallies = tallies
        self.lots = lots


def _head_to_head(group: Sequence[str], context: _Context) -> dict[str, int]:
    """Match points each entrant earned against the others of ``group`` (the entrants still tied)."""
    members = set(group)
    tallies = context.tallies
    out: dict[str, int] = {}
    for entrant in group:
        tally = tallies[entrant]
        out[entrant] = sum(
            points for opponent, points in zip(tally.opponents, tally.earned, strict=True) if opponent in members
        )
    return out


def _met_within(group: Sequence[str], context: _Context) -> set[str]:
    """The entrants of ``group`` that met at least one other of it (head-to-head says something of them)."""
    members = set(group)
    return {
        entrant
        for entrant in group
        if any(opponent in members and opponent != entrant for opponent in context.tallies[entrant].opponents)
    }


def _lots(group: Sequence[str], context: _Context) -> dict[str, int]:
    lots = context.lots
    assert lots is not None
    return {entrant: -lots[entrant] for entrant in group}  # lot 1 ranks first


METRICS: Mapping[str, Metric] = {
    "match_points": Metric("match_points", "Match points", "场分", total="match_points"),
    "small_points": Metric("small_points", "Small points", "小分", total="small_points"),
    "levels_sum": Metric("levels_sum", "Levels reached", "级数和", total="levels_sum"),
    "deal_points": Metric("deal_points", "Deal points", "局分", total="deal_points"),
    "head_to_head": Metric("head_to_head", "Head-to-head", "相互胜负", of_group=_head_to_head),
    "buchholz": Metric("buchholz", "Opponents' match points", "对手分", total="buchholz"),
    "wins": Metric("wins", "Wins", "胜场", total="wins"),
    "lots": Metric("lots", "Drawing lots", "抽签", of_group=_lots),
}
"""Every tie-breaker by name (docs/rules.md §5)."""

assert tuple(METRICS) == TIE_BREAKERS, "options.TIE_BREAKERS and the metric registry must agree"


def _aggregate(
    entrants: Iterable[str] | None, results: Sequence[MatchRecord], options: RuleOptions
) -> dict[str, _Tally]:
    # A 5,000-pair stage's results are totalled every few seconds while they come in (the public
    # standings): the loop keeps what it reads in local names and looks each entrant up once.
    tallies: dict[str, _Tally] = {}
    if entrants is not None:
        for entrant in entrants:
            if entrant in tallies:
                raise bad_input(f"Entrant {entrant!r} is listed twice.", f"参赛者 {entrant!r} 重复。")
            tallies[entrant] = _Tally()
    closed = entrants is not None
    mp = options.match_points
    win, draw, loss = mp.win, mp.draw, mp.loss
    base = 13 if options.small_points is SmallPoints.SPLIT_13 else 0
    margin = options.forfeit_margin
    bye_result, bye_margin = options.bye_result, options.bye_margin
    seen: set[tuple[int, str]] = set()
    ns_side = Side.NS

    def tally(entrant: str, round_number: int) -> _Tally:
        key = (round_number, entrant)
        if key in seen:
            raise bad_input(
                f"Entrant {entrant!r} has two results in round {round_number}.",
                f"参赛者 {entrant!r} 在第 {round_number} 轮有两个成绩。",
            )
        seen.add(key)
        found = tallies.get(entrant)
        if found is None:
            if closed:
                raise bad_input(
                    f"Entrant {entrant!r} in round {round_number} is not in the list of entrants.",
                    f"第 {round_number} 轮的参赛者 {entrant!r} 不在参赛名单中。",
                )
            found = tallies[entrant] = _Tally()
        return found

    for result in results:
        ns, ew, round_number = result.ns, result.ew, result.round
        a = tally(ns, round_number)
        if ew is None:  # a bye (轮空)
            a.byes += 1
            if bye_result is ByeResult.WIN:
                a.wins += 1
                a.match_points += win
                a.small_points += base + bye_margin
            elif bye_result is ByeResult.DRAW:
                a.draws += 1
                a.match_points += draw
                a.small_points += base
            else:
                a.losses += 1
                a.match_points += loss
                a.small_points += base - bye_margin
            continue
        if ew == ns:
            raise bad_input(
                f"Entrant {ns!r} cannot play itself (round {round_number}).",
                f"参赛者 {ns!r} 不能与自己比赛（第 {round_number} 轮）。",
            )
        b = tally(ew, round_number)
        a.played += 1
        b.played += 1
        a.opponents.append(ew)
        b.opponents.append(ns)
        if result.double_forfeit:  # both lose (docs/rules.md §5)
            a.losses += 1
            b.losses += 1
            a.match_points += loss
            b.match_points += loss
            a.small_points += base - margin
            b.small_points += base - margin
            a.earned.append(loss)
            b.earned.append(loss)
            continue
        winner = result.winner
        forfeit = result.forfeit
        if forfeit is not None:
            winner = forfeit.other
            a_diff = margin if winner is ns_side else -margin
        else:
            ns_level, ew_level = result.levels
            if result.passed_a and winner is not None:  # a passed A counts as 15 (docs/rules.md §5)
                if winner is ns_side:
                    ns_level = PASSED_A_VALUE
                else:
                    ew_level = PASSED_A_VALUE
            a_diff = ns_level - ew_level
            a.levels_sum += ns_level
            b.levels_sum += ew_level
            points = result.points
            if points is not None:
                a.deal_points += points[0]
                b.deal_points += points[1]
        a.small_points += base + a_diff
        b.small_points += base - a_diff
        if winner is None:
            a.draws += 1
            b.draws += 1
            a_points = b_points = draw
        elif winner is ns_side:
            a.wins += 1
            b.losses += 1
            a_points, b_points = win, loss
        else:
            b.wins += 1
            a.losses += 1
            a_points, b_points = loss, win
        a.match_points += a_points
        b.match_points += b_points
        a.earned.append(a_points)
        b.earned.append(b_points)

    for entrant_tally in tallies.values():
        entrant_tally.buchholz = sum([tallies[opponent].match_points for opponent in entrant_tally.opponents])
    return tallies


def _split(group: list[str], values: Mapping[str, Any]) -> list[list[str]]:
    """``group`` ordered by value, highest first, cut into runs of equal value (stable: input order
    breaks nothing, it only keeps the output reproducible)."""
    ordered = sorted(group, key=values.__getitem__, reverse=True)
    runs: list[list[str]] = []
    previous: Any = object()
    for entrant in ordered:
        value = values[entrant]
        if runs and value == previous:
            runs[-1].append(entrant)
        else:
            runs.append([entrant])
            previous = value
    return runs


def rank(
    *,
    entrants: Sequence[str] | None = None,
    results: Sequence[MatchRecord],
    options: RuleOptions,
    lots_seed: int | None = None,
    disqualified: Collection[str] = (),
) -> Standings:
    """Rank entrants by ``options.tie_breakers`` in order (docs/rules.md §5).

    Consecutive per-entrant metrics are applied as one composite sort; group metrics (head-to-head,
    lots) are applied to each group still tied at that point. Entrants equal on every metric share the
    rank of the first of them.

    A disqualified entrant (``disqualified``, or the side a result's disqualification names) is ranked
    below every other, marked (docs/rules.md §7); its results stand for its opponents, so their match
    points, small points and Buchholz are unchanged. Several disqualified entrants keep their order among
    themselves.
    """
    if options.is_doudizhu:
        raise bad_input(
            "Dou Dizhu ranks individuals by points, deals won, deals won as landlord and best round "
            "(scoring.doudizhu_standings.rank_players), not pairs by match results.",
            "斗地主按个人积分、胜局、地主胜局、单轮最高分排名（scoring.doudizhu_standings），不按对局结果排名。",
        )
    tallies = _aggregate(entrants, results, options)
    ids = sorted(tallies)
    lots: dict[str, int] | None = None
    if lots_seed is not None:
        shuffled = list(ids)
        random.Random(lots_seed).shuffle(shuffled)
        lots = {entrant: number for number, entrant in enumerate(shuffled, 1)}
    context = _Context(tallies, lots)
    head_to_head: dict[str, int] = {}
    lots_used: dict[str, int] = {}
    groups: list[list[str]] = [ids] if ids else []
    order = list(options.tie_breakers)
    index = 0
    while index < len(order):
        metric = METRICS[order[index]]
        if metric.total is not None:
            totals: list[str] = []
            while index < len(order) and (total := METRICS[order[index]].total) is not None:
                totals.append(total)
                index += 1
            # Their totals in one read (a value, or a tuple of several), and only of the entrants
            # still tied: an entrant alone in its group needs no key.
            read = attrgetter(*totals)
            refined: list[list[str]] = []
            for group in groups:
                if len(group) == 1:
                    refined.append(group)
                else:
                    refined.extend(_split(group, {entrant: read(tallies[entrant]) for entrant in group}))
            groups = refined
            continue
        index += 1
        if metric.name == "lots" and lots is None:
            continue  # no seed: full ties stay shared until the organiser draws lots
        assert metric.of_group is not None
        refined = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            values = metric.of_group(group, context)
            if metric.name == "head_to_head":
                met = _met_within(group, context)  # a pair that met none of them shows none
                head_to_head.update({entrant: value for entrant, value in values.items() if entrant in met})
            else:
                lots_used.update({entrant: -value for entrant, value in values.items()})
            refined.extend(_split(group, values))
        groups = refined

    out = set(disqualified) | {entrant for record in results if (entrant := record.disqualified_entrant)}
    if out:  # ranked last, in their own order (docs/rules.md §7)
        groups = [kept for group in groups if (kept := [e for e in group if e not in out])] + [
            last for group in groups if (last := [e for e in group if e in out])
        ]
    rows: list[StandingRow] = []
    position = 1
    for group in groups:
        shared = len(group) > 1
        for entrant in group:
            t = tallies[entrant]
            rows.append(
                StandingRow(
                    rank=position,
                    entrant=entrant,
                    shared=shared,
                    played=t.played,
                    wins=t.wins,
                    draws=t.draws,
                    losses=t.losses,
                    byes=t.byes,
                    match_points=t.match_points,
                    small_points=t.small_points,
                    levels_sum=t.levels_sum,
                    deal_points=t.deal_points,
                    buchholz=t.buchholz,
                    head_to_head=head_to_head.get(entrant),
                    lots=lots_used.get(entrant),
                    disqualified=entrant in out,
                )
            )
        position += len(group)
    return Standings(tuple(rows), tuple(options.tie_breakers), lots_seed)


def assign_tiers(*, standings: Standings, tiers: Sequence[tuple[str, int]]) -> dict[str, str]:
    """Prize tiers from the final ranking (docs/rules.md §4; seed 003: 1st 1 pair, 2nd 2 pairs, 3rd 3 pairs,
    then 优胜者): ``tiers`` are (name, number of entrants), best first. Entrant → tier name.

    A shared rank that straddles a tier boundary cannot be split fairly: that is a ``bad_input`` error
    asking for lots to be drawn.
    """
    return tiers_by_rank(ranked=[(row.entrant, row.rank) for row in standings.rows], tiers=tiers)


def tiers_by_rank(*, ranked: Sequence[tuple[str, int]], tiers: Sequence[tuple[str, int]]) -> dict[str, str]:
    """Prize tiers over any ranking in order, ``ranked`` being (entrant, rank) best first: the pairs'
    (:func:`assign_tiers`) or the teams' (``scoring.teams.assign_team_tiers``, docs/rules.md §11).
    A shared rank across a tier boundary is a ``bad_input`` error asking for lots."""
    awarded: dict[str, str] = {}
    position = 0
    for name, count in tiers:
        end = position + count
        if end < len(ranked) and end > 0 and ranked[end][1] == ranked[end - 1][1]:
            raise bad_input(
                f"Rank {ranked[end][1]} is shared across the boundary of tier {name!r}; draw lots first.",
                f"第 {ranked[end][1]} 名并列且跨越奖项“{name}”的名额界线，请先抽签。",
            )
        for entrant, _rank in ranked[position:end]:
            awarded[entrant] = name
        position = end
    return awarded


def prize_order(*, stages: Sequence[Standings]) -> Standings:
    """The order prize tiers are awarded in (docs/rules.md §4): the prize stage's ranking (``stages[0]``),
    then the places after it from the stage it was advanced from (``stages[1]``: its entrants who did not
    advance, in that stage's order), and so on back. Ranks go on after the last place before them; a tie
    in an earlier stage stays a tie. Every row keeps its own stage's statistics."""
    rows: list[StandingRow] = []
    seen: set[str] = set()
    for standings in stages:
        previous: StandingRow | None = None
        for row in standings.rows:
            if row.entrant in seen:
                continue
            if previous is not None and row.shared and previous.shared and row.rank == previous.rank:
                rank = rows[-1].rank
            else:
                rank = len(rows) + 1
            previous = row
            rows.append(replace(row, rank=rank))
            seen.add(row.entrant)
    first = stages[0] if stages else Standings((), (), None)
    return Standings(tuple(rows), first.tie_breakers, first.lots_seed)


def knockout_placings(
    *,
    standings: Standings,
    results: Sequence[MatchRecord],
    third_place: frozenset[str] = frozenset(),
    withdrawn: frozenset[str] = frozenset(),
) -> Standings:
    """The final ranking of a knockout stage from its (confirmed) results (docs/rules.md §4).

    ``results`` are taken as signed off; ``third_place`` names the two pairs of the third-place
    match, ``withdrawn`` the pairs that withdrew. The bracket's state is
    :func:`scoring.bracket.bracket_state`'s; see :func:`bracket_placings`.
    """

    knockout = [
        KnockoutResult(
            round=record.round,
            ns=record.ns,
            ew=record.ew,
            winner=record.winner,
            confirmed=True,
            third_place=bool(third_place) and {record.ns, record.ew} == set(third_place),
        )
        for record in results
    ]
    entrants = [row.entrant for row in standings.rows]
    state = bracket_state(entrants=entrants, results=knockout, withdrawn=withdrawn)
    return bracket_placings(standings=standings, state=state)


def bracket_placings(*, standings: Standings, state: BracketState) -> Standings:
    """A knockout's placings: how far each pair went, not its points (docs/rules.md §4).

    The champion 1st, the final's loser 2nd; with a third-place match its winner 3rd and loser
    4th; every other pair by the round it went out in, later first (pairs still in rank above all
    who are out). Pairs that went equally far share a rank; with ``standings.lots_seed`` the tie is
    broken by lots drawn with that seed (reproducible; the lot is in each row). The rows keep every
    statistic of ``standings``.
    """
    by_entrant = {row.entrant: row for row in standings.rows}
    groups: dict[tuple[int, int], list[str]] = {}
    for entrant in by_entrant:
        groups.setdefault(state.placing_key(entrant), []).append(entrant)
    rows: list[StandingRow] = []
    rng = random.Random(standings.lots_seed) if standings.lots_seed is not None else None
    order = {row.entrant: index for index, row in enumerate(standings.rows)}
    for key in sorted(groups, reverse=True):
        members = sorted(groups[key], key=order.__getitem__)
        lots: dict[str, int] = {}
        if rng is not None and len(members) > 1:
            drawn = sorted(members)
            rng.shuffle(drawn)
            lots = {entrant: number for number, entrant in enumerate(drawn, 1)}
            members = drawn
        first = len(rows) + 1
        for offset, entrant in enumerate(members):
            shared = not lots and len(members) > 1
            row = by_entrant[entrant]
            rows.append(
                StandingRow(
                    **{
                        **{name: getattr(row, name) for name in StandingRow.__dataclass_fields__},
                        "rank": first if shared else first + offset,
                        "shared": shared,
                        "lots": lots.get(entrant, row.lots),
                    }
                )
            )
    return Standings(rows=tuple(rows), tie_breakers=standings.tie_breakers, lots_seed=standings.lots_seed)


# -- JSON ---------------------------------------------------------------------------------------------

_RESULT_FIELDS = {"round", "NS", "EW", "winner", "levels", "passed_a", "points", "forfeit", "bye"}


def _pair(value: object, what: str, where: str, *, levels: bool) -> PerSide:
    if not isinstance(value, Mapping) or set(value) != {"NS", "EW"}:
        raise bad_input(
            f'{where}: {what} must look like {{"NS": …, "EW": …}}.',
            f'{where}：{what} 的格式应为 {{"NS": …, "EW": …}}。',
        )
    out = []
    for side in ("NS", "EW"):
        item = value[side]
        ok = isinstance(item, int) and not isinstance(item, bool)
        if ok and levels:
            ok = LOWEST <= item <= ACE
        if not ok:
            rule = "a level 2..14" if levels else "a whole number"
            raise bad_input(f"{where}: {what} {side} must be {rule}.", f"{where}：{what} {side} 取值无效。")
        out.append(item)
    return (out[0], out[1])


def parse_results(data: object, *, options: RuleOptions | None = None) -> list[MatchRecord]:
    """The ``results`` list of the standings JSON (see the module docstring).

    A result that cannot have happened is refused (``bad_input``, naming the result), like every other
    inconsistent input (docs/rules.md §5): a winner with fewer deal points than the loser, a draw with
    unequal points, and — in a format where the higher level wins (``options`` given, not ``best_of``,
    whose winner is the side with more games) — a winner at a lower level than the loser, or a draw at
    unequal levels. Forfeits and byes are not played, so they carry no such check."""
    if not isinstance(data, list):
        raise bad_input("'results' must be a list of match results.", "results 必须是比赛结果列表。")
    records = []
    for index, item in enumerate(data, 1):
        where = f"Result {index}"
        if not isinstance(item, Mapping):
            raise bad_input(f"{where} must be a JSON object.", f"第 {index} 个结果必须是 JSON 对象。")
        unknown = set(item) - _RESULT_FIELDS
        if unknown:
            raise bad_input(
                f"{where} has an unknown field {sorted(unknown)[0]!r}.",
                f"第 {index} 个结果有未知字段 {sorted(unknown)[0]!r}。",
            )
        round_number = item.get("round")
        if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
            raise bad_input(f"{where} needs a 'round' (1 or more).", f"第 {index} 个结果需要 round（从 1 开始）。")
        ns, ew = item.get("NS"), item.get("EW")
        bye = item.get("bye", False) is True
        if not isinstance(ns, str) or not (isinstance(ew, str) or (ew is None and bye)):
            raise bad_input(
                f"{where} needs entrant ids 'NS' and 'EW' (EW null only with \"bye\": true).",
                f"第 {index} 个结果需要参赛者 NS 和 EW（只有轮空时 EW 才能为 null）。",
            )
        if bye:
            if ew is not None:
                raise bad_input(f"{where}: a bye has no EW entrant.", f"第 {index} 个结果：轮空没有 EW 对手。")
            records.append(MatchRecord(round=round_number, ns=ns, ew=None))
            continue
        raw_winner = item.get("winner")
        winner = Side.parse(raw_winner) if raw_winner is not None else None
        forfeit_raw = item.get("forfeit")
        double = forfeit_raw == "both"
        forfeit = Side.parse(forfeit_raw) if forfeit_raw is not None and not double else None
        if forfeit is not None and winner is not None and winner is forfeit:
            raise bad_input(
                f"{where}: the side that forfeited cannot be the winner.",
                f"第 {index} 个结果：弃权的一方不能是胜方。",
            )
        levels = _pair(item["levels"], "levels", where, levels=True) if "levels" in item else (LOWEST, LOWEST)
        points = None
        if item.get("points") is not None:
            points = _pair(item["points"], "points", where, levels=False)
        passed_a = item.get("passed_a", False)
        if not isinstance(passed_a, bool):
            raise bad_input(
                f"{where}: passed_a must be true or false.",
                f"第 {index} 个结果：passed_a 必须是 true 或 false。",
            )
        if passed_a and (winner is None or levels[winner] != ACE):
            raise bad_input(
                f"{where}: passed_a needs a winner whose level is A (14).",
                f"第 {index} 个结果：过A需要胜方的级数为 A（14）。",
            )
        if forfeit is None and not double:
            _refuse_impossible(index, winner, points, levels if "levels" in item else None, options)
        records.append(
            MatchRecord(
                round=round_number,
                ns=ns,
                ew=ew,
                winner=winner,
                levels=levels,
                passed_a=passed_a,
                points=points,
                forfeit=forfeit,
                double_forfeit=double,
            )
        )
    return records


def _refuse_impossible(
    index: int, winner: Side | None, points: PerSide | None, levels: PerSide | None, options: RuleOptions | None
) -> None:
    """Refuse a played result whose winner contradicts its own points or levels (see
    :func:`parse_results`)."""
    where = f"Result {index}"
    if points is not None:
        if winner is None and points[0] != points[1]:
            raise bad_input(
                f"{where}: a draw needs equal points; got NS {points[0]}, EW {points[1]}.",
                f"第 {index} 个结果：平局双方积分必须相同；收到 NS {points[0]}、EW {points[1]}。",
            )
        if winner is not None and points[winner] < points[winner.other]:
            raise bad_input(
                f"{where}: the winner {winner.code} has fewer points ({points[winner]}) than "
                f"{winner.other.code} ({points[winner.other]}); the higher total wins (docs/rules.md §3).",
                f"第 {index} 个结果：胜方 {winner.code} 的积分（{points[winner]}）低于 {winner.other.code}"
                f"（{points[winner.other]}）；积分高者获胜（规则第 3 节）。",
            )
    if levels is None or options is None or not options.has_levels or options.games is not None:
        return
    if winner is None and levels[0] != levels[1]:
        raise bad_input(
            f"{where}: a draw needs equal levels; got NS {levels[0]}, EW {levels[1]}.",
            f"第 {index} 个结果：平局双方级数必须相同；收到 NS {levels[0]}、EW {levels[1]}。",
        )
    if winner is not None and levels[winner] < levels[winner.other]:
        raise bad_input(
            f"{where}: the winner {winner.code} is at a lower level ({levels[winner]}) than "
            f"{winner.other.code} ({levels[winner.other]}); the higher level wins (docs/rules.md §2).",
            f"第 {index} 个结果：胜方 {winner.code} 的级数（{levels[winner]}）低于 {winner.other.code}"
            f"（{levels[winner.other]}）；级数高者获胜（规则第 2 节）。",
        )


def standings_json(data: object) -> Standings:
    """The CLI's ``standings`` command (input shape in the module docstring)."""

    if not isinstance(data, Mapping):
        raise bad_input(
            'The input must be a JSON object like {"results": [...]}.',
            '输入必须是 JSON 对象，例如 {"results": [...]}。',
        )
    unknown = set(data) - {"profile", "rules", "entrants", "results", "lots_seed", "disqualified"}
    if unknown:
        raise bad_input(
            f"Unknown field {sorted(unknown)[0]!r}; standings take profile, rules, entrants, results, lots_seed, "
            "disqualified.",
            f"未知字段 {sorted(unknown)[0]!r}；可用字段：profile、rules、entrants、results、lots_seed、disqualified。",
        )
    disqualified = data.get("disqualified", [])
    if not isinstance(disqualified, list) or not all(isinstance(entrant, str) for entrant in disqualified):
        raise bad_input(
            "'disqualified' must be a list of entrant ids (text).", "disqualified 必须是参赛者编号（文字）的列表。"
        )
    options = options_for(profile=data.get("profile", "classic"), overrides=data.get("rules") or {})
    entrants = data.get("entrants")
    if entrants is not None and (
        not isinstance(entrants, list) or not all(isinstance(entrant, str) for entrant in entrants)
    ):
        raise bad_input("'entrants' must be a list of entrant ids (text).", "entrants 必须是参赛者编号（文字）的列表。")
    seed = data.get("lots_seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise bad_input("'lots_seed' must be a whole number.", "lots_seed 必须是整数。")
    if "results" not in data:
        raise bad_input("The input needs 'results' (a list).", "输入需要 results（列表）。")
    results = parse_results(data["results"], options=options)
    known = set(entrants or ()) | {e for record in results for e in (record.ns, record.ew) if e is not None}
    stranger = next((entrant for entrant in disqualified if entrant not in known), None)
    if stranger is not None:
        raise bad_input(
            f"Disqualified entrant {stranger!r} is neither listed nor in any result.",
            f"被取消资格的参赛者 {stranger!r} 不在名单或任何结果中。",
        )
    return rank(entrants=entrants, results=results, options=options, lots_seed=seed, disqualified=disqualified)
