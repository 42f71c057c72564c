"""The team draw and line-ups (团体对抗, docs/rules.md §11).

A stage of team matches is drawn between teams with the Swiss engine (:func:`swiss_pair`), the team as
the entrant: its score is its team match points, its rank its place in the team standings
(:func:`tournament.standings.team_matches.stage_team_matches_get`), its opponents the teams it met (no
team meets another twice), its departments the department it is — or, for a named team, its members'
departments, so department protection keeps colleagues' teams apart. Each team pairing becomes two
ordinary matches of pairs, seated by the rules core's :func:`scoring.team_matches.team_match_seat` from
the two teams' line-ups (table a: X1 N/S against Y1 E/W; table b: Y2 N/S against X2 E/W).

A line-up (:class:`TeamLineUp`) is by default the team's first two members in registration order (those
who have not withdrawn first, then substitutes); the organiser changes it (audited) until the round is
published, and the two tables are seated again at once.

Which team is X is the draw's choice (§11: X is the team "drawn first"), and the draw makes it for the
pairs' seats: X seats its pair 1 N/S and its pair 2 E/W, Y the other way round, so the team's seat need
(:func:`team_seat_need`) is what its line-up's pairs are owed, and the Swiss engine's seat rule
(:mod:`tournament.draw.pairing_seating`) makes the team that is owed X the team drawn first. Over the
rounds each pair then sits N/S and E/W in turn, as in a Swiss of pairs, and the draw's seat-balance
warning (:func:`tournament.draw.selectors.round_warnings`) keeps its meaning for team rounds: it names a
pair the draw could not seat its owed way.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.errors import ScoringError
from scoring.team_matches import LineUp, team_match_seat
from scoring.teams import Team as CoreTeam
from tournament.audit import history_author
from tournament.draw.pairing_types import Draw, Entrant, Pairing, Seat
from tournament.errors import UserError, scoring_message
from tournament.matches.event import round_event
from tournament.matches.models import Match, Round, RoundEntry, RoundStatus, Stage, StageFormat, TeamLineUp, TeamMatch
from tournament.people import Actor
from tournament.registration.lifecycle import event_write
from tournament.registration.models import Pair, PairMember, PairStatus, Team, TeamMember
from tournament.registration.teams import TEAM_MIN_MEMBERS, teams_withdrawn
from tournament.standings.team_matches import stage_team_matches_get


def stage_teams(*, stage: Stage) -> list[Team]:
    """The teams a stage of team matches is drawn between: the teams a previous stage advanced into it
    (``settings.entrants``, :func:`tournament.draw.stages.stage_advance`), else the event's teams of two
    members or more."""
    teams = Team.objects.filter(tournament_id=stage.tournament_id).prefetch_related("members").order_by("number")
    advanced = set(stage.settings.entrants)
    return [
        team
        for team in teams
        if len(team.members.all()) >= TEAM_MIN_MEMBERS and (not advanced or team.pk in advanced)
    ]


def team_entrants(*, stage: Stage, teams: list[Team] | None = None) -> list[Entrant]:
    """The draw's view of every team: team match points, place, teams met, byes, departments."""
    teams = stage_teams(stage=stage) if teams is None else teams
    played = stage_team_matches_get(stage=stage)
    rows = {row.team: row for row in played.standings.rows}
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: dict[int, int] = defaultdict(int)
    for line in played.matches:
        if line.y is None:
            byes[line.x] += 1
        else:
            opponents[line.x].add(line.y)
            opponents[line.y].add(line.x)
    members: dict[int, set[int]] = defaultdict(set)
    by_pair = dict(TeamMember.objects.filter(team__in=teams).values_list("pair_id", "team_id"))
    for pair_id, department_id in PairMember.objects.filter(pair_id__in=by_pair).values_list(
        "pair_id", "player__department_id"
    ):
        if department_id is not None:
            members[by_pair[pair_id]].add(department_id)
    # advanced from a previous stage: seeded by its team ranking (seed 1 = the best), which also ranks
    # the teams until the stage has a result; else the organiser's seeds (a team's as a pair's: the
    # entrant's seed, read by the bracket seeded "by seeds" and the groups, docs/rules.md §4)
    advanced = {team_id: number for number, team_id in enumerate(stage.settings.entrants, start=1)}
    seeds = advanced or {team.pk: team.seed for team in teams if team.seed is not None}
    # a team that withdrew (every member withdrawn) is drawn no more in a Swiss or a bracket; a round robin
    # keeps its schedule (its opponents' team matches are forfeited to them)
    gone = frozenset[int]()
    if stage.format != StageFormat.ROUND_ROBIN:
        gone = teams_withdrawn(tournament_id=stage.tournament_id)
    line_ups = default_line_ups(teams=teams)
    lined_up = [pair_id for line_up in line_ups.values() for pair_id in line_up]
    seats: dict[int, list[Seat]] = defaultdict(list)
    for pair_id, side in (
        RoundEntry.objects.filter(round__stage=stage, match__ew_pair__isnull=False, pair_id__in=lined_up)
        .order_by("round__number")
        .values_list("pair_id", "side")
    ):
        seats[pair_id].append("NS" if side == "NS" else "EW")
    entrants = []
    for team in teams:
        first, second = line_ups[team.pk]
        need, last_seat = team_seat_need(first=seats[first], second=seats[second])
        row = rows.get(str(team.pk))
        rank = row.rank if row is not None else 0
        if advanced and not played.matches:  # nothing drawn in this stage yet: its seeds rank the teams
            rank = advanced.get(team.pk, 0)
        departments = {team.department_id} if team.department_id is not None else members[team.pk]
        entrants.append(
            Entrant(
                id=team.pk,
                rank=rank,
                seed=seeds.get(team.pk),
                score=row.match_points if row is not None else 0,
                opponents=frozenset(opponents[team.pk]),
                byes=byes[team.pk],
                departments=frozenset(departments),
                withdrawn=team.pk in gone,
                seats_ns=max(-need, 0),
                seats_ew=max(need, 0),
                last_seat=last_seat,
            )
        )
    return entrants


