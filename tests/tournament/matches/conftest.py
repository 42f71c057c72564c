import pytest

from tournament.celery import app


@pytest.fixture(autouse=True)
def celery_eager():
    """Run tasks in-process even when CELERY_BROKER_URL is set (the PostgreSQL CI run), so the
    time-up tasks scheduled by these tests never reach a shared broker; the clock's eager-mode
    behaviour is what is tested here (the real worker has its own test, marked celery_worker)."""
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
