"""Export pages: organisers only (others 404), the job with its progress bar, download, failure."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory, organiser
from tests.tournament.exports.conftest import read_book
from tournament.exports.models import ExportJob, ExportStatus, PrizeRanking, PrizeTier

pytestmark = pytest.mark.django_db


def urls(event, job=None):
    t, r = event.tournament.pk, event.rounds[0].pk
    found = [
        reverse("exports:home", args=[t]),
        reverse("exports:prizes", args=[t]),
        reverse("exports:round_draw", args=[t, r]),
        reverse("exports:score_sheets", args=[t, r]),
        reverse("exports:round_draw", args=[t, r]) + "?format=xlsx",
    ]
    if job is not None:
        found += [reverse("exports:job", args=[t, job.pk]), reverse("exports:download", args=[t, job.pk])]
    return found


@pytest.fixture
def done_job(event, django_capture_on_commit_callbacks):
    from tournament.exports.services import export_job_start

    with django_capture_on_commit_callbacks(execute=True):
        job = export_job_start(tournament=event.tournament, user=event.boss)
    job.refresh_from_db()
    assert job.status == ExportStatus.DONE
    return job



@pytest.fixture(autouse=True)
def english_pages(client, settings):
    """These tests read the English texts: choose English with the language cookie, as the switch does."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def test_anonymous_visitors_are_sent_to_log_in(client, event, done_job):
    for url in urls(event, done_job):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


@pytest.mark.parametrize("who", ["player", "referee", "other_organiser"])
def test_everyone_but_the_tournaments_organisers_gets_404(client, event, done_job, who):
    if who == "player":
        user = UserFactory(username="someone")
    elif who == "referee":
        user = event.referee
    else:
        user = organiser(username="other-boss")
        TournamentFactory().organisers.add(user)
    client.force_login(user)
    for url in urls(event, done_job):
        assert client.get(url).status_code == 404, url
    start = reverse("exports:home", args=[event.tournament.pk])
    assert client.post(start, {"language": "zh"}).status_code == 404
    assert not ExportJob.objects.exclude(pk=done_job.pk).exists()


def test_a_job_of_another_tournament_is_404_for_this_organiser(client, event, done_job):
    other = TournamentFactory()
    other.organisers.add(event.boss)
    client.force_login(event.boss)
    assert client.get(reverse("exports:job", args=[other.pk, done_job.pk])).status_code == 404
    assert client.get(reverse("exports:download", args=[other.pk, done_job.pk])).status_code == 404


def test_organiser_starts_the_workbook_and_downloads_it(client, event, django_capture_on_commit_callbacks):
    client.force_login(event.boss)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("exports:home", args=[event.tournament.pk]), {"language": "en"})
    job = ExportJob.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "exports:job", args=[event.tournament.pk, job.pk]
    )
    assert (job.status, job.progress, job.language, job.requested_by) == ("done", 100, "en", event.boss)
    page = client.get(response["Location"]).content.decode()
    download = reverse("exports:download", args=[event.tournament.pk, job.pk])
    assert download in page
    partial = client.get(response["Location"], HTTP_HX_REQUEST="true").content.decode()
    assert "hx-trigger" not in partial and download in partial  # done: polling stops
    file = client.get(download)
    assert file.status_code == 200 and "attachment" in file["Content-Disposition"]
    assert "workbook.xlsx" in file["Content-Disposition"]
    book = read_book(b"".join(file.streaming_content))
    assert "Deal log" in book and len(book["Deal log"]) == 31


def test_a_running_job_shows_a_progress_bar_that_polls(client, event):
    job = ExportJob.objects.create(tournament=event.tournament, status=ExportStatus.RUNNING, progress=42)
    client.force_login(event.boss)
    partial = client.get(reverse("exports:job", args=[event.tournament.pk, job.pk]), HTTP_HX_REQUEST="true")
    html = partial.content.decode()
    assert 'hx-trigger="every 1s"' in html and 'value="42"' in html
    assert "<html" not in html  # just the status part
    assert client.get(reverse("exports:download", args=[event.tournament.pk, job.pk])).status_code == 404


def test_a_failed_export_shows_a_clear_message_and_a_retry(
    client, event, monkeypatch, django_capture_on_commit_callbacks
):
    def disk_full(**kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("tournament.exports.services.workbook_build", disk_full)
    client.force_login(event.boss)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("exports:home", args=[event.tournament.pk]), {"language": "zh"})
    job = ExportJob.objects.get()
    assert job.status == ExportStatus.FAILED and not job.file
    assert "No space left on device" in job.error and "disk space" in job.error
    html = client.get(response["Location"]).content.decode()
    assert "The export failed. Nothing was changed." in html
    assert "No space left on device" in html and "Try again" in html
    assert client.get(reverse("exports:download", args=[event.tournament.pk, job.pk])).status_code == 404


def test_round_sheets_can_also_run_as_jobs(client, event, django_capture_on_commit_callbacks):
    client.force_login(event.boss)
    url = reverse("exports:round_export_start", args=[event.tournament.pk, event.rounds[0].pk, "score_sheets"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"language": "zh"})
    job = ExportJob.objects.get()
    assert response.status_code == 302 and job.status == ExportStatus.DONE and job.round == event.rounds[0]
    file = client.get(reverse("exports:download", args=[event.tournament.pk, job.pk]))
    assert "记分表" in read_book(b"".join(file.streaming_content))
    bad = reverse("exports:round_export_start", args=[event.tournament.pk, event.rounds[0].pk, "workbook"])
    assert client.post(bad).status_code == 404


def test_the_exports_page_lists_rounds_and_recent_jobs(client, event, done_job):
    client.force_login(event.boss)
    html = client.get(reverse("exports:home", args=[event.tournament.pk])).content.decode()
    assert reverse("exports:score_sheets", args=[event.tournament.pk, event.rounds[1].pk]) in html
    assert reverse("exports:download", args=[event.tournament.pk, done_job.pk]) in html


def test_organiser_defines_tiers_and_draws_lots_on_the_prizes_page(client, event):
    client.force_login(event.boss)
    url = reverse("exports:prizes", args=[event.tournament.pk])
    page = client.get(url).content.decode()
    assert "一等奖" in page and "draw lots" in page.lower()
    form = {
        "action": "tiers",
        "tiers-TOTAL_FORMS": "4",
        "tiers-INITIAL_FORMS": "0",
        "tiers-0-name": "第一名",
        "tiers-0-pair_count": "1",
        "tiers-1-name": "第二名",
        "tiers-1-pair_count": "2",
        "tiers-2-name": "",
        "tiers-2-pair_count": "",
        "tiers-3-name": "优胜",
        "tiers-3-pair_count": "3",
    }
    assert client.post(url, form).status_code == 302
    assert list(PrizeTier.objects.filter(tournament=event.tournament).values_list("name", "pair_count")) == [
        ("第一名", 1),
        ("第二名", 2),
        ("优胜", 3),
    ]
    form["tiers-3-name"] = "第一名"
    refused = client.post(url, form)
    assert refused.status_code == 200 and "used twice" in refused.content.decode()
    assert client.post(url, {"action": "lots"}).status_code == 302
    event.stage.refresh_from_db()
    assert PrizeRanking.objects.get(tournament=event.tournament).lots_drawn_at is not None
    assert event.stage.settings.lots_seed is not None
    page = client.get(url).content.decode()
    assert "seed" in page and "第一名" in page
