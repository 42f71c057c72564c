"""A match's result as the public pages say it ("every page says exactly what happened").

A pair's own page reads its result from its own side: its score first (own : opponent), not
N/S : E/W. A forfeit (弃权, docs/rules.md §5) reads as a forfeit, never as the levels the match stood at
("2 : 2"): the side that forfeited loses, a double forfeit (no winner) is a loss for both.

Nothing here decides a result: the winner and the reason are the rules core's (``Match.snapshot``),
as the public read models (:mod:`tournament.standings.public_types`) already carry them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from django.utils.translation import gettext as _

from scoring.outcome import Reason
from tournament import labels

if TYPE_CHECKING:
    from tournament.standings.public_types import MatchPage

_DECIDED = ("finished", "confirmed")


class Decided(Protocol):
    """A public row that says how its match was decided (a draw row, a bracket box, a match page)."""

    @property
    def winner(self) -> str: ...

    @property
    def reason(self) -> str: ...


def forfeited_by(match: Decided) -> str:
    """Who forfeited a match (a public row: ``winner``, ``reason``): "NS", "EW", "both", or ""."""
    if match.reason != Reason.FORFEIT.value:
        return ""
    winner = match.winner
    if winner == "NS":
        return "EW"
    if winner == "EW":
        return "NS"
    return "both"


def forfeit_text(match: Decided) -> str:
    """ "东西弃权" / "双方弃权" ("E/W forfeit", "both forfeit"); "" when the match was played."""
    who = forfeited_by(match)
    if not who:
        return ""
    if who == "both":
        return str(_("both pairs forfeit"))
    return str(_("%(side)s forfeit") % {"side": labels.side(who)})


@dataclass(frozen=True, slots=True)
class PairResult:
    """One match from one pair's side."""

    side: str
    """Where the pair sat: "NS" or "EW"."""
    outcome: str
    """ "bye", "walkover" (the opponent withdrew: a forfeit win), "won", "lost", "draw", or "" while the
    match is not decided."""
    score: tuple[str, str] | None
    """(own, opponent): levels (2…A) or points, as shown; None before the first deal, for a bye and
    for a forfeit."""
    forfeit: str
    """ "own", "opponent", "both", or "" (played)."""

    @property
    def forfeit_text(self) -> str:
        return {
            "own": str(_("forfeit")),
            "opponent": str(_("opponents forfeit")),
            "both": str(_("both pairs forfeit")),
        }.get(self.forfeit, "")


def pair_result(match: MatchPage, pair_id: int) -> PairResult:
    """``match`` (a :class:`~tournament.standings.public_types.MatchPage`) as pair ``pair_id`` played it."""
    side = "NS" if pair_id == match.ns.pair_id else "EW"
    if match.is_bye:
        return PairResult(side=side, outcome="walkover" if match.walkover_over else "bye", score=None, forfeit="")
    who = forfeited_by(match)
    forfeit = "" if not who else "both" if who == "both" else "own" if who == side else "opponent"
    if match.status not in _DECIDED:
        outcome = ""
    elif match.winner in ("NS", "EW"):
        outcome = "won" if match.winner == side else "lost"
    else:
        outcome = "lost" if forfeit == "both" else "draw"
    score = None
    if not forfeit and match.status != "pending":
        pair = match.points or match.levels
        if pair:
            ns, ew = (str(pair[0]), str(pair[1])) if match.points else (labels.level(pair[0]), labels.level(pair[1]))
            score = (ns, ew) if side == "NS" else (ew, ns)
    return PairResult(side=side, outcome=outcome, score=score, forfeit=forfeit)
