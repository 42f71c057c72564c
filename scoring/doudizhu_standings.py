"""Dou Dizhu standings for individuals over a stage, cuts and the final table (docs/rules.md §10; seed 004).

Each player's rounds are :class:`PlayerRound` values: one per round, from their table's result
(:func:`table_rounds`, or :func:`table_rounds_from_snapshot` for a stored table read back), a bye
(:func:`bye_round`, ``bye_points``), or nothing when they were not drawn (eliminated players).

- **Standings** (:func:`rank_players`): cumulative points (积分) → deals won (the player's side won the
  deal) → deals won as landlord → best single round → lots (a seeded draw, reproducible: the seed and
  every lot used are in the rows). Without a seed full ties share a rank. Players eliminated by a cut rank
  below every player still in, those cut later above those cut earlier.
- **Cuts** (:func:`cut_players`, 淘汰积分最低的一部分选手): after a round keep the top K of the players still
  in, eliminate the rest. A shared rank across the boundary cannot be cut fairly: draw lots first.
- **The final** (:func:`final_ranking`, 决赛): the finalists ranked by their own points at the final
  table(s), tie-broken by their rank in the stage before.
- **A stage** (:func:`points_stage_ranking`): its cuts applied in turn as their rounds count, or, for a
  final, the final's ranking; :func:`as_standings` gives the order every stage's standings have.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from scoring.doudizhu import DoudizhuResult
from scoring.doudizhu_snapshot import TableSnapshot
from scoring.errors import ScoringError, bad_input
from scoring.options import RuleOptions
from scoring.standings import StandingRow, Standings
from scoring.three_seats import THREE_SEATS, ThreeSeat

__all__ = [
    "TIE_BREAKERS",
    "Cut",
    "CutState",
    "PlayerRound",
    "PlayerStandingRow",
    "PlayerStandings",
    "PointsStageRanking",
    "RoundOutcome",
    "as_standings",
    "bye_round",
    "cut_players",
    "final_ranking",
    "points_stage_ranking",
    "rank_players",
    "table_rounds",
    "table_rounds_from_snapshot",
]


class RoundOutcome(str, Enum):
    """How a player's round went."""

    PLAYED = "played"
    BYE = "bye"
    """Sat out (the field was not a multiple of 3): ``bye_points``."""
    FORFEITED = "forfeited"
    """Late or absent: ``forfeit_points``."""
    TABLE_FORFEITED = "table_forfeited"
    """Another player at the table forfeited: ``bye_points``, the table not played."""
    DISQUALIFIED = "disqualified"
    """Disqualified by the chief referee (docs/rules.md §7): ranked last, marked."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerRound:
    """One player's round: their points and the deals their side won (as landlord too)."""

    round: int
    player: str
    points: int
    deals_won: int = 0
    landlord_wins: int = 0
    outcome: RoundOutcome = RoundOutcome.PLAYED

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "player": self.player,
            "points": self.points,
            "deals_won": self.deals_won,
            "landlord_wins": self.landlord_wins,
            "outcome": self.outcome.value,
        }


def table_rounds(
    *, round: int, seating: Mapping[ThreeSeat, str], result: DoudizhuResult
) -> tuple[PlayerRound, PlayerRound, PlayerRound]:
    """The three players' rounds at a table (``seating``: seat → player) from its result."""
    return table_rounds_from_snapshot(
        round=round,
        seating={seat.value: player for seat, player in seating.items()},
        snapshot=TableSnapshot.from_json(result.to_json()),
    )


