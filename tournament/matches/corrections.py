"""Corrections of signed-off results: what depends on a match, and what its re-sign-off changes.

Results stay true after a correction (the decisions are in docs/corrections.md). A confirmed
match may have been built on: later rounds of its stage were drawn from the standings it counted
in, a later stage's entrants were advanced from those standings, a knockout's next match holds
its winner, the placings and prizes name its pairs. :func:`match_dependents` lists all of it; the
unlock page shows it before the unlock is confirmed, and the unlock records a :class:`Correction`
with the result as it was. At the re-sign-off :func:`correction_close` compares:

- a knockout winner changed and the matches of later rounds holding the two pairs have not
  started: the two pairs change places there (the bracket follows; ``Correction.changes``);
- one of them has started (deals entered or a result): the sign-off is refused
  (``successor_started``) — the next match was played by the pair the old result sent there,
  and silently replacing it would make the bracket and the played match disagree;
- a later stage's advancement is re-checked after the commit by the draw app
  (``tournament.draw.advancement_flags``), which flags it "advancement changed".

A match reopened for correction never restarts its clock (``Match.reopened_at``; the clock
skips it): the correction replays what was played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.audit import history_author
from tournament.matches.errors import MatchRefused
from tournament.matches.models import (
    Correction,
    CorrectionStatus,
    Match,
    MatchStatus,
    Round,
    RoundEntry,
    Stage,
    StageFormat,
)
from tournament.matches.signals import correction_opening, match_dependents_read
from tournament.people import Actor, signed_in


@dataclass(frozen=True, slots=True)
class DependentMatch:
    match_id: int
    round_number: int
    table: int | None
    pairs: tuple[str, ...]
    started: bool


@dataclass(frozen=True, slots=True)
class DependentStage:
    stage_id: int
    name: str
    drawn: bool
    """The stage has rounds (its draw was made from the advanced pairs)."""


@dataclass(frozen=True, slots=True)
class MatchDependents:
    """What was built on a confirmed match, as the unlock page lists it."""

    stage_name: str
    later_rounds: tuple[int, ...] = ()
    """Numbers of the rounds of the same stage drawn after this match's round (Swiss, round robin)."""
    later_stages: tuple[DependentStage, ...] = ()
    """Stages whose entrants were advanced from this match's stage."""
    successors: tuple[DependentMatch, ...] = ()
    """A knockout's matches of later rounds holding either pair of this match."""
    placings_decided: bool = False
    """The stage's placings are decided (a knockout's final signed off; the event finished)."""
    exports: int = 0
    """Workbooks and sheets exported since this match was signed off."""
    prize_tiers: int = 0
    """Prize tiers of the event (they name pairs by the placings)."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def any(self) -> bool:
        """Anything beyond the stage's own standings depends on the match."""
        return bool(self.later_rounds or self.later_stages or self.successors or self.placings_decided)

    @property
    def successor_started(self) -> bool:
        return any(item.started for item in self.successors)

    def to_json(self) -> dict[str, Any]:
        return {
            "stage": self.stage_name,
            "later_rounds": list(self.later_rounds),
            "later_stages": [{"id": s.stage_id, "name": s.name, "drawn": s.drawn} for s in self.later_stages],
            "successors": [
                {"match": m.match_id, "round": m.round_number, "table": m.table, "started": m.started}
                for m in self.successors
            ],
            "placings_decided": self.placings_decided,
            "exports": self.exports,
            "prize_tiers": self.prize_tiers,
        }


def _started(match: Match) -> bool:
    """Played at all: a result, a deal or an adjustment (a late arrival is recorded before deal 1)."""
    return match.status != MatchStatus.PENDING or match.deals.exists() or match.adjustments.exists()


def _successors(match: Match) -> list[Match]:
    """Matches of later rounds of the knockout that hold either pair of ``match``."""
    if match.round.stage.format != StageFormat.KNOCKOUT or match.ew_pair_id is None:
        return []
    pairs = (match.ns_pair_id, match.ew_pair_id)
    return list(
        Match.objects.filter(round__stage_id=match.round.stage_id, round__number__gt=match.round.number)
        .filter(Q(ns_pair_id__in=pairs) | Q(ew_pair_id__in=pairs))
        .select_related("round", "table", "ns_pair", "ew_pair")
        .order_by("round__number", "bracket_slot", "id")
    )


