"""Signals of the registration app: an event's life, for the apps above it to follow or refuse.

Both are sent inside the writing transaction, with ``send`` (not ``send_robust``): a receiver that
raises a user's error (``UserError``, ``ValidationError``) refuses the write, the transaction rolls
back and nothing changes. The stages, rounds and results they ask about live in the matches app,
above this one; its receivers (``tournament.matches.receivers``) answer.

- ``event_rules_changed(sender=Tournament, tournament=…)``: the event's profile or overrides were
  saved (its row locked, the new values on it). The stages follow (their stored rules are resolved
  again), or — once a round is drawn — the edit is refused.
- ``event_deleting(sender=Tournament, tournament=…)``: the event is about to be deleted (its row
  locked); an event with results is refused (it is archived instead).
- ``check_in_undoing(sender=Pair, pair=…)``: the door is about to undo a pair's check-in (its event
  locked); a pair already in a draw is refused (withdrawal is the path: the draw keeps its seat).
"""

from __future__ import annotations

from django.dispatch import Signal

event_rules_changed = Signal()
event_deleting = Signal()
check_in_undoing = Signal()
