"""Prize tiers, the ranking they are awarded from, and background export jobs."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.audit import AuditedHistory
from tournament.bounds import column_checks
from tournament.matches.models import Round, Stage
from tournament.registration.models import Tournament


class PrizeTier(models.Model):
    """A prize (奖项) for the next ``pair_count`` pairs of the final ranking, best tier first.

    Seed 003 (docs/rules.md §4): 1st place 1 pair, 2nd 2 pairs, 3rd 3 pairs, then 优胜 for the next ones.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prize_tiers")
    name = models.CharField(_("name"), max_length=40)
    pair_count = models.PositiveIntegerField(_("pairs"))
    order = models.PositiveSmallIntegerField(_("order"))
    history = AuditedHistory()

    class Meta:
        verbose_name = _("prize tier")
        verbose_name_plural = _("prize tiers")
        ordering = ["tournament", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="prize_tier_order_unique"),
            models.UniqueConstraint(fields=["tournament", "name"], name="prize_tier_name_unique"),
            models.CheckConstraint(condition=Q(pair_count__gte=1), name="prize_tier_pair_count_positive"),
            models.CheckConstraint(condition=~Q(name=""), name="prize_tier_name_not_empty"),
            *column_checks("prize_tier", pair_count="PositiveIntegerField", order="PositiveSmallIntegerField"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.pair_count})"


