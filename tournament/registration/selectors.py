"""Registration reads, scoped by tournament."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, Count, OuterRef, Prefetch, Q, QuerySet, Subquery, Value, When

from tournament.parsing import ascii_digits
from tournament.registration.models import Pair, PairMember, PairStatus, Team, TeamMember, Tournament


def pairs_with_players(*, tournament: Tournament, query: str = "") -> QuerySet[Pair]:
    """The tournament's pairs (those ``query`` finds, :func:`pairs_matching`) with their two
    players (and departments) prefetched."""
    members = PairMember.objects.select_related("player__department").order_by("slot")
    return (
        pairs_matching(tournament=tournament, query=query)
        .prefetch_related(Prefetch("members", queryset=members))
        .order_by("id")
    )


CHECKIN_PAGE_SIZE = 50
PAIR_PAGE_SIZE = 100
"""The organiser's pair list comes in pages: 5,000 pairs on one page were 3.5 MB and six seconds."""


def pairs_matching(*, tournament: Tournament, query: str = "") -> QuerySet[Pair]:
    """The tournament's pairs a search finds (all of them for none): a player's name (part), an
    employee number (start), the pair's name (part), its team's name (part: the team's members
    together) or its number (``12`` / ``#12``)."""
    pairs = Pair.objects.filter(tournament=tournament)
    query = query.strip()
    if query:
        matching = PairMember.objects.filter(player__tournament=tournament).filter(
            Q(player__name__icontains=query) | Q(player__employee_number__istartswith=query)
        )
        found = (
            Q(pk__in=matching.values("pair_id"))
            | Q(name__icontains=query)
            | Q(team_membership__team__name__icontains=query)
        )
        if ascii_digits(query.lstrip("#")) and len(query) <= 10:
            found |= Q(number=int(query.lstrip("#")))  # the pair's number in the event ("#12"), not its id
        pairs = pairs.filter(found)
    return pairs


@dataclass(frozen=True, slots=True)
class CheckinPage:
    """One page of the door's list: pairs still to check in first, then checked in, then withdrawn."""

    pairs: list[Pair]
    number: int
    has_next: bool
    counts: dict[str, int]


def checkin_counts(*, tournament: Tournament) -> dict[str, int]:
    """Checked in / expected (every pair not withdrawn) / withdrawn — one query."""
    counts = Pair.objects.filter(tournament=tournament).aggregate(
        expected=Count("id", filter=~Q(status=PairStatus.WITHDRAWN)),
        checked_in=Count("id", filter=Q(status=PairStatus.CHECKED_IN)),
        withdrawn=Count("id", filter=Q(status=PairStatus.WITHDRAWN)),
    )
    counts["to_come"] = counts["expected"] - counts["checked_in"]
    return counts


def _team_columns() -> dict[str, Subquery]:
    """A door row's team (docs/rules.md §11): its id, name and the entrant's place in it, as subqueries."""
    member = TeamMember.objects.filter(pair=OuterRef("pk"))
    return {
        "team_id": Subquery(member.values("team_id")[:1]),
        "team_name": Subquery(member.values("team__name")[:1]),
        "team_position": Subquery(member.values("position")[:1]),
        "team_substitute": Subquery(member.values("substitute")[:1]),
    }


def checkin_page(
    *,
    tournament: Tournament,
    query: str = "",
    page: int = 1,
    per_page: int = CHECKIN_PAGE_SIZE,
    team: Team | None = None,
) -> CheckinPage:
    """A page of the check-in list in one query (the two players' employee numbers are
    subqueries, not a prefetch; ``per_page + 1`` rows tell whether there is a next page without a
    count). ``query``: a player's name (part), an employee number (start), a team's name or the
    pair's number. ``team``: that team's members together, in the team's order (substitutes last)."""
    page = max(1, page)
    first = PairMember.objects.filter(pair=OuterRef("pk"), slot=1).values("player__employee_number")[:1]
    second = PairMember.objects.filter(pair=OuterRef("pk"), slot=2).values("player__employee_number")[:1]
    pairs = pairs_matching(tournament=tournament, query=query)
    order = ["door_order", "id"]
    if team is not None:
        pairs = pairs.filter(team_membership__team=team)
        order = ["team_substitute", "team_position"]
    rows: list[Pair] = list(
        pairs.annotate(
            door_order=Case(
                When(status=PairStatus.REGISTERED, then=Value(0)),
                When(status=PairStatus.CHECKED_IN, then=Value(1)),
                default=Value(2),
            ),
            first_number=Subquery(first),
            second_number=Subquery(second),
            **_team_columns(),
        )
        .only("id", "number", "name", "status", "seed", "checked_in_at", "tournament_id")
        .order_by(*order)[(page - 1) * per_page : page * per_page + 1]
    )
    return CheckinPage(
        pairs=rows[:per_page],
        number=page,
        has_next=len(rows) > per_page,
        counts=checkin_counts(tournament=tournament),
    )


def checkin_row(*, tournament: Tournament, pair_id: int) -> Pair:
    """One row of the check-in list, as :func:`checkin_page` reads it (after a tap)."""
    first = PairMember.objects.filter(pair=OuterRef("pk"), slot=1).values("player__employee_number")[:1]
    second = PairMember.objects.filter(pair=OuterRef("pk"), slot=2).values("player__employee_number")[:1]
    return Pair.objects.annotate(first_number=Subquery(first), second_number=Subquery(second), **_team_columns()).get(
        tournament=tournament, pk=pair_id
    )
