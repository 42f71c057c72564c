import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def english_messages():
    """Assertions read messages in English; tests of the Chinese UI override the language."""
    with translation.override("en"):
        yield
