"""Prize tiers (docs/rules.md §4): the organiser names the tiers, the final ranking awards them.

The ranking is the prize stage's one ranking (by default the tournament's last stage;
:func:`tournament.standings.selectors.stage_ranking_get`, as the pages and the workbook show it):
a knockout's placings, a Swiss's standings, and for a round robin played in groups its **stage
place** — by group place first (every group's winner before any runner-up), then across groups
by the stage's per-pair tie-breakers, then lots (``scoring.stage_ranking``).
``scoring.standings.assign_tiers`` hands out the tiers and refuses to split a shared rank
across a tier boundary — then the organiser draws lots. They are the prize stage's own lots
(``tournament.draw.stages.stage_lots_draw``: drawn once per stage, recorded with it), so the award
list, the stage's standings and placings pages, the API, the workbook and a later advancement from
that stage all break its full ties the same way, and the same award list comes out every time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.errors import ScoringError
from scoring.standings import Standings, assign_tiers, prize_order, tiers_by_rank
from tournament.bounds import text_max
from tournament.draw.stages import stage_lots_draw
from tournament.errors import UserError
from tournament.exports.models import PrizeRanking, PrizeTier, TeamPrizeTier
from tournament.exports.selectors import PairCard, pair_cards
from tournament.matches.models import Stage
from tournament.people import Actor, signed_in
from tournament.registration.lifecycle import event_write, tournament_event
from tournament.registration.models import Tournament
from tournament.registration.text import clean_text
from tournament.standings.selectors import StageStandings, stage_lots_seed, stage_ranking_get
from tournament.standings.team_ranking import TeamRankLine, stage_team_ranking_get
from tournament.standings.teams import PAIR_TEAM_WORDS, TeamTotalWords

TIER_NAME_MAX = text_max(PrizeTier, "name")


@dataclass(frozen=True, slots=True)
class TierData:
    """A tier as the organiser typed it."""

    name: str
    pair_count: int


@dataclass(frozen=True, slots=True)
class Award:
    tier: str
    rank: int
    pair: PairCard
    stage_name: str = ""
    """The stage whose ranking placed the pair (the prize stage, or a stage before it)."""


@dataclass(frozen=True, slots=True)
class AwardList:
    """The award list, best first. ``problem`` is the rules core's refusal (e.g. a shared rank across
    a tier boundary: lots must be drawn), with no awards."""

    stage: Stage | None
    lots_seed: int | None
    tiers: tuple[TierData, ...]
    awards: tuple[Award, ...]
    problem: ScoringError | None = None
    order: Standings | None = None
    """The prize order the tiers were awarded from (:func:`prize_order_get`)."""
    unawarded: tuple[tuple[str, int], ...] = ()
    """(tier, places) the prize order has no pairs for: every pair of every stage behind it is placed."""


def _tiers_clean(tiers: Sequence[TierData], *, teams: bool = False) -> list[TierData]:
    """The tiers as typed, cleaned; UserError for an empty, too long or duplicate name or a count below 1."""
    cleaned = [TierData(name=clean_text(tier.name), pair_count=tier.pair_count) for tier in tiers]
    errors: list[str] = []
    seen: set[str] = set()
    for position, tier in enumerate(cleaned, 1):
        if not tier.name:
            errors.append(_("Prize %(position)d needs a name.") % {"position": position})
        elif len(tier.name) > TIER_NAME_MAX:
            errors.append(
                _("Prize %(position)d: the name is longer than %(max)d characters.")
                % {"position": position, "max": TIER_NAME_MAX}
            )
        elif tier.name in seen:
            errors.append(_("Prize name %(name)s is used twice.") % {"name": tier.name})
        seen.add(tier.name)
        if not isinstance(tier.pair_count, int) or tier.pair_count < 1:
            message = _("Team prize %(position)d needs at least 1 team.") if teams else None
            errors.append((message or _("Prize %(position)d needs at least 1 pair.")) % {"position": position})
    if errors:
        raise UserError.of_fields({"tiers": errors})
    return cleaned


@event_write("tournament", of=tournament_event)
def prize_tiers_set(*, tournament: Tournament, tiers: Sequence[TierData]) -> list[PrizeTier]:
    """Replace the tournament's tiers by ``tiers`` (best first). UserError, nothing written, for
    an empty or duplicate name or a count below 1."""
    cleaned = _tiers_clean(tiers)
    with transaction.atomic():
        # One by one (not in bulk) so the audit history records every removed and added tier.
        for old in PrizeTier.objects.filter(tournament=tournament):
            old.delete()
        return [
            PrizeTier.objects.create(tournament=tournament, name=tier.name, pair_count=tier.pair_count, order=order)
            for order, tier in enumerate(cleaned, 1)
        ]


@event_write("tournament", of=tournament_event)
def team_prize_tiers_set(*, tournament: Tournament, tiers: Sequence[TierData]) -> list[TeamPrizeTier]:
    """Replace the tournament's team prizes (团体奖, docs/rules.md §11) by ``tiers`` (best first;
    ``pair_count`` is the number of teams). UserError, nothing written, as for the pairs' tiers."""
    cleaned = _tiers_clean(tiers, teams=True)
    with transaction.atomic():
        for old in TeamPrizeTier.objects.filter(tournament=tournament):
            old.delete()
        return [
            TeamPrizeTier.objects.create(tournament=tournament, name=tier.name, team_count=tier.pair_count, order=order)
            for order, tier in enumerate(cleaned, 1)
        ]


