"""Receivers of the matches app: the registration app's signals, and a referee's account."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete
from django.dispatch import receiver

from tournament.matches import event
from tournament.matches.models import Referee
from tournament.registration.models import Pair, Team, Tournament
from tournament.registration.signals import check_in_undoing, event_deleting, event_rules_changed
from tournament.registration.teams import TeamChange, team_short


@receiver(post_delete, sender=Referee)
def _referee_account_goes_with_the_referee(sender: Any, instance: Referee, **kwargs: Any) -> None:
    """A referee's account is theirs alone: when the referee goes (their event is deleted), so does
    the account, rather than linger as a referee account of no event — which every event would then
    offer (``referee_accounts_list``)."""
    get_user_model().objects.filter(pk=instance.user_id).delete()


@receiver(event_rules_changed, sender=Tournament, dispatch_uid="matches.stages_follow_rules")
def _stages_follow_rules(sender: Any, tournament: Tournament, **kwargs: Any) -> None:
    """The event's rules were edited: the stages follow, or the lock refuses (``matches.event``)."""
    event.stages_follow_rules(tournament=tournament)


@receiver(event_deleting, sender=Tournament, dispatch_uid="matches.event_delete_check")
def _event_delete_check(sender: Any, tournament: Tournament, **kwargs: Any) -> None:
    """An event with results is archived, not deleted (``matches.event``)."""
    event.event_delete_check(tournament=tournament)


@receiver(check_in_undoing, sender=Pair, dispatch_uid="matches.check_in_undo_check")
def _check_in_undo_check(sender: Any, pair: Pair, **kwargs: Any) -> None:
    """A pair in a draw keeps its check-in (``matches.event``)."""
    event.check_in_undo_check(pair=pair)


@receiver(team_short, sender=Team, dispatch_uid="matches.team_short_check")
def _team_short_check(sender: Any, team: Team, members: int, change: TeamChange, **kwargs: Any) -> None:
    """A team of fewer than two members, as the event's stages allow it (docs/rules.md §11)."""
    event.team_short_check(team=team, members=members, change=change)
