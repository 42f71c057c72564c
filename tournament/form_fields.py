"""Form fields whose choices a form sets when it is built (from the event, the stage or the match)."""

from __future__ import annotations

from django import forms


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's field ``name``, a choice field (its choices to be set for this form)."""
    field = form.fields[name]
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"{name} is not a choice field")
    return field
