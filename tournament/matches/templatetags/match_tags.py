"""Template filters of the referee's pages: levels and sides as referees say them."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from scoring.levels import level_label
from tournament.locale import in_ui_language

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
    """ "NS" → "N/S" in the user's language."""
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
    """ "N" → "North" (北) …"""
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
    return in_ui_language(en=guidance.note, zh=guidance.note_zh)


@register.filter
def tractor_result(record: Any) -> str:
    """A Tractor deal's verdict from the seed-001 table: who goes up, or the defenders take over (上台)."""
    if not isinstance(record, dict) or "declarer" not in record:
        return ""
    declarer = side_name(record.get("declarer"))
    defenders = side_name("EW" if record.get("declarer") == "NS" else "NS")
    result, upgrade = record.get("result"), record.get("upgrade", 0)
    if record.get("revoke"):
        prefix = _("Revoke by %(side)s: the deal ends. ") % {"side": side_name(record["revoke"])}
    else:
        prefix = ""
    if record.get("passed_a"):
        text = _("%(side)s keep their A: game won") % {"side": declarer}
    elif result == "declarers_up":
        text = _("Declarers %(side)s go up %(n)d") % {"side": declarer, "n": upgrade}
    elif result == "defenders_take_over":
        text = _("Defenders %(side)s take over (上台)") % {"side": defenders}
    else:
        text = _("Defenders %(side)s take over (上台) and go up %(n)d") % {"side": defenders, "n": upgrade}
    return f"{prefix}{text}"


@register.filter
def deal_text(outcome: Any) -> str:
    """A deal as entered: a finishing order ("N E S W"), or a Tractor deal (declarer, defenders' points)."""
    if isinstance(outcome, dict) and "defender_points" in outcome:
        from tournament.matches.selectors import tractor_outcome_text

        return tractor_outcome_text(outcome)
    return seats(outcome)
