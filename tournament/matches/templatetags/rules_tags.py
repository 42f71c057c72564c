"""Template filters that show the rules in force, for organisers' and public pages alike."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from scoring.conduct import TableConduct
from tournament import labels
from tournament.matches.selectors import round_knockout_pairs, round_state
from tournament.people import person_name
from tournament.rules import StoredRules, stage_table_conduct

register = template.Library()

register.filter("profile_title", labels.profile_title)
register.filter("rule_option", labels.rule_option)
register.filter("draw_algorithm", labels.draw_algorithm)
register.filter("person", person_name)  # {{ match.signed_off_by|person }}: a name, never a login


@register.filter
def rule_value(value: Any, name: Any) -> str:
    """``{{ line.value|rule_value:line.name }}``: an option's value in words."""
    return labels.rule_value(name, value)


@register.simple_tag
def table_conduct(stage: StoredRules) -> TableConduct:
    """``{% table_conduct stage as conduct %}``: the stage's table conduct text (docs/rules.md §7), the
    rules core's one text for its profile (``tournament.rules.stage_table_conduct``)."""
    return stage_table_conduct(stage)


@register.filter
def round_name(round_: Any, third_place: bool = False) -> str:
    """``{{ round|round_name }}``: 决赛, 半决赛 … for a knockout round, else 第 N 轮; for one table of it,
    ``{{ round|round_name:t.third_place }}``: 三四名决赛 at the third-place match (``labels.round_name``)."""
    return labels.round_name(
        number=round_.number, knockout_pairs=round_knockout_pairs(round_=round_), third_place=bool(third_place)
    )


@register.filter
def round_badge(round_: Any) -> SafeString:
    """``{{ round|round_badge }}``: the round's state badge (``matches.selectors.round_state``: 已暂停 while paused)."""
    code, label = round_state(status=round_.status, paused=round_.paused_at is not None)
    return format_html('<span class="badge {}">{}</span>', code, label)
