"""Teams (集体比赛, docs/rules.md §11): the writes and reads of an event's teams.

A team is named by the organiser or made from a department (:func:`teams_from_departments`: one team
per department, in one click); its members are the event's entrants — pairs, or in an event of players
(Dou Dizhu) players, both ``Pair`` rows — in the order they joined, with substitutes registered beside
them. The rules held here, each also by the database where it can be:

- an entrant is in at most one team of its event (``TeamMember.pair`` is one-to-one);
- team names and numbers are unique in the event, a department makes at most one team;
- a team has at least two members (:data:`TEAM_MIN_MEMBERS`), a count the database cannot hold (a team is
  made before its members), so every write that would leave a team with fewer asks :data:`team_short`
  under the event's row lock, and the stages' app answers: while a stage of the event plays **team
  matches** no team is made, filled or left with fewer than two (a team of one could not field its two
  tables); while a stage only ranks a **team total**, a team may still be made and filled member by
  member (the teams page adds one entrant at a time: a team being filled is named, not ranked, and a
  team total is a reading of the stage's ranking that changes no result), but a team it ranks never
  drops below two. A stage that ranks teams is itself refused while a team has fewer
  (:func:`teams_ready_check`).

Every write takes the event's row lock (two organisers assigning the same pair at once: one wins, the
other is told) and is audited (simple-history on both models). A refusal is a ``UserError``; nothing
is written.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Prefetch, QuerySet
from django.dispatch import Signal
from django.utils.translation import gettext as _

from tournament.audit import history_author
from tournament.bounds import column_max, text_max
from tournament.errors import UserError
from tournament.people import Actor
from tournament.registration.lifecycle import event_write, owned_event, tournament_event
from tournament.registration.models import Department, Pair, PairMember, PairStatus, Team, TeamMember, Tournament
from tournament.registration.text import clean_text
from tournament.text import direction_control_message, direction_controls

TEAM_NAME_MAX = text_max(Team, "name")
TEAM_SEED_MAX = column_max(Team, "seed")
TEAM_MIN_MEMBERS = 2
"""A team has at least two members (docs/rules.md §11)."""

TeamChange = Literal["made", "joined", "left", "deleted"]
"""What a write does to a team that leaves it short (:data:`team_short`): made with too few members,
given a member (or a substitute) and still short, a member taken out, or the team deleted."""

team_short = Signal()
"""``team_short(sender=Team, team=…, members=n, change=…)``: a write is about to leave ``team`` with
``n`` members, fewer than :data:`TEAM_MIN_MEMBERS` (``change``: :data:`TeamChange`; a deletion keeps
0), its event locked and nothing yet committed. Sent with ``send``: a receiver that raises a user's
error refuses the write and nothing is written (the matches app, which knows the stages, refuses as
the module docstring says)."""


def _locked(tournament_id: int) -> None:
    """The event's row lock: team writes of one event run one at a time."""
    Tournament.objects.select_for_update().filter(pk=tournament_id).first()


def _short_check(*, team: Team, change: TeamChange) -> None:
    """Ask :data:`team_short` when ``team`` (its event locked, the write done but not committed) has
    fewer than two members: a refusal raises, and the write's transaction takes everything back."""
    members = TeamMember.objects.filter(team=team).count()
    if members < TEAM_MIN_MEMBERS:
        team_short.send(sender=Team, team=team, members=members, change=change)


def _name_clean(*, tournament: Tournament, name: str, team: Team | None = None) -> str:
    name = clean_text(name)
    if not name:
        raise UserError.of_fields({"name": _("A team needs a name.")})
    if direction_controls(name):
        raise UserError.of_fields({"name": direction_control_message(_("Name"))})
    if len(name) > TEAM_NAME_MAX:
        raise UserError.of_fields({"name": _("The name is longer than %(max)d characters.") % {"max": TEAM_NAME_MAX}})
    taken = Team.objects.filter(tournament=tournament, name=name)
    if team is not None:
        taken = taken.exclude(pk=team.pk)
    if taken.exists():
        raise UserError.of_fields({"name": _("There is already a team named %(name)s.") % {"name": name}})
    return name