def _dependent(item: Match, *, started: bool) -> DependentMatch:
    return DependentMatch(
        match_id=item.pk,
        round_number=item.round.number,
        table=item.table.number if item.table else None,
        pairs=tuple(str(pair) for pair in (item.ns_pair, item.ew_pair) if pair is not None),
        started=started,
    )


def match_dependents(*, match: Match) -> MatchDependents:
    """Everything derived from ``match``'s result beyond its own stage's standings: later rounds and
    stages and a knockout's next matches here, and what the apps above answer to
    ``match_dependents_read`` (placings decided: the standings; exports and prizes: the exports)."""
    stage = match.round.stage
    later = Round.objects.filter(stage=stage, number__gt=match.round.number).order_by("number")
    later_rounds = tuple(later.values_list("number", flat=True))
    later_stages = []
    for later_stage in Stage.objects.filter(tournament_id=stage.tournament_id, order__gt=stage.order).order_by("order"):
        if later_stage.settings.advanced_from(stage.pk):
            later_stages.append(DependentStage(later_stage.pk, later_stage.name, later_stage.rounds.exists()))
    successors = tuple(_dependent(item, started=_started(item)) for item in _successors(match))
    answers: dict[str, Any] = {}
    for _receiver, answer in match_dependents_read.send(sender=Match, match=match):
        if isinstance(answer, dict):  # a receiver answers a dict, or None for nothing
            answers.update(answer)
    return MatchDependents(
        stage_name=stage.name,
        later_rounds=later_rounds,
        later_stages=tuple(later_stages),
        successors=successors,
        **answers,
    )


def _result_of(match: Match) -> dict[str, Any]:
    winner = match.ns_pair_id if match.winner == "NS" else match.ew_pair_id if match.winner == "EW" else None
    snapshot = match.snapshot
    return {
        "winner": winner,
        "reason": match.result_reason,
        "levels": snapshot.levels.to_json() if snapshot.levels is not None else None,
        "points": snapshot.points.to_json() if snapshot.points is not None else None,
    }


def correction_open(*, match: Match, reason: str, user: Actor | None, dependents: MatchDependents) -> Correction:
    """Record the unlock of ``match`` (inside ``match_unlock``'s transaction, on the locked row,
    before it is reopened: the later rounds' standings are those they were drawn from)."""
    before = _result_of(match)
    for _receiver, kept in correction_opening.send(sender=Match, match=match):
        if isinstance(kept, dict):  # a receiver answers a dict, or None for nothing
            before.update(kept)
    row = Correction(
        match=match,
        reason=reason,
        opened_by=signed_in(user),
        opened_at=timezone.now(),
        before=before,
        dependents=dependents.to_json(),
    )
    history_author(row, user, reason)
    row.save()
    return row


def _flip(later: Match) -> None:
    later.ns_pair_id, later.ew_pair_id = later.ew_pair_id, later.ns_pair_id
    later.save(update_fields=["ns_pair", "ew_pair"])


def _move_pairs(moves: list[tuple[Match, int, int]], *, user: Actor | None, reason: str) -> None:
    """In not-started matches of later rounds, each ``(match, one, other)``: ``other`` takes the
    place of ``one``. Done so that no row ever breaks "a pair once per round and side" (the
    constraints are checked row by row): a match that would collide has its sides swapped for the
    move, then back; the round's entries are rebuilt from the matches."""
    flipped: list[Match] = []
    for later, one, other in moves:
        side = "ns_pair_id" if later.ns_pair_id == one else "ew_pair_id"
        for holder, _one, _other in moves:
            if holder.pk != later.pk and getattr(holder, side) == other:
                _flip(holder)
                flipped.append(holder)
        setattr(later, side, other)
        later.save(update_fields=["ns_pair", "ew_pair"])
    for holder in flipped:
        holder.refresh_from_db(fields=["ns_pair", "ew_pair"])
        _flip(holder)
    ids = [later.pk for later, _one, _other in moves]
    RoundEntry.objects.filter(match_id__in=ids).delete()
    for later, _one, _other in moves:
        later.refresh_from_db(fields=["ns_pair", "ew_pair", "version"])
        later.version += 1
        history_author(later, user, reason)
        later.save(update_fields=["ns_pair", "ew_pair", "version"])
    RoundEntry.objects.bulk_create(
        RoundEntry(round_id=later.round_id, pair_id=pair, match=later, side=side)
        for later, _one, _other in moves
        for pair, side in ((later.ns_pair_id, "NS"), (later.ew_pair_id, "EW"))
        if pair is not None
    )


