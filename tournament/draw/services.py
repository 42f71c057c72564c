"""Draw writes: stages, and a round's tables and matches from a pairing generator.

The generators (``tournament.draw.pairing``) are pure; this module maps the database to their
plain ``Entrant`` values, calls one, and bulk-writes the round it returns, recording the
algorithm, options and seed so the same inputs and seed give the same tables (DESIGN.md
principle 8). Which pairs are drawn: the checked-in pairs once check-in has started, otherwise
every registered pair; withdrawn pairs never.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.errors import ScoringError
from tournament.draw.pairing import Draw, DrawError, Entrant, knockout_redraw, round_robin_schedule, swiss_pair
from tournament.matches.models import (
    Match,
    MatchStatus,
    Round,
    RoundEntry,
    RoundStatus,
    Stage,
    StageFormat,
    Table,
)
from tournament.registration.models import PairMember, PairStatus, Tournament
from tournament.rules import rules_for_stage
from tournament.standings.selectors import stage_standings


def draw_message(error: DrawError) -> str:
    return error.message_zh if (get_language() or "").startswith("zh") else error.message_en


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
) -> Stage:
    """Add a stage (e.g. Swiss preliminaries, then a knockout) to a tournament."""
    if order is None:
        order = (tournament.stages.order_by("-order").values_list("order", flat=True).first() or 0) + 1
    stage = Stage(
        tournament=tournament,
        name=name,
        format=format,
        order=order,
        rule_profile=rule_profile,
        rule_overrides=rule_overrides or {},
        options=options or {},
        advance_count=advance_count,
    )
    try:
        rules_for_stage(stage).check_stage(format)
    except ScoringError as error:
        raise ValidationError({"rule_overrides": error.message}) from error
    stage.save()
    return stage


def _drawn_pairs(stage: Stage) -> list[int]:
    pairs = stage.tournament.pairs.exclude(status=PairStatus.WITHDRAWN)
    if pairs.filter(status=PairStatus.CHECKED_IN).exists():
        pairs = pairs.filter(status=PairStatus.CHECKED_IN)
    return list(pairs.order_by("id").values_list("id", flat=True))


def stage_entrants(*, stage: Stage, pair_ids: list[int] | None = None) -> list[Entrant]:
    """The draw's view of every pair to be drawn: score, rank, opponents, byes, seats, departments."""
    pair_ids = _drawn_pairs(stage) if pair_ids is None else pair_ids
    standings = stage_standings(stage=stage).standings
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


def _generate(stage: Stage, number: int, seed: int, allow_rematches: bool) -> Draw:
    department_rounds = int(stage.options.get("department_rounds", 0))
    if stage.format == StageFormat.SWISS:
        return swiss_pair(
            entrants=stage_entrants(stage=stage),
            round_number=number,
            seed=seed,
            allow_rematches=allow_rematches,
            department_rounds=department_rounds,
        )
    if stage.format == StageFormat.ROUND_ROBIN:
        # The whole schedule comes from the stage's first seed, so every round fits the others.
        schedule_seed = int(stage.options.setdefault("schedule_seed", seed))
        first_round = stage.rounds.filter(number=1).first()
        pair_ids = sorted(first_round.entries.values_list("pair_id", flat=True)) if first_round else None
        schedule = round_robin_schedule(
            entrants=stage_entrants(stage=stage, pair_ids=pair_ids), seed=schedule_seed, shuffle=True
        )
        if number > len(schedule):
            raise DrawError(
                "stage_complete", "Every round of this round robin has been drawn.", "循环赛各轮已全部编排。"
            )
        return schedule[number - 1]
    # Knockout, re-drawn every round among the pairs still in (seed 004).
    still_in = _knockout_still_in(stage, stage_entrants(stage=stage))
    return knockout_redraw(entrants=still_in, round_number=number, seed=seed, department_rounds=department_rounds)


def _knockout_still_in(stage: Stage, entrants: list[Entrant]) -> list[Entrant]:
    """Pairs that have not lost a match of this knockout stage."""
    losers: set[int] = set()
    for ns, ew, winner, status in Match.objects.filter(round__stage=stage).values_list(
        "ns_pair_id", "ew_pair_id", "winner", "status"
    ):
        if ew is None:
            continue
        if status not in (MatchStatus.FINISHED, MatchStatus.CONFIRMED) or not winner:
            raise DrawError(
                "round_not_finished",
                "Every match of the previous round needs a result first.",
                "上一轮还有比赛没有结果。",
            )
        losers.add(ew if winner == "NS" else ns)
    return [entrant for entrant in entrants if entrant.id not in losers]


def round_draw(*, stage: Stage, seed: int | None = None, allow_rematches: bool = False) -> Round:
    """Draw the stage's next round as a draft: tables numbered top-ranked first, byes finished.

    Raises ValidationError with the draw's message (in the user's language) when the round
    cannot be drawn as asked (e.g. ``no_pairing_without_rematch``).
    """
    if stage.rounds.filter(status=RoundStatus.DRAFT).exists():
        raise ValidationError(_("A draft round exists already: publish or delete it first."))
    playing = Match.objects.filter(round__stage=stage, status__in=(MatchStatus.PENDING, MatchStatus.RUNNING))
    if playing.exists():
        raise ValidationError(_("The current round is still being played."))
    number = (stage.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    seed = secrets.randbelow(2**31) if seed is None else seed
    try:
        draw = _generate(stage, number, seed, allow_rematches)
    except DrawError as error:
        raise ValidationError(draw_message(error), code=error.code) from error
    with transaction.atomic():
        if stage.format == StageFormat.ROUND_ROBIN:
            stage.save(update_fields=["options"])
        round_ = Round.objects.create(
            stage=stage,
            number=number,
            status=RoundStatus.DRAFT,
            time_cap_minutes=_time_cap(stage),
            draw_algorithm=draw.algorithm,
            draw_options={**draw.options, "warnings": [w.as_record() for w in draw.warnings]},
            draw_seed=draw.seed,
        )
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


def round_publish(*, round_: Round) -> Round:
    """Publish a draft round: players see it and referees can enter results."""
    if round_.status != RoundStatus.DRAFT:
        raise ValidationError(_("Only a draft round can be published."))
    round_.status = RoundStatus.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    return round_