def _joinable(*, team: Team, pair: Pair, substitute: bool) -> None:
    """Refuse ``pair`` joining ``team``: not of the event, withdrawn, or already in a team."""
    if pair.tournament_id != team.tournament_id:
        raise UserError.of_fields({"pair": _("%(pair)s is not registered in this event.") % {"pair": pair.name}})
    if pair.status == PairStatus.WITHDRAWN:
        raise UserError.of_fields({"pair": _("%(pair)s has withdrawn.") % {"pair": pair.name}})
    current = TeamMember.objects.filter(pair=pair).select_related("team").first()
    if current is None:
        return
    if current.team_id == team.pk:
        raise UserError.of_fields(
            {"pair": _("%(pair)s is already in team %(team)s.") % {"pair": pair.name, "team": team.name}},
            code="team_member_taken",
        )
    if substitute:
        message = _(
            "%(pair)s is in team %(other)s: a substitute of another team cannot stand in for %(team)s. "
            "Remove it from %(other)s first."
        )
    else:
        message = _(
            "%(pair)s is already in team %(other)s: an entrant is in one team only. Remove it from %(other)s first."
        )
    raise UserError.of_fields(
        {"pair": message % {"pair": pair.name, "other": current.team.name, "team": team.name}},
        code="team_member_taken",
        status=409,
    )


def _members_write(*, team: Team, pairs: Sequence[Pair], substitute: bool, user: Actor | None) -> list[TeamMember]:
    seen: set[int] = set()
    for pair in pairs:
        if pair.pk in seen:
            raise UserError.of_fields({"pair": _("%(pair)s is named twice.") % {"pair": pair.name}})
        seen.add(pair.pk)
        _joinable(team=team, pair=pair, substitute=substitute)
    start = (TeamMember.objects.filter(team=team).aggregate(top=Max("position"))["top"] or 0) + 1
    written = []
    try:
        with transaction.atomic():
            for position, pair in enumerate(pairs, start=start):
                member = TeamMember(team=team, pair=pair, position=position, substitute=substitute)
                history_author(member, user)
                member.save()
                written.append(member)
    except IntegrityError as exc:  # backed by the one-to-one: a concurrent write took the pair first
        raise UserError(
            "team_member_taken", _("An entrant is already in a team."), status=409, fields={"pair": []}
        ) from exc
    return written


@event_write("tournament", of=tournament_event)
def team_create(
    *,
    tournament: Tournament,
    name: str,
    pairs: Sequence[Pair] = (),
    department: Department | None = None,
    user: Actor | None = None,
) -> Team:
    """A new team of ``tournament`` named ``name``, with ``pairs`` as its first members (in that order;
    more are added with :func:`team_member_add`). Refused: an empty or taken name, an entrant of
    another event or already in a team, a department that already has its team, and fewer than two
    members while a stage plays team matches (:data:`team_short`)."""
    with transaction.atomic():
        _locked(tournament.pk)
        name = _name_clean(tournament=tournament, name=name)
        if department is not None:
            if department.tournament_id != tournament.pk:
                raise UserError.of_fields({"department": _("That department is not of this event.")})
            if Team.objects.filter(tournament=tournament, department=department).exists():
                raise UserError.of_fields(
                    {"department": _("%(department)s already has its team.") % {"department": department.name}}
                )
        number = (Team.objects.filter(tournament=tournament).aggregate(top=Max("number"))["top"] or 0) + 1
        team = Team(tournament=tournament, number=number, name=name, department=department)
        history_author(team, user)
        team.save()
        _members_write(team=team, pairs=pairs, substitute=False, user=user)
        _short_check(team=team, change="made")
    return team


@event_write("team", of=owned_event)
def team_rename(*, team: Team, name: str, user: Actor | None = None) -> Team:
    """Rename a team (its members and results stay)."""
    with transaction.atomic():
        _locked(team.tournament_id)
        team.name = _name_clean(tournament=team.tournament, name=name, team=team)
        history_author(team, user)
        team.save(update_fields=["name"])
    return team


