"""Draw writes about stages: create one with its options, who is drawn, who advances.

Stage options (``Stage.options``, read as ``Stage.settings``) are described in
:mod:`tournament.matches.stage_options`. Which pairs are drawn (:func:`stage_entrants`): the pairs
a previous stage advanced into this one (``Stage.settings.entrants``, see :func:`stage_advance`);
otherwise the checked-in pairs once check-in has started, else every registered pair; withdrawn
pairs never.
"""

from __future__ import annotations

import copy
import secrets
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.errors import ScoringError
from scoring.options import RuleOptions
from scoring.standings import StandingRow
from scoring.team_options import TEAM_OPTIONS, TeamOptions
from tournament import labels
from tournament.audit import history_author, reason_clean
from tournament.draw.pairing import Entrant, Seat
from tournament.draw.three_seats import points_stage_options
from tournament.errors import UserError, scoring_message
from tournament.games import game_kind
from tournament.matches.event import stage_event
from tournament.matches.models import (
    Match,
    MatchStatus,
    RoundEntry,
    RoundStatus,
    Stage,
    StageFormat,
)
from tournament.matches.stage_options import BRACKET_FIXED, BRACKET_REDRAW, SEEDINGS, Advancement, StageOptions
from tournament.people import Actor, signed_in
from tournament.registration.lifecycle import event_write, tournament_event
from tournament.registration.models import PairMember, PairStatus, Team, Tournament
from tournament.registration.teams import teams_ready_check, teams_withdrawn
from tournament.rules import stage_rules_resolve
from tournament.standings.counted import awaiting_sign_off, counted_statuses
from tournament.standings.selectors import StageStandings, stage_lots_seed, stage_ranking_get
from tournament.standings.team_ranking import TeamRankLine, stage_team_ranking_get


def _edit_record(user: Actor | None, kind: str, **details: Any) -> dict[str, Any]:
    return {
        "kind": kind,
        "by": account.pk if (account := signed_in(user)) is not None else None,
        "at": timezone.now().isoformat(),
        **details,
    }


# -- stages ------------------------------------------------------------------------------------


def _stage_options(format: str, given: dict[str, Any] | None) -> dict[str, Any]:
    """The options as stored, once checked: they are the organiser's, as given, not a stored row."""
    given = dict(given or {})
    errors: dict[str, str] = {}
    rounds = given.get("department_rounds", 0)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        errors["department_rounds"] = _("Department protection needs a number of rounds (0 or more).")
    if format == StageFormat.KNOCKOUT:
        if given.get("bracket", BRACKET_REDRAW) not in (BRACKET_FIXED, BRACKET_REDRAW):
            errors["bracket"] = _("A knockout is either a fixed bracket or re-drawn every round.")
        if given.get("seeding", "seeds") not in SEEDINGS:
            errors["seeding"] = _("A bracket is seeded by the seeds or drawn at random.")
        if not isinstance(given.get("third_place", False), bool):
            errors["third_place"] = _("Choose whether a third-place match is played.")
    if "groups" in given:
        groups = given["groups"]
        if format != StageFormat.ROUND_ROBIN:
            errors["groups"] = _("Only a round robin is played in groups.")
        elif isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
            errors["groups"] = _("The number of groups is a whole number (1 or more).")
    if format == StageFormat.POINTS:
        errors.update(points_stage_options(given))
    errors.update(_team_options(given, format=format))
    if errors:
        raise UserError.of_fields(errors)
    return StageOptions.from_stored(given).to_stored()


TEAM_MATCH_FORMATS = (StageFormat.SWISS, StageFormat.ROUND_ROBIN, StageFormat.KNOCKOUT)
"""The formats a stage of team matches may have (docs/rules.md §11): a Swiss or a round robin of teams
(one group), or a knockout of teams on a fixed bracket."""


