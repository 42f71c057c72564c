"""Form fields whose choices a form sets when it is built (from the event, the stage or the match)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's field ``name``, a choice field (its choices to be set for this form)."""
    field = form.fields[name]
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"{name} is not a choice field")
    return field


def date_field(*, label: str | StrPromise) -> forms.DateField:
    """An optional day picked in the browser's date picker. ``<input type=date>`` takes only ISO
    dates (``2026-12-03``); a value in the page language's own format (Chinese ``2026/12/03``)
    shows an empty picker, and saving the form would then erase the stored day."""
    return forms.DateField(
        label=label,
        required=False,
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
    )
