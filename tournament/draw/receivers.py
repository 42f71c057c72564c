"""The draw listens to the matches app: a confirmed result may advance a fixed bracket, finish the
event, flag a later stage's advancement or a later round; a correction keeps what later rounds
were drawn from.

``match_confirmed`` is sent after the sign-off has committed, so the result stands whatever
happens here; a failure is logged and the organiser draws the round (or finishes the event) by hand.
``correction_opening`` is sent inside the unlock's transaction: an error there refuses the unlock.
"""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import receiver

from tournament.draw.advancement_flags import advancement_recheck
from tournament.draw.round_flags import round_recheck, round_standings_keep
from tournament.draw.services import bracket_after_result
from tournament.matches.models import Match, Stage
from tournament.matches.signals import correction_opening, match_confirmed
from tournament.registration.lifecycle import tournament_finish_decided
from tournament.registration.models import TournamentStatus
from tournament.standings.selectors import stage_decided_get

logger = logging.getLogger(__name__)


@receiver(match_confirmed, dispatch_uid="draw.bracket_after_result")
def advance_bracket(sender: Any, match: Match, **kwargs: Any) -> None:
    try:
        bracket_after_result(match=match)
    except Exception:  # never turn a committed sign-off into an error page
        logger.exception("bracket not advanced after match %s", match.pk)


def event_decided(*, match: Match) -> bool:
    """Whether ``match``, just confirmed, decided its event: the event is in progress, and the match's
    stage is its last and has decided its places by itself (``stage_decided_get``: a knockout's champion
    with nothing pending, a final table of points fully signed off). A Swiss, a round robin or a points
    stage with cuts as the last stage is finished by the organiser."""
    stage = Stage.objects.select_related("tournament").get(pk=match.round.stage_id)
    if stage.tournament.status != TournamentStatus.RUNNING:
        return False
    if Stage.objects.filter(tournament_id=stage.tournament_id, order__gt=stage.order).exists():
        return False
    return stage_decided_get(stage=stage)


@receiver(match_confirmed, dispatch_uid="registration.tournament_finish_if_decided")
def finish_event(sender: Any, match: Match, **kwargs: Any) -> None:
    """The last stage's final confirmed: the event is finished (``registration.lifecycle``)."""
    try:
        if event_decided(match=match):
            tournament_finish_decided(tournament_id=match.round.stage.tournament_id)
    except Exception:  # the sign-off has committed; the organiser can still finish the event by hand
        logger.exception("event status not updated after match %s", match.pk)


@receiver(match_confirmed, dispatch_uid="draw.advancement_recheck")
def recheck_advancement(sender: Any, match: Match, **kwargs: Any) -> None:
    """A corrected match signed off again: later stages advanced from its stage follow or are
    flagged "advancement changed" (``tournament.draw.advancement_flags``)."""
    try:
        advancement_recheck(match=match)
    except Exception:  # the sign-off has committed; the organiser sees no flag and can re-check by hand
        logger.exception("advancement not re-checked after match %s", match.pk)


@receiver(match_confirmed, dispatch_uid="draw.round_recheck")
def recheck_rounds(sender: Any, match: Match, **kwargs: Any) -> None:
    """A corrected match signed off again: later rounds of its Swiss stage drawn from standings the
    correction changed are flagged (``tournament.draw.round_flags``)."""
    try:
        round_recheck(match=match)
    except Exception:  # the sign-off has committed; the unlock page said the rounds stay as drawn
        logger.exception("later rounds not re-checked after match %s", match.pk)


@receiver(correction_opening, dispatch_uid="draw.round_standings_keep")
def keep_round_standings(sender: Any, match: Match, **kwargs: Any) -> dict[str, Any]:
    """A correction opens: keep the standings each later Swiss round was drawn from
    (``tournament.draw.round_flags``), to compare at the re-sign-off."""
    return round_standings_keep(match=match)