def _team_options(given: dict[str, Any], *, format: str) -> dict[str, str]:
    """The team options among a stage's options (docs/rules.md §11), read by the rules core
    (:class:`scoring.team_options.TeamOptions`: a ``team_count`` without ``team_total`` is refused by
    name); ``given`` keeps them as stored (``team_count`` "all" is no key; team matches under
    ``team_match``: their decider and team match points). Team matches are run in a Swiss, a round robin
    of one group, or a knockout whose bracket is drawn once (fixed: the team knockout's draw is the one
    bracket engine's, with the teams as its entrants; a knockout of teams asks for no ``bracket`` and
    gets a fixed one); another format, or a re-drawn knockout, is refused with a sentence."""
    names = [name for name in TEAM_OPTIONS if name in given]
    if not names:
        return {}
    try:
        team = TeamOptions.from_json({name: given[name] for name in names})
    except ScoringError as error:
        return {"team_match" if given.get("team_match") is True else "team_total": scoring_message(error)}
    if team.team_match and format not in TEAM_MATCH_FORMATS:
        return {
            "team_match": _(
                "Team matches (teams of two pairs at two tables) are played in a Swiss, a round robin or a knockout."
            )
        }
    if team.team_match and format == StageFormat.KNOCKOUT:
        if given.get("bracket", BRACKET_FIXED) != BRACKET_FIXED:
            return {"bracket": _("A knockout of teams is played on a fixed bracket, drawn once at the start.")}
        given["bracket"] = BRACKET_FIXED
    if team.team_match and format == StageFormat.ROUND_ROBIN and given.get("groups", 1) != 1:
        return {"groups": _("A round robin of teams is played in one group.")}
    for name in names:
        given.pop(name)
    if team.team_total:
        given["team_total"] = True
        if team.team_count is not None:
            given["team_count"] = team.team_count
    if team.team_match:
        stored = team.to_json()
        given["team_match"] = {name: stored[name] for name in ("team_decider", "team_match_points")}
    return {}


@event_write("tournament", of=tournament_event)
def stage_create(
    *,
    tournament: Tournament,
    name: str,
    format: str,
    order: int | None = None,
    rule_profile: str = "",
    rule_overrides: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    advance_count: int | None = None,
    user: Actor | None = None,
) -> Stage:
    """Add a stage (e.g. Swiss preliminaries, then a knockout) to a tournament."""
    if order is None:
        order = (tournament.stages.order_by("-order").values_list("order", flat=True).first() or 0) + 1
    try:
        # the options in force are stored with the stage: it keeps them
        rules = stage_rules_resolve(tournament=tournament, rule_profile=rule_profile, rule_overrides=rule_overrides)
        rules.check_stage(format)
    except ScoringError as error:
        raise UserError.of_fields({"rule_overrides": error.message}) from error
    _check_game(tournament=tournament, rules=rules, rule_profile=rule_profile, rule_overrides=rule_overrides)
    entry = game_kind(tournament.game)
    if format not in entry.entrants.stage_formats:
        raise UserError.of_fields(
            {"format": _("A %(game)s event has no stage of this format.") % {"game": entry.label}}
        )
    stage = Stage(
        tournament=tournament,
        name=name,
        format=format,
        order=order,
        rule_profile=rule_profile,
        rule_overrides=rule_overrides or {},
        rules=rules.to_stored(),
        options=_stage_options(format, options),
        advance_count=advance_count,
    )
    with transaction.atomic():
        if stage.settings.team_options.is_team_event:
            field = "team_match" if stage.settings.team_match is not None else "team_total"
            teams_ready_check(tournament=tournament, field=field)
        history_author(stage, user)
        stage.save()
    return stage


@event_write("stage", of=stage_event)
def stage_teams_set(
    *, stage: Stage, team_total: bool, team_count: int | None = None, user: Actor | None = None
) -> Stage:
    """Rank teams beside the stage, or stop (docs/rules.md §11: the team total), at any time: it adds a
    reading of the stage's one ranking and changes no result. ``team_count``: the best k members
    count (None: all). Refused while the event has no team or a team of fewer than two members."""
    given: dict[str, Any] = {"team_total": team_total}
    if team_count is not None:
        given["team_count"] = team_count
    errors = _team_options(given, format=stage.format)
    if errors:
        raise UserError.of_fields(errors)
    with transaction.atomic():
        locked = Stage.objects.select_for_update().get(pk=stage.pk)
        if team_total:
            teams_ready_check(tournament=locked.tournament)
        settings = locked.settings.with_values(team_total=team_total, team_count=given.get("team_count"))
        locked.options = settings.to_stored()
        history_author(locked, user)
        locked.save(update_fields=["options"])
    stage.options = locked.options
    return stage


