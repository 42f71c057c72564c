"""Draw writes: a round's tables and matches (draw, publish, unpublish, delete) and fixed brackets.

Stages and who is drawn live in :mod:`tournament.draw.stages`, edits before publishing, areas and
referees in :mod:`tournament.draw.edits`, the pure generators in ``tournament.draw.pairing*``.

The generators (``tournament.draw.pairing``) are pure; this module maps the database to their
plain ``Entrant`` values, calls one, and bulk-writes the round it returns, recording the
algorithm, options and seed so the same inputs and seed give the same tables (docs/design.md:
reproducible draws). Which pairs are drawn: the pairs a previous stage advanced into this one
(``Stage.settings.entrants``, see :func:`stage_advance`); otherwise the checked-in pairs once
check-in has started, else every registered pair; withdrawn pairs never.

Stage options (``Stage.options``, read as ``Stage.settings``: :mod:`tournament.matches.stage_options`):

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
where, before → after: docs/design.md, "Every change is audited"); manual edits are also listed in
``Round.draw_settings.edits`` because the bulk-written matches have no "before" history row of their own.
"""

from __future__ import annotations

import logging
import secrets
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.audit import history_author, reason_clean
from tournament.draw.advancement_flags import flag_decision_record
from tournament.draw.pairing import (
    Draw,
    DrawError,
    DrawWarning,
    Entrant,
    KnockoutBracket,
    MatchRef,
    knockout_bracket,
    knockout_redraw,
    knockout_round,
    round_robin_schedule,
    swiss_pair,
)
from tournament.draw.pairing_groups import groups_round, snake_groups, walkovers
from tournament.draw.referee_assignments import referees_carry_over
from tournament.draw.stages import _drawn_pairs, stage_draw_ready_check, stage_entrants
from tournament.draw.tables import table_ids_ensure
from tournament.draw.team_matches import (
    default_line_ups,
    stage_teams,
    team_draw_plan,
    team_entrants,
    team_matches_write,
)
from tournament.draw.three_seats import three_seat_round_create
from tournament.errors import UserError
from tournament.games import stage_entrants_of
from tournament.locale import in_ui_language
from tournament.matches.event import round_event, stage_event
from tournament.matches.models import (
    Adjustment,
    AdvancementFlag,
    AdvancementFlagStatus,
    Deal,
    Match,
    MatchStatus,
    Round,
    RoundEntry,
    RoundStatus,
    Stage,
    StageFormat,
)
from tournament.matches.stage_options import DrawOptions
from tournament.people import Actor
from tournament.registration.lifecycle import event_write, tournament_status_after_publish
from tournament.registration.models import PairMember, PairStatus
from tournament.registration.teams import teams_withdrawn
from tournament.rules import rules_for_stage
from tournament.standings.selectors import stage_bracket_state_get
from tournament.standings.team_matches import team_bracket_winners

logger = logging.getLogger(__name__)


def draw_message(error: DrawError) -> str:
    return in_ui_language(en=error.message_en, zh=error.message_zh)


def warning_message(warning: DrawWarning) -> str:
    return in_ui_language(en=warning.message_en, zh=warning.message_zh)


# -- drawing a round -----------------------------------------------------------------------------