def _ranking(tournament: Tournament) -> PrizeRanking:
    ranking, _created = PrizeRanking.objects.get_or_create(tournament=tournament)
    return ranking


@event_write("tournament", of=tournament_event)
def prize_stage_set(*, tournament: Tournament, stage: Stage | None) -> PrizeRanking:
    """Award the prizes from ``stage``'s ranking (None: the last stage). Lots drawn for another
    stage stay that stage's: the new one breaks its ties with its own lots, if any."""
    if stage is not None and stage.tournament_id != tournament.pk:
        raise UserError("bad_input", _("That stage is not part of this tournament."))
    with transaction.atomic():
        ranking = _ranking(tournament)
        if ranking.stage_id != (stage.pk if stage else None):
            ranking.stage = stage
            ranking.lots_drawn_at = ranking.lots_drawn_by = None
            ranking.save()
    return ranking


@event_write("tournament", of=tournament_event)
def prize_lots_draw(*, tournament: Tournament, user: Actor | None = None) -> PrizeRanking:
    """Draw lots (抽签) for the full ties of the prize ranking: the prize stage's lots, drawn once and
    recorded with the stage (refused when the stage has its lots already: they decide its ties)."""
    stage = prize_stage(tournament=tournament)
    if stage is None:
        raise UserError("no_stage", _("The tournament has no stage to rank yet."))
    if stage_lots_seed(stage=stage) is not None:
        raise UserError(
            "lots_drawn",
            _("Lots were drawn for %(stage)s already: they break its ties, once.") % {"stage": stage.name},
            status=409,
        )
    with transaction.atomic():
        stage_lots_draw(stage=stage, user=user, reason="lots drawn for the prizes")
        ranking = _ranking(tournament)
        ranking.lots_drawn_at = timezone.now()
        ranking.lots_drawn_by = signed_in(user)
        ranking.save()
    return ranking


def prize_stage(*, tournament: Tournament) -> Stage | None:
    """The stage whose ranking awards the prizes (its one ranking, with its own lots)."""
    ranking = PrizeRanking.objects.filter(tournament=tournament).select_related("stage__tournament").first()
    if ranking is not None and ranking.stage is not None:
        return ranking.stage
    return Stage.objects.filter(tournament=tournament).select_related("tournament").order_by("-order").first()


