import pytest

from tournament.celery import app


@pytest.fixture(autouse=True)
def celery_eager():
    """Run tasks in-process even when CELERY_BROKER_URL is set (see tests/tournament/matches)."""
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
