"""The referee's dispute assistant page: "does this play beat that one?" (docs/rules.md §8).

A read-only tool: it asks the rules core (``scoring.cards``) and changes no result. It works
without JavaScript (a GET form of card notation); the on-screen picker fills the same fields.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from scoring.cards import CardError, classify
from scoring.cards_beats import beats
from scoring.levels import level_label
from tournament.errors import scoring_message
from tournament.htmx import HtmxHttpRequest
from tournament.locale import in_ui_language
from tournament.matches.selectors import card_rules
from tournament.parsing import int_or_none
from tournament.registration.roles import user_may_use_referee_tools

LEVEL_CHOICES = [(str(level), level_label(level)) for level in range(2, 15)]
SUITS = [("S", "♠"), ("H", "♥"), ("C", "♣"), ("D", "♦")]
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]


class CardDisputeForm(forms.Form):
    level = forms.TypedChoiceField(label=_("Level"), choices=LEVEL_CHOICES, coerce=int, initial="2")
    play = forms.CharField(label=_("Play"), max_length=200, help_text=_("e.g. KS,5H"))
    previous = forms.CharField(label=_("Previous play"), max_length=200, required=False)
    declared = forms.CharField(label=_("Declared as (optional)"), max_length=40, required=False)
    match = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)


@login_required
def card_dispute(request: HtmxHttpRequest) -> HttpResponse:
    """Classify a play and, given the previous play, say whether it beats it."""
    if not user_may_use_referee_tools(request.user):
        raise Http404
    match_id = request.GET.get("match")
    rules = card_rules(user=request.user, match_id=int_or_none(match_id, low=1))
    initial = {"match": rules.match.pk} if rules.match is not None else {}
    form = CardDisputeForm(request.GET if "play" in request.GET else None, initial=initial)
    result: dict[str, Any] = {}
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        try:
            result["classification"] = classify(
                cards=data["play"], level=data["level"], wild_reading=rules.wild_reading
            )
            if data["previous"]:
                verdict = beats(
                    play=data["play"],
                    previous=data["previous"],
                    level=data["level"],
                    declared=data["declared"] or None,
                    wild_reading=rules.wild_reading,
                )
                result["verdict"] = verdict
                result["reason"] = in_ui_language(en=verdict.reason, zh=verdict.reason_zh)
        except CardError as error:
            form.add_error(None, scoring_message(error))
    context = {
        "form": form,
        "card_rules": rules,
        "suits": SUITS,
        "ranks": RANKS,
        **result,
    }
    template = "matches/_card_verdict.html" if request.htmx else "matches/card_dispute.html"
    return render(request, template, context)
