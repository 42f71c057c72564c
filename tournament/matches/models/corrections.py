"""A signed-off match's corrections and the later stages they flag."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.audit import AuditedHistory
from tournament.bounds import column_checks
from tournament.matches.models.core import Match, Round, Stage


class CorrectionStatus(models.TextChoices):
    OPEN = "open", _("Being corrected")
    CLOSED = "closed", _("Signed off again")


class Correction(models.Model):
    """One unlock of a signed-off match and what its re-sign-off changed.

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
    OPEN = "open", _("Awaiting the organiser's decision")
    KEPT = "kept", _("Kept, with a reason")
    REDRAWN = "redrawn", _("Drawn again")


class AdvancementFlagKind(models.TextChoices):
    ADVANCEMENT = "advancement", _("Advancement changed")
    ROUND = "round", _("Drawn from changed standings")


class AdvancementFlag(models.Model):
    """Something drawn from standings that a sign-off changed, until the organiser
    redraws it or keeps it with a reason. Two kinds, one machinery (docs/corrections.md):

    - ``advancement``: a later stage whose advancing set no longer matches its source stage's
      ranking (a corrected match, or a result counted provisionally when the stage was advanced);
      ``advanced`` / ``now_advancing`` are the pair ids advanced and those advancing now.
    - ``round``: a later round of the corrected match's own Swiss stage, drawn from the standings
      before the correction; ``round`` / ``round_number`` name it and ``detail`` holds the
      standings it was drawn from and the corrected ones (``before`` / ``after``: ``[pair id,
      rank, match points]`` in rank order).
    """

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="advancement_flags")
    kind = models.CharField(max_length=12, choices=AdvancementFlagKind.choices, default=AdvancementFlagKind.ADVANCEMENT)
    round = models.ForeignKey(
        Round, on_delete=models.SET_NULL, null=True, blank=True, related_name="correction_flags"
    )
    """The flagged round (kind ``round``); kept as ``round_number`` once the round is deleted (redrawn)."""
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    detail = models.JSONField(default=dict, blank=True)
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
            models.CheckConstraint(
                condition=Q(kind__in=AdvancementFlagKind.values), name="advancement_flag_kind_valid"
            ),
            # a round flag names its round's number (the round row may be gone: drawn again)
            models.CheckConstraint(
                condition=Q(kind="advancement", round_number__isnull=True)
                | Q(kind="round", round_number__isnull=False),
                name="advancement_flag_round_number",
            ),
            models.UniqueConstraint(
                fields=["stage"], condition=Q(status="open", kind="advancement"), name="advancement_flag_one_open"
            ),
            *column_checks("advancement_flag", round_number="PositiveSmallIntegerField"),
            models.UniqueConstraint(
                fields=["stage", "round_number"],
                condition=Q(status="open", kind="round"),
                name="advancement_flag_one_open_per_round",
            ),
        ]

    def __str__(self) -> str:
        where = f" round {self.round_number}" if self.kind == AdvancementFlagKind.ROUND else ""
        return f"{self.stage}{where}: {self.status}"

