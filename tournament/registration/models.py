"""Tournaments and who plays in them: departments, players, pairs.

Invariants live in the database as well as in the services (docs/design.md: nothing lost, nothing doubled): a player
sits in at most one pair (``PairMember.player`` is one-to-one), a pair has exactly the slots 1
and 2 (so never the same player twice), employee numbers are unique within a tournament.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.options import Game as CoreGame
from tournament.audit import AuditedHistory
from tournament.bounds import column_checks
from tournament.games import EntrantKind, entrants_of


class Game(models.TextChoices):
    """The rules core's games (``scoring.options.Game``) as stored: their values, with labels."""

    GUANDAN = CoreGame.GUANDAN.value, _("Guandan")
    TRACTOR = CoreGame.TRACTOR.value, _("Three-deck Tractor")
    DOUDIZHU = CoreGame.DOUDIZHU.value, _("Dou Dizhu")


EVENT_TIME_ZONE = "Asia/Shanghai"
"""A new event's time zone (a literal, not the site's setting: the stored default must not move with
the environment); an event elsewhere sets its own."""


class TournamentStatus(models.TextChoices):
    """An event's life, in order (``tournament.registration.lifecycle`` moves it)."""

    DRAFT = "draft", _("Draft")
    REGISTRATION = "registration", _("Registration")
    CHECK_IN = "check_in", _("Check-in")
    RUNNING = "running", _("In progress")
    FINISHED = "finished", _("Finished")
    ARCHIVED = "archived", _("Archived")


class ProvisionalResults(models.TextChoices):
    """What a finished but not yet signed-off result (待确认) counts for (docs/corrections.md).

    The one ranking (``tournament.standings.selectors``) applies it, so every reader follows: pages,
    the big screen, advancement, the next Swiss round's draw, prizes, the API and the workbook. A
    knockout advances on signed-off results only under either policy; a later stage advanced while
    results awaited sign-off is re-checked when they are signed off (``draw.advancement_flags``).
    """

    MARKED = "marked", _("Count them, marked awaiting sign-off")
    SIGNED_OFF = "signed_off", _("Count signed-off results only")


class EntryMode(models.TextChoices):
    """Who enters the deals at the tables (docs/player-entry.md). Not a scoring rule: the
    organiser may change it after the draw, and it applies to the next deal entered."""

    REFEREES = "referees", _("Referees only")
    PLAYERS_OPPONENTS_CONFIRM = "players_opponents", _("Players enter, the opponents confirm")
    PLAYERS_REFEREE_CONFIRMS = "players_referee", _("Players enter, a referee confirms")


