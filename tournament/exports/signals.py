"""An export's file goes with its job: pruned, or deleted with its tournament (a cascade)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete

from tournament.exports.models import ExportJob

logger = logging.getLogger(__name__)


def _file_deleted(sender: Any, instance: ExportJob, **kwargs: Any) -> None:
    if not instance.file:
        return
    storage, name = instance.file.storage, instance.file.name

    def delete() -> None:
        try:
            storage.delete(name)
        except OSError:  # already gone, or the disk refuses: the row is gone either way
            logger.warning("could not delete export file %s", name, exc_info=True)

    # Only once the deletion is committed: a rolled-back delete must still find its file.
    transaction.on_commit(delete)


def connect() -> None:
    """Called once from ``ExportsConfig.ready``."""
    post_delete.connect(_file_deleted, sender=ExportJob, dispatch_uid="export-file-deleted")
