"""A knockout of teams (团体淘汰赛, docs/rules.md §11): the tie-break deal of a drawn team match.

A team match of a knockout cannot end drawn. When its two tables leave it level (by ``team_decider``),
the rules core says it needs a tie-break deal (:attr:`scoring.team_matches.TeamMatchStatus.NEEDS_EXTRA_DEAL`)
and at which table (table a; table b when table a was a walkover). The referee plays that one deal and
the organiser records which side of that table won it: that side's team goes through. The bracket then
goes on as after any decided team match (:func:`tournament.draw.services.bracket_after_result`), and a
final decided so finishes the event as a signed-off final does.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.team_matches import TeamMatchStatus
from tournament.audit import history_author
from tournament.draw.receivers import event_decided
from tournament.draw.services import bracket_after_result
from tournament.errors import UserError
from tournament.matches.event import team_match_event
from tournament.matches.models import Side, TeamMatch
from tournament.people import Actor
from tournament.registration.lifecycle import event_write, tournament_finish_decided
from tournament.standings.team_matches import stage_team_matches_get


@event_write("team_match", of=team_match_event)
def team_match_extra_deal_record(*, team_match: TeamMatch, side: str, user: Actor | None = None) -> TeamMatch:
    """Record that ``side`` (``NS`` or ``EW``) of the deciding table won the tie-break deal of a drawn
    knockout team match (docs/rules.md §11), and let the bracket go on. Refused, nothing changed: a side
    that is neither, or a team match that is not waiting for a tie-break deal (not a knockout, not
    level, a table still playing, or its deal already recorded)."""
    if side not in Side.values:
        raise UserError("bad_input", _("Say which side won the tie-break deal: N/S or E/W."))
    with transaction.atomic():
        row = TeamMatch.objects.select_for_update(of=("self",)).select_related("round__stage").get(pk=team_match.pk)
        stage = row.round.stage
        line = next(line for line in stage_team_matches_get(stage=stage).matches if line.id == row.pk)
        if line.result.status is not TeamMatchStatus.NEEDS_EXTRA_DEAL:
            raise UserError(
                "no_extra_deal_due",
                _(
                    "This team match is not waiting for a tie-break deal: only a knockout team match "
                    "whose two tables leave it level plays one."
                ),
                status=409,
            )
        row.extra_deal = side
        history_author(row, user, "tie-break deal recorded")
        row.save(update_fields=["extra_deal"])
    table = row.table_a or row.table_b
    if table is not None:  # what a sign-off sets off, again: the team match is decided only now
        bracket_after_result(match=table, user=user)
        if event_decided(match=table):  # a final decided by its tie-break deal
            tournament_finish_decided(tournament_id=stage.tournament_id)
    team_match.extra_deal = row.extra_deal
    return team_match
