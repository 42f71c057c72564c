"""Match reads for the referee's pages and the API: clock, summary, preview, tribute (the audit:
``tournament.matches.audit_log``).

Nothing here computes a rule: the summary reads the stored snapshot (the rules core's
``MatchResult.to_json()``), the preview replays the match with the new deal through the rules
core, and tribute guidance is ``scoring.tribute.tribute_for``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.doudizhu_snapshot import TableDealSnapshot, TableSnapshot
from scoring.errors import ScoringError
from scoring.finishing_order import FinishingOrder
from scoring.options import AtTimeUp, RuleOptions, WildReading
from scoring.seats import Seat
from scoring.snapshot import DealSnapshot, MatchSnapshot
from scoring.time_up import TimeUpNotice
from scoring.tribute import TributeGuidance, tribute_for
from tournament.errors import scoring_message
from tournament.games import GUANDAN, GameKind
from tournament.locale import in_ui_language
from tournament.matches.access import ACTIVE_ROUND, match_for_user
from tournament.matches.fold import (
    match_adjustment_rows,
    match_deal_parse,
    match_fold,
    match_game,
    match_outcomes,
    match_rules,
)
from tournament.matches.models import (
    Adjustment,
    Deal,
    Match,
    MatchSeat,
    MatchStatus,
    RefereeAssignment,
    Round,
    RoundEntry,
    RoundStatus,
    StageFormat,
    TeamMatch,
)
from tournament.matches.snapshot_reads import match_time_up
from tournament.matches.table_selectors import TableSummary, table_summary
from tournament.matches.time_due import match_clock_expired
from tournament.people import Actor
from tournament.registration.models import Pair

SEATS = ("N", "E", "S", "W")


# -- the clock -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Clock:
    """A match's clock as a referee sees it (docs/rules.md §2: the remaining time, a warning near the end)."""

    started_at: datetime | None
    ends_at: datetime | None
    seconds_left: int | None
    warning: bool
    time_called: bool
    one_more_deal: bool = False
    """The rules play one more deal once time is called (``at_time_up: one_more_deal``; Tractor, seed 001
    §3: in a round's last 10 minutes one more deal is announced for every table)."""
    last_deal: int | None = None
    """The last regular deal once time is called (the rules core's ``last_regular_deal``)."""
    paused: bool = False
    """The organiser paused the clock: ``seconds_left`` stands still (shown as 已暂停)."""
    notice: TimeUpNotice | None = None
    """Once time is called: what the table does next, from the rules core (``scoring.time_up``)."""
    reopened: bool = False
    """Reopened for correction: the clock is stopped for good, shown as such."""
    over: bool = False
    """The match is over (finished or confirmed): its clock no longer counts down."""

    @property
    def notice_text(self) -> str:
        """The notice in the interface language (empty before time is called)."""
        return in_ui_language(en=self.notice.text_en, zh=self.notice.text_zh) if self.notice else ""

    @property
    def timed(self) -> bool:
        return self.ends_at is not None

    @property
    def minutes_left(self) -> int | None:
        return None if self.seconds_left is None else math.ceil(self.seconds_left / 60)


def match_clock(*, match: Match, now: datetime | None = None) -> Clock:
    now = now or timezone.now()
    ends_at = match.clock_ends_at
    paused = match.paused_at is not None and match.time_called_at is None
    standing = match.paused_at if paused and match.paused_at is not None else now  # a paused clock stands still
    seconds = None if ends_at is None else max(0, int((ends_at - standing).total_seconds()))
    called = match.time_called_at is not None or match_clock_expired(match, now=now)
    warning = seconds is not None and not called and not paused and seconds <= match.round.warning_minutes * 60
    one_more = match_rules(match).at_time_up is AtTimeUp.ONE_MORE_DEAL
    last_deal = match.snapshot.last_regular_deal if match.time_called_during_deal else None
    if match.reopened_at is not None:  # a correction replays what was played: no clock
        return Clock(match.started_at, ends_at, None, False, False, reopened=True)
    over = match.status in (MatchStatus.FINISHED, MatchStatus.CONFIRMED)
    return Clock(
        match.started_at,
        ends_at,
        seconds,
        warning,
        called,
        one_more,
        last_deal,
        paused,
        match_time_up(match),
        over=over,
    )


