"""The state of a knockout (淘汰赛) bracket (docs/rules.md §4 "Tournament structures", seeds 003 and 004).

One engine answers "who is still in, who plays for third, who is champion, how far did each pair go"
and "which matches does a fixed bracket play next": :func:`bracket_state` from the matches drawn so
far (a fixed bracket and a knockout re-drawn every round alike: the public bracket, the placings,
prizes, the API and the workbook ask it), and :func:`fixed_bracket_state` from a fixed bracket's
first-round positions and its confirmed winners (the draw of its next round asks it). Both decide
every match by one rule, :func:`_outcome`.

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
  its loser 4th; a third-place walkover (one pair, no opponent) makes the present pair 3rd, and a
  third-place match lost by both is decided with nobody 3rd or 4th. It is never a round of its own,
  nor a step of the main bracket. In a fixed bracket it is ``(final_round, 2)``.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scoring.errors import ErrorCode, ScoringError
from scoring.seats import Side

__all__ = [
    "BracketMatch",
    "BracketMismatch",
    "BracketState",
    "FixedBracketState",
    "KnockoutResult",
    "MatchRef",
    "bracket_state",
    "fixed_bracket_state",
]

P = TypeVar("P", bound=Hashable)
"""An entrant (a pair's id): whatever the caller names its entrants by."""

MatchRef = tuple[int, int]
"""``(round_number, bracket_match)`` of a fixed bracket, both from 1; the third-place match is
``(final_round, 2)``."""


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


@dataclass(frozen=True, slots=True)
class _Outcome(Generic[P]):
    advances: P | None
    out: tuple[P, ...]
    """The pairs the match puts out: its loser, both when lost by both, a withdrawn side's walkover."""
    decided: bool
    played: bool
    loser: P | None
    """The pair that lost it at the table (None for a bye, a walkover or a match lost by both)."""


def _outcome(ns: P | None, ew: P | None, *, confirmed: bool, winner: P | None, gone: Collection[P]) -> _Outcome[P]:
    """How one knockout match stands (docs/rules.md §4 "Tournament structures", §7 "A knockout match
    lost by both"). A confirmed result decides: its winner goes on and its loser is out; a confirmed
    result without a winner (both sides there) is lost by both, and both are out. Otherwise a match
    with both sides present waits for its result; a side missing (a bye, or nobody coming from a
    match lost by both) or withdrawn (seed 004: a pair forfeits as a pair) lets the other go on
    without playing, and the withdrawn side is out."""
    sides = tuple(pair for pair in (ns, ew) if pair is not None)
    if confirmed and len(sides) == 2 and winner is None:
        return _Outcome(None, sides, True, True, None)
    if confirmed and winner is not None and winner in sides:
        if len(sides) == 1:  # a bye confirmed with its pair: nothing played, nobody lost
            return _Outcome(winner, (), True, False, None)
        loser = sides[1] if winner == sides[0] else sides[0]
        return _Outcome(winner, (loser,), True, True, loser)
    present = [pair for pair in sides if pair not in gone]
    if len(present) == 2:
        return _Outcome(None, (), False, False, None)
    return _Outcome(present[0] if present else None, tuple(p for p in sides if p in gone), True, False, None)


def _result_outcome(result: KnockoutResult, gone: Collection[str]) -> _Outcome[str]:
    winner = None if result.winner is None else result.ns if result.winner is Side.NS else result.ew
    return _outcome(result.ns, result.ew, confirmed=result.confirmed, winner=winner, gone=gone)


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
            if result.ew is None:  # a bye is decided by the draw; it never eliminates
                continue
            outcome = _result_outcome(result, gone)
            for pair in outcome.out:  # lost by both: whoever would have met its winner gets a bye
                out_in.setdefault(pair, number)
            if not outcome.decided:
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
    if third_match is not None:
        if third_match.ew is None:
            third = third_match.ns  # a walkover: the other losing semi-finalist withdrew
        else:
            outcome = _result_outcome(third_match, gone)
            third = outcome.advances
            fourth = outcome.out[0] if len(outcome.out) == 1 else None
            if not outcome.decided:
                pending += 1
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


@dataclass(frozen=True, slots=True, kw_only=True)
class BracketMatch(Generic[P]):
    """One match of a fixed bracket whose sides are known. A side is None when nobody comes from
    it (a bye in the first round, a match lost by both, a walkover no pair was present for)."""

    round: int
    position: int
    ns: P | None
    ew: P | None
    advances: P | None
    """The pair that goes on (the third-place match: the pair placed 3rd), once decided."""
    loser: P | None
    """The pair that lost it at the table."""
    decided: bool
    played: bool
    """Played at a table (lost by both included), as opposed to a bye or a walkover."""
    third_place: bool = False

    @property
    def ref(self) -> MatchRef:
        return (self.round, self.position)

    @property
    def walkover(self) -> bool:
        """Decided without playing against a pair that was drawn there: it withdrew (seed 004)."""
        return (
            not self.played
            and self.advances is not None
            and any(side is not None and side != self.advances for side in (self.ns, self.ew))
        )


@dataclass(frozen=True, slots=True)
class FixedBracketState(Generic[P]):
    """What a fixed bracket has decided from its confirmed winners."""

    matches: Mapping[MatchRef, BracketMatch[P]]
    """Every match whose sides are known, decided or not."""
    current_round: int | None
    """The first round with an undecided match (or one whose sides are not known yet); None when
    every match, the third-place match included, is decided."""


class BracketMismatch(ScoringError):
    """Results that do not fit the bracket: ``reason`` is ``unknown_match`` (no such match),
    ``winner_not_in_match`` or ``round_not_ready`` (its sides are not known yet); ``ref`` the match."""

    def __init__(self, reason: str, ref: MatchRef, message: str, message_zh: str) -> None:
        super().__init__(ErrorCode.BAD_INPUT, message, message_zh=message_zh)
        self.reason = reason
        self.ref = ref


def fixed_bracket_state(
    *,
    slots: Sequence[P | None],
    seeds: Sequence[P],
    third_place: bool,
    winners: Mapping[MatchRef, P | None],
    withdrawn: Collection[P] = (),
) -> FixedBracketState[P]:
    """A fixed bracket's matches from its first-round positions (``slots``, a power of two, None a
    bye; positions (0, 1), (2, 3), … meet) and its confirmed results (docs/rules.md §4 "Tournament
    structures", §7 "A knockout match lost by both").

    ``winners`` maps ``(round, position)`` to the winner of every confirmed match (a bye may be
    given its pair), or to None for a match lost by both. Each match is decided by
    :func:`_outcome`: a winner goes on; a match lost by both sends nobody on, so the pair it would
    have met goes on without playing; a withdrawn pair that has not played its match loses it by
    walkover (it keeps a place it won before withdrawing). The lower seed number (``seeds``, seed 1
    first) sits N/S. With ``third_place`` and at least two rounds, the losing semi-finalists meet
    in ``(final_round, 2)`` once both semi-finals are decided; a semi-final lost by walkover or by
    both leaves a side empty there, so the other pair is 3rd without playing.

    Raises :class:`BracketMismatch` for a winner of a match the bracket does not have, a winner
    that is not one of its pairs, or a winner of a match whose sides are not known yet.
    """
    size = len(slots)
    rounds = size.bit_length() - 1
    gone = set(withdrawn)
    seed_number = {pair: number for number, pair in enumerate(seeds, start=1)}
    known = {(r, j) for r in range(1, rounds + 1) for j in range(1, (size >> r) + 1)}
    if third_place and rounds >= 2:
        known.add((rounds, 2))
    for ref in winners:
        if ref not in known:
            raise BracketMismatch(
                "unknown_match", ref, f"There is no match {ref} in this bracket.", f"该签表中没有比赛 {ref}。"
            )

    def decide(ref: MatchRef, ns: P | None, ew: P | None, third: bool = False) -> BracketMatch[P]:
        if ns is not None and ew is not None and seed_number[ew] < seed_number[ns]:
            ns, ew = ew, ns
        confirmed = ref in winners
        winner = winners.get(ref)
        fits = ns is not None and ew is not None if winner is None else winner in (ns, ew)
        if confirmed and not fits:
            raise BracketMismatch(
                "winner_not_in_match",
                ref,
                f"The winner of match {ref} must be one of its two pairs.",
                f"比赛 {ref} 的胜者必须是该场的两对之一。",
            )
        outcome = _outcome(ns, ew, confirmed=confirmed, winner=winner, gone=gone)
        return BracketMatch(
            round=ref[0],
            position=ref[1],
            ns=ns,
            ew=ew,
            advances=outcome.advances,
            loser=outcome.loser,
            decided=outcome.decided,
            played=outcome.played,
            third_place=third,
        )

    matches: dict[MatchRef, BracketMatch[P]] = {}
    sides: list[tuple[P | None, P | None] | None] = [(slots[k], slots[k + 1]) for k in range(0, size, 2)]
    current: int | None = None
    for r in range(1, rounds + 1):
        played = [None if pair is None else decide((r, j), *pair) for j, pair in enumerate(sides, start=1)]
        if r == rounds and third_place and rounds >= 2:
            semi_1, semi_2 = matches.get((r - 1, 1)), matches.get((r - 1, 2))
            if semi_1 is not None and semi_2 is not None and semi_1.decided and semi_2.decided:
                matches[(r, 2)] = decide((r, 2), semi_1.loser, semi_2.loser, third=True)
        for match in played:
            if match is not None:
                matches[match.ref] = match
        if current is None and any(match is None or not match.decided for match in played):
            current = r
        if current is None and (r, 2) in matches and not matches[(r, 2)].decided:
            current = r
        if r < rounds:
            sides = [
                (first.advances, second.advances)
                if first is not None and second is not None and first.decided and second.decided
                else None
                for first, second in zip(played[::2], played[1::2], strict=True)
            ]
    for ref in winners:
        if ref not in matches:
            raise BracketMismatch(
                "round_not_ready",
                ref,
                f"Match {ref} cannot have a result before both its pairs are known.",
                f"比赛 {ref} 的双方尚未确定，不能录入结果。",
            )
    return FixedBracketState(matches=matches, current_round=current)
