"""Referees' tables and the referees of an event: who may reach which table."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournament.audit import AuditedHistory
from tournament.matches.models.core import Round, Table
from tournament.registration.models import Tournament


class RefereeAssignment(models.Model):
    """A referee's table in a round; referees reach only these (docs/design.md: roles are
    enforced on the server)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="referee_assignments")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="referee_assignments")
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assignments"
    )
    history = AuditedHistory()

    class Meta:
        verbose_name = _("referee assignment")
        verbose_name_plural = _("referee assignments")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table"], name="referee_assignment_table_once_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.table}: {self.referee}"


class ChiefReferee(models.Model):
    """The chief referee (裁判长) of a tournament: reaches every table of it, records adjustments."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chief_referees")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    history = AuditedHistory()

    class Meta:
        verbose_name = _("chief referee")
        verbose_name_plural = _("chief referees")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="chief_referee_once_per_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.user}"


class Referee(models.Model):
    """A referee (裁判) of one tournament, made by its organiser.

    Referees belong to one event: an organiser running several events makes each event's
    referees in that event, so that a referee of one event never reaches another's tables and
    an event's list holds only its own people. Each referee has its own sign-in account
    (``user``, no password: they sign in with a one-time link, ``RefereeSignInLink``);
    ``active`` is mirrored on ``user.is_active`` by the services, so a deactivated referee's
    phone is signed out at its next request.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="referees")
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="referee_profile"
    )
    name = models.CharField(_("name"), max_length=60)
    phone = models.CharField(_("phone"), max_length=30, blank=True)
    employee_number = models.CharField(_("employee number"), max_length=30, blank=True)
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    history = AuditedHistory()

    class Meta:
        verbose_name = _("referee")
        verbose_name_plural = _("referees")
        ordering = ["tournament", "name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="referee_name_once_per_tournament"),
            models.UniqueConstraint(
                fields=["tournament", "phone"], condition=~Q(phone=""), name="referee_phone_once_per_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament", "employee_number"],
                condition=~Q(employee_number=""),
                name="referee_employee_number_once_per_tournament",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="referee_name_required"),
        ]

    def __str__(self) -> str:
        return self.name


class RefereeSignInLink(models.Model):
    """A one-time sign-in link of a referee: only the SHA-256 of its token is kept.

    The link signs its referee in once (``used_at``), until ``expires_at``; a reset revokes it
    (``revoked_at``). At most one link per referee is open (neither used nor revoked).
    """

    referee = models.ForeignKey(Referee, on_delete=models.CASCADE, related_name="sign_in_links")
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"))
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    history = AuditedHistory()

    class Meta:
        verbose_name = _("referee sign-in link")
        verbose_name_plural = _("referee sign-in links")
        constraints = [
            models.UniqueConstraint(
                fields=["referee"],
                condition=Q(used_at__isnull=True, revoked_at__isnull=True),
                name="referee_one_open_sign_in_link",
            ),
            models.CheckConstraint(condition=Q(expires_at__gt=F("created_at")), name="referee_link_expires_later"),
        ]

    def __str__(self) -> str:
        return f"{self.referee}: {self.created_at:%Y-%m-%d %H:%M}"