def table_rounds_from_snapshot(
    *, round: int, seating: Mapping[str, str], snapshot: TableSnapshot
) -> tuple[PlayerRound, PlayerRound, PlayerRound]:
    """The same from a stored table read back (:class:`scoring.doudizhu_snapshot.TableSnapshot`, the one
    reader of what the database keeps): the points per seat, the deals won (as landlord too) and the
    forfeits and disqualifications among the adjustments (docs/rules.md §10)."""
    if set(seating) != {seat.value for seat in THREE_SEATS} or len(set(seating.values())) != 3:
        raise bad_input("A table seats three different players at E, S and W.", "每桌须在 E、S、W 坐三位不同的选手。")
    forfeited, disqualified = set(snapshot.forfeited), set(snapshot.disqualified)
    # a disqualification before the first deal forfeits the round as a no-show does: the table is not played
    not_played = bool(forfeited) or (bool(disqualified) and not snapshot.deals)

    def one(seat: ThreeSeat) -> PlayerRound:
        letter = seat.value
        if letter in disqualified:
            outcome = RoundOutcome.DISQUALIFIED
        elif not_played:
            outcome = RoundOutcome.FORFEITED if letter in forfeited else RoundOutcome.TABLE_FORFEITED
        else:
            outcome = RoundOutcome.PLAYED
        return PlayerRound(
            round=round,
            player=seating[letter],
            points=snapshot.points_of(letter),
            deals_won=snapshot.deals_won(letter),
            landlord_wins=snapshot.landlord_wins(letter),
            outcome=outcome,
        )

    return (one(ThreeSeat.E), one(ThreeSeat.S), one(ThreeSeat.W))


def bye_round(*, round: int, player: str, options: RuleOptions) -> PlayerRound:
    """A bye (轮空) when the field is not a multiple of 3: ``bye_points`` (docs/rules.md §10)."""
    return PlayerRound(round=round, player=player, points=options.bye_points, outcome=RoundOutcome.BYE)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerStandingRow:
    rank: int
    player: str
    shared: bool
    """The rank is shared (a full tie not broken by lots)."""
    rounds: int
    points: int
    deals_won: int
    landlord_wins: int
    best_round: int | None
    """The player's best single round (None before their first)."""
    byes: int
    forfeits: int
    lots: int | None
    """The lot drawn when it was needed (the ``lots`` metric)."""
    eliminated_after_round: int | None = None
    """The round after whose cut the player was eliminated (None: still in)."""
    stage_rank: int | None = None
    """In a final ranking: the player's rank in the stage before (the tie-break)."""
    disqualified: bool = False
    """Disqualified by the chief referee: ranked below every other player (docs/rules.md §7)."""

    def to_json(self) -> dict[str, Any]:
        """The row; ``"disqualified": true`` is added only for a disqualified player."""
        out = self._json()
        if self.disqualified:
            out["disqualified"] = True
        return out

    def _json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player,
            "shared": self.shared,
            "rounds": self.rounds,
            "points": self.points,
            "deals_won": self.deals_won,
            "landlord_wins": self.landlord_wins,
            "best_round": self.best_round,
            "byes": self.byes,
            "forfeits": self.forfeits,
            "lots": self.lots,
            "eliminated_after_round": self.eliminated_after_round,
            "stage_rank": self.stage_rank,
        }


@dataclass(frozen=True, slots=True)
class PlayerStandings:
    rows: tuple[PlayerStandingRow, ...]
    lots_seed: int | None

    def row(self, player: str) -> PlayerStandingRow:
        for row in self.rows:
            if row.player == player:
                return row
        raise bad_input(f"Player {player!r} is not in these standings.", f"选手 {player!r} 不在此排名中。")

    def to_json(self) -> dict[str, Any]:
        return {"lots_seed": self.lots_seed, "rows": [row.to_json() for row in self.rows]}


class _Tally:
    __slots__ = ("best", "byes", "disqualified", "forfeits", "landlord_wins", "points", "rounds", "won")

    def __init__(self) -> None:
        self.rounds = self.points = self.won = self.landlord_wins = self.byes = self.forfeits = 0
        self.best: int | None = None
        self.disqualified = False


