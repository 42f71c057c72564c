"""Reads for the draw pages: a round's tables with their warnings and referees, the draw sheet.

Warnings are worked out from the rows as they are now (after any manual edit), with the same
codes and texts as the generators' (``DrawWarning``): ``rematch``, ``same_department`` (in the
rounds under department protection), ``bye`` and ``repeat_bye``, ``seat_imbalance`` (a pair
that would sit one way two rounds more than the other; not in a fixed bracket, where the better
seed sits N/S) and ``withdrawn`` (a pair that withdrew after the draw).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import F, Q, QuerySet

from tournament import labels
from tournament.draw.pairing import DrawWarning
from tournament.matches.models import Match, Referee, RefereeAssignment, Round, RoundEntry, Stage, StageFormat
from tournament.people import person_name
from tournament.registration.models import Pair, PairMember, PairStatus
from tournament.standings.selectors import stage_bracket_state_get, stage_third_place_matches


def round_warnings(*, round_: Round) -> dict[int, list[DrawWarning]]:
    """Match id → the warnings of that table (or bye) as the round stands."""
    stage = round_.stage
    earlier = Match.objects.filter(round__stage=stage, round__number__lt=round_.number)
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: Counter[int] = Counter()
    for ns, ew in earlier.values_list("ns_pair_id", "ew_pair_id"):
        if ew is None:
            byes[ns] += 1
        else:
            opponents[ns].add(ew)
            opponents[ew].add(ns)
    seats: dict[int, Counter[str]] = defaultdict(Counter)
    for pair_id, side in RoundEntry.objects.filter(
        round__stage=stage, round__number__lt=round_.number, match__ew_pair__isnull=False
    ).values_list("pair_id", "side"):
        seats[pair_id][side] += 1
    matches = list(round_.matches.values_list("pk", "table__number", "ns_pair_id", "ew_pair_id"))
    # The round's pairs as subqueries, not a list of ids: 5,000 parameters cost more to build than the query.
    in_round = Q(pair__in=round_.matches.values("ns_pair_id")) | Q(pair__in=round_.matches.values("ew_pair_id"))
    protect = round_.number <= stage.settings.department_rounds
    departments: dict[int, set[int]] = defaultdict(set)
    if protect:
        for pair_id, department_id in PairMember.objects.filter(in_round).values_list(
            "pair_id", "player__department_id"
        ):
            if department_id is not None:
                departments[pair_id].add(department_id)
    # A withdrawal is rare: the event's few withdrawn pairs, whether in this round or not.
    withdrawn = set(
        Pair.objects.filter(tournament_id=stage.tournament_id, status=PairStatus.WITHDRAWN).values_list("id", flat=True)
    )
    seat_rule = not (stage.format == StageFormat.KNOCKOUT and stage.settings.fixed_bracket)
    result: dict[int, list[DrawWarning]] = {}
    for pk, table, ns, ew in matches:
        # Each warning made once, with its table (a draft of 2,500 tables has thousands of them).
        found: list[DrawWarning] = []
        if ew is None:
            found.append(DrawWarning.of("bye", ns, table=table))
            if byes[ns]:
                found.append(DrawWarning.of("repeat_bye", ns, table=table))
        else:
            if ew in opponents[ns]:
                found.append(DrawWarning.of("rematch", ns, ew, table=table))
            if protect and departments[ns] & departments[ew]:
                found.append(DrawWarning.of("same_department", ns, ew, table=table))
            if seat_rule:
                for pair_id, side, other in ((ns, "NS", "EW"), (ew, "EW", "NS")):
                    if seats[pair_id][side] + 1 - seats[pair_id][other] >= 2:
                        found.append(DrawWarning.of("seat_imbalance", pair_id, table=table))
        found += [DrawWarning.of("withdrawn", p, table=table) for p in (ns, ew) if p in withdrawn]
        result[pk] = found
    return result


@dataclass(frozen=True, slots=True)
class TableLine:
    """One table (or bye) of a round as the pages show it."""

    match: Match
    warnings: tuple[DrawWarning, ...]
    referee: str
    third_place: bool
    walkover: bool = False
    """No table because the opponent withdrew (不战而胜): a forfeit win, not a bye."""

    @property
    def problems(self) -> tuple[DrawWarning, ...]:
        """Warnings that need a look (a bye alone is just information)."""
        return tuple(w for w in self.warnings if w.code != "bye")

    @property
    def numbered_problems(self) -> list[tuple[list[int | str], DrawWarning]]:
        """Each problem with its pairs' numbers in the event (the warning names its pairs by id;
        a table's warnings are about its own two pairs)."""
        numbers: dict[int | str, int] = {}
        for pair in (self.match.ns_pair, self.match.ew_pair):
            if pair is not None:
                numbers[pair.pk] = numbers[str(pair.pk)] = pair.number
        return [([numbers.get(entrant, entrant) for entrant in w.entrants], w) for w in self.problems]


