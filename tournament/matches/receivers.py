"""Receivers of the matches app."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete
from django.dispatch import receiver

from tournament.matches.models import Referee


@receiver(post_delete, sender=Referee)
def _referee_account_goes_with_the_referee(sender: Any, instance: Referee, **kwargs: Any) -> None:
    """A referee's account is theirs alone: when the referee goes (their event is
    deleted), so does the account, rather than linger as a referee account of no event — which
    every event would then offer (``referee_accounts_list``)."""
    get_user_model().objects.filter(pk=instance.user_id).delete()