@event_write("stage", of=stage_event)
def stage_delete(*, stage: Stage, user: Actor | None = None) -> None:
    """Delete a stage made by mistake (the wrong format, team matches forgotten): only while it has no
    round and no later stage took its entrants; a later stage then takes its entrants from the stage
    before it. Refused, nothing deleted, otherwise."""
    with transaction.atomic():
        locked = Stage.objects.select_for_update().get(pk=stage.pk)
        if locked.rounds.exists():
            raise UserError(
                "stage_has_rounds",
                _("%(stage)s has rounds: only a stage with none can be deleted (a draft round is deleted on its page).")
                % {"stage": locked.name},
            )
        later = Stage.objects.filter(tournament_id=locked.tournament_id, order__gt=locked.order)
        if any(other.settings.advanced_from(locked.pk) for other in later):
            raise UserError(
                "stage_advanced",
                _("%(stage)s's entrants have advanced into a later stage: it cannot be deleted.")
                % {"stage": locked.name},
            )
        history_author(locked, user, "stage deleted")
        locked.delete()


def _check_game(
    *, tournament: Tournament, rules: RuleOptions, rule_profile: str, rule_overrides: dict[str, Any] | None
) -> None:
    """A stage plays the tournament's game (docs/design.md: games plug in through one registry): its
    pages, forms and sheets are the
    game's (``tournament.games``), so a profile or an override of another game is refused."""
    if rules.game.value == tournament.game:
        return
    message = _("The rules are of %(game)s, but %(tournament)s plays %(own)s.") % {
        "game": labels.rule_value("game", rules.game.value),
        "tournament": tournament.name,
        "own": labels.rule_value("game", tournament.game),
    }
    overridden = "game" in (rule_overrides or {}) or "game" in tournament.rule_overrides
    raise UserError.of_fields({"rule_overrides" if overridden and not rule_profile else "rule_profile": message})


def _advanced_seeds(stage: Stage) -> dict[int, int]:
    """Pairs a previous stage advanced into this one, by seed (1 = the best ranked)."""
    return {pair_id: number for number, pair_id in enumerate(stage.settings.entrants, start=1)}


def stage_feeder(*, stage: Stage) -> Stage | None:
    """The stage a later stage takes its entrants from: the one just before it in the event (the
    Swiss before the knockout, the qualifying rounds before the final). None for the first stage."""
    return Stage.objects.filter(tournament_id=stage.tournament_id, order__lt=stage.order).order_by("-order").first()


def stage_entrants_missing(*, stage: Stage) -> Stage | None:
    """The stage whose advancement this stage still waits for, or None when it can be drawn: a
    later stage is drawn from the entrants advanced into it, never from everyone checked in (a
    knockout drawn before its pairs advanced would take the whole field)."""
    if stage.settings.entrants:
        return None
    return stage_feeder(stage=stage)


def stage_draw_ready_check(*, stage: Stage) -> None:
    """Refuse to draw a stage still waiting for its entrants (:func:`stage_entrants_missing`)."""
    feeder = stage_entrants_missing(stage=stage)
    if feeder is not None:
        raise UserError(
            "not_advanced",
            _("%(stage)s takes its entrants from %(feeder)s: advance them first (on this page or %(feeder)s's).")
            % {"stage": stage.name, "feeder": feeder.name},
        )


def advance_count_default(*, stage: Stage, next_stage: Stage | None) -> int | None:
    """How many advance, as the organiser set it: the source stage's "advancing to the next stage",
    else the count set on the stage they go into."""
    return stage.advance_count or (next_stage.advance_count if next_stage is not None else None)


def _drawn_pairs(stage: Stage) -> list[int]:
    pairs = stage.tournament.pairs.exclude(status=PairStatus.WITHDRAWN)
    advanced = _advanced_seeds(stage)
    if advanced:
        pairs = pairs.filter(pk__in=advanced)
    elif pairs.filter(status=PairStatus.CHECKED_IN).exists():
        pairs = pairs.filter(status=PairStatus.CHECKED_IN)
    return list(pairs.order_by("id").values_list("id", flat=True))


