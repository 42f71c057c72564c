"""Team matches (团体对抗, docs/rules.md §11): a round's line-ups and its team matches.

A team match is two ordinary :class:`~tournament.matches.models.Match` rows — table a (X1 N/S against
Y1 E/W) and table b (Y2 N/S against X2 E/W) — each with its own clock, entry, corrections and sheets;
this row only says which two teams they are and which match is which table. A :class:`TeamLineUp` is a
team's pair 1 and pair 2 for one round, changed (audited) until the round is published.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournament.audit import AuditedHistory
from tournament.bounds import column_checks
from tournament.matches.models.core import Match, Round, Side
from tournament.registration.models import Pair, Team


class TeamMatch(models.Model):
    """Team X (drawn first: N/S at table a) against team Y (N/S at table b); ``team_y`` empty: a bye."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="team_matches")
    number = models.PositiveIntegerField(_("number"))
    """The team match's place in the round (1: the top one), its tables numbered 2n−1 and 2n."""
    team_x = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="+", verbose_name=_("team"))
    team_y = models.ForeignKey(
        Team, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("opponent")
    )
    table_a = models.OneToOneField(Match, on_delete=models.CASCADE, null=True, blank=True, related_name="team_as_a")
    table_b = models.OneToOneField(Match, on_delete=models.CASCADE, null=True, blank=True, related_name="team_as_b")
    bracket_slot = models.PositiveSmallIntegerField(_("bracket position"), null=True, blank=True)
    """A fixed bracket's position of the team match in its round (a knockout of teams), else empty."""
    extra_deal = models.CharField(_("tie-break deal won by"), max_length=2, choices=Side.choices, blank=True)
    """A drawn knockout team match: the side of the deciding table that won its tie-break deal
    (docs/rules.md §11); empty until it is recorded."""
    history = AuditedHistory()

    class Meta:
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="team_match_number_unique"),
            models.UniqueConstraint(fields=["round", "team_x"], name="team_match_x_once"),
            models.UniqueConstraint(fields=["round", "team_y"], name="team_match_y_once"),
            models.CheckConstraint(condition=~Q(team_x=F("team_y")), name="team_match_not_itself"),
            models.UniqueConstraint(fields=["round", "bracket_slot"], name="team_match_bracket_slot_once"),
            *column_checks("team_match", number="PositiveIntegerField", bracket_slot="PositiveSmallIntegerField"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.team_x_id} v {self.team_y_id or '-'}"


class TeamLineUp(models.Model):
    """A team's pair 1 and pair 2 for a round (docs/rules.md §11), editable until it is published."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="line_ups")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="line_ups")
    first = models.ForeignKey(Pair, on_delete=models.RESTRICT, related_name="+", verbose_name=_("pair 1"))
    second = models.ForeignKey(Pair, on_delete=models.RESTRICT, related_name="+", verbose_name=_("pair 2"))
    history = AuditedHistory()

    class Meta:
        verbose_name = _("line-up")
        verbose_name_plural = _("line-ups")
        constraints = [
            models.UniqueConstraint(fields=["round", "team"], name="team_line_up_once"),
            models.CheckConstraint(condition=~Q(first=F("second")), name="team_line_up_two_pairs"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.team_id} {self.first_id}/{self.second_id}"
