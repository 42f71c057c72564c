"""A later round of a Swiss stage after a correction of an earlier round (docs/corrections.md).

A Swiss round is drawn from the standings of the rounds before it. When a signed-off match of an
earlier round is unlocked, the correction keeps, for each later round already drawn (a draft,
published or played), the standings its draw read (:func:`later_round_standings`). At the
re-sign-off :func:`round_recheck` (the ``match_confirmed`` receiver) computes them again: a round
whose standings changed (a rank or the match points a pair was drawn on) is flagged, with the same
machinery as a later stage's advancement (:class:`AdvancementFlag`, kind ``round``), on the stage
and round pages, the public standings and the API, and the workbook, until the organiser decides
(:func:`round_flag_resolve`): **redraw** — only while no result of the round has been entered and
no later round exists: it is un-published if need be, deleted and drawn again with its seed from
the corrected standings, as a draft to check and publish — or **keep** it, with a reason. Both are
audited. Standings that are again those the round was drawn from (a correction undone) close an
open flag as kept, saying so.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.audit import history_author, reason_clean
from tournament.draw.advancement_flags import KEEP, REDRAW, flag_decision_record
from tournament.draw.services import round_delete, round_draw, round_has_results, round_unpublish
from tournament.errors import UserError
from tournament.matches.event import round_event
from tournament.matches.models import (
    AdvancementFlag,
    AdvancementFlagKind,
    AdvancementFlagStatus,
    Correction,
    CorrectionStatus,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
    Stage,
    StageFormat,
)
from tournament.people import Actor
from tournament.registration.lifecycle import event_write
from tournament.standings.cache import public_version_bump
from tournament.standings.selectors import stage_match_records, stage_ranking_get
from tournament.standings.team_matches import stage_team_matches_get

SAME_AGAIN = "the corrected standings are again those the round was drawn from"


def later_round_standings(*, stage: Stage, after_round: int) -> dict[str, list[list[Any]]]:
    """For each round of a Swiss ``stage`` numbered above ``after_round``: the standings its draw
    read (the counted results of the rounds before it; ``[pair id, rank, match points]`` in rank
    order — what ``draw.stages.stage_entrants`` gives the pairing; a Swiss of teams: ``[team id, rank,
    team match points]``, what ``draw.team_matches.team_entrants`` gives it). Kept on a correction when it
    opens (:func:`round_standings_keep`), compared when it closes (:func:`round_recheck`: a later
    round drawn from standings the correction changed is flagged)."""
    if stage.format != StageFormat.SWISS:
        return {}
    numbers = list(Round.objects.filter(stage=stage, number__gt=after_round).values_list("number", flat=True))
    if not numbers:
        return {}
    if stage.settings.team_match is not None:
        # A Swiss of teams is drawn from the team standings (docs/rules.md §11): its rows are
        # [team id, rank, team match points], kept and compared the same way.
        return {
            str(number): [
                [int(row.team), row.rank, row.match_points]
                for row in stage_team_matches_get(stage=stage, before_round=number).standings.rows
            ]
            for number in sorted(numbers)
        }
    records = stage_match_records(stage=stage)
    out = {}
    for number in sorted(numbers):
        earlier = [record for record in records if record.round < number]
        rows = stage_ranking_get(stage=stage, records=earlier).standings.rows
        out[str(number)] = [[int(row.entrant), row.rank, row.match_points] for row in rows]
    return out


def round_standings_keep(*, match: Match) -> dict[str, Any]:
    """What a correction of ``match`` keeps as it opens (``correction_opening``): the standings each
    later round of its Swiss stage was drawn from (nothing for another stage, or no later round)."""
    standings = later_round_standings(stage=match.round.stage, after_round=match.round.number)
    return {"round_standings": standings} if standings else {}


def round_open_flag(*, round_: Round, lock: bool = False) -> AdvancementFlag | None:
    """The round's open flag (``lock``: locked for the caller's transaction)."""
    flags = AdvancementFlag.objects.select_for_update() if lock else AdvancementFlag.objects
    return flags.filter(
        stage_id=round_.stage_id,
        kind=AdvancementFlagKind.ROUND,
        round_number=round_.number,
        status=AdvancementFlagStatus.OPEN,
    ).first()


def round_recheck(*, match: Match, user: Actor | None = None) -> list[AdvancementFlag]:
    """After ``match`` is signed off again: flag each later round of its Swiss stage whose
    standings (as its draw read them) the correction changed. Returns the flags opened or updated."""
    match = Match.objects.select_related("round__stage").get(pk=match.pk)
    if match.status != MatchStatus.CONFIRMED:
        return []
    correction = (
        Correction.objects.filter(match=match, status=CorrectionStatus.CLOSED).order_by("-closed_at", "-id").first()
    )
    if correction is None or correction.changes.get("rounds_checked"):
        return []
    drawn_from = correction.before.get("round_standings") or {}
    if not drawn_from:  # not a Swiss stage, or no later round was drawn when it was unlocked
        return []
    stage = match.round.stage
    now = later_round_standings(stage=stage, after_round=match.round.number)
    flags, closed = [], False
    with transaction.atomic():
        for number_text, rows in sorted(drawn_from.items(), key=lambda item: int(item[0])):
            round_ = Round.objects.filter(stage=stage, number=int(number_text)).first()
            if round_ is None:  # deleted since the unlock: its next draw reads the corrected standings
                continue
            flag = round_open_flag(round_=round_)
            # a round flagged by an earlier correction was drawn from that flag's "before"
            origin = flag.detail.get("before") if flag is not None else rows
            after = now.get(number_text, [])
            if after == origin:
                if flag is not None:
                    flag.detail = {**flag.detail, "after": after}
                    flag_decision_record(flag, status=AdvancementFlagStatus.KEPT, reason=SAME_AGAIN, user=user)
                    closed = True
                continue
            if flag is None:
                flag = AdvancementFlag(
                    stage=stage, kind=AdvancementFlagKind.ROUND, round=round_, round_number=round_.number
                )
            flag.match = match
            flag.correction = correction
            flag.detail = {"before": origin, "after": after}
            history_author(flag, user, f"standings changed (match {match.pk})")
            flag.save()
            flags.append(flag)
        correction.changes = {
            **correction.changes,
            "rounds_checked": True,
            "rounds_flagged": [flag.round_number for flag in flags],
        }
        correction.save(update_fields=["changes"])
    if flags or closed:  # the public standings and the API say (or stop saying) so
        public_version_bump(tournament_id=stage.tournament_id)
    return flags


@event_write("round_", of=round_event)
def round_flag_resolve(*, round_: Round, choice: str, reason: str, user: Actor | None) -> tuple[AdvancementFlag, Round]:
    """The organiser's answer to a round drawn from standings a correction changed: ``redraw``
    (refused once a result of the round is entered, ``round_played``, or a later round is drawn,
    ``later_round``) or ``keep``, with a reason. Returns the flag and the round as it now is (a
    redrawn round is a new draft)."""
    with transaction.atomic():
        flag = round_open_flag(round_=round_, lock=True)
        if flag is None:
            raise UserError("not_flagged", _("This round is not flagged any more."), status=409)
        reason = reason_clean(reason, required=True)
        round_ = Round.objects.select_related("stage__tournament").get(pk=round_.pk)
        if choice == REDRAW:
            if round_has_results(round_=round_):
                raise UserError(
                    "round_played",
                    _(
                        "Results of this round have been entered: it can no longer be drawn again. "
                        "Keep it, with a reason."
                    ),
                    status=409,
                )
            if round_.stage.rounds.filter(number__gt=round_.number).exists():
                raise UserError(
                    "later_round",
                    _("A later round has been drawn: delete it first, then draw this round again."),
                    status=409,
                )
            seed = round_.draw_seed
            if round_.status != RoundStatus.DRAFT:
                round_unpublish(round_=round_, user=user, reason=reason)
            round_delete(round_=round_, user=user, reason=reason)  # closes the flag: redrawn, with the reason
            round_ = round_draw(stage=round_.stage, seed=seed, user=user)
            flag.refresh_from_db()
            flag.round = round_
            history_author(flag, user, reason)
            flag.save(update_fields=["round"])
        elif choice == KEEP:
            flag_decision_record(flag, status=AdvancementFlagStatus.KEPT, reason=reason, user=user)
        else:
            raise UserError("bad_input", _("Choose to draw again or to keep the round."), status=400)
    public_version_bump(tournament_id=round_.stage.tournament_id)
    return flag, round_
