"""Draw writes: stages, a round's tables and matches, edits before publishing, brackets, referees.

The generators (``tournament.draw.pairing``) are pure; this module maps the database to their
plain ``Entrant`` values, calls one, and bulk-writes the round it returns, recording the
algorithm, options and seed so the same inputs and seed give the same tables (DESIGN.md
principle 8). Which pairs are drawn: the pairs a previous stage advanced into this one
(``Stage.options["entrants"]``, see :func:`stage_advance`); otherwise the checked-in pairs once
check-in has started, else every registered pair; withdrawn pairs never.

Stage options (``Stage.options``, JSON):

- ``department_rounds``: department protection in rounds 1…k (all formats);
- knockout: ``bracket`` — ``"redraw"`` (default; seed 004's fresh draw every round) or
  ``"fixed"`` (seed 003: one bracket drawn at the start, kept in ``bracket_record``);
  ``seeding`` — ``"seeds"`` (the organiser's, or the advancement order) or ``"random"``;
  ``third_place`` — play off the losing semi-finalists;
- round robin: ``groups`` — split the pairs into this many groups (default 1), each playing
  its own round robin (see :func:`_round_robin_draw`);
- written by the services: ``bracket_record`` (a fixed bracket's ``as_record()``),
  ``schedule_seed`` (a round robin's), ``group_of`` (a grouped round robin's pair id → group,
  fixed when round 1 is drawn), ``entrants`` and ``advancement`` (:func:`stage_advance`), and
  ``lots_seed`` (the lots :func:`stage_advance` drew for a full tie at the cut; every reader of
  the stage's ranking uses them).

Every write names its author on the history rows (django-simple-history keeps who, when, from
where, before → after; principle 4); manual edits are also listed in ``Round.draw_options["edits"]``
because the bulk-written matches have no "before" history row of their own.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import secrets
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from scoring.errors import ScoringError
from scoring.options import RuleOptions
from tournament import labels
from tournament.audit import REASON_MAX, bulk_history_attrs, history_author
from tournament.draw import pairing
from tournament.draw.pairing import (
    Draw,
    DrawError,
    DrawWarning,
    Entrant,
    KnockoutBracket,
    MatchRef,
    Pairing,
    knockout_bracket,
    knockout_redraw,
    knockout_round,
    round_robin_schedule,
    swiss_pair,
)
from tournament.draw.three_seats import points_stage_options, three_seat_round_create
from tournament.games import game_entry
from tournament.locale import in_ui_language
from tournament.matches.models import (
    Adjustment,
    Deal,
    Match,
    MatchStatus,
    RefereeAssignment,
    Round,
    RoundEntry,
    RoundStatus,
    Stage,
    StageFormat,
    Table,
)
from tournament.matches.referees import referee_accounts_list
from tournament.registration.lifecycle import event_write, tournament_status_after_publish
from tournament.registration.models import PairMember, PairStatus, Tournament
from tournament.rules import rules_for_stage, stage_rules_resolve
from tournament.standings.cache import public_version_bump
from tournament.standings.selectors import stage_bracket_state_get, stage_lots_seed, stage_ranking_get

logger = logging.getLogger(__name__)

BRACKET_FIXED = "fixed"
BRACKET_REDRAW = "redraw"
SEEDINGS = ("seeds", "random")


def draw_message(error: DrawError) -> str:
    return in_ui_language(en=error.message_en, zh=error.message_zh)


def warning_message(warning: DrawWarning) -> str:
    return in_ui_language(en=warning.message_en, zh=warning.message_zh)


def _clean_reason(reason: str, *, required: bool) -> str:
    text = " ".join((reason or "").split())
    if required and not text:
        raise ValidationError({"reason": _("Give a reason.")}, code="reason_required")
    if len(text) > REASON_MAX:
        raise ValidationError(
            {"reason": _("The reason is longer than %(max)d characters.") % {"max": REASON_MAX}},
            code="reason_too_long",
        )
    return text


def _edit_record(user: Any, kind: str, **details: Any) -> dict[str, Any]:
    return {
        "kind": kind,
        "by": user.pk if getattr(user, "is_authenticated", False) else None,
        "at": timezone.now().isoformat(),
        **details,
    }


# -- stages ------------------------------------------------------------------------------------


def _stage_options(format: str, options: dict[str, Any] | None) -> dict[str, Any]:
    options = dict(options or {})
    errors: dict[str, str] = {}
    rounds = options.get("department_rounds", 0)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        errors["department_rounds"] = _("Department protection needs a number of rounds (0 or more).")
    if format == StageFormat.KNOCKOUT:
        if options.get("bracket", BRACKET_REDRAW) not in (BRACKET_FIXED, BRACKET_REDRAW):
            errors["bracket"] = _("A knockout is either a fixed bracket or re-drawn every round.")
        if options.get("seeding", "seeds") not in SEEDINGS:
            errors["seeding"] = _("A bracket is seeded by the seeds or drawn at random.")
        if not isinstance(options.get("third_place", False), bool):
            errors["third_place"] = _("Choose whether a third-place match is played.")
    if "groups" in options:
        groups = options["groups"]
        if format != StageFormat.ROUND_ROBIN:
            errors["groups"] = _("Only a round robin is played in groups.")
        elif isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
            errors["groups"] = _("The number of groups is a whole number (1 or more).")
    if format == StageFormat.POINTS:
        errors.update(points_stage_options(options))
    if errors:
        raise ValidationError(errors)
    return options


@event_write
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
    user: Any = None,
) -> Stage:
    """Add a stage (e.g. Swiss preliminaries, then a knockout) to a tournament."""
    if order is None:
        order = (tournament.stages.order_by("-order").values_list("order", flat=True).first() or 0) + 1
    try:
        # the options in force are stored with the stage: it keeps them (issue 13)
        rules = stage_rules_resolve(tournament=tournament, rule_profile=rule_profile, rule_overrides=rule_overrides)
        rules.check_stage(format)
    except ScoringError as error:
        raise ValidationError({"rule_overrides": error.message}) from error
    _check_game(tournament=tournament, rules=rules, rule_profile=rule_profile, rule_overrides=rule_overrides)
    entry = game_entry(tournament.game)
    if format not in entry.stage_formats:
        raise ValidationError({"format": _("A %(game)s event has no stage of this format.") % {"game": entry.label}})
    stage = Stage(
        tournament=tournament,
        name=name,
        format=format,
        order=order,
        rule_profile=rule_profile,
        rule_overrides=rule_overrides or {},
        rules=rules.to_json(),
        options=_stage_options(format, options),
        advance_count=advance_count,
    )
    history_author(stage, user)
    stage.save()
    return stage


def _check_game(
    *, tournament: Tournament, rules: RuleOptions, rule_profile: str, rule_overrides: dict[str, Any] | None
) -> None:
    """A stage plays the tournament's game (DESIGN.md principle 10): its pages, forms and sheets are the
    game's (``tournament.games``), so a profile or an override of another game is refused."""
    if rules.game.value == tournament.game:
        return
    message = _("The rules are of %(game)s, but %(tournament)s plays %(own)s.") % {
        "game": labels.rule_value("game", rules.game.value),
        "tournament": tournament.name,
        "own": labels.rule_value("game", tournament.game),
    }
    overridden = "game" in (rule_overrides or {}) or "game" in tournament.rule_overrides
    raise ValidationError({"rule_overrides" if overridden and not rule_profile else "rule_profile": message})


