"""Celery tasks of the exports: they take ids and call a service (HackSoft style)."""

from __future__ import annotations

from celery import shared_task

from tournament.exports.services import export_job_run


@shared_task(acks_late=True)
def export_job_task(job_id: int) -> str:
    """Generate an export job's file. Idempotent: a finished job is left alone, a rerun rewrites the
    job's own file. Failures are recorded on the job (never raised), so eager mode cannot turn them
    into a server error."""
    return str(export_job_run(job_id=job_id).status)