def stage_entrants(*, stage: Stage, pair_ids: list[int] | None = None) -> list[Entrant]:
    """The draw's view of every pair to be drawn: score, rank, opponents, byes, seats, departments.

    In a stage seeded by :func:`stage_advance` a pair's seed is its advancement rank, which
    also ranks the pairs until the stage has a result.
    """
    pair_ids = _drawn_pairs(stage) if pair_ids is None else pair_ids
    standings = stage_ranking_get(stage=stage).standings
    ranks = {row.entrant: (row.rank, row.match_points) for row in standings.rows}
    departments: dict[int, set[int]] = defaultdict(set)
    for pair_id, department_id in PairMember.objects.filter(pair_id__in=pair_ids).values_list(
        "pair_id", "player__department_id"
    ):
        if department_id is not None:
            departments[pair_id].add(department_id)
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: dict[int, int] = defaultdict(int)
    seats: dict[int, list[Seat]] = defaultdict(list)
    matches = Match.objects.filter(round__stage=stage).order_by("round__number")
    for ns, ew in matches.values_list("ns_pair_id", "ew_pair_id"):
        if ew is None:
            byes[ns] += 1
        else:
            opponents[ns].add(ew)
            opponents[ew].add(ns)
    for pair_id, side in (
        RoundEntry.objects.filter(round__stage=stage, match__ew_pair__isnull=False)
        .order_by("round__number")
        .values_list("pair_id", "side")
    ):
        seats[pair_id].append("NS" if side == "NS" else "EW")  # the database keeps a side NS or EW
    advanced = _advanced_seeds(stage)
    seeds: Mapping[int, int | None]
    if advanced:
        seeds = advanced
        if not opponents and not byes:
            ranks = {str(pair_id): (number, 0) for pair_id, number in advanced.items()}
    else:
        seeds = dict(stage.tournament.pairs.filter(pk__in=pair_ids).values_list("id", "seed"))
    return [
        Entrant(
            id=pair_id,
            rank=ranks.get(str(pair_id), (0, 0))[0],
            seed=seeds.get(pair_id),
            score=ranks.get(str(pair_id), (0, 0))[1],
            opponents=frozenset(opponents[pair_id]),
            byes=byes[pair_id],
            departments=frozenset(departments[pair_id]),
            seats_ns=seats[pair_id].count("NS"),
            seats_ew=seats[pair_id].count("EW"),
            last_seat=seats[pair_id][-1] if seats[pair_id] else None,
        )
        for pair_id in pair_ids
    ]