def _tally(players: Sequence[str] | None, rounds: Sequence[PlayerRound]) -> dict[str, _Tally]:
    tallies: dict[str, _Tally] = {}
    for player in players or ():
        if player in tallies:
            raise bad_input(f"Player {player!r} is listed twice.", f"选手 {player!r} 重复。")
        tallies[player] = _Tally()
    seen: set[tuple[int, str]] = set()
    for item in rounds:
        key = (item.round, item.player)
        if key in seen:
            raise bad_input(
                f"Player {item.player!r} has two results in round {item.round}.",
                f"选手 {item.player!r} 在第 {item.round} 轮有两个成绩。",
            )
        seen.add(key)
        tally = tallies.get(item.player)
        if tally is None:
            if players is not None:
                raise bad_input(
                    f"Player {item.player!r} in round {item.round} is not in the list of players.",
                    f"第 {item.round} 轮的选手 {item.player!r} 不在参赛名单中。",
                )
            tally = tallies[item.player] = _Tally()
        tally.rounds += 1
        tally.points += item.points
        tally.won += item.deals_won
        tally.landlord_wins += item.landlord_wins
        tally.byes += item.outcome is RoundOutcome.BYE
        tally.forfeits += item.outcome is RoundOutcome.FORFEITED
        tally.disqualified |= item.outcome is RoundOutcome.DISQUALIFIED
        tally.best = item.points if tally.best is None else max(tally.best, item.points)
    return tallies


def _lots(players: Sequence[str], seed: int | None) -> dict[str, int] | None:
    """Lot numbers 1..n, the same draw as :func:`scoring.standings.rank` makes from a seed."""
    if seed is None:
        return None
    shuffled = sorted(players)
    random.Random(seed).shuffle(shuffled)
    return {player: number for number, player in enumerate(shuffled, 1)}


_MakeRow = Callable[[str, int, bool, "int | None"], PlayerStandingRow]
"""(player, rank, shared, lot) → its row."""


def _ranked(
    groups: list[list[str]], make_row: _MakeRow, lots: Mapping[str, int] | None
) -> tuple[PlayerStandingRow, ...]:
    """Rows for ``groups`` (runs of players equal on every metric, best first): a tie is broken by
    ``lots`` when drawn, else the rank is shared."""
    rows: list[PlayerStandingRow] = []
    for group in groups:
        first = len(rows) + 1
        if len(group) > 1 and lots is not None:
            for offset, player in enumerate(sorted(group, key=lots.__getitem__)):
                rows.append(make_row(player, first + offset, False, lots[player]))
        else:
            for player in sorted(group):
                rows.append(make_row(player, first, len(group) > 1, None))
    return tuple(rows)


def _runs(players: Sequence[str], key: Callable[[str], tuple[int, ...]]) -> list[list[str]]:
    """``players`` best first by ``key``, cut into runs of equal keys."""
    ordered = sorted(players, key=key, reverse=True)
    runs: list[list[str]] = []
    previous: tuple[int, ...] | None = None
    for player in ordered:
        value = key(player)
        if runs and value == previous:
            runs[-1].append(player)
        else:
            runs.append([player])
            previous = value
    return runs


def rank_players(
    *,
    players: Sequence[str] | None = None,
    rounds: Sequence[PlayerRound],
    lots_seed: int | None = None,
    eliminated_after: Mapping[str, int] | None = None,
) -> PlayerStandings:
    """A stage's standings (docs/rules.md §10): points → deals won → deals won as landlord → best single round
    → lots. ``players`` (optional) lists every entrant, even one without a round; ``eliminated_after``
    maps each player a cut eliminated to the round after which it was cut — they rank below every player
    still in, later cuts first. A player disqualified in any round (docs/rules.md §7) ranks below all of
    them, marked."""
    tallies = _tally(players, rounds)
    cut = dict(eliminated_after or {})
    for player in cut:
        if player not in tallies:
            raise bad_input(
                f"Eliminated player {player!r} has no rounds and is not in the list of players.",
                f"被淘汰的选手 {player!r} 不在参赛名单中。",
            )
    still_in = 1 << 30

    def key(player: str) -> tuple[int, int, int, int, int, int, int]:
        t = tallies[player]
        best = t.best if t.best is not None else 0
        kept = int(not t.disqualified)
        return (kept, cut.get(player, still_in), t.points, t.won, t.landlord_wins, int(t.best is not None), best)

    def make_row(player: str, rank: int, shared: bool, lot: int | None) -> PlayerStandingRow:
        t = tallies[player]
        return PlayerStandingRow(
            rank=rank,
            player=player,
            shared=shared,
            rounds=t.rounds,
            points=t.points,
            deals_won=t.won,
            landlord_wins=t.landlord_wins,
            best_round=t.best,
            byes=t.byes,
            forfeits=t.forfeits,
            lots=lot,
            eliminated_after_round=cut.get(player),
            disqualified=t.disqualified,
        )

    return PlayerStandings(_ranked(_runs(list(tallies), key), make_row, _lots(list(tallies), lots_seed)), lots_seed)