def _advanced_seeds(stage: Stage) -> dict[int, int]:
    """Pairs a previous stage advanced into this one, by seed (1 = the best ranked)."""
    return {pair_id: number for number, pair_id in enumerate(stage.options.get("entrants") or [], start=1)}


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
    seats: dict[int, list[str]] = defaultdict(list)
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
        seats[pair_id].append(side)
    advanced = _advanced_seeds(stage)
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
            last_seat=seats[pair_id][-1] if seats[pair_id] else None,  # type: ignore[arg-type]
        )
        for pair_id in pair_ids
    ]


@event_write
def stage_advance(
    *,
    stage: Stage,
    next_stage: Stage,
    count: int | None = None,
    overrides: Sequence[tuple[int, int]] = (),
    reason: str = "",
    user: Any,
) -> Stage:
    """Seed ``next_stage`` with the top ``count`` pairs of ``stage`` (RULES.md §4: 预赛 → 淘汰赛).

    The order is the stage's one ranking (:func:`~tournament.standings.selectors.stage_ranking_get`,
    withdrawn pairs skipped). A full tie across the cut is decided by drawing lots (RULES.md §5):
    a fresh seed is drawn, kept in ``stage.options["lots_seed"]`` (so the stage's pages, prizes and
    workbook show the same lots) and in the advancement record. The
    ``count`` best become the next stage's entrants, seeded by rank (seed 1 = the best; a fixed
    bracket places them by these seeds). ``count`` defaults to ``stage.advance_count``. Each
    override ``(leaving, joining)`` replaces an advancing pair by another active pair of the
    tournament, which takes its seed; overrides need a ``reason``. The standings order, the
    overrides, the reason and the author are kept in ``next_stage.options["advancement"]`` and on
    the stage's history row. Allowed until ``next_stage`` has a round; doing it again replaces
    the previous advancement.

    A round robin played in groups (``options["groups"]`` > 1) advances the top ``count`` of
    *each* group (rank within a group = order in the stage's standings), seeded by rank within
    the group, then by group: group 1's winner, group 2's winner, …, group 1's runner-up, …
    """
    if next_stage.tournament_id != stage.tournament_id or next_stage.order <= stage.order:
        raise ValidationError(_("Pairs advance into a later stage of the same tournament."), code="invalid_stage")
    count = count if count is not None else stage.advance_count
    if not count:
        raise ValidationError({"count": _("Say how many pairs advance.")}, code="count_required")
    if next_stage.rounds.exists():
        raise ValidationError(_("The next stage has been drawn already."), code="next_stage_started")
    unfinished = Match.objects.filter(round__stage=stage, status__in=(MatchStatus.PENDING, MatchStatus.RUNNING))
    if not stage.rounds.exists() or stage.rounds.filter(status=RoundStatus.DRAFT).exists() or unfinished.exists():
        raise ValidationError(_("Every round of this stage needs its results first."), code="stage_not_finished")
    ranking = stage_ranking_get(stage=stage).ranking
    lots_seed = None
    if ranking is not None and ranking.lots_seed is None and ranking.cut_undecided(count):
        # A full tie at the cut is decided by drawing lots (RULES.md §5): seeded, recorded with the
        # stage (its pages then show the same lots), reproducible.
        lots_seed = secrets.randbelow(2**31)
        ranking = stage_ranking_get(stage=stage, lots_seed=lots_seed).ranking
    groups = ranking.groups() if ranking is not None else []
    if ranking is None or not ranking.grouped:
        eligible = [row.entrant for group in groups for row in group]
        if ranking is None:  # a knockout stage: its placings, withdrawn pairs skipped
            withdrawn = set(stage.tournament.pairs.filter(status=PairStatus.WITHDRAWN).values_list("id", flat=True))
            placings = stage_ranking_get(stage=stage).standings.rows
            eligible = [row.entrant for row in placings if int(row.entrant) not in withdrawn]
        if count < 2 or count > len(eligible):
            raise ValidationError(
                {"count": _("Between 2 and %(n)d pairs can advance.") % {"n": len(eligible)}}, code="invalid_count"
            )
        by_rank = [int(entrant) for entrant in eligible[:count]]
    else:
        smallest = min(len(group) for group in groups)
        if count < 1 or count > smallest or count * len(groups) < 2:
            raise ValidationError(
                {"count": _("Between 1 and %(n)d pairs of each group can advance.") % {"n": smallest}},
                code="invalid_count",
            )
        by_rank = [int(entrant) for entrant in ranking.advancing(count)]
    per_group = ranking is not None and ranking.grouped
    reason = _clean_reason(reason, required=bool(overrides))
    chosen = list(by_rank)
    active = set(stage.tournament.pairs.exclude(status=PairStatus.WITHDRAWN).values_list("id", flat=True))
    for leaving, joining in overrides:
        if leaving not in chosen:
            raise ValidationError(_("Pair %(pair)s is not among the pairs advancing.") % {"pair": leaving})
        if joining in chosen or joining not in active:
            raise ValidationError(_("Pair %(pair)s cannot take that place.") % {"pair": joining})
        chosen[chosen.index(leaving)] = joining
    with transaction.atomic():
        next_stage = Stage.objects.select_for_update().get(pk=next_stage.pk)
        if next_stage.rounds.exists():
            raise ValidationError(_("The next stage has been drawn already."), code="next_stage_started")
        if lots_seed is not None:
            locked_stage = Stage.objects.select_for_update().get(pk=stage.pk)
            locked_stage.options = {**locked_stage.options, "lots_seed": lots_seed}
            history_author(locked_stage, user, "lots drawn for the advancement cut")
            locked_stage.save(update_fields=["options"])
            stage.options = locked_stage.options
        next_stage.options = {
            **next_stage.options,
            "entrants": chosen,
            "advancement": _edit_record(
                user,
                "advance",
                from_stage=stage.pk,
                count=count,
                per_group=per_group,
                lots_seed=stage_lots_seed(stage=stage),
                by_rank=by_rank,
                overrides=[[leaving, joining] for leaving, joining in overrides],
                reason=reason,
            ),
        }
        history_author(next_stage, user, reason or f"advance top {count} from stage {stage.pk}")
        next_stage.save(update_fields=["options"])
    return next_stage