@event_write("stage", of=stage_event)
def stage_advance(
    *,
    stage: Stage,
    next_stage: Stage,
    count: int | None = None,
    overrides: Sequence[tuple[int, int]] = (),
    reason: str = "",
    user: Actor | None,
) -> Stage:
    """Seed ``next_stage`` with the top ``count`` pairs of ``stage`` (docs/rules.md §4: 预赛 → 淘汰赛).

    The order is the stage's one ranking (:func:`~tournament.standings.selectors.stage_ranking_get`,
    withdrawn pairs skipped). A full tie across the cut is decided by drawing lots (docs/rules.md §5):
    a fresh seed is drawn, kept in ``stage.settings.lots_seed`` (so the stage's pages, prizes and
    workbook show the same lots) and in the advancement record. The
    ``count`` best become the next stage's entrants, seeded by rank (seed 1 = the best; a fixed
    bracket places them by these seeds). ``count`` defaults to ``stage.advance_count``. Each
    override ``(leaving, joining)`` replaces an advancing pair by another active pair of the
    tournament, which takes its seed; overrides need a ``reason``. The standings order, the
    overrides, the reason and the author are kept in ``next_stage.settings.advancement`` and on
    the stage's history row. Allowed until ``next_stage`` has a round; doing it again replaces
    the previous advancement.

    A round robin played in groups (``settings.groups`` > 1) advances the top ``count`` of
    *each* group (rank within a group = order in the stage's standings), seeded by rank within
    the group, then by group: group 1's winner, group 2's winner, …, group 1's runner-up, …

    Into a stage of team matches (docs/rules.md §11) the top ``count`` **teams** advance, by the
    stage's team ranking (:func:`tournament.standings.team_ranking.stage_team_ranking_get`: its team
    matches' standings, a knockout of teams' placings, or its team total), withdrawn teams skipped,
    seeded by that order (a fixed bracket of teams places them by these seeds); overrides name teams.
    """
    if next_stage.tournament_id != stage.tournament_id or next_stage.order <= stage.order:
        raise UserError("invalid_stage", _("Pairs advance into a later stage of the same tournament."))
    teams = next_stage.settings.team_match is not None
    count = count if count is not None else stage.advance_count
    if not count:
        message = _("Say how many teams advance.") if teams else _("Say how many pairs advance.")
        raise UserError.of_fields({"count": message}, code="count_required")
    if next_stage.rounds.exists():
        raise UserError("next_stage_started", _("The next stage has been drawn already."))
    unfinished = Match.objects.filter(round__stage=stage, status__in=(MatchStatus.PENDING, MatchStatus.RUNNING))
    if not stage.rounds.exists() or stage.rounds.filter(status=RoundStatus.DRAFT).exists() or unfinished.exists():
        raise UserError("stage_not_finished", _("Every round of this stage needs its results first."))
    unsigned = awaiting_sign_off(stage=stage)  # two sides or a table of three
    if MatchStatus.FINISHED not in counted_statuses(stage=stage) and unsigned.exists():
        # the event counts signed-off results only: advancing now would leave these out
        raise UserError("results_unsigned", _("Every result of this stage must be signed off first."))
    if teams:
        by_rank, per_group, lots_seed = _team_advancement_order(stage=stage, count=count)
        active = {line.team_id for line in _team_lines(stage, _team_ranking_lines(stage))}
    else:
        by_rank, per_group, lots_seed = _advancement_order(stage=stage, count=count)
        active = set(stage.tournament.pairs.exclude(status=PairStatus.WITHDRAWN).values_list("id", flat=True))
    reason = reason_clean(reason, required=bool(overrides))
    chosen = list(by_rank)
    # a refusal names a team as the organiser knows it (its name), a pair by its id as before
    named: dict[int, str] = {}
    if teams and overrides:
        ids = {pk for override in overrides for pk in override}
        named = dict(Team.objects.filter(tournament_id=stage.tournament_id, pk__in=ids).values_list("pk", "name"))
    for leaving, joining in overrides:
        if leaving not in chosen:
            if teams:
                raise UserError(
                    "bad_input",
                    _("Team %(pair)s is not among the teams advancing.") % {"pair": named.get(leaving, leaving)},
                )
            raise UserError("bad_input", _("Pair %(pair)s is not among the pairs advancing.") % {"pair": leaving})
        if joining in chosen or joining not in active:
            if teams:
                raise UserError(
                    "bad_input", _("Team %(pair)s cannot take that place.") % {"pair": named.get(joining, joining)}
                )
            raise UserError("bad_input", _("Pair %(pair)s cannot take that place.") % {"pair": joining})
        chosen[chosen.index(leaving)] = joining
    with transaction.atomic():
        next_stage = Stage.objects.select_for_update().get(pk=next_stage.pk)
        if next_stage.rounds.exists():
            raise UserError("next_stage_started", _("The next stage has been drawn already."))
        if lots_seed is not None:
            _lots_record(stage, lots_seed, user=user, reason="lots drawn for the advancement cut")
        advancement = Advancement(
            from_stage=stage.pk,
            count=count,
            per_group=per_group,
            lots_seed=stage_lots_seed(stage=stage),
            by_rank=tuple(by_rank),
            overrides=tuple((leaving, joining) for leaving, joining in overrides),
            reason=reason,
            kind="advance",
            by=account.pk if (account := signed_in(user)) is not None else None,
            at=timezone.now().isoformat(),
        )
        settings = next_stage.settings.with_values(entrants=tuple(chosen), advancement=advancement)
        next_stage.options = settings.to_stored()
        history_author(next_stage, user, reason or f"advance top {count} from stage {stage.pk}")
        next_stage.save(update_fields=["options"])
    return next_stage


def _lots_record(stage: Stage, lots_seed: int, *, user: Actor | None, reason: str) -> bool:
    """Record ``lots_seed`` as the stage's lots (call inside a transaction), unless lots were recorded
    meanwhile: the stage's lots are drawn once. Returns whether they were recorded."""
    locked = Stage.objects.select_for_update().get(pk=stage.pk)
    if locked.settings.lots_seed is not None:
        return False
    locked.options = locked.settings.with_values(lots_seed=lots_seed).to_stored()
    history_author(locked, user, reason)
    locked.save(update_fields=["options"])
    stage.options = locked.options
    return True


