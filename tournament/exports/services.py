"""Export jobs: start one, run one (in a Celery worker, or inline in eager mode).

A job row is the truth the page shows: status, progress, the error message, the file. Running is
idempotent: a job that is done is left alone, and a rerun (a redelivered task, a retry) rewrites the
job's own file under its fixed name, so a job never leaves two files or half a file behind — the
workbook is built in a temporary file and only then stored.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.core.files import File
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.errors import ScoringError
from tournament.celery import task_send
from tournament.exports.models import ExportJob, ExportKind, ExportStatus, export_file_name
from tournament.exports.round_sheets import round_draw_build, score_sheets_build
from tournament.exports.workbook import workbook_build
from tournament.matches.models import Round
from tournament.people import Actor, signed_in
from tournament.registration.models import Tournament

logger = logging.getLogger(__name__)

KEEP_DONE = 5
"""Ended exports kept of each kind (per round and language): an organiser downloads the newest;
older files only fill the disk, so they go with their jobs (:func:`export_jobs_prune`)."""

REUSE_ACTIVE_FOR = timedelta(minutes=30)
"""A second click while the same export is still being made shows that job instead of starting
another; a job older than this is presumed lost (its worker died) and a new one starts."""


def export_job_start(
    *,
    tournament: Tournament,
    kind: str = ExportKind.WORKBOOK,
    language: str = "zh",
    round: Round | None = None,
    user: Actor | None = None,
) -> ExportJob:
    """Queue an export (Celery; inline without a broker) and return its job."""
    if kind != ExportKind.WORKBOOK and (round is None or round.stage.tournament_id != tournament.pk):
        raise ValueError("a round export needs a round of the tournament")
    active = (
        ExportJob.objects.filter(
            tournament=tournament,
            kind=kind,
            language=language,
            round=round if kind != ExportKind.WORKBOOK else None,
            status__in=(ExportStatus.PENDING, ExportStatus.RUNNING),
            created_at__gte=timezone.now() - REUSE_ACTIVE_FOR,
        )
        .order_by("-created_at")
        .first()
    )
    if active is not None:
        return active
    job = ExportJob.objects.create(
        tournament=tournament,
        kind=kind,
        language=language,
        round=round if kind != ExportKind.WORKBOOK else None,
        requested_by=signed_in(user),
    )
    # After the commit: a worker must find the job row.
    transaction.on_commit(lambda: task_send("tournament.exports.tasks.export_job_task", args=[job.pk]))
    return job


def _progress_saver(job_id: int) -> Callable[[int], None]:
    def save(percent: int) -> None:
        ExportJob.objects.filter(pk=job_id).update(progress=percent)

    return save


def _failure_message(error: BaseException) -> str:
    if isinstance(error, ScoringError):
        return f"{error.message_zh} / {error.message}"
    if isinstance(error, OSError):
        return _("The file could not be written (%(detail)s). Check the free disk space and try again.") % {
            "detail": error.strerror or type(error).__name__
        }
    return _("Unexpected error (%(kind)s). Try again; if it happens again, tell the administrator.") % {
        "kind": type(error).__name__
    }


def _build(job: ExportJob, target: Any) -> None:
    language: Any = job.language
    progress = _progress_saver(job.pk)
    if job.kind == ExportKind.WORKBOOK:
        workbook_build(tournament=job.tournament, target=target, language=language, progress=progress)
        return
    assert job.round is not None
    if job.kind == ExportKind.ROUND_DRAW:
        round_draw_build(round=job.round, target=target, language=language)
    else:
        score_sheets_build(round=job.round, target=target, language=language)


def export_job_run(*, job_id: int) -> ExportJob:
    """Generate the job's file. Never raises for a failed export: the job records the failure."""
    job = ExportJob.objects.select_related("tournament", "round__stage__tournament").get(pk=job_id)
    storage = job.file.storage
    if job.status == ExportStatus.DONE and job.file.name and storage.exists(job.file.name):
        return job
    ExportJob.objects.filter(pk=job.pk).update(
        status=ExportStatus.RUNNING, progress=0, error="", started_at=timezone.now(), finished_at=None
    )
    try:
        with tempfile.TemporaryFile(suffix=".xlsx") as scratch:
            _build(job, scratch)
            scratch.seek(0)
            name = export_file_name(job, "")
            if storage.exists(name):
                storage.delete(name)
            stored = storage.save(name, File(scratch, name=name))
    except Exception as error:  # every failure becomes the job's message; the traceback goes to the log
        logger.exception("export job %s failed", job.pk)
        ExportJob.objects.filter(pk=job.pk).update(
            status=ExportStatus.FAILED, error=_failure_message(error), finished_at=timezone.now()
        )
    else:
        ExportJob.objects.filter(pk=job.pk).update(
            status=ExportStatus.DONE, progress=100, file=stored, finished_at=timezone.now()
        )
        export_jobs_prune(job=job)
    job.refresh_from_db()
    return job


def export_jobs_prune(*, job: ExportJob) -> int:
    """Keep the newest :data:`KEEP_DONE` finished or failed exports like ``job`` (same kind, round
    and language) and delete the older ones with their files; returns how many went. Running and
    waiting jobs are never touched."""
    ended = ExportJob.objects.filter(
        tournament_id=job.tournament_id,
        kind=job.kind,
        language=job.language,
        status__in=(ExportStatus.DONE, ExportStatus.FAILED),
    ).order_by("-created_at", "-id")
    # the same round, or none (the event's workbook)
    ended = ended.filter(round_id=job.round_id) if job.round_id is not None else ended.filter(round__isnull=True)
    stale = list(ended.values_list("pk", flat=True)[KEEP_DONE:])
    # Their files go with them (tournament.exports.signals).
    deleted, _by_model = ExportJob.objects.filter(pk__in=stale).delete()
    return deleted