# -- drawing a round -----------------------------------------------------------------------------


def _generate(stage: Stage, number: int, seed: int, allow_rematches: bool) -> tuple[Draw, dict[str, Any]]:
    """The round's draw and the stage options to store with it."""
    department_rounds = int(stage.options.get("department_rounds", 0))
    if stage.format == StageFormat.SWISS:
        draw = swiss_pair(
            entrants=stage_entrants(stage=stage),
            round_number=number,
            seed=seed,
            allow_rematches=allow_rematches,
            department_rounds=department_rounds,
        )
        return draw, {}
    if stage.format == StageFormat.ROUND_ROBIN:
        return _round_robin_draw(stage, number, seed)
    if stage.options.get("bracket") == BRACKET_FIXED:
        return _bracket_draw(stage, number, seed)
    # Knockout, re-drawn every round among the pairs still in (seed 004), on confirmed results only
    # (the bracket's one answer: stage_bracket_state_get), as a fixed bracket.
    entrants = stage_entrants(stage=stage)
    state = stage_bracket_state_get(stage=stage)
    if state.pending:
        raise DrawError(
            "round_not_finished",
            "Every match of the previous round must be signed off first.",
            "上一轮还有比赛未确认结果。",
        )
    still_in = [entrant for entrant in entrants if str(entrant.id) in state.still_in]
    if len(still_in) == 1 and stage.rounds.exists():
        raise DrawError("bracket_complete", "Every match of this knockout is decided.", "该淘汰赛的比赛已全部结束。")
    third = None
    if stage.options.get("third_place") and state.third_place_due is not None:
        by_id = {str(entrant.id): entrant for entrant in entrants}
        if all(pair in by_id for pair in state.third_place_due):
            third = (by_id[state.third_place_due[0]], by_id[state.third_place_due[1]])
    draw = knockout_redraw(
        entrants=still_in, round_number=number, seed=seed, department_rounds=department_rounds, third_place=third
    )
    return draw, {}


def _round_robin_draw(stage: Stage, number: int, seed: int) -> tuple[Draw, dict[str, Any]]:
    """Round ``number`` of a round robin; with ``groups`` > 1, round ``number`` of every group.

    The whole schedule comes from the stage's first seed, so every round fits the others. Groups
    are dealt in snake order (:func:`_snake_groups`) when round 1 is drawn and kept in
    ``options["group_of"]``; each group gets its own circle schedule with that seed. The round
    holds the group's tables group by group (group 1's first), then the byes; a group with fewer
    rounds than the largest simply has none.
    """
    schedule_seed = int(stage.options.get("schedule_seed", seed))
    first_round = stage.rounds.filter(number=1).first()
    pair_ids = sorted(first_round.entries.values_list("pair_id", flat=True)) if first_round else None
    entrants = stage_entrants(stage=stage, pair_ids=pair_ids)
    updates: dict[str, Any] = {"schedule_seed": schedule_seed}
    groups = int(stage.options.get("groups", 1))
    if groups == 1:
        schedules = [round_robin_schedule(entrants=entrants, seed=schedule_seed, shuffle=True)]
    else:
        stored = stage.options.get("group_of")
        group_of = stored if first_round and stored else _snake_groups(entrants, groups, schedule_seed)
        members: list[list[Entrant]] = [[] for _ in range(groups)]
        for entrant in entrants:
            members[group_of[str(entrant.id)] - 1].append(entrant)
        if any(len(group) < 2 for group in members):
            raise DrawError(
                "too_few_entrants",
                f"{len(entrants)} pairs cannot make {groups} groups of at least two.",
                f"{len(entrants)} 对无法分成 {groups} 个每组至少两对的小组。",
            )
        schedules = [round_robin_schedule(entrants=group, seed=schedule_seed, shuffle=True) for group in members]
        updates["group_of"] = group_of
    if number > max(len(schedule) for schedule in schedules):
        raise DrawError("stage_complete", "Every round of this round robin has been drawn.", "循环赛各轮已全部编排。")
    draw = schedules[0][number - 1] if groups == 1 else _groups_round(schedules, number, groups)
    # A pair that withdrew keeps its number in the schedule (the others still meet once);
    # its opponents advance without playing.
    gone = set(
        stage.tournament.pairs.filter(pk__in=pair_ids or (), status=PairStatus.WITHDRAWN).values_list("id", flat=True)
    )
    return _walkovers(draw, gone), updates


def _snake_groups(entrants: list[Entrant], groups: int, seed: int) -> dict[str, int]:
    """Pair id (as a string, the JSON key) → group 1…``groups``, dealt in snake order.

    The order is by seed (the organiser's, or the advancement rank), then standings rank, then
    lots drawn with ``seed``: 1st → group 1, …, ``groups``-th → group ``groups``, the next one
    → group ``groups`` again and back up to group 1 (1 2 3 3 2 1 1 2 3 …).
    """
    lots = [e.id for e in entrants]
    random.Random(seed).shuffle(lots)
    lot = {pair_id: k for k, pair_id in enumerate(lots)}
    unknown = len(entrants) + 1
    ordered = sorted(entrants, key=lambda e: (e.seed or unknown, e.rank or unknown, lot[e.id]))
    group_of: dict[str, int] = {}
    for k, entrant in enumerate(ordered):
        lap, place = divmod(k, groups)
        group_of[str(entrant.id)] = groups - place if lap % 2 else place + 1
    return group_of


