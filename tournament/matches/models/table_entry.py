"""Players entering at their table: the table's link generation and the deals awaiting
the other side's confirmation."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from tournament.audit import AuditedHistory
from tournament.bounds import column_checks
from tournament.matches.models.core import Deal, Match, Round, Side, Table, ThreeSeat
from tournament.registration.models import Player


class TableLinkKey(models.Model):
    """The generation of a table's link in a round (``tournament.matches.table_links``).

    A table's QR code carries a token signed with the round, the table and this generation (0 while
    no row exists). Revoking the link adds one: every token printed before stops working, and the
    cards printed next carry the new one. No row per table is made until a link is revoked.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="table_link_keys")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="link_keys")
    generation = models.PositiveIntegerField(default=0)
    history = AuditedHistory()

    class Meta:
        verbose_name = _("table link")
        verbose_name_plural = _("table links")
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="table_link_key_once"),
            *column_checks("table_link_key", generation="PositiveIntegerField"),
        ]

    def __str__(self) -> str:
        return f"{self.round_id}/{self.table_id}: {self.generation}"


class ClaimStatus(models.TextChoices):
    PENDING = "pending", _("Awaiting confirmation")
    DISPUTED = "disputed", _("Disputed")
    CONFIRMED = "confirmed", _("Confirmed")
    SETTLED = "settled", _("Settled by a referee")
    WITHDRAWN = "withdrawn", _("Taken back")
    REFUSED = "refused", _("Refused")


CLAIM_OPEN = (ClaimStatus.PENDING, ClaimStatus.DISPUTED)


def claims_still_open(claims: QuerySet[DealClaim]) -> QuerySet[DealClaim]:
    """The one answer to "is this players' entry still open?" (docs/player-entry.md): awaiting confirmation
    or disputed, and of a deal number not recorded yet — a recorded deal is what the table has, and an
    entry of its number can only be refused (as an earlier release could leave one). The table's page,
    the referee's, a confirmation's order, the progress board and the deadline board all ask it."""
    recorded = Deal.objects.filter(match=OuterRef("match"), number=OuterRef("number"))
    return claims.filter(status__in=CLAIM_OPEN).exclude(Exists(recorded))


class DealClaim(models.Model):
    """A deal a player entered at the table, waiting for the other side.

    A claim is not a deal: the match's fold and snapshot never see it. Confirming it (by an
    opponent, a referee, or the round's auto-confirm) records ``outcome`` through the one write path
    (``services.deal_record``) in the same transaction, and ``deal`` points at the deal it became.
    A disagreement is a dispute: ``counter_outcome`` is the other side's version, and a referee
    settles it by recording one version (or a third). ``number`` is the deal number the claim is
    for; at most one open (pending or disputed) claim holds a number, so two phones entering the
    same deal make one claim and one clear refusal.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="claims")
    number = models.PositiveSmallIntegerField(_("deal number"))
    outcome = models.JSONField(_("outcome"))
    # a pair's side (N/S, E/W), or at a three-seat table the player's seat (E/S/W): each player is
    # their own side there, and any other player of the table answers the entry
    side = models.CharField(_("entered by side"), max_length=2, choices=Side.choices + ThreeSeat.choices)
    entered_by = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("entered by")
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    idempotency_key = models.CharField(max_length=64)
    status = models.CharField(_("status"), max_length=12, choices=ClaimStatus.choices, default=ClaimStatus.PENDING)
    counter_outcome = models.JSONField(_("the other side's version"), null=True, blank=True)
    answered_by = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("confirmed by")
    )
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    settled_at = models.DateTimeField(_("settled at"), null=True, blank=True)
    auto_confirmed = models.BooleanField(default=False)
    note = models.CharField(_("note"), max_length=200, blank=True)
    deal = models.ForeignKey(Deal, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    history = AuditedHistory()

    class Meta:
        verbose_name = _("deal awaiting confirmation")
        verbose_name_plural = _("deals awaiting confirmation")
        ordering = ["match", "number", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "idempotency_key"], name="deal_claim_idempotency_key_unique"),
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=Q(status__in=["pending", "disputed"]),
                name="deal_claim_one_open_per_number",
            ),
            models.CheckConstraint(condition=Q(status__in=ClaimStatus.values), name="deal_claim_status_valid"),
            models.CheckConstraint(
                condition=Q(side__in=["NS", "EW", "E", "S", "W"]), name="deal_claim_side_or_seat_valid"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_claim_number_positive"),
            models.CheckConstraint(condition=~Q(idempotency_key=""), name="deal_claim_key_required"),
            *column_checks("deal_claim", number="PositiveSmallIntegerField"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} #{self.number} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status in CLAIM_OPEN
