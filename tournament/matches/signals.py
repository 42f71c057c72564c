"""Signals of the matches app, sent after the transaction that caused them commits.

- ``match_confirmed(sender=Match, match=…)``: a referee signed a match off (its result is final
  until an organiser unlocks it). Standings read confirmed snapshots on their own; a knockout's
  bracket progression (the draw app) may listen here.
- ``match_unlocked(sender=Match, match=…)``: an organiser reopened a signed-off match.
"""

from __future__ import annotations

from django.dispatch import Signal

match_confirmed = Signal()
match_unlocked = Signal()
