"""Export jobs: idempotent runs, one job per double click, files under MEDIA_ROOT only."""

from __future__ import annotations

import pytest

from tests.factories import RoundFactory, TournamentFactory
from tests.tournament.exports.conftest import read_book
from tournament.exports import services
from tournament.exports.models import ExportJob, ExportKind, ExportStatus
from tournament.exports.services import export_job_run, export_job_start
from tournament.exports.tasks import export_job_task

pytestmark = pytest.mark.django_db


def files(media_root):
    return sorted(path.relative_to(media_root).as_posix() for path in media_root.rglob("*") if path.is_file())


def test_a_done_job_is_not_built_again(event, media_root, monkeypatch):
    job = ExportJob.objects.create(tournament=event.tournament)
    assert export_job_task.delay(job.pk).get() == "done"
    job.refresh_from_db()
    assert files(media_root) == [f"exports/{event.tournament.pk}/{job.pk}-workbook.xlsx"]
    calls = []
    monkeypatch.setattr(services, "workbook_build", lambda **kwargs: calls.append(kwargs))
    assert export_job_run(job_id=job.pk).status == ExportStatus.DONE
    assert calls == []


def test_a_rerun_after_a_failure_rewrites_the_jobs_own_file(event, media_root, monkeypatch):
    job = ExportJob.objects.create(tournament=event.tournament)
    real = services.workbook_build
    monkeypatch.setattr(services, "workbook_build", lambda **kwargs: 1 / 0)
    failed = export_job_run(job_id=job.pk)
    assert failed.status == ExportStatus.FAILED and "ZeroDivisionError" in failed.error
    assert files(media_root) == []
    monkeypatch.setattr(services, "workbook_build", real)
    done = export_job_run(job_id=job.pk)
    assert (done.status, done.progress, done.error) == (ExportStatus.DONE, 100, "")
    assert files(media_root) == [f"exports/{event.tournament.pk}/{job.pk}-workbook.xlsx"]
    ExportJob.objects.filter(pk=job.pk).update(status=ExportStatus.RUNNING)  # e.g. a redelivered task
    export_job_run(job_id=job.pk)
    assert files(media_root) == [f"exports/{event.tournament.pk}/{job.pk}-workbook.xlsx"]
    with done.file.open("rb") as handle:
        assert "参赛名单" in read_book(handle.read())


def test_progress_is_saved_while_the_workbook_is_built(event, monkeypatch):
    seen = []
    real = services._progress_saver

    def spy(job_id):
        save = real(job_id)

        def record(percent):
            save(percent)
            seen.append(ExportJob.objects.get(pk=job_id).progress)

        return record

    monkeypatch.setattr(services, "_progress_saver", spy)
    job = ExportJob.objects.create(tournament=event.tournament)
    export_job_run(job_id=job.pk)
    assert seen and seen == sorted(seen) and seen[-1] < 100


def test_a_second_click_shows_the_job_already_running(event, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = export_job_start(tournament=event.tournament, user=event.boss)
        second = export_job_start(tournament=event.tournament, user=event.boss)
        english = export_job_start(tournament=event.tournament, language="en")
    assert first == second and english != first
    assert len(callbacks) == 2
    for callback in callbacks:
        callback()
    assert set(ExportJob.objects.values_list("status", flat=True)) == {ExportStatus.DONE}
    third = export_job_start(tournament=event.tournament)
    assert third not in (first, english)  # a finished job is not reused: the data may have changed


def test_a_round_export_needs_a_round_of_the_tournament(event):
    with pytest.raises(ValueError):
        export_job_start(tournament=event.tournament, kind=ExportKind.ROUND_DRAW)
    other_round = RoundFactory(stage__tournament=TournamentFactory())
    with pytest.raises(ValueError):
        export_job_start(tournament=event.tournament, kind=ExportKind.ROUND_DRAW, round=other_round)


def test_only_the_newest_exports_of_a_kind_are_kept_with_their_files(
    event, media_root, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(services, "workbook_build", lambda *, tournament, target, **kwargs: target.write(b"xlsx"))
    english = ExportJob.objects.create(tournament=event.tournament, language="en")
    export_job_run(job_id=english.pk)
    failed = ExportJob.objects.create(tournament=event.tournament, status=ExportStatus.FAILED, error="disk full")
    running = ExportJob.objects.create(tournament=event.tournament, status=ExportStatus.RUNNING)
    done = []
    with django_capture_on_commit_callbacks(execute=True):  # files go once the deletion commits
        for _ in range(services.KEEP_DONE + 1):
            job = ExportJob.objects.create(tournament=event.tournament)
            done.append(export_job_run(job_id=job.pk))
    left = set(ExportJob.objects.values_list("pk", flat=True))
    # the newest five Chinese workbooks stay; the older one and the old failure go; the English
    # workbook (another export) and the running job are not touched
    assert left == {english.pk, running.pk, *(job.pk for job in done[1:])}
    assert failed.pk not in left
    assert files(media_root) == sorted(
        f"exports/{event.tournament.pk}/{job.pk}-workbook.xlsx" for job in [english, *done[1:]]
    )


def test_deleting_a_tournament_deletes_its_export_files(media_root, monkeypatch, django_capture_on_commit_callbacks):
    monkeypatch.setattr(services, "workbook_build", lambda *, tournament, target, **kwargs: target.write(b"xlsx"))
    tournament = TournamentFactory()
    export_job_run(job_id=ExportJob.objects.create(tournament=tournament).pk)
    assert files(media_root)
    with django_capture_on_commit_callbacks(execute=True):
        tournament.delete()
    assert files(media_root) == []


def test_a_deletion_rolled_back_keeps_the_file(media_root, monkeypatch):
    from django.db import transaction

    monkeypatch.setattr(services, "workbook_build", lambda *, tournament, target, **kwargs: target.write(b"xlsx"))
    job = export_job_run(job_id=ExportJob.objects.create(tournament=TournamentFactory()).pk)
    pk, name = job.pk, job.file.name
    with pytest.raises(RuntimeError), transaction.atomic():
        job.delete()
        raise RuntimeError("the organiser's request failed half-way")
    assert ExportJob.objects.filter(pk=pk).exists() and job.file.storage.exists(name)