# -- the summary -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SideView:
    code: str
    pair: Pair | None
    level: int
    a_failures: int | None
    points: int | None
    games: int | None


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """What the referee home and the match page show, read from the stored snapshot."""

    match: Match
    sides: tuple[SideView, SideView]
    next_deal: dict[str, Any] | None
    deals: int
    flagged: int
    clock: Clock
    points_format: bool = False
    best_of: bool = False
    game: GameKind = GUANDAN
    """The game's entry (``tournament.games``): what the sides' table shows besides the levels."""

    @property
    def sets_level(self) -> str | None:
        return self.next_deal.get("sets_level") if self.next_deal else None

    @property
    def next_declarer(self) -> str | None:
        """Tractor: the side declaring the next deal (庄家), None before the first (decided by 抢庄)."""
        return self.next_deal.get("declarer") if self.next_deal else None

    @property
    def next_declarer_seat(self) -> str | None:
        return self.next_deal.get("declarer_seat") if self.next_deal else None

    @property
    def needs_extra_deal(self) -> bool:
        return self.match.snapshot.needs_extra_deal


@dataclass(frozen=True, slots=True)
class TableOfTeamMatch:
    """Which team match a table is one of (docs/rules.md §11), as its match page names it."""

    id: int
    number: int
    x: str
    y: str
    table: str
    """``a`` or ``b``."""


def match_team_match(*, match: Match) -> TableOfTeamMatch | None:
    """The team match ``match`` is a table of, or None (a stage of pairs: not asked, no query)."""
    return team_tables_of(matches=[match]).get(match.pk)


def team_tables_of(*, matches: Sequence[Match]) -> dict[int, TableOfTeamMatch]:
    """Match id → the team match it is a table of, for those of ``matches`` played in team matches (one
    query; none when no match is of a stage of team matches): the referee's cards name it as its page does."""
    ids = [match.pk for match in matches if match.round.stage.settings.team_match is not None]
    if not ids:
        return {}
    rows = TeamMatch.objects.filter(Q(table_a_id__in=ids) | Q(table_b_id__in=ids), team_y__isnull=False)
    found: dict[int, TableOfTeamMatch] = {}
    for row in rows.select_related("team_x", "team_y"):
        y = row.team_y.name if row.team_y is not None else ""
        for letter, match_id in (("a", row.table_a_id), ("b", row.table_b_id)):
            if match_id is not None:
                found[match_id] = TableOfTeamMatch(id=row.pk, number=row.number, x=row.team_x.name, y=y, table=letter)
    return found


def match_summary(
    *, match: Match, now: datetime | None = None, flagged: int | None = None
) -> MatchSummary | TableSummary:
    """The match as its page shows it; a three-seat table's seats and points (``table_selectors``)."""
    if flagged is None:
        flagged = getattr(match, "flagged_count", None)
    if flagged is None:
        flagged = match.deals.filter(flagged=True).count() + match.adjustments.filter(flagged=True).count()
    game = match_game(match)
    return SUMMARIES[game.entrants.key](match=match, clock=match_clock(match=match, now=now), flagged=flagged)


def sides_summary(*, match: Match, clock: Clock, flagged: int) -> MatchSummary:
    """A match of two sides as its page shows it: each side's pair, levels, A failures, points, games."""
    snapshot = match.snapshot
    levels = snapshot.levels_or_start
    failures, points, games = snapshot.a_failures, snapshot.points, snapshot.games
    pairs = {"NS": match.ns_pair, "EW": match.ew_pair}
    sides = tuple(
        SideView(
            code=code,
            pair=pairs[code],
            level=levels[index],
            a_failures=failures[index] if failures else None,
            points=points[index] if points else None,
            games=games[index] if games else None,
        )
        for index, code in enumerate(("NS", "EW"))
    )
    upcoming = snapshot.next_deal_or_start
    next_deal = upcoming.to_json() if upcoming is not None else None
    if match.status in (MatchStatus.FINISHED, MatchStatus.CONFIRMED):
        next_deal = None
    return MatchSummary(
        match=match,
        sides=(sides[0], sides[1]),
        next_deal=next_deal,
        deals=len(snapshot.deals),
        flagged=flagged,
        clock=clock,
        points_format=points is not None,
        best_of=games is not None,
        game=match_game(match),
    )