@dataclass(frozen=True, slots=True)
class PrizeOrder:
    """The order prizes are awarded in: ``standings`` (the rules core's
    :func:`scoring.standings.prize_order`), and for each pair the stage whose ranking placed it."""

    standings: Standings
    placed_by: dict[str, Stage]


def _stages_behind(stage: Stage) -> list[Stage]:
    """``stage``, then the stage it was advanced from, and that one's, … (each once)."""
    chain = [stage]
    while (record := chain[-1].settings.advancement) is not None:
        before = Stage.objects.filter(pk=record.from_stage, tournament_id=stage.tournament_id).first()
        if before is None or before in chain:
            break
        chain.append(before)
    return chain


def prize_order_get(*, stage: Stage, standings: StageStandings | None = None) -> PrizeOrder:
    """The one prize order (the prizes page, the placings page and the workbook ask it): ``stage``'s ranking
    (``standings`` if the caller has it), then the places after it from the stages it was advanced from —
    a top 8 knockout's places 9, 10, … are the Swiss ranking of the pairs that did not advance. A stage
    whose ranking is of teams (a knockout of teams, docs/rules.md §11: its placings award the team
    prizes) places no pair: the pairs' order comes from the stages that rank pairs."""
    rankings = [standings if standings is not None else stage_ranking_get(stage=stage)]
    rankings += [stage_ranking_get(stage=before) for before in _stages_behind(stage)[1:]]
    rankings = [ranking for ranking in rankings if ranking.teams is None]
    order = prize_order(stages=[ranking.standings for ranking in rankings])
    placed_by: dict[str, Stage] = {}
    for ranking in rankings:
        for row in ranking.standings.rows:
            placed_by.setdefault(row.entrant, ranking.stage)
    return PrizeOrder(order, placed_by)


def prize_tiers_award(
    *,
    tournament: Tournament,
    cards: dict[int, PairCard] | None = None,
    standings: StageStandings | None = None,
) -> AwardList:
    """The award list from the prize order (:func:`prize_order_get`; names and departments in ``Award.pair``);
    the tiers' places the order has no pair for are ``unawarded``, said, never silently dropped.

    ``cards`` and ``standings`` may be passed by a caller that already has them (the workbook).
    """
    tiers = tuple(
        TierData(name, count)
        for name, count in PrizeTier.objects.filter(tournament=tournament)
        .order_by("order", "id")
        .values_list("name", "pair_count")
    )
    stage = prize_stage(tournament=tournament)
    lots_seed = stage_lots_seed(stage=stage) if stage is not None else None
    if stage is None or not tiers:
        return AwardList(stage=stage, lots_seed=lots_seed, tiers=tiers, awards=())
    order = prize_order_get(stage=stage, standings=standings)
    if cards is None:
        cards = pair_cards(tournament_id=tournament.pk)
    try:
        awarded = assign_tiers(standings=order.standings, tiers=[(tier.name, tier.pair_count) for tier in tiers])
    except ScoringError as problem:
        return AwardList(
            stage=stage, lots_seed=lots_seed, tiers=tiers, awards=(), problem=problem, order=order.standings
        )
    awards = tuple(
        Award(
            tier=awarded[row.entrant],
            rank=row.rank,
            pair=cards[int(row.entrant)],
            stage_name=order.placed_by[row.entrant].name,
        )
        for row in order.standings.rows
        if row.entrant in awarded
    )
    given = {tier.name: 0 for tier in tiers}
    for name in awarded.values():
        given[name] += 1
    unawarded = tuple(
        (tier.name, tier.pair_count - given[tier.name]) for tier in tiers if given[tier.name] < tier.pair_count
    )
    return AwardList(
        stage=stage,
        lots_seed=lots_seed,
        tiers=tiers,
        awards=awards,
        order=order.standings,
        unawarded=unawarded,
    )


