"""Dou Dizhu standings for individuals over a stage, cuts and the final table (docs/rules.md §10; seed 004).

Each player's rounds are :class:`PlayerRound` values: one per round, from their table's result
(:func:`table_rounds`, or :func:`table_rounds_from_json` for a stored ``DoudizhuResult.to_json()``), a bye
(:func:`bye_round`, ``bye_points``), or nothing when they were not drawn (eliminated players).

- **Standings** (:func:`rank_players`): cumulative points (积分) → deals won (the player's side won the
  deal) → deals won as landlord → best single round → lots (a seeded draw, reproducible: the seed and
  every lot used are in the rows). Without a seed full ties share a rank. Players eliminated by a cut rank
  below every player still in, those cut later above those cut earlier.
- **Cuts** (:func:`cut_players`, 淘汰积分最低的一部分选手): after a round keep the top K of the players still
  in, eliminate the rest. A shared rank across the boundary cannot be cut fairly: draw lots first.
- **The final** (:func:`final_ranking`, 决赛): the finalists ranked by their own points at the final
  table(s), tie-broken by their rank in the stage before.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from scoring.doudizhu import DoudizhuResult, TableEffect
from scoring.doudizhu_deals import Winner
from scoring.errors import bad_input
from scoring.options import RuleOptions
from scoring.three_seats import THREE_SEATS, ThreeSeat

__all__ = [
    "Cut",
    "PlayerRound",
    "PlayerStandingRow",
    "PlayerStandings",
    "RoundOutcome",
    "bye_round",
    "cut_players",
    "final_ranking",
    "rank_players",
    "table_rounds",
    "table_rounds_from_json",
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
    return table_rounds_from_json(
        round=round, seating={seat.value: player for seat, player in seating.items()}, result=result.to_json()
    )


def table_rounds_from_json(
    *, round: int, seating: Mapping[str, str], result: Mapping[str, Any]
) -> tuple[PlayerRound, PlayerRound, PlayerRound]:
    """The same from a stored ``DoudizhuResult.to_json()`` (what the database keeps): the points per seat,
    each deal's landlord and winner, and the forfeits among the adjustments."""
    if set(seating) != {seat.value for seat in THREE_SEATS} or len(set(seating.values())) != 3:
        raise bad_input(
            "A table seats three different players at E, S and W.", "每桌须在 E、S、W 坐三位不同的选手。"
        )
    won = dict.fromkeys(seating, 0)
    as_landlord = dict.fromkeys(seating, 0)
    for deal in result.get("deals", ()):
        landlord = deal["landlord"]
        if deal["winner"] == Winner.LANDLORD.value:
            won[landlord] += 1
            as_landlord[landlord] += 1
        else:
            for seat in ThreeSeat(landlord).others:
                won[seat.value] += 1
    counted = result.get("deals_won")
    if isinstance(counted, Mapping) and set(counted) == set(seating):
        # the fold's own count (docs/rules.md §10: under cards-left scoring the player who went out alone);
        # a table stored before the fold wrote it counted every deal for the winning side, as above
        won = {seat: int(counted[seat]) for seat in seating}
    effects = [(row.get("seat"), row.get("effect")) for row in result.get("adjustments", ())]
    forfeited = {seat for seat, effect in effects if effect == TableEffect.FORFEIT.value}
    disqualified = {seat for seat, effect in effects if effect == TableEffect.DISQUALIFIED.value}
    # a disqualification before the first deal forfeits the round as a no-show does: the table is not played
    not_played = bool(forfeited) or (bool(disqualified) and not result.get("deals"))
    points = result["points"]

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
            points=points[letter],
            deals_won=won[letter],
            landlord_wins=as_landlord[letter],
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