@event_write("team", of=owned_event)
def team_seed_set(*, team: Team, seed: int | None, user: Actor | None = None) -> Team:
    """Give ``team`` the organiser's seed (1 = the top seed), or clear it with None. A knockout of teams
    seeded "by seeds" places the seeded teams by it, the unseeded filling in by lot, as pairs' seeds place
    pairs (docs/rules.md §4, §11); a stage the teams advanced into is seeded by that advancement instead.
    Refused, nothing changed: a seed that is not a whole number from 1 to the column's largest, or one
    another team of the event holds."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 1 <= seed <= TEAM_SEED_MAX):
        raise UserError.of_fields(
            {"seed": _("A seed is a whole number from 1 to %(max)d, or empty for none.") % {"max": TEAM_SEED_MAX}}
        )
    with transaction.atomic():
        _locked(team.tournament_id)
        holder = None
        if seed is not None:
            holder = Team.objects.filter(tournament_id=team.tournament_id, seed=seed).exclude(pk=team.pk).first()
        if holder is not None:
            raise UserError.of_fields(
                {"seed": _("Seed %(seed)d is already %(team)s's.") % {"seed": seed, "team": holder.name}},
                code="team_seed_taken",
                status=409,
            )
        team.seed = seed
        history_author(team, user)
        team.save(update_fields=["seed"])
    return team


@event_write("team", of=owned_event)
def team_member_add(*, team: Team, pair: Pair, user: Actor | None = None) -> TeamMember:
    """Add ``pair`` (Dou Dizhu: a player) to ``team`` as a member, after those it has. Refused if the
    entrant is of another event, withdrawn, or in a team already (this one or another), or if the team
    would still have fewer than two members while a stage plays team matches (:data:`team_short`)."""
    with transaction.atomic():
        _locked(team.tournament_id)
        (member,) = _members_write(team=team, pairs=[pair], substitute=False, user=user)
        _short_check(team=team, change="joined")
    return member


@event_write("team", of=owned_event)
def team_substitute_add(*, team: Team, pair: Pair, user: Actor | None = None) -> TeamMember:
    """Register ``pair`` as a substitute of ``team`` (docs/rules.md §11: swapped in between rounds).
    A substitute already in another team is refused, as any member would be, and so is one that leaves
    the team short of two while a stage plays team matches (a substitute counts as a member)."""
    with transaction.atomic():
        _locked(team.tournament_id)
        (member,) = _members_write(team=team, pairs=[pair], substitute=True, user=user)
        _short_check(team=team, change="joined")
    return member


@event_write("team", of=owned_event)
def team_member_remove(*, team: Team, pair: Pair, user: Actor | None = None) -> None:
    """Take ``pair`` out of ``team``. Refused if it is not in the team, or if the team would keep
    fewer than two members while a stage of the event ranks teams (:data:`team_short`)."""
    with transaction.atomic():
        _locked(team.tournament_id)
        member = TeamMember.objects.filter(team=team, pair=pair).first()
        if member is None:
            raise UserError.of_fields(
                {"pair": _("%(pair)s is not in team %(team)s.") % {"pair": pair.name, "team": team.name}}
            )
        history_author(member, user)
        member.delete()
        _short_check(team=team, change="left")


@event_write("team", of=owned_event)
def team_delete(*, team: Team, user: Actor | None = None) -> None:
    """Delete a team (its members stay registered, in no team). Refused while a stage ranks teams."""
    with transaction.atomic():
        _locked(team.tournament_id)
        team_short.send(sender=Team, team=team, members=0, change="deleted")
        for member in TeamMember.objects.filter(team=team):
            history_author(member, user)
            member.delete()
        history_author(team, user)
        team.delete()


@dataclass(slots=True)
class DepartmentTeams:
    """What :func:`teams_from_departments` did: teams made, members added to teams that existed, and
    departments left without a team (fewer than two entrants not yet in a team)."""

    created: list[Team] = field(default_factory=list)
    extended: list[Team] = field(default_factory=list)
    added: int = 0
    skipped: list[str] = field(default_factory=list)


def _department_of(pair: Pair) -> int | None:
    """An entrant's department: its players' one department; a pair of two departments goes with its
    first player's (slot 1), so every pair lands in exactly one department's team."""
    members = sorted(pair.members.all(), key=lambda member: member.slot)
    return members[0].player.department_id if members else None


@event_write("tournament", of=tournament_event)
def teams_from_departments(*, tournament: Tournament, user: Actor | None = None) -> DepartmentTeams:
    """One team per department, in one click (docs/rules.md §11: the default teams): each department's
    entrants not yet in a team (not withdrawn) join its team — made and named after the department
    if it has none, else added after its members. A department with fewer than two such entrants and
    no team yet gets none (a team has at least two members). Running it again adds only the entrants
    registered since. Refused when the event has no departments."""
    with transaction.atomic():
        _locked(tournament.pk)
        departments = {department.pk: department for department in Department.objects.filter(tournament=tournament)}
        if not departments:
            raise UserError(
                "no_departments",
                _("No departments are registered: name teams by hand, or import a roster with departments."),
            )
        free = (
            Pair.objects.filter(tournament=tournament, team_membership__isnull=True)
            .exclude(status=PairStatus.WITHDRAWN)
            .prefetch_related(Prefetch("members", queryset=PairMember.objects.select_related("player")))
            .order_by("number")
        )
        by_department: dict[int, list[Pair]] = defaultdict(list)
        for pair in free:
            department_id = _department_of(pair)
            if department_id is not None:
                by_department[department_id].append(pair)
        existing = {
            team.department_id: team for team in Team.objects.filter(tournament=tournament, department__isnull=False)
        }
        done = DepartmentTeams()
        number = (Team.objects.filter(tournament=tournament).aggregate(top=Max("number"))["top"] or 0) + 1
        for department in sorted(departments.values(), key=lambda item: item.name):
            pairs = by_department.get(department.pk, [])
            team = existing.get(department.pk)
            if team is None:
                if len(pairs) < TEAM_MIN_MEMBERS:
                    if pairs:
                        done.skipped.append(department.name)
                    continue
                if Team.objects.filter(tournament=tournament, name=department.name).exists():
                    done.skipped.append(department.name)  # a team named by hand took the name
                    continue
                team = Team(tournament=tournament, number=number, name=department.name, department=department)
                number += 1
                history_author(team, user)
                team.save()
                done.created.append(team)
            elif pairs:
                done.extended.append(team)
            done.added += len(_members_write(team=team, pairs=pairs, substitute=False, user=user))
            if team in done.extended:  # a department's team made short by hand, given one entrant more
                _short_check(team=team, change="joined")
    return done


# -- reads -----------------------------------------------------------------------------------------------


def teams_with_members(*, tournament: Tournament) -> QuerySet[Team]:
    """The event's teams in number order, each with its members (entrant and players) prefetched."""
    members = TeamMember.objects.select_related("pair").order_by("position")
    return (
        Team.objects.filter(tournament=tournament)
        .select_related("department")
        .prefetch_related(Prefetch("members", queryset=members))
        .order_by("number")
    )


