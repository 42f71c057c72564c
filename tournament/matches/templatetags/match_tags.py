"""Template filters of the referee's pages: levels and sides as referees say them."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.levels import level_label

register = template.Library()


@register.filter
def level(value: Any) -> str:
    """14 → "A", 11 → "J" (RULES.md §1)."""
    try:
        return level_label(int(value))
    except (TypeError, ValueError):
        return "—"


@register.filter
def side_name(code: Any) -> str:
    """"NS" → "N/S" in the user's language."""
    return {"NS": _("N/S"), "EW": _("E/W")}.get(str(code), "—")


@register.filter
def seats(order: Any) -> str:
    """["N", "E", "S", "W"] → "N E S W"."""
    if isinstance(order, dict):
        order = order.get("order", [])
    return " ".join(str(seat) for seat in order or [])


@register.filter
def get(mapping: Any, key: Any) -> Any:
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def seat_name(seat: Any) -> str:
    """"N" → "North" (北) …"""
    return {"N": _("North"), "E": _("East"), "S": _("South"), "W": _("West")}.get(str(seat), str(seat))


@register.filter
def reason_name(reason: Any) -> str:
    """Why a match was won, as the rules core names it (RULES.md §2–3)."""
    names = {
        "passed_a": _("passed A"),
        "higher_level": _("higher level"),
        "first_to_reach": _("first to reach the level"),
        "setting_side": _("side setting the level"),
        "extra_deal": _("extra deal"),
        "draw": _("draw"),
        "points": _("more points"),
        "games": _("more games"),
        "forfeit": _("forfeit"),
    }
    return names.get(str(reason), str(reason or ""))


@register.filter
def note(guidance: Any) -> str:
    """A tribute guidance's rule in the user's language (RULES.md §6)."""
    if guidance is None:
        return ""
    return guidance.note_zh if (get_language() or "").startswith("zh") else guidance.note