SUMMARIES: dict[str, Callable[..., MatchSummary | TableSummary]] = {"pairs": sides_summary, "players": table_summary}
"""The match page's summary of a match of each entrant kind (``tournament.games.entrants``), by its key:
two sides, or a three-seat table's seats and points (``table_selectors``)."""


def round_byes(*, round_: Round) -> list[Pair]:
    """Who sits out ``round_``: a pair's bye is a match with N/S alone, a player's a seat without a table."""
    byes = [
        match.ns_pair
        for match in round_.matches.filter(ew_pair=None).exclude(ns_pair=None).select_related("ns_pair").order_by("id")
        if match.ns_pair is not None
    ]
    seats = MatchSeat.objects.filter(round=round_, match=None).select_related("pair").order_by("pair__number")
    return byes + [seat.pair for seat in seats]


def with_flag_counts(matches: QuerySet[Match]) -> QuerySet[Match]:
    """``flagged_count`` on each match (flagged deals and adjustments) in the same query."""
    deals = Deal.objects.filter(match=OuterRef("pk"), flagged=True).values("match").annotate(n=Count("pk"))
    adjustments = Adjustment.objects.filter(match=OuterRef("pk"), flagged=True).values("match").annotate(n=Count("pk"))
    return matches.annotate(
        flagged_count=Coalesce(Subquery(deals.values("n")), 0) + Coalesce(Subquery(adjustments.values("n")), 0)
    )


def referee_tables(*, user: Actor) -> QuerySet[Match]:
    """ "My tables this round": the matches at the tables assigned to ``user`` in rounds being played."""
    if not user.is_authenticated:
        return Match.objects.none()
    assigned = RefereeAssignment.objects.filter(
        round_id=OuterRef("round_id"), table_id=OuterRef("table_id"), referee=user
    )
    return with_flag_counts(
        Match.objects.filter(Exists(assigned), round__status__in=ACTIVE_ROUND)
        .select_related("round__stage__tournament", "table", "ns_pair", "ew_pair")
        .order_by("round__stage__tournament_id", "round_id", "table__number")
    )


@dataclass(frozen=True, slots=True)
class RoundTablesGroup:
    """A referee's tables of one round, under the event's name and the round."""

    round: Round
    rows: list[MatchSummary | TableSummary]


def referee_table_groups(*, rows: Sequence[MatchSummary | TableSummary]) -> list[RoundTablesGroup]:
    """``rows`` (in ``referee_tables`` order: event, round, table) grouped round by round."""
    groups: list[RoundTablesGroup] = []
    for row in rows:
        if not groups or groups[-1].round.pk != row.match.round_id:
            groups.append(RoundTablesGroup(round=row.match.round, rows=[]))
        groups[-1].rows.append(row)
    return groups


# -- the card assistant's rules --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardRules:
    """Which reading of wild cards the dispute assistant defaults to (docs/rules.md §8), and whose rules
    those are: the stage's stored ``wild_reading`` of the match asked about, else of the referee's table
    this round; the rules core's default when there is neither."""

    wild_reading: WildReading
    match: Match | None = None


def card_rules(*, user: Actor, match_id: int | None = None) -> CardRules:
    """The card assistant's rules for ``user``: of ``match_id`` (404 if out of the user's scope), else
    of the user's first table this round."""
    match = match_for_user(user=user, match_id=match_id) if match_id is not None else referee_tables(user=user).first()
    if match is None:
        return CardRules(wild_reading=RuleOptions().wild_reading)
    return CardRules(wild_reading=match_rules(match).wild_reading, match=match)


# -- taps, preview, tribute ------------------------------------------------------------------------


def parse_taps(text: str | None) -> list[str]:
    """Seats tapped so far, in finishing order: letters N/E/S/W, each once (anything else ignored)."""
    taps: list[str] = []
    for char in (text or "").upper():
        if char in SEATS and char not in taps:
            taps.append(char)
    return taps[:4]


def taps_complete(taps: Sequence[str]) -> bool:
    """Two partners (双下) or three seats (the fourth is last) make a finishing order (docs/rules.md §1)."""
    if len(taps) == 2:
        return Seat(taps[1]) is Seat(taps[0]).partner
    return len(taps) >= 3