@dataclass(frozen=True, slots=True)
class TeamAward:
    tier: str
    line: TeamRankLine
    """The team's line in the stage's team ranking (rank, name, points)."""


@dataclass(frozen=True, slots=True)
class TeamAwardList:
    """The team prizes (团体奖), best first, from ``stage``'s team total (docs/rules.md §11). ``problem``:
    the rules core's refusal (a shared rank across a tier boundary: lots must be drawn), no awards."""

    stage: Stage | None
    lots_seed: int | None
    tiers: tuple[TierData, ...]
    awards: tuple[TeamAward, ...]
    problem: ScoringError | None = None
    unawarded: tuple[tuple[str, int], ...] = ()
    """(tier, places) without a ranked team for them."""
    words: TeamTotalWords = PAIR_TEAM_WORDS
    """What the teams' points are called (``words.points``): the team ranking's words."""


def team_prize_stage(*, tournament: Tournament) -> Stage | None:
    """The stage whose team ranking awards the team prizes (a team total or team matches, docs/rules.md
    §11): the prize stage if it ranks teams, else the last stage that does (None: no stage ranks teams)."""
    stage = prize_stage(tournament=tournament)
    if stage is not None and stage.settings.ranks_teams:
        return stage
    stages = Stage.objects.filter(tournament=tournament).select_related("tournament").order_by("-order")
    return next((stage for stage in stages if stage.settings.ranks_teams), None)


def team_prizes_award(*, tournament: Tournament) -> TeamAwardList:
    """The team prizes from the stage's team ranking (:func:`tournament.standings.team_ranking.stage_team_ranking_get`:
    its team matches' standings when it plays them, else its team total; the one answer every page
    reads); the places without a team are ``unawarded``, said."""
    tiers = tuple(
        TierData(name, count)
        for name, count in TeamPrizeTier.objects.filter(tournament=tournament)
        .order_by("order", "id")
        .values_list("name", "team_count")
    )
    stage = team_prize_stage(tournament=tournament)
    lots_seed = stage_lots_seed(stage=stage) if stage is not None else None
    total = stage_team_ranking_get(stage=stage) if stage is not None and tiers else None
    if stage is None or total is None:
        return TeamAwardList(stage=stage, lots_seed=lots_seed, tiers=tiers, awards=())
    try:
        awarded = tiers_by_rank(ranked=total.ranked, tiers=[(tier.name, tier.pair_count) for tier in tiers])
    except ScoringError as problem:
        return TeamAwardList(
            stage=stage, lots_seed=lots_seed, tiers=tiers, awards=(), problem=problem, words=total.words
        )
    awards = tuple(
        TeamAward(tier=awarded[str(line.team_id)], line=line) for line in total.lines if str(line.team_id) in awarded
    )
    given = {tier.name: 0 for tier in tiers}
    for name in awarded.values():
        given[name] += 1
    unawarded = tuple(
        (tier.name, tier.pair_count - given[tier.name]) for tier in tiers if given[tier.name] < tier.pair_count
    )
    return TeamAwardList(
        stage=stage, lots_seed=lots_seed, tiers=tiers, awards=awards, unawarded=unawarded, words=total.words
    )


@event_write("tournament", of=tournament_event)
def team_prize_lots_draw(*, tournament: Tournament, user: Actor | None = None) -> int:
    """Draw lots (抽签) for the full ties of the team total that awards the team prizes: the stage's
    own lots, drawn once (refused when drawn already: they decide its ties). Returns the seed."""
    stage = team_prize_stage(tournament=tournament)
    if stage is None:
        raise UserError("no_stage", _("No stage ranks teams yet."))
    if stage_lots_seed(stage=stage) is not None:
        raise UserError(
            "lots_drawn",
            _("Lots were drawn for %(stage)s already: they break its ties, once.") % {"stage": stage.name},
            status=409,
        )
    return stage_lots_draw(stage=stage, user=user, reason="lots drawn for the team prizes")