def team_seat_need(*, first: Sequence[Seat], second: Sequence[Seat]) -> tuple[int, Seat | None]:
    """A team's seat need as the draw's seat rule reads an entrant's (> 0: it is owed X, < 0: Y) and the
    seat its line-up last had as X ("NS") or Y ("EW"), from the seats its pair 1 (``first``) and pair 2
    (``second``) had in the stage's rounds, in order.

    X seats pair 1 N/S and pair 2 E/W (docs/rules.md §11), so the team is owed X as far as its pair 1 is
    owed N/S and its pair 2 E/W: the two pairs' needs (E/W rounds minus N/S rounds) apart, halved — with the
    same two pairs every round they sat opposite each other and the half is exactly pair 1's need. Halved
    away from zero: a pair owed a seat the other does not mind still makes the team owe it (a substitute
    who has not played beside a pair that sat N/S once more)."""
    apart = (first.count("EW") - first.count("NS")) - (second.count("EW") - second.count("NS"))
    need = (abs(apart) + 1) // 2 * (1 if apart > 0 else -1)
    last: Seat | None = None
    if first:
        last = first[-1]
    elif second:
        last = "EW" if second[-1] == "NS" else "NS"
    return need, last


def default_line_ups(*, teams: Sequence[Team]) -> dict[int, tuple[int, int]]:
    """Each team's pair 1 and pair 2 by default (docs/rules.md §11), by team id: the first two members in
    registration order, those still playing before substitutes, withdrawn members last (their table is
    forfeited). One query for every team (a Swiss of 1,000 teams asks it once)."""
    members: dict[int, list[tuple[bool, bool, int, int]]] = defaultdict(list)
    for team_id, pair_id, position, substitute, status in TeamMember.objects.filter(
        team__in=[team.pk for team in teams]
    ).values_list("team_id", "pair_id", "position", "substitute", "pair__status"):
        members[team_id].append((status == PairStatus.WITHDRAWN, substitute, position, pair_id))
    line_ups = {}
    for team in teams:
        ordered = tuple(str(pair_id) for *_key, pair_id in sorted(members[team.pk]))
        line_up = LineUp.default(CoreTeam(str(team.pk), ordered))
        line_ups[team.pk] = (int(line_up.first), int(line_up.second))
    return line_ups


@dataclass(frozen=True, slots=True)
class TeamDrawPlan:
    """A team round: the pair-level draw to write (two tables per team match) and the team matches."""

    pairs: Draw
    matches: tuple[tuple[int, int, int | None, int | None], ...]
    """(number, team X, team Y or None for a bye, its position in a fixed bracket's round or None)."""
    line_ups: dict[int, tuple[int, int]]


def team_draw_plan(*, teams_draw: Draw, line_ups: dict[int, tuple[int, int]]) -> TeamDrawPlan:
    """Seat a team draw: team match n at tables 2n−1 (a) and 2n (b), byes last (docs/rules.md §11)."""
    pairings: list[Pairing] = []
    matches: list[tuple[int, int, int | None, int | None]] = []
    byes: list[Pairing] = []
    for number, pairing in enumerate(teams_draw.matches, 1):
        x, y = int(pairing.ns), int(pairing.ew) if pairing.ew is not None else None
        assert y is not None
        seating = team_match_seat(x=LineUp(str(x), *map(str, line_ups[x])), y=LineUp(str(y), *map(str, line_ups[y])))
        pairings.append(Pairing(table=2 * number - 1, ns=int(seating.a.ns), ew=int(seating.a.ew)))
        pairings.append(Pairing(table=2 * number, ns=int(seating.b.ns), ew=int(seating.b.ew)))
        matches.append((number, x, y, pairing.bracket_match))
    for offset, pairing in enumerate(teams_draw.byes, len(matches) + 1):
        x = int(pairing.ns)
        byes += [Pairing(table=None, ns=pair, ew=None) for pair in line_ups[x]]
        matches.append((offset, x, None, pairing.bracket_match))
    pairs = Draw(
        algorithm=teams_draw.algorithm,
        round_number=teams_draw.round_number,
        seed=teams_draw.seed,
        options={**teams_draw.options, "team_match": True},
        pairings=tuple(pairings + byes),
        # a walkover of the teams' draw (a withdrawn team's opponent goes on) names teams, not pairs: kept
        # apart from the pairs' walkovers the standings of pairs read
        notes={
            **{key: value for key, value in teams_draw.notes.items() if key != "walkovers"},
            "teams": teams_draw.as_record()["pairings"],
            **({"team_walkovers": teams_draw.notes["walkovers"]} if "walkovers" in teams_draw.notes else {}),
        },
    )
    return TeamDrawPlan(pairs=pairs, matches=tuple(matches), line_ups=line_ups)


