"""Writes of a team match's two tables as one (docs/rules.md §11): the sign-off of both tables.

Each table is an ordinary match and is signed off as one (:func:`match_sign_off`); a team match is
finished only when both tables are, so signing it off while a table has no result is refused and
changes nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.errors import UserError
from tournament.matches.event import team_match_event
from tournament.matches.models import Match, MatchStatus, TeamMatch
from tournament.matches.services import match_sign_off
from tournament.people import Actor
from tournament.registration.lifecycle import event_write


def team_match_tables(*, team_match: TeamMatch) -> list[Match]:
    """Table a then table b (a bye has none)."""
    return [match for match in (team_match.table_a, team_match.table_b) if match is not None]


@event_write("team_match", of=team_match_event)
def team_match_sign_off(*, team_match: TeamMatch, user: Actor | None = None) -> TeamMatch:
    """Sign off both tables of ``team_match``. Refused (nothing signed off) while a table has no result:
    the team match is finished when both tables are (docs/rules.md §11)."""
    with transaction.atomic():
        tables = list(
            Match.objects.select_for_update(of=("self",))
            .filter(pk__in=[m.pk for m in team_match_tables(team_match=team_match)])
            .order_by("pk")  # no join to the nullable table (PostgreSQL refuses to lock one); locks in one order
        )
        waiting = [m for m in tables if m.status in (MatchStatus.PENDING, MatchStatus.RUNNING)]
        if waiting:
            raise UserError(
                "team_match_unfinished",
                _(
                    "Both tables of a team match need their result before it is signed off "
                    "(table %(tables)s is still playing)."
                )
                % {"tables": ", ".join(_table_letter(team_match, m) for m in waiting)},
                status=409,
            )
        for match in sorted(tables, key=lambda m: m.pk):
            match_sign_off(match_id=match.pk, user=user)
    return team_match


def _table_letter(team_match: TeamMatch, match: Match) -> str:
    return "a" if match.pk == team_match.table_a_id else "b"
