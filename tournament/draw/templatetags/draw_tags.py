"""Template helpers of the draw pages."""

from __future__ import annotations

from django import template

from tournament.draw.pairing import DrawWarning
from tournament.draw.services import warning_message

register = template.Library()


@register.filter
def warning_text(warning: DrawWarning) -> str:
    """A draw warning in the page's language (the generators carry English and Chinese)."""
    return warning_message(warning)
