"""The draw listens to the matches app: a confirmed result may advance a fixed bracket.

``match_confirmed`` is sent after the sign-off has committed, so the result stands whatever
happens here; a failure is logged and the organiser draws the round by hand.
"""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import receiver

from tournament.draw.services import bracket_after_result
from tournament.matches.signals import match_confirmed

logger = logging.getLogger(__name__)


@receiver(match_confirmed, dispatch_uid="draw.bracket_after_result")
def advance_bracket(sender: Any, match: Any, **kwargs: Any) -> None:
    try:
        bracket_after_result(match=match)
    except Exception:  # never turn a committed sign-off into an error page
        logger.exception("bracket not advanced after match %s", match.pk)