def _placed(stage: Stage, standings: StageStandings) -> list[StandingRow]:
    """The order of a stage without a Swiss or round-robin ranking (a knockout's placings, a points
    stage's players), withdrawn pairs skipped."""
    withdrawn = set(stage.tournament.pairs.filter(status=PairStatus.WITHDRAWN).values_list("id", flat=True))
    return [row for row in standings.standings.rows if int(row.entrant) not in withdrawn]


def _cut_undecided(stage: Stage, standings: StageStandings, count: int) -> bool:
    """Whether a shared rank straddles the top ``count`` (of each group in a grouped round robin): the
    cut then needs lots, whatever the stage's format."""
    if standings.ranking is not None:
        return standings.ranking.cut_undecided(count)
    rows = _placed(stage, standings)
    return 0 < count < len(rows) and rows[count].shared and rows[count].rank == rows[count - 1].rank


def _cut_tied(*, stage: Stage, count: int, teams: bool = False) -> bool:
    """Whether a full tie straddles the cut at ``count`` (per group in a grouped round robin) when
    lots are left aside: such a cut is decided by the stage's lots (docs/rules.md §5). ``teams``: the
    cut of the stage's team ranking (teams advancing into a stage of team matches, docs/rules.md §11)."""
    if teams:
        try:
            lines = _team_lines(stage, _team_ranking_lines(stage))
        except UserError:
            return False
        return 0 < count < len(lines) and lines[count].shared and lines[count].rank == lines[count - 1].rank
    return _cut_undecided(stage, stage_ranking_get(stage=stage, lots=False), count)


@event_write("stage", of=stage_event)
def stage_cut_lots_draw(
    *, stage: Stage, count: int, user: Actor | None, reason: str, teams: bool = False
) -> int | None:
    """Draw and record the lots a full tie at ``stage``'s cut at ``count`` needs, once: a stage
    with lots recorded keeps them (a correction that makes a tie at the cut does not draw again,
    and the re-check, its flag and a redraw all read the same lots). Returns the stage's lots seed
    when the cut is tied, else None. ``teams``: the cut of its team ranking (teams advancing)."""
    if not _cut_tied(stage=stage, count=count, teams=teams):
        return None
    return stage_lots_draw(stage=stage, user=user, reason=reason)


@event_write("stage", of=stage_event)
def stage_lots_draw(*, stage: Stage, user: Actor | None, reason: str) -> int:
    """The stage's lots (抽签, docs/rules.md §5): drawn now and recorded with the stage unless they
    were drawn already — once per stage, whoever needs them first (an advancement's cut, a correction,
    the prizes), so every reader of the stage's one ranking breaks its full ties the same way.
    Returns the stage's lots seed."""
    with transaction.atomic():
        _lots_record(stage, secrets.randbelow(2**31), user=user, reason=reason)
    stage.refresh_from_db(fields=["options"])
    seed = stage.settings.lots_seed
    assert seed is not None  # recorded now or before
    return seed


def _advancement_order(*, stage: Stage, count: int, draw_lots: bool = True) -> tuple[list[int], bool, int | None]:
    """The ``count`` best of ``stage`` by its one ranking (per group in a grouped round robin): the
    pair ids, whether per group, and the lots seed freshly drawn for a full tie at the cut (None:
    none needed or ``draw_lots`` is off — a re-check after a correction uses the recorded lots)."""
    standings = stage_ranking_get(stage=stage)
    if standings.teams is not None:
        raise UserError(
            "teams_ranked",
            _("%(stage)s ranks teams, not pairs: its teams advance into a stage of team matches.")
            % {"stage": stage.name},
        )
    lots_seed = None
    if draw_lots and stage_lots_seed(stage=stage) is None and _cut_undecided(stage, standings, count):
        # A full tie at the cut is decided by drawing lots (docs/rules.md §5), whatever the stage's
        # format: seeded, recorded with the stage (its pages then show the same lots), reproducible.
        lots_seed = secrets.randbelow(2**31)
        standings = stage_ranking_get(stage=stage, lots_seed=lots_seed)
    ranking = standings.ranking
    groups = ranking.groups() if ranking is not None else []
    if ranking is None or not ranking.grouped:
        eligible = [row.entrant for group in groups for row in group]
        if ranking is None:  # a knockout's placings, a points stage's players
            eligible = [row.entrant for row in _placed(stage, standings)]
        if count < 2 or count > len(eligible):
            raise UserError.of_fields(
                {"count": _("Between 2 and %(n)d pairs can advance.") % {"n": len(eligible)}}, code="invalid_count"
            )
        by_rank = [int(entrant) for entrant in eligible[:count]]
    else:
        smallest = min(len(group) for group in groups)
        if count < 1 or count > smallest or count * len(groups) < 2:
            raise UserError.of_fields(
                {"count": _("Between 1 and %(n)d pairs of each group can advance.") % {"n": smallest}},
                code="invalid_count",
            )
        by_rank = [int(entrant) for entrant in ranking.advancing(count)]
    return by_rank, ranking is not None and ranking.grouped, lots_seed