def _generate(stage: Stage, number: int, seed: int, allow_rematches: bool) -> tuple[Draw, dict[str, Any]]:
    """The round's draw and the stage options to store with it."""
    settings = stage.settings
    department_rounds = settings.department_rounds
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
    if settings.fixed_bracket:
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
    if settings.third_place and state.third_place_due is not None:
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
    are dealt in snake order (:func:`snake_groups`) when round 1 is drawn and kept in
    ``settings.group_of``; each group gets its own circle schedule with that seed. The round
    holds the group's tables group by group (group 1's first), then the byes; a group with fewer
    rounds than the largest simply has none.
    """
    settings = stage.settings
    schedule_seed = settings.schedule_seed if settings.schedule_seed is not None else seed
    first_round = stage.rounds.filter(number=1).first()
    pair_ids = sorted(first_round.entries.values_list("pair_id", flat=True)) if first_round else None
    entrants = stage_entrants(stage=stage, pair_ids=pair_ids)
    updates: dict[str, Any] = {"schedule_seed": schedule_seed}
    groups = settings.groups
    if groups == 1:
        schedules = [round_robin_schedule(entrants=entrants, seed=schedule_seed, shuffle=True)]
    else:
        stored = settings.group_of
        group_of = stored if first_round and stored else snake_groups(entrants, groups, schedule_seed)
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
    draw = schedules[0][number - 1] if groups == 1 else groups_round(schedules, number, groups)
    # A pair that withdrew keeps its number in the schedule (the others still meet once);
    # its opponents advance without playing.
    gone = set(
        stage.tournament.pairs.filter(pk__in=pair_ids or (), status=PairStatus.WITHDRAWN).values_list("id", flat=True)
    )
    return walkovers(draw, gone), updates


# -- fixed brackets --------------------------------------------------------------------------------


def _is_fixed_bracket(stage: Stage) -> bool:
    return stage.format == StageFormat.KNOCKOUT and stage.settings.fixed_bracket


def stage_bracket(*, stage: Stage) -> KnockoutBracket | None:
    """A fixed-bracket stage's bracket once drawn (with departments for its warnings), else None."""
    record = stage.settings.bracket_record
    if not _is_fixed_bracket(stage) or not record:
        return None
    departments: dict[int | str, set[int]] = defaultdict(set)
    if int(record.get("options", {}).get("department_rounds", 0)) >= 1:
        for pair_id, department_id in PairMember.objects.filter(pair_id__in=record["seeds"]).values_list(
            "pair_id", "player__department_id"
        ):
            if department_id is not None:
                departments[pair_id].add(department_id)
    return KnockoutBracket.from_record(record, departments=departments)


