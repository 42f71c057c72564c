"""How pages name the rules core's values: levels, sides, seats and why a match was won.

One vocabulary for every page (referee's and public), in the user's language.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.levels import level_label


def level(value: Any) -> str:
    """14 → "A", 11 → "J" (RULES.md §1); "—" when there is no level."""
    try:
        return level_label(int(value))
    except (TypeError, ValueError, KeyError, IndexError):
        return "—"


def side(code: Any) -> str:
    """ "NS" → "N/S" (南北)."""
    return {"NS": _("N/S"), "EW": _("E/W")}.get(str(code), "—")


def seat(code: Any) -> str:
    """ "N" → "N" (北): a seat in a finishing order."""
    return {"N": _("N"), "E": _("E"), "S": _("S"), "W": _("W")}.get(str(code), str(code))


def seat_name(code: Any) -> str:
    """ "N" → "North" (北家): a seat on its own, as on the referee's tap buttons."""
    return {"N": _("North"), "E": _("East"), "S": _("South"), "W": _("West")}.get(str(code), str(code))


def reason(code: Any) -> str:
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
    return str(names.get(str(code), code or ""))