class TeamPrizeTier(models.Model):
    """A team prize (团体奖) for the next ``team_count`` teams of the team total, best tier first
    (docs/rules.md §4 and §11): awarded beside the pairs' prizes, from the teams' own ranking."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="team_prize_tiers")
    name = models.CharField(_("name"), max_length=40)
    team_count = models.PositiveIntegerField(_("teams"))
    order = models.PositiveSmallIntegerField(_("order"))
    history = AuditedHistory()

    class Meta:
        verbose_name = _("team prize tier")
        verbose_name_plural = _("team prize tiers")
        ordering = ["tournament", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="team_prize_tier_order_unique"),
            models.UniqueConstraint(fields=["tournament", "name"], name="team_prize_tier_name_unique"),
            models.CheckConstraint(condition=Q(team_count__gte=1), name="team_prize_tier_team_count_positive"),
            models.CheckConstraint(condition=~Q(name=""), name="team_prize_tier_name_not_empty"),
            *column_checks("team_prize_tier", team_count="PositiveIntegerField", order="PositiveSmallIntegerField"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.team_count})"


class PrizeRanking(models.Model):
    """Which ranking the prizes come from, and who drew lots for it and when.

    ``stage`` empty means the tournament's last stage. The lots (抽签, needed when a shared rank
    straddles the boundary of a tier) are the stage's own, recorded with it (``Stage.settings.lots_seed``:
    drawn once, read by every reader of its ranking); here only who drew them for the prizes, and when.
    """

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="prize_ranking")
    stage = models.ForeignKey(
        Stage, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("stage")
    )
    lots_drawn_at = models.DateTimeField(_("lots drawn at"), null=True, blank=True)
    lots_drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    history = AuditedHistory()

    class Meta:
        verbose_name = _("prize ranking")
        verbose_name_plural = _("prize rankings")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.stage or '—'}"


class ExportKind(models.TextChoices):
    WORKBOOK = "workbook", _("Tournament workbook")
    ROUND_DRAW = "round_draw", _("Round draw sheet")
    SCORE_SHEETS = "score_sheets", _("Score sheets")


class ExportStatus(models.TextChoices):
    PENDING = "pending", _("Waiting")
    RUNNING = "running", _("Being generated")
    DONE = "done", _("Ready")
    FAILED = "failed", _("Failed")


class ExportLanguage(models.TextChoices):
    ZH = "zh", "中文"
    EN = "en", "English"


def export_file_name(job: ExportJob, filename: str) -> str:
    """One fixed name per job, so a job run again replaces its own file (idempotent)."""
    return f"exports/{job.tournament_id}/{job.pk}-{job.kind}.xlsx"


class ExportJob(models.Model):
    """One export generated in the background (Celery; inline in eager mode) with its progress.

    The file is kept under MEDIA_ROOT and served only through the organiser's download view, never
    as a public media URL: a workbook holds players' phone numbers.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="export_jobs")
    kind = models.CharField(_("kind"), max_length=16, choices=ExportKind.choices, default=ExportKind.WORKBOOK)
    language = models.CharField(
        _("language of the sheets"), max_length=2, choices=ExportLanguage.choices, default=ExportLanguage.ZH
    )
    round = models.ForeignKey(Round, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    status = models.CharField(_("status"), max_length=16, choices=ExportStatus.choices, default=ExportStatus.PENDING)
    progress = models.PositiveSmallIntegerField(_("progress (%)"), default=0)
    error = models.TextField(_("error"), blank=True)
    file = models.FileField(_("file"), upload_to=export_file_name, max_length=200, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("export")
        verbose_name_plural = _("exports")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=ExportKind.values), name="export_job_kind_valid"),
            models.CheckConstraint(condition=Q(status__in=ExportStatus.values), name="export_job_status_valid"),
            models.CheckConstraint(condition=Q(progress__lte=100), name="export_job_progress_at_most_100"),
            models.CheckConstraint(
                condition=Q(kind=ExportKind.WORKBOOK) | Q(round__isnull=False), name="export_job_round_needed"
            ),
            *column_checks("export_job", progress="PositiveSmallIntegerField"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"

    @property
    def is_active(self) -> bool:
        return self.status in (ExportStatus.PENDING, ExportStatus.RUNNING)


def default_points_table() -> dict[str, object]:
    """The points table a new series starts with (docs/rules.md §12.3's example): 10, 8, 6, 5, 4, 3, 2, 1, then 1."""
    return {"places": {"1": 10, "2": 8, "3": 6, "4": 5, "5": 4, "6": 3, "7": 2, "8": 1}, "others": 1}


class Series(models.Model):
    """Several events of one game counted towards one ranking of players (系列赛 / 年度积分, docs/rules.md §12.3).

    ``points_table`` is the rules core's ``PointsTable.to_json()`` (checked by ``series_points_set``);
    ``lots_seed`` breaks the last ties, drawn once when the series is made; ``show_rating``: the rating
    across the series (§12.4) is shown on its public page."""

    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(_("game"), max_length=16, default="guandan")
    points_table = models.JSONField(_("points table"), default=default_points_table)
    show_rating = models.BooleanField(_("show the rating"), default=True)
    lots_seed = models.BigIntegerField(_("lots seed"), default=0)
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organised_series", blank=True)
    events = models.ManyToManyField(Tournament, through="SeriesEvent", related_name="series", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    history = AuditedHistory()

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="series_name_not_empty"),
            *column_checks("series", lots_seed="BigIntegerField"),
        ]

    def __str__(self) -> str:
        return self.name


class SeriesEvent(models.Model):
    """An event counted in a series (once), of the series' game (``series_event_add`` refuses another)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="series_entries")
    history = AuditedHistory()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["series", "tournament"], name="series_event_once")]

    def __str__(self) -> str:
        return f"{self.series_id}: {self.tournament_id}"


class SeriesRating(models.Model):
    """A player's rating across a series as last rebuilt (docs/rules.md §12.4; ``series_ratings_rebuild``):
    ``player`` is the player's key (the employee number), ``name`` the name they last played under."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="ratings")
    player = models.CharField(max_length=64)
    name = models.CharField(max_length=60)
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField()

    class Meta:
        ordering = ["series", "player"]
        constraints = [
            models.UniqueConstraint(fields=["series", "player"], name="series_rating_once"),
            *column_checks("series_rating", matches="PositiveIntegerField"),
        ]

    def __str__(self) -> str:
        return f"{self.series_id}: {self.player}"

    @property
    def shown(self) -> float:
        """μ − 3σ, the number shown."""
        return self.mu - 3 * self.sigma
