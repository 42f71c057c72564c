"""Template filters of the referee's pages: levels and sides as referees say them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.translation import gettext as _

from scoring.snapshot import DealSnapshot
from tournament import labels
from tournament.locale import in_ui_language

register = template.Library()


register.filter("level", labels.level)
register.filter("side_name", labels.side)
register.filter("reason_name", labels.reason)
register.filter("seat_name", labels.seat_name)


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
def note(guidance: Any) -> str:
    """A tribute guidance's rule in the user's language (RULES.md §6)."""
    if guidance is None:
        return ""
    return in_ui_language(en=guidance.note, zh=guidance.note_zh)


@register.filter
def tractor_result(record: Any) -> str:
    """A Tractor deal's verdict from the seed-001 table: who goes up, or the defenders take over (上台).
    ``record``: a stored record read back (``Deal.snapshot``), or a preview's record as the fold wrote it."""
    if isinstance(record, Mapping):
        record = DealSnapshot.from_json(record)
    if not isinstance(record, DealSnapshot) or not record.tractor:
        return ""
    declarer = labels.side(record.declarer)
    defenders = labels.side("EW" if record.declarer == "NS" else "NS")
    result, upgrade = record.result, record.upgrade
    faults = labels.tractor_faults(
        {"revoke": record.revoke, "wrong_bottom": record.wrong_bottom, "wrong_count": record.wrong_count}
    )
    if result == "replayed":  # seed 001 §18: a wrong card count in both sides' hands
        return str(_("Wrong card count in both sides' hands: the deal is replayed, nothing changes"))
    prefix = _("%(faults)s: the deal ends. ") % {"faults": "; ".join(faults)} if faults else ""
    if record.passed_a:
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