def stage_bracket_winners(*, stage: Stage) -> dict[MatchRef, int | None]:
    """``(round, bracket position) → winning pair`` of every confirmed (signed-off) bracket match;
    ``None`` for a match lost by both (a double forfeit: both out, docs/rules.md §7).

    Winners advance on confirmed results only. Byes and walkovers are left out: the bracket
    decides those itself (``knockout_round``), from its slots and the withdrawn pairs.
    """
    rows = Match.objects.filter(
        round__stage=stage, bracket_slot__isnull=False, ew_pair__isnull=False, status=MatchStatus.CONFIRMED
    )
    return {
        (number, slot): (ns if winner == "NS" else ew) if winner in ("NS", "EW") else None
        for number, slot, ns, ew, winner in rows.values_list(
            "round__number", "bracket_slot", "ns_pair_id", "ew_pair_id", "winner"
        )
        if slot is not None  # always: filtered on a slot
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
        settings = stage.settings
        bracket = knockout_bracket(
            entrants=stage_entrants(stage=stage),
            seed=seed,
            seeding=settings.seeding,
            third_place=settings.third_place,
            department_rounds=settings.department_rounds,
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


def _bracket_round_stale(stage: Stage, round_: Round) -> bool:
    """Whether a fixed bracket's drafted round no longer fits the results (a result or a withdrawal
    changed since it was drawn): its pairs (a knockout of teams: its teams) against the bracket's next."""
    teams = stage.settings.team_match is not None
    if not _is_fixed_bracket(stage) or (teams and not stage.settings.bracket_record):
        return False
    bracket = _team_bracket(stage, 0)[0] if teams else stage_bracket(stage=stage)
    if bracket is None:
        return False
    try:
        current = _pairs_of_draw(_team_bracket_next(stage, bracket) if teams else _bracket_next(stage, bracket))
    except DrawError:
        current = set()
    return current != (_team_pairs_of_round(round_) if teams else _pairs_of_round(round_))


def _pairs_of_round(round_: Round) -> set[tuple[int | None, frozenset[int]]]:
    return {
        (slot, frozenset(p for p in (ns, ew) if p is not None))
        for slot, ns, ew in round_.matches.values_list("bracket_slot", "ns_pair_id", "ew_pair_id")
    }


def _pairs_of_draw(draw: Draw) -> set[tuple[int | None, frozenset[int]]]:
    return {(p.bracket_match, frozenset(int(e) for e in p.entrants)) for p in draw.pairings}


def bracket_after_result(*, match: Match, user: Actor | None = None) -> Round | None:
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
        if stage.settings.team_match is not None:
            return _team_bracket_after_result(stage, user)
        bracket = stage_bracket(stage=stage)
        if bracket is None:
            return None
        return _bracket_go_on(
            stage,
            user,
            lambda: _bracket_next(stage, bracket),
            _pairs_of_round,
            lambda draw: _round_create(stage=stage, draw=draw, user=user),
        )


def _bracket_go_on(
    stage: Stage,
    user: Actor | None,
    next_draw: Callable[[], Draw],
    drawn: Callable[[Round], set[tuple[int | None, frozenset[int]]]],
    create: Callable[[Draw], Round],
) -> Round | None:
    """A fixed bracket's next round as a draft (of pairs or of teams: ``next_draw``, what a round holds
    ``drawn``, ``create``): None when the bracket is decided or cannot go on (logged), or when the next
    round stands already as drawn, is published, or another draft waits; a stale draft is replaced."""
    try:
        draw = next_draw()
    except DrawError as error:
        if error.code != "bracket_complete":
            logger.warning("bracket of stage %s not advanced: %s", stage.pk, error)
        return None
    existing = stage.rounds.filter(number=draw.round_number).first()
    if existing is not None:
        if existing.status != RoundStatus.DRAFT or drawn(existing) == _pairs_of_draw(draw):
            return None
        history_author(existing, user, "results changed: bracket round redrawn")
        existing.delete()
    elif stage.rounds.filter(status=RoundStatus.DRAFT).exists():
        return None
    return create(draw)


# -- rounds ------------------------------------------------------------------------------------------


@event_write("stage", of=stage_event)
def round_draw(
    *, stage: Stage, seed: int | None = None, allow_rematches: bool = False, user: Actor | None = None
) -> Round:
    """Draw the stage's next round as a draft: tables numbered top-ranked first, byes finished.

    Raises UserError with the draw's message (in the user's language) when the round
    cannot be drawn as asked (e.g. ``no_pairing_without_rematch``; the organiser may then
    allow rematches explicitly). ``seed`` defaults to a fresh random one; it is stored with the
    round (a fixed bracket keeps the seed it was drawn with).
    """
    with transaction.atomic():
        # Locking the stage serialises two organisers drawing at once (else: two round Ns).
        locked = Stage.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=stage.pk)
        if locked.rounds.filter(status=RoundStatus.DRAFT).exists():
            raise UserError("draft_exists", _("A draft round exists already: publish or delete it first."))
        playing = Match.objects.filter(round__stage=locked, status__in=(MatchStatus.PENDING, MatchStatus.RUNNING))
        if playing.exists():
            raise UserError("round_playing", _("The current round is still being played."))
        stage_draw_ready_check(stage=locked)
        number = (locked.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        seed = secrets.randbelow(2**31) if seed is None else seed
        drawn = ROUND_DRAWS[stage_entrants_of(locked).key]
        return drawn(stage=stage, locked=locked, number=number, seed=seed, allow_rematches=allow_rematches, user=user)


def _sides_round_draw(
    *, stage: Stage, locked: Stage, number: int, seed: int, allow_rematches: bool, user: Actor | None
) -> Round:
    """A round of two sides: the stage format's generator (Swiss, round robin, knockout)."""
    try:
        draw, updates = _generate(locked, number, seed, allow_rematches)
    except DrawError as error:
        raise UserError(error.code, draw_message(error)) from error
    settings = locked.settings
    if any(getattr(settings, key) != value for key, value in updates.items()):
        locked.options = settings.with_values(**updates).to_stored()
        history_author(locked, user)
        locked.save(update_fields=["options"])
    stage.options = locked.options
    return _round_create(stage=locked, draw=draw, user=user)


def _seats_round_draw(
    *, stage: Stage, locked: Stage, number: int, seed: int, allow_rematches: bool, user: Actor | None
) -> Round:
    """A points stage's round at three-seat tables (Dou Dizhu, docs/rules.md §10)."""
    seated = three_seat_round_create(stage=locked, pair_ids=_drawn_pairs(locked), number=number, seed=seed, user=user)
    referees_carry_over(round_=seated, user=user)
    return seated


def _teams_round_draw(
    *, stage: Stage, locked: Stage, number: int, seed: int, allow_rematches: bool, user: Actor | None
) -> Round:
    """A round of team matches (docs/rules.md §11), the teams as the draw's entrants: a Swiss (no team
    meets another twice; department protection as for pairs), a round robin (every team meets every
    other once, the circle schedule of pairs) or a knockout on a fixed bracket (the one bracket engine);
    each team match seated at two tables from the teams' default line-ups, which the organiser may change
    until the round is published."""
    try:
        teams_draw, updates = _team_generate(locked, number, seed, allow_rematches)
    except DrawError as error:
        raise UserError(error.code, draw_message(error)) from error
    settings = locked.settings
    if any(getattr(settings, key) != value for key, value in updates.items()):
        locked.options = settings.with_values(**updates).to_stored()
        history_author(locked, user)
        locked.save(update_fields=["options"])
    stage.options = locked.options
    return _team_round_create(stage=locked, teams_draw=teams_draw, user=user)


def _team_round_create(*, stage: Stage, teams_draw: Draw, user: Actor | None) -> Round:
    teams = {team.pk: team for team in stage_teams(stage=stage)}
    drawn = {int(p.ns) for p in teams_draw.pairings} | {int(p.ew) for p in teams_draw.matches if p.ew is not None}
    plan = team_draw_plan(teams_draw=teams_draw, line_ups=default_line_ups(teams=[teams[pk] for pk in sorted(drawn)]))
    round_ = _round_create(stage=stage, draw=plan.pairs, user=user)
    team_matches_write(round_=round_, plan=plan, user=user)
    return round_


def _team_generate(stage: Stage, number: int, seed: int, allow_rematches: bool) -> tuple[Draw, dict[str, Any]]:
    """The teams' draw of round ``number`` and the stage options to store with it."""
    settings = stage.settings
    if stage.format == StageFormat.SWISS:
        draw = swiss_pair(
            entrants=team_entrants(stage=stage),
            round_number=number,
            seed=seed,
            allow_rematches=allow_rematches,
            department_rounds=settings.department_rounds,
        )
        return draw, {}
    if stage.format == StageFormat.ROUND_ROBIN:
        # The schedule is the first round's seed's, between the teams drawn in round 1.
        schedule_seed = settings.schedule_seed if settings.schedule_seed is not None else seed
        first = stage.rounds.filter(number=1).first()
        teams = stage_teams(stage=stage)
        if first is not None:
            met = set(first.team_matches.values_list("team_x_id", flat=True))
            met |= set(first.team_matches.exclude(team_y=None).values_list("team_y_id", flat=True))
            teams = [team for team in teams if team.pk in met]
        entrants = sorted(team_entrants(stage=stage, teams=teams), key=lambda entrant: int(entrant.id))
        schedule = round_robin_schedule(entrants=entrants, seed=schedule_seed, shuffle=True)
        if number > len(schedule):
            raise DrawError(
                "stage_complete", "Every round of this round robin has been drawn.", "循环赛各轮已全部编排。"
            )
        return schedule[number - 1], {"schedule_seed": schedule_seed}
    return _team_bracket_draw(stage, number, seed)


def _team_bracket(stage: Stage, seed: int) -> tuple[KnockoutBracket, dict[str, Any]]:
    """A knockout of teams' fixed bracket: the stored one, else drawn now (to be stored)."""
    entrants = team_entrants(stage=stage)
    departments = {entrant.id: entrant.departments for entrant in entrants}
    record = stage.settings.bracket_record
    if record:
        return KnockoutBracket.from_record(record, departments=departments), {}
    settings = stage.settings
    bracket = knockout_bracket(
        entrants=entrants,
        seed=seed,
        seeding=settings.seeding,
        third_place=settings.third_place,
        department_rounds=settings.department_rounds,
    )
    return bracket, {"bracket_record": bracket.as_record()}


def _team_bracket_next(stage: Stage, bracket: KnockoutBracket) -> Draw:
    """The bracket's next round, from the team matches decided on signed-off tables (docs/rules.md §11);
    a team that withdrew (every member withdrawn) loses the team match it has not played by walkover, as
    a withdrawn pair does."""
    withdrawn = teams_withdrawn(tournament_id=stage.tournament_id)
    return knockout_round(bracket=bracket, winners=team_bracket_winners(stage=stage), withdrawn=withdrawn)


def _team_bracket_draw(stage: Stage, number: int, seed: int) -> tuple[Draw, dict[str, Any]]:
    if number != 1 and not stage.settings.bracket_record:
        raise DrawError("invalid_bracket", "This stage has rounds but no bracket.", "该阶段已有轮次但没有签表。")
    bracket, updates = _team_bracket(stage, seed)
    draw = _team_bracket_next(stage, bracket)
    if draw.round_number < number:
        raise DrawError(
            "round_not_finished",
            "Every team match of the current round must be signed off first.",
            "本轮还有团体对抗未确认结果。",
        )
    if draw.round_number != number:
        raise DrawError("invalid_bracket", "The rounds do not fit the bracket.", "轮次与签表不符。")
    return draw, updates


def _team_pairs_of_round(round_: Round) -> set[tuple[int | None, frozenset[int]]]:
    return {
        (slot, frozenset(t for t in (x, y) if t is not None))
        for slot, x, y in round_.team_matches.values_list("bracket_slot", "team_x_id", "team_y_id")
    }


def _team_bracket_after_result(stage: Stage, user: Actor | None) -> Round | None:
    """A knockout of teams goes on by itself as a fixed bracket of pairs does: once every team match of
    the round is decided on signed-off tables, the next round is drawn as a draft (a stale draft is
    replaced; a published round is never touched)."""
    bracket = _team_bracket(stage, 0)[0] if stage.settings.bracket_record else None
    if bracket is None:
        return None
    return _bracket_go_on(
        stage,
        user,
        lambda: _team_bracket_next(stage, bracket),
        _team_pairs_of_round,
        lambda draw: _team_round_create(stage=stage, teams_draw=draw, user=user),
    )


ROUND_DRAWS: dict[str, Callable[..., Round]] = {
    "pairs": _sides_round_draw,
    "players": _seats_round_draw,
    "teams": _teams_round_draw,
}
"""How a round is drawn and written for each kind of a stage's entrants (``tournament.games``: a game's
kind, or teams of pairs playing team matches), by its key."""


def _round_create(*, stage: Stage, draw: Draw, user: Actor | None) -> Round:
    recorded = DrawOptions.from_stored(dict(draw.options))
    values: dict[str, Any] = {"warnings": tuple(w.as_record() for w in draw.warnings)}
    third = [p for p in draw.pairings if p.third_place]
    if third:
        values["third_place_pairs"] = (third[0].ns, third[0].ew)
    if draw.notes.get("walkovers"):  # counted as forfeit wins by the standings
        values["walkovers"] = DrawOptions.walkovers_of(draw.notes["walkovers"])
    if draw.notes.get("team_walkovers"):  # a knockout of teams: forfeit wins for the team standings
        values["team_walkovers"] = DrawOptions.walkovers_of(draw.notes["team_walkovers"])
    round_ = Round(
        stage=stage,
        number=draw.round_number,
        status=RoundStatus.DRAFT,
        time_cap_minutes=_time_cap(stage),
        draw_algorithm=draw.algorithm,
        draw_options=recorded.storing(**values).to_stored(),
        draw_seed=draw.seed,
        **_proof(draw),
    )
    history_author(round_, user)
    round_.save()
    round_write(round_=round_, draw=draw)
    referees_carry_over(round_=round_, user=user)
    return round_


def _proof(draw: Draw) -> dict[str, Any]:
    """What a Swiss draw proved (docs/swiss-draw.md, "What is proven"): optimal over every pairing
    (``"exact"``), else its first ``notes["proven"]`` criteria; nothing for the other draws."""
    proven = draw.notes.get("proven")
    if not isinstance(proven, int) or isinstance(proven, bool):
        return {}
    return {"draw_proven": draw.notes.get("optimality") == "exact", "draw_criteria": proven}


def _time_cap(stage: Stage) -> int | None:
    minutes: int | None = rules_for_stage(stage).time_cap_minutes
    return minutes


def round_write(*, round_: Round, draw: Draw) -> None:
    """Bulk-write a draw's tables, matches and round entries (one seat per pair per round)."""
    numbers = [p.table for p in draw.pairings if p.table is not None]
    existing = table_ids_ensure(tournament_id=round_.stage.tournament_id, numbers=numbers)
    now = timezone.now()
    matches = [
        Match(
            round=round_,
            table_id=existing[p.table] if p.table is not None else None,
            ns_pair_id=p.ns,
            ew_pair_id=p.ew,
            bracket_slot=p.bracket_match,
            # A bye is decided by the draw itself (docs/rules.md §4–5 score it as the stage says).
            status=MatchStatus.FINISHED if p.ew is None else MatchStatus.PENDING,
            finished_at=now if p.ew is None else None,
        )
        for p in draw.pairings
    ]
    Match.objects.bulk_create(matches)
    entries = []
    for match in matches:
        for pair_id, side in ((match.ns_pair_id, "NS"), (match.ew_pair_id, "EW")):
            if pair_id is not None:  # E/W is empty for a bye
                entries.append(RoundEntry(round=round_, pair_id=pair_id, match=match, side=side))
    RoundEntry.objects.bulk_create(entries)


def _locked_round(round_: Round) -> Round:
    # of=("self",): lock the round row only, not its stage and tournament (PostgreSQL).
    return Round.objects.select_for_update(of=("self",)).select_related("stage__tournament").get(pk=round_.pk)


def _refuse_unless_draft(round_: Round) -> None:
    if round_.status != RoundStatus.DRAFT:
        raise UserError("not_draft", _("A published round cannot be changed; un-publish it first."))


@event_write("round_", of=round_event)
def round_publish(*, round_: Round, user: Actor | None = None) -> Round:
    """Publish a draft round: it is frozen, players see it and referees can enter results.

    A fixed bracket's round is refused when the results have changed since it was drawn.
    """
    with transaction.atomic():
        locked = _locked_round(round_)
        if locked.status != RoundStatus.DRAFT:
            raise UserError("not_draft", _("Only a draft round can be published."))
        stage = locked.stage
        if _bracket_round_stale(stage, locked):
            raise UserError(
                "stale_bracket_round",
                _(
                    "The bracket has changed since this round was drawn (a result or a withdrawal): "
                    "delete it and draw it again."
                ),
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


@event_write("round_", of=round_event)
def round_unpublish(*, round_: Round, user: Actor | None = None, reason: str = "") -> Round:
    """Take a published round back to draft — only while no result has been entered.

    A clock already started is reset (its scheduled time call then finds nothing to do).
    """
    with transaction.atomic():
        locked = _locked_round(round_)
        if locked.status == RoundStatus.DRAFT:
            raise UserError("not_published", _("The round is not published."))
        if locked.stage.rounds.filter(number__gt=locked.number).exists():
            raise UserError("later_round", _("A later round has been drawn already."))
        if round_has_results(round_=locked):
            raise UserError("has_results", _("A result has been entered: the round can no longer be un-published."))
        locked.status = RoundStatus.DRAFT
        locked.published_at = None
        locked.started_at = locked.ends_at = locked.time_called_at = None
        history_author(locked, user, reason_clean(reason, required=False) or "un-published")
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


@event_write("round_", of=round_event)
def round_delete(*, round_: Round, user: Actor | None = None, reason: str = "") -> None:
    """Delete a draft round. Deleting a stage's first round also forgets its bracket or schedule,
    so the next draw starts afresh (with a new seed). A flag saying the round was drawn from
    standings a correction changed is closed: its next draw reads the corrected ones."""
    with transaction.atomic():
        locked = _locked_round(round_)
        if locked.status != RoundStatus.DRAFT:
            raise UserError("not_draft", _("Only a draft round can be deleted."))
        for flag in AdvancementFlag.objects.filter(round=locked, status=AdvancementFlagStatus.OPEN):
            flag_decision_record(
                flag,
                status=AdvancementFlagStatus.REDRAWN,
                reason=reason or "round deleted: drawn again from the corrected standings",
                user=user,
            )
        if locked.number == 1:
            stage = Stage.objects.select_for_update().get(pk=locked.stage_id)
            kept = stage.settings.with_values(bracket_record=None, schedule_seed=None).to_stored()
            if kept != stage.options:
                stage.options = kept
                history_author(stage, user, "first round deleted")
                stage.save(update_fields=["options"])
        history_author(locked, user, reason or "draft deleted")
        locked.delete()
