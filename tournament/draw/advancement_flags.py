"""A later stage after a correction of the stage it was advanced from (docs/corrections.md).

Whenever a match of a Swiss or round-robin stage is signed off — again after a correction, or for
the first time when the stage was advanced while it counted provisionally (the event counts
results awaiting sign-off, marked) — each later stage advanced from it is re-checked
(:func:`advancement_recheck`, the ``match_confirmed`` receiver): the pairs its recorded
advancement (count, overrides, lots) would advance now are compared with its entrants.

- Not drawn yet: the advancement is simply made again (nothing was built on it).
- Drawn: the stage is flagged "advancement changed" (:class:`AdvancementFlag`) on its pages, the
  API and the workbook, until the organiser chooses (:func:`advancement_flag_resolve`): **redraw**
  (only while no match of the stage has a result: its rounds are deleted and the pairs advanced
  again) or **keep** the stage as drawn, with a reason. Both are audited.
- The set is the same again (a correction undone): an open flag is closed as kept, saying so.

Later rounds of the corrected match's own Swiss stage are flagged by the same machinery
(``tournament.draw.round_flags``, kind ``round``).
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.audit import history_author, reason_clean
from tournament.draw.stages import stage_advance, stage_advancing_now, stage_cut_lots_draw
from tournament.errors import UserError
from tournament.matches.event import stage_event
from tournament.matches.models import (
    AdvancementFlag,
    AdvancementFlagKind,
    AdvancementFlagStatus,
    Correction,
    CorrectionStatus,
    Deal,
    Match,
    MatchStatus,
    Stage,
)
from tournament.people import Actor, signed_in
from tournament.registration.lifecycle import event_write
from tournament.standings.cache import public_version_bump

logger = logging.getLogger(__name__)

KEEP = "keep"
REDRAW = "redraw"


def _later_stages(stage: Stage) -> list[Stage]:
    return [
        later
        for later in Stage.objects.filter(tournament_id=stage.tournament_id, order__gt=stage.order).order_by("order")
        if later.settings.advanced_from(stage.pk)
    ]


def stage_open_advancement_flag(*, stage: Stage) -> AdvancementFlag | None:
    """The stage's open "advancement changed" flag, if any (what its pages, API and workbook show)."""
    return AdvancementFlag.objects.filter(
        stage=stage, kind=AdvancementFlagKind.ADVANCEMENT, status=AdvancementFlagStatus.OPEN
    ).first()


def _advance_again(later: Stage, source: Stage, *, user: Actor | None, reason: str) -> None:
    record = later.settings.advancement
    assert record is not None  # only a stage advanced from ``source`` is advanced again
    stage_advance(
        stage=source,
        next_stage=later,
        count=record.count,
        overrides=record.overrides,
        reason=record.reason or reason,
        user=user,
    )


