"""The draw listens to the matches app: a confirmed result may advance a fixed bracket.

``match_confirmed`` is sent after the sign-off has committed, so the result stands whatever
happens here; a failure is logged and the organiser draws the round by hand.
"""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import receiver

from tournament.draw.advancement_flags import advancement_recheck
from tournament.draw.round_flags import round_recheck
from tournament.draw.services import bracket_after_result
from tournament.matches.signals import match_confirmed
from tournament.registration.lifecycle import tournament_finish_if_decided

logger = logging.getLogger(__name__)


@receiver(match_confirmed, dispatch_uid="draw.bracket_after_result")
def advance_bracket(sender: Any, match: Any, **kwargs: Any) -> None:
    try:
        bracket_after_result(match=match)
    except Exception:  # never turn a committed sign-off into an error page
        logger.exception("bracket not advanced after match %s", match.pk)


@receiver(match_confirmed, dispatch_uid="registration.tournament_finish_if_decided")
def finish_event(sender: Any, match: Any, **kwargs: Any) -> None:
    """The last stage's final confirmed: the event is finished (``registration.lifecycle``)."""
    try:
        tournament_finish_if_decided(match=match)
    except Exception:  # the sign-off has committed; the organiser can still finish the event by hand
        logger.exception("event status not updated after match %s", match.pk)


@receiver(match_confirmed, dispatch_uid="draw.advancement_recheck")
def recheck_advancement(sender: Any, match: Any, **kwargs: Any) -> None:
    """A corrected match signed off again: later stages advanced from its stage follow or are
    flagged "advancement changed" (``tournament.draw.advancement_flags``)."""
    try:
        advancement_recheck(match=match)
    except Exception:  # the sign-off has committed; the organiser sees no flag and can re-check by hand
        logger.exception("advancement not re-checked after match %s", match.pk)


@receiver(match_confirmed, dispatch_uid="draw.round_recheck")
def recheck_rounds(sender: Any, match: Any, **kwargs: Any) -> None:
    """A corrected match signed off again: later rounds of its Swiss stage drawn from standings the
    correction changed are flagged (``tournament.draw.round_flags``)."""
    try:
        round_recheck(match=match)
    except Exception:  # the sign-off has committed; the unlock page said the rounds stay as drawn
        logger.exception("later rounds not re-checked after match %s", match.pk)
