"""Template filters that show the rules in force (issue 13), for organisers' and public pages alike."""

from __future__ import annotations

from typing import Any

from django import template

from tournament import labels

register = template.Library()

register.filter("profile_title", labels.profile_title)
register.filter("rule_option", labels.rule_option)


@register.filter
def rule_value(value: Any, name: Any) -> str:
    """``{{ line.value|rule_value:line.name }}``: an option's value in words."""
    return labels.rule_value(name, value)