class Tournament(models.Model):
    """One event. Its rules are a named profile of the rules core plus per-event overrides.

    ``provisional_results``: whether standings, placings, prizes, the big screen, the API and the
    workbook count results awaiting sign-off (marked 待确认) or only signed-off ones.
    ``entry_mode`` and ``auto_confirm_minutes`` say who enters deals at the tables and whether a
    deal the players entered counts by itself after N minutes unless disputed."""

    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(_("game"), max_length=16, choices=Game.choices, default=Game.GUANDAN)
    rule_profile = models.CharField(_("rule profile"), max_length=32, default="timed-40")
    rule_overrides = models.JSONField(_("rule overrides"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.REGISTRATION
    )
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="organised_tournaments",
        blank=True,
        verbose_name=_("organisers"),
    )
    provisional_results = models.CharField(
        _("results awaiting sign-off"),
        max_length=16,
        choices=ProvisionalResults.choices,
        default=ProvisionalResults.MARKED,
        db_default=ProvisionalResults.MARKED,  # rows written by code that predates the field get it too
    )
    entry_mode = models.CharField(
        _("who enters the deals"),
        max_length=20,
        choices=EntryMode.choices,
        default=EntryMode.REFEREES,
        # rows written by code that predates the field (a migration test's historical model) get it too
        db_default=EntryMode.REFEREES,
    )
    auto_confirm_minutes = models.PositiveSmallIntegerField(
        _("a deal counts unless disputed after (minutes)"), null=True, blank=True
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default=EVENT_TIME_ZONE,
        db_default=EVENT_TIME_ZONE,
        help_text=_("Deadlines and scheduled sessions are read and shown in it."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = AuditedHistory()

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(game__in=Game.values), name="tournament_game_valid"),
            models.CheckConstraint(
                condition=Q(provisional_results__in=ProvisionalResults.values),
                name="tournament_provisional_results_valid",
            ),
            models.CheckConstraint(
                condition=Q(status__in=TournamentStatus.values), name="tournament_status_valid"
            ),
            models.CheckConstraint(condition=Q(entry_mode__in=EntryMode.values), name="tournament_entry_mode_valid"),
            models.CheckConstraint(
                condition=Q(auto_confirm_minutes__isnull=True) | Q(auto_confirm_minutes__gte=1),
                name="tournament_auto_confirm_positive",
            ),
            *column_checks("tournament", auto_confirm_minutes="PositiveSmallIntegerField"),
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(starts_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="tournament_dates_ordered",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def read_only(self) -> bool:
        """Archived: every write is refused (``lifecycle.event_write``) and the pages offer none."""
        return self.status == TournamentStatus.ARCHIVED

    @property
    def registration_open(self) -> bool:
        """Entrants may still be added: until the event is finished (late entries join the next draw)."""
        return self.status not in (TournamentStatus.FINISHED, TournamentStatus.ARCHIVED)

    @property
    def entrants(self) -> EntrantKind:
        """Who the event's entrants are (``tournament.games.entrants``): their words (pair or player)."""
        return entrants_of(self)


class Department(models.Model):
    """A company unit (部门/单位); the draw can keep pairs of one department apart."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="departments")
    name = models.CharField(_("name"), max_length=80)
    history = AuditedHistory()

    class Meta:
        verbose_name = _("department")
        verbose_name_plural = _("departments")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="department_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=60)
    employee_number = models.CharField(_("employee number"), max_length=32, blank=True)
    department = models.ForeignKey(
        Department,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("department"),
    )
    phone = models.CharField(_("phone"), max_length=32, blank=True)
    history = AuditedHistory()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "employee_number"],
                condition=~Q(employee_number=""),
                name="player_employee_number_unique",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        ]
        indexes = [models.Index(fields=["tournament", "name"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.employee_number})" if self.employee_number else self.name


class PairStatus(models.TextChoices):
    REGISTERED = "registered", _("Registered")
    CHECKED_IN = "checked_in", _("Checked in")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class Pair(models.Model):
    """An entrant: a partnership (对) of two players, or — where the game's entrant kind is a player
    (Dou Dizhu, ``tournament.games.entrants.PLAYERS``) — one player (选手) with a single member at slot 1
    (docs/doudizhu.md).
    ``name`` is the players' names, kept by the services for fast lists."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairs")
    number = models.PositiveIntegerField(_("pair number"))
    """The pair's number in its event, 1…N in the order of registration: what pages, sheets,
    the workbook and the API show people ("#12"); URLs keep the database id. Given by
    ``registration.services.pair_numbers_take`` under the tournament's row lock."""
    name = models.CharField(_("name"), max_length=130)
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=PairStatus.choices, default=PairStatus.REGISTERED
    )
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    players = models.ManyToManyField(Player, through="PairMember", related_name="pairs")
    history = AuditedHistory()

    class Meta:
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=PairStatus.values), name="pair_status_valid"),
            models.UniqueConstraint(
                fields=["tournament", "seed"], condition=Q(seed__isnull=False), name="pair_seed_unique"
            ),
            models.UniqueConstraint(fields=["tournament", "number"], name="pair_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="pair_number_positive"),
            *column_checks("pair", seed="PositiveIntegerField", number="PositiveIntegerField"),
        ]

    def __str__(self) -> str:
        return self.name