def team_matches_write(*, round_: Round, plan: TeamDrawPlan, user: Actor | None) -> None:
    """The round's line-ups and team matches, each linked to its two tables (written by ``round_write``)."""
    by_ns = {m.ns_pair_id: m for m in Match.objects.filter(round=round_, ew_pair__isnull=False)}
    for team_id, (first, second) in plan.line_ups.items():
        line_up = TeamLineUp(round=round_, team_id=team_id, first_id=first, second_id=second)
        history_author(line_up, user)
        line_up.save()
    for number, x, y, slot in plan.matches:
        row = TeamMatch(round=round_, number=number, team_x_id=x, team_y_id=y, bracket_slot=slot)
        if y is not None:
            row.table_a = by_ns[plan.line_ups[x][0]]
            row.table_b = by_ns[plan.line_ups[y][1]]
        history_author(row, user)
        row.save()


@event_write("round_", of=round_event)
def team_line_up_set(*, round_: Round, team: Team, first: Pair, second: Pair, user: Actor | None = None) -> TeamLineUp:
    """Name ``team``'s pair 1 and pair 2 for ``round_`` (docs/rules.md §11) and seat its two tables again.
    Refused, nothing changed: a published round, a pair that is not one of the team's, the same pair
    twice, a team not drawn in the round."""
    with transaction.atomic():
        locked = Round.objects.select_for_update(of=("self",)).select_related("stage").get(pk=round_.pk)
        if locked.status != RoundStatus.DRAFT:
            raise UserError(
                "line_up_published",
                _("The round is published: its line-ups are final (change them before publishing)."),
                status=409,
            )
        line_up = TeamLineUp.objects.select_for_update().filter(round=locked, team=team).first()
        row = TeamMatch.objects.filter(round=locked).filter(team_x=team).first() or (
            TeamMatch.objects.filter(round=locked, team_y=team).first()
        )
        if line_up is None or row is None:
            raise UserError("bad_input", _("Team %(team)s is not drawn in this round.") % {"team": team.name})
        members = tuple(str(pk) for pk in TeamMember.objects.filter(team=team).values_list("pair_id", flat=True))
        try:
            LineUp(str(team.pk), str(first.pk), str(second.pk)).check(CoreTeam(str(team.pk), members))
        except ScoringError as error:
            names = {str(first.pk): first.name, str(second.pk): second.name, str(team.pk): team.name}
            message = scoring_message(error)
            for key, name in names.items():
                message = message.replace(repr(key), name)
            raise UserError("line_up_foreign" if first.pk != second.pk else "bad_input", message) from error
        old = (line_up.first_id, line_up.second_id)
        line_up.first, line_up.second = first, second
        history_author(line_up, user)
        line_up.save(update_fields=["first", "second"])
        _reseat(row, team_id=team.pk, old=old, new=(first.pk, second.pk))
    return line_up


def _reseat(row: TeamMatch, *, team_id: int, old: tuple[int, int], new: tuple[int, int]) -> None:
    """Put the new pair 1 and pair 2 in their seats at the two tables (a bye: the byes' matches). The
    seats' round entries are written again after the move (a swap would otherwise clash with itself)."""
    if row.team_y_id is None:
        byes = list(Match.objects.filter(round_id=row.round_id, ns_pair_id__in=old, ew_pair__isnull=True))
        RoundEntry.objects.filter(match__in=byes).delete()
        Match.objects.filter(pk__in=[m.pk for m in byes]).update(ns_pair=None)
        seats = [(match, "ns_pair", "NS", pair_id) for match, pair_id in zip(byes, new, strict=True)]
    else:
        x = row.team_x_id == team_id
        table_a, table_b = row.table_a, row.table_b
        assert table_a is not None and table_b is not None
        seats = [
            (table_a, "ns_pair" if x else "ew_pair", "NS" if x else "EW", new[0]),
            (table_b, "ew_pair" if x else "ns_pair", "EW" if x else "NS", new[1]),
        ]
        for match, _field, side, _pair in seats:
            RoundEntry.objects.filter(match=match, side=side).delete()
    for match, field, _side, pair_id in seats:
        setattr(match, f"{field}_id", pair_id)
        match.save(update_fields=[field])
    RoundEntry.objects.bulk_create(
        RoundEntry(round_id=row.round_id, pair_id=pair_id, match=match, side=side) for match, _f, side, pair_id in seats
    )
