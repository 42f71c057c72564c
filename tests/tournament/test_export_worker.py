"""The workbook export through a real Celery worker: job queued, progress saved, file stored, read back.

The worker runs against the test database, a queue of its own and a MEDIA_ROOT of the test's own,
so the file it writes is the one this test opens.
"""

from __future__ import annotations

import io
import time

import pytest
from openpyxl import load_workbook

from tests.factories import MatchFactory, TournamentFactory, organiser
from tournament.exports.models import ExportJob, ExportStatus
from tournament.exports.tasks import export_job_task
from tournament.matches.models import Deal, RoundEntry

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return settings.MEDIA_ROOT


@pytest.fixture
def worker_env(media_root):
    return {"MEDIA_ROOT": media_root}


def test_a_real_worker_builds_the_workbook_and_the_page_can_serve_it(worker_queue, client):
    boss = organiser(username="boss")
    tournament = TournamentFactory(name='=HYPERLINK("http://x","y") 杯')
    tournament.organisers.add(boss)
    match = MatchFactory(round__stage__tournament=tournament)
    RoundEntry.objects.create(round=match.round, pair=match.ns_pair, match=match, side="NS")
    RoundEntry.objects.create(round=match.round, pair=match.ew_pair, match=match, side="EW")
    for number, order in enumerate((["N", "S"], ["E", "N", "W"]), start=1):
        Deal.objects.create(match=match, number=number, outcome={"order": order}, record={"order": order})
    job = ExportJob.objects.create(tournament=tournament, requested_by=boss)

    export_job_task.apply_async(args=[job.pk], queue=worker_queue)

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if not job.is_active:
            break
        time.sleep(0.5)
    assert (job.status, job.progress, job.error) == (ExportStatus.DONE, 100, "")
    with job.file.open("rb") as handle:
        book = load_workbook(io.BytesIO(handle.read()), read_only=True)
    assert book.sheetnames[0] == "参赛名单"
    deal_log = list(book["牌局记录"].iter_rows(values_only=True))
    assert [row[4] for row in deal_log[1:]] == [1, 2]
    assert [row[8] for row in deal_log[1:]] == ["北 › 南", "东 › 北 › 西"]  # the finishing orders, seats by name
    book.close()

    client.force_login(boss)
    response = client.get(f"/t/{tournament.pk}/manage/exports/{job.pk}/download/")
    assert response.status_code == 200
    assert b"".join(response.streaming_content)[:2] == b"PK"  # a zip package: the .xlsx
