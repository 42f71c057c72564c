"""A signed-off match's corrections and the later stages they flag (issue 17)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.audit import AuditedHistory
from tournament.matches.models.core import Match, Stage


class CorrectionStatus(models.TextChoices):
    OPEN = "open", _("Being corrected")
    CLOSED = "closed", _("Signed off again")


class Correction(models.Model):
    """One unlock of a signed-off match and what its re-sign-off changed (issue 17).

    ``before``: the result when it was unlocked (``winner`` pair id, ``result``); ``dependents``:
    what the unlock page showed depends on it (``tournament.matches.corrections.match_dependents``);
    ``changes``: what the re-sign-off found — the winner changed, the bracket followed, later
    stages flagged. Kept forever, with history, as the account of the correction.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="corrections")
    status = models.CharField(max_length=8, choices=CorrectionStatus.choices, default=CorrectionStatus.OPEN)
    reason = models.CharField(_("reason"), max_length=200)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    opened_at = models.DateTimeField()
    before = models.JSONField(default=dict)
    dependents = models.JSONField(default=dict)
    changes = models.JSONField(default=dict, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    history = AuditedHistory()

    class Meta:
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        ordering = ["match", "opened_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=CorrectionStatus.values), name="correction_status_valid"),
            models.CheckConstraint(condition=~Q(reason=""), name="correction_reason_required"),
            # a match is unlocked at most once at a time
            models.UniqueConstraint(
                fields=["match"], condition=Q(status="open"), name="correction_one_open_per_match"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.reason}"


class AdvancementFlagStatus(models.TextChoices):
    OPEN = "open", _("Advancement changed")
    KEPT = "kept", _("Kept, with a reason")
    REDRAWN = "redrawn", _("Advanced again")


class AdvancementFlag(models.Model):
    """A later stage whose advancing set no longer matches its source stage's ranking after a
    sign-off (a corrected match, or a result counted provisionally when the stage was advanced;
    issue 17): flagged "advancement changed" until the organiser redraws or keeps it with a reason."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="advancement_flags")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="advancement_flags")
    """The match whose sign-off changed who advances (a corrected one, or a provisional result)."""
    correction = models.ForeignKey(
        Correction, on_delete=models.SET_NULL, null=True, blank=True, related_name="advancement_flags"
    )
    status = models.CharField(
        max_length=8, choices=AdvancementFlagStatus.choices, default=AdvancementFlagStatus.OPEN
    )
    advanced = models.JSONField(default=list)
    """The pair ids advanced (the stage's entrants when flagged)."""
    now_advancing = models.JSONField(default=list)
    """The pair ids the source stage's ranking advances after the correction."""
    decision_reason = models.CharField(_("reason"), max_length=200, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    history = AuditedHistory()

    class Meta:
        verbose_name = _("advancement flag")
        verbose_name_plural = _("advancement flags")
        ordering = ["stage", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=AdvancementFlagStatus.values), name="advancement_flag_status_valid"
            ),
            models.CheckConstraint(
                condition=~Q(status="kept") | ~Q(decision_reason=""), name="advancement_flag_kept_with_reason"
            ),
            models.UniqueConstraint(fields=["stage"], condition=Q(status="open"), name="advancement_flag_one_open"),
        ]

    def __str__(self) -> str:
        return f"{self.stage}: {self.status}"

