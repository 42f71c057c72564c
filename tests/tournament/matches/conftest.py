import pytest


@pytest.fixture(autouse=True)
def _eager_tasks_and_fast_passwords(celery_eager, fast_passwords):
    """Every test here: tasks run in-process and logins hash quickly (fixtures in tests/conftest.py)."""