def _team_ranking_lines(stage: Stage, lots_seed: int | None = None) -> tuple[TeamRankLine, ...]:
    """``stage``'s team ranking, best first (with ``lots_seed`` as its lots when the stage has none
    recorded yet: the ranking the lots about to be recorded give); refused when the stage ranks no teams."""
    if lots_seed is not None and stage_lots_seed(stage=stage) is None:
        stage = copy.copy(stage)  # read with those lots, nothing saved
        stage.options = stage.settings.with_values(lots_seed=lots_seed).to_stored()
    ranking = stage_team_ranking_get(stage=stage)
    if ranking is None:
        raise UserError(
            "no_team_ranking",
            _("%(stage)s ranks no teams: teams advance from a stage of team matches or with a team total.")
            % {"stage": stage.name},
        )
    return ranking.lines


def _team_lines(stage: Stage, lines: tuple[TeamRankLine, ...]) -> list[TeamRankLine]:
    """The lines of teams that may advance: not withdrawn (docs/rules.md §11)."""
    gone = teams_withdrawn(tournament_id=stage.tournament_id)
    return [line for line in lines if line.team_id not in gone]


def _team_advancement_order(*, stage: Stage, count: int, draw_lots: bool = True) -> tuple[list[int], bool, int | None]:
    """The ``count`` best teams of ``stage`` by its team ranking (docs/rules.md §11), withdrawn teams
    skipped: the team ids, False (no groups) and the lots seed freshly drawn for a full tie at the cut
    (None: none needed, or ``draw_lots`` off)."""
    lines = _team_lines(stage, _team_ranking_lines(stage))
    if count < 2 or count > len(lines):
        raise UserError.of_fields(
            {"count": _("Between 2 and %(n)d teams can advance.") % {"n": len(lines)}}, code="invalid_count"
        )
    lots_seed = None
    if draw_lots and stage_lots_seed(stage=stage) is None and _cut_tied(stage=stage, count=count, teams=True):
        # a full tie at the cut is decided by drawing lots (docs/rules.md §5, §11), recorded with the stage
        lots_seed = secrets.randbelow(2**31)
        lines = _team_lines(stage, _team_ranking_lines(stage, lots_seed))
    return [line.team_id for line in lines[:count]], False, lots_seed


def stage_advancing_now(*, next_stage: Stage) -> list[int] | None:
    """The pairs ``next_stage``'s recorded advancement would advance now (its count, overrides and
    the lots it recorded), or None when it was not advanced or no longer can be computed (it is
    compared with its entrants after a correction of the source stage)."""
    record = next_stage.settings.advancement
    if record is None or not record.from_stage or record.count is None:
        return None
    stage = Stage.objects.filter(pk=record.from_stage, tournament_id=next_stage.tournament_id).first()
    if stage is None:
        return None
    order = _team_advancement_order if next_stage.settings.team_match is not None else _advancement_order
    try:
        by_rank, _per_group, _lots = order(stage=stage, count=record.count, draw_lots=False)
    except UserError:
        return None
    chosen = list(by_rank)
    for leaving, joining in record.overrides:
        if leaving in chosen and joining not in chosen:
            chosen[chosen.index(leaving)] = joining
    return chosen