def _groups_round(schedules: list[tuple[Draw, ...]], number: int, groups: int) -> Draw:
    """Round ``number`` of every group's schedule as one round: tables group by group, byes last."""
    rounds = [schedule[number - 1] for schedule in schedules if number <= len(schedule)]
    tables = [p for draw in rounds for p in draw.pairings if p.ew is not None]
    byes = [p for draw in rounds for p in draw.pairings if p.ew is None]
    numbered = [dataclasses.replace(p, table=table) for table, p in enumerate(tables, start=1)]
    numbers: dict[str, Any] = {}
    for draw in rounds:
        numbers.update(draw.notes["numbers"])  # type: ignore[arg-type]
    sizes = [schedule[0].options["group_size"] for schedule in schedules]
    return Draw(
        algorithm=rounds[0].algorithm,
        round_number=number,
        seed=rounds[0].seed,
        options={**rounds[0].options, "groups": groups, "group_size": sizes},
        pairings=tuple(numbered + byes),
        notes={"numbers": numbers},
    )


def _walkovers(draw: Draw, gone: set[int]) -> Draw:
    """The draw with withdrawn pairs taken out: their opponents get a walkover — a row without a
    table like a bye, listed in ``notes["walkovers"]`` (pair → the withdrawn opponent) so the
    standings count it as a forfeit win (RULES.md §5), not as a bye."""
    if not gone.intersection(e for p in draw.pairings for e in p.entrants):
        return draw
    tables: list[Pairing] = []
    byes: list[Pairing] = []
    walkovers: dict[str, Any] = {}
    for p in draw.pairings:
        present = [e for e in p.entrants if e not in gone]
        if len(present) == 2:
            tables.append(p)
        elif present:
            warnings = p.warnings if p.ew is None else (DrawWarning.of("walkover", present[0]),)
            byes.append(Pairing(None, present[0], None, warnings, p.bracket_match, p.third_place))
            if p.ew is not None:
                absent = p.ew if present[0] == p.ns else p.ns
                walkovers[str(present[0])] = absent
    renumbered = [
        dataclasses.replace(p, table=number, warnings=tuple(dataclasses.replace(w, table=number) for w in p.warnings))
        for number, p in enumerate(tables, start=1)
    ]
    notes = {**draw.notes, "walkovers": walkovers} if walkovers else draw.notes
    return dataclasses.replace(draw, pairings=tuple(renumbered + byes), notes=notes)


# -- fixed brackets --------------------------------------------------------------------------------


def _is_fixed_bracket(stage: Stage) -> bool:
    return stage.format == StageFormat.KNOCKOUT and stage.options.get("bracket") == BRACKET_FIXED


def stage_bracket(*, stage: Stage) -> KnockoutBracket | None:
    """A fixed-bracket stage's bracket once drawn (with departments for its warnings), else None."""
    record = stage.options.get("bracket_record")
    if not _is_fixed_bracket(stage) or not record:
        return None
    departments: dict[int, set[int]] = defaultdict(set)
    if int(record.get("options", {}).get("department_rounds", 0)) >= 1:
        for pair_id, department_id in PairMember.objects.filter(pair_id__in=record["seeds"]).values_list(
            "pair_id", "player__department_id"
        ):
            if department_id is not None:
                departments[pair_id].add(department_id)
    return KnockoutBracket.from_record(record, departments=departments)


def stage_bracket_winners(*, stage: Stage) -> dict[MatchRef, int]:
    """``(round, bracket position) → winning pair`` of every confirmed (signed-off) bracket match.

    Winners advance on confirmed results only. Byes and walkovers are left out: the bracket
    decides those itself (``knockout_round``), from its slots and the withdrawn pairs.
    """
    rows = Match.objects.filter(
        round__stage=stage, bracket_slot__isnull=False, ew_pair__isnull=False, status=MatchStatus.CONFIRMED
    ).exclude(winner="")
    return {
        (number, slot): ns if winner == "NS" else ew
        for number, slot, ns, ew, winner in rows.values_list(
            "round__number", "bracket_slot", "ns_pair_id", "ew_pair_id", "winner"
        )
    }


def _bracket_next(stage: Stage, bracket: KnockoutBracket) -> Draw:
    withdrawn = stage.tournament.pairs.filter(pk__in=bracket.seeds, status=PairStatus.WITHDRAWN)
    return knockout_round(
        bracket=bracket,
        winners=stage_bracket_winners(stage=stage),
        withdrawn=set(withdrawn.values_list("id", flat=True)),
    )


def _bracket_draw(stage: Stage, number: int, seed: int) -> tuple[Draw, dict[str, Any]]:
    bracket = stage_bracket(stage=stage)
    updates: dict[str, Any] = {}
    if bracket is None:
        if number != 1:
            raise DrawError("invalid_bracket", "This stage has rounds but no bracket.", "该阶段已有轮次但没有签表。")
        bracket = knockout_bracket(
            entrants=stage_entrants(stage=stage),
            seed=seed,
            seeding=stage.options.get("seeding", "seeds"),
            third_place=bool(stage.options.get("third_place", False)),
            department_rounds=int(stage.options.get("department_rounds", 0)),
        )
        updates["bracket_record"] = bracket.as_record()
    draw = _bracket_next(stage, bracket)
    if draw.round_number < number:
        raise DrawError(
            "round_not_finished",
            "Every match of the current round must be signed off first.",
            "本轮还有比赛未确认结果。",
        )
    if draw.round_number != number:
        raise DrawError("invalid_bracket", "The rounds do not fit the bracket.", "轮次与签表不符。")
    return draw, updates


def _pairs_of_round(round_: Round) -> set[tuple[int | None, frozenset[int]]]:
    return {
        (slot, frozenset(p for p in (ns, ew) if p is not None))
        for slot, ns, ew in round_.matches.values_list("bracket_slot", "ns_pair_id", "ew_pair_id")
    }


def _pairs_of_draw(draw: Draw) -> set[tuple[int | None, frozenset[int]]]:
    return {(p.bracket_match, frozenset(int(e) for e in p.entrants)) for p in draw.pairings}