def advancement_recheck(*, match: Match, user: Actor | None = None) -> list[AdvancementFlag]:
    """After ``match`` is signed off: re-advance the later stages not yet drawn, flag those drawn
    whose advancing set changed. Returns the flags opened or updated."""
    match = Match.objects.select_related("round__stage").get(pk=match.pk)
    if match.status != MatchStatus.CONFIRMED:
        return []
    source = match.round.stage
    later_stages = _later_stages(source)
    if not later_stages:
        return []
    correction = (
        Correction.objects.filter(match=match, status=CorrectionStatus.CLOSED).order_by("-closed_at", "-id").first()
    )
    flags = []
    closed = False
    for later in later_stages:
        record = later.settings.advancement
        # A full tie at the cut is a tie: the stage's lots decide it, drawn once and recorded, so the
        # flag, a redraw and the stage's pages all read the same lots (docs/rules.md §5).
        lots_seed = (
            stage_cut_lots_draw(
                stage=source,
                count=record.count,
                user=user,
                reason=f"lots drawn for a tie at the cut after a correction (match {match.pk})",
                teams=later.settings.team_match is not None,
            )
            if record is not None and record.count is not None
            else None
        )
        now = stage_advancing_now(next_stage=later)
        entrants = list(later.settings.entrants)
        if now is None:
            continue
        open_flag = stage_open_advancement_flag(stage=later)
        if set(now) == set(entrants):
            if open_flag is not None:
                open_flag.now_advancing = now
                flag_decision_record(
                    open_flag,
                    status=AdvancementFlagStatus.KEPT,
                    reason="the corrected results advance the same pairs again",
                    user=user,
                )
                closed = True
            continue
        if not later.rounds.exists():
            _advance_again(later, source, user=user, reason=f"results changed (match {match.pk})")
            if correction is not None:
                again = [*correction.changes.get("advanced_again", []), later.pk]
                correction.changes = {**correction.changes, "advanced_again": again}
                correction.save(update_fields=["changes"])
            continue
        with transaction.atomic():
            flag = open_flag or AdvancementFlag(stage=later, match=match, advanced=entrants)
            flag.match = match
            flag.correction = correction
            flag.now_advancing = now
            flag.detail = {"tie_at_cut": {"lots_seed": lots_seed}} if lots_seed is not None else {}
            history_author(flag, user, f"results changed (match {match.pk})")
            flag.save()
        flags.append(flag)
    if flags or closed:  # the public stage pages and the API say (or stop saying) "advancement changed"
        public_version_bump(tournament_id=source.tournament_id)
    return flags


def _stage_played(stage: Stage) -> bool:
    results = Match.objects.filter(round__stage=stage, ew_pair__isnull=False).exclude(status=MatchStatus.PENDING)
    return results.exists() or Deal.objects.filter(match__round__stage=stage).exists()


def flag_decision_record(flag: AdvancementFlag, *, status: str, reason: str, user: Actor | None) -> None:
    """Store the organiser's decision on ``flag`` (locked by the caller): its outcome, the reason,
    who and when, audited — a stage's flag and a round's alike."""
    flag.status = status
    flag.decision_reason = reason
    flag.decided_by = signed_in(user)
    flag.decided_at = timezone.now()
    history_author(flag, user, reason)
    flag.save()


@event_write("stage", of=stage_event)
def advancement_flag_resolve(*, stage: Stage, choice: str, reason: str, user: Actor | None) -> AdvancementFlag:
    """The organiser's answer to ``stage``'s "advancement changed" flag: ``keep`` (with a reason)
    or ``redraw`` (refused once a match of the stage has a result: ``stage_played``)."""
    with transaction.atomic():
        flag = (
            AdvancementFlag.objects.select_for_update()
            .select_related("stage")
            .filter(stage_id=stage.pk, kind=AdvancementFlagKind.ADVANCEMENT, status=AdvancementFlagStatus.OPEN)
            .first()
        )
        if flag is None or flag.status != AdvancementFlagStatus.OPEN:
            raise UserError("not_flagged", _("This advancement is not flagged any more."), status=409)
        reason = reason_clean(reason, required=True)
        stage = flag.stage
        if choice == REDRAW:
            if _stage_played(stage):
                raise UserError(
                    "stage_played",
                    _("Matches of this stage have results: it can no longer be drawn again. Keep it, with a reason."),
                    status=409,
                )
            advancement = stage.settings.advancement
            assert advancement is not None  # a stage flagged for its advancement was advanced
            source = Stage.objects.get(pk=advancement.from_stage)
            for round_ in stage.rounds.order_by("-number"):
                history_author(round_, user, reason)
                round_.delete()
            stage.options = stage.settings.with_values(bracket_record=None).to_stored()
            history_author(stage, user, reason)
            stage.save(update_fields=["options"])
            _advance_again(stage, source, user=user, reason=reason)
            flag_decision_record(flag, status=AdvancementFlagStatus.REDRAWN, reason=reason, user=user)
        elif choice == KEEP:
            flag_decision_record(flag, status=AdvancementFlagStatus.KEPT, reason=reason, user=user)
        else:
            raise UserError("bad_input", _("Choose to draw again or to keep the stage."), status=400)
    public_version_bump(tournament_id=stage.tournament_id)
    return flag