def round_matches(*, round_: Round) -> QuerySet[Match]:
    """The round's matches as the draw lists them: table order, byes last; the snapshot left
    unread (a list of 2,500 tables read megabytes of it for nothing)."""
    return (
        round_.matches.select_related("table", "ns_pair", "ew_pair")
        .defer("state")
        .order_by(F("table__number").asc(nulls_last=True), "bracket_slot", "id")
    )


def _referee_names(round_: Round) -> dict[int, str]:
    """Table id → the name of the referee assigned to it in the round."""
    assignments = list(RefereeAssignment.objects.filter(round=round_).select_related("referee"))
    # a referee made by the organiser is named on their profile; their account has a login, not a name
    named = dict(Referee.objects.filter(user_id__in=[a.referee_id for a in assignments]).values_list("user_id", "name"))
    return {a.table_id: named.get(a.referee_id) or person_name(a.referee) for a in assignments}


def round_lines(
    *,
    round_: Round,
    with_warnings: bool = True,
    warnings: dict[int, list[DrawWarning]] | None = None,
    matches: Iterable[Match] | None = None,
) -> list[TableLine]:
    """The round's tables in table order, byes last, with warnings and referees. ``matches``: only
    these (a page of :func:`round_matches`); ``warnings``: the round's, already computed."""
    if warnings is None:
        warnings = round_warnings(round_=round_) if with_warnings else {}
    referees = _referee_names(round_)
    third = stage_third_place_matches(stage=round_.stage)
    walkovers = round_.draw_settings.walkovers
    return [
        TableLine(
            match=match,
            warnings=tuple(warnings.get(match.pk, ())),
            referee=referees.get(match.table_id, "") if match.table_id else "",
            third_place=match.pk in third,
            walkover=match.ew_pair_id is None and match.ns_pair_id in walkovers,
        )
        for match in (round_matches(round_=round_) if matches is None else matches)
    ]


def round_table_referees(*, round_: Round) -> list[tuple[int, str, str]]:
    """(table number, area, referee's name or "") of each table of the round, in table order —
    two light queries, for the round's referees page (no pairs, no warnings)."""
    referees = _referee_names(round_)
    rows = (
        round_.matches.filter(table__isnull=False)
        .order_by("table__number")
        .values_list("table_id", "table__number", "table__area")
    )
    return [(number, area, referees.get(table_id, "")) for table_id, number, area in rows]


@dataclass(frozen=True, slots=True)
class SeatLine:
    """ "Find my table": a pair, its table and seat (or its bye)."""

    pair: Pair
    table: int | None
    side: str


def round_seats(*, round_: Round) -> list[SeatLine]:
    """Every pair of the round by name, with its table and seat — the wall list of the draw sheet."""
    entries = RoundEntry.objects.filter(round=round_).select_related("pair", "match__table")
    lines = [SeatLine(pair=e.pair, table=e.match.table.number if e.match.table else None, side=e.side) for e in entries]
    return sorted(lines, key=lambda line: (line.pair.name, line.pair.pk))


@dataclass(frozen=True)
class RefereeLoad:
    """Who has which tables in a round: a referee, their tables as ranges, how many, where."""

    referee_id: int
    name: str
    active: bool
    tables: str
    count: int
    areas: str


def round_referee_loads(*, round_: Round) -> list[RefereeLoad]:
    """Every referee with tables in ``round_``, most tables first, in one query."""
    tables: dict[int, list[int]] = defaultdict(list)
    areas: dict[int, set[str]] = defaultdict(set)
    names: dict[int, tuple[str, bool]] = {}
    rows = (
        RefereeAssignment.objects.filter(round=round_)
        .order_by("table__number")
        .values_list(
            "referee_id",
            "table__number",
            "table__area",
            "referee__referee_profile__name",
            "referee__first_name",
            "referee__username",
            "referee__is_active",
        )
    )
    for referee_id, number, area, profile_name, first_name, username, active in rows:
        tables[referee_id].append(number)
        if area:
            areas[referee_id].add(area)
        names[referee_id] = (profile_name or first_name or username, active)
    loads = [
        RefereeLoad(
            referee_id=referee_id,
            name=names[referee_id][0],
            active=names[referee_id][1],
            tables=labels.table_ranges(numbers),
            count=len(numbers),
            areas=", ".join(sorted(areas[referee_id])),
        )
        for referee_id, numbers in tables.items()
    ]
    return sorted(loads, key=lambda load: (-load.count, load.name))


def stage_decided(*, stage: Stage) -> bool:
    """Whether ``stage`` is a knockout whose champion is known: it has no round left to draw (a draw
    would be refused), and its page offers none."""
    return stage.format == StageFormat.KNOCKOUT and stage_bracket_state_get(stage=stage).complete
