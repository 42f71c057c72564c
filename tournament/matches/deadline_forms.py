"""The self-scheduled round's forms (docs/rules.md §12.1): shapes only; the services decide."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.audit import REASON_MAX

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

LOCAL = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
LOCAL_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]


def local_field(label: StrOrPromise) -> forms.DateTimeField:
    """A date and time as typed: read in the event's time zone by the view (never the browser's)."""
    return forms.DateTimeField(label=label, widget=LOCAL, input_formats=LOCAL_FORMATS, localize=False)


class DeadlineOpenForm(forms.Form):
    deadline = local_field(_("Deadline"))


class SessionForm(forms.Form):
    scheduled_at = local_field(_("Session (date and time)"))


class ExtendForm(forms.Form):
    deadline = local_field(_("New deadline"))
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX)
    match = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1, max_value=2_147_483_647)