def bracket_after_result(*, match: Match, user: Any = None) -> Round | None:
    """Advance a fixed bracket's winners once a match is confirmed — the sign-off hook.

    Call it after a match's result is confirmed (``tournament.draw.apps`` connects it to
    ``tournament.matches.signals.match_confirmed``, sent after the sign-off commits). When the
    match belongs to a fixed-bracket knockout and every match of its round is now decided
    (confirmed, or a bye), the next round is drawn from the bracket (``knockout_round``) as a
    **draft** that the organiser checks, assigns referees to and publishes; the final round
    holds the final (table 1) and, if the stage plays one, the third-place match (table 2).
    Returns the round drawn, else ``None``.

    Idempotent and safe to call for any match: for a match of another format, a re-drawn
    knockout (the organiser draws each round), a match not confirmed, a round not yet complete
    or a bracket already decided it does nothing. If the next round exists already as a draft
    whose pairs no longer fit the results (a result was unlocked and changed), that draft is
    replaced; a published next round is never touched (``round_publish`` refuses stale drafts).
    Problems are returned as ``None`` (and logged), never raised: a sign-off must not fail
    because of the bracket — the organiser can still draw the round by hand.
    """
    match = Match.objects.select_related("round__stage__tournament").get(pk=match.pk)
    stage = match.round.stage
    if not _is_fixed_bracket(stage) or match.status != MatchStatus.CONFIRMED:
        return None
    with transaction.atomic():
        # One sign-off at a time per stage: two tables confirmed together must not both draw.
        stage = Stage.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=stage.pk)
        bracket = stage_bracket(stage=stage)
        if bracket is None:
            return None
        try:
            draw = _bracket_next(stage, bracket)
        except DrawError as error:
            if error.code != "bracket_complete":
                logger.warning("bracket of stage %s not advanced: %s", stage.pk, error)
            return None
        existing = stage.rounds.filter(number=draw.round_number).first()
        if existing is not None:
            if existing.status != RoundStatus.DRAFT or _pairs_of_round(existing) == _pairs_of_draw(draw):
                return None
            history_author(existing, user, "results changed: bracket round redrawn")
            existing.delete()
        elif stage.rounds.filter(status=RoundStatus.DRAFT).exists():
            return None
        return _round_create(stage=stage, draw=draw, user=user)


# -- rounds ------------------------------------------------------------------------------------------