def _third_place_follows(moves: list[tuple[Match, int, int]], *, user: Actor | None, reason: str) -> None:
    """A knockout re-drawn every round knows its third-place match by the pairs its draw marked
    (``third_place_pairs`` of its draw record): a pair moved out of that match is moved out of the record
    too, before the move (a fixed bracket's is its final round's second match, which no move changes)."""
    for later, one, other in moves:
        round_ = Round.objects.select_for_update(of=("self",)).get(pk=later.round_id)
        settings = round_.draw_settings
        pairs = settings.third_place_pairs
        if pairs and set(pairs) == {later.ns_pair_id, later.ew_pair_id}:
            followed = tuple(other if pair == one else pair for pair in pairs)
            round_.draw_options = settings.with_values(third_place_pairs=followed).to_stored()
            history_author(round_, user, reason)
            round_.save(update_fields=["draw_options"])


def correction_close(*, match: Match, user: Actor | None) -> Correction | None:
    """At the re-sign-off of ``match`` (inside ``match_sign_off``'s transaction): compare with the
    result it was unlocked with, make the knockout's later matches follow or refuse, close the
    correction. Returns the closed correction, or None when the match was never unlocked."""
    row = (
        Correction.objects.select_for_update()
        .filter(match=match, status=CorrectionStatus.OPEN)
        .order_by("-opened_at")
        .first()
    )
    if row is None:
        return None
    after = _result_of(match)
    old, new = row.before.get("winner"), after["winner"]
    # what was recorded while it was open (a next match cleared) stays with what the sign-off finds
    changes: dict[str, Any] = {**row.changes, "after": after, "winner_changed": old != new}
    if old != new and old is not None and new is not None:
        successors = _successors(match)
        started = [item for item in successors if _started(item)]
        if started:
            first = started[0]
            raise MatchRefused(
                "successor_started",
                _(
                    "The winner changes, but the next match (round %(round)d, table %(table)s) has started: "
                    "restore the result, or clear that match first."
                )
                % {"round": first.round.number, "table": first.table.number if first.table else "—"},
            )
        reason = _("Bracket follows the correction of match %(match)d") % {"match": match.pk}
        # Each later match of the old winner now holds the new winner, and the other way round
        # (a semi-final's loser plays for third).
        moves = []
        for later in successors:
            holds = {later.ns_pair_id, later.ew_pair_id}
            if old in holds and new in holds:
                continue
            if old in holds:
                moves.append((later, old, new))
            elif new in holds:
                moves.append((later, new, old))
        with transaction.atomic():
            _third_place_follows(moves, user=user, reason=reason)
            _move_pairs(moves, user=user, reason=reason)
        changes["bracket_followed"] = [later.pk for later, _one, _other in moves]
    row.status = CorrectionStatus.CLOSED
    row.closed_at = timezone.now()
    row.changes = changes
    history_author(row, user)
    row.save(update_fields=["status", "closed_at", "changes"])
    return row


def match_open_correction(*, match: Match) -> Correction | None:
    return match.corrections.filter(status=CorrectionStatus.OPEN).first()


def correction_started_successors(*, match: Match) -> tuple[DependentMatch, ...]:
    """While ``match`` (a knockout's) is reopened for correction: the later matches holding its
    pairs that have started — if its winner changes they refuse the sign-off
    (``successor_started``) until cleared (``tournament.matches.clearing.match_clear``)."""
    if match.reopened_at is None or match.round.stage.format != StageFormat.KNOCKOUT:
        return ()
    return tuple(_dependent(item, started=True) for item in _successors(match) if _started(item))