class PairMember(models.Model):
    """One of the two players of a pair.

    ``player`` is one-to-one: a player sits in at most one pair (players belong to one
    tournament, so this is "one pair per tournament"). ``slot`` 1 or 2, unique per pair: a pair
    has at most two members and can never hold the same player twice.
    """

    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="members")
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="membership")
    slot = models.PositiveSmallIntegerField()
    history = AuditedHistory()

    class Meta:
        ordering = ["pair", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["pair", "slot"], name="pair_member_slot_unique"),
            models.CheckConstraint(condition=Q(slot__in=[1, 2]), name="pair_member_slot_valid"),
            *column_checks("pair_member", slot="PositiveSmallIntegerField"),
        ]

    def __str__(self) -> str:
        return f"{self.pair_id}#{self.slot}: {self.player_id}"


class Announcement(models.Model):
    """A short notice (公告) the organiser posts to an event (docs/rules.md §12): shown newest first on
    the event's public page, the big screen and the players' table page, and in the event's Atom feed.
    Edited and withdrawn through ``registration.announcements`` (audited); a withdrawn notice is kept
    (``withdrawn_at``), never deleted, so its history stays readable."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="announcements")
    text = models.CharField(_("text"), max_length=500)
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    posted_at = models.DateTimeField(_("posted at"))
    edited_at = models.DateTimeField(_("edited at"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    history = AuditedHistory()

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        ordering = ["-posted_at", "-id"]
        constraints = [models.CheckConstraint(condition=~Q(text=""), name="announcement_text_not_empty")]
        indexes = [models.Index(fields=["tournament", "-posted_at"])]

    def __str__(self) -> str:
        return self.text[:40]


class Team(models.Model):
    """A team of an event (集体比赛, docs/rules.md §11): a name, by default a department's, and its
    members (:class:`TeamMember`): pairs, or in an event of players (Dou Dizhu) players — always the
    event's entrants (``Pair`` rows). ``number`` is the team's number in its event, 1…N in the order
    the teams were made (what pages, sheets and the API show)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveIntegerField(_("team number"))
    name = models.CharField(_("name"), max_length=80)
    department = models.ForeignKey(
        Department,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="teams",
        verbose_name=_("department"),
    )
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    """The organiser's seed (1 = the top seed), or empty: a knockout of teams seeded "by seeds" places the
    seeded teams by it, as a pair's seed places pairs (docs/rules.md §4, §11). Set through
    ``registration.teams.team_seed_set``; unique in the event when set."""
    history = AuditedHistory()

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique"),
            models.UniqueConstraint(fields=["tournament", "number"], name="team_number_unique"),
            models.UniqueConstraint(
                fields=["tournament", "department"],
                condition=Q(department__isnull=False),
                name="team_department_unique",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="team_name_not_empty"),
            models.CheckConstraint(condition=Q(number__gte=1), name="team_number_positive"),
            models.UniqueConstraint(
                fields=["tournament", "seed"], condition=Q(seed__isnull=False), name="team_seed_unique"
            ),
            models.CheckConstraint(condition=Q(seed__isnull=True) | Q(seed__gte=1), name="team_seed_positive"),
            *column_checks("team", number="PositiveIntegerField", seed="PositiveIntegerField"),
        ]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """One member of a team: an entrant of the event (a pair; Dou Dizhu: a player).

    ``pair`` is one-to-one: an entrant belongs to one event, so this is "a pair is in at most one team
    of an event" (docs/rules.md §11), held by the database. ``substitute``: registered to be swapped in
    between rounds; its results count for the team like any member's (the team total sums what the
    stage's ranking says of every member). ``position`` orders the members (registration order: the
    default line-up of a team match), unique in the team."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    pair = models.OneToOneField(Pair, on_delete=models.CASCADE, related_name="team_membership")
    position = models.PositiveSmallIntegerField()
    substitute = models.BooleanField(_("substitute"), default=False)
    history = AuditedHistory()

    class Meta:
        ordering = ["team", "position"]
        constraints = [
            models.UniqueConstraint(fields=["team", "position"], name="team_member_position_unique"),
            models.CheckConstraint(condition=Q(position__gte=1), name="team_member_position_positive"),
            *column_checks("team_member", position="PositiveSmallIntegerField"),
        ]

    def __str__(self) -> str:
        return f"{self.team_id}#{self.position}: {self.pair_id}"