@dataclass(frozen=True, slots=True)
class Cut:
    """A cut after ``after_round``: the players kept (in ranking order) and those eliminated."""

    after_round: int
    kept: tuple[str, ...]
    eliminated: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"after_round": self.after_round, "kept": list(self.kept), "eliminated": list(self.eliminated)}


def cut_players(*, standings: PlayerStandings, keep: int, after_round: int) -> Cut:
    """Keep the top ``keep`` of the players still in after ``after_round`` and eliminate the rest (docs/rules.md
    §10, seed 004 淘汰积分最低的一部分选手). A rank shared across the boundary is a ``bad_input`` asking for lots;
    keeping at least as many as are in keeps everyone."""
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 1:
        raise bad_input(f"A cut keeps at least 1 player; got {keep!r}.", f"淘汰后至少保留 1 位选手；收到 {keep!r}。")
    rows = [row for row in standings.rows if row.eliminated_after_round is None]
    if keep < len(rows) and rows[keep].rank == rows[keep - 1].rank:
        raise bad_input(
            f"Rank {rows[keep].rank} is shared across the cut after {keep} players; draw lots first.",
            f"第 {rows[keep].rank} 名并列且跨越淘汰线（保留 {keep} 人），请先抽签。",
        )
    return Cut(
        after_round=after_round,
        kept=tuple(row.player for row in rows[:keep]),
        eliminated=tuple(row.player for row in rows[keep:]),
    )


def final_ranking(*, final: Sequence[PlayerRound], stage: PlayerStandings) -> PlayerStandings:
    """The final (决赛): the finalists ranked by their own points at the final table(s), then by their rank
    in ``stage`` (the standings before the final; docs/rules.md §10). Every finalist must be in ``stage``;
    players equal on both share the rank."""
    tallies = _tally(None, final)
    stage_rank = {player: stage.row(player).rank for player in tallies}

    def key(player: str) -> tuple[int, int]:
        return (tallies[player].points, -stage_rank[player])

    def make_row(player: str, rank: int, shared: bool, lot: int | None) -> PlayerStandingRow:
        t = tallies[player]
        return PlayerStandingRow(
            rank=rank,
            player=player,
            shared=shared,
            rounds=t.rounds,
            points=t.points,
            deals_won=t.won,
            landlord_wins=t.landlord_wins,
            best_round=t.best,
            byes=t.byes,
            forfeits=t.forfeits,
            lots=lot,
            stage_rank=stage_rank[player],
        )

    return PlayerStandings(_ranked(_runs(list(tallies), key), make_row, None), stage.lots_seed)


TIE_BREAKERS = ("points", "deals_won", "landlord_wins", "best_round", "lots")
"""A points stage's keys, in order (docs/rules.md §10)."""


@dataclass(frozen=True, slots=True)
class CutState:
    """One of a stage's cuts as it stands: ``applied`` once every table of its round counts, with how many
    players it kept and eliminated."""

    after_round: int
    keep: int
    applied: bool = False
    kept: int | None = None
    eliminated: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"after_round": self.after_round, "keep": self.keep, "applied": self.applied}
        if self.applied:
            out["kept"], out["eliminated"] = self.kept, self.eliminated
        return out