def teams_short(*, tournament: Tournament) -> list[Team]:
    """The event's teams with fewer than two members, in number order."""
    return list(
        Team.objects.filter(tournament=tournament)
        .annotate(size=Count("members"))
        .filter(size__lt=TEAM_MIN_MEMBERS)
        .order_by("number")
    )


def teams_ready_check(*, tournament: Tournament, field: str = "team_total") -> None:
    """Refuse ranking teams (a stage's team option, named by ``field`` on the form that sets it) while
    the event has no team, or a team with fewer than two members (docs/rules.md §11). Takes the event's
    row lock, as every team write does: call it in the transaction that saves the stage, so a team made
    short at the same moment waits for the stage and is then refused by :data:`team_short`."""
    _locked(tournament.pk)
    if not Team.objects.filter(tournament=tournament).exists():
        raise UserError.of_fields(
            {field: _("The event has no teams yet: make them on the teams page first.")}, code="no_teams"
        )
    short = teams_short(tournament=tournament)
    if short:
        names = "、".join(team.name for team in short)
        raise UserError.of_fields(
            {field: _("A team has at least two members; these have fewer: %(teams)s.") % {"teams": names}},
            code="team_too_small",
        )


def team_of_pairs(*, tournament: Tournament, pair_ids: Sequence[int] | None = None) -> dict[int, Team]:
    """Entrant id → its team (of ``pair_ids`` if given)."""
    members = TeamMember.objects.filter(team__tournament=tournament).select_related("team")
    if pair_ids is not None:
        members = members.filter(pair_id__in=pair_ids)
    return {member.pair_id: member.team for member in members}


def pairs_free(*, tournament: Tournament) -> QuerySet[Pair]:
    """The event's entrants in no team (not withdrawn), by number: those the teams page offers."""
    return (
        Pair.objects.filter(tournament=tournament, team_membership__isnull=True)
        .exclude(status=PairStatus.WITHDRAWN)
        .order_by("number")
    )


def teams_withdrawn(*, tournament_id: int) -> frozenset[int]:
    """The event's teams none of whose members plays any more: every member (substitutes too) withdrew
    (docs/rules.md §11). Such a team has withdrawn: it advances nowhere, and in a knockout its next team
    match is a walkover for its opponent, as a withdrawn pair's match is (docs/rules.md §4, §5)."""
    members = TeamMember.objects.filter(team__tournament_id=tournament_id)
    present = set(members.exclude(pair__status=PairStatus.WITHDRAWN).values_list("team_id", flat=True))
    return frozenset(set(members.values_list("team_id", flat=True)) - present)


__all__ = [
    "TEAM_MIN_MEMBERS",
    "DepartmentTeams",
    "TeamChange",
    "pairs_free",
    "team_create",
    "team_delete",
    "team_member_add",
    "team_member_remove",
    "team_of_pairs",
    "team_rename",
    "team_seed_set",
    "team_short",
    "team_substitute_add",
    "teams_from_departments",
    "teams_ready_check",
    "teams_short",
    "teams_with_members",
    "teams_withdrawn",
]
