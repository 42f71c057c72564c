"""An export's file goes with its job: pruned, or deleted with its tournament (a cascade). A
correction of a confirmed match says what it touches here: the workbooks exported since it was
signed off, and the prize tiers (they name pairs by the placings)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete

from tournament.exports.models import ExportJob, PrizeTier
from tournament.exports.series import series_of_event, series_ratings_rebuild
from tournament.matches.models import Match
from tournament.matches.signals import match_confirmed, match_dependents_read

logger = logging.getLogger(__name__)


def _file_deleted(sender: Any, instance: ExportJob, **kwargs: Any) -> None:
    name = instance.file.name
    if not name:  # no file
        return
    storage = instance.file.storage

    def delete() -> None:
        try:
            storage.delete(name)
        except OSError:  # already gone, or the disk refuses: the row is gone either way
            logger.warning("could not delete export file %s", name, exc_info=True)

    # Only once the deletion is committed: a rolled-back delete must still find its file.
    transaction.on_commit(delete)


def _match_dependents(sender: Any, match: Match, **kwargs: Any) -> dict[str, Any]:
    """What a correction of ``match`` touches here (``corrections.match_dependents``)."""
    tournament_id = match.round.stage.tournament_id
    exports = ExportJob.objects.filter(tournament_id=tournament_id)
    if match.signed_off_at is not None:
        exports = exports.filter(created_at__gte=match.signed_off_at)
    return {"exports": exports.count(), "prize_tiers": PrizeTier.objects.filter(tournament_id=tournament_id).count()}


def _series_ratings(sender: Any, match: Match, **kwargs: Any) -> None:
    """A confirmed match: the ratings of the series its event counts in are rebuilt (docs/rules.md §12.4)."""
    try:
        for series in series_of_event(tournament_id=match.round.stage.tournament_id):
            series_ratings_rebuild(series=series)
    except Exception:  # the sign-off has committed; the command rebuilds the ratings by hand
        logger.exception("series ratings not rebuilt after match %s", match.pk)


def connect() -> None:
    """Called once from ``ExportsConfig.ready``."""
    post_delete.connect(_file_deleted, sender=ExportJob, dispatch_uid="export-file-deleted")
    match_confirmed.connect(_series_ratings, sender=Match, dispatch_uid="exports-series-ratings")
    match_dependents_read.connect(_match_dependents, sender=Match, dispatch_uid="exports-match-dependents")
