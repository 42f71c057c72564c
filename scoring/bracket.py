"""The state of a knockout (淘汰赛) bracket from its drawn matches (docs/rules.md §4, seeds 003 and 004).

One answer to "who is still in, who plays for third, who is champion, how far did each pair go",
for a fixed bracket and for a knockout re-drawn every round alike; the public bracket, the next
round's draw, the placings, prizes, the API and the workbook all ask :func:`bracket_state`.

The rules it applies:

- **Only a confirmed (signed-off) result decides.** An entered result awaiting sign-off (待确认)
  moves nobody on, eliminates nobody and names no champion. A bye (轮空) is decided by the draw.
- **Losers are out** in the round they lost. A bye never eliminates.
- **A match lost by both** (a confirmed result with no winner: a double forfeit, or a self-scheduled
  match not reported by its deadline) puts both pairs out in that round and decides the match: the
  round is not left pending, and the pair that would have met its winner next gets a bye
  (docs/rules.md §7; seed 004 逾期未进行比赛或者未上报结果的，将视为两组选手放弃比赛).
- **A withdrawn pair forfeits as a pair** (seed 004): in a match it has not played it loses by
  walkover; a withdrawn pair the draw left out (its opponent got the walkover as a bye-like row, or
  a re-draw no longer drew it) is out in the round after the last one it appears in. So when a
  finalist withdraws, the other finalist is champion and the withdrawn pair 2nd.
- **The third-place match** is the one the draw marked so, or else a match between two pairs that
  both lost in the round before (an entered result is enough to *recognise* it). Its winner is 3rd,
  its loser 4th; a third-place walkover (one pair, no opponent) makes the present pair 3rd. It is
  never a round of its own, nor a step of the main bracket.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from scoring.seats import Side

__all__ = ["BracketState", "KnockoutResult", "bracket_state"]


@dataclass(frozen=True, slots=True, kw_only=True)
class KnockoutResult:
    """One drawn match of a knockout as the bracket needs it. ``ew`` None: a bye (or a walkover
    written as one). ``winner`` is the entered winner; it counts only when ``confirmed``."""

    round: int
    ns: str
    ew: str | None
    winner: Side | None = None
    confirmed: bool = False
    third_place: bool = False
    """The draw recorded this as the third-place match."""

    @property
    def bye(self) -> bool:
        return self.ew is None

    @property
    def decided_winner(self) -> str | None:
        """The pair that goes on by a confirmed result (a bye's pair), else None."""
        if self.ew is None:
            return self.ns
        if not self.confirmed or self.winner is None:
            return None
        return self.ns if self.winner is Side.NS else self.ew

    @property
    def lost_by_both(self) -> bool:
        """A confirmed result with no winner: both pairs lose (a double forfeit; docs/rules.md §7)."""
        return self.ew is not None and self.confirmed and self.winner is None

    @property
    def entered_loser(self) -> str | None:
        if self.ew is None or self.winner is None:
            return None
        return self.ew if self.winner is Side.NS else self.ns


@dataclass(frozen=True, slots=True)
class BracketState:
    """What the bracket has decided so far (confirmed results only)."""

    rounds: tuple[int, ...]
    """The drawn rounds, in order."""
    still_in: tuple[str, ...]
    """Active pairs that have not gone out, in the order of the entrants."""
    out_in: dict[str, int]
    """Pair → the round it went out in (lost, or lost by walkover having withdrawn)."""
    third_place_match: tuple[int, str] | None
    """(round, N/S pair) of the third-place match, once drawn."""
    third_place_due: tuple[str, str] | None
    """The two losing semi-finalists, when the two pairs left play the final next and both are
    still active — the pairs a re-drawn knockout puts in its third-place match."""
    champion: str | None
    third: str | None
    fourth: str | None
    pending: int = 0
    """Drawn matches (the third-place match included) neither confirmed nor a walkover."""

    def is_third_place(self, result: KnockoutResult) -> bool:
        return self.third_place_match == (result.round, result.ns)

    @property
    def complete(self) -> bool:
        return self.champion is not None

    def placing_key(self, entrant: str) -> tuple[int, int]:
        """How far ``entrant`` went, greater first: (round it went out in, or past the last round
        when still in; 1 for the third-place winner, 0 otherwise)."""
        last = self.rounds[-1] if self.rounds else 0
        if entrant == self.champion or entrant not in self.out_in:
            return (last + 2, 0) if entrant == self.champion else (last + 1, 0)
        return (self.out_in[entrant], 1 if entrant == self.third else 0)


def _loser(result: KnockoutResult) -> str | None:
    winner = result.decided_winner
    if winner is None or result.ew is None:
        return None
    return result.ew if winner == result.ns else result.ns


def bracket_state(
    *, entrants: Sequence[str], results: Sequence[KnockoutResult], withdrawn: Collection[str] = ()
) -> BracketState:
    """The bracket's state from every drawn match (see the module docstring for the rules)."""
    gone = set(withdrawn)
    known = set(entrants)
    by_round: dict[int, list[KnockoutResult]] = {}
    for result in results:
        by_round.setdefault(result.round, []).append(result)
    rounds = tuple(sorted(by_round))
    out_in: dict[str, int] = {}
    last_seen: dict[str, int] = {}
    third_match: KnockoutResult | None = None
    entered_losers: set[str] = set()
    pending = 0
    main_of_round: dict[int, list[KnockoutResult]] = {}
    for number in rounds:
        main: list[KnockoutResult] = []
        for result in by_round[number]:
            for pair in (result.ns, result.ew):
                if pair is not None:
                    last_seen[pair] = number
            pairs = {result.ns, result.ew}
            if result.third_place or (result.ew is not None and pairs <= entered_losers):
                third_match = result
                continue
            main.append(result)
        main_of_round[number] = main
        entered_losers = {loser for result in main if (loser := result.entered_loser) is not None}
        for result in main:
            if result.ew is None:
                continue
            winner = result.decided_winner
            if winner is not None:
                out_in.setdefault(result.ew if winner == result.ns else result.ns, number)
                continue
            if result.lost_by_both:  # both out; whoever would have met the winner gets a bye
                out_in.setdefault(result.ns, number)
                out_in.setdefault(result.ew, number)
                continue
            absent = [pair for pair in (result.ns, result.ew) if pair in gone]
            for pair in absent:  # not played yet: a withdrawn side loses by walkover
                out_in.setdefault(pair, number)
            if not absent:
                pending += 1
    survivors = [entrant for entrant in entrants if entrant not in out_in]
    # The final decided by a confirmed result: its winner is champion even if it withdrew since.
    won_final = survivors[0] if rounds and len(survivors) == 1 else None
    for pair in gone & known:
        if pair not in out_in and pair != won_final:  # left out of the draw after its last match
            out_in[pair] = last_seen.get(pair, 0) + 1
    still_in = tuple(entrant for entrant in entrants if entrant not in out_in and entrant not in gone)
    champion = won_final or (still_in[0] if rounds and len(still_in) == 1 else None)

    third_place_due: tuple[str, str] | None = None
    if rounds and len(still_in) == 2:
        played = [result for result in main_of_round[rounds[-1]] if result.ew is not None]
        losers = [loser for result in played if result.decided_winner and (loser := _loser(result)) is not None]
        if len(played) == 2 and len(losers) == 2 and not gone.intersection(losers):
            order = {entrant: index for index, entrant in enumerate(entrants)}
            first, second = sorted(losers, key=lambda pair: order.get(pair, len(order)))
            third_place_due = (first, second)

    third = fourth = None
    unplayed = third_match is not None and third_match.ew is not None and third_match.decided_winner is None
    if unplayed and third_match is not None and not gone.intersection((third_match.ns, third_match.ew)):
        pending += 1
    if third_match is not None:
        if third_match.ew is None:
            third = third_match.ns  # a walkover: the other losing semi-finalist withdrew
        elif (winner := third_match.decided_winner) is not None:
            third, fourth = winner, third_match.ew if winner == third_match.ns else third_match.ns
        elif (third_match.ns in gone) != (third_match.ew in gone):  # not played: a walkover
            third = third_match.ew if third_match.ns in gone else third_match.ns
            fourth = third_match.ns if third_match.ns in gone else third_match.ew
    return BracketState(
        rounds=rounds,
        still_in=still_in,
        out_in=out_in,
        third_place_match=(third_match.round, third_match.ns) if third_match is not None else None,
        third_place_due=third_place_due,
        champion=champion,
        third=third,
        fourth=fourth,
        pending=pending,
    )