def guandan_outcome(*, order: Sequence[str], anti_tribute: bool = False) -> dict[str, Any]:
    """A Guandan deal in the rules core's input shape: ``{"order": […]}``, with ``"anti_tribute": true``
    when the referee recorded 抗贡 for it (docs/rules.md §6; left out otherwise, as deals always were)."""
    outcome: dict[str, Any] = {"order": list(order)}
    if anti_tribute:
        outcome["anti_tribute"] = True
    return outcome


@dataclass(frozen=True, slots=True)
class Preview:
    """What a deal (or a correction) would do, committing nothing."""

    order: list[str]
    error: str = ""
    outcome: dict[str, Any] = field(default_factory=dict)
    """The deal as entered (the rules core's input shape): ``{"order": …}`` or a Tractor deal."""
    record: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] = field(default_factory=dict)
    """The deal's record and the match after it as the rules core's fold writes them (not stored)."""
    tribute: TributeGuidance | None = None
    anti_tribute: TributeGuidance | None = None
    flagged_after: int = 0
    """Deals the rules core would refuse after this one (a correction that shortens the match)."""
    later_deals: int = 0
    """Deals after this one that still count (a correction of an earlier deal): the match's state
    shown is the one after them, said so on the page."""

    @property
    def finished(self) -> bool:
        return self.after.finished

    @property
    def deal(self) -> DealSnapshot | None:
        """``record`` read by the rules core's reader (what the preview templates show)."""
        return DealSnapshot.from_json(self.record)

    @property
    def after(self) -> MatchSnapshot:
        """``result`` read by the rules core's reader."""
        return MatchSnapshot.from_json(self.result)

    @property
    def table_deal(self) -> TableDealSnapshot | None:
        """A three-seat table's deal record (Dou Dizhu), read by its reader."""
        return TableDealSnapshot.from_json(self.record)

    @property
    def table_after(self) -> TableSnapshot:
        return TableSnapshot.from_json(self.result)

    @property
    def tribute_note(self) -> str:
        if self.tribute is None:
            return ""
        return in_ui_language(en=self.tribute.note, zh=self.tribute.note_zh)

    @property
    def anti_tribute_note(self) -> str:
        if self.anti_tribute is None:
            return ""
        return in_ui_language(en=self.anti_tribute.note, zh=self.anti_tribute.note_zh)


def _tributes(match: Match, order: Sequence[str], result: MatchSnapshot, game: int) -> tuple[Any, Any]:
    """Tribute before the next deal (docs/rules.md §6), unless the match is over or a new game starts at 2."""
    next_deal = result.next_deal
    rules = match_rules(match)
    if (
        not match_game(match).pays_tribute
        or next_deal is None
        or (next_deal.game if next_deal.game is not None else game) != game
    ):
        return None, None
    variant = rules.tribute_variant
    finishing = FinishingOrder.parse(order)
    return (
        tribute_for(order=finishing, variant=variant),
        tribute_for(order=finishing, variant=variant, anti_tribute=True),
    )


def _preview(match: Match, outcomes: list[Any], number: int, order: list[str]) -> Preview:
    outcome = outcomes[number - 1] if isinstance(outcomes[number - 1], dict) else {}
    # the deal previewed is read first: a deal that cannot be (an impossible order) says so, rather
    # than stopping the fold unread, which would read as a flagged deal before it
    parsed = match_deal_parse(match=match, outcome=outcomes[number - 1], number=number)
    fold = match_fold(
        match=match,
        outcomes=outcomes,
        adjustments=match_adjustment_rows(match),
        time_called_during_deal=match.time_called_during_deal,
        parsed={number: parsed},
    )
    if fold.deals_valid < number:
        error = fold.partial.error
        message = scoring_message(error) if error else str(_("Resolve the flagged deals first."))
        return Preview(order=order, outcome=outcome, error=message)
    result = fold.result.to_json()
    snapshot = MatchSnapshot.from_json(result)
    tribute, anti = _tributes(match, order, snapshot, _game_of(snapshot.deals[number - 1])) if order else (None, None)
    return Preview(
        order=order,
        outcome=outcome,
        record=fold.result.deals[number - 1].to_json(),
        result=result,
        tribute=tribute,
        anti_tribute=anti,
        flagged_after=len(outcomes) - fold.deals_valid,
        later_deals=fold.deals_valid - number,
    )


