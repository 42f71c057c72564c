"""Template filters of the referee's pages: levels and sides as referees say them."""

from __future__ import annotations

from typing import Any

from django import template

from tournament import deal_texts, labels
from tournament.locale import in_ui_language

register = template.Library()


register.filter("level", labels.level)
register.filter("side_name", labels.side)
register.filter("reason_name", labels.reason)
register.filter("seat_name", labels.seat_name)
register.filter("seat_label", labels.seat)
register.filter("a_attempt_note", labels.a_attempt_note)


@register.filter
def seats(order: Any) -> str:
    """["N", "E", "S", "W"] → "北 › 东 › 南 › 西" (N › E › S › W in English), as the deal histories say it."""
    if isinstance(order, dict):
        order = order.get("order", [])
    return " › ".join(labels.seat(seat) for seat in order or [])


@register.filter
def get(mapping: Any, key: Any) -> Any:
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def note(guidance: Any) -> str:
    """A tribute guidance's rule in the user's language (docs/rules.md §6)."""
    if guidance is None:
        return ""
    return in_ui_language(en=guidance.note, zh=guidance.note_zh)


@register.filter
def outcome_text(outcome: Any, game: Any) -> str:
    """A deal as entered, in the words of its game (``{{ deal.outcome|outcome_text:game }}``, the game's
    :class:`tournament.games.GameKind`)."""
    return str(game.outcome_text(outcome))


@register.filter
def deal_text(deal: Any, game: Any) -> str:
    """A deal of the referee's deal list in the words of its game (``{{ deal|deal_text:game }}``): the
    same text and figure as the public page's (``GameKind.deal_text``)."""
    return str(game.deal_text(deal.outcome, deal.snapshot))


@register.filter
def tractor_points(record: Any) -> str:
    """A Tractor record's points as the deal lists show them (``deal_texts.tractor_record_points``)."""
    return deal_texts.tractor_record_points(record)


@register.filter
def record_text(record: Any, game: Any) -> str:
    """A deal's verdict as recorded, in the words of its game ("" when the levels say it all)."""
    return str(game.record_text(record))


@register.filter
def three_seat_name(code: Any) -> str:
    """ "E" → "E · East" (东): a three-seat table's seat as on the draw sheet (docs/rules.md §10)."""
    return f"{code} · {labels.seat_name(code)}"


@register.filter
def deal_name(number: Any, game: Any) -> str:
    """Deal 3 in the game's own word (``{{ claim.number|deal_name:game }}``): 第 3 副, or 第 3 局 in Dou Dizhu."""
    return str(game.deal_name) % {"number": number}
