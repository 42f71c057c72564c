"""Stages, rounds, tables, matches, seats, deals and adjustments.

Deals are the source of truth (docs/design.md): ``Match.state`` is a snapshot of the
rules core's fold of the match's deals and adjustments, refreshed in the transaction that
writes a deal. Database constraints back every invariant: one deal per (match, number), one
idempotency key per match, a pair at most once in a round (``RoundEntry``), one match per table
and round. Referees, corrections and players' entries are in this package's other modules.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Case, F, Q, Value, When
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast
from django.utils.translation import gettext_lazy as _

from scoring.doudizhu_snapshot import TableDealSnapshot, TableSnapshot
from scoring.seats import Side as CoreSide
from scoring.snapshot import DealSnapshot, MatchSnapshot
from scoring.three_seats import ThreeSeat as CoreThreeSeat
from tournament.audit import AuditedHistory
from tournament.bounds import column_checks
from tournament.matches.stage_options import DrawOptions, StageOptions
from tournament.registration.models import Pair, Player, Tournament


class StageFormat(models.TextChoices):
    KNOCKOUT = "knockout", _("Knockout")
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round_robin", _("Round robin")
    POINTS = "points", _("Points stage")
    """Dou Dizhu (docs/rules.md §10): rounds at three-seat tables, cumulative points, optional cuts, a final."""


class Stage(models.Model):
    """A phase of the event (e.g. Swiss preliminaries, then a knockout).

    ``rules`` are the options in force (the rules core's ``RuleOptions.to_stored()``: all but the game,
    which the tournament stores), stored when the stage is created and read, with the tournament's game,
    by ``tournament.rules.rules_for_stage``: a later change of a profile's definition does not change the
    stage's results. ``rule_profile`` (empty: the
    tournament's) and ``rule_overrides`` (on top of the tournament's own, e.g. a best-of-3 final)
    are what the organiser chose, kept for display.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    name = models.CharField(_("name"), max_length=80)
    order = models.PositiveSmallIntegerField(_("order"), default=1)
    format = models.CharField(_("format"), max_length=16, choices=StageFormat.choices)
    rule_profile = models.CharField(_("rule profile"), max_length=32, blank=True)
    rule_overrides = models.JSONField(_("rule overrides"), default=dict, blank=True)
    rules = models.JSONField(_("rules in force"), default=dict)
    options = models.JSONField(_("structure options"), default=dict, blank=True)
    advance_count = models.PositiveIntegerField(_("pairs advancing"), null=True, blank=True)
    history = AuditedHistory()

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["tournament", "order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="stage_order_unique"),
            models.CheckConstraint(condition=Q(format__in=StageFormat.values), name="stage_format_valid"),
            # a stage without its rules would be scored by nobody knows what
            models.CheckConstraint(condition=~Q(rules={}), name="stage_rules_stored"),
            *column_checks("stage", order="PositiveSmallIntegerField", advance_count="PositiveIntegerField"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def settings(self) -> StageOptions:
        """``options`` read (:mod:`tournament.matches.stage_options`); write ``settings.to_stored()`` back."""
        return StageOptions.from_stored(self.options)


class RoundStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    PUBLISHED = "published", _("Published")
    RUNNING = "running", _("Running")
    TIME_CALLED = "time_called", _("Time called")
    FINISHED = "finished", _("Finished")


class Round(models.Model):
    """One round of a stage. The draw's algorithm, options and seed are kept (docs/design.md,
    "Reproducible draws")."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=16, choices=RoundStatus.choices, default=RoundStatus.DRAFT
    )
    time_cap_minutes = models.PositiveSmallIntegerField(_("time cap (minutes)"), null=True, blank=True)
    warning_minutes = models.PositiveSmallIntegerField(_("warning before the end (minutes)"), default=10)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    # The round's clock lives in the database (not in a task): a lost task or a restart loses nothing.
    ends_at = models.DateTimeField(_("time is up at"), null=True, blank=True)
    time_called_at = models.DateTimeField(_("time called at"), null=True, blank=True)
    # Paused by the organiser (a fire alarm, a dispute): the clock stands still; on resume the pause's
    # length is added to ``ends_at`` (and to its matches' ``clock_ends_at``), so no running total is kept.
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    draw_algorithm = models.CharField(_("draw algorithm"), max_length=40, blank=True)
    draw_options = models.JSONField(_("draw options"), default=dict, blank=True)
    draw_seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    # What the draw proved of its tables (a Swiss draw; docs/swiss-draw.md, "What is proven"): optimal
    # over every pairing, or its first ``draw_criteria`` criteria. Cleared when pairs are swapped by hand.
    draw_proven = models.BooleanField(_("draw proven optimal"), default=False)
    draw_criteria = models.PositiveSmallIntegerField(_("draw criteria proven optimal"), null=True, blank=True)
    # A session planned for a date and time (the later rounds played together on one day): what the
    # calendar feed publishes before the clock starts. Not a clock: the round still starts by hand.
    scheduled_at = models.DateTimeField(_("scheduled for"), null=True, blank=True)
    # A self-scheduled round (docs/rules.md §12.1): opened with a deadline instead of a clock start; its
    # matches are played whenever the sides meet. ``deadline_done_at``: the deadline was processed (its
    # double forfeits recorded), once.
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    deadline_done_at = models.DateTimeField(_("deadline processed at"), null=True, blank=True)
    history = AuditedHistory()

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["stage", "number"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(condition=Q(status__in=RoundStatus.values), name="round_status_valid"),
            *column_checks(
                "round",
                number="PositiveSmallIntegerField",
                time_cap_minutes="PositiveSmallIntegerField",
                warning_minutes="PositiveSmallIntegerField",
                draw_seed="BigIntegerField",
                draw_criteria="PositiveSmallIntegerField",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stage} · {self.number}"

    @property
    def draw_settings(self) -> DrawOptions:
        """``draw_options`` read (:mod:`tournament.matches.stage_options`); write ``to_stored()`` back."""
        return DrawOptions.from_stored(self.draw_options)


class Table(models.Model):
    """A physical table (桌), numbered within the tournament; ``area`` groups tables for referees."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("number"))
    area = models.CharField(_("area"), max_length=40, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
            *column_checks("table", number="PositiveIntegerField"),
        ]

    def __str__(self) -> str:
        return str(self.number)


class MatchStatus(models.TextChoices):
    PENDING = "pending", _("Not started")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished, awaiting sign-off")
    CONFIRMED = "confirmed", _("Confirmed")


BYE = Q(ns_pair__isnull=False, ew_pair__isnull=True)
"""The matches that are byes (a pair alone at N/S, no table play): a three-seat table has neither
pair column, and its byes are seats without a match (``MatchSeat``), never a match. ``~BYE``: the
tables played, in either kind of round."""


class Side(models.TextChoices):
    """The rules core's sides (``scoring.seats.Side``) as stored: their codes, with labels."""

    NS = CoreSide.NS.code, _("N/S")
    EW = CoreSide.EW.code, _("E/W")


def _snapshot_int(key: str, side: str) -> models.GeneratedField:
    """A stored column of the snapshot's ``key`` (``levels``, ``points``) for ``side``: computed by the
    database from ``state`` on every write, NULL where the snapshot has no such value."""
    value = Cast(KeyTextTransform(side, KeyTransform(key, "state")), models.IntegerField())
    return models.GeneratedField(expression=value, output_field=models.IntegerField(null=True), db_persist=True)


def _snapshot_code(key: str) -> models.GeneratedField:
    """A stored column of the snapshot's text ``key`` (``winner``, ``reason``): computed by the database from
    ``state`` on every write, NULL where the snapshot has none — no such key, or a JSON null (whose text
    SQLite reads as ``'null'``, PostgreSQL as NULL: both are NULL here)."""
    value = Case(When(**{f"state__{key}": None}, then=Value(None)), default=KeyTextTransform(key, "state"))
    return models.GeneratedField(
        expression=value, output_field=models.TextField(null=True), db_persist=True
    )


SNAPSHOT_RESULT = (
    "snapshot_winner",
    "snapshot_reason",
    "snapshot_levels_ns",
    "snapshot_levels_ew",
    "snapshot_points_ns",
    "snapshot_points_ew",
)
"""The generated columns of the snapshot's result (:class:`Match`): never written, never audited."""


class Match(models.Model):
    """One pairing of two pairs (N/S against E/W); ``ew_pair`` is empty for a bye.

    A three-seat table (Dou Dizhu, the players' entrant kind of ``tournament.games``) has no sides: both
    pair columns are empty and its three players are its :class:`MatchSeat` rows (docs/doudizhu.md). The
    event's game (``Tournament.game``) is the one answer to which kind a match is; a constraint keeps an
    E/W side from standing without an N/S one.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.ForeignKey(Table, on_delete=models.RESTRICT, null=True, blank=True, related_name="matches")
    ns_pair = models.ForeignKey(Pair, on_delete=models.RESTRICT, null=True, blank=True, related_name="ns_matches")
    ew_pair = models.ForeignKey(
        Pair, on_delete=models.RESTRICT, null=True, blank=True, related_name="ew_matches"
    )
    bracket_slot = models.PositiveIntegerField(_("bracket position"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=MatchStatus.choices, default=MatchStatus.PENDING
    )
    state = models.JSONField(_("state"), default=dict, blank=True)
    winner = models.CharField(_("winner"), max_length=2, choices=Side.choices, blank=True)
    result_reason = models.CharField(_("result reason"), max_length=20, blank=True)
    time_called_during_deal = models.PositiveSmallIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    # The match clock: started with its round (or alone); ``clock_ends_at`` is fixed at the start so
    # a later change of the rules does not move a running clock. ``time_called_at``: the cap was
    # processed (time is called at most once).
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    clock_ends_at = models.DateTimeField(_("time is up at"), null=True, blank=True)
    time_called_at = models.DateTimeField(_("time called at"), null=True, blank=True)
    # Paused (with its round or alone): time is not called while set; resuming adds the pause to
    # ``clock_ends_at``.
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    # This table's own cap, set by the organiser on the day; empty: the round's. A round's
    # later cap change leaves a table with its own cap alone.
    time_cap_minutes = models.PositiveSmallIntegerField(_("time cap (minutes)"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    signed_off_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    signed_off_at = models.DateTimeField(null=True, blank=True)
    # Unlocked for a correction: set by ``match_unlock``, cleared by the next sign-off.
    # While set the clock never calls time: a correction replays what was played, it is not play.
    reopened_at = models.DateTimeField(_("reopened for correction at"), null=True, blank=True)
    # A self-scheduled round's match given more time than its round (docs/rules.md §12.1); empty: the round's.
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    # The snapshot's result (winner, reason, levels and points per side) in columns the database
    # generates from ``state`` on every write, so no write can leave them behind it: a stage's standings
    # read a match's result from these, not from ``state`` (whose every key read inflates the whole
    # stored snapshot, deals and all — 40-50 ms per key over a 5,000-pair stage's 5,834 matches).
    snapshot_winner = _snapshot_code("winner")
    snapshot_reason = _snapshot_code("reason")
    snapshot_levels_ns = _snapshot_int("levels", "NS")
    snapshot_levels_ew = _snapshot_int("levels", "EW")
    snapshot_points_ns = _snapshot_int("points", "NS")
    snapshot_points_ew = _snapshot_int("points", "EW")
    history = AuditedHistory(excluded_fields=list(SNAPSHOT_RESULT))  # derived from ``state``, which is audited

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["round", "table__number", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(ns_pair=F("ew_pair")), name="match_pairs_differ"),
            # two sides (N/S, and E/W unless a bye) or three seats (no side columns at all)
            models.CheckConstraint(
                condition=Q(ns_pair__isnull=False) | Q(ew_pair__isnull=True),
                name="match_sides_or_seats",
            ),
            models.UniqueConstraint(fields=["round", "ns_pair"], name="match_ns_pair_once_per_round"),
            models.UniqueConstraint(fields=["round", "ew_pair"], name="match_ew_pair_once_per_round"),
            models.UniqueConstraint(
                fields=["round", "table"], condition=Q(table__isnull=False), name="match_table_once_per_round"
            ),
            models.CheckConstraint(condition=Q(status__in=MatchStatus.values), name="match_status_valid"),
            models.CheckConstraint(condition=Q(winner__in=["", "NS", "EW"]), name="match_winner_valid"),
            *column_checks(
                "match",
                bracket_slot="PositiveIntegerField",
                time_called_during_deal="PositiveSmallIntegerField",
                time_cap_minutes="PositiveSmallIntegerField",
                version="PositiveIntegerField",
            ),
        ]

    def __str__(self) -> str:
        if self.ns_pair_id is None:  # a three-seat table: its players are its seats
            return f"{self.round_id} · {self.table or '—'}"
        return f"{self.ns_pair} – {self.ew_pair or '—'}"

    @property
    def is_bye(self) -> bool:
        # a three-seat round's byes are seats without a match (MatchSeat), never a match
        return self.ns_pair_id is not None and self.ew_pair_id is None

    @property
    def snapshot(self) -> MatchSnapshot:
        """``state`` read back by the rules core (the one reader of the snapshot); kept
        until ``state`` is replaced (a write stores a new dict)."""
        cached = self.__dict__.get("_snapshot")
        if cached is None or cached[0] is not self.state:
            cached = (self.state, MatchSnapshot.from_json(self.state))
            self.__dict__["_snapshot"] = cached
        return cached[1]

    @property
    def table_snapshot(self) -> TableSnapshot:
        """A three-seat table's ``state`` read back (Dou Dizhu: ``scoring.doudizhu_snapshot``, the one
        reader of it); kept until ``state`` is replaced."""
        cached = self.__dict__.get("_table_snapshot")
        if cached is None or cached[0] is not self.state:
            cached = (self.state, TableSnapshot.from_json(self.state))
            self.__dict__["_table_snapshot"] = cached
        snapshot: TableSnapshot = cached[1]
        return snapshot


class RoundEntry(models.Model):
    """A pair's one seat in a round: unique (round, pair) is "one seat per player per round"."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="round_entries")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="entries")
    side = models.CharField(max_length=2, choices=Side.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "pair"], name="round_entry_pair_once"),
            models.UniqueConstraint(fields=["match", "side"], name="round_entry_side_once"),
            models.CheckConstraint(condition=Q(side__in=["NS", "EW"]), name="round_entry_side_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.round_id}: {self.pair_id} {self.side}"


class ThreeSeat(models.TextChoices):
    """The rules core's seats at a three-seat table (``scoring.three_seats.ThreeSeat``) as stored."""

    E = CoreThreeSeat.E.value, _("E")
    S = CoreThreeSeat.S.value, _("S")
    W = CoreThreeSeat.W.value, _("W")


class MatchSeat(models.Model):
    """A player's one place in a three-seat round (Dou Dizhu, docs/rules.md §10): seat E, S or W at a
    table's match, or a bye (no match, no seat).

    Unique (round, pair) is "one seat per player per round", byes included; unique (match, seat) and
    (match, pair) make a table three different players at three different seats.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, null=True, blank=True, related_name="seats")
    seat = models.CharField(_("seat"), max_length=1, choices=ThreeSeat.choices, blank=True)
    pair = models.ForeignKey(Pair, on_delete=models.RESTRICT, related_name="seats")

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["round", "match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "pair"], name="match_seat_player_once_per_round"),
            models.UniqueConstraint(
                fields=["match", "seat"], condition=Q(match__isnull=False), name="match_seat_once_per_match"
            ),
            models.UniqueConstraint(
                fields=["match", "pair"], condition=Q(match__isnull=False), name="match_seat_player_once_per_match"
            ),
            models.CheckConstraint(
                condition=Q(match__isnull=False, seat__in=["E", "S", "W"]) | Q(match__isnull=True, seat=""),
                name="match_seat_at_a_table_or_a_bye",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round_id}: {self.pair_id} {self.seat or 'bye'}"

    @property
    def is_bye(self) -> bool:
        return self.match_id is None


class Deal(models.Model):
    """One deal (一副牌) of a match as the referee recorded it.

    ``outcome`` is what the referee entered, in the rules core's input shape (Guandan:
    ``{"order": ["N", "E", "S"]}``; Tractor: declarer and defenders' points). ``record`` is the
    rules core's account of what the deal did, refreshed whenever the match is replayed;
    ``flagged`` marks a deal a correction made impossible (never silently dropped).
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("deal number"))
    game_number = models.PositiveSmallIntegerField(_("game number"), default=1)
    outcome = models.JSONField(_("outcome"))
    record = models.JSONField(_("effect"), default=dict, blank=True)
    flagged = models.BooleanField(_("needs the referee"), default=False)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    version = models.PositiveIntegerField(default=1)
    # NULL, not "", for "no key": the unique constraint must ignore deals entered without one.
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    history = AuditedHistory()

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="deal_number_unique_per_match"),
            models.UniqueConstraint(
                fields=["match", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="deal_idempotency_key_unique",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
            models.CheckConstraint(condition=Q(game_number__gte=1), name="deal_game_number_positive"),
            *column_checks(
                "deal",
                number="PositiveSmallIntegerField",
                game_number="PositiveSmallIntegerField",
                version="PositiveIntegerField",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} #{self.number}"

    @property
    def snapshot(self) -> DealSnapshot | None:
        """``record`` read back by the rules core; None while the deal is flagged (no record)."""
        return DealSnapshot.from_json(self.record)

    @property
    def table_snapshot(self) -> TableDealSnapshot | None:
        """A three-seat table's deal record read back; None while flagged."""
        return TableDealSnapshot.from_json(self.record)

    @property
    def record_json(self) -> dict[str, Any]:
        """The record in its schema's shape (``{}`` while flagged), as the API shows it."""
        if "landlord" in self.record:  # a three-seat table's deal (Dou Dizhu): its own reader
            table = self.table_snapshot
            return table.to_json() if table is not None else {}
        snapshot = self.snapshot
        return snapshot.to_json() if snapshot is not None else {}


class AdjustmentKind(models.TextChoices):
    FORFEIT = "forfeit", _("Forfeit")
    LATE_ARRIVAL = "late_arrival", _("Late arrival")
    PENALTY = "penalty", _("Penalty")
    WARNING = "warning", _("Warning")


class Adjustment(models.Model):
    """A referee's or organiser's decision that changes a result: always with a reason and author."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="adjustments")
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, null=True, blank=True, related_name="adjustments"
    )
    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="adjustments")
    kind = models.CharField(_("kind"), max_length=16, choices=AdjustmentKind.choices)
    levels = models.SmallIntegerField(_("levels to the opponents"), default=0)
    points = models.SmallIntegerField(_("points deducted"), default=0)
    minutes_late = models.PositiveSmallIntegerField(_("minutes late"), null=True, blank=True)
    # A forfeit because one player of the pair is absent: the pair forfeits (docs/rules.md §4, seed 004).
    absent_player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("absent player")
    )
    after_deal = models.PositiveSmallIntegerField(_("after deal"), default=0)
    flagged = models.BooleanField(_("needs the referee"), default=False)
    reason = models.CharField(_("reason"), max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = AuditedHistory()

    class Meta:
        verbose_name = _("adjustment")
        verbose_name_plural = _("adjustments")
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=AdjustmentKind.values), name="adjustment_kind_valid"),
            models.CheckConstraint(condition=~Q(reason=""), name="adjustment_reason_required"),
            models.CheckConstraint(condition=Q(levels__gte=0), name="adjustment_levels_not_negative"),
            *column_checks(
                "adjustment",
                levels="SmallIntegerField",
                points="SmallIntegerField",
                minutes_late="PositiveSmallIntegerField",
                after_deal="PositiveSmallIntegerField",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.pair}"

