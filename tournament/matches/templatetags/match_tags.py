"""Template filters of the referee's pages: levels and sides as referees say them."""

from __future__ import annotations

import html
from typing import Any

from django import template
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import ngettext

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
    """ "E" → "E · East": a three-seat table's seat as on the draw sheet (docs/rules.md §10); a Chinese page
    names the seat in Chinese only (东), as its players say it."""
    if (translation.get_language() or "").startswith("zh"):
        return labels.seat_name(code)
    return f"{code} · {labels.seat_name(code)}"


@register.filter
def deal_name(number: Any, game: Any) -> str:
    """Deal 3 in the game's own word (``{{ claim.number|deal_name:game }}``): 第 3 副, or 第 3 局 in Dou Dizhu."""
    return str(game.deal_name) % {"number": number}


@register.simple_tag
def deal_words(game: Any, key: str, **values: Any) -> str:
    """A sentence naming a deal in the game's own word (``{% deal_words game "undo_number" number=3 %}``):
    撤销第 3 副, or 撤销第 3 局 in Dou Dizhu (``tournament.games.deal_words``)."""
    sentence = game.deal_words[key]
    return str(sentence % values) if values else str(sentence)


@register.simple_tag
def board_rows(rows: Any, *, score: str, deals: str, elapsed: str, referee: str) -> SafeString:
    """The progress board's body rows: what a template loop over 100 rows would render, in Python
    (the loop's per-cell lookups were most of a 2,500-table board page's build). ``score`` …
    ``referee``: the columns' labels, said again on each cell for the phone's stacked layout.

    Each value is escaped as Django's ``escape`` does (``html.escape`` of its text), without the
    lazy-string wrapper around it; a state's cells are made once a page."""
    text = html.escape
    score_label, deals_label, elapsed_label = text(str(score)), text(str(deals)), text(str(elapsed))
    referee_label = text(str(referee))
    states: dict[str, tuple[str, str, str]] = {}
    out: list[str] = []
    for row in rows:
        state = states.get(row.state)
        if state is None:
            code = text(row.state)
            state = states[row.state] = (code, f'data-state="{code}"', text(str(row.state_label)))
        code, data_state, state_label = state
        area = f' <span class="muted small">{text(row.area)}</span>' if row.area else ""
        pending = ""
        if row.claims_pending:
            words = ngettext("%(n)s awaiting confirmation", "%(n)s awaiting confirmation", row.claims_pending)
            pending = f" · {text(words % {'n': row.claims_pending})}"
        out.append(
            f'<tr class="board-row {code}">'
            f'<th scope="row"><a href="{text(row.url)}">{text(row.table_label)}</a>{area}</th>'
            f'<td><span class="badge {code}" {data_state}'
            f' data-claims-pending="{row.claims_pending}">{state_label}{pending}</span></td>'
            f"<td>{text(row.entrants)}</td>"
            f'<td data-label="{score_label}">{text(row.score)}</td>'
            f'<td class="num" data-label="{deals_label}">{row.deals}</td>'
            f'<td class="num" data-label="{elapsed_label}">{text(row.elapsed_text)}</td>'
            f'<td data-label="{referee_label}">{text(row.referee or "—")}</td></tr>'
        )
    return mark_safe("\n".join(out))  # every value above is escaped