def deal_preview(
    *,
    match: Match,
    order: list[str] | None = None,
    outcome: dict[str, Any] | None = None,
    pending: Sequence[dict[str, Any]] = (),
) -> Preview:
    """The referee's preview of the next deal: the rules core's record of it and the match after it.

    ``pending``: deals entered by the players and not confirmed yet, played before this one.

    Guandan gives the finishing ``order``; any game may give the deal as an ``outcome`` in the rules
    core's input shape (a Tractor deal: declarer, defenders' points, bottom, penalties, revoke).
    """
    outcome = outcome if outcome is not None else {"order": order or []}
    order = list(outcome.get("order") or [])
    outcomes = [*match_outcomes(match), *pending]
    try:
        return _preview(match, [*outcomes, outcome], len(outcomes) + 1, order)
    except ScoringError as error:
        return Preview(order=order, outcome=outcome, error=scoring_message(error))


def correction_preview(
    *, match: Match, number: int, order: list[str] | None = None, outcome: dict[str, Any] | None = None
) -> Preview:
    """What correcting deal ``number`` to ``order`` (or ``outcome``) would do; ``flagged_after``: the
    deals it would leave impossible (docs/rules.md §1–3; docs/design.md: deals are the source of
    truth)."""
    outcome = outcome if outcome is not None else {"order": order or []}
    order = list(outcome.get("order") or [])
    outcomes = match_outcomes(match)
    if not 1 <= number <= len(outcomes):
        return Preview(order=order, outcome=outcome, error=str(_("There is no such deal.")))
    changed = [*outcomes]
    changed[number - 1] = outcome
    try:
        return _preview(match, changed, number, order)
    except ScoringError as error:
        return Preview(order=order, outcome=outcome, error=scoring_message(error))


def next_tribute(*, match: Match) -> tuple[TributeGuidance | None, TributeGuidance | None]:
    """Tribute guidance before the next deal, from the last deal played (docs/rules.md §6)."""
    snapshot = match.snapshot
    if not snapshot.deals or snapshot.finished or not match_game(match).pays_tribute:
        return None, None
    last = snapshot.deals[-1]
    return _tributes(match, last.order, snapshot, _game_of(last))


def _game_of(record: DealSnapshot) -> int:
    """The game a deal belongs to (``best_of``); 1 when the record names none (Tractor)."""
    return record.game if record.game is not None else 1


def round_knockout_pairs(*, round_: Any) -> int | None:
    """The pairs still in at a knockout round (byes count; the third-place match's pairs, who lost
    a round before, do not), for the round's name; None for a round of another format. One query,
    kept on the round object. In a knockout of teams the teams still in, read off its bracket (its size
    halved each round): its pairs' count named a final of two teams a semi-final."""
    cached = getattr(round_, "_knockout_pairs", False)
    if cached is not False:
        return cached
    pairs: int | None = None
    size = (round_.stage.settings.bracket_record or {}).get("size")
    if round_.stage.format == StageFormat.KNOCKOUT and round_.stage.settings.team_match is not None:
        pairs = size >> (round_.number - 1) if isinstance(size, int) and size else None
    elif round_.stage.format == StageFormat.KNOCKOUT:
        lost_before = (
            RoundEntry.objects.filter(
                round__stage_id=round_.stage_id, round__number__lt=round_.number, match__winner__in=["NS", "EW"]
            )
            .exclude(side=F("match__winner"))
            .values("pair_id")
        )
        pairs = RoundEntry.objects.filter(round_id=round_.pk).exclude(pair_id__in=lost_before).count() or None
    round_._knockout_pairs = pairs
    return pairs


def round_state(*, status: str, paused: bool) -> tuple[str, str]:
    """A round's state as its badge shows it, every page alike: ``(code, label)`` — the status, except
    that a running round whose clock the organiser paused reads 已暂停 (Paused), not 进行中."""
    if paused and status == RoundStatus.RUNNING:
        return "paused", gettext("Paused")
    try:
        return status, str(RoundStatus(status).label)
    except ValueError:
        return status, ""