@event_write
def round_draw(*, stage: Stage, seed: int | None = None, allow_rematches: bool = False, user: Any = None) -> Round:
    """Draw the stage's next round as a draft: tables numbered top-ranked first, byes finished.

    Raises ValidationError with the draw's message (in the user's language) when the round
    cannot be drawn as asked (e.g. ``no_pairing_without_rematch``; the organiser may then
    allow rematches explicitly). ``seed`` defaults to a fresh random one; it is stored with the
    round (a fixed bracket keeps the seed it was drawn with).
    """
    with transaction.atomic():
        # Locking the stage serialises two organisers drawing at once (else: two round Ns).
        locked = Stage.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=stage.pk)
        if locked.rounds.filter(status=RoundStatus.DRAFT).exists():
            raise ValidationError(_("A draft round exists already: publish or delete it first."), code="draft_exists")
        playing = Match.objects.filter(
            round__stage=locked, status__in=(MatchStatus.PENDING, MatchStatus.RUNNING)
        )
        if playing.exists():
            raise ValidationError(_("The current round is still being played."), code="round_playing")
        number = (locked.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        seed = secrets.randbelow(2**31) if seed is None else seed
        if locked.format == StageFormat.POINTS:  # three-seat tables (Dou Dizhu, RULES.md §10)
            return three_seat_round_create(
                stage=locked, pair_ids=_drawn_pairs(locked), number=number, seed=seed, user=user
            )
        try:
            draw, updates = _generate(locked, number, seed, allow_rematches)
        except DrawError as error:
            raise ValidationError(draw_message(error), code=error.code) from error
        if any(locked.options.get(key) != value for key, value in updates.items()):
            locked.options = {**locked.options, **updates}
            history_author(locked, user)
            locked.save(update_fields=["options"])
        stage.options = locked.options
        return _round_create(stage=locked, draw=draw, user=user)


def _round_create(*, stage: Stage, draw: Draw, user: Any) -> Round:
    draw_options: dict[str, Any] = {**draw.options, "warnings": [w.as_record() for w in draw.warnings]}
    third = [p for p in draw.pairings if p.third_place]
    if third:
        draw_options["third_place_pairs"] = [third[0].ns, third[0].ew]
    if draw.notes.get("walkovers"):
        draw_options["walkovers"] = draw.notes["walkovers"]  # counted as forfeit wins by the standings
    round_ = Round(
        stage=stage,
        number=draw.round_number,
        status=RoundStatus.DRAFT,
        time_cap_minutes=_time_cap(stage),
        draw_algorithm=draw.algorithm,
        draw_options=draw_options,
        draw_seed=draw.seed,
    )
    history_author(round_, user)
    round_.save()
    round_write(round_=round_, draw=draw)
    return round_


def _time_cap(stage: Stage) -> int | None:
    minutes: int | None = rules_for_stage(stage).time_cap_minutes
    return minutes


def round_write(*, round_: Round, draw: Draw) -> None:
    """Bulk-write a draw's tables, matches and round entries (one seat per pair per round)."""
    tournament_id = round_.stage.tournament_id
    numbers = [p.table for p in draw.pairings if p.table is not None]
    existing = dict(Table.objects.filter(tournament_id=tournament_id, number__in=numbers).values_list("number", "id"))
    missing = [Table(tournament_id=tournament_id, number=n) for n in numbers if n not in existing]
    if missing:
        Table.objects.bulk_create(missing)
        existing = dict(
            Table.objects.filter(tournament_id=tournament_id, number__in=numbers).values_list("number", "id")
        )
    now = timezone.now()
    matches = [
        Match(
            round=round_,
            table_id=existing[p.table] if p.table is not None else None,
            ns_pair_id=p.ns,
            ew_pair_id=p.ew,
            bracket_slot=p.bracket_match,
            # A bye is decided by the draw itself (RULES.md §4–5 score it as the stage says).
            status=MatchStatus.FINISHED if p.ew is None else MatchStatus.PENDING,
            finished_at=now if p.ew is None else None,
        )
        for p in draw.pairings
    ]
    Match.objects.bulk_create(matches)
    entries = []
    for match in matches:
        entries.append(RoundEntry(round=round_, pair_id=match.ns_pair_id, match=match, side="NS"))
        if match.ew_pair_id is not None:
            entries.append(RoundEntry(round=round_, pair_id=match.ew_pair_id, match=match, side="EW"))
    RoundEntry.objects.bulk_create(entries)


def _locked_round(round_: Round) -> Round:
    # of=("self",): lock the round row only, not its stage and tournament (PostgreSQL).
    return Round.objects.select_for_update(of=("self",)).select_related("stage__tournament").get(pk=round_.pk)


def _refuse_unless_draft(round_: Round) -> None:
    if round_.status != RoundStatus.DRAFT:
        raise ValidationError(_("A published round cannot be changed; un-publish it first."), code="not_draft")


@event_write
def round_publish(*, round_: Round, user: Any = None) -> Round:
    """Publish a draft round: it is frozen, players see it and referees can enter results.

    A fixed bracket's round is refused when the results have changed since it was drawn.
    """
    with transaction.atomic():
        locked = _locked_round(round_)
        if locked.status != RoundStatus.DRAFT:
            raise ValidationError(_("Only a draft round can be published."), code="not_draft")
        stage = locked.stage
        bracket = stage_bracket(stage=stage)
        if bracket is not None:
            try:
                current = _pairs_of_draw(_bracket_next(stage, bracket))
            except DrawError:
                current = set()
            if current != _pairs_of_round(locked):
                raise ValidationError(
                    _(
                        "The bracket has changed since this round was drawn (a result or a withdrawal): "
                        "delete it and draw it again."
                    ),
                    code="stale_bracket_round",
                )
        locked.status = RoundStatus.PUBLISHED
        locked.published_at = timezone.now()
        history_author(locked, user)
        locked.save(update_fields=["status", "published_at"])
        tournament_status_after_publish(tournament_id=stage.tournament_id)
    round_.status, round_.published_at = locked.status, locked.published_at
    return round_


def round_has_results(*, round_: Round) -> bool:
    """Whether any result has been entered in the round (a deal, an adjustment, a played match over)."""
    return (
        Deal.objects.filter(match__round=round_).exists()
        or Adjustment.objects.filter(match__round=round_).exists()
        or round_.matches.filter(
            ew_pair__isnull=False, status__in=(MatchStatus.FINISHED, MatchStatus.CONFIRMED)
        ).exists()
    )


@event_write
def round_unpublish(*, round_: Round, user: Any = None, reason: str = "") -> Round:
    """Take a published round back to draft — only while no result has been entered.

    A clock already started is reset (its scheduled time call then finds nothing to do).
    """
    with transaction.atomic():
        locked = _locked_round(round_)
        if locked.status == RoundStatus.DRAFT:
            raise ValidationError(_("The round is not published."), code="not_published")
        if locked.stage.rounds.filter(number__gt=locked.number).exists():
            raise ValidationError(_("A later round has been drawn already."), code="later_round")
        if round_has_results(round_=locked):
            raise ValidationError(
                _("A result has been entered: the round can no longer be un-published."), code="has_results"
            )
        locked.status = RoundStatus.DRAFT
        locked.published_at = None
        locked.started_at = locked.ends_at = locked.time_called_at = None
        history_author(locked, user, _clean_reason(reason, required=False) or "un-published")
        locked.save(update_fields=["status", "published_at", "started_at", "ends_at", "time_called_at"])
        locked.matches.filter(ew_pair__isnull=False).exclude(started_at=None, clock_ends_at=None).update(
            status=MatchStatus.PENDING,
            started_at=None,
            clock_ends_at=None,
            time_called_at=None,
            time_called_during_deal=None,
        )
    round_.status, round_.published_at = locked.status, locked.published_at
    return round_


@event_write
def round_delete(*, round_: Round, user: Any = None) -> None:
    """Delete a draft round. Deleting a stage's first round also forgets its bracket or schedule,
    so the next draw starts afresh (with a new seed)."""
    with transaction.atomic():
        locked = _locked_round(round_)
        if locked.status != RoundStatus.DRAFT:
            raise ValidationError(_("Only a draft round can be deleted."), code="not_draft")
        if locked.number == 1:
            stage = Stage.objects.select_for_update().get(pk=locked.stage_id)
            kept = {k: v for k, v in stage.options.items() if k not in ("bracket_record", "schedule_seed")}
            if kept != stage.options:
                stage.options = kept
                history_author(stage, user, "first round deleted")
                stage.save(update_fields=["options"])
        history_author(locked, user, "draft deleted")
        locked.delete()


# -- manual edits before publishing ------------------------------------------------------------------


def _log_edit(round_: Round, record: dict[str, Any], user: Any, reason: str) -> None:
    round_.draw_options = {**round_.draw_options, "edits": [*round_.draw_options.get("edits", []), record]}
    history_author(round_, user, reason)
    round_.save(update_fields=["draw_options"])


_OTHER_SIDE = {"NS": "EW", "EW": "NS"}


def _flip(match_id: int) -> None:
    # One UPDATE reads the old values on both sides, so no unique constraint sees a half-swap.
    Match.objects.filter(pk=match_id).update(ns_pair=F("ew_pair"), ew_pair=F("ns_pair"))


def _set_side(match_id: int, side: str, pair_id: int) -> None:
    Match.objects.filter(pk=match_id).update(**{"ns_pair_id" if side == "NS" else "ew_pair_id": pair_id})


@event_write
def round_pairs_swap(*, round_: Round, first_pair_id: int, second_pair_id: int, user: Any = None) -> list[DrawWarning]:
    """Swap two pairs' places in a draft round (each takes the other's table and seat, or bye).

    Refused in a round robin (the schedule decides who meets whom) and after a fixed bracket's
    first round (the bracket decides); in a fixed bracket's first round the two pairs also swap
    bracket positions and seeds, so later rounds follow the edit. Audited: the matches' history
    rows name the author and the edit, and ``draw_options["edits"]`` keeps before → after.
    Returns the warnings (rematch, same department, bye, seat imbalance …) of the two tables.
    """
    from tournament.draw.selectors import round_warnings

    if first_pair_id == second_pair_id:
        raise ValidationError(_("Choose two different pairs."), code="same_pair")
    with transaction.atomic():
        locked = _locked_round(round_)
        _refuse_unless_draft(locked)
        stage = locked.stage
        if stage.format == StageFormat.ROUND_ROBIN:
            raise ValidationError(
                _("In a round robin the schedule decides who meets whom: move tables instead."), code="round_robin"
            )
        if _is_fixed_bracket(stage) and locked.number > 1:
            raise ValidationError(
                _("After the first round the bracket decides who meets whom."), code="bracket_decides"
            )
        entries = {
            e.pair_id: e for e in RoundEntry.objects.filter(round=locked, pair_id__in=(first_pair_id, second_pair_id))
        }
        if len(entries) != 2:
            raise ValidationError(_("Both pairs must be in this round."), code="pair_not_in_round")
        a, b = entries[first_pair_id], entries[second_pair_id]
        m1, m2 = (Match.objects.select_for_update().get(pk=pk) for pk in (a.match_id, b.match_id))
        before = {m.pk: [m.ns_pair_id, m.ew_pair_id] for m in (m1, m2)}
        if m1.pk == m2.pk:
            _flip(m1.pk)
        elif m1.is_bye and m2.is_bye:
            # Two byes (a bracket's first round): the pairs swap bracket positions.
            Match.objects.filter(pk=m1.pk).update(bracket_slot=m2.bracket_slot)
            Match.objects.filter(pk=m2.pk).update(bracket_slot=m1.bracket_slot)
        else:
            side_a, side_b = a.side, b.side
            flipped = None
            if side_a == side_b:
                # Same side at both tables: turn one table round first (not a bye), so no
                # moment has a pair twice on one side of the round.
                flipped = m2.pk if not m2.is_bye else m1.pk
                _flip(flipped)
                if flipped == m2.pk:
                    side_b = _OTHER_SIDE[side_b]
                else:
                    side_a = _OTHER_SIDE[side_a]
            _set_side(m1.pk, side_a, b.pair_id)
            _set_side(m2.pk, side_b, a.pair_id)
            if flipped is not None:
                _flip(flipped)
        reason = f"swap pairs {first_pair_id} and {second_pair_id}"
        for match in Match.objects.filter(pk__in=(m1.pk, m2.pk)):
            match.version += 1
            history_author(match, user, reason)
            match.save(update_fields=["version"])  # the history row records the swapped pairs
        RoundEntry.objects.filter(round=locked, pair_id__in=(first_pair_id, second_pair_id)).delete()
        RoundEntry.objects.bulk_create(
            RoundEntry(round=locked, pair_id=pair_id, match=match, side=side)
            for match in Match.objects.filter(pk__in=(m1.pk, m2.pk))
            for pair_id, side in ((match.ns_pair_id, "NS"), (match.ew_pair_id, "EW"))
            if pair_id in (first_pair_id, second_pair_id)
        )
        if _is_fixed_bracket(stage) and m1.pk != m2.pk:  # a table turned round keeps its seeds
            _bracket_swap(stage, first_pair_id, second_pair_id, user, reason)
        after = {m.pk: [m.ns_pair_id, m.ew_pair_id] for m in Match.objects.filter(pk__in=(m1.pk, m2.pk))}
        _log_edit(
            locked,
            _edit_record(
                user, "swap", pairs=[first_pair_id, second_pair_id], before=_by_key(before), after=_by_key(after)
            ),
            user,
            reason,
        )
    warnings = round_warnings(round_=locked)
    return [w for pk in (m1.pk, m2.pk) for w in warnings.get(pk, [])]


def _by_key(matches: dict[int, list[int | None]]) -> dict[str, list[int | None]]:
    return {str(pk): pairs for pk, pairs in matches.items()}


def _bracket_swap(stage: Stage, first: int, second: int, user: Any, reason: str) -> None:
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    record = dict(stage.options["bracket_record"])

    def swapped(values: list[Any]) -> list[Any]:
        return [second if v == first else first if v == second else v for v in values]

    record["slots"] = swapped(record["slots"])
    record["seeds"] = swapped(record["seeds"])
    KnockoutBracket.from_record(record)  # still a consistent bracket (raises if not: a bug here)
    stage.options = {**stage.options, "bracket_record": record}
    history_author(stage, user, reason)
    stage.save(update_fields=["options"])


@event_write
def match_table_move(*, match: Match, table_number: int, user: Any = None) -> list[DrawWarning]:
    """Move a draft round's match to another table; if that table is taken, the two matches swap.

    Table numbers otherwise follow the ranking (table 1 = the top match); a table with no row
    yet is created. Audited like :func:`round_pairs_swap`. Returns warnings: the swap of tables,
    referees already planned for those tables, and the match's own warnings.
    """
    from tournament.draw.selectors import round_warnings

    if table_number < 1:
        raise ValidationError({"table": _("Tables are numbered from 1.")}, code="invalid_table")
    warnings: list[DrawWarning] = []
    with transaction.atomic():
        locked = _locked_round(match.round)
        _refuse_unless_draft(locked)
        match = Match.objects.select_for_update(of=("self",)).select_related("table").get(pk=match.pk, round=locked)
        if match.is_bye:
            raise ValidationError(_("A bye has no table."), code="bye")
        table, _created = Table.objects.get_or_create(tournament_id=locked.stage.tournament_id, number=table_number)
        if match.table_id == table.pk:
            return []
        old_table = match.table
        reason = f"move match {match.pk} to table {table_number}"
        other = locked.matches.filter(table=table).first()
        if other is not None:
            Match.objects.filter(pk=match.pk).update(table=None)
            other.table = old_table
            history_author(other, user, reason)
            other.save(update_fields=["table"])
            warnings.append(
                DrawWarning.of("tables_swapped", other.ns_pair_id, table=old_table.number if old_table else None)
            )
        match.table = table
        history_author(match, user, reason)
        match.save(update_fields=["table"])
        touched = [t for t in (table.pk, old_table.pk if old_table else None) if t is not None]
        if RefereeAssignment.objects.filter(round=locked, table_id__in=touched).exists():
            warnings.append(DrawWarning.of("referee_assigned", table=table_number))
        _log_edit(
            locked,
            _edit_record(
                user,
                "move",
                match=match.pk,
                before=old_table.number if old_table else None,
                after=table_number,
                swapped_with=other.pk if other else None,
            ),
            user,
            reason,
        )
    return warnings + round_warnings(round_=locked).get(match.pk, [])


# -- tables and referees -----------------------------------------------------------------------------


@event_write
def table_areas_set(*, tournament: Tournament, first: int, last: int, area: str) -> int:
    """Put tables ``first``…``last`` in ``area`` (赛区/楼层; "" for none), creating missing tables."""
    if first < 1 or last < first:
        raise ValidationError({"last": _("Give a range of table numbers, lowest first.")}, code="invalid_range")
    if last - first >= 10_000:
        raise ValidationError({"last": _("At most 10,000 tables at once.")}, code="invalid_range")
    with transaction.atomic():
        have = set(
            Table.objects.filter(tournament=tournament, number__range=(first, last)).values_list("number", flat=True)
        )
        Table.objects.bulk_create(
            Table(tournament=tournament, number=n, area=area) for n in range(first, last + 1) if n not in have
        )
        Table.objects.filter(tournament=tournament, number__range=(first, last)).update(area=area)
        public_version_bump(tournament_id=tournament.pk)  # the draw and find my table show areas
    return last - first + 1


@event_write
def round_referees_assign(
    *,
    round_: Round,
    referees: Sequence[pairing.Referee],
    tables_per_referee: int,
    by_area: bool = False,
    user: Any = None,
) -> tuple[pairing.RefereeAssignment, ...]:
    """Assign referees (ids are user ids) to the round's tables with ``referees_assign``.

    Each referee takes at most ``tables_per_referee`` tables, in runs of consecutive numbers; with
    ``by_area`` first in their own area (``Table.area``). Replaces the round's previous plan
    (changed rows only, each with a history row); allowed until the round is finished. The
    settings are kept in ``draw_options["referees"]`` to prefill the next round. Returns the
    plan with its warnings (a table without a referee, a referee from another area).
    """
    wanted = {r.id for r in referees}
    allowed = set(
        referee_accounts_list(tournament=round_.stage.tournament).filter(pk__in=wanted).values_list("pk", flat=True)
    )
    if wanted - allowed:
        raise ValidationError(_("Not a referee of this event."), code="not_event_referee")
    tables = list(
        round_.matches.filter(table__isnull=False).values_list("table_id", "table__number", "table__area")
    )
    try:
        plan = pairing.referees_assign(
            tables=[pairing.TableArea(number, area or None) for _id, number, area in tables],
            referees=referees,
            tables_per_referee=tables_per_referee,
            by_area=by_area,
        )
    except DrawError as error:
        raise ValidationError(draw_message(error), code=error.code) from error
    table_ids = {number: table_id for table_id, number, _area in tables}
    reason = "referee plan"
    with transaction.atomic():
        locked = _locked_round(round_)
        if locked.status == RoundStatus.FINISHED:
            raise ValidationError(_("The round is finished."), code="round_finished")
        existing = {a.table_id: a for a in RefereeAssignment.objects.filter(round=locked)}
        create: list[RefereeAssignment] = []
        update: list[RefereeAssignment] = []
        for item in plan:
            if item.referee is None:
                continue  # a table nobody can take: an old assignment of it is removed below
            current = existing.pop(table_ids[item.table], None)
            if current is None:
                create.append(RefereeAssignment(round=locked, table_id=table_ids[item.table], referee_id=item.referee))
            elif current.referee_id != item.referee:
                current.referee_id = item.referee
                update.append(current)
        for stale in existing.values():  # tables no longer planned (or no longer in the round)
            history_author(stale, user, reason)
            stale.delete()
        history: dict[str, Any] = {
            "default_user": user if getattr(user, "is_authenticated", False) else None,
            "default_change_reason": reason,
            "custom_historical_attrs": bulk_history_attrs(),
        }
        if create:
            bulk_create_with_history(create, RefereeAssignment, **history)
        if update:
            bulk_update_with_history(update, RefereeAssignment, ["referee"], **history)
        locked.draw_options = {
            **locked.draw_options,
            "referees": {
                "tables_per_referee": tables_per_referee,
                "by_area": by_area,
                "referees": [{"id": r.id, "area": r.area or ""} for r in referees],
            },
        }
        history_author(locked, user, reason)
        locked.save(update_fields=["draw_options"])
    return plan


@event_write
def round_tables_assign(
    *,
    round_: Round,
    referee: Any,
    first: int | None = None,
    last: int | None = None,
    area: str | None = None,
    user: Any = None,
) -> int:
    """Give ``referee`` (an account; ``None``: nobody) the round's tables by hand: the tables
    ``first``…``last`` (``last`` omitted: table ``first`` alone), or every table of ``area``.

    Whoever had those tables in this round loses them (one referee per table and round). Only
    the event's own referees (``referee_accounts_list``) may be given its tables, and only
    tables of this round; allowed until the round is finished. Returns the number of tables.
    """
    tournament = round_.stage.tournament
    if referee is not None and not referee_accounts_list(tournament=tournament).filter(pk=referee.pk).exists():
        raise ValidationError({"referee": ValidationError(_("Not a referee of this event."), code="not_event_referee")})
    by_range, by_area = first is not None, area is not None and area.strip() != ""
    if by_range == by_area:
        raise ValidationError(_("Give either a range of tables or an area."), code="tables_required")
    matches = round_.matches.filter(table__isnull=False, table__tournament=tournament)
    if by_range:
        last = first if last is None else last
        if first is None or first < 1 or last < first:
            raise ValidationError(
                {"last": ValidationError(_("Give a range of table numbers, lowest first."), code="invalid_range")}
            )
        matches = matches.filter(table__number__range=(first, last))
        missing: dict[str, Any] = {
            "first": ValidationError(_("No table of this round is in that range."), code="no_tables")
        }
    else:
        matches = matches.filter(table__area=(area or "").strip())
        missing = {"area": ValidationError(_("No table of this round is in that area."), code="no_tables")}
    table_ids = list(matches.values_list("table_id", flat=True))
    if not table_ids:
        raise ValidationError(missing)
    reason = "referee tables by hand"
    with transaction.atomic():
        locked = _locked_round(round_)
        if locked.status == RoundStatus.FINISHED:
            raise ValidationError(_("The round is finished."), code="round_finished")
        existing = {a.table_id: a for a in RefereeAssignment.objects.filter(round=locked, table_id__in=table_ids)}
        create: list[RefereeAssignment] = []
        update: list[RefereeAssignment] = []
        for table_id in table_ids:
            current = existing.get(table_id)
            if referee is None:
                if current is not None:
                    history_author(current, user, reason)
                    current.delete()
            elif current is None:
                create.append(RefereeAssignment(round=locked, table_id=table_id, referee_id=referee.pk))
            elif current.referee_id != referee.pk:
                current.referee_id = referee.pk
                update.append(current)
        history: dict[str, Any] = {
            "default_user": user if getattr(user, "is_authenticated", False) else None,
            "default_change_reason": reason,
            "custom_historical_attrs": bulk_history_attrs(),
        }
        if create:
            bulk_create_with_history(create, RefereeAssignment, **history)
        if update:
            bulk_update_with_history(update, RefereeAssignment, ["referee"], **history)
    return len(table_ids)
