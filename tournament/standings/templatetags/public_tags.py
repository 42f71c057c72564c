"""Template filters of the public pages: levels, sides, statuses and movement as players read them."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import labels
from tournament.locale import in_ui_language
from tournament.matches.models import AdjustmentKind, MatchStatus, RoundStatus

register = template.Library()


register.filter("level", labels.level)
register.filter("side_label", labels.side)
register.filter("reason_label", labels.reason)
register.filter("seat_label", labels.seat)
register.filter("a_attempt_note", labels.a_attempt_note)


@register.filter
def tractor_faults(deal: Any) -> str:
    """A Tractor deal's faults (a ``DealLine``) in words (seed 001 §9.1, §17, §18)."""
    names = ("revoke", "wrong_bottom", "wrong_count")
    return " · ".join(str(fault) for fault in labels.tractor_faults({name: getattr(deal, name) for name in names}))


@register.filter
def match_status(value: Any) -> str:
    try:
        return str(MatchStatus(value).label)
    except ValueError:
        return ""


@register.filter
def adjustment_kind(value: Any) -> str:
    """ "forfeit" → 弃权判负: an adjustment of a match's history by the label the referee chose."""
    return str(dict(AdjustmentKind.choices).get(value, value or ""))


@register.filter
def round_status(value: Any) -> str:
    try:
        return str(RoundStatus(value).label)
    except ValueError:
        return ""


@register.filter
def metric_title(column: Any) -> str:
    """A tie-break column's title from the rules core's metric registry, Chinese first."""
    return in_ui_language(en=str(column.title), zh=str(column.title_zh))


@register.filter
def dash(value: Any) -> Any:
    return "—" if value is None or value == "" else value


@register.simple_tag
def movement(line: Any, said_once: bool = False) -> str:
    """▲ 3 / ▼ 2 / – with the words for screen readers (colour is never the only cue). ``said_once``:
    the page already says there is no earlier round, so a line without one shows nothing."""
    change = line.movement
    if change is None and said_once:
        return ""
    if change is None:
        return format_html(
            '<span class="move new" title="{0}">·<span class="visually-hidden">{0}</span></span>', _("no earlier round")
        )
    if change == 0:
        return format_html('<span class="move same">–<span class="visually-hidden">{}</span></span>', _("unchanged"))
    if change > 0:
        words = ngettext("up %(n)d place", "up %(n)d places", change) % {"n": change}
        return format_html('<span class="move up">▲{}<span class="visually-hidden"> {}</span></span>', change, words)
    words = ngettext("down %(n)d place", "down %(n)d places", -change) % {"n": -change}
    return format_html('<span class="move down">▼{}<span class="visually-hidden"> {}</span></span>', -change, words)


@register.filter
def of_side(pair: Any, side: str) -> Any:
    """The NS or EW half of a (ns, ew) tuple."""
    if not pair:
        return None
    return pair[0] if side == "NS" else pair[1]


@register.filter
def in_language(texts: Any) -> str:
    """``(english, chinese)`` → the one of the interface language (a rules-core text carries both)."""
    if not texts:
        return ""
    return in_ui_language(en=texts[0], zh=texts[1])


@register.filter
def knockout_round_name(pairs: Any) -> str:
    """``{{ round.remaining|knockout_round_name }}``: 决赛, 半决赛, 四分之一决赛, 1/8 决赛 … (``labels``)."""
    from tournament import labels

    return labels.knockout_round_name(int(pairs or 0))


@register.filter
def third_place_name(_value: Any) -> str:
    from tournament import labels

    return labels.third_place_name()


@register.simple_tag
def pair_result(match: Any, pair_id: int) -> Any:
    """``{% pair_result match pair.id as result %}``: the match from that pair's side, own score first."""
    from tournament.standings.results import pair_result as result_of

    return result_of(match, pair_id)


@register.filter
def forfeit_text(match: Any) -> str:
    """ "东西弃权" / "双方弃权" for a forfeited match (a public row), "" for a played one."""
    from tournament.standings.results import forfeit_text as text_of

    return text_of(match)


@register.filter
def forfeited_by(match: Any) -> str:
    """Who forfeited a public row: "NS", "EW", "both", or "" (played)."""
    from tournament.standings.results import forfeited_by as who

    return who(match)