@dataclass(frozen=True, slots=True)
class PointsStageRanking:
    """A points stage's ranking (docs/rules.md §10) with the cuts that applied, or a final's."""

    players: PlayerStandings
    eliminated_after: Mapping[str, int]
    """Player → the round after whose cut they were eliminated."""
    cuts: tuple[CutState, ...] = ()
    final: bool = False
    pending_cut: str = ""
    """Why a due cut could not be made (a rank shared across it: lots first); empty when none."""
    decided: bool = False
    """A final whose every round counts: its ranking is the event's last word (the champion first), and
    nothing the stage still plays can change it (docs/rules.md §10)."""

    def still_in(self, player: str) -> bool:
        return player not in self.eliminated_after


def points_stage_ranking(
    *,
    players: Sequence[str],
    rounds: Sequence[PlayerRound],
    counted_rounds: Collection[int],
    cuts: Sequence[tuple[int, int]] = (),
    cut_lots_seeds: Mapping[int, int | None] | None = None,
    lots_seed: int | None = None,
    stage_before: PlayerStandings | None = None,
    stage_rounds: int | None = None,
) -> PointsStageRanking:
    """A points stage's ranking (docs/rules.md §10; seed 004 淘汰积分最低的一部分选手, 决赛).

    ``players``: every player of the stage (those in ``rounds`` included); ``counted_rounds``: the rounds
    whose every table counts. Each cut ``(after_round, keep)`` applies, in round order, once its round
    counts: the players ranked on the rounds up to it (the earlier cuts' players below, a tie broken by
    lots drawn with ``cut_lots_seeds[after_round]``) keep the top ``keep``; a rank shared across it stops
    the cuts (``pending_cut`` says why) until lots are drawn. The ranking is then over every round, the cut
    players below those still in (``lots_seed`` for the lots).

    ``stage_before``: for a final, the standings of the stage its players advanced from. Once the final has
    rounds and every one of its players is ranked there, the stage is ranked by :func:`final_ranking`.
    ``stage_rounds``: the rounds the stage is played over; a final is ``decided`` once each of them counts.
    """
    if stage_before is not None and rounds:
        known = {row.player for row in stage_before.rows}
        if all(item.player in known for item in rounds):
            played = (
                stage_rounds is not None and stage_rounds > 0 and set(range(1, stage_rounds + 1)) <= set(counted_rounds)
            )
            return PointsStageRanking(final_ranking(final=rounds, stage=stage_before), {}, final=True, decided=played)
    seeds = cut_lots_seeds or {}
    eliminated: dict[str, int] = {}
    states: list[CutState] = []
    pending = ""
    for after_round, keep in sorted(cuts):
        if after_round in counted_rounds and not pending:
            upto = [item for item in rounds if item.round <= after_round]
            try:
                standings = rank_players(
                    players=players, rounds=upto, lots_seed=seeds.get(after_round), eliminated_after=eliminated
                )
                cut = cut_players(standings=standings, keep=keep, after_round=after_round)
            except ScoringError as error:
                pending = error.message
            else:
                eliminated.update(dict.fromkeys(cut.eliminated, after_round))
                states.append(CutState(after_round, keep, True, len(cut.kept), len(cut.eliminated)))
                continue
        states.append(CutState(after_round, keep))
    standings = rank_players(players=players, rounds=rounds, lots_seed=lots_seed, eliminated_after=eliminated)
    return PointsStageRanking(standings, eliminated, tuple(states), pending_cut=pending)


def as_standings(players: PlayerStandings) -> Standings:
    """A points stage's ranking in the shape every stage's standings have (advancement, the next draw and
    the prizes read its order): ``match_points`` are the points (积分), ``played`` the rounds, ``wins`` the
    deals won; the deals won as landlord and the best round keep fields of their own."""
    rows = tuple(
        StandingRow(
            rank=row.rank,
            entrant=row.player,
            shared=row.shared,
            played=row.rounds,
            wins=row.deals_won,
            draws=0,
            losses=0,
            byes=row.byes,
            match_points=row.points,
            small_points=0,
            levels_sum=0,
            deal_points=0,
            buchholz=0,
            head_to_head=None,
            lots=row.lots,
            landlord_wins=row.landlord_wins,
            best_round=row.best_round,
        )
        for row in players.rows
    )
    return Standings(rows=rows, tie_breakers=TIE_BREAKERS, lots_seed=players.lots_seed)
